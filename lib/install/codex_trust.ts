/**
 * Codex's trust pins for hooks: Codex (0.171) runs a hook from `hooks.json`
 * only once the user has approved it (`/hooks` in the TUI), and records the
 * approval in `config.toml` as
 *
 * ```toml
 * [hooks.state."<hooks.json path>:<event_label>:<group>:<handler>"]
 * trusted_hash = "sha256:<hex>"
 * ```
 *
 * where `event_label` is the event in snake case (`session_start`), `group`
 * the index of the matcher group in that event's list and `handler` the index
 * of the hook in the group. The hash is SHA-256 of the compact JSON, keys
 * sorted, of `{event_name, matcher?, hooks: [{type: "command", command,
 * timeout, async: false}]}`: the timeout defaults to 600 s (at least 1; 1..3
 * for `SessionEnd`), and `UserPromptSubmit` and `Stop` hash without their
 * matcher. A pin whose hash differs is a hook changed since it was approved.
 * (Facts from openai/codex `codex-rs/hooks/src/engine/discovery.rs`,
 * `config_rules.rs`, `lib.rs` and `codex-rs/config/src/fingerprint.rs`.)
 *
 * @module
 */
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { dejaSubcommand } from "./edits.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** `SessionStart` -> `session_start` (Codex's `hook_event_key_label`). */
export function eventLabel(event: string): string {
  return event.replace(/(?<=.)([A-Z])/g, "_$1").toLowerCase();
}

/** The key of one hook's pin under `[hooks.state]`. */
export function hookKey(source: string, event: string, group: number, handler: number): string {
  return `${source}:${eventLabel(event)}:${group}:${handler}`;
}

/** `v` with every object's keys sorted (Codex hashes canonical JSON). */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (!isObj(v)) return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
}

/**
 * The `trusted_hash` Codex records when the user approves a command hook.
 *
 * @param timeout seconds as written in hooks.json (undefined: Codex's default)
 */
export function hookHash(
  event: string,
  matcher: string | undefined,
  command: string,
  timeout: number | undefined,
): string {
  const label = eventLabel(event);
  const secs = label === "session_end"
    ? Math.min(Math.max(timeout ?? 1, 1), 3)
    : Math.max(timeout ?? 600, 1);
  const identity: Obj = {
    event_name: label,
    hooks: [{ type: "command", command, timeout: secs, async: false }],
  };
  if (matcher !== undefined && label !== "user_prompt_submit" && label !== "stop") {
    identity.matcher = matcher;
  }
  const hex = createHash("sha256").update(JSON.stringify(canonical(identity))).digest("hex");
  return `sha256:${hex}`;
}

/** One deja hook Codex will not run yet. */
export interface Unapproved {
  event: string;
  key: string;
  /** `new`: never approved; `changed`: approved, then changed (the pin's hash differs). */
  why: "new" | "changed";
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * deja's hooks in `hooks` (the parsed `hooks.json` at `hooksPath`) that
 * `config` (the parsed `config.toml`) holds no matching pin for. A pin written
 * under another spelling of the same path (a symlinked home) counts.
 */
export function unapprovedHooks(hooksPath: string, hooks: Obj, config: Obj): Unapproved[] {
  const state = isObj(config.hooks) && isObj(config.hooks.state) ? config.hooks.state : {};
  const source = real(hooksPath);
  const pin = (event: string, g: number, h: number): unknown => {
    const own = state[hookKey(hooksPath, event, g, h)] ?? state[hookKey(source, event, g, h)];
    if (own !== undefined) return own;
    const tail = `:${eventLabel(event)}:${g}:${h}`;
    const k = Object.keys(state).find((k) =>
      k.endsWith(tail) && real(k.slice(0, -tail.length)) === source
    );
    return k ? state[k] : undefined;
  };
  const out: Unapproved[] = [];
  const events = isObj(hooks.hooks) ? hooks.hooks : {};
  for (const [event, groups] of Object.entries(events)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, g) => {
      if (!isObj(group) || !Array.isArray(group.hooks)) return;
      const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
      group.hooks.forEach((hook, h) => {
        if (!isObj(hook) || !dejaSubcommand(hook.command)) return;
        const timeout = typeof hook.timeout === "number" ? hook.timeout : undefined;
        const want = hookHash(event, matcher, String(hook.command), timeout);
        const p = pin(event, g, h);
        const have = isObj(p) && typeof p.trusted_hash === "string" ? p.trusted_hash : undefined;
        if (have === want) return;
        out.push({ event, key: hookKey(hooksPath, event, g, h), why: have ? "changed" : "new" });
      });
    });
  }
  return out;
}
