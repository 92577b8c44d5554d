/**
 * Where an error is held (lib/memory/fix.ts): the events whose text holds one of the
 * error's signatures, found through the full-text index and decided line by line
 * ({@link hits}); whether they hold the error's specific names ({@link holdsNames}); and the
 * answer when no failing command's output holds it ({@link unseen}): the sessions that hold
 * it all the same, pasted, quoted or reported, named rather than called never seen.
 *
 * @module
 */
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { tokens } from "../query.ts";
import { datedFirst } from "../session_time.ts";
import { oneLine } from "../../core/text.ts";
import {
  CLOSE_MATCH,
  core,
  matchShare,
  otherKind,
  type Quoted,
  quotedNames,
  sameError,
  signature,
  textLines,
  unquotedNames,
  usable,
} from "./signature.ts";
import { matchRows } from "../search/retrieve.ts";
import { ERROR_LINE, errorQuotes, errorTier } from "../search/errortier.ts";
import { TermStats } from "../search/expand.ts";
import { countsAsHidden } from "../search/sessions.ts";
import type { FixResult } from "./fix.ts";

export interface Hit {
  sessionId: number;
  seq: number;
  callId: string | null;
  /** The event's text, lower case (to look for the error's specific names in). */
  text: string;
  /** The line that matched, on one line (the error's form as this session holds it). */
  line: string;
  /** The line is the error itself, not a longer error holding it (signature.ts `matchShare`). */
  close: boolean;
  /** The event's kind (a harness's notice: a provider's error it reported), when known. */
  kind?: string;
  /** The names the matched line quotes (signature.ts `quotedNames`). */
  quoted: Quoted[];
}

/**
 * Word sets to narrow the search with, most specific first: the four longest
 * words, the two longest, then the other pairs of the four (a word glued to a
 * colour code in the stored output, `\x1b[31;1mParserError`, is no token of
 * its own there).
 */
function narrowings(words: string[]): string[][] {
  const top = words.slice(0, 4);
  const out = [top, top.slice(0, 2)];
  for (let i = 0; i < top.length; i++) {
    for (let j = i + 1; j < top.length; j++) if (i + j > 1) out.push([top[i], top[j]]);
  }
  return out.filter((p, k) => p.length && (k === 0 || p.length < top.length));
}

/** An event an FTS match narrowed to, with its text. */
type Candidate = {
  id: number;
  session_id: number;
  seq: number;
  call_id: string | null;
  text: string;
  /** The event's kind, when the query gives it (tool results' does not: they are all one). */
  kind?: string;
};

/** Tool results matching an FTS expression. */
const results = (store: Store) => (match: string): Candidate[] =>
  Q.resultsMatching.all(store, { match });

/** Events of any kind matching an FTS expression (the best 300). */
const anyEvents = (store: Store) => (match: string): Candidate[] => {
  const rows = matchRows(store, match, {}, 300);
  const ids = JSON.stringify(rows.map((r) => r.event_id));
  const text = new Map(Q.eventTexts.all(store, { ids }).map((t) => [t.id, t.text]));
  return rows.map((r) => ({
    id: r.event_id,
    session_id: r.session_id,
    seq: r.seq,
    call_id: null,
    text: text.get(r.event_id) ?? "",
    kind: r.kind,
  }));
};

/**
 * Events (by `rowsOf`: tool results unless told) whose text holds one of `sigs` (FTS narrows,
 * lines decide, signature.ts `textLines`). When some hold a signature as the error itself, those
 * holding it only inside a longer, different error (`file not found` in `"yq": executable file
 * not found in $PATH`) are left out.
 */
