/**
 * What every command shares: the command shape, option parsing with one clear
 * error line, `--json` output, colour, and the small formatters for times and
 * paths.
 *
 * @module
 */
import { parseArgs } from "node:util";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { colors, printJson, safeJson, writeJson } from "./output.ts";
import { projectArg } from "../project_path.ts";
import { QUESTION, STOP_WORDS } from "../query.ts";
import { keepsName, searchLine, startsTimePhrase, UnexpectedWords } from "./question.ts";
import { shQuote } from "../shell.ts";
import { suggestCommand } from "./suggest.ts";

// In the writer's module, which a no-op `deja index` loads without this one (./index_quick.ts).
export { colors, printJson };

/** One option of a command. */
export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** Help text; for a string option, name its value like `--since <30d|date>` in `value`. */
  description: string;
  value?: string;
  multiple?: boolean;
}

/** Parsed arguments handed to a command. */
export interface Args {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/**
 * What a command's module exports: its options and its run function. Its name and
 * summary live in the command table (lib/cli/table.ts), which loads the module only
 * when the command runs or its help is asked for.
 */
export interface CommandSpec {
  /** Usage line after `deja `. */
  usage: string;
  options: Record<string, OptionSpec>;
  /** How many positional arguments it takes at most (unlimited when absent). */
  maxPositionals?: number;
  /** Whether positional arguments past {@link maxPositionals} are still the command's own. */
  wordsFit?: (positionals: readonly string[]) => boolean;
  /**
   * Reads the index: freshen it on use first (lib/fresh/freshen.ts), unless
   * `--no-refresh` or `DEJA_NO_REFRESH` says not to.
   */
  refresh?: boolean;
  /**
   * Takes free text (`how`, `fix`): when it finds nothing (exit 1), the dispatcher says how
   * to search the same words instead ({@link searchInstead}).
   */
  words?: boolean;
  /**
   * Reads the history with arguments (`show`, `last`, `how`): words after its name that
   * start a question (`deja show me …`, `deja how did I …`) are searched instead
   * (lib/cli/question.ts).
   */
  asks?: boolean;
  /**
   * Options it does not take that other commands do, each with the hint its "Unknown
   * option" error gives instead of the generic one (forget: `since` names `--before`).
   */
  lacks?: Record<string, string>;
  /**
   * Its one positional argument is a count: `-<digits>` before any `--` is read as that
   * count (`deja last -5` as `deja last 5`, as `head -5` reads it), not as an unknown option.
   */
  count?: boolean;
  /**
   * For an unknown option, when the command refuses every argument that starts with a
   * dash (remote: a host or a remote's name), so no hint suggests `--` for it: the error to
   * give instead. `arg` is the first unknown option as typed, `before` the positional
   * arguments before it. Undefined: the "Unknown option" error, without the `--` hint.
   */
  dashed?(arg: string, before: string[]): DejaError | undefined;
  /**
   * Its words may start with a dash (`how`: `deja how git --name-status`): after its first
   * word, an argument that is none of its options is a word, not an unknown option (trial
   * 105 F3: the README's example was "Unknown option '--name-status'").
   */
  dashWords?: boolean;
  /** Lines its help prints after the options (a hook: the event fields it reads). */
  details?: string;
  run(args: Args, io: IO): Promise<number>;
}

/**
 * The options of `deja search` (lib/cli/cmd_search.ts; a test holds them equal): one of
 * them a command lacks stays an option in {@link dashedWords}, so a question begun by the
 * command's name keeps it for the search it becomes (`deja how did I … --harness claude`).
 */
export const SEARCH_OPTION_NAMES: readonly string[] = [
  "harness",
  "project",
  "from",
  "model",
  "since",
  "role",
  "session",
  "re",
  "junk",
  "limit",
  "json",
];

/**
 * `argv` with every argument after the first word that is none of `options` (nor of
 * {@link SEARCH_OPTION_NAMES}) moved after a `--`, in order, as words
 * ({@link CommandSpec.dashWords}); an option and its value stay where they were. Before the
 * first word, an unknown option is left to the parser's error.
 */
export function dashedWords(
  argv: readonly string[],
  options: Record<string, { type: "string" | "boolean"; short?: string }>,
): string[] {
  const shorts = new Map(
    Object.entries(options).filter(([, o]) => o.short).map(([k, o]) => [o.short!, k]),
  );
  const spec = (a: string) => {
    const long = /^--([\w-]+)(=.*)?$/.exec(a);
    if (long && !options[long[1]] && SEARCH_OPTION_NAMES.includes(long[1])) {
      return { type: "boolean" as const, inline: true }; // the parser's error; the search's
    }
    if (long) return options[long[1]] ? { type: options[long[1]].type, inline: !!long[2] } : null;
    const short = /^-(\w)$/.exec(a);
    const name = short ? shorts.get(short[1]) : undefined;
    return name ? { type: options[name].type, inline: false } : null;
  };
  const opts: string[] = [];
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      words.push(...argv.slice(i + 1));
      break;
    }
    const o = spec(a);
    if (o) {
      opts.push(a);
      if (o.type === "string" && !o.inline && i + 1 < argv.length) opts.push(argv[++i]);
    } else if (a.startsWith("-") && a !== "-" && !words.length) opts.push(a);
    else words.push(a);
  }
  return words.length ? [...opts, "--", ...words] : opts;
}

