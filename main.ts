/**
 * deja: search the session history coding-agent harnesses already keep.
 *
 * argv -> the command table; nothing else lives here.
 *
 * @module
 */
import { exit, type IO, processIO } from "./core/runtime.ts";
import {
  type Command,
  type CommandEntry,
  helpFor,
  loadCommand,
  optionArgs,
  parse,
  positionalArgs,
  searchInstead,
  searchWordsOf,
} from "./lib/cli/common.ts";
import { DejaError } from "./core/errors.ts";
import {
  type HeldIO,
  holdIO,
  questionWords,
  searchedIfNothing,
  searchedInstead,
  searchedNote,
  searchLine,
  UnexpectedWords,
} from "./lib/cli/question.ts";
import { humanIO } from "./lib/cli/output.ts";
import { COMMANDS } from "./lib/cli/table.ts";
import { HOOK_NAMES, unknownHook, unknownHookMessage } from "./lib/hooks/table.ts";
import { asksVersion, VERSION, VERSION_LINE } from "./lib/version.ts";
import { trace } from "./core/trace.ts";
import { zoneWarning } from "./core/localzone.ts";

// Only what every run needs is imported above; the index, the hooks and each
// command's module are imported when a run needs them (start-up time: issue 18).
export { COMMANDS };
trace("main loaded");

function usage(): string {
  const lines = [
    `deja ${VERSION}: search what your coding agents already did`,
    "",
    "Usage: deja <query...>            search past sessions (same as 'deja search')",
    "       deja <command> [options]",
    "",
    "Commands:",
  ];
  // `help` listed too, and the hooks apart, each list's names in one column (trial 120 L14:
  // `help` was missing, and `hook-tool-after` pushed its text out of line).
  const commands: Array<[string, string]> = [
    ...COMMANDS.filter((c) => !HOOK_NAMES.has(c.name)).map((c): [string, string] => [
      c.name,
      c.summary,
    ]),
    ["help", "The commands, or one command's options (deja help <command>)."],
  ];
  const hooks = COMMANDS.filter((c) => HOOK_NAMES.has(c.name));
  const w = Math.max(...commands.map(([n]) => n.length));
  for (const [name, summary] of commands) lines.push(`  ${name.padEnd(w)}  ${summary}`);
  if (hooks.length) {
    lines.push("", "Hooks (harnesses run them; 'deja install <harness>-auto' wires them):");
    const hw = Math.max(...hooks.map((c) => c.name.length));
    for (const c of hooks) {
      lines.push(`  ${c.name.padEnd(hw)}  ${c.summary.replace(/^hook: /, "")}`);
    }
  }
  lines.push(
    "",
    "Run 'deja help <command>' or 'deja <command> --help' for a command's options.",
    // Trial 59: a script had no way to learn them from the binary.
    "Exit status: 0 found (or done), 1 nothing found (the nearest may still print), 2 a usage",
    "error or another failure (the message says which), 3 'deja index' read all but some stores",
    // Trial 101 F6: a store read in part (damaged, the rest kept) was taken for a silent 0.
    "(a store read in part, its damage skipped, is read: named with what was lost, exit 0;",
    "--json's 'damaged' lists it); output that could not be written whole exits 1 (a reader",
    "that stops early, as head does, is no failure). --json documents: docs/json-output.md.",
  );
  return lines.join("\n") + "\n";
}

