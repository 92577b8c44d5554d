/**
 * A question in plain words that starts with a command's name (`deja how did I fix the
 * crash`, `deja show me the flask server`, `deja last time I deployed`): the one rule for
 * when such words are searched instead of run as that command, and the line that says so.
 *
 * Two cases, both decided here and applied by the dispatcher (main.ts):
 * - before the command runs: a command that reads the history ({@link CommandSpec.asks})
 *   followed by a word no argument of it starts with (`did`, `me`, `time`, `I` …);
 * - after it fails: its words did not fit (an unexpected argument), or a free-text reading
 *   command (`how`) found nothing, and the words read as prose ({@link readsAsProse}).
 *   Not `fix`: a pasted error reads as prose, and "never seen" is its answer.
 *
 * An option the command lacks but `search` takes (`deja show me the redis I added --junk`)
 * does not stop either case: the words are judged as if it were not there
 * ({@link searchedInstead}), and the option goes to the search.
 *
 * @module
 */
import { DejaError } from "../../core/errors.ts";
import type { CommandSpec } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import { QUESTION, STOP_WORDS } from "../query.ts";
import { timeHint } from "../search/timewords.ts";
import { shQuote } from "../shell.ts";

/** Words that, right after a command's name, make the line a sentence, not arguments. */
const QUESTION_NEXT: ReadonlySet<string> = new Set(
  ("did do does was were is are am me my time i i'd i've we we'd you your can could should " +
    "have has had").split(" "),
);

/**
 * True when `positionals` (the words after a command's name) read as the rest of a
 * question: two words or more, the first one bare word of {@link QUESTION_NEXT}
 * (`deja show me the logs`). A quoted first argument (`deja how "is not"`) is the
 * command's own; `deja show me` alone asks nothing to search for.
 */
export function readsAsQuestion(positionals: readonly string[]): boolean {
  const first = positionals[0] ?? "";
  return positionals.length > 1 && /^\S+$/.test(first) && QUESTION_NEXT.has(first.toLowerCase());
}

/**
 * True when the words after a command's name read as a sentence: at least two of them, and
 * either a question (lib/query.ts `QUESTION`) or a stop word among them (`deja last
 * deployed to railway`); `deja show flask server` and `deja how kubectl rollout` are not.
 */
