/**
 * Hook dialects: how each harness wants a hook's answer and where the hook
 * finds the project directory and the agent's session id. The data is
 * registry.json's `hook_dialects` (one row per harness id); install writes
 * `deja hook-* --harness <id>` so a hook knows whose event it reads. Without
 * `--harness` a hook speaks Claude Code's dialect (wirings written before the
 * table existed keep working); `--crush` still means `--harness crush`.
 *
 * @module
 */
import registry from "../../registry.json" with { type: "json" };
import { harnessId, harnessIds, harnessNames } from "../../core/registry.ts";
import { distance } from "../search/distance.ts";
import type { Env } from "../../core/model.ts";
import { type HookEvent, str, trimSeparators } from "./input.ts";
import { HOOK_NAMES } from "./table.ts";

/** The answer's shape on stdout. */
export type Envelope = "nested" | "flat" | "cursor" | "context" | "text";

/** One harness's hook dialect. */
export interface Dialect {
  /** The harness id (a registry id). */
  id: string;
  /**
   * `nested`: `{"hookSpecificOutput":{"hookEventName":E,"additionalContext":T}}` (Claude Code,
   * Codex, Gemini CLI, Qwen Code); `flat`: `{"version":1,"context":T}` (Crush);
   * `cursor`: `{"additional_context":T}`; `context`: `{"context":T}` (Hermes shell hooks);
   * `text`: the framed text alone (plugins and extensions, Kimi Code).
   */
  envelope: Envelope;
  /** Variables naming the project directory, first set wins; else the event's `cwd`. */
  projectEnv: string[];
  /** Variables naming the session id when the event has no `session_id`. */
  sessionEnv: string[];
  /** Variables naming the working directory when the event has no `cwd`. */
  cwdEnv: string[];
  /** The one PreToolUse hook also carries session-start and prompt recall (Crush). */
  allInTool: boolean;
  /**
   * The harness's own name of the event each hook answers (`hook-prompt` ->
   * Gemini CLI's `BeforeAgent`), echoed by a nested envelope and written by
   * install; a hook not listed answers under Claude Code's name (table.ts).
   */
  eventNames: Readonly<Record<string, string>>;
  /**
   * `--harness` named no harness deja knows (or none: an empty or missing value, `id` ""): the
   * known ids nearest to it. The hook answers in Claude Code's dialect all the same, and says
   * so in hooks.log (trial 131 F4).
   */
  nearest?: string[];
}

const ENVELOPES: ReadonlySet<string> = new Set(["nested", "flat", "cursor", "context", "text"]);
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

/** `event_names` of a dialect row: hook name -> event name, non-empty strings only. */
function eventNamesOf(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!v || typeof v !== "object" || Array.isArray(v)) return out;
  for (const [k, n] of Object.entries(v)) if (typeof n === "string" && n) out[k] = n;
  return out;
}

/** Every dialect row of registry.json, by harness id. */
export function dialects(): Map<string, Dialect> {
  const raw = (registry as { hook_dialects?: Record<string, unknown> }).hook_dialects ?? {};
  const out = new Map<string, Dialect>();
  for (const [id, v] of Object.entries(raw)) {
    if (id.startsWith("$") || !v || typeof v !== "object") continue;
    const o = v as Record<string, unknown>;
    out.set(id, {
      id,
      envelope: ENVELOPES.has(String(o.envelope)) ? o.envelope as Envelope : "nested",
      projectEnv: strs(o.project_env),
      sessionEnv: strs(o.session_env),
      cwdEnv: strs(o.cwd_env),
      allInTool: o.all_in_tool === true,
      eventNames: eventNamesOf(o.event_names),
    });
  }
  return out;
}

/**
 * Problems with the `hook_dialects` table (empty when well formed): used by
 * the registry test, each line says what to fix.
 */
export function checkDialects(raw: unknown, ids: ReadonlySet<string>): string[] {
  if (!raw || typeof raw !== "object") return ["hook_dialects must be an object"];
  const out: string[] = [];
  for (const [id, v] of Object.entries(raw)) {
    if (id.startsWith("$")) continue;
    if (!ids.has(id)) out.push(`hook_dialects.${id}: no harness has this id`);
    const o = (v ?? {}) as Record<string, unknown>;
    if (!ENVELOPES.has(String(o.envelope))) {
      out.push(`hook_dialects.${id}.envelope must be one of ${[...ENVELOPES].join(", ")}`);
    }
    for (const k of ["project_env", "session_env", "cwd_env"]) {
      if (!Array.isArray(o[k]) || strs(o[k]).length !== (o[k] as unknown[]).length) {
        out.push(`hook_dialects.${id}.${k} must be a list of variable names`);
      }
    }
    const names = o.event_names;
    if (names === undefined) continue;
    if (!names || typeof names !== "object" || Array.isArray(names)) {
      out.push(`hook_dialects.${id}.event_names must be an object {hook-name: event name}`);
      continue;
    }
    for (const [hook, n] of Object.entries(names)) {
      if (!HOOK_NAMES.has(hook)) {
        out.push(
          `hook_dialects.${id}.event_names.${hook}: no such hook (${[...HOOK_NAMES].join(", ")})`,
        );
      }
      if (typeof n !== "string" || !n) {
        out.push(`hook_dialects.${id}.event_names.${hook} must be a non-empty event name`);
      }
    }
  }
  return out;
}

/**
 * Problems where a harness's `-auto` wiring (registry.json `install.auto.hooks`,
 * each `{event, args: ["hook-…", …]}`) names an event other than its dialect's
 * `event_names` says for that hook (empty when they agree). Used by the
 * registry test; each line says what to fix.
 */