/** Runs deja with `io` and returns the exit code (0 found/ok, 1 nothing found, 2 error). */
export async function main(io: IO): Promise<number> {
  const [first, ...rest] = io.args;
  // Nothing given is a usage error: the usage on stderr, exit 2; asked for, it is the output
  // (trial 120 L12: the help on stdout with exit 2).
  if (first === undefined) {
    io.err(usage());
    return 2;
  }
  if (first === "--help" || first === "-h") {
    io.out(usage());
    return 0;
  }
  if (first === "help") return help(io, rest);
  // Options before a command's name are its own (trial 18b: `deja --json last` searched the
  // word `last`): `--json`, `--junk` and `--no-refresh` go after it.
  const lead = io.args.findIndex((a) => !a.startsWith("-"));
  if (
    lead > 0 && io.args.slice(0, lead).every((a) => /^--(?:json|junk|no-refresh)$/.test(a)) &&
    COMMANDS.some((c) => c.name === io.args[lead] && !c.protocol) && !HOOK_NAMES.has(io.args[lead])
  ) {
    const args = [io.args[lead], ...io.args.slice(0, lead), ...io.args.slice(lead + 1)];
    return main({ ...io, args });
  }
  if (asksVersion(io.args)) {
    io.out(VERSION_LINE);
    return 0;
  }
  // `--version` / `-V` with options (`--json`, `--help`) is the version command.
  if (first === "--version" || first === "-V") return main({ ...io, args: ["version", ...rest] });
  // A hook exits 0 whatever its arguments: a harness must never see it fail.
  if (HOOK_NAMES.has(first) && !rest.includes("--help") && !rest.includes("-h")) {
    const { runHookArgs } = await import("./lib/hooks/main.ts");
    return await runHookArgs(io);
  }
  if (unknownHook(first)) {
    io.err(unknownHookMessage(first));
    return 2;
  }
  // Human output is cleaned in one place (lib/cli/output.ts); a protocol (MCP) writes raw.
  let entry = COMMANDS.find((c) => c.name === first);
  if (!entry?.protocol) {
    io = humanIO(io);
    // Not to a run told to print nothing unless something failed (`deja index -q` from cron).
    const zone = zoneWarning(io.env);
    if (zone && !rest.includes("-q") && !rest.includes("--quiet")) io.err(zone);
  }
  let argv = rest;
  // A bare 'deja <words>' is a search, also when the first word looks like a mistyped
  // command; after the search (or its usage error: `deja indx --rebuild`), the note says which
  // command it resembles when the search found nothing, unless the word is one the history
  // itself holds ('docker' is no 'doctor').
  const bare = !entry;
  if (!entry) {
    entry = SEARCH;
    argv = io.args;
  }
  const code = await runCommand(entry, argv, io);
  if (!bare) return code;
  // Words found after a mistyped command (trial 16: `deja serach docker`, `deja lats 5`
  // searched the command's name with exit 0 and no word of it): said after the results. A
  // lone word too (trial 17a: `deja indx` searched "index" and said nothing of the command),
  // unless it names a command deja calls otherwise (below).
  const lone = rest.length === 0 && (await import("./lib/cli/suggest.ts")).commandWord(first);
  if (code === 0 && !lone) {
    if (first.length < 4 || !/^[a-z]+$/i.test(first)) return code;
    // One slip only: the search read a word two edits off as the history's own (trial 18a:
    // `deja forgjeo` found Forgejo, then asked "did you mean 'deja forget'?").
    const suggest = await import("./lib/cli/suggest.ts");
    const typo = suggest.suggestCommand(first, [...TYPED_NAMES, "search"], 1);
    // A search that found something is not second-guessed with a command that deletes
    // (trial 47: `deja Forgej` listed Forgejo's sessions, then asked "did you mean 'deja
    // forget'?").
    const slip = typo && suggest.deletes(typo) ? undefined : typo;
    // A command's name less its plural `s` (`deja stat`, `deja source`) is said even when the
    // history holds the word (trial 18b: both searched with no word of the command): the
    // search's results stand, and the command is one letter away.
    if (slip && slip === `${first.toLowerCase()}s`) {
      io.err(
        `deja: these results are a search for '${first}'; 'deja ${slip}' is the command\n`,
      );
    } else if (slip && !(await inHistory(io, first))) {
      io.err(
        `deja: '${first}' is not a command: these results are a search for the ${
          rest.some((a) => !a.startsWith("-")) ? "words" : "word"
        }; ` +
          `did you mean 'deja ${slip}'?\n`,
      );
    }
    return code;
  }
  // Looked at after the search: its module is loaded only now (a cold query: issue 15).
  const suggest = await import("./lib/cli/suggest.ts");
  // A lone word that names a command deja calls otherwise (`deja sessions`): said whatever
  // the search found, since the person most likely wanted the command.
  const word = rest.length ? undefined : suggest.commandWord(first);
  if (word) {
    io.err(
      `deja: '${first}' was searched for; 'deja ${word}' is the command for that` +
        ` ('deja help' lists them)\n`,
    );
    return code;
  }
  // Only when the search found nothing (exit 1) or failed on its options (exit 2).
  const near = code !== 0 ? suggest.suggestCommand(first, TYPED_NAMES) : undefined;
  const held = near ? await inHistory(io, first) : true;
  if (near && held !== true) {
    // Without an index nothing was searched (trial 45: the first run said "the words were
    // searched for" under "no index yet").
    io.err(
      `deja: '${first}' is not a command; did you mean '${near}'?\n` +
        `hint: ${held === false ? "the words were searched for; " : ""}` +
        `'deja ${near} --help' shows that command\n`,
    );
  }
  return code;
}

