/**
 * What the hook builders share: the project a hook runs in, the agent's own
 * session as the index knows it, text made safe for a model's context, dates,
 * and fitting parts into a byte budget.
 *
 * @module
 */
import { shortRef } from "../sessions.ts";
import { sanitizeForTerminal } from "../../core/terminal.ts";
import { dirname, win32 } from "node:path";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { projectExactLike } from "../project_path.ts";
import type { SessionRow } from "../rows.ts";
import { byteLength, oneLine } from "../../core/text.ts";
import { reportsProblem } from "../memory/text.ts";
import { trimSeparators } from "./input.ts";

/** What a builder says, and the keys that mark it as said (see state.ts). */
export interface Said {
  text: string;
  keys: string[];
}

/** The agent session a hook runs for, as far as the index knows it. */
export interface Current {
  /** The harness's session id from the event (may be absent). */
  id?: string;
  /** Index row ids of that session and its subagents (empty when not indexed). */
  rows: Set<number>;
  /**
   * Row ids the hook never speaks of: sessions of remotes whose policy is
   * `--no-auto` (`originHidden` in lib/search/sessions.ts, the rule MCP applies too).
   */
  hidden: Set<number>;
  /**
   * The user's home: no project of a folder below it (lib/hooks/_util.ts `projectSessions`;
   * trial 68: a command run in `~` was "ran here" in every new project below it).
   */
  home?: string;
}

/** True when session row `id` is neither the agent's own nor left out by policy: a hook may cite it. */
export function citable(current: Current, id: number): boolean {
  return !current.rows.has(id) && !current.hidden.has(id);
}

/** `%`/`_`/`\` escaped for a LIKE pattern with `ESCAPE '\'`. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The index's rows for the agent session `id` (any harness: a session id is a
 * UUID or the like) and its subagents.
 */
export function currentSession(
  store: Store,
  id: string | undefined,
  hidden: Set<number> = new Set(),
): Current {
  const rows = new Set<number>();
  if (id) {
    const found = Q.sessionsByPrefix.all(store, { like: likeEscape(id), harness: null })
      .filter((s) => s.native_id === id);
    if (found.length) {
      const all = Q.withChildren.all(store, { ids: JSON.stringify(found.map((s) => s.id)) });
      for (const r of all) rows.add(r.id);
    }
  }
  return { id, rows, hidden };
}

/**
 * The nearest directory from `dir` upwards that is the project of some
 * indexed session, with the newest top-level sessions of that project (at
 * most `n`); undefined when no ancestor has sessions. The user's `home` (when
 * given) and the root are no project of a folder below them: sessions run in
 * `~` are about no project under it (trial 66: a note kept in a parent folder
 * was offered to a new project below as its own).
 */
export function projectSessions(
  store: Store,
  dir: string,
  n: number,
  home?: string,
): { project: string; sessions: SessionRow[] } | undefined {
  // A Windows path is walked up by its own rules, and names its project whatever the case of
  // its drive letter or the way of its separators (`c:/Users/u/app` for `C:\Users\u\app`:
  // trial 16, where every hook was silent).
  const windows = WINDOWS.test(dir);
  const up = windows ? win32.dirname : dirname;
  const same = (a: string | null, b: string) =>
    a === b || (windows && a !== null && WINDOWS.test(a) && winKey(a) === winKey(b));
  const start = trimSeparators(dir);
  const top = (d: string) =>
    d !== start && (up(d) === d || (home !== undefined && same(trimSeparators(home), d)));
  for (let d = start, i = 0; i < 64; d = up(d), i++) {
    if (top(d)) break;
    const rows = Q.lastSessions.all(store, {
      harnesses: null,
      project: projectExactLike(d),
      since: null,
      limit: n,
    });
    const exact = rows.filter((r) => same(r.project, d));
    if (exact.length) return { project: exact[0].project!, sessions: exact };
    if (up(d) === d) break;
  }
  return undefined;
}

/** A path with a drive letter (`C:\…`, `c:/…`). */
const WINDOWS = /^[A-Za-z]:[\\/]/;

/** A Windows path compared: `/` as `\`, lower case, no trailing separator. */
function winKey(p: string): string {
  return p.replaceAll("/", "\\").toLowerCase().replace(/(?<=.)\\+$/, "");
}

/**
 * Transcript text with escape sequences, control characters and search match
 * marks (\x01/\x02) taken out, for a hook's answer to a model.
 */
export function stripControls(s: string): string {
  return sanitizeForTerminal(s);
}

/**
 * `YYYY-MM-DD` (UTC), or `?`. UTC on purpose: a hook runs before every tool
 * call, and the first local-time conversion loads the time zone data (some
 * milliseconds); a day is precise enough for "last ran on".
 */
export function day(ms: number | null | undefined): string {
  if (!ms) return "?";
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * How `deja ctx` and `deja show` name session `id` of `harness` in short: its first 8
 * characters, or more where other sessions share them (trial 89 F8: Codex ids of sessions
 * begun within a minute share their first 8, and the hook's own `deja ctx <id>` hint matched
 * two sessions); lib/sessions.ts shortRef.
 */
export function shortId(store: Store, harness: string, id: string): string {
  return id.length > 12 ? shortRef(store, harness, id) : id;
}

/**
 * Joins lines while they fit in `budget` UTF-8 bytes (newlines counted);
 * the first line that does not fit ends the block.
 */
export function fitLines(lines: string[], budget: number): string {
  const out: string[] = [];
  let used = 0;
  for (const l of lines) {
    const n = byteLength(l) + (out.length ? 1 : 0);
    if (used + n > budget) break;
    out.push(l);
    used += n;
  }
  return out.join("\n");
}

/**
 * The user's next message in session `sid` within 20 events after seq `after`, cut to `max`,
 * when it reports a problem ("does not work", a pasted error); null otherwise: what refutes a
 * claim a hook is about to quote (trial 75 F2, trial 85 F4).
 */
export function problemAfter(store: Store, sid: number, after: number, max: number): string | null {
  const next = Q.nextUserText.get(store, { session: sid, after, span: 20 });
  return next && reportsProblem(next.text) ? oneLine(stripControls(next.text), max) : null;
}
