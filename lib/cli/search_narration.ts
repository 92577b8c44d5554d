/**
 * The first line a search prints on stderr: how literal the match was, which words were
 * read in other forms or spellings, and what the query's time words did (lib/cli/cmd_search.ts
 * prints it; `deja view` shows it too).
 *
 * @module
 */
import type { SearchResult } from "../search.ts";
import { isApartWord, isJoinedPair } from "../search/compounds.ts";
import { oneLine } from "../../core/text.ts";
import { inflections } from "../search/related.ts";
import {
  INSIDE,
  monthWithoutYear,
  runsToNow,
  sessionMeets,
  yearsBefore,
} from "../search/timewords.ts";

/** How each widening tier names what it did, for {@link narration}. */
const WIDENED: Partial<Record<SearchResult["tier"], string>> = {
  substring: "inside longer words",
  stemmed: "word forms",
  close: "close spellings",
};

/**
 * True when `a` and `b` are the same words, some in another inflection (`secrets x` and
 * `secret x`), by the rules of lib/search/related.ts `inflections` (not a shared stem, which a
 * misspelling may have too: `kubernets`, `kubernetes`).
 */
function sameStems(a: string, b: string): boolean {
  const wa = a.toLowerCase().split(/\s+/), wb = b.toLowerCase().split(/\s+/);
  const form = (x: string, y: string) =>
    x === y || inflections(x).includes(y) || inflections(y).includes(x);
  return wa.length === wb.length && wa.some((w, i) => w !== wb[i]) &&
    wa.every((w, i) => form(w, wb[i]));
}

/** "matched the title", or of a subagent's: "matched the title of its subagent “…”" (trial 78 F7). */
function titleSaid(r: SearchResult["results"][number]): string {
  return r.subagentTitle === undefined
    ? "matched the title"
    : `matched the title of its subagent “${oneLine(r.subagentTitle, 80)}”`;
}

/**
 * `; none falls in it` when no result listed meets the window the query's time words name:
 * they rank, never filter, so `redis in august 2025` listed September's sessions without a
 * word that August held none (trial 16).
 */
function outside(res: SearchResult): string {
  if (!res.time || !res.results.length) return "";
  const k = insideWindow(res);
  const n = res.results.length;
  // Some in, some out: how many (trial 22: `crash in august 2025` listed one August session
  // and two of other months with nothing to tell them apart; the text marks each one out).
  if (k && k < n) return `; ${k} of ${n} listed ${k === 1 ? "falls" : "fall"} in it`;
  return k ? "" : `; no session listed falls in it${earlierYear(res)}`;
}

/**
 * For a month named without its year, none of whose sessions are listed: how many listed
 * fall in the same month of the latest of the five years before that holds some (trial 25:
 * `redis in september` read September 2026 and listed four sessions of September 2025,
 * saying only that none fell in it; `deja last in september` named 2025).
 */
function earlierYear(res: SearchResult): string {
  const t = res.time!;
  if (!whichYear(t) || runsToNow(t)) return "";
  for (let years = 1; years <= 5; years++) {
    const then = yearsBefore(t, years);
    const k = res.results.filter((r) => sessionMeets(then, r.started, r.updated)).length;
    if (k) {
      const name = windowName(then).slice(2);
      return `; ${k} ${k === 1 ? "falls" : "fall"} ${/\d,/.test(name) ? "on" : "in"} ${name}`;
    }
  }
  return "";
}

/**
 * `, September 2026` for a month named without its year: the last one (trial 23: `redis in
 * september` said no session listed fell in it beside one of September 2025, and never which
 * September it read).
 */
function whichYear(t: NonNullable<SearchResult["time"]>): string {
  if (!monthWithoutYear(t)) return "";
  // `since january`: from January 2026 on, not January 2026.
  if (!runsToNow(t)) return windowName(t);
  const d = new Date(t.from);
  const month = d.toLocaleString("en-US", { month: "long" });
  const day = /\d/.test(t.words) ? ` ${d.getDate()},` : "";
  return `, from ${month}${day} ${d.getFullYear()} on`;
}

/**
 * `, September 2026`, or for a window of days within a month `, September 6, 2026` (trial 57:
 * `redis on september 6` was named "September 2026", the whole month).
 */