/**
 * True when `word` is a token of the indexed history, false when it is not, undefined
 * without a readable index.
 */
async function inHistory(io: IO, word: string): Promise<boolean | undefined> {
  try {
    const { indexPath, Store } = await import("./lib/store.ts");
    const { docs } = await import("./lib/search/vocab.ts");
    const store = Store.open(indexPath(io.env), { readOnly: true, busyMs: 200 });
    try {
      return docs(store, word.toLowerCase()) > 0;
    } finally {
      store.close();
    }
  } catch {
    return undefined;
  }
}

async function runCommand(entry: CommandEntry, argv: string[], io: IO): Promise<number> {
  let held: HeldIO | undefined;
  try {
    const cmd: Command = await loadCommand(entry);
    trace(`command ${cmd.name} loaded`);
    let args;
    try {
      args = parse(cmd, argv, io.env.home, io.cwd);
    } catch (e) {
      // Words that did not fit (`deja last deployed to railway`), or an option the command
      // lacks (`deja show me the flask server --harness claude`): a question is searched.
      const words = e instanceof UnexpectedWords
        ? e.positionals
        : positionalArgs(cmd, argv, await loadCommand(SEARCH));
      if (e instanceof DejaError && e.exitCode === 2 && searchedInstead(cmd, words)) {
        return await searchQuestion(cmd, words, argv, io);
      }
      // Words and an option the search takes, not the command (trial 90 F15: `deja mcp server
      // connection --limit 4` was a bare "Unknown option", where without it the hint said how
      // to search the words): the search that takes both.
      // A session's id is no word to search (trial 94 F9: `deja resume 763fc74b --junk` was
      // told to search `resume 763fc74b`).
      const ids = words.every((w) => /^(?:[a-z][\w-]*:)?[0-9a-f][0-9a-f-]{3,}$/i.test(w));
      const named = e instanceof DejaError && e.exitCode === 2 && words.length && !ids
        ? /^Unknown option '-*([^'=]+)/i.exec(e.message)?.[1]
        : undefined;
      // Typed after one dash (`deja last -limit 3`), it is no option of the search either: the
      // command's hint names the option it is near (trial 105 F8).
      const option = named !== undefined && !argv.includes(`-${named}`) ? named : undefined;
      const search = option ? await loadCommand(SEARCH) : undefined;
      if (search && option && Object.hasOwn(search.options ?? {}, option)) {
        throw new DejaError(
          (e as DejaError).message,
          `to search these words: ${
            searchLine(searchWordsOf(cmd.name, words), optionArgs(cmd, argv, search))
          }; 'deja ${cmd.name} --help' shows the command`,
          2,
        );
      }
      throw e;
    }
    if (args.values.help) {
      io.out(helpFor(cmd));
      return 0;
    }
    // A question begun by the command's name (`deja show me …`, `deja how did I …`).
    if (searchedInstead(cmd, args.positionals)) {
      return await searchQuestion(cmd, args.positionals, argv, io);
    }
    if (cmd.refresh) await (await import("./lib/cli/refresh.ts")).refreshFor(io, args);
    if (cmd.refresh) trace("freshness checked");
    // `--json` is read by programs and agents, not by the person the warning is for: text
    // older secret-redaction rules wrote is not given to them, as MCP gives it to none (trial
    // 135 F2: the installed /deja command has an agent run `deja … --json`). `resume` prints a
    // command, no text of a session.
    const fresh = io.freshness as { redaction?: number; background?: boolean } | undefined;
    const older = fresh?.redaction ?? 0;
    if (cmd.refresh && args.values.json && older && cmd.name !== "resume") {
      const stores = older === 1 ? "1 store" : `${older} stores`;
      throw new DejaError(
        (fresh?.background
          ? `deja is reading ${stores} of its history again under new secret-redaction rules`
          : `the index holds text ${stores} gave under older secret-redaction rules, not read ` +
            "again yet") + ": --json gives nothing from the index until then",
        "try again in a minute, or run 'deja index' to finish it now (the text output answers " +
          "meanwhile, with a warning)",
        2,
      );
    }
    // Free text that finds nothing may have been plain words meant as a search: prose given
    // to a reading command (`how`, not `fix`: a pasted error is prose) is searched instead
    // (its "nothing" kept back); other words get a hint (`deja how kubectl`).
    // Not for stdin, not into --json, not after a filter (the command says what it left).
    const words = args.positionals;
    const filtered = ["project", "harness", "since"].some((k) => args.values[k] !== undefined);
    const plain = cmd.words && !args.values.json && !filtered && words.length > 0 &&
      words[0] !== "-";
    if (plain && searchedIfNothing(cmd, words)) held = holdIO(io);
    const code = await cmd.run(args, held?.io ?? io);
    if (held && code === 1) return await searchQuestion(cmd, words, argv, io);
    held?.flush();
    if (cmd.refresh) (await import("./lib/cli/refresh.ts")).damageAfter(io);
    if (code === 1 && plain) io.err(`hint: ${searchInstead(searchWordsOf(cmd.name, words))}\n`);
    return code;
  } catch (caught) {
    held?.flush();
    // Commands open no SQLite file but the index (harness stores are read by `index`, which
    // reports their damage per store): a corruption error here means the index is damaged.
    const { asIndexError, asSqliteError, asWriteError, indexPath } = await import(
      "./lib/store.ts"
    );
    const { firstRunError } = await import("./lib/cli/refresh.ts");
    // Any other SQLite error (a limit reached) is one line with a hint, never a stack trace.
    let e = asSqliteError(
      asWriteError(
        firstRunError(io, asIndexError(caught, indexPath(io.env))),
        `'deja ${entry.name}'`,
        indexPath(io.env),
      ),
      `'deja ${entry.name}'`,
      indexPath(io.env),
    );
    const code = e instanceof DejaError ? e.exitCode : 2;
    // `deja show me`: words, not an id, were read as a session id; say how to search them.
    const { NoSessionMatch, looksLikeId } = await import("./lib/sessions.ts");
    if (e instanceof NoSessionMatch && !looksLikeId(e.ref)) {
      const { STOP_WORDS } = await import("./lib/query.ts");
      // One word that names something is searched alone (trial 61: `deja resume zzzqq` offered
      // `deja search resume zzzqq`); a stop word keeps the command's name (`deja show me`).
      const words = /\s/.test(e.ref) || STOP_WORDS.has(e.ref.toLowerCase())
        ? searchWordsOf(entry.name, [e.ref])
        : [e.ref];
      e = new DejaError(e.message, searchInstead(words), e.exitCode);
    }
    // With --json, stdout always holds one JSON document: an error is {error, hint, exit}
    // (docs/json-output.md, "Errors"); the message goes to stderr as well.
    if (argv.includes("--json") && !entry.protocol) {
      io.out(JSON.stringify(errorJson(e, code)) + "\n");
    }
    if (e instanceof DejaError) {
      io.err(`deja: ${e.message}\n${e.hint ? `hint: ${e.hint}\n` : ""}`);
      return code;
    }
    io.err(`deja: ${(e as Error)?.stack ?? e}\n`);
    return 2;
  }
}

