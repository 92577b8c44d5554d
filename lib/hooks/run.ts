/**
 * Running one hook: read the harness's event, open the index read-only, build
 * what is worth saying, drop what this agent session was already told, frame
 * it, bound it, and print it in the harness's envelope. Whatever happens —
 * no index, a damaged one, garbage on stdin, a missing store, an internal
 * error, the time budget spent — the hook prints nothing and returns 0: a
 * hook never stops the agent (Crush blocks the tool on exit 2).
 *
 * | hook              | event (Claude Code)            | says                                   | budget |
 * | ----------------- | ------------------------------ | -------------------------------------- | ------ |
 * | `hook-context`    | SessionStart                   | where the project's last session ended | 2 KiB  |
 * | `hook-prompt`     | UserPromptSubmit               | past sessions about the prompt         | 1.5 KiB|
 * | `hook-tool`       | PreToolUse (shell, edit tools) | what this command or file already has  | 512 B  |
 * | `hook-tool-after` | PostToolUse(Failure) (shell)   | what fixed the command's error before  | 512 B  |
 * | `hook-precompact` | PreCompact                     | what this session did                  | 2 KiB  |
 *
 * The names, events and budgets are the table of table.ts; how each harness
 * wants the answer is its dialect (dialect.ts, registry.json
 * `hook_dialects`). A dialect with `all_in_tool` (Crush, whose one hook is
 * PreToolUse) makes `hook-tool` carry everything, within 4 KiB. Budgets are
 * UTF-8 bytes of the framed text (core/frame.ts), before JSON escaping.
 * Crush's flat envelope has no decision field (in Crush an "allow"
 * pre-approves the call and skips the permission prompt).
 *
 * @module
 */
import { existsSync } from "node:fs";
import type { IO } from "../../core/runtime.ts";
import { indexPath, knownDamage, Store } from "../store.ts";
import { dataDir } from "../../core/paths.ts";
import { kickIfStale, refreshOff, startBackground } from "../fresh/background.ts";
import { olderRedaction } from "../fresh/revised.ts";
import { freshen, msVar } from "../fresh/freshen.ts";
import { lastIndexAt } from "../fresh/manifest.ts";
import { byteLength, clipBytes, oneLine } from "../../core/text.ts";
import { frame, FRAME_BYTES } from "../../core/frame.ts";
import { type HookEvent, objField, readEvent, str } from "./input.ts";
import { noteGiveUp, unknownHarnessWhy } from "./log.ts";
import { type HookState, loadState, saveState, statePath } from "./state.ts";
import { type Current, currentSession, type Said } from "./_util.ts";
import type { Part } from "./crush.ts";
import { runFailed } from "../memory/outcome.ts";
import { ALL_IN_ONE_BUDGET, DEADLINE_MS, type HookName, hookRow } from "./table.ts";
import { type Dialect, dialectFor, envelope, placeOf } from "./dialect.ts";
import { originHidden } from "../search/sessions.ts";

export type { HookName } from "./table.ts";

/** Budgets of the framed text in UTF-8 bytes (from the hook table, table.ts). */
export const BUDGET = {
  context: hookRow("hook-context")!.budget,
  prompt: hookRow("hook-prompt")!.budget,
  tool: hookRow("hook-tool")!.budget,
  precompact: hookRow("hook-precompact")!.budget,
  crush: ALL_IN_ONE_BUDGET,
} as const;

/** Default time budget of a hook in milliseconds (`DEJA_HOOK_DEADLINE_MS` overrides). */
export { DEADLINE_MS };

/**
 * The hooks that read what the stores hold now before they answer (trial 16: a session that
 * had just ended was not yet in the index, so SessionStart named the one before it, and
 * PreCompact for a transcript not yet indexed said nothing): the session start, the prompt
 * and the compaction, once a session or a turn. The tool hooks, before and after every call,
 * answer from the index as it is.
 */
const REFRESHING: ReadonlySet<HookName> = new Set([
  "hook-context",
  "hook-prompt",
  "hook-precompact",
]);

