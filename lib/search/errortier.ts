/**
 * The `error` tier: a pasted error message, matched by its signature — the
 * error line with what changes from run to run (paths, numbers, hex, quotes)
 * taken out (lib/memory/signature.ts) — against the events of the history.
 * An event matches when it holds at least 60 % of the signature's words,
 * weighted by how rare each word is, and at least {@link MIN_DISTINCT} of its
 * distinctive words (those not merely saying "error", lib/memory/signature.ts
 * `SAYS_ERROR`) — a word the history nowhere holds counts as missing, so
 * `API Error: Repeated 529 Overloaded errors` is not matched by a session
 * about API keys that mentions an error. And the event holds some of the error's
 * wording as written: {@link MIN_RUN} of the signature's words in a row (all of a shorter
 * signature), so a long text that only holds its words scattered (`no`, `file`,
 * `directory`, `open` in a table of notes) is no match (trial 65: `Error: ENOENT: no such
 * file or directory, open 'package.json'`, in no session, "matched by error signature" two
 * sessions about other things). Counts as a match.
 *
 * @module
 */
import { ftsAny, STOP_WORDS } from "../query.ts";
import { Q } from "../schema.ts";
import { SAYS_ERROR, signature } from "../memory/signature.ts";
import { type Filters, matchRows, type Row } from "./retrieve.ts";
import { combine, type ScoredEvent, type SessionScore } from "./rank.ts";
import type { TermStats } from "./expand.ts";
import { ERROR } from "./signals.ts";
import { tokens } from "./tokenize.ts";

/** Share of the signature's IDF weight an event must hold. */
export const MIN_COVER = 0.6;

/** Share of the signature's distinctive words an event must hold (rounded up: all of up to three). */
export const MIN_DISTINCT = 0.75;

const KIND: Record<string, number> = { tool_result: 1, user: 0.9, assistant: 0.8, summary: 0.8 };

/** The signature words of an error-shaped query (empty when it does not look like one). */
export function errorWords(query: string): string[] {
  const words = new Set<string>();
  for (const line of errorLines(query)) {
    for (const w of tokens(signature(line))) if (w.length > 1 && !STOP_WORDS.has(w)) words.add(w);
    if (words.size >= 24) break;
  }
  return words.size >= 2 ? [...words] : [];
}

/** The lines of `query` that report an error (of its first 40). */
function errorLines(query: string): string[] {
  return query.split(/\r?\n/).slice(0, 40).filter((l) => ERROR_LINE.test(l));
}

/**
 * The words of the commands a shell says it did not find (`docker: command not found`, `bash:
 * line 1: gh: command not found`): what the error is about, which a matching event must hold
 * (trial 81: `docker: command not found` matched `op: command not found`, "by error signature").
 */
export function missingCommands(query: string): string[] {
  const out = new Set<string>();
  for (const line of errorLines(query)) {
    const m = NOT_FOUND_SUBJECT.exec(line);
    if (m) { for (const w of tokens(m[1])) out.add(w); }
  }
  return [...out];
}

const NOT_FOUND_SUBJECT =
  /^\s*(?:\S*\/)?(?:(?:ba|z|da|k)?sh:\s*(?:line \d+:\s*)?)?([\w.+-]{2,60}):\s*command not found\b/i;

/** Words of an error's signature an event must hold in a row (all of a shorter signature). */
export const MIN_RUN = 3;

/**
 * Every {@link MIN_RUN} words in a row of each error line's signature, as ` a b c ` (with
 * the spaces around, to look for in an event's words joined so): what an event holding the
 * error as written holds in a row, whatever a path or number cut out of the signature was.
 */
export function errorRuns(query: string): string[] {
  const out = new Set<string>();
  for (const line of errorLines(query)) {
    const ws = tokens(signature(line));
    const k = Math.min(MIN_RUN, ws.length);
    for (let i = 0; k > 0 && i + k <= ws.length; i++) out.add(` ${ws.slice(i, i + k).join(" ")} `);
  }
  return [...out];
}

/**
 * A line that reports an error, as a program prints it (a question that
 * mentions an error is not one): an error or exception class, an errno name,
 * a CamelCase name and a colon (`UniqueViolation: …`), `error:` / `error[`,
 * `panic:`, `fatal:`, a traceback, `FAILED`, an exit
 * status, or the usual wording of a failure message.
 */
