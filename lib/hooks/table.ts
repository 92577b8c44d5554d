/**
 * The one table of deja's hooks: each `hook-*` command, the event it answers
 * (in Claude Code's spelling, which the nested envelope echoes) and the
 * budget of its framed text. main.ts, bin.ts's fast path, the command table,
 * install's registry check and the docs all read it; it imports nothing, so
 * the binary's hook path stays light.
 *
 * How each harness wants the answer (envelope, where the project directory
 * and session id are found) is the dialect table in registry.json
 * (`hook_dialects`, read by dialect.ts).
 *
 * @module
 */

/** The hook commands. */
export type HookName =
  | "hook-context"
  | "hook-prompt"
  | "hook-tool"
  | "hook-tool-after"
  | "hook-precompact";

/** One hook command. */
export interface HookRow {
  name: HookName;
  /** The event it answers, as Claude Code names it (a nested envelope echoes it). */
  event: string;
  /** Upper bound of the framed text, UTF-8 bytes before JSON escaping. */
  budget: number;
  /** One line for help and docs. */
  says: string;
}

/** Every hook command, in the order a session meets them. */
export const HOOKS: readonly HookRow[] = [
  {
    name: "hook-context",
    event: "SessionStart",
    budget: 2048,
    says: "where the project's last session ended",
  },
  {
    name: "hook-prompt",
    event: "UserPromptSubmit",
    budget: 1536,
    says: "past sessions about the prompt",
  },
  {
    name: "hook-tool",
    event: "PreToolUse",
    budget: 512,
    says: "what this command or file already has",
  },
  {
    name: "hook-tool-after",
    event: "PostToolUse",
    budget: 512,
    says: "what fixed the command's error before",
  },
  {
    name: "hook-precompact",
    event: "PreCompact",
    budget: 2048,
    says: "what this session did, so it survives compaction",
  },
];

/** The hook names, for a quick membership test. */
export const HOOK_NAMES: ReadonlySet<string> = new Set(HOOKS.map((h) => h.name));

/** The row of hook `name`, or undefined when it is no hook. */
export function hookRow(name: string): HookRow | undefined {
  return HOOKS.find((h) => h.name === name);
}

/**
 * Default time budget of a hook in milliseconds (`DEJA_HOOK_DEADLINE_MS` overrides): past it
 * the hook says nothing, and a hard timer ends it 250 ms later.
 */
export const DEADLINE_MS = 4000;

/** Budget of the one hook that carries everything (Crush's PreToolUse), UTF-8 bytes. */
export const ALL_IN_ONE_BUDGET = 4096;

/** True when `name` looks like a hook command but the hook table has no such hook. */
export function unknownHook(name: string | undefined): boolean {
  return typeof name === "string" && name.startsWith("hook-") && !HOOK_NAMES.has(name);
}

/** The message for an unknown `hook-*` name (stderr; the caller exits 2). */
export function unknownHookMessage(name: string): string {
  return `deja: unknown hook '${name.replace(/[^\x20-\x7e]/g, "?")}'\n` +
    `hint: the hooks are ${HOOKS.map((h) => h.name).join(", ")}\n`;
}
