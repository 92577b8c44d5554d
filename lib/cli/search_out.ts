/**
 * What `deja search` prints ({@link searchText}, {@link searchFooter}, the `hint:` lines of
 * {@link hintsText}) and its `--json` document ({@link searchJson}, docs/json-output.md), from
 * the data lib/cli/cmd_search.ts gathers.
 *
 * @module
 */
import type { SearchArgs, SearchData } from "./cmd_search.ts";
import { speaker } from "../speaker.ts";
import { colors, fmtSessionTime, isoTime } from "./common.ts";
import { oneLine, plural, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import type { SearchResult } from "../search.ts";
import { insideWindow, outsideWindow } from "./search_narration.ts";
import { sinceReadAs, windowDays } from "./last_window.ts";
import { parseQuery, STOP_WORDS } from "../query.ts";
import { shQuote } from "../shell.ts";
import { hiddenHint, undatedHint } from "./_memory.ts";
import {
  absentHint,
  apartHint,
  betweenHint,
  caseHint,
  literalOutsideHint,
  operatorHint,
  searchCommand,
  symbolHint,
} from "./_search_notes.ts";
import { acrossEvents, orphanMark, subagentMark } from "./search_words.ts";

/** The note id of snippet `s` of result `r`, when it is a note. */
function noteOf(d: SearchData, r: { id: string }, s: { seq: number }): string | undefined {
  return d.noteIds?.get(`${r.id}:${s.seq}`);
}

/** The reference a result is shown by: its shortest, else its whole id. */
function refOf(d: SearchData, r: { harness: string; id: string }): string {
  return d.refs.get(`${r.harness}:${r.id}`) ?? r.id;
}

/** `ranked on 'no', 'word' alone: 'zzqqxx' is in no searchable text`. */
export function nearOnText(n: NonNullable<SearchData["nearOn"]>): string {
  const q = (ws: string[]) => ws.map((w) => `'${w}'`).join(", ");
  return `ranked on ${q(n.held)} alone: ${q(n.nowhere)} ${
    n.nowhere.length === 1 ? "is" : "are"
  } in no searchable text`;
}

/** True when something matched (exit 0); the nearest sessions alone are exit 1. */
export function searchFound(d: SearchData): boolean {
  return d.result.results.length > 0 && !d.result.nothingMatched;
}

/** The `--json` document (docs/json-output.md, `search`). */
/**
 * The window `--since` gave, as the text says it (trial 106 F8: `deja --since yesterday redis`
 * said nothing of it, where `deja redis yesterday` named its window): `--since yesterday: since
 * Sat 2026-12-05; sessions before it left out`.
 */
export function sinceLine(typed: string, from: number, now = Date.now()): string {
  return `--since ${typed.trim()}${sinceReadAs(typed, now)}: ${
    windowDays({ from, to: now + 1, words: typed }, now)
  }; sessions before it left out`;
}

export function searchJson(
  d: SearchData,
  args: Pick<SearchArgs, "query" | "regex"> & Partial<Pick<SearchArgs, "since" | "sinceText">>,
): Record<string, unknown> {
  const f = d.filtered;
  const base = jsonOf(d.result, (r) => refOf(d, r), (r, s) => noteOf(d, r, s));
  return {
    ...base,
    forms_unread: d.formsUnread ?? [],
    // Trial 116 L2: `total` of `deja search file --json` was 27 at `--limit 27`, 28 at `--limit
    // 28` (the sessions saying only `files`, looked for when the limit leaves room): said here,
    // as the text says it ("showing 3 of 27 holding file as typed").
    total_excludes_forms: Boolean(d.formsUnread?.length),
    // What each session was about: its title, else its first typed prompt.
    results: base.results.map((r, i) => {
      const hit = d.result.results[i];
      return { ...r, about: d.about.get(`${hit.harness}:${hit.id}`) ?? null };
    }),
    embeddings: d.embeddings,
    filtered_out: f ? { filters: f.filters, sessions_without: f.without } : null,
    undated: d.undated,
    // trial 106 F8: the window `--since` gave (the text's `--since …:` line).
    since: args.since !== undefined && args.sinceText !== undefined
      ? { words: args.sinceText, from: new Date(args.since).toISOString() }
      : null,
    common_words_only: d.result.tier !== "regex" && commonWordsOnly(d.result.query).length > 0,
    changed_files: d.changed ?? [],
    described_tools: (d.products ?? []).map(({ options: _, ...p }) => p),
    words_apart: d.apart ?? [],
    words_between: d.between ?? null,
    // The words the nearest by relevance were ranked on, and those held nowhere, as the text
    // says them (trial 107 F4: said on stderr, absent here).
    ranked_on: d.nearOn && !d.absent
      ? { words: d.nearOn.held, in_no_session: d.nearOn.nowhere }
      : null,
    absent_words: d.absent
      ? {
        words: d.absent.words,
        without: d.absent.query,
        sessions: d.absent.sessions,
        session_id: d.absent.id ?? null,
      }
      : null,
    session_id: d.idOf ?? null,
    // What the text output says after its verdict (trial 47: a session's id among the words
    // was named on stderr and not here).
    hints: [
      // Said in text before the look-alikes (trial 92 F14: missing here).
      ...(d.result.nothingMatched && d.result.hidden > 0 && d.result.results.length
        ? ["--junk shows the throwaway ones"]
        : []),
      ...hintsText(d, args).split("\n").filter(Boolean).map((l) => l.replace(/^hint: /, "")),
    ],
  };
}

/**
 * The words of a query made of common words alone (`the`, `the of and to`), searched as
 * typed since nothing else is left: nearly every session holds them. Empty otherwise.
 */
export function commonWordsOnly(query: string): string[] {
  const parts = parseQuery(query).parts;
  const common = parts.every((t) =>
    !t.quoted && t.tokens.length === 1 && STOP_WORDS.has(t.tokens[0])
  );
  return common ? parts.map((t) => t.tokens[0]) : [];
}

/** The tiers whose results may hold every word in one event or only between events. */

/**
 * `3 hits` (`5000+ hits` when more matched than were read); a session found by its title alone
 * (lib/search/title.ts) says so.
 */
export function hitsOf(n: number, capped = false): string {
  return n ? `${n}${capped ? "+" : ""} hit${n === 1 && !capped ? "" : "s"}` : "title";
}

/** The results as text, a header line and snippets each (colour on a terminal). */
export function searchText(d: SearchData, io: Pick<IO, "isTTY" | "env">): string {
  const c = colors(io);
  const res = d.result;
  const out: string[] = [];
  const inWindow = insideWindow(res) > 0;
  for (const r of res.results) {
    const marks = [
      r.relatedOnly
        ? c.dim("none of the words, related ones")
        : r.partial
        ? c.dim("some of the words")
        : acrossEvents(res, r) // as the JSON's `spread` is (trial 15)
        ? c.dim("words across events")
        : "",
      r.gaveUp ? c.yellow("gave up") : "",
      r.throwaway ? c.yellow("throwaway") : "",
      r.parent ? c.dim(orphanMark(r.parent)) : "", // as `deja show` says (trial 121 M2)
      // Beside results inside the window the time words name: each one outside it, marked.
      inWindow && outsideWindow(res, r) ? c.dim(`not ${res.time!.words}`) : "",
      r.copies?.length
        ? c.dim(
          `also in ${
            r.copies.map((id) => refOf(d, { harness: r.harness, id })).join(", ")
          } (the same records)`,
        )
        : "",
    ].filter(Boolean).join(" ");
    out.push(
      `${c.cyan(refOf(d, r))}  ${c.bold(r.harness)}  ${
        fmtSessionTime(r.updated ?? r.started, r)
      }  ${tilde(r.project, io.env.home)}  ${c.dim(hitsOf(r.hits, r.hitsCapped))}${
        marks ? `  ${marks}` : ""
      }`,
    );
    const what = d.about.get(`${r.harness}:${r.id}`) ?? r.title;
    if (what) out.push(`  ${oneLine(what, 100)}`);
    for (const s of r.snippets) {
      const note = noteOf(d, r, s);
      // A subagent's event, filed under its parent, is said to be the subagent's (trial 116 L1).
      const sub = subagentMark(r, s, (id) => refOf(d, { harness: r.harness, id }));
      out.push(
        `    ${c.dim(speaker(r.harness, s.kind).padEnd(11))} ${
          c.marks(oneLine(s.text, 200, { marks: true }))
        }${note ? c.dim(`  (note ${note})`) : ""}${sub ? c.dim(`  (${sub})`) : ""}`,
      );
    }
  }
  return out.join("\n") + "\n";
}

/**
 * The lines after a search's results, for stderr (trial 59: on stdout they reached `wc -l`
 * and `grep`): how many more there are, and how to read one.
 */
export function searchFooter(d: SearchData, io: Pick<IO, "isTTY" | "env">): string {
  const c = colors(io);
  const res = d.result;
  const out: string[] = [];
  // A word's other forms were not looked for while its exact matches filled the list (trial 59:
  // "showing 10 of 18" where `--limit 50` listed 20, two saying `errors` and `erred`).
  const others = d.formsUnread?.slice(0, 4).join(", ");
  if (res.total > res.results.length) {
    // With forms unread, the total is of the sessions holding the word as typed, and says so
    // (trial 99 F10: "showing 10 of 18" read as all that match, where 20 do with `errors`).
    out.push(
      `showing ${res.results.length} of ${res.total}${
        others ? ` holding ${oneLine(res.query, 40)} as typed` : ""
      }: --limit shows more${others ? `; its other forms (${others}) were not looked for` : ""}`,
    );
  } else if (others) {
    // No number, nor a promise: whether the forms add a session is not known until they are
    // read (trial 60: `--limit 28` named where 20 listed them all; trial 81: "lists the
    // sessions holding its other forms too" where they were all listed already).
    out.push(`its other forms (${others}) were not looked for: a larger --limit looks for them`);
  }
  out.push(`deja show <id> for a whole session`);
  return out.map((l) => c.dim(l)).join("\n") + "\n";
}

/**
 * The `hint:` lines of a search, as the text output prints them after its verdict and the
 * `--json` document lists them (`hints`): what to type instead, and what was left out.
 * `deja view` shows them too (trial 95 F8).
 */
export function hintsText(d: SearchData, args: Pick<SearchArgs, "query" | "regex">): string {
  const out: string[] = [];
  const io = { err: (s: string) => void out.push(s) } as unknown as IO;
  const found = d.result.results.length > 0;
  // Every word held exactly, but only by hidden sessions: said in the verdict instead.
  if (!found || !(d.result.nothingMatched && d.result.hidden > 0)) hiddenHint(io, d.result.hidden);
  if (found && d.filtered) io.err(literalOutsideHint(d.filtered));
  undatedHint(io, d.undated);
  if (d.shortened && !d.shortenedSaid) {
    io.err(
      `hint: ${plural(d.shortened, "store")} ${
        d.shortened === 1 ? "was" : "were"
      } indexed in part (the middle of a record past its size limit is not searchable); ` +
        "deja sources --verbose names them\n",
    );
  }
  unquotedHint(io, d.unquoted);
  absentHint(io, d.absent);
  if (d.modelOf) {
    const n = d.modelOf.sessions;
    const count = n === 1 ? "1 session" : `${n} sessions`;
    const q = d.modelOf.query;
    io.err(
      q === undefined
        ? `hint: '${d.modelOf.word}' is part of the model's name of ${count}: deja last --model ${
          shQuote(d.modelOf.word)
        }\n`
        : `hint: '${d.modelOf.word}' is part of a model's name: ${
          searchCommand(/^[\w .-]+$/.test(q) ? q : shQuote(q))
        } --model ${shQuote(d.modelOf.word)} lists ${count}\n`,
    );
  }
  if (!found) apartHint(io, d.apart, d.filtered?.filters);
  if (!found) betweenHint(io, d.between);
  changedHint(io, d.changed);
  productsHint(io, d.products);
  idHint(io, d.idOf);
  if (!args.regex) io.err(symbolHint(args.query) + operatorHint(args.query));
  else if (!found) {
    io.err(caseHint(args.query));
    // Trial 18a: `forgejo.*crash` found nothing where a line break stands between the two.
    if (/(?<!\\)\.[*+]/.test(args.query)) {
      io.err("hint: '.' matches no line break; [\\s\\S]* spans lines\n");
    }
  }
  return out.join("");
}

/** Names the commands that take a session's id, for a query that is one ({@link sessionIdTyped}). */
function idHint(io: IO, idOf: string | undefined): void {
  if (!idOf) return;
  const ref = shQuote(idOf);
  io.err(`hint: ${idOf} is a session's id: deja show ${ref} (or deja ctx ${ref})\n`);
}

/**
 * Names the tools the query's words describe that sessions name, none of the first listed
 * (`hint: 'self hosted git server' describes forgejo, which 1 session names: deja forgejo`).
 */
function productsHint(io: IO, products: SearchData["products"]): void {
  for (const p of products ?? []) {
    const n = p.sessions === 1 ? "1 session names" : `${p.sessions} sessions name`;
    io.err(
      `hint: '${p.words.join(" ")}' describes ${p.product}, which ${n}: ${
        searchCommand(p.product)
      }${p.options}\n`,
    );
  }
}

/** Names `deja blame` for a file the query names that sessions changed (lib/search/changed.ts). */
function changedHint(io: IO, changed: SearchData["changed"]): void {
  for (const c of changed ?? []) {
    const n = c.sessions === 1 ? "1 session" : `${c.sessions} sessions`;
    io.err(`hint: ${n} changed ${c.file}: deja blame ${shQuote(c.file)}\n`);
  }
}

/**
 * Says that the words of a quoted phrase that matched nothing match sessions without the
 * quotes, or that only hidden sessions hold them; each command carries the options the count
 * was made with (trial 132 F8, F9: `deja kubectl helm` offered for a count of `--harness codex`).
 */
function unquotedHint(io: IO, u: SearchData["unquoted"]): void {
  if (!u) return;
  const count = (n: number) => n === 1 ? "1 session" : `${n} sessions`;
  const typed = (q: string) => /^[\w .-]+$/.test(q) ? q : `'${q.replaceAll("'", "'\\''")}'`;
  const command = (q: string, more = "") => searchCommand(`${typed(q)}${u.options}${more}`);
  if (u.phrases) {
    const them = u.phrases.query.split('" "').length > 1 ? "phrases" : "phrase";
    io.err(
      `hint: the quoted ${them} alone match${them === "phrase" ? "es" : ""} ` +
        `${count(u.phrases.sessions)}: ${command(u.phrases.query)}\n`,
    );
  }
  const left = u.common?.length ? ` (left out as too common: ${u.common.join(", ")})` : "";
  if (u.hidden) {
    io.err(
      `hint: only ${u.hidden === 1 ? "1 hidden session" : `${u.hidden} hidden sessions`} ` +
        `(throwaway or excluded projects) ${u.hidden === 1 ? "holds" : "hold"} the words ` +
        `without quotes${left}; --junk shows the throwaway ones: ${command(u.query, " --junk")}\n`,
    );
    return;
  }
  if (!u.sessions) return;
  io.err(
    u.nearest
      ? `hint: the words without quotes match no session whole; by relevance ${
        count(u.sessions)
      }${left}: ${command(u.query)}\n`
      : `hint: the words without quotes match ${count(u.sessions)}${left}${
        u.then ? `, then ${u.then} nearest by relevance` : ""
      }: ${command(u.query)}\n`,
  );
}

function jsonOf(
  res: SearchResult,
  ref: (r: { harness: string; id: string }) => string,
  note: (r: { id: string }, s: { seq: number }) => string | undefined,
) {
  return {
    query: res.query,
    tier: res.tier,
    nothing_matched: res.nothingMatched,
    exact_follow: (res.exactFollow ?? 0) > 0,
    forms_follow: res.formsFollow ?? null,
    nearest_follow: res.nearestFollow ?? 0,
    nearest_after: res.nearestAfter ?? 0,
    total: res.total,
    changes: res.changes,
    dropped: res.dropped,
    time: res.time
      ? {
        from: isoTime(res.time.from),
        to: isoTime(res.time.to),
        words: res.time.words,
        ...(res.time.typed ? { typed: res.time.typed } : {}),
        inside: insideWindow(res),
      }
      : null,
    hidden: res.hidden,
    hidden_spelt: (res.hiddenSpelt ?? []).map(([from, to]) => ({ from, to })),
    cut: res.cut ?? null,
    results: res.results.map((r) => ({
      harness: r.harness,
      id: r.id,
      short_id: ref(r),
      // The parent the store records for a subagent listed on its own (trial 121 M2: absent).
      parent: r.parent,
      origin: r.origin,
      project: r.project,
      title: r.title,
      started: isoTime(r.started),
      updated: isoTime(r.updated),
      time_from_file: Boolean(r.timeFromFile),
      undated: r.timeFromFile === "shared",
      score: Number(r.score.toFixed(4)),
      hits: r.hits,
      hits_capped: Boolean(r.hitsCapped),
      gave_up: r.gaveUp,
      throwaway: r.throwaway,
      spread: r.spread,
      partial: Boolean(r.partial),
      related_only: Boolean(r.relatedOnly),
      title_match: r.titleMatch,
      ...(r.titleAndEvents ? { title_and_events: true } : {}),
      ...(r.subagentTitle !== undefined ? { subagent_title: r.subagentTitle } : {}),
      phrase_match: Boolean(r.verbatimMatch),
      joined_match: Boolean(r.joinedMatch),
      copies: r.copies ?? [],
      snippets: r.snippets.map((s) => ({
        kind: s.kind,
        seq: s.seq,
        time: isoTime(s.time),
        session: s.session,
        text: s.text.replaceAll("\x01", "").replaceAll("\x02", ""),
        ...(r.harness === "deja" ? { note_id: note(r, s) ?? null } : {}),
      })),
    })),
  };
}
