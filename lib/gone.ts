/**
 * Stores the index read whose file is gone since (deleted or moved). Their
 * sessions stay in the index (`deja sources` shows them as "gone, kept"; a
 * rebuild drops them); a full `deja index` run says once which ones are newly
 * gone, remembering those it told of in the `meta` table.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { Q } from "./schema.ts";
import type { Store } from "./store.ts";

/** `meta` key: JSON array of the gone store paths a run has already told of. */
export const GONE_KEY = "gone_told";

/**
 * The stores of `harnesses` that are gone and were not gone at the last run
 * that looked, except those `kept` says to leave be (a remote's mirror not
 * read this pass). With `tell`, records them as told: a store that comes back
 * and goes again is told of again.
 *
 * @returns their paths, in the index's order.
 */
export function newlyGone(
  store: Store,
  harnesses: string[],
  kept: (path: string) => boolean,
  tell: boolean,
): string[] {
  const gone: string[] = [];
  for (const harness of harnesses) {
    for (const { path } of Q.sourcesOfHarness.all(store, { harness })) {
      if (!kept(path) && !existsSync(path)) gone.push(path);
    }
  }
  let told: string[] = [];
  try {
    const v = JSON.parse(Q.getMeta.get(store, { key: GONE_KEY })?.value ?? "[]");
    if (Array.isArray(v)) told = v.filter((x): x is string => typeof x === "string");
  } catch { /* unreadable: told of none */ }
  const before = new Set(told);
  // Other harnesses' stores told of stay told while they are still gone.
  const still = told.filter((p) => !gone.includes(p) && !existsSync(p));
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