function windowName(t: NonNullable<SearchResult["time"]>): string {
  const d = new Date(t.from);
  const month = d.toLocaleString("en-US", { month: "long" });
  const days = (t.to - t.from) / 86_400_000;
  const end = new Date(t.to - 1);
  if (days > 7 || end.getMonth() !== d.getMonth()) {
    // Months apart (`from august to october`, trial 81): both ends named.
    if (end.getMonth() === d.getMonth() && end.getFullYear() === d.getFullYear()) {
      return `, ${month} ${d.getFullYear()}`;
    }
    const last = end.toLocaleString("en-US", { month: "long" });
    const year = end.getFullYear() === d.getFullYear() ? "" : ` ${d.getFullYear()}`;
    return `, ${month}${year} to ${last} ${end.getFullYear()}`;
  }
  const span = days > 1 ? `${d.getDate()}-${end.getDate()}` : `${d.getDate()}`;
  return `, ${month} ${span}, ${d.getFullYear()}`;
}

/** Whether the listed result `r` is outside the window the query's time words name. */
export function outsideWindow(res: SearchResult, r: SearchResult["results"][number]): boolean {
  return res.time !== undefined && !sessionMeets(res.time, r.started, r.updated);
}

/** How many listed results meet the window the query's time words name (0 without one). */
export function insideWindow(res: SearchResult): number {
  const t = res.time;
  if (!t) return 0;
  return res.results.filter((r) => sessionMeets(t, r.started, r.updated)).length;
}

/**
 * The short line that says how literal the match was (empty for an exact match). A first
 * result found by its title holding every word is said to match the title, never "no exact
 * match" nor "no single event holds every word" (the others, if any, say how they matched).
 */
export function narration(res: SearchResult): string {
  const line = withNearest(res, narrated(res) || phraseFirst(res));
  // The words found written joined, as one name (trial 14: `fetch user by id`, `fetchUserById`).
  // Said once: the tier's own line names the joined name already (trial 18: `ubuntu22.04`).
  if (
    !res.joined ||
    (res.joinedHow !== "version" &&
      (line.includes("written joined") || line.includes("also as one word")))
  ) return line;
  const how = res.joinedHow === "version"
    ? "the version written with a 'v'"
    : "the words written joined";
  return `the first result holds ${res.joined}, ${how}${line ? `; ${line}` : ""}`;
}

/**
 * For exact matches whose first alone holds the query as one phrase, the others its words
 * apart (in one event or between events): said so, or nothing told them apart (trial 27: a
 * sentence typed back listed its session, then nine holding `set`, `check`, `file` and
 * `confirm` somewhere, and stderr was empty).
 */
function phraseFirst(res: SearchResult): string {
  const [first, ...rest] = res.results;
  if (res.tier !== "exact" || !first?.verbatimMatch || !rest.length) return "";
  if (rest.some((r) => r.verbatimMatch)) return "";
  const n = rest.length;
  return `the first result holds the query as one phrase; ${
    n === 1 ? "the other one holds" : `the other ${n} hold`
  } its words apart`;
}

/**
 * Who holds a long query's words between their events: all the sessions listed, or those
 * that do beside the ones holding only some of the words (`partial`, before any nearest
 * after them, said apart).
 */
function betweenThem(res: SearchResult): string {
  const listed = res.results.slice(0, res.results.length - (res.nearestAfter ?? 0));
  const some = listed.filter((r) => r.partial).length;
  if (!some) return "these sessions hold them between them";
  const all = listed.length - some;
  return `${all === 1 ? "1 session holds" : `${all} sessions hold`} them between ${
    all === 1 ? "its" : "their"
  } events, ${some === 1 ? "1 other" : `${some} others`} only some of them`;
}

/**
 * `line` with the nearest sessions by relevance that follow a question's few literal
 * matches named after it (lib/search.ts `nearestAfter`).
 */
function withNearest(res: SearchResult, line: string): string {
  const n = res.nearestAfter;
  if (!n) return line;
  // Of how many found, when the limit listed fewer (trial 139 M2: "then 2 sessions nearest"
  // above "showing 3 of 6", the other three nearest unsaid).
  const found = res.nearestFound ?? 0;
  const of = found > n ? `${n} of ${found}` : `${n}`;
  const them = `then ${n === 1 && found <= n ? "1 session" : `${of} sessions`} nearest by ` +
    `relevance, holding ${n === 1 ? "some" : "each some"} of the words`;
  return line ? `${line}; ${them}` : `${res.tier === "session" ? "" : "exact match; "}${them}`;
}