/**
 * Searches the whole text of `deja <command> <words…>` as a question (lib/cli/question.ts),
 * with the options typed, and says so on stderr; the search's exit code.
 */
async function searchQuestion(
  cmd: Command,
  words: string[],
  argv: string[],
  io: IO,
): Promise<number> {
  const search = await loadCommand(SEARCH);
  // The options typed, with the words to search in place of the command's words; an
  // option the search does not take either stops here, before the note.
  const options = optionArgs(cmd, argv, search);
  try {
    parse(search, options, io.env.home, io.cwd);
  } catch (e) {
    if (!(e instanceof DejaError) || !/^Unknown option/i.test(e.message)) throw e;
    // The command may take the option and not the words (trial 16: `deja forget --dry-run
    // about redis` was told that forget has no --dry-run).
    const name = /^Unknown option '-*([^'=]+)/i.exec(e.message)?.[1] ?? "";
    if (Object.hasOwn(cmd.options ?? {}, name)) {
      throw new DejaError(
        `'deja ${cmd.name}' takes --${name} but not the words ${
          words.map((w) => `'${w}'`).join(" ")
        }`,
        `${searchInstead(words)}; 'deja ${cmd.name} --help' shows what it takes`,
        2,
      );
    }
    throw new DejaError(
      e.message,
      `the words read as a question to search, and neither 'deja ${cmd.name}' nor ` +
        `'deja search' takes that option; see 'deja search --help'`,
      2,
    );
  }
  const asked = questionWords(cmd.name, words);
  io.err(searchedNote(asked, options));
  return runCommand(SEARCH, [...options, "--", ...asked], io);
}