/** One entry of the command table: what `deja help` lists, and how to load the rest. */
export interface CommandEntry {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** It speaks a machine protocol on stdout (MCP): written raw, not through the human writer. */
  protocol?: boolean;
  /** Imports the command's module (only the command that runs is loaded). */
  lazy(): Promise<CommandSpec>;
}

/** A loaded command: its table entry and its module's spec. */
export type Command = Omit<CommandEntry, "lazy"> & CommandSpec;

/** Loads `entry`'s module and joins it with the entry. */
export async function loadCommand(entry: CommandEntry): Promise<Command> {
  const { lazy: _, ...head } = entry;
  return { ...head, ...await entry.lazy() };
}

/** Options every command accepts. */
export const COMMON: Record<string, OptionSpec> = {
  help: { type: "boolean", short: "h", description: "show this help" },
};

/** Options of every command that reads the index ({@link Command.refresh}). */
export const REFRESH: Record<string, OptionSpec> = {
  "no-refresh": {
    type: "boolean",
    description: "answer from the index as it is (no check of the stores; also DEJA_NO_REFRESH=1)",
  },
};

/** Every option `cmd` accepts. */
function optionsOf(cmd: Command): Record<string, OptionSpec> {
  return { ...cmd.options, ...(cmd.refresh ? REFRESH : {}), ...COMMON };
}

/**
 * Parses argv for `cmd`. A `--project` value naming the home directory as `~`
 * (as deja prints it) is read against `home`, one relative to the current directory
 * (`.`, `../x`) against `cwd` ({@link projectArg}), for every command.
 *
 * @throws {DejaError} (exit 2) naming the unknown option or the missing value.
 */
