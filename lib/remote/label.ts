/**
 * Sessions read from a remote's mirror, labelled with their machine: ids
 * prefixed `<name>:` (so they never collide with a local session or another
 * machine's), projects and file paths mapped by the remote's `--path-map`, or
 * kept as `<name>:/path` where no map applies (so `blame`, `restore` and the
 * hooks never mistake a remote file for a local one).
 *
 * @module
 */
import type { Event, Session } from "../../core/model.ts";
import type { PathMap } from "./config.ts";
import { isWindowsDrivePath } from "../../core/paths.ts";

/** How one remote's sessions are labelled. */
export interface Label {
  /** The remote's name (the session's `origin`). */
  origin: string;
  pathMaps: readonly PathMap[];
  /** The mirror directory: the remote's absolute path `p` is at `<mirror>/p` here. */
  mirror?: string;
}

/** The local form of a remote absolute path: mapped, else `<origin>:<path>`; other text unchanged. */
export function mapPath(label: Label, path: string): string {
  // A path a parser made from where it found the store (aider's project is the directory of
  // its history file) points into the mirror: it stands for the same path on the remote.
  const m0 = label.mirror?.replace(/\/+$/, "");
  if (m0 && path.startsWith(`${m0}/`)) path = path.slice(m0.length);
  if (!path.startsWith("/")) return isWindowsDrivePath(path) ? `${label.origin}:${path}` : path;
  for (const m of label.pathMaps) {
    if (path === m.remote) return m.local;
    if (path.startsWith(`${m.remote}/`)) return m.local + path.slice(m.remote.length);
  }
  return `${label.origin}:${path}`;
}

/** The id a remote session is indexed under (`<origin>:<native id>`). */
export function remoteId(label: Label, id: string): string {
  return `${label.origin}:${id}`;
}

/** A session chunk of a remote, labelled (a new object; the parser's is left as it was). */
export function labelSession(label: Label, s: Session): Session {
  return {
    ...s,
    id: remoteId(label, s.id),
    ...(s.parent ? { parent: remoteId(label, s.parent) } : {}),
    ...(s.project ? { project: mapPath(label, s.project) } : {}),
    events: s.events.map((e) => labelEvent(label, e)),
  };
}

function labelEvent(label: Label, e: Event): Event {
  const t = e.tool;
  const r = e.result;
  if (!t && !r?.edits) return e;
  const span = <T extends { path: string }>(x: T): T => ({ ...x, path: mapPath(label, x.path) });
  return {
    ...e,
    ...(t
      ? {
        tool: {
          ...t,
          ...(t.paths ? { paths: t.paths.map((p) => mapPath(label, p)) } : {}),
          ...(t.edits ? { edits: t.edits.map(span) } : {}),
          ...(t.writes ? { writes: t.writes.map(span) } : {}),
        },
      }
      : {}),
    ...(r?.edits ? { result: { ...r, edits: r.edits.map(span) } } : {}),
  };
}

/**
 * A session's origin from its indexed id: the remote's name, or null for a
 * local session. `names` are the configured remotes (an id holding a colon is
 * not remote unless its prefix names one).
 */
export function originOf(id: string, names: ReadonlySet<string>): string | null {
  const i = id.indexOf(":");
  return i > 0 && names.has(id.slice(0, i)) ? id.slice(0, i) : null;
}

/**
 * The remote path a labelled path stands for: `<origin>:/path` unprefixed, a
 * mapped local path mapped back (the inverse of {@link mapPath}); any other
 * text unchanged.
 */
export function unmapPath(label: Label, path: string): string {
  if (path.startsWith(`${label.origin}:`)) return path.slice(label.origin.length + 1);
  for (const m of label.pathMaps) {
    if (path === m.local) return m.remote;
    if (path.startsWith(`${m.local}/`)) return m.remote + path.slice(m.local.length);
  }
  return path;
}

/** A remote session's native id (the harness's own) from its indexed id. */
export function nativeId(label: Label, id: string): string {
  return id.startsWith(`${label.origin}:`) ? id.slice(label.origin.length + 1) : id;
}

/**
 * The harness's own id of an indexed session: its `native_id` without the `<origin>:` of the
 * remote it was read from (a store names its sessions without it: a rollout's file name, a
 * first `session_meta`).
 */
export function ownId(s: { native_id: string; origin?: string | null }): string {
  return s.origin ? nativeId({ origin: s.origin, pathMaps: [] }, s.native_id) : s.native_id;
}
