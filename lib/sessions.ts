/**
 * Finding sessions by what a person types: an id prefix, optionally
 * `harness:prefix`, and the shortest prefix that finds a session again.
 *
 * @module
 */
import type { Store } from "./store.ts";
import { DejaError } from "../core/errors.ts";
import { Q } from "./schema.ts";
import { harnessIds } from "../core/registry.ts";
import type { SessionRow } from "./rows.ts";
import { MAX_LIKE_TEXT, overLikeBound } from "./query.ts";

/** Looks like a session id someone copied: hex/uuid, `harness:id`, or a deja/aider id. */
export function looksLikeId(text: string): boolean {
  return /^(?:[a-z][a-z0-9_]*:\S+|[0-9a-f][0-9a-f-]{5,}|(?:deja|aider)-\S+)$/i.test(text);
}

/**
 * No session has the id (prefix) `ref`: a {@link DejaError} (exit 1) the command
 * line turns into a search hint when `ref` reads as words (`deja show me`).
 */
export class NoSessionMatch extends DejaError {
  constructor(readonly ref: string, hint: string) {
    super(`no session matches '${ref}'`, hint, 1);
  }
}

/**
 * Finds the one session whose native id starts with `prefix` (optionally
 * `harness:prefix`). An exact id wins; so does the one top-level session
 * when every other match is one of its own subagents (Claude Code files a
 * subagent as `<parent id>/agent-…`, so a parent's short id is also a prefix
 * of its subagents'). Every command that takes a session id resolves it
 * here (show, resume, handoff, ctx, `--session`, MCP). `deja:<YYYY-MM-DD>` names the
 * notes of that day (`deja remember`): the one project's, or, when several projects have
 * notes that day, an exit-2 error listing them with their projects.
 *
 * @throws {DejaError} exit 1 when none matches; exit 2 when several do (the
 *   hint lists them).
 */
export function resolveSession(store: Store, ref: string): SessionRow {
  if (overLikeBound(ref)) {
    throw new DejaError(
      `no session matches '${[...ref].slice(0, 40).join("")}' (${ref.length} characters)`,
      `a session id is at most ${MAX_LIKE_TEXT} characters; 'deja last' lists sessions`,
      1,
    );
  }
  // `deja:` with nothing after the colon: no id to look for.
  // A harness prefix in any case (`CLAUDE:5fbf3543`), as the id after it is (SQLite's LIKE).
  const bare = /^([a-z][a-z0-9_]*):$/i.exec(ref);
  const bareId = bare?.[1].toLowerCase();
  if (bareId && harnessIds().includes(bareId)) {
    throw new DejaError(
      `'${ref}' names a harness but no session`,
      `put an id after the colon (${bareId}:<id>${
        bareId === "deja" ? " or deja:<YYYY-MM-DD>" : ""
      }); 'deja last --harness ${bareId}' lists its sessions`,
      1,
    );
  }
  let harness: string | null = null;
  let prefix = ref;
  const m = /^([a-z][a-z0-9_]*):(.+)$/i.exec(ref);
  // `<harness>:<id>`; a remote's sessions are `<remote>:<id>` (lib/remote/label.ts), a prefix.
  if (m && harnessIds().includes(m[1].toLowerCase())) {
    harness = m[1].toLowerCase();
    prefix = m[2];
  }
  // `deja:<YYYY-MM-DD>`: the notes of that day (ids are `<hash>-<day>`, one per project).
  const day = harness === "deja" && /^\d{4}-\d{2}-\d{2}$/.test(prefix);
  const like = day ? `%-${prefix}` : prefix.replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
  const rows = Q.sessionsByPrefix.all(store, { like, harness });
  const exact = rows.filter((r) => r.native_id === prefix);
  if (exact.length === 1) return exact[0];
  if (!rows.length) {
    // `nosuch:01a2`: say that the part before the colon names neither a harness nor a machine.
    const remote = m && !harness &&
      Q.anyOfOrigin.get(store, { origin: m[1] }) !== undefined;
    const hint = m && !harness && !remote
      ? `'${m[1]}' is neither a harness nor a remote (harnesses: ${
        harnessIds().join(", ")
      }; remotes: deja remote list)`
      : "search first: deja <words>";
    throw new NoSessionMatch(ref, hint);
  }
  if (rows.length === 1) return rows[0];
  const root = parentOfAll(rows);
  if (root) return root;
  const list = rows.slice(0, 5).map((r) =>
    `${r.harness}:${r.native_id}${day && r.project ? ` (${r.project})` : ""}`
  ).join(", ");
  throw new DejaError(`'${ref}' matches ${rows.length} sessions`, `be more specific: ${list}`, 2);
}

/** Rows a prefix query returns at most (Q.sessionsByPrefix); a full page may hide more. */
const PREFIX_PAGE = 20;

/**
 * The one top-level row of `rows` when all the others are its subagents (at
 * any depth, through rows of the same list), else undefined.
 */
function parentOfAll(rows: SessionRow[]): SessionRow | undefined {
  const roots = rows.filter((r) => r.parent === null);
  if (roots.length !== 1 || rows.length >= PREFIX_PAGE) return undefined;
  const root = roots[0];
  const under = new Set([root.native_id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows) {
      if (r.harness !== root.harness || under.has(r.native_id)) continue;
      if (r.parent !== null && under.has(r.parent)) {
        under.add(r.native_id);
        grew = true;
      }
    }
  }
  return rows.every((r) => r.harness === root.harness && under.has(r.native_id)) ? root : undefined;
}

/**
 * The shortest prefix of `id` (8, 12, 16 or 24 characters, else the whole id)
 * that {@link resolveSession} maps back to this session; `harness:id` when
 * even the whole id is ambiguous across harnesses.
 */
export function shortRef(store: Store, harness: string, id: string): string {
  for (const n of [8, 12, 16, 24, id.length]) {
    if (n > id.length) continue;
    const prefix = id.slice(0, n);
    try {
      const s = resolveSession(store, prefix);
      if (s.harness === harness && s.native_id === id) return prefix;
    } catch { /* ambiguous at this length */ }
  }
  return `${harness}:${id}`;
}

/**
 * The models session `s` used, in order of first use: `sessions.models` when it
 * switched model (2 or more), else its one model, else none.
 */
export function modelsOf(s: Pick<SessionRow, "model" | "models">): string[] {
  if (s.models) {
    try {
      const list = JSON.parse(s.models);
      if (Array.isArray(list) && list.length && list.every((m) => typeof m === "string")) {
        return list;
      }
    } catch { /* a damaged value: the session's one model below */ }
  }
  return s.model ? [s.model] : [];
}

/** {@link modelsOf} as a header shows it: `a → b → c`, or "" when none is known. */
export function modelsLabel(s: Pick<SessionRow, "model" | "models">): string {
  return modelsOf(s).join(" → ");
}