export function parse(cmd: Command, argv: string[], home = "", cwd = ""): Args {
  const options: Record<
    string,
    { type: "string" | "boolean"; short?: string; multiple?: boolean }
  > = {};
  for (const [k, v] of Object.entries(optionsOf(cmd))) {
    options[k] = {
      type: v.type,
      ...(v.short ? { short: v.short } : {}),
      ...(v.multiple ? { multiple: true } : {}),
    };
  }
  if (cmd.count) {
    const stop = argv.indexOf("--");
    // `-5` is a count (`deja last -5`), but not as an option's value (trial 59: `--limit -1`
    // listed one session; the option's own check refuses it).
    const takesValue = (a: string | undefined) => {
      const m = a === undefined ? null : /^--([\w-]+)$/.exec(a);
      return m !== null && options[m[1]]?.type === "string";
    };
    argv = argv.map((a, i) =>
      (stop < 0 || i < stop) && /^-\d+$/.test(a) && !takesValue(argv[i - 1]) ? a.slice(1) : a
    );
  }
  if (cmd.dashWords) argv = dashedWords(argv, options);
  try {
    const { values, positionals, tokens } = parseArgs({
      args: argv,
      options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
    refuseTwice(cmd, options, tokens);
    if (
      cmd.maxPositionals !== undefined && positionals.length > cmd.maxPositionals &&
      !cmd.wordsFit?.(positionals)
    ) {
      const extra = positionals.slice(cmd.maxPositionals).join(" ");
      // A count, then words (`deja last 5 docker`, trial 17a): the words, searched for that many.
      // Only a count a search takes (trial 60: `deja last 0 march` offered `--limit 0`, itself
      // refused, and `deja last 2025 3` offered `--limit 2025`).
      const n = cmd.count && /^\d+$/.test(positionals[0]) &&
          !startsTimePhrase(cmd.name, positionals) &&
          (wholeNumber(positionals[0]) ?? 0) <= 1000
        ? wholeNumber(positionals[0])
        : undefined;
      // `deja forget 9eff8ccb` (trial 34): the session it meant is given with --session.
      const session = cmd.name === "forget" && positionals.length === 1 &&
        /^[\w.-]+(?::[\w./-]+)?$/.test(positionals[0]);
      const search = session
        ? `to forget that session: deja forget --session ${shQuote(positionals[0])}`
        : n
        ? `to search these words: ${searchLine(positionals.slice(1))} --limit ${n}`
        : searchInstead(searchWordsOf(cmd.name, positionals));
      throw new UnexpectedWords(
        `unexpected argument '${extra}'`,
        `${search}; 'deja ${cmd.name} --help' shows the command`,
        positionals,
      );
    }
    refuseEmpty(cmd, values);
    if (typeof values.project === "string") {
      values.project = projectArg(values.project, home, cwd);
    }
    return { values: values as Args["values"], positionals };
  } catch (e) {
    if (e instanceof DejaError) throw e;
    const raw = (e as Error).message;
    const amb = /Option '(--[\w-]+)[^']*' argument is ambiguous/.exec(raw);
    if (amb) {
      throw new DejaError(
        `${amb[1]} got a value starting with '-'`,
        `write ${amb[1]}=<value> if you meant it; see 'deja ${cmd.name} --help'`,
        2,
      );
    }
    // Deno names the option as typed (`'--since'`); Bun without its dashes (`'since'`).
    const letter = /^Unknown option '-*([^'=]+)/i.exec(raw)?.[1];
    // A word after one dash is named whole, not its first letter the parser took for a short
    // option (trial 105 F8: `deja last -week` said "Unknown option 'w'").
    const word = letter?.length === 1 ? singleDashWord(argv, letter) : undefined;
    const unknown = word ?? letter;
    // Lowercase as deja's other messages are (trial 120 L22: "Unknown option" beside
    // "unknown harness").
    const said = word !== undefined
      ? `unknown option '-${word}'`
      : raw.replace(/\. To specify a positional.*$/s, "").split("\n")[0];
    const msg = said.charAt(0).toLowerCase() + said.slice(1);
    const lacked = unknown && cmd.lacks && Object.hasOwn(cmd.lacks, unknown)
      ? cmd.lacks[unknown]
      : undefined;
    if (lacked) throw new DejaError(msg, `${lacked}; see 'deja ${cmd.name} --help'`, 2);
    // A slip of a known option (`--lmit`): named before any other reading of the dash.
    const near = unknown && nearOption(unknown, optionsOf(cmd));
    if (near) throw new DejaError(msg, `did you mean ${near}? see 'deja ${cmd.name} --help'`, 2);
    // A window's words after a dash (`deja last -week`): the words are given without it.
    if (word !== undefined && cmd.count && cmd.wordsFit?.([word])) {
      throw new DejaError(msg, `time words take no dash: deja ${cmd.name} ${word}`, 2);
    }
    if (cmd.dashed && /^Unknown option '/i.test(raw)) {
      const at = firstUnknown(cmd, argv);
      const own = at < 0 ? undefined : cmd.dashed(argv[at], positionalArgs(cmd, argv.slice(0, at)));
      throw own ?? new DejaError(msg, `see 'deja ${cmd.name} --help'`, 2);
    }
    const dash = dashedText(cmd, argv, raw);
    throw new DejaError(msg, `${dash}see 'deja ${cmd.name} --help'`, 2);
  }
}