export const ERROR_LINE = new RegExp(
  [
    String.raw`\b[A-Za-z][A-Za-z0-9_.]*(?:Error|Exception|Failure|Fault)\b`,
    String.raw`\bE[A-Z]{3,}\b`,
    String.raw`\b(?:[A-Z][a-z0-9]+){2,}:\s`,
    String
      .raw`\b(?:[Ee]rror|ERROR|[Ww]arning|[Ff]atal|FATAL|[Pp]anic|[Ff]ailed|FAIL(?:ED)?)(?:\[\w+\])?:`,
    String.raw`\bTraceback \(most recent call last\)`,
    String.raw`\bexit (?:code|status) -?\d+`,
    String
      .raw`\b(?:[Cc]annot|[Cc]an't|[Cc]ould not|[Uu]nable to) (?:find|read|open|resolve|connect|load|access|allocate|invoke)\b`,
    String
      .raw`\b(?:[Nn]o such file|not found|is not defined|does not exist|[Pp]ermission denied|[Cc]onnection refused|[Ss]egmentation fault|out of memory|timed out)\b`,
    // PowerShell's error of a cmdlet (`Get-Content : A positional parameter cannot be found…`,
    // trial 92 F2: matched only with `Error:` typed before it).
    String.raw`^\s*[A-Z][a-z]+-[A-Z][A-Za-z]+\s+:\s+\S`,
    // A provider's validation message (`Invalid 'input[3].name': empty string`, trial 90 F3).
    String.raw`\bInvalid\s+['"\u2018][^'"\u2019]+['"\u2019]:`,
  ].join("|"),
);

/**
 * A pasted error whose double quotes are its own, not phrases asked for: a JSON body (`{"error":
 * "developer is not one of …"}`, trial 90 F1) or an error line quoting names (`container "web"
 * in pod "forgejo-web" not found`, F2: each quoted name was a phrase every session had to hold,
 * so another pod's name found nothing). The query with them taken out (a JSON key's `":"` read
 * as `: `); undefined for any other query, a wholly quoted one too (`"No such file or
 * directory"`: a phrase).
 */
export function errorQuotes(query: string): string | undefined {
  const t = query.trim();
  if (!t.includes('"') || /^"[^"]*"$/.test(t)) return undefined;
  const json = /^[{[]/.test(t) && /"\s*:/.test(t);
  if (!json && !ERROR_LINE.test(t.replace(/"[^"]*"/g, " "))) return undefined;
  return t.replace(/"\s*:\s*"?/g, ": ").replaceAll('"', " ");
}

/**
 * Sessions holding the error of `query`.
 *
 * @returns scores per session (filed under `rootOf`), and the words matched.
 */
export function errorTier(
  stats: TermStats,
  query: string,
  f: Filters,
  rootOf: (id: number) => number,
): { scores: Map<number, SessionScore>; words: string[] } {
  const empty = { scores: new Map<number, SessionScore>(), words: [] };
  const all = errorWords(query);
  const words = all.filter((w) => stats.docs(w) > 0);
  if (words.length < 2) return empty;
  const runs = errorRuns(query);
  const must = missingCommands(query);
  const distinct = all.filter((w) => !SAYS_ERROR.has(w));
  const needDistinct = Math.ceil(MIN_DISTINCT * distinct.length);
  const n = Math.max(1, Q.eventCount.get(stats.store, {})!.n);
  const idf = new Map(words.map((w) => [w, Math.log(1 + n / (stats.docs(w) + 0.5))]));
  const total = [...idf.values()].reduce((a, b) => a + b, 0);
  const rarest = [...words].sort((a, b) => stats.docs(a) - stats.docs(b)).slice(0, 6);
  const rows = matchRows(stats.store, ftsAny(rarest.map((w) => [w])), f, 300);
  if (!rows.length) return empty;
  const texts = new Map<number, string>();
  for (
    const r of Q.eventTexts.all(stats.store, {
      ids: JSON.stringify(rows.map((r) => r.event_id)),
    })
  ) texts.set(r.id, r.text);
  const bySession = new Map<number, ScoredEvent[]>();
  for (const r of rows) {
    const seq = tokens((texts.get(r.event_id) ?? "").slice(0, 32_000));
    const have = new Set(seq);
    let got = 0;
    let held = 0;
    for (const w of words) {
      if (have.has(w)) {
        got += idf.get(w)!;
        held++;
      }
    }
    const cover = got / total;
    if (cover < MIN_COVER || held < 2) continue;
    if (distinct.filter((w) => have.has(w)).length < needDistinct) continue;
    if (!must.every((w) => have.has(w))) continue;
    const inRow = ` ${seq.join(" ")} `;
    if (!runs.some((run) => inRow.includes(run))) continue;
    const sc = 10 * cover * cover * (KIND[r.kind] ?? 0.8) * (r.flags & ERROR ? 1.2 : 1);
    const sid = rootOf(r.session_id);
    let l = bySession.get(sid);
    if (!l) bySession.set(sid, l = []);
    l.push({ row: r as Row, score: sc });
  }
  const scores = new Map<number, SessionScore>();
  for (const [sid, evs] of bySession) {
    evs.sort((a, b) => b.score - a.score);
    scores.set(sid, {
      sessionId: sid,
      score: combine(evs.slice(0, 3).map((e) => e.score)),
      events: evs,
      spread: false,
    });
  }
  return { scores, words };
}