/**
 * Time a hook spends reading changed stores before it answers, at most (milliseconds;
 * `DEJA_HOOK_REFRESH_MS` overrides, 0 leaves every change to the background run). What does
 * not fit is read by a background `deja index` and the hook answers from the index as it is.
 */
export const HOOK_REFRESH_MS = 500;

/**
 * Reads changed stores into the index within the hook's refresh budget; true when some were
 * read. Never throws.
 */
async function refreshFirst(env: IO["env"], left: number): Promise<boolean> {
  try {
    if (refreshOff(env)) return false;
    // Half of what the hook has left at most: the answer itself needs the rest.
    const budgetMs = Math.min(
      msVar(env, "DEJA_HOOK_REFRESH_MS", HOOK_REFRESH_MS),
      Math.floor(left / 2),
    );
    if (budgetMs <= 0) return false;
    return (await freshen(env, undefined, { budgetMs })).read > 0;
  } catch {
    return false; // the hook answers from the index as it is
  }
}

/** What a hook run needs besides its event. */
interface Ctx {
  io: IO;
  dialect: Dialect;
  event: HookEvent;
  store: Store;
  current: Current;
  state: HookState;
  seen: Set<string>;
  /** Where the agent works: the project directory the harness names, else the event's cwd. */
  dir: string;
  cwd: string;
}

/**
 * Shell tools as harnesses name them: Claude Code `Bash`, Crush `bash`, Gemini CLI and
 * Qwen Code `run_shell_command`, Codex `shell`/`exec_command`/`local_shell`, Cursor
 * `run_terminal_cmd`, Cline `execute_command`, Command Code `SHELL`/`shell_command`, Factory
 * `Execute`, Claude Code `PowerShell`.
 */
export function isShellTool(tool: string): boolean {
  return /^(bash|shell|run_shell_command|execute_command|exec_command|local_shell|run_terminal_cmd|terminal|execute|shell_command|powershell)$/i
    .test(tool);
}

/**
 * Edit tools as harnesses name them: Claude Code `Edit`/`Write`/`MultiEdit`, Gemini CLI
 * `write_file`/`replace`, Codex `apply_patch`, Cursor `edit_file`, Cline `write_to_file`/
 * `replace_in_file`, opencode `edit`/`write`/`patch`.
 */
export function isEditTool(tool: string): boolean {
  return /^(edit|write|multiedit|multi_edit|notebookedit|str_replace_editor|str_replace_based_edit_tool|create|write_file|replace|edit_file|apply_patch|patch|write_to_file|replace_in_file)$/i
    .test(tool);
}

/** The first file an `apply_patch` body names (`*** Update File: path`, Add, Delete). */
export function patchFile(body: string | undefined): string | undefined {
  return body ? /^\*\*\* (?:Update|Add|Delete) File: (.+)$/m.exec(body)?.[1]?.trim() : undefined;
}

/** The tool's command and file from the event (Crush also sets them in the environment). */
function toolInput(c: Ctx): { tool: string; command?: string; file?: string } {
  const e = c.event;
  const raw = e.tool_input;
  const input = objField(e, "tool_input") ?? {};
  const tool = str(e, "tool_name") ?? c.io.env.get("CRUSH_TOOL_NAME") ?? "";
  const cmd = input.command;
  const command = typeof cmd === "string"
    ? cmd
    : Array.isArray(cmd) && cmd.every((x) => typeof x === "string")
    ? (cmd.length === 3 && /^(ba|z)?sh$/.test(cmd[0]) && cmd[1] === "-lc" ? cmd[2] : cmd.join(" "))
    : c.io.env.get("CRUSH_TOOL_INPUT_COMMAND");
  const patch = /^(apply_)?patch$/i.test(tool)
    ? patchFile(
      str(input, "input") ?? str(input, "patch") ?? str(input, "command") ??
        (typeof raw === "string" ? raw : undefined),
    )
    : undefined;
  return {
    tool,
    command: patch ? undefined : command,
    file: patch ?? str(input, "file_path") ?? str(input, "notebook_path") ??
      str(input, "absolute_path") ?? str(input, "path") ??
      str(input, "target_file") ?? c.io.env.get("CRUSH_TOOL_INPUT_FILE_PATH"),
  };
}