export function readsAsProse(positionals: readonly string[]): boolean {
  const words = positionals.join(" ").trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return false;
  return QUESTION.test(words.join(" ")) ||
    words.some((w) => STOP_WORDS.has(w.toLowerCase().replace(/[^\p{L}']/gu, "")));
}

/**
 * The one rule: true when `positionals`, the words after `cmd`'s name, are a question to
 * search rather than its arguments: a question begun by a command that reads the history
 * ({@link readsAsQuestion}), or more words than it takes that read as prose
 * ({@link readsAsProse}).
 */
export function searchedInstead(
  cmd: Pick<CommandSpec, "asks" | "maxPositionals" | "wordsFit">,
  positionals: readonly string[],
): boolean {
  if (cmd.asks && readsAsQuestion(positionals)) return true;
  // Words the command reads itself are its own (`deja last in march`, trial 18a: "searched the
  // question instead", then the window listed).
  return cmd.maxPositionals !== undefined && positionals.length > cmd.maxPositionals &&
    !cmd.wordsFit?.(positionals) && readsAsProse(positionals);
}

/**
 * True when a command that reads the history ({@link CommandSpec.asks}) found nothing for
 * `positionals` that read as prose ({@link readsAsProse}): the words are searched instead
 * (`deja how we deployed to netlify`). The dispatcher (main.ts) and the MCP tool's `how`
 * mode (lib/mcp/call.ts) both ask this.
 */
export function searchedIfNothing(
  cmd: Pick<CommandSpec, "asks">,
  positionals: readonly string[],
): boolean {
  return Boolean(cmd.asks) && readsAsProse(positionals);
}

/**
 * The words a command's free text is searched for instead of run, before it runs
 * ({@link searchedInstead}) or after it found nothing ({@link searchedIfNothing}); undefined
 * when the command answers them itself. `found` runs the command and says whether it found
 * anything (called only when needed). One path for the CLI's dispatcher and MCP's `how`.
 */
export function questionInstead(
  cmd: { name: string } & Pick<CommandSpec, "asks" | "maxPositionals" | "wordsFit">,
  positionals: readonly string[],
  found: () => boolean,
): string[] | undefined {
  if (searchedInstead(cmd, positionals)) return questionWords(cmd.name, positionals);
  if (!found() && searchedIfNothing(cmd, positionals)) return questionWords(cmd.name, positionals);
  return undefined;
}

/**
 * The words a question begun by `command` is searched for: the whole text, less the
 * command's name when it would be a search word of its own that the question does not
 * hold (`show`, `last`: `deja show me the flask server` searches `me the flask server`),
 * with a lead word after it that is no stop word (`last time I …` searches `I …`). The
 * name stays when it is a stop word (`how did I …`, still read as a question), a noun
 * ({@link NAMED}: `sources of error`), a verb the question is about ({@link ACTIONS}:
 * `restore the database`) or starts a time phrase (`last week`, `last friday`:
 * lib/search/timewords.ts).
 */
export function questionWords(command: string, positionals: readonly string[]): string[] {
  const whole = [command, ...positionals];
  const lead = command.toLowerCase();
  if (STOP_WORDS.has(lead) || keepsName(command) || startsTimePhrase(command, positionals)) {
    return whole;
  }
  const first = positionals[0]?.toLowerCase() ?? "";
  const leadWord = QUESTION_NEXT.has(first) && !STOP_WORDS.has(first);
  return positionals.slice(leadWord && positionals.length > 1 ? 1 : 0);
}

/**
 * Commands named by a noun, not an instruction: a question begun by one is about that thing
 * and keeps it (trial 16: `deja sources of error` searched `of error`, `deja stats about
 * redis` searched `about redis`).
 */
export const NAMED = new Set([
  "version",
  "sources",
  "stats",
  "remote",
  "drift",
  "doctor",
  "mcp",
  "view",
  "demo",
]);

/**
 * Commands named by a verb that is a word of the question begun by it: `deja restore the
 * database` asks about restoring it (trial 27: searched `the database` alone), unlike `show`,
 * `last`, `ctx` or `remember`, which only ask for something.
 */
export const ACTIONS = new Set([
  "restore",
  "blame",
  "forget",
  "resume",
  "install",
  "uninstall",
  "index",
  "handoff",
]);

/** Whether a question begun by `command` keeps its name as a search word ({@link NAMED}, {@link ACTIONS}). */
export function keepsName(command: string): boolean {
  const c = command.toLowerCase();
  return NAMED.has(c) || ACTIONS.has(c);
}

/** Whether `command` is the first word of a time phrase its words go on (`last week`). */
export function startsTimePhrase(command: string, words: readonly string[]): boolean {
  return timeHint([command, ...words].join(" "), 0).hint?.words.startsWith(command) ?? false;
}

/**
 * Positional arguments a command takes fewer of (`deja show me the logs`): an exit-2
 * {@link DejaError} that keeps every positional, so the dispatcher can tell prose.
 */
export class UnexpectedWords extends DejaError {
  constructor(message: string, hint: string, readonly positionals: string[]) {
    super(message, hint, 2);
  }
}

/** Longest text a search command line repeats, in characters. */
const SHOWN_TEXT = 80;

/**
 * `text` as a shell reads it back: bare when every word is plain, else the whole text as one
 * word quoted by the shared helper (lib/shell.ts {@link shQuote}).
 */
function shellWord(text: string): string {
  return text.split(" ").every((w) => shQuote(w) === w) ? text : shQuote(text);
}

/**
 * Quotes and brackets around a word, with the punctuation after a closing one (`'input[3].name':`,
 * `(BadRequest):`), and a trailing comma or semicolon: left unpaired by a cut.
 */
const WRAP = /^[\[({'"`\u2018\u201c]+|(?:[\])}'"`\u2019\u201d]+[,;:.!?]*|[,;]+)$/g;

/** A word of letters or digits (a lone `-` or `|` of a pasted line is none). */
const WORDY = /[\p{L}\p{N}]/u;

/**
 * The text a search line repeats, at most {@link SHOWN_TEXT} characters: as typed when it
 * fits; else its words without the quotes and brackets around them (a cut would leave them
 * unpaired) and without those that are only punctuation (a stray `-` at the end), then
 * without function words (lib/query.ts `STOP_WORDS`: the words that carry meaning, paths
 * and file names, are kept over `in`, `of`, `the`), then cut after the last whole word that
 * fits. Never a word that was not typed, never a `…`.
 */
export function shownSearchText(words: readonly string[]): string {
  const text = words.join(" ").replace(/\s+/g, " ").trim();
  const fits = (t: string) => [...t].length <= SHOWN_TEXT;
  if (fits(text)) return text;
  let list = text.split(" ").map((w) => w.replace(WRAP, "")).filter((w) => WORDY.test(w));
  if (!fits(list.join(" "))) {
    const content = list.filter((w) => !STOP_WORDS.has(w.toLowerCase()));
    if (content.length) list = content;
  }
  const kept: string[] = [];
  for (const w of list) {
    if (!fits([...kept, w].join(" "))) break;
    kept.push(w);
  }
  return kept.length ? kept.join(" ") : [...list[0]].slice(0, SHOWN_TEXT).join("");
}

/**
 * `deja search <words>`, quoted for a shell when a word needs it, with `--` before text
 * that starts with a dash, after `options` as typed (`--limit 3`) when there are any. It
 * runs as printed: a long text is shortened on word boundaries before it is quoted
 * ({@link shownSearchText}), never with a `…` inside the command.
 */
export function searchLine(words: readonly string[], options: readonly string[] = []): string {
  const text = shownSearchText(words);
  const opts = options.map((o) => shellWord(o) + " ").join("");
  return `deja search ${opts}${/^-/.test(text) ? "-- " : ""}${shellWord(text)}`;
}

/** The stderr line when `words` were searched instead of run as a command, with `options`. */
export function searchedNote(words: readonly string[], options: readonly string[] = []): string {
  return `deja: searched the question instead: ${searchLine(words, options)}\n`;
}

/** An IO whose output is kept back until {@link HeldIO.flush} (or dropped). */
export interface HeldIO {
  io: IO;
  /** Writes what was kept back, in order, to the real IO. */
  flush(): void;
}

/**
 * `io` with stdout and stderr kept back: a free-text command whose words read as prose
 * runs this way, so when it finds nothing its own "nothing" is dropped for the search.
 */
export function holdIO(io: IO): HeldIO {
  const kept: Array<[boolean, string]> = [];
  return {
    io: { ...io, out: (t) => kept.push([true, t]), err: (t) => kept.push([false, t]) },
    flush() {
      for (const [out, t] of kept.splice(0)) (out ? io.out : io.err)(t);
    },
  };
}
