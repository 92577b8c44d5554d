/**
 * deja: search the session history coding-agent harnesses already keep.
 *
 * argv -> the command table; nothing else lives here.
 *
 * @module
 */
import { exit, type IO, processIO } from "./core/runtime.ts";
import { type Command, helpFor, parse } from "./lib/cli/common.ts";
import { asIndexError, indexPath, Store } from "./lib/store.ts";
import { DejaError } from "./core/errors.ts";
import { docs } from "./lib/search/vocab.ts";
import { humanIO } from "./lib/cli/output.ts";
import { indexCmd } from "./lib/cli/cmd_index.ts";
import { searchCmd } from "./lib/cli/cmd_search.ts";
import { forgetCmd } from "./lib/cli/cmd_forget.ts";
import { statsCmd } from "./lib/cli/cmd_stats.ts";
import { showCmd } from "./lib/cli/cmd_show.ts";
import { sourcesCmd } from "./lib/cli/cmd_sources.ts";
import { demoCmd } from "./lib/cli/cmd_demo.ts";
import { driftCmd } from "./lib/cli/cmd_drift.ts";
import { ctxCmd } from "./lib/cli/cmd_ctx.ts";
import { blameCmd } from "./lib/cli/cmd_blame.ts";
import { restoreCmd } from "./lib/cli/cmd_restore.ts";
import { fixCmd } from "./lib/cli/cmd_fix.ts";
import { howCmd } from "./lib/cli/cmd_how.ts";
import { rememberCmd } from "./lib/cli/cmd_remember.ts";
import { lastCmd } from "./lib/cli/cmd_last.ts";
import { installCmd } from "./lib/cli/cmd_install.ts";
import { uninstallCmd } from "./lib/cli/cmd_uninstall.ts";
import { doctorCmd } from "./lib/cli/cmd_doctor.ts";
import { remoteCmd } from "./lib/cli/cmd_remote.ts";
import { mcpCmd } from "./lib/cli/cmd_mcp.ts";
import { resumeCmd } from "./lib/cli/cmd_resume.ts";
import { handoffCmd } from "./lib/cli/cmd_handoff.ts";
import { viewCmd } from "./lib/cli/cmd_view.ts";
import { hookContextCmd } from "./lib/cli/cmd_hook_context.ts";
import { hookPromptCmd } from "./lib/cli/cmd_hook_prompt.ts";
import { hookToolCmd } from "./lib/cli/cmd_hook_tool.ts";
import { hookToolAfterCmd } from "./lib/cli/cmd_hook_tool_after.ts";
import {
  HOOK_NAMES,
  hookProcess,
  runHookArgs,
  unknownHook,
  unknownHookMessage,
} from "./lib/hooks/main.ts";
import { hookPrecompactCmd } from "./lib/cli/cmd_hook_precompact.ts";
import { refreshFor } from "./lib/cli/refresh.ts";
import { asksVersion, VERSION, VERSION_LINE } from "./lib/version.ts";
import { suggestCommand } from "./lib/cli/suggest.ts";

/** The command table: help and dispatch both come from it. */
export const COMMANDS: readonly Command[] = [
  searchCmd,
  showCmd,
  lastCmd,
  ctxCmd,
  blameCmd,
  restoreCmd,
  fixCmd,
  howCmd,
  rememberCmd,
  resumeCmd,
  handoffCmd,
  viewCmd,
  indexCmd,
  sourcesCmd,
  remoteCmd,
  statsCmd,
  forgetCmd,
  driftCmd,
  installCmd,
  uninstallCmd,
  doctorCmd,
  mcpCmd,
  demoCmd,
  hookContextCmd,
  hookPromptCmd,
  hookToolCmd,
  hookToolAfterCmd,
  hookPrecompactCmd,
];

function usage(): string {
  const lines = [
    `deja ${VERSION}: search what your coding agents already did`,
    "",
    "Usage: deja <query...>            search past sessions (same as 'deja search')",
    "       deja <command> [options]",
    "",
    "Commands:",
  ];
  for (const c of COMMANDS) lines.push(`  ${c.name.padEnd(10)} ${c.summary}`);
  lines.push(
    `  ${"version".padEnd(10)} Print deja's version (also --version, -V).`,
    "",
    "Run 'deja help <command>' or 'deja <command> --help' for a command's options.",
  );
  return lines.join("\n") + "\n";
}