/** A tool result's text for the model: a string, or a list of parts (strings, `{text}`). */
function llmText(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (!Array.isArray(v)) return undefined;
  const parts = v.map((p) => typeof p === "string" ? p : str(p, "text") ?? "").filter(Boolean);
  return parts.length ? parts.join("\n") : undefined;
}

/**
 * The exit status a result's text states at the start of a line (`Exit Code: 0`, Gemini CLI's
 * shell result; `Process exited with code 0` and `Exit code: 1`, Codex's), else null. Only
 * one status: text holding two is output quoting another run.
 */
function statedExit(text: string): number | null {
  const all = [...text.matchAll(/^(?:Exit [Cc]ode:|Process exited with code) (-?\d+)\b/gm)];
  return all.length === 1 ? Number(all[0][1]) : null;
}

/** What the shell tool call's failure said, or undefined when it did not fail. */
export function failureText(e: HookEvent): string | undefined {
  const error = str(e, "error");
  if (str(e, "hook_event_name") === "PostToolUseFailure" || (error && !e.tool_response)) {
    return error;
  }
  // A response given as its text alone (some harnesses' PostToolUse; trial 24 found it
  // silent): failed when a line of it says so.
  const text = typeof e.tool_response === "string"
    ? e.tool_response
    : !e.tool_response && typeof e.tool_output === "string"
    ? e.tool_output
    : undefined;
  if (text !== undefined) {
    return runFailed({ exit: statedExit(text), isError: false, output: text }) ? text : undefined;
  }
  const r = objField(e, "tool_response");
  if (!r) return undefined;
  // Claude Code's Bash result (`stdout`, `stderr`, `interrupted`) in PostToolUse: the event
  // fires only after a call that succeeded, a failure going to PostToolUseFailure. Its output
  // quoting an old error is no failure (trial 48: `grep yq notes.txt` printing "executable
  // file not found" was handed that error's fix).
  const code0 = [r.exit_code, r.exitCode, r.returncode, r.returnCode].find((v) =>
    typeof v === "number"
  );
  if (
    str(e, "hook_event_name") === "PostToolUse" && typeof r.interrupted === "boolean" &&
    code0 === undefined && r.is_error !== true && r.isError !== true && !objField(r, "error")
  ) return undefined;
  // Gemini CLI's AfterTool: `{llmContent, returnDisplay, error?: {message, type}}` (its hooks
  // reference; trial 39: a failed `run_shell_command` so given got no answer).
  // Its shell result labels its parts (`Output: …`, `Stderr: …`): the labels are no part of
  // the error (trial 55: `Output: ParserError: …` matched no error seen before).
  const llm = (llmText(r.llmContent) ?? str(r, "returnDisplay"))
    ?.replace(/^(?:Output|Stdout|Stderr): /gm, "");
  const failure = objField(r, "error");
  const out = [
    str(r, "stderr"),
    str(r, "stdout"),
    str(r, "output"),
    str(r, "error"),
    llm,
    failure && str(failure, "message"),
  ].filter(Boolean).join("\n");
  const code = code0 as number | undefined;
  // The harness saying the call succeeded (`is_error: false`, `isError: false`; a `success`
  // flag is not read: no harness's response was seen to carry one)
  // is as an exit status of 0 when none is given, unless the output's own `Exit code N` says
  // otherwise (a store's `is_error` can mean only that the tool ran: Crush records a command's
  // exit 1 as no tool error). Trial 109 F5: `is_error: false` beside an error line the output
  // merely held brought a "what fixed it" note.
  const ok = r.is_error === false || r.isError === false;
  const stated = code ?? statedExit(out) ??
    (ok && !/^Exit code -?[1-9]\d*\b/m.test(out) ? 0 : null);
  const failed = runFailed({
    // Gemini's llmContent ends `Exit Code: N`; a status the text states is the status.
    exit: stated,
    isError: r.is_error === true || r.isError === true || failure !== undefined,
    output: out,
    // PowerShell's 0 beside an error it printed is a failure (trial 27: silent).
    command: str(objField(e, "tool_input") ?? {}, "command") ?? null,
  });
  return failed && out ? out : undefined;
}

