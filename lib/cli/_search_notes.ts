/**
 * The notes and hints `deja search` prints on stderr beside its results: the words it left
 * out, a word no session holds, hidden sessions that hold every word, exact matches a
 * filter left out (new-user trial, 2026-12).
 *
 * @module
 */
import type { IO } from "../../core/runtime.ts";
import type { Env } from "../../core/model.ts";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../../core/paths.ts";
import { quoteShown } from "./common.ts";
import { shQuoteShown } from "../shell.ts";
import type { FilteredOut, FilterUsed } from "./_filtered.ts";
import { misreadOperators, OPERATORS } from "../search/operators.ts";
import { tokens } from "../search/tokenize.ts";
import { COMMANDS } from "./table.ts";
import { suggestCommand } from "./suggest.ts";
import type { Absent, ApartWord, Between } from "./search_words.ts";
export {
  type Absent,
  absentWords,
  type ApartWord,
  apartWords,
  type Between,
  commonLeftOut,
  droppedNote,
  sessionIdTyped,
  wordsApart,
} from "./search_words.ts";

/**
 * `deja <words>`, or `deja search <words>` when the first word names a command
 * (`fix`, `last`, `show`): run bare, those words would run the command, not a search.
 */
export function searchCommand(words: string): string {
  const first = words.split(/\s+/)[0];
  return COMMANDS.some((c) => c.name === first) ? `deja search ${words}` : `deja ${words}`;
}

/** Names each of two words no session holds together, with its own sessions and command. */
export function apartHint(io: IO, a: ApartWord[] | undefined, filters: FilterUsed[] = []): void {
  if (!a) return;
  const flags = filters.map((f) => ` ${f.flag} ${shQuoteShown(f.value)}`).join("");
  const each = a.map((w, i) =>
    `'${w.word}'${i ? "" : " alone"}${
      w.as ? ` (read as ${w.as.join(" or ")})` : ""
    } is in ${w.sessions}${i ? "" : ` session${w.sessions === 1 ? "" : "s"}`} (${
      searchCommand(w.word + flags)
    })`
  );
  io.err(
    `hint: ${a.map((w) => `'${w.word}'`).join(" and ")} are in no session together: ${
      each.join(", ")
    }\n`,
  );
}

/**
 * Names the sessions that hold every word of a query that matched nothing between their
 * events, none in one (trial 121 M1: `MathBal OriginItem`, two pieces of longer words a
 * session holds apart, matched nothing and said no more), and how to see them.
 */
export function betweenHint(io: IO, b: Between | undefined): void {
  if (!b) return;
  const one = b.sessions === 1;
  const more = b.sessions > b.refs.length ? `, and ${b.sessions - b.refs.length} more` : "";
  io.err(
    `hint: no single event holds ${b.words.map((w) => `'${w}'`).join(" and ")} together; ${
      one
        ? "1 session holds them between its events"
        : `${b.sessions} sessions hold them between their events`
    }: ${
      one ? `deja show ${shQuoteShown(b.refs[0])}` : `${b.refs.join(", ")}${more} (deja show <id>)`
    }\n`,
  );
}

/**
 * Names the words no session holds, and what the query finds without them, as in no
 * searchable text: a store may hold them where the index does not (trial 81: "'counterintuitive'
 * is in no session" of a word in the middle of a 127 kB result; trial 134 F5: a warm-up file
 * left out, a Gemini subagent's thoughts).
 */
export function absentHint(io: IO, a: Absent | undefined): void {
  if (!a) return;
  const n = a.sessions === 1 ? "1 session" : `${a.sessions} sessions`;
  const which = a.words.map((w) => `'${w}'`).join(", ");
  const verb = a.words.length === 1 ? "is" : "are";
  // The count is under the search's filters: so is the command (trial 14 gave `deja redis`
  // for a count of `--harness crush`).
  const cmd = [
    /^[\w .-]+$/.test(a.query) ? a.query : `'${a.query.replaceAll("'", "'\\''")}'`,
    ...(a.filters ?? []).map((f) => `${f.flag} ${shQuoteShown(f.value)}`),
  ].join(" ");
  // A model's name among the words: the search among that model's sessions (trial 53).
  if (a.model && !a.id) {
    const m = a.model;
    io.err(
      `hint: '${m.word}' is no word of any session, but part of the model's name of ${
        m.sessions === 1 ? "1 session" : `${m.sessions} sessions`
      }: ${searchCommand(`${cmd} --model ${shQuoteShown(m.word)}`)}\n`,
    );
    return;
  }
  // A session's id among the words (trial 46: `deja 5fbf3543 centered` was told to drop it):
  // the search within that session.
  // The rest a mistyped command (`deja showw 01a2`, `deja shwo 093f`): no search of it is
  // offered, the command's own hint follows (trial 139 M3: "across every session: deja showw";
  // trial 140: "deja shwo --session 093f").
  const typo = a.id && a.words.length === 1
    ? suggestCommand(a.query, COMMANDS.map((c) => c.name))
    : undefined;
  if (typo && a.id) {
    io.err(`hint: ${a.id} is a session's id: deja show ${shQuoteShown(a.id)}\n`);
    return;
  }
  if (a.id && a.words.length === 1 && a.idEmpty) {
    io.err(
      `hint: ${a.id} is a session's id, no word of one, and that session holds no other word of ` +
        `the query: deja show ${shQuoteShown(a.id)}; across every session: ${searchCommand(cmd)}\n`,
    );
    return;
  }
  if (a.id && a.words.length === 1) {
    io.err(
      `hint: ${a.id} is a session's id, no word of one: ${
        searchCommand(`${cmd} --session ${shQuoteShown(a.id)}`)
      }\n`,
    );
    return;
  }
  const without = a.words.length === 1 ? "it" : "them";
  io.err(
    `hint: ${which} ${verb} in no searchable text; without ${without}${
      a.sessions ? `: ${n}` : ", nothing matches either"
    }: ${searchCommand(cmd)}\n`,
  );
}

