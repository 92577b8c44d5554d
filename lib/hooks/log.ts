/**
 * Why a hook said nothing when it meant to answer: a hook is silent whatever goes wrong
 * (lib/hooks/run.ts), so without a record a user cannot tell a hook that found nothing to say
 * from one that gave up (trial 55: an event still arriving after 1.5 s was dropped without a
 * trace). Each give-up appends one line to `hooks.log` in deja's data folder — when, which
 * hook, why — and `deja doctor` shows the last ones. A hook run with a `--harness` id no harness
 * has writes a line too, though it answers ({@link unknownHarnessWhy}); doctor reports those
 * apart, as wiring to fix and not as give-ups (trial 132 F7). The file stays small: past
 * {@link LOG_MAX} bytes its older half is dropped. Writing it never throws and costs a hook
 * nothing when nothing went wrong.
 *
 * @module
 */
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../core/model.ts";
import { dataDir } from "../../core/paths.ts";

/** Bytes the log may reach before its older half is dropped. */
export const LOG_MAX = 64 * 1024;

/** Where the hooks' give-ups are written. */
export function hookLogPath(env: Env): string {
  return join(dataDir(env), "hooks.log");
}

/** Appends one give-up of hook `name`: `<ISO time> <name> <why>`. Never throws. */
export function noteGiveUp(env: Env, name: string, why: string, now = Date.now()): void {
  try {
    const path = hookLogPath(env);
    const line = `${new Date(now).toISOString()} ${name} ${why.replace(/\s+/g, " ").trim()}\n`;
    appendFileSync(path, line, { mode: 0o600 });
    if (statSync(path).size > LOG_MAX) {
      const text = readFileSync(path, "utf8");
      const keep = text.slice(text.length - LOG_MAX / 2);
      writeFileSync(path, keep.slice(keep.indexOf("\n") + 1), { mode: 0o600 });
    }
  } catch { /* a hook never fails for its log */ }
}

/** One line of the log, read back. */
export interface GiveUp {
  /** Epoch ms. */
  at: number;
  hook: string;
  why: string;
}

/** The log's give-ups, oldest first (none when there is no log). */
export function readGiveUps(env: Env): GiveUp[] {
  let text: string;
  try {
    text = readFileSync(hookLogPath(env), "utf8");
  } catch {
    return [];
  }
  const out: GiveUp[] = [];
  for (const line of text.split("\n")) {
    const m = /^(\S+) (\S+) (.*)$/.exec(line);
    const at = m ? Date.parse(m[1]) : NaN;
    if (m && Number.isFinite(at)) out.push({ at, hook: m[2], why: m[3] });
  }
  return out;
}

const UNKNOWN_HARNESS =
  /^--harness '(.*)' is no harness deja knows(?: \(nearest: ([^)]*)\))?; its answers take Claude Code's envelope$/;

/**
 * The log line of a hook run with `--harness <id>` no harness has (`id` "" for an empty or
 * missing value): the hook answered, in Claude Code's envelope. {@link unknownHarnessOf} reads
 * it back.
 */
export function unknownHarnessWhy(id: string, nearest: readonly string[]): string {
  return `--harness '${id}' is no harness deja knows${
    nearestSaid(nearest)
  }; its answers take Claude Code's envelope`;
}

/** The nearest known ids as hooks.log and doctor say them, ` (nearest: crush)`, or nothing. */
export function nearestSaid(nearest: readonly string[] | undefined): string {
  return nearest?.length ? ` (nearest: ${nearest.join(", ")})` : "";
}

/** The id and nearest ids of a line {@link unknownHarnessWhy} wrote; undefined for a give-up. */
export function unknownHarnessOf(why: string): { harness: string; nearest: string[] } | undefined {
  const m = UNKNOWN_HARNESS.exec(why);
  if (!m) return undefined;
  return { harness: m[1], nearest: m[2] ? m[2].split(", ") : [] };
}