function narrated(res: SearchResult): string {
  // Four alternatives a word, and an ellipsis for the others searched too (trial 16).
  const list = (changes: SearchResult["changes"]) =>
    changes.map((x) => `${x.from} → ${x.to.slice(0, 4).join(", ")}${x.to.length > 4 ? ", …" : ""}`)
      .join("; ");
  // Spellings and, after them, the words read in their forms beside them (trial 16: every
  // change was called a close spelling, `creating → create` among them).
  const spelt = res.respelt;
  const ch = spelt && res.tier === "close"
    ? `${list(res.changes.filter((c) => spelt.includes(c.from)))}; word forms: ${
      list(res.changes.filter((c) => !spelt.includes(c.from)))
    }`
    : list(res.changes);
  // Time words weigh, never sort nor filter (trial 53: "ranked by time" read as a list in
  // order of time, its hits' order); a session in the window weighs three times one outside,
  // not always enough to be first (trial 54: "ranked first" above a first result two days off;
  // trial 60: "ranked higher" read as above every session outside, which it is not).
  const time = res.time
    ? ` (time "${res.time.words}"${
      // A typo of a time word read as it (trial 106 F7): said how.
      res.time.typed ? `, read from "${res.time.typed}"` : ""}${
      whichYear(res.time)
    }: sessions in it count ${INSIDE}× in the ranking${outside(res)})`
    : "";
  // A word typed joined that the history writes as two (`zorblatcount` -> `zorblat count`).
  const apart = res.tier === "substring" && res.changes.length > 0 &&
    res.changes.every((c) => !c.from.includes(" ") && c.to.every((t) => t.includes(" ")));
  // And a name typed in parts that the history writes as one word (`parse_http_request` ->
  // `parsehttprequest`, a camelCase name).
  const joined = res.tier === "substring" && res.changes.length > 0 &&
    res.changes.every((c) => c.to.length === 1 && c.to[0] === c.from.replaceAll(" ", ""));
  // Close spellings that are all word forms (a quoted phrase, which the forms tier does not
  // read: `"secrets quokkamatic"` found `secret quokkamatic`) are said as forms (trial 132 F10).
  const formsOnly = res.tier === "close" && res.changes.length > 0 &&
    res.changes.every((c) => c.to.every((t) => sameStems(c.from, t)));
  const how = apart
    ? "written apart"
    : joined
    ? "written joined"
    : formsOnly
    ? WIDENED.stemmed
    : WIDENED[res.tier];
  // Read wider than typed, the first holds every word as typed between its title and its
  // events: a match, said as one (trial 139 M2: "no exact match" of a session whose first
  // prompt said `forgejo keeps` and whose title said `crashing`).
  if (res.results[0]?.titleAndEvents) {
    const listed = res.results.slice(1, res.results.length - (res.nearestAfter ?? 0));
    const others = listed.some((r) => !r.partial) && how && ch
      ? `; the others by ${how}: ${ch}`
      : "";
    return `the first result holds every word as typed, some only in its title${others}${time}`;
  }
  const n = res.nearestFollow ?? 0;
  if (n && res.results[0]) {
    const r = res.results[0];
    const first = r.titleMatch
      ? res.titleSpelt ? `matched the title by ${how ?? "word forms"}: ${ch}` : titleSaid(r)
      : r.promptMatch
      // One word spelt otherwise, in the query or the prompt (lib/search/prompt.ts): said.
      ? `matched a prompt typed before${
        res.tier === "close" && how && res.changes.length ? ` by ${how}: ${ch}` : ""
      }`
      : r.joinedMatch
      ? "" // said before this line (narration)
      : "an event holds the query as one phrase";
    const others = n === 1 ? "the other one is" : `the other ${n} are`;
    return `${
      first ? `${first}; ` : ""
    }${others} only the nearest by relevance, holding some of the words${time}`;
  }
  if (res.titleForms?.length && res.results[0]?.titleMatch) {
    const others = res.results.some((r) => !r.titleMatch)
      ? "; the others hold the words as typed"
      : "";
    return `${titleSaid(res.results[0])} by word forms: ${list(res.titleForms)}${others}${time}`;
  }
  if (res.results[0]?.titleMatch && (how || res.tier === "session")) {
    const all = !res.results.some((r) => !r.titleMatch);
    if (res.titleSpelt) {
      // The others hold those spellings between their events (trial 42: "the others too" read
      // as if their titles matched as well).
      const others = all ? "" : "; the others hold them in their events";
      return `matched the title by ${how}: ${ch}${others}${time}`;
    }
    // Every one by its title, read wider than typed: how is said (trial 45: `Backfil` said
    // "matched the title" of titles holding only `Backfill`).
    const others = all
      ? how && ch ? `, ${how}: ${ch}` : ""
      : how
      ? `; the others by ${how}: ${ch}`
      : "; the others hold the words between their events";
    return `${titleSaid(res.results[0])}${others}${time}`;
  }
  if (res.exactFollow) {
    // One sentence: the change list (itself split by "; ") goes in parentheses.
    const first = res.tier === "relevance"
      ? "the first result is the nearest by relevance"
      : `the first result matches ${how} (${ch})`;
    const n = res.exactFollow;
    const others = Math.max(n, res.results.length - 1);
    const follow = n < others
      ? `${n} of the other ${others} hold${n === 1 ? "s" : ""}`
      : n === 1
      ? "the other one holds"
      : `the other ${n} hold`;
    return `${first}; ${follow} every word as typed${time}`;
  }
  // Two words typed apart that the history writes as one, read as both (`data base`).
  const ones = res.tier === "exact" ? res.changes.filter(isJoinedPair) : [];
  // A word typed whole also read as two (`notfound` -> `not found`).
  const twos = res.tier === "exact" ? res.changes.filter(isApartWord) : [];
  // A word typed alone: the sessions holding only its other forms follow the exact matches.
  const more = res.formsFollow;
  const forms = more ? list(res.changes.filter((c) => !ones.includes(c) && !twos.includes(c))) : "";
  const formed = !more
    ? ""
    : more.listed === more.total
    ? `; then ${more.total} by word forms: ${forms}`
    : `; ${more.total} more by word forms (${forms}), ${
      more.listed ? `${more.listed} listed` : "none listed: raise --limit"
    }`;
  const line = {
    exact: ones.length || twos.length
      ? `exact match, ${
        [
          ones.length ? `also as one word: ${list(ones)}` : "",
          twos.length ? `also as two words: ${list(twos)}` : "",
        ].filter(Boolean).join("; ")
      }${formed}${time}`
      : time || formed
      ? `exact match${formed}${time}`
      : "",
    session: `no single event holds every word; ${betweenThem(res)}${formed}${time}`,
    substring: `no exact match; ${how}: ${ch}${time}`,
    stemmed: `no exact match; ${how}: ${ch}${time}`,
    close: `no exact match; ${how}: ${ch}${time}`,
    error: `matched by error signature${time}`,
    relevance: `nothing matched exactly; the nearest sessions by relevance${
      ch ? `, read as spelt: ${ch}` : ""
    }${time}`,
    regex: "",
    none: "",
  }[res.tier];
  const left = res.leftOut?.join(", ");
  if (!left) return line;
  if (line) return `${line}; left out the question's ${left}`;
  // Those after the first holding only some of the words, said (trial 81: 17 called exact).
  const listed = res.results.slice(0, res.results.length - (res.nearestAfter ?? 0));
  const some = listed.filter((r) => r.partial && !r.relatedOnly).length;
  const none = listed.filter((r) => r.partial && r.relatedOnly).length;
  if (!some && !none) return `every word matched but the question's ${left}${time}`;
  const all = listed.length - some - none;
  const parts = [
    ...(some ? [`${some === 1 ? "1 other" : `${some} others`} only some of them`] : []),
    ...(none ? [`${none === 1 ? "1" : `${none}`} only related words`] : []),
  ];
  return `${all === 1 ? "1 session holds" : `${all} sessions hold`} every word but the ` +
    `question's ${left}; ${parts.join(", ")}${time}`;
}