/**
 * What stderr says when the sessions holding every word exactly are all hidden (throwaway
 * or excluded projects) and only look-alikes are shown: how many hold it, and how to see
 * them (new user, 2026-12: `deja cat missing.txt` listed 7 unrelated sessions while 14
 * hidden ones held it, named only by the generic `--junk` hint after them).
 */
export function hiddenExactText(query: string, n: number): string {
  const who = n === 1 ? "1 hidden session holds" : `${n} hidden sessions hold`;
  return `deja: ${who} every word of ${quoteShown(query)} (throwaway or excluded projects); ` +
    `those below only look like it\nhint: --junk shows the throwaway ones\n`;
}

/**
 * The hint when only the nearest sessions by relevance are listed under filters while the
 * words match as written without them: how many, and which flags to drop.
 */
export function literalOutsideHint(f: FilteredOut): string {
  const flags = f.filters.map((x) => x.flag).join(" and ");
  const n = f.without === 1 ? "1 session matches" : `${f.without} sessions match`;
  return `hint: without ${flags}, ${n} the words; drop ${flags} to see ${
    f.without === 1 ? "it" : "them"
  }\n`;
}

/**
 * The hint for a word typed with a symbol the index does not keep at its start or end
 * (`#include`, `.NET`, `@types`, `C#`, `C++`): it was searched without it, and `--re`
 * matches it as typed; empty when the query has none (trial 3: `#include` silently
 * searched `include`, `.NET` found `mongodb.net` domains first). Words in quotes, paths
 * (`/`, `~`), options and sentence punctuation (`done.`, `why?`) are no such words.
 */
export function symbolHint(query: string): string {
  if (query.includes('"')) return "";
  for (const w of query.split(/\s+/)) {
    const m = /^([#.@$]+)([A-Za-z][\w-]*)$/.exec(w) ?? /^([A-Za-z][\w-]*?)([#+]+)$/.exec(w);
    if (!m) continue;
    // A language named by a letter and a symbol is looked for as written (lib/search.ts
    // GLYPH_WORD; trial 90 F8: the hint said `C#` was searched as `c`).
    if (/^[A-Za-z]{1,2}(?:#|\+\+)$/.test(w)) continue;
    const bare = tokens(w).join(" ");
    if (!bare) continue;
    // Whole: `\.NET` alone also matched `secrets.NETLIFY_AUTH_TOKEN`.
    const re = w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + (/\w$/.test(w) ? "\\b" : "");
    return `hint: '${w}' was searched as '${bare}' (the index keeps no symbols); ` +
      `deja search --re ${shQuoteShown(re)} matches it as typed\n`;
  }
  return "";
}

/**
 * The hint for a query that types `OR` or `NOT` in capitals as another engine's operator:
 * deja reads every word as a word and lists the sessions holding them all (trial 37: `foo OR
 * bar` said only "left out as too common: or"; `NOT redis` listed sessions about redis and
 * said nothing). For `OR`, the `--re` search that finds any of the words. Empty when there is
 * none, for a quoted query, or when no other word is left.
 */
export function operatorHint(query: string): string {
  const ops = misreadOperators(query);
  const plain = query.split(/\s+/).filter((w) => w && !OPERATORS.has(w));
  if (ops.includes("OR")) {
    const re = plain.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
    return "hint: OR is no operator here: deja lists the sessions holding every word; " +
      `deja search --re ${shQuoteShown(`(?i)${re}`)} finds any of them\n`;
  }
  if (ops.includes("NOT")) {
    return "hint: NOT is no operator here: 'not' was searched as a word beside the others " +
      "(no word can be left out)\n";
  }
  return "";
}

/**
 * The hint after a `--re` search that matched nothing: the pattern is case-sensitive
 * (trial 37: `exit code 1[0-9]+` found nothing where the history says "Exit code 127";
 * `(?i)` was named only for a pattern that did not compile). Empty for a pattern that
 * ignores case already or has no letter.
 */
export function caseHint(pattern: string): string {
  if (pattern.startsWith("(?i)") || !/\p{L}/u.test(pattern)) return "";
  return `hint: --re is case-sensitive; ${shQuoteShown(`(?i)${pattern}`)} ignores case\n`;
}

/**
 * Whether the "N stores were indexed in part" hint is news to say: once for a count of such
 * stores, not after every search that finds nothing (trial 101 F12: repeated on each miss, a
 * word in no store too); again when the count changes. The count last said is kept in deja's
 * data dir (`partial-hint`); where it cannot be read or written, the hint is said each time.
 */
export function partlyNews(env: Env, stores: number): boolean {
  const file = join(dataDir(env), "partial-hint");
  try {
    if (readFileSync(file, "utf8").trim() === String(stores)) return false;
  } catch { /* never said, or unreadable: say it */ }
  try {
    writeFileSync(file, `${stores}\n`, { mode: 0o600 });
  } catch { /* a data dir that cannot be written: said again next time */ }
  return true;
}
