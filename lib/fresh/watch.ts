/**
 * `deja index --watch`: keeps the index within seconds of the stores. The
 * directories the freshness map names are watched with file-system
 * notifications (`fs.watch`, one per directory, at most {@link MAX_WATCHES});
 * a burst of events is coalesced into one check after {@link SETTLE_MS}; a
 * poll every `pollMs` catches whatever notifications missed (or all of it
 * where they are unavailable). Each check is the stat pass of
 * lib/fresh/check.ts, and an index run over the harnesses that changed.
 *
 * @module
 */
import { type FSWatcher, watch } from "node:fs";
import type { Env, Parser } from "../../core/model.ts";
import { indexPath, knownDamage, Store } from "../store.ts";
import { runIndex } from "../indexer.ts";
import { sessionsWritten } from "../index_summary.ts";
import { plural } from "../../core/text.ts";
import { checkStaleness, isFresh } from "./check.ts";
import { FRESH_KEY, parseFreshMap } from "./map.ts";

/** Notifications within this many ms of each other make one check. */
export const SETTLE_MS = 300;
/** Directories watched at most (inotify has a per-user limit). */
export const MAX_WATCHES = 2000;

/** Options of {@link watchIndex}. */
export interface WatchOptions {
  /** Poll interval in ms (default 5000). */
  pollMs?: number;
  /** Called after each run that read something. */
  onRun?(line: string): void;
  /** Called once the first pass is done and the stores are being followed. */
  onReady?(): void;
  /** Resolves when the watch should stop. */
  stop: Promise<void>;
}

/** Follows the stores until `opts.stop` resolves (see the module doc). */
export async function watchIndex(
  env: Env,
  parsers: readonly Parser[],
  opts: WatchOptions,
): Promise<void> {
  const watchers = new Map<string, FSWatcher>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  let stopped = false;
  opts.stop.then(() => {
    stopped = true;
    wake?.();
  });
  const poke = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      wake?.();
    }, SETTLE_MS);
  };
  const rewatch = () => {
    const dirs = watchedDirs(env);
    for (const [d, w] of watchers) {
      if (!dirs.has(d)) {
        w.close();
        watchers.delete(d);
      }
    }
    for (const d of dirs) {
      if (watchers.has(d) || watchers.size >= MAX_WATCHES) continue;
      try {
        const w = watch(d, { persistent: false }, poke);
        w.on("error", () => {
          w.close();
          watchers.delete(d);
        });
        watchers.set(d, w);
      } catch { /* absent, or notifications unavailable: the poll covers it */ }
    }
  };
  try {
    await runIndex(env, parsers, { waitMs: 60_000, watch: true });
    rewatch();
    opts.onReady?.();
    while (!stopped) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        const t = setTimeout(resolve, opts.pollMs ?? 5000);
        opts.stop.then(() => clearTimeout(t));
      });
      wake = undefined;
      if (stopped) break;
      const line = await checkOnce(env, parsers);
      if (line) {
        opts.onRun?.(line);
        rewatch();
      }
    }
  } finally {
    if (timer) clearTimeout(timer);
    for (const w of watchers.values()) w.close();
  }
}

/** One check: the stat pass, then an index run over what changed; a summary line or ''. */
export async function checkOnce(env: Env, parsers: readonly Parser[]): Promise<string> {
  let harnesses: string[];
  // Found damaged: said, and nothing written into it (trial 76: the watch wrote on, silent).
  const damage = knownDamage(indexPath(env));
  if (damage) {
    return `the index is damaged (${damage}): nothing written; 'deja index --rebuild' builds a new one`;
  }
  try {
    const store = Store.open(indexPath(env), { readOnly: true, busyMs: 1000 });
    try {
      const s = checkStaleness(store, { env });
      // A store whose read failed a minute ago or more is read again by a full run (trial 76:
      // a store locked when it changed was never read again while the watch ran).
      if (isFresh(s) && !s.retry) return "";
      harnesses = s.retry
        ? parsers.map((p) => p.id)
        : [...new Set([...s.changed.map((c) => c.harness), ...s.discover])];
    } finally {
      store.close();
    }
  } catch {
    harnesses = parsers.map((p) => p.id); // no readable index yet: a full run
  }
  try {
    const res = await runIndex(env, parsers, { only: harnesses, waitMs: 30_000, watch: true });
    const read = res.harnesses.filter((h) => h.read);
    if (!read.length) return "";
    // What a store lost is said as `deja index` says it (trial 34: a cut file read as nothing).
    return read.map((h) =>
      [
        `${h.harness}: ${h.read} read, ${plural(sessionsWritten(h), "session")}, ${
          plural(h.events, "event")
        }`,
        ...h.damaged ?? [],
        ...h.shrunk ?? [],
      ].join("; ")
    )
      .join("; ");
  } catch (e) {
    return `index busy: ${(e as Error).message}`;
  }
}

function watchedDirs(env: Env): Set<string> {
  try {
    const store = Store.open(indexPath(env), { readOnly: true, busyMs: 1000 });
    try {
      const row = store.db.prepare("SELECT value FROM meta WHERE key = ?").get(FRESH_KEY) as
        | { value: string }
        | undefined;
      const map = parseFreshMap(row?.value);
      return new Set(Object.values(map.dirs).flatMap((d) => Object.keys(d)));
    } finally {
      store.close();
    }
  } catch {
    return new Set();
  }
}