/**
 * The word after one dash (`-week`, before any `--`) whose letter `letter` the parser refused
 * as a short option, without its dash; undefined when no such word holds it.
 */
function singleDashWord(argv: string[], letter: string): string | undefined {
  const stop = argv.indexOf("--");
  return argv.slice(0, stop < 0 ? argv.length : stop)
    .find((a) => /^-[^-=\s]{2,}$/.test(a) && a.slice(1).includes(letter))?.slice(1);
}

/**
 * The option `typed` (as typed, without its dashes) most likely stands for, as it is to be
 * written: one edit away (`lmit`), in another case (`JSON`), cut short to one option's start
 * (`proj`, `lim`; trial 16: these got the hint for text starting with a dash), or an option
 * with its value glued on (`since30d`: `--since 30d`). Undefined when none is.
 */
function nearOption(typed: string, specs: Record<string, OptionSpec>): string | undefined {
  const names = Object.keys(specs);
  const low = typed.toLowerCase();
  if (names.includes(low)) return `--${low}`;
  const starts = names.filter((n) => low.length >= 2 && n.startsWith(low));
  if (starts.length === 1) return `--${starts[0]}`;
  const glued = names.find((n) =>
    specs[n].type === "string" && low.startsWith(n) && /^[=:]?\w/.test(low.slice(n.length))
  );
  if (glued) return `--${glued} ${typed.slice(glued.length).replace(/^[=:]/, "")}`;
  const close = suggestCommand(low, names);
  return close ? `--${close}` : undefined;
}

/**
 * Filters of one value a person may give twice meaning both ({@link refuseTwice}; `forget
 * --note a --note b` forgot b alone, trial 44); other
 * options keep the last value given, as most tools do (an alias's `--limit` overridden).
 */
const ONE_FILTER = new Set(["session", "project", "harness", "role", "since", "before", "note"]);

/**
 * Refuses a filter of one value given two different values: `--session a --session b`
 * searched `b` alone, the first dropped without a word (new-user report, 2026-12). The
 * same value twice is one.
 *
 * @throws {DejaError} (exit 2) naming the option and both values.
 */
function refuseTwice(
  cmd: Command,
  options: Record<string, { type: "string" | "boolean"; multiple?: boolean }>,
  tokens: ReturnType<typeof parseArgs>["tokens"],
): void {
  const seen = new Map<string, string>();
  for (const t of tokens ?? []) {
    if (
      t.kind !== "option" || !ONE_FILTER.has(t.name) || options[t.name]?.type !== "string" ||
      options[t.name].multiple
    ) {
      continue;
    }
    const value = t.value ?? "";
    const before = seen.get(t.name);
    if (before !== undefined && before !== value) {
      throw new DejaError(
        `--${t.name} given twice ('${before}' and '${value}'); it takes one`,
        `give --${t.name} once; see 'deja ${cmd.name} --help'`,
        2,
      );
    }
    seen.set(t.name, value);
  }
}

/**
 * Refuses a string option given an empty (or blank) value: `--project "$P"` with `$P` unset
 * matched every project (forget removed them all), `--harness ""` read as every harness.
 * No option of deja means anything by an empty value.
 *
 * @throws {DejaError} (exit 2) naming the option.
 */
