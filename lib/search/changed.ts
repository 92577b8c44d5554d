/**
 * A path typed as the whole query (`/home/me/.config/waybar/style.css`, `src/app.ts`,
 * `style.css`): the sessions whose calls changed that file are what it asks for, as `deja
 * blame` answers (trial 18a: a prompt history quoting the path five times ranked above the
 * session that edited it six times). Those the ladder found are lifted first among the
 * matches, above a title or a typed prompt (lib/search.ts). A file named among other words
 * gets a hint instead, when nothing matched exactly (lib/cli/cmd_search.ts).
 *
 * @module
 */
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";

/** A query read as a path: no space, a slash or a file name with an extension. */
const PATH = /^(?:[^\s]*\/[^\s]*[^\s/]|[\w.-]+\.[A-Za-z0-9]{1,8})$/;

/**
 * The root sessions (filed under `rootOf`) among `found` (all when undefined) whose calls
 * changed the file `query` names, when the query is a path; empty otherwise.
 */
export function changedFileSessions(
  store: Store,
  query: string,
  found: { has(id: number): boolean } | undefined,
  rootOf: (id: number) => number,
): Set<number> {
  const out = new Set<number>();
  const q = query.trim().replace(/^\.\//, "");
  if (!PATH.test(q) || /^[a-z][\w+.-]*:\/\//i.test(q)) return out;
  const like = `%/${q.replace(/^\//, "").replace(/[\\%_]/g, (c) => `\\${c}`)}`;
  for (const r of Q.changedFile.all(store, { path: q, like })) {
    const root = rootOf(r.id);
    if (!found || found.has(root)) out.add(root);
  }
  return out;
}

/**
 * The words of `query` that read as a file (`App.css`, `src/app.ts`), each with how many
 * sessions' calls changed it: for a query that matched nothing exactly, the hint that `deja
 * blame` answers it (trial 18b: `which session changed App.css` ranked the one session that
 * edited it nowhere, the file name outweighed by `changed`). None when the query is the path
 * alone (the search lifts those sessions itself).
 */
export function changedFiles(
  store: Store,
  query: string,
): Array<{ file: string; sessions: number }> {
  const words = query.trim().split(/\s+/).map((w) => w.replace(/^["'`(]+|["'`),;:!?.]+$/g, ""));
  if (words.length < 2) return [];
  const out: Array<{ file: string; sessions: number }> = [];
  for (const w of new Set(words)) {
    const n = changedFileSessions(store, w, undefined, (id) => id).size;
    if (n) out.push({ file: w, sessions: n });
  }
  return out;
}