/**
 * The parts a hook has to say, in priority order. The builders are loaded
 * per hook (a compiled binary then reads only the code that hook needs).
 */
async function parts(name: HookName, c: Ctx): Promise<Part[]> {
  const body = (b: number) => b - FRAME_BYTES;
  const home = c.io.env.home;
  if (name === "hook-context" || name === "hook-prompt" || name === "hook-precompact") {
    const { contextBlock, promptBlock } = await import("./recall.ts");
    if (name !== "hook-prompt") {
      // Before a compaction, and at the start that follows one, the session's own work is news.
      const compacting = name === "hook-precompact";
      const self = compacting || str(c.event, "source") === "compact";
      // Before a compaction only this session's own work is said, each time (the session grew
      // since the last one), never another's: its text becomes the compaction's instructions
      // (trial 16: a session not yet indexed got the project's last session's digest, and a
      // second compaction nothing).
      if (compacting && !c.current.rows.size) return [];
      const b = body(compacting ? BUDGET.precompact : BUDGET.context);
      const said = contextBlock(c.store, c.dir, c.current, compacting ? new Set() : c.seen, b, {
        self,
        home,
      });
      return [{ said: compacting && said ? { ...said, keys: [] } : said, budget: b }];
    }
    // Claude and most: `prompt`; Goose: `user_prompt`; Hermes: `extra.user_message`.
    const p = c.event.prompt ?? c.event.user_prompt ?? objField(c.event, "extra")?.user_message;
    const prompt = typeof p === "string"
      ? p
      : Array.isArray(p)
      ? p.map((x) => str(x, "text") ?? "").join("\n")
      : "";
    const b = body(BUDGET.prompt);
    return [{ said: promptBlock(c.store, prompt, c.dir, c.current, c.seen, b), budget: b }];
  }
  const { commandNote, fileNote, fixNote } = await import("./point.ts");
  const t = toolInput(c);
  if (name === "hook-tool-after") {
    const text = isShellTool(t.tool) ? failureText(c.event) : undefined;
    const b = body(BUDGET.tool);
    return text ? [{ said: fixNote(c.store, text, c.current, c.seen, b, c.dir), budget: b }] : [];
  }
  const out: Part[] = [];
  if (c.dialect.allInTool) {
    // Loaded only for Crush: it reads crush.db through the parser's modules.
    const { crushParts } = await import("./crush.ts");
    out.push(
      ...await crushParts(
        c.store,
        c.io.env,
        {
          project: c.dir,
          cwd: c.cwd,
          id: c.current.id,
          home,
        },
        c.current,
        c.state,
        c.seen,
      ),
    );
  }
  const b = body(BUDGET.tool);
  if (isShellTool(t.tool) && t.command) {
    out.push({ said: commandNote(c.store, t.command, c.dir, c.current), budget: b });
  } else if (isEditTool(t.tool) && t.file) {
    out.push({ said: fileNote(c.store, t.file, c.cwd, c.current, home), budget: b });
  }
  return out;
}

/**
 * Fits the parts into `budget` framed bytes in order: a part already said
 * (all its keys seen) is dropped; a part longer than its own budget is cut
 * to it; one that does not fit in what is left waits for a later call (its
 * cursor is not moved). Returns the framed text ("" for silence).
 */
export function assemble(
  list: Part[],
  state: HookState,
  seen: Set<string>,
  budget: number,
): string {
  const bodies: Array<{ text: string; order: number }> = [];
  let used = FRAME_BYTES;
  for (const p of list) {
    const s: Said | null = p.said;
    if (!s || !s.text.trim() || (s.keys.length > 0 && s.keys.every((k) => seen.has(k)))) {
      p.advance?.(state);
      continue;
    }
    const text = clipBytes(s.text.trim(), p.budget);
    const n = byteLength(text) + (bodies.length ? 2 : 0);
    if (used + n > budget) continue;
    bodies.push({ text, order: p.order ?? 5 });
    used += n;
    for (const k of s.keys) {
      seen.add(k);
      state.seen.push(k);
    }
    p.advance?.(state);
  }
  bodies.sort((a, b) => a.order - b.order);
  return frame(bodies.map((b) => b.text).join("\n\n"));
}

