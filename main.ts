/**
 * deja: search the session history coding-agent harnesses already keep.
 *
 * argv -> the command table; nothing else lives here.
 *
 * @module
 */
import { exit, type IO, processIO } from "./lib/runtime.ts";
import { type Command, helpFor, parse } from "./lib/cli/common.ts";
import { DejaError } from "./lib/store.ts";
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
import { mcpCmd } from "./lib/cli/cmd_mcp.ts";
import { resumeCmd } from "./lib/cli/cmd_resume.ts";
import { handoffCmd } from "./lib/cli/cmd_handoff.ts";
import { hookContextCmd } from "./lib/cli/cmd_hook_context.ts";
import { hookPromptCmd } from "./lib/cli/cmd_hook_prompt.ts";
import { hookToolCmd } from "./lib/cli/cmd_hook_tool.ts";
import { hookToolAfterCmd } from "./lib/cli/cmd_hook_tool_after.ts";
import { HOOK_NAMES, runHookArgs } from "./lib/hooks/main.ts";
import denoJson from "./deno.json" with { type: "json" };

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
  indexCmd,
  sourcesCmd,
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
];

function usage(): string {
  const lines = [
    `deja ${denoJson.version}: search what your coding agents already did`,
    "",
    "Usage: deja <query...>            search past sessions (same as 'deja search')",
    "       deja <command> [options]",
    "",
    "Commands:",
  ];
  for (const c of COMMANDS) lines.push(`  ${c.name.padEnd(10)} ${c.summary}`);
  lines.push("", "Run 'deja <command> --help' for a command's options.");
  return lines.join("\n") + "\n";
}

/** Runs deja with `io` and returns the exit code (0 found/ok, 1 nothing found, 2 error). */
export async function main(io: IO): Promise<number> {
  const [first, ...rest] = io.args;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    io.out(usage());
    return first === undefined ? 2 : 0;
  }
  if (first === "--version" || first === "-V") {
    io.out(`deja ${denoJson.version}\n`);
    return 0;
  }
  // A hook exits 0 whatever its arguments: a harness must never see it fail.
  if (HOOK_NAMES.has(first) && !rest.includes("--help") && !rest.includes("-h")) {
    return await runHookArgs(io);
  }
  // Human output is cleaned in one place (lib/cli/output.ts); a protocol (MCP) writes raw.
  if (!COMMANDS.find((c) => c.name === first)?.protocol) io = humanIO(io);
  let cmd = COMMANDS.find((c) => c.name === first);
  let argv = rest;
  if (!cmd) {
    cmd = searchCmd;
    argv = io.args;
  }
  try {
    const args = parse(cmd, argv);
    if (args.values.help) {
      io.out(helpFor(cmd));
      return 0;
    }
    return await cmd.run(args, io);
  } catch (e) {
    if (e instanceof DejaError) {
      io.err(`deja: ${e.message}\n${e.hint ? `hint: ${e.hint}\n` : ""}`);
      return e.exitCode;
    }
    io.err(`deja: ${(e as Error)?.stack ?? e}\n`);
    return 2;
  }
}

if (import.meta.main) {
  exit(await main(processIO()));
}