export function hits(
  store: Store,
  sigs: string[],
  rowsOf: (match: string) => Candidate[] = results(store),
): Hit[] {
  const out = new Map<number, Hit>();
  for (const sig of sigs) {
    const mine = new Map<number, Hit>();
    const words = [...new Set(tokens(core(sig)))].filter((w) => w.length > 2)
      .sort((a, b) => b.length - a.length);
    for (const pick of narrowings(words)) {
      const match = pick.map((w) => `"${w}"`).join(" AND ");
      const rows = rowsOf(match);
      let found = false;
      for (const r of rows) {
        let line = "";
        let share = 0;
        for (const l of textLines(r.text)) {
          const ls = signature(l);
          if (!usable(ls) || !sameError(ls, sig)) continue;
          const m = matchShare(ls, sig);
          if (m > share) [line, share] = [l, m];
        }
        if (!share) continue;
        found = true;
        mine.set(r.id, {
          sessionId: r.session_id,
          seq: r.seq,
          callId: r.call_id ?? null,
          text: r.text.toLowerCase(),
          line: oneLine(line.replace(/^[\s\d.:|#>*-]+/, "").replace(/["'`]/g, ""), 80),
          close: share >= CLOSE_MATCH,
          kind: r.kind,
          quoted: ((q) => q.length ? q : unquotedNames(r.text))(quotedNames(line)),
        });
      }
      if (found) break;
    }
    const close = [...mine.values()].some((h) => h.close);
    for (const [id, h] of mine) {
      if ((h.close || !close) && !out.get(id)?.close) out.set(id, h);
    }
  }
  return [...out.values()];
}

/**
 * True when `text` (lower case) holds the name `n` as a name of its own: not as the end of a
 * longer one (`image-repository.yaml` is not held by `frontend-image-repository.yaml`).
 */
export function holdsName(text: string, n: string): boolean {
  for (let i = text.indexOf(n); i >= 0; i = text.indexOf(n, i + 1)) {
    if (i === 0 || !/[\p{L}\p{N}_.-]/u.test(text[i - 1])) return true;
  }
  return false;
}

/** True when `text` (lower case) holds every one of `names` ({@link holdsName}). */
export function holdsAll(text: string, names: string[]): boolean {
  return names.every((n) => holdsName(text, n));
}

/** True when the events of `hits` hold every one of `names` (lower case). */
export function holdsNames(hits: Hit[], names: string[]): boolean {
  return names.every((n) => hits.some((h) => holdsName(h.text, n)));
}

/**
 * `, but only in its general form 'Cannot find module', not 'left-pad'`: said when no session
 * found holds the pasted error's specific names. `hits` are those of the session the answer
 * names first: the form is quoted from it, and only the names it does not hold are listed.
 */
export function generalForm(hits: Hit[], names: string[], otherNames = false): string {
  const form = formOf(hits);
  const missing = names.filter((n) => !hits.some((h) => holdsName(h.text, n)));
  const not = missing.slice(0, 3).map((n) => `'${oneLine(n, 60)}'`).join(", ");
  // Found with its names left out, the line seen names others (trial 14: "its general form
  // 'Cannot find module express'" read as if `express` were part of the general form).
  const how = otherNames ? "with other names" : "in its general form";
  return `, but only ${how}${form ? ` '${form}'` : ""}${not ? `, not ${not}` : ""}`;
}

/** The line {@link generalForm} quotes: the error's form as `hits`' session holds it. */
export function formOf(hits: Hit[]): string | undefined {
  return hits.find((h) => h.close && h.line)?.line ?? hits.find((h) => h.line)?.line;
}

/**
 * Where a session holds an error no failing command printed, by the kind of its event (trial
 * 39: a tool's own result was said to be "pasted or quoted").
 */
export const HOW = new Map<string, string>([
  ["notice", "reported by the harness"],
  ["user", "pasted in a prompt"],
  ["assistant", "quoted in a reply"],
  ["tool_result", "in a tool's output"],
  ["tool_call", "in a tool call"],
  ["summary", "in a summary"],
]);

/**
 * Where a text that names no error was one all the same: the harness reported it (a tool's
 * output holding it is read by the failed commands' outputs before).
 */
export const REPORTED: ReadonlySet<string> = new Set(["notice"]);

/** How surely an event of each kind saw the error happen: its own output above a paste. */
export const HAPPENED = new Map<string, number>([
  ["tool_result", 2],
  ["notice", 2],
  ["user", 1],
]);

/**
 * The answer when no failing command's output holds the error: the sessions
 * whose events hold it all the same (pasted into a prompt, quoted in a reply,
 * printed by a command that did not fail) are named, not called never seen.
 */
export function unseen(
  store: Store,
  signatures: string[],
  names: string[],
  hidden: ReadonlySet<number> | undefined | "skip",
  left: Set<number>,
  /** The pasted error's quoted names: a line quoting another kind of name is no match. */
  mine: readonly Quoted[] = [],
  /** The error as pasted: what the search's error tier matches when no signature is held. */
  errorText = "",
  /** Only events of these kinds. */
  only?: ReadonlySet<string>,
): Omit<FixResult, "lookedFor" | "hidden"> {
  const found = (hidden === "skip" ? [] : hits(store, signatures, anyEvents(store)))
    .filter((h) => {
      if (only && !only.has(h.kind ?? "")) return false;
      if (otherKind(mine, h.quoted)) return false;
      if (hidden === "skip" || !hidden?.has(h.sessionId)) return true;
      if (countsAsHidden(hidden, h.sessionId)) left.add(h.sessionId);
      return false;
    });
  // No signature held: the events the search's error tier matches (its distinctive words,
  // what changes from run to run aside), so that an error the search finds is not "never
  // seen" (trial 92 F1: another pod's name, a provider's error pasted whole, a log line).
  if (!found.length && hidden !== "skip" && errorText) {
    found.push(...likeHits(store, errorText, hidden));
  }
  const held = new Set(
    [...new Set(found.map((h) => h.sessionId))].filter((id) =>
      holdsNames(found.filter((h) => h.sessionId === id), names)
    ),
  );
  const ids = [...new Set(found.map((h) => h.sessionId))];
  // Where the error happened (a tool's output, the harness's notice) before where it was only
  // pasted, quoted or summed up (trial 57: the session whose own output printed
  // `MalformedYAMLError` came second to one that pasted another session's summary of it).
  const where = new Map<number, number>();
  for (const h of found) {
    where.set(h.sessionId, Math.max(where.get(h.sessionId) ?? 0, HAPPENED.get(h.kind ?? "") ?? 0));
  }
  const rows = Q.sessionsByIds.all(store, { ids: JSON.stringify(ids) })
    .sort((a, b) =>
      Number(held.has(b.id)) - Number(held.has(a.id)) ||
      (where.get(b.id) ?? 0) - (where.get(a.id) ?? 0) || datedFirst(a, b)
    );
  const mentioned = rows.slice(0, 5).map((s) => ({
    harness: s.harness,
    session: s.native_id,
    sessionRowId: s.id,
    title: s.title ?? null,
    specific: held.has(s.id),
  }));
  const n = rows.length;
  const named = new Set(mentioned.map((m) => m.sessionRowId));
  const kinds = new Set(found.filter((h) => named.has(h.sessionId)).map((h) => h.kind));
  const how = [...HOW].filter(([k]) => kinds.has(k)).map(([, v]) => v).join(", ") || "quoted";
  const specific = names.length && n ? held.size > 0 : null;
  const firstHits = found.filter((h) => h.sessionId === rows[0]?.id);
  const general = specific === false ? generalForm(firstHits, names) : "";
  const heldForm = general ? formOf(firstHits) : undefined;
  return {
    status: "unseen",
    message: n
      ? `no command deja saw failed with that error; ${n} session${n === 1 ? "" : "s"} ` +
        `${n === 1 ? "holds" : "hold"} it (${how})${general}`
      : "that error was never seen: no failing command's output holds it",
    ...(heldForm ? { heldForm } : {}),
    signatures,
    seen: 0,
    seenIn: [],
    fixes: [],
    mentioned,
    names,
    specific,
  };
}

/**
 * The events of sessions not `hidden` that the search's error tier matches for `errorText`
 * (lib/search/errortier.ts), as hits of the harness's kind of event; at most 5 sessions.
 */
export function likeHits(
  store: Store,
  errorText: string,
  hidden: ReadonlySet<number> | undefined,
): Hit[] {
  const text = errorQuotes(errorText) ?? errorText;
  const tier = errorTier(new TermStats(store), text, {
    hideSessionIds: hidden ? [...hidden] : undefined,
  }, (id) => id);
  const best = [...tier.scores.values()].sort((a, b) => b.score - a.score).slice(0, 5)
    .map((s) => s.events[0].row);
  const texts = new Map(
    Q.eventTexts.all(store, { ids: JSON.stringify(best.map((r) => r.event_id)) })
      .map((t) => [t.id, t.text]),
  );
  return best.map((r) => {
    const body = texts.get(r.event_id) ?? "";
    const line = body.split(/\r?\n/).find((l) => ERROR_LINE.test(l)) ?? body.split("\n")[0];
    return {
      sessionId: r.session_id,
      seq: r.seq,
      callId: null,
      text: body.toLowerCase(),
      line: oneLine(line, 200),
      close: false,
      kind: r.kind,
      quoted: [],
    };
  });
}