/** Runs deja with `io` and returns the exit code (0 found/ok, 1 nothing found, 2 error). */
export async function main(io: IO): Promise<number> {
  const [first, ...rest] = io.args;
  if (first === undefined || first === "--help" || first === "-h") {
    io.out(usage());
    return first === undefined ? 2 : 0;
  }
  if (first === "help") return help(io, rest);
  if (asksVersion(io.args)) {
    io.out(VERSION_LINE);
    return 0;
  }
  // A hook exits 0 whatever its arguments: a harness must never see it fail.
  if (HOOK_NAMES.has(first) && !rest.includes("--help") && !rest.includes("-h")) {
    return await runHookArgs(io);
  }
  if (unknownHook(first)) {
    io.err(unknownHookMessage(first));
    return 2;
  }
  // Human output is cleaned in one place (lib/cli/output.ts); a protocol (MCP) writes raw.
  if (!COMMANDS.find((c) => c.name === first)?.protocol) io = humanIO(io);
  let cmd = COMMANDS.find((c) => c.name === first);
  let argv = rest;
  // A bare 'deja <words>' is a search, also when the first word looks like a mistyped
  // command; after the search (or its usage error: `deja indx --rebuild`), the note says which
  // command it resembles unless the word is one the history itself holds ('docker' is no
  // 'doctor').
  let near: string | undefined;
  if (!cmd) {
    cmd = searchCmd;
    argv = io.args;
    near = suggestCommand(first, TYPED_NAMES);
  }
  const code = await runCommand(cmd, argv, io);
  if (near && !inHistory(io, first)) {
    io.err(
      `deja: '${first}' is not a command; did you mean '${near}'?\n` +
        `hint: the words were searched for; 'deja ${near} --help' shows that command\n`,
    );
  }
  return code;
}

/** True when `word` is a token of the indexed history (false without a readable index). */
function inHistory(io: IO, word: string): boolean {
  try {
    const store = Store.open(indexPath(io.env), { readOnly: true, busyMs: 200 });
    try {
      return docs(store, word.toLowerCase()) > 0;
    } finally {
      store.close();
    }
  } catch {
    return false;
  }
}

async function runCommand(cmd: Command, argv: string[], io: IO): Promise<number> {
  try {
    const args = parse(cmd, argv);
    if (args.values.help) {
      io.out(helpFor(cmd));
      return 0;
    }
    if (cmd.refresh) await refreshFor(io, args);
    return await cmd.run(args, io);
  } catch (caught) {
    // Commands open no SQLite file but the index (harness stores are read by `index`, which
    // reports their damage per store): a corruption error here means the index is damaged.
    const e = asIndexError(caught, indexPath(io.env));
    if (e instanceof DejaError) {
      io.err(`deja: ${e.message}\n${e.hint ? `hint: ${e.hint}\n` : ""}`);
      return e.exitCode;
    }
    io.err(`deja: ${(e as Error)?.stack ?? e}\n`);
    return 2;
  }
}

/** Command names a person types (hooks are for harnesses, `search` is the default). */
const TYPED_NAMES = [
  ...COMMANDS.map((c) => c.name).filter((n) => !HOOK_NAMES.has(n) && n !== "search"),
  "help",
  "version",
];

/** `deja help [command]`: the general help, or one command's help from the table. */
function help(io: IO, rest: string[]): number {
  if (!rest.length) {
    io.out(usage());
    return 0;
  }
  const cmd = COMMANDS.find((c) => c.name === rest[0]);
  if (cmd && rest.length === 1) {
    io.out(helpFor(cmd));
    return 0;
  }
  if (rest[0] === "version" && rest.length === 1) {
    io.out("deja version | --version | -V\n\nPrint deja's version.\n");
    return 0;
  }
  const near = suggestCommand(rest[0], TYPED_NAMES);
  io.err(
    `deja: no command '${rest.join(" ")}'${
      near ? `; did you mean '${near}'?` : ""
    }\nhint: 'deja help' lists the commands\n`,
  );
  return 2;
}

if (import.meta.main) {
  const io = processIO();
  const [first, ...rest] = io.args;
  if (HOOK_NAMES.has(first) && !rest.includes("--help") && !rest.includes("-h")) {
    // Run from source (`deno run main.ts hook-…`, as a launcher may record it): the same
    // process as the binary's fast path — light IO, one hard deadline, exit 0 at once.
    await hookProcess();
  } else if (unknownHook(first)) {
    io.err(unknownHookMessage(first));
    exit(2);
  } else {
    exit(await main(io));
  }
}