/** The `--json` form of an error a command ended with (docs/json-output.md, "Errors"). */
export function errorJson(
  e: unknown,
  exit: number,
): {
  error: string;
  hint: string | null;
  exit: number;
  candidates?: unknown[];
  matched?: number;
  matched_more?: boolean;
} {
  const message = e instanceof Error ? e.message : String(e);
  const hint = e instanceof DejaError ? e.hint ?? null : null;
  const out = { error: message, hint, exit, ...(e instanceof DejaError ? e.json : undefined) };
  // A session reference that matched several (lib/sessions.ts AmbiguousSession): the list.
  const amb = e as { candidates?: Array<{ time: number | null }>; total?: number; more?: boolean };
  const listed = amb?.candidates;
  if (!Array.isArray(listed)) return out;
  const iso = (ms: number | null) => ms ? new Date(ms).toISOString() : null;
  // How many matched, as the message says "… 2 more" (trial 132 F10: 8 listed, no count).
  const matched = typeof amb.total === "number"
    ? { matched: amb.total, matched_more: Boolean(amb.more) }
    : {};
  return { ...out, candidates: listed.map((c) => ({ ...c, time: iso(c.time) })), ...matched };
}

/** The default command: `deja <words>` searches. */
const SEARCH = COMMANDS.find((c) => c.name === "search")!;

/** Command names a person types (hooks are for harnesses, `search` is the default). */
const TYPED_NAMES = [
  ...COMMANDS.map((c) => c.name).filter((n) => !HOOK_NAMES.has(n) && n !== "search"),
  "help",
];

/** `deja help [command]`: the general help, or one command's help from the table. */
async function help(io: IO, rest: string[]): Promise<number> {
  // `deja help --help` and `deja help help`: help's own help is the general one (trial 120 L13).
  if (!rest.length || (rest.length === 1 && ["--help", "-h", "help"].includes(rest[0]))) {
    io.out(usage());
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === rest[0]);
  if (entry && rest.length === 1) {
    io.out(helpFor(await loadCommand(entry)));
    return 0;
  }
  const near = (await import("./lib/cli/suggest.ts")).suggestCommand(rest[0], TYPED_NAMES);
  // Words after `help` that name no command are likely a prompt typed back (`deja help me debug
  // why …`, trial 121 M5: "no command 'me debug why …'", its options folded into the name, and no
  // word of how to search it): the search they make is hinted, `help` being the prompt's first
  // word; options typed after the words go with it.
  const dash = rest.findIndex((a) => a.startsWith("-"));
  const words = dash < 0 ? rest : rest.slice(0, dash);
  const opts = dash < 0 ? [] : rest.slice(dash);
  const { searchLine } = await import("./lib/cli/question.ts");
  const search = (near || entry) && words.length === 1 || !words.length
    ? ""
    : `\nhint: to search these words: ${searchLine(["help", ...words], opts)}`;
  io.err(
    `${
      entry
        ? `deja: help takes one command: deja help ${entry.name}`
        : `deja: no command '${rest[0]}'${near ? `; did you mean '${near}'?` : ""}`
    }\nhint: 'deja help' lists the commands${search}\n`,
  );
  return 2;
}

if (import.meta.main) {
  const io = processIO();
  const [first, ...rest] = io.args;
  if (HOOK_NAMES.has(first) && !rest.includes("--help") && !rest.includes("-h")) {
    // Run from source (`deno run main.ts hook-…`, as a launcher may record it): the same
    // process as the binary's fast path — light IO, one hard deadline, exit 0 at once.
    await (await import("./lib/hooks/main.ts")).hookProcess();
  } else if (unknownHook(first)) {
    io.err(unknownHookMessage(first));
    exit(2);
  } else {
    exit(await main(io));
  }
}