/** What a hook was asked: which hook, in which harness's dialect. */
export interface HookOptions {
  name: HookName;
  dialect: Dialect;
}

/** What a hook found to say, or why it is silent; nothing is printed yet. */
export interface HookResult {
  /** The framed text and the event name its envelope echoes; null: silence. */
  answer: { text: string; event: string } | null;
  /**
   * Start a background `deja index` when the index is stale (`lastIndex`, epoch ms, undefined
   * when none is recorded) or missing; null: leave it (an index that exists but did not open).
   */
  kick: { lastIndex: number | undefined } | null;
  /** The error swallowed, if any (reported only under `DEJA_DEBUG`). */
  error?: unknown;
}

/**
 * Reads a hook's arguments: `--harness <id>` / `--crush` choose the dialect
 * (dialect.ts); any other argument is ignored (a hook never fails on its command line).
 */
export function parseHook(name: HookName, args: string[]): HookOptions {
  return { name, dialect: dialectFor(args) };
}

/**
 * Runs hook `o.name` over the event on `io`'s stdin: builds what is worth saying within its
 * budget and records what this agent session was told (the state file). Never throws;
 * silence (`answer` null) when anything fails or the time budget is spent.
 */
export async function hookAnswer(o: HookOptions, io: IO): Promise<HookResult> {
  const { name, dialect } = o;
  const started = Date.now();
  const limit = Number(io.env.get("DEJA_HOOK_DEADLINE_MS") ?? DEADLINE_MS) || DEADLINE_MS;
  const allInOne = dialect.allInTool && name === "hook-tool";
  let store: Store | undefined;
  const result: HookResult = { answer: null, kick: null };
  /** Whether the time budget is spent; noted in the hooks' log when it is. */
  const late = (doing: string) => {
    const ms = Date.now() - started;
    if (ms <= limit) return false;
    noteGiveUp(io.env, name, `gave up after ${ms} ms ${doing} (its budget is ${limit} ms)`);
    return true;
  };
  try {
    // No event at all (pi's extension runs the session-start hook with empty stdin) is an
    // event with nothing in it: the dialect's variables and the process's cwd place it.
    // Something that was no event (garbage, a JSON string, a stdin held open with nothing) is
    // logged and answered with nothing (trial 66: `"not an event"` got the cwd's notes).
    const read = await readEvent(io);
    if (read.unread) {
      noteGiveUp(io.env, name, read.unread);
      return result;
    }
    const event = read.event ?? {};
    if (late("reading the event")) return result;
    // An index a command found damaged: nothing is said from it (docs/hooks.md; trial 77: a
    // hook answered from one `deja index` had refused).
    const damage = knownDamage(indexPath(io.env));
    if (damage) {
      noteGiveUp(io.env, name, `the index is damaged (${damage})`);
      return result;
    }
    store = Store.open(indexPath(io.env), { readOnly: true, busyMs: 250 });
    // The index opened as this deja's schema (an older one is the background run's to migrate,
    // never a hook's): what changed is read in first, and the index opened again if it moved.
    if (REFRESHING.has(name) && !allInOne) {
      if (await refreshFirst(io.env, limit - (Date.now() - started))) {
        store.close();
        store = undefined;
        store = Store.open(indexPath(io.env), { readOnly: true, busyMs: 250 });
      }
      if (late("reading changed stores first")) return result;
    }
    // Text an older secrets redaction wrote is put in no prompt (trial 129 F3: the first
    // hook-prompt after an upgrade injected passwords the new rules mask): nothing is said until
    // the stores are read again, by a background run started now unless one is at it.
    const older = olderRedaction(store);
    if (older) {
      const off = refreshOff(io.env);
      if (!off) startBackground(io.env);
      noteGiveUp(
        io.env,
        name,
        `${older} ${older === 1 ? "store" : "stores"} of the index read under older ` +
          `secret-redaction rules, ${
            off
              ? "not read again with the refresh off ('deja index' reads them)"
              : "being read again"
          }`,
      );
      return result;
    }
    const env = io.env;
    const { cwd, dir, id } = placeOf(dialect, event, env, io.cwd);
    const file = id ? statePath(dataDir(env), id) : undefined;
    const state = file ? loadState(file) : { v: 1 as const, seen: [] };
    const seen = new Set(state.seen);
    // Remotes whose policy is --no-auto are left out of every hook answer (as of MCP's).
    const current = currentSession(store, id, new Set(originHidden(store, env, { auto: true })));
    current.home = env.home;
    const c: Ctx = { io, dialect, event, store, current, state, seen, dir, cwd };
    const list = await parts(name, c);
    const budget = allInOne ? BUDGET.crush : hookRow(name)!.budget;
    const before = JSON.stringify(state);
    const text = assemble(list, state, seen, budget);
    if (late("finding what to say")) return result;
    if (file && JSON.stringify(state) !== before) saveState(file, state);
    if (text) result.answer = { text, event: hookEventName(name, event, dialect) };
  } catch (e) {
    result.error = e;
    // No index yet is no give-up: the background run below builds it.
    try {
      if (existsSync(indexPath(io.env))) {
        noteGiveUp(io.env, name, `stopped on an error: ${(e as Error)?.message ?? e}`);
      }
    } catch { /* never in the agent's way */ }
  } finally {
    try {
      if (store) result.kick = { lastIndex: lastIndexAt(store) };
      else if (!existsSync(indexPath(io.env))) result.kick = { lastIndex: undefined };
    } catch { /* never in the agent's way */ }
    try {
      store?.close();
    } catch { /* nothing to do */ }
  }
  return result;
}

