/**
 * Stores the index read whose file is gone since (deleted or moved). Their
 * sessions stay in the index (`deja sources` shows them as "gone, kept"; a
 * rebuild drops them); a full `deja index` run says once which ones are newly
 * gone, remembering those it told of in the `meta` table.
 *
 * A store is gone only when a stat says it does not exist (ENOENT, ENOTDIR) or is
 * no file (a folder made in its place): one that cannot be read (EACCES) is still
 * there ({@link storeState}). A store
 * moved is not gone: when every session read from it was read again from
 * another path, or a store still in place has its stamp (the same file reached
 * through a link), its row is retired quietly ({@link newlyGone}). A session
 * another store still holds a copy of is read again from it (lib/copies.ts
 * releaseGoneHolders, at the start of the run), so it is not kept as gone.
 *
 * @module
 */
import { statSync } from "node:fs";
import { Q } from "./schema.ts";
import type { Store } from "./store.ts";
import { isMissing } from "../core/stat.ts";

/** `meta` key: JSON array of the gone store paths a run has already told of. */
export const GONE_KEY = "gone_told";

/** How a store the index holds stands now, by one stat (no body is read). */
export type StoreState = "present" | "gone" | "unreadable";

/**
 * {@link StoreState} of `path`: gone when the stat says it does not exist, or that it is no
 * file: every store is a file, and a folder (or a FIFO) made in its place holds none of its
 * sessions, as a file deleted does not (trial 111 F2: a session file replaced by a folder of
 * its name was never said gone, and `deja sources` counted 14 stores indexed of 13).
 */
export function storeState(path: string): StoreState {
  // One stat with no exception for a path that is not there. Told by `existsSync` alone, a
  // store took no Stats object (issue 18); told a file, 40,000 stores cost `deja sources`
  // ~3 MB more RSS and ~50 ms (Bun, measured 2026-12 on a 2-core machine).
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st?.isFile() ? "present" : "gone";
  } catch (e) {
    return isMissing(e) ? "gone" : "unreadable";
  }
}

/**
 * What a store {@link storeState} calls unreadable meets now: `cannot be read now: EACCES:
 * permission denied` (a folder above it deja may not open), which the permission hint then
 * follows (trial 127 F6: doctor and sources said "cannot be read now" and no more).
 */
export function unreadableNow(path: string): string {
  try {
    statSync(path);
    return "cannot be read now";
  } catch (e) {
    const code = (e as { code?: string }).code;
    const what = code === "EACCES" || code === "EPERM" ? `${code}: permission denied` : code;
    return what ? `cannot be read now: ${what}` : "cannot be read now";
  }
}

export { isMissing };

/**
 * Retires the row of gone store `path` when it was moved: none of the index's
 * sessions names it as its source any more (all were read again from another
 * path), or a store still in place has its stamp (its sessions are filed under
 * that store). Its redaction counts go with it (the other path's read counted
 * them again).
 *
 * @returns true when retired.
 */
function retireMoved(store: Store, path: string): boolean {
  const twin = Q.sourceTwin.get(store, { path })?.path;
  const here = twin !== undefined && storeState(twin) === "present";
  if (!here && Q.sessionsOfSource.all(store, { source: path }).length) return false;
  // Holding events of a session held from another store (lib/ingest.ts): kept, not moved.
  if (!here && Q.copyCount.get(store, { source: path })!.n) return false;
  store.tx(() => {
    if (here) Q.repointSessions.run(store, { to: twin, from: path });
    retire(store, path);
  });
  return true;
}

function retire(store: Store, path: string): void {
  Q.forgetSource.run(store, { path });
  Q.clearRedactions.run(store, { source: path });
}

/**
 * Inside a pass that took sessions from gone store `path` (the file moved: lib/ingest.ts),
 * retires its row when no session names it any more, as a full run would ({@link
 * retireMoved}): a refresh on use that met the move first left it "gone" beside the new path,
 * its session counted twice (trial 72). Call inside the pass's transaction.
 */
export function retireMovedFrom(store: Store, path: string): void {
  if (storeState(path) !== "gone") return;
  if (Q.sessionsOfSource.all(store, { source: path }).length) return;
  if (Q.copyCount.get(store, { source: path })!.n) return;
  retire(store, path);
}

/**
 * The stores of `harnesses` that are gone and were not gone at the last run
 * that looked, except those `kept` says to leave be (a remote's mirror not
 * read this pass). Stores moved are retired on the way (see the module doc). With `tell`, records them as told: a store that comes back
 * and goes again is told of again. The paths in `found` (discovered by this
 * run) are present: they are not stat'ed again, a second stat per store
 * being most of this check's cost over thousands of stores (issue 18).
 *
 * @returns their paths, in the index's order.
 */
export function newlyGone(
  store: Store,
  harnesses: string[],
  kept: (path: string) => boolean,
  tell: boolean,
  found: ReadonlySet<string> = new Set(),
): string[] {
  const gone: string[] = [];
  for (const harness of harnesses) {
    for (const { path } of Q.sourcesOfHarness.all(store, { harness })) {
      if (found.has(path) || kept(path)) continue;
      if (storeState(path) !== "gone" || retireMoved(store, path)) continue;
      gone.push(path);
    }
  }
  let told: string[] = [];
  try {
    const v = JSON.parse(Q.getMeta.get(store, { key: GONE_KEY })?.value ?? "[]");
    if (Array.isArray(v)) told = v.filter((x): x is string => typeof x === "string");
  } catch { /* unreadable: told of none */ }
  const before = new Set(told);
  // Other harnesses' stores told of stay told while they are still gone.
  const now = new Set(gone);
  const still = told.filter((p) => !now.has(p) && storeState(p) === "gone");
  if (tell) Q.setMeta.run(store, { key: GONE_KEY, value: JSON.stringify([...still, ...gone]) });
  return gone.filter((p) => !before.has(p));
}

/**
 * The one stderr line of a run that found stores newly gone, e.g.
 * `deja: 2 stores gone since the last run (deleted or moved; first /x/a.jsonl): their
 * sessions stay in the index ('deja sources' counts them as "gone, kept"; 'deja index
 * --rebuild' drops them)`.
 */
export function goneLine(paths: string[]): string {
  const n = paths.length;
  const what = n === 1 ? `1 store gone` : `${n} stores gone`;
  return `deja: ${what} since the last run (deleted or moved; ${n === 1 ? "" : "first "}${
    paths[0]
  }): ${n === 1 ? "its" : "their"} sessions stay in the index ('deja sources' counts them as ` +
    `"gone, kept"; 'deja index --rebuild' drops them)\n`;
}
