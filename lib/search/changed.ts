/**
 * A path typed as the whole query (`/home/me/.config/waybar/style.css`, `src/app.ts`,
 * `style.css`): the sessions whose calls changed that file are what it asks for, as `deja
 * blame` answers (trial 18a: a prompt history quoting the path five times ranked above the
 * session that edited it six times). Those the ladder found are lifted first among the
 * matches, below a title or a typed prompt (lib/search.ts).
 *
 * @module
 */
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";

/** A query read as a path: no space, a slash or a file name with an extension. */
const PATH = /^(?:[^\s]*\/[^\s]*[^\s/]|[\w.-]+\.[A-Za-z0-9]{1,8})$/;

/**
 * The root sessions (filed under `rootOf`) among `found` whose calls changed the file `query`
 * names, when the query is a path; empty otherwise.
 */
export function changedFileSessions(
  store: Store,
  query: string,
  found: ReadonlySet<number>,
  rootOf: (id: number) => number,
): Set<number> {
  const out = new Set<number>();
  const q = query.trim().replace(/^\.\//, "");
  if (!PATH.test(q) || /^[a-z][\w+.-]*:\/\//i.test(q)) return out;
  const like = `%/${q.replace(/^\//, "").replace(/[\\%_]/g, (c) => `\\${c}`)}`;
  for (const r of Q.changedFile.all(store, { path: q, like })) {
    const root = rootOf(r.id);
    if (found.has(root)) out.add(root);
  }
  return out;
}
