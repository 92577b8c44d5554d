/**
 * Each remote's state for `deja remote list` and `deja doctor`: target, path
 * maps, policy, last sync, lag, last error, and its sessions in the index.
 *
 * @module
 */
import { existsSync } from "node:fs";
import type { Env } from "../../core/model.ts";
import { indexPath, Store } from "../store.ts";
import { Q } from "../schema.ts";
import { loadRemotes, mirrorDir, type PathMap } from "./config.ts";
import { storeState } from "../gone.ts";

/** One remote as `deja remote list --json` and `deja doctor --json` print it. */
export interface RemoteStatus {
  name: string;
  host: string;
  port: number | null;
  path_maps: PathMap[];
  /** Hooks and MCP leave it out. */
  no_auto: boolean;
  /** Epoch ms of the last sync that completed, or null. */
  last_sync: number | null;
  /** Milliseconds since then, or null. */
  lag_ms: number | null;
  /** The last sync's error, or null when it succeeded. */
  last_error: string | null;
  /** Bytes received and wall time (ms) of the last sync. */
  last_bytes: number | null;
  last_ms: number | null;
  /** How its stores were found: `deja` (its own `deja sources`) or `registry`. */
  discovery: string | null;
  /** Store roots the remote had at the last sync, mirrored (remote paths). */
  roots: string[];
  /**
   * Roots an earlier sync copied that the remote no longer had at the last one: their copies
   * (and their sessions) stay, from that earlier sync (trial 101 F2).
   */
  stale_roots: string[];
  /**
   * Stores (session files) the index read from its mirror that a later sync found deleted on
   * the remote (remote paths): their sessions stay in the index, {@link gone_sessions} of them
   * (trial 113 F10).
   */
  gone_stores: string[];
  /** Sessions the index keeps of {@link gone_stores}. */
  gone_sessions: number;
  /** Sessions the index holds from it. */
  sessions: number;
}

/** Every remote's status (`now` in epoch ms for the lag). */
export function remoteStatus(env: Env, now = Date.now()): RemoteStatus[] {
  const remotes = loadRemotes(env);
  const counts = new Map<string, number>();
  const gone = new Map<string, { stores: string[]; sessions: number }>();
  const path = indexPath(env);
  if (remotes.length && existsSync(path)) {
    try {
      const store = Store.open(path);
      try {
        for (
          const r of Q.originTotals.all(store, {})
        ) {
          if (r.origin) counts.set(r.origin, r.sessions);
        }
        // A store read from a mirror and gone from it: the sync deleted it as the remote had.
        const sources = Q.sourcesReport.all(store, {});
        for (const r of remotes) {
          const dir = mirrorDir(env, r.name);
          const g = { stores: [] as string[], sessions: 0 };
          for (const src of sources) {
            if (!src.path.startsWith(`${dir}/`) || storeState(src.path) !== "gone") continue;
            g.stores.push(src.path.slice(dir.length));
            g.sessions += Q.sessionsOfSource.all(store, { source: src.path }).length;
          }
          gone.set(r.name, g);
        }
      } finally {
        store.close();
      }
    } catch { /* an index that cannot be read: counts stay 0, doctor says why elsewhere */ }
  }
  return remotes.map((r) => {
    const s = r.sync;
    return {
      name: r.name,
      host: r.host,
      port: r.port ?? null,
      path_maps: r.pathMaps ?? [],
      no_auto: Boolean(r.noAuto),
      last_sync: s?.okAt ?? null,
      lag_ms: s?.okAt ? Math.max(0, now - s.okAt) : null,
      last_error: s?.error ?? null,
      last_bytes: s?.bytes ?? null,
      last_ms: s?.ms ?? null,
      discovery: s?.discovery ?? null,
      roots: s?.roots ?? [],
      stale_roots: s?.stale ?? [],
      gone_stores: gone.get(r.name)?.stores ?? [],
      gone_sessions: gone.get(r.name)?.sessions ?? 0,
      sessions: counts.get(r.name) ?? 0,
    };
  });
}