function refuseEmpty(cmd: Command, values: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(values)) {
    const given = typeof v === "string" ? [v] : Array.isArray(v) ? v : [];
    if (!given.some((x) => typeof x === "string" && x.trim() === "")) continue;
    const spec = optionsOf(cmd)[k];
    throw new DejaError(
      `--${k} got an empty value`,
      `give it ${spec?.value ?? "a value"}, or leave --${k} out; see 'deja ${cmd.name} --help'`,
      2,
    );
  }
}

/**
 * `argv` read loosely with the options of `cmds` (an option none of them takes is kept as
 * one, without a value): which items are options (with their values) and which are
 * positional arguments.
 */
function splitArgs(cmds: Command[], argv: string[]): { options: string[]; positionals: string[] } {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const cmd of cmds) {
    for (const [k, v] of Object.entries(optionsOf(cmd))) {
      options[k] ??= { type: v.type, ...(v.short ? { short: v.short } : {}) };
    }
  }
  const { tokens } = parseArgs({
    args: argv,
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const drop = new Set(tokens.filter((t) => t.kind !== "option").map((t) => t.index));
  const positionals = tokens.flatMap((t) => t.kind === "positional" ? [t.value] : []);
  return { options: argv.filter((_, i) => !drop.has(i)), positionals };
}

/**
 * `argv` without its positional arguments (and `--`): the options as typed, each with its
 * value, for handing on to another command (a question searched instead: main.ts). An
 * option only `also` takes (`deja show me … --limit 3`, for search) is read with its value.
 */
export function optionArgs(cmd: Command, argv: string[], also?: Command): string[] {
  return splitArgs(also ? [cmd, also] : [cmd], argv).options;
}

/** The positional arguments of `argv`, read as {@link optionArgs} reads its options. */
export function positionalArgs(cmd: Command, argv: string[], also?: Command): string[] {
  return splitArgs(also ? [cmd, also] : [cmd], argv).positionals;
}

/** `argv` read leniently into parseArgs tokens against `specs` (unknown options kept as tokens). */
function optionTokens(specs: ReturnType<typeof optionsOf>, argv: string[]) {
  return parseArgs({
    args: argv,
    options: Object.fromEntries(
      Object.entries(specs).map((
        [k, v],
      ) => [k, { type: v.type, ...(v.short ? { short: v.short } : {}) }]),
    ),
    allowPositionals: true,
    strict: false,
    tokens: true,
  }).tokens;
}

/** The index in `argv` of the first option `cmd` does not know (before any `--`), or -1. */
function firstUnknown(cmd: Command, argv: string[]): number {
  const specs = optionsOf(cmd);
  const tokens = optionTokens(specs, argv);
  return tokens.find((t) => t.kind === "option" && !Object.hasOwn(specs, t.name))?.index ?? -1;
}

/**
 * For an unknown option of a command that takes text (`deja -rf`): how to give text that
 * starts with a dash, ending in `; `; empty otherwise. The hint repeats the whole text, the
 * options the command knows kept before `--` (`deja how git checkout -f work --json` ->
 * `deja how --json -- git checkout -f work`): naming only the unknown option (`deja how -- -f`)
 * dropped the other words.
 */
function dashedText(cmd: Command, argv: string[], raw: string): string {
  // A command whose argument is a count takes no text: `deja last -- -x` would not help.
  if (!/^Unknown option '/i.test(raw) || cmd.maxPositionals === 0 || cmd.count) return "";
  const specs = optionsOf(cmd);
  const tokens = optionTokens(specs, argv);
  // An argument holding an option the command does not know (`-f`, or `-rf` with one) is text.
  const unknown = new Set(
    tokens.filter((t) => t.kind === "option" && !Object.hasOwn(specs, t.name)).map((t) => t.index),
  );
  const kept = new Set<number>();
  for (const t of tokens) {
    if (t.kind !== "option" || unknown.has(t.index)) continue;
    kept.add(t.index);
    if (specs[t.name].type === "string" && t.inlineValue === false) kept.add(t.index + 1);
  }
  const text = argv.filter((a, i) => !kept.has(i) && a !== "--");
  // Text past what the command takes would be refused in turn (trial 63: `deja show 093f9963
  // --range 3` was offered `deja show -- 093f9963 --range 3`, exit 2 again).
  if (cmd.maxPositionals !== undefined && text.length > cmd.maxPositionals) return "";
  const opts = argv.filter((_, i) => kept.has(i));
  const verb = cmd.name === "search" ? "search for" : "give";
  const what = text[0]?.startsWith("-") ? "starting with" : "with a word starting with";
  return `to ${verb} text ${what} a dash: ${
    ["deja", cmd.name, ...opts.map(shQuote), "--", ...text.map(shQuote)].join(" ")
  }; `;
}

/**
 * The hint for words that were read as a command and its arguments although they may be
 * plain words to search for (`deja show flask server`): `to search these words:
 * deja search …` ({@link searchLine}).
 */
export function searchInstead(words: string[]): string {
  return `to search these words: ${searchLine(words)}`;
}

/**
 * The words to search when a command that takes text (`how`, `fix`) found nothing: the
 * text alone, as typed (`deja how git` -> `git`, `deja fix "A positional parameter …"` ->
 * the error), never a word the user did not type as text; the command's name goes in front
 * only when it is itself a word of the question (`how`, a stop word, begins `deja how did I
 * hide the spinner`, as lib/cli/question.ts `questionWords` keeps it), or when the words are
 * only stop words (`deja show me` -> `show me`), or when it begins a time phrase (`deja last
 * month telegram` -> `last month telegram`; new-user report, 2026-12: the hint dropped `last`).
 */
export function searchWordsOf(command: string, words: string[]): string[] {
  const question = STOP_WORDS.has(command.toLowerCase()) && QUESTION.test(words.join(" ")) ||
    keepsName(command) || startsTimePhrase(command, words);
  // Stop words alone (`deja show me`) search nothing: the command's name makes them a phrase.
  return question || words.every((w) => STOP_WORDS.has(w.toLowerCase()))
    ? [command, ...words]
    : words;
}

/**
 * Words a message names, each quoted and clipped to 40 characters: the first
 * `max` joined by " and ", then "and N more" (`deja how <a pasted log>` named
 * 1,500 words in a 17 KB line).
 *
 * @example namedWords(["a", "b", "c"], 2) === "'a' and 'b' and 1 more"
 */
export function namedWords(words: string[], max = 5): string {
  const named = words.slice(0, max).map((w) => {
    const c = [...w];
    return `'${c.length > 40 ? c.slice(0, 40).join("") + "…" : w}'`;
  });
  if (words.length > max) named.push(`${words.length - max} more`);
  return named.join(" and ");
}

/** Help text for a command, from its table entry. */
export function helpFor(cmd: Command): string {
  const lines = [`deja ${cmd.usage}`, "", cmd.summary, "", "Options:"];
  for (const [k, v] of Object.entries(optionsOf(cmd))) {
    const flag = `${v.short ? `-${v.short}, ` : "    "}--${k}${v.value ? ` ${v.value}` : ""}`;
    lines.push(`  ${flag.padEnd(28)} ${v.description}`);
  }
  if (cmd.details) lines.push("", cmd.details);
  return lines.join("\n") + "\n";
}

/** A string option's value, or undefined. */
export function opt(a: Args, name: string): string | undefined {
  const v = a.values[name];
  return typeof v === "string" ? v : undefined;
}

/**
 * `text` as a positive whole number when it is ASCII digits alone (leading zeros
 * allowed) and the value is above 0 and exact in a double; otherwise undefined.
 * Stricter than `Number()`, which also takes `1e3`, `0x400`, `1.0` and spaces.
 */
export function wholeNumber(text: string): number | undefined {
  if (!/^[0-9]+$/.test(text)) return undefined;
  const n = Number(text);
  return n > 0 && Number.isSafeInteger(n) ? n : undefined;
}

/**
 * A positive integer option ({@link wholeNumber}: digits only), or `def`.
 * @throws {DejaError} on a bad value.
 */
export function intOpt(a: Args, name: string, def: number): number {
  const v = opt(a, name);
  if (v === undefined) return def;
  const n = wholeNumber(v);
  if (n === undefined) {
    throw new DejaError(`--${name} takes a positive whole number, not '${v}'`, undefined, 2);
  }
  return n;
}

/** Items of a streamed array {@link printJsonStreaming} writes at once. */
const STREAM_ITEMS = 256;

/**
 * {@link printJson} of `value` with each array of `streams` (its place in `value` held by any
 * value) taken from its iterable and written a few items at a time: the same text, never held
 * whole (`deja show --json` of a session of a million events held it all, 1.2 GB).
 */
export function printJsonStreaming(
  io: IO,
  value: Record<string, unknown>,
  streams: Record<string, Iterable<unknown>>,
): void {
  const all = io.freshness ? { ...value, freshness: io.freshness } : value;
  const entries = Object.entries(all).filter(([k, v]) => Object.hasOwn(streams, k) || jsonHolds(v));
  const nested = (v: unknown, indent: string) =>
    JSON.stringify(v, null, 2).replaceAll("\n", `\n${indent}`);
  let out = "{";
  for (const [i, [k, v]] of entries.entries()) {
    out += `${i ? "," : ""}\n  ${JSON.stringify(k)}: `;
    if (!Object.hasOwn(streams, k)) {
      out += nested(v, "  ");
      continue;
    }
    out += "[";
    let n = 0;
    for (const item of streams[k]) {
      // An array holds null where an object would leave the member out.
      out += `${n ? "," : ""}\n    ${nested(jsonHolds(item) ? item : null, "    ")}`;
      if (++n % STREAM_ITEMS === 0) {
        writeJson(io, safeJson(out));
        out = "";
        // Read by no one now (`| head`): the rest is not made.
        if (io.outGone?.()) return;
      }
    }
    out += n ? "\n  ]" : "]";
  }
  writeJson(io, safeJson(out + (entries.length ? "\n}\n" : "}\n")));
}

/** Whether JSON.stringify writes `v` as an object's member (it leaves out these). */
function jsonHolds(v: unknown): boolean {
  return v !== undefined && typeof v !== "function" && typeof v !== "symbol";
}

/** `YYYY-MM-DD HH:MM` in local time, or `-` (the same formatter the digests use). */
export { localTime as fmtTime } from "../memory/text.ts";

/** A session's time for people, marked when it is its file's (see {@link sessionTime}). */
export { FILE_TIME_MARK, sessionTime as fmtSessionTime, UNDATED_MARK } from "../memory/text.ts";

/** ISO 8601 for JSON output, or null. */
export function isoTime(ms: number | null | undefined): string | null {
  return ms ? new Date(ms).toISOString() : null;
}

export { fmtBytes } from "../../core/text.ts";

/**
 * `text` as a message names it: in double quotes, unless it already starts
 * and ends with them (a quoted phrase typed as such), so quotes never double;
 * clipped to its first `max` characters (default 80) and `…`, so a pasted
 * page is not echoed back whole.
 */
export function quoteShown(text: string, max = 80): string {
  const chars = [...text.replace(/\s+/g, " ")];
  const clipped = chars.length > max ? chars.slice(0, max).join("").trimEnd() + "…" : text;
  if (/^"[^"]*"$/s.test(text) && clipped === text) return text;
  // Quotes inside: the text in single quotes, as typed (trial 81: `"cluster host" forgejo`
  // was shown `"cluster host" forgejo"`).
  return clipped.includes('"') ? `'${clipped}'` : `"${clipped}"`;
}