export function checkWiredEvents(
  id: string,
  hooks: readonly { event?: unknown; args?: unknown }[],
  d: Dialect | undefined,
): string[] {
  if (!d) return [];
  const out: string[] = [];
  for (const h of hooks) {
    const hook = Array.isArray(h.args) ? h.args[0] : undefined;
    const want = typeof hook === "string" ? d.eventNames[hook] : undefined;
    if (want !== undefined && h.event !== want) {
      out.push(
        `${id}: install.auto.hooks runs ${hook} on ${h.event}, but hook_dialects.${id}.event_names.${hook} is ${want}`,
      );
    }
  }
  return out;
}

/**
 * The dialect a hook's arguments ask for: `--harness <id>` (or `--harness=<id>`),
 * `--crush`, else Claude Code's. An id without a row speaks Claude Code's
 * dialect under its own id; one no harness has also carries the nearest known ids.
 */
export function dialectFor(args: string[]): Dialect {
  let id = "claude";
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--crush") id = "crush";
    else if (a === "--harness") {
      // No value (last, empty, or the next option) names no harness: answered and logged
      // as a typo is (trial 132 F7: `--harness ''` went as Claude Code's without a trace).
      const v = args[i + 1];
      if (v !== undefined && !v.startsWith("--")) i++;
      id = v !== undefined && !v.startsWith("--") ? v : "";
    } else if (a.startsWith("--harness=")) id = a.slice("--harness=".length);
  }
  const all = dialects();
  const known = harnessId(id);
  const row = all.get(known ?? id);
  if (row) return row;
  return { ...all.get("claude")!, id: known ?? id, ...(known ? {} : { nearest: nearestIds(id) }) };
}

/**
 * The harness ids nearest to `typed` by edit distance to any name the harness takes (its id,
 * `claude-code`, `gemini-cli`: core/registry.ts `harnessNames`), those at most one edit
 * farther than the nearest, three at most, in registry order on a tie; none for an empty id.
 * `deja` is not offered: deja's own sessions are no harness whose hooks run it (trial 132
 * F7). Trial 135 F6: `claude-cod`, one edit from `claude-code`, was offered `claude, codex,
 * opencode`, compared with the ids alone.
 */
function nearestIds(typed: string): string[] {
  const t = typed.trim().toLowerCase().replace(/[\s_-]+/g, "-");
  if (!t) return [];
  const best = new Map<string, number>();
  for (const id of harnessIds()) if (id !== "deja") best.set(id, distance(t, id, 8));
  for (const { name, id } of harnessNames()) {
    const d = best.get(id);
    if (d !== undefined) best.set(id, Math.min(d, distance(t, name, 8)));
  }
  const ranked = [...best].map(([id, d], i) => ({ id, i, d }))
    .sort((a, b) => a.d - b.d || a.i - b.i);
  const near = ranked[0]?.d ?? 0;
  return ranked.filter((x) => x.d <= near + 1).slice(0, 3).map((x) => x.id);
}

function firstSet(env: Env, names: string[]): string | undefined {
  for (const n of names) {
    const v = env.get(n);
    if (v) return v;
  }
  return undefined;
}

/** Where a hook runs, read the dialect's way. */
export interface HookPlace {
  /** The event's cwd, else the dialect's cwd variable, else the process's. */
  cwd: string;
  /** The project directory the harness names, else `cwd`. */
  dir: string;
  /** The agent's session id, when the harness gives one. */
  id?: string;
}

/** The working directory, project directory and session id of one hook event. */
export function placeOf(d: Dialect, event: HookEvent, env: Env, processCwd: string): HookPlace {
  // Cursor names no `cwd`: its events carry `workspace_roots` and a `conversation_id`.
  const roots = event.workspace_roots;
  const root = Array.isArray(roots) && typeof roots[0] === "string" && roots[0]
    ? roots[0]
    : undefined;
  // A directory named with a trailing separator is the same directory (trial 16: `cwd`
  // `…/proj1/` matched no project, and every hook was silent).
  const cwd = trimSeparators(str(event, "cwd") ?? root ?? firstSet(env, d.cwdEnv) ?? processCwd);
  const dir = trimSeparators(firstSet(env, d.projectEnv) ?? cwd);
  const id = str(event, "session_id") ?? str(event, "sessionId") ??
    str(event, "conversation_id") ?? firstSet(env, d.sessionEnv);
  return { cwd, dir, id };
}

/**
 * The line a harness reads for framed `text` answering `event` (the name the
 * nested envelope echoes: the dialect's own, see {@link Dialect.eventNames}).
 */
export function envelope(d: Dialect, text: string, event: string): string {
  switch (d.envelope) {
    case "flat":
      return JSON.stringify({ version: 1, context: text }) + "\n";
    case "cursor":
      return JSON.stringify({ additional_context: text }) + "\n";
    case "context":
      return JSON.stringify({ context: text }) + "\n";
    case "text":
      return text.endsWith("\n") ? text : text + "\n";
    default:
      // PreCompact has no hookSpecificOutput in Claude Code (2.1.332's bundled schema lists
      // none for it, and such output fails its validation) nor in Codex (0.171 has a
      // PreCompactCommandOutputWire only): Claude Code takes the hook's plain stdout as
      // instructions for the compaction's summary (its PreCompact runner, read in the bundle).
      if (event === "PreCompact") return text.endsWith("\n") ? text : text + "\n";
      return JSON.stringify({
        hookSpecificOutput: { hookEventName: event, additionalContext: text },
      }) + "\n";
  }
}