/** The line the harness reads: the answer in the dialect's envelope ("" for silence). */
export function renderHook(o: HookOptions, r: HookResult): string {
  return r.answer ? envelope(o.dialect, r.answer.text, r.answer.event) : "";
}

/**
 * Runs hook `name` with `io`: parse → run → render, prints the envelope (or
 * nothing) and returns 0, always. `DEJA_DEBUG=1` reports a swallowed error on stderr.
 */
export async function runHook(name: HookName, args: string[], io: IO): Promise<number> {
  const o = parseHook(name, args);
  // A mistyped `--harness` is answered as Claude Code's, the documented fallback, and said
  // (trial 131 F4: `--harness crushh` got Claude Code's envelope with no trace anywhere).
  if (o.dialect.nearest) {
    try {
      const why = unknownHarnessWhy(oneLine(o.dialect.id, 40), o.dialect.nearest);
      noteGiveUp(io.env, name, why);
      if (io.env.get("DEJA_DEBUG")) io.err(`deja ${name}: ${why}\n`);
    } catch { /* never in the agent's way */ }
  }
  const r = await hookAnswer(o, io);
  try {
    const out = renderHook(o, r);
    if (out) io.out(out);
  } catch (e) {
    r.error ??= e; // a closed pipe, a harness gone: never a failure
  }
  try {
    if (r.error !== undefined && io.env.get("DEJA_DEBUG")) {
      io.err(`deja ${name}: ${(r.error as Error)?.stack ?? r.error}\n`);
    }
  } catch { /* nothing to do */ }
  // After the answer: a missing or stale index is rebuilt in the background, never waited on.
  try {
    if (r.kick) kickIfStale(io.env, r.kick.lastIndex);
  } catch { /* never in the agent's way */ }
  return 0;
}

/**
 * The event name the envelope echoes (Claude Code checks it matches the event it fired): the
 * dialect's own name for the hook (Gemini CLI's `BeforeAgent`, ...), else Claude Code's.
 */
function hookEventName(name: HookName, e: HookEvent, d: Dialect): string {
  const own = d.eventNames[name];
  if (own) return own;
  const got = str(e, "hook_event_name");
  if (name === "hook-tool-after" && (got === "PostToolUse" || got === "PostToolUseFailure")) {
    return got;
  }
  return hookRow(name)!.event;
}
