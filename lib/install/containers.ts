/**
 * Containers (objects and lists) deja created in a config, so that uninstall
 * prunes only those once they are empty again: a `"hooks": {"Stop": []}` or an
 * `"mcpServers": {}` the user had before install stays, byte for byte.
 *
 * A container is named by its key path through objects (lists are not walked
 * into: deja's entries in a list are removed whole).
 *
 * @module
 */
import { isObj, type Obj } from "../../core/values.ts";

/** The key paths of every object and list inside `o`, outermost first. */
function paths(o: Obj, at: string[] = [], out: string[][] = []): string[][] {
  for (const [k, v] of Object.entries(o)) {
    if (!isObj(v) && !Array.isArray(v)) continue;
    out.push([...at, k]);
    if (isObj(v)) paths(v, [...at, k], out);
  }
  return out;
}

const id = (p: string[]) => JSON.stringify(p);

/** The containers in `after` that `before` did not have (what an install edit created). */
export function newContainers(before: Obj, after: Obj): string[][] {
  const had = new Set(paths(before).map(id));
  return paths(after).filter((p) => !had.has(id(p)));
}

function valueAt(o: Obj, p: string[]): { holder: Obj; v: unknown } | undefined {
  let holder = o;
  for (const k of p.slice(0, -1)) {
    const v = holder[k];
    if (!isObj(v)) return undefined;
    holder = v;
  }
  return { holder, v: holder[p[p.length - 1]] };
}

const isEmpty = (v: unknown) =>
  Array.isArray(v) ? v.length === 0 : isObj(v) && Object.keys(v).length === 0;

/**
 * Removes from `after` the containers an uninstall edit emptied (empty now,
 * not empty in `before`), and the ones that leaves empty in turn. For a config
 * whose install recorded nothing (an older deja).
 */
export function pruneEmptied(before: Obj, after: Obj): void {
  for (;;) {
    const emptied = paths(after).filter((p) => {
      const was = valueAt(before, p);
      return isEmpty(valueAt(after, p)?.v) && was !== undefined && !isEmpty(was.v);
    });
    if (!emptied.length) return;
    pruneEmpty(after, emptied);
  }
}

/** Removes the containers `which` names that are empty in `o`, innermost first. */
export function pruneEmpty(o: Obj, which: string[][]): void {
  for (const p of [...which].sort((a, b) => b.length - a.length)) {
    const at = valueAt(o, p);
    if (at && isEmpty(at.v)) delete at.holder[p[p.length - 1]];
  }
}
