/**
 * `last`: the most recent sessions, newest first (updated time, else started;
 * ties by harness then id), each with a one-line description. Subagent
 * sessions are left out when their parent is indexed (they are filed under
 * it, and `deja show` lists them with it); a subagent whose parent is not
 * indexed is listed as a session of its own.
 *
 * An undated session — dated only by the mtime of a file many sessions share,
 * a prompt history (`time_from_file` 2; lib/session_time.ts) — is listed
 * after every dated one, newest file first: that mtime is only the newest
 * prompt's, and a new-user trial found prompt histories listed as the newest
 * sessions. `--since` leaves them out (no window can place them) and counts
 * them (`undated`). A session dated by its own file's mtime (a Kimi
 * `context.jsonl`, a Continue session) is listed by that time, its last
 * write, among the dated ones (marked `(file time)` where shown).
 *
 * @module
 */
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { projectLike } from "../project_path.ts";
import type { SessionRow } from "../rows.ts";
import { oneLine } from "../../core/text.ts";
import { countsAsHidden } from "../search/sessions.ts";
import { isUndated } from "../session_time.ts";

/** Options of {@link lastSessions}. */
export interface LastOptions {
  /** Sessions returned at most (default 10). */
  limit?: number;
  /** Only these harnesses. */
  harness?: string[];
  /** Only projects whose path contains this text. */
  project?: string;
  /** Row ids left out (the commands' rule: `defaultHidden`, lib/search/sessions.ts). */
  hidden?: Set<number>;
  /** Epoch ms: only sessions updated (else started) at or after, by a dated time (not an undated one's). */
  since?: number;
  /**
   * Epoch ms: only sessions started (else updated) before (`deja last month`'s window), with an
   * event timed in the window (from `since`) when their events have times.
   */
  until?: number;
  /** Read every matching row, so `total` is known whatever the limit. */
  count?: boolean;
}

/** What {@link lastSessions} returns. */
export interface LastResult {
  sessions: LastSession[];
  /** Sessions matching the filter (and `since`) that `hidden` left out, however many were listed. */
  hidden: number;
  /** Sessions matching the filter that `since` left out because they are undated (0 without `since`). */
  undated: number;
  /** Sessions the filters let through, listed or not; known when every row was read (`since`, hidden ones). */
  total?: number;
}

/** A session `last` lists: its row and what it was about. */
export interface LastSession extends SessionRow {
  /** The title, else the first prompt a person typed; one line, at most {@link DESCRIPTION_CHARS}. */
  description: string | null;
}

/** Longest description in characters. */
export const DESCRIPTION_CHARS = 200;

/** The most recent sessions (see the module). */
export function lastSessions(store: Store, opts: LastOptions = {}): LastResult {
  const h = opts.harness?.length ? JSON.stringify(opts.harness) : null;
  const p = opts.project ? projectLike(opts.project) : null;
  const limit = opts.limit ?? 10;
  const sessions: LastSession[] = [];
  let hidden = 0;
  let undated = 0;
  let total = 0;
  let whole = true;
  const since = opts.since ?? null;
  // No SQL limit when some are hidden, or undated ones are to be counted: read on.
  const rows = Q.lastSessions.iterate(store, {
    harnesses: h,
    project: p,
    since,
    // One more than listed: a row past them says the total is not known (else it is).
    limit: opts.hidden?.size || since !== null || opts.count ? -1 : limit + 1,
  });
  for (const s of rows) {
    // Rows come dated first; with `since` the undated ones are only counted.
    if (since !== null && isUndated(s)) {
      if (!opts.hidden?.has(s.id)) undated++;
      continue;
    }
    if (opts.until !== undefined && (s.started ?? s.updated ?? 0) >= opts.until) continue;
    if (opts.until !== undefined && !activeIn(store, s, since ?? 0, opts.until)) continue;
    // Hidden ones are counted over every matching session, not only the first
    // `limit`: the hint then agrees with `deja stats` whatever `n` is.
    if (opts.hidden?.has(s.id)) {
      hidden += countsAsHidden(opts.hidden, s.id) ? 1 : 0;
      continue;
    }
    total++;
    if (sessions.length < limit) sessions.push({ ...s, description: null });
    else if (!opts.hidden?.size && since === null && !opts.count) {
      whole = false;
      break;
    }
  }
  for (const s of sessions) s.description = describeSession(store, s);
  return { sessions, hidden, undated, ...(whole ? { total } : {}) };
}

/**
 * Whether session `s` was active in `[from, to)` (epoch ms): one of its events is timed there
 * (trial 103 F5: `deja last yesterday` listed a session of Tuesday and Sunday, its span over
 * Saturday, with no event that day). A session none of whose events has a time is active where
 * one of the times it has falls, its start or its end, not anywhere between (trial 106 F1: a
 * Continue session created in March whose file was saved in December was listed for June 5th).
 */
function activeIn(
  store: Store,
  s: Pick<SessionRow, "id" | "started" | "updated">,
  from: number,
  to: number,
): boolean {
  const r = Q.activeIn.get(store, { session: s.id, from, to });
  if (!r || r.inside) return true;
  if (r.timed) return false;
  const at = (t: number | null) => t !== null && t >= from && t < to;
  return at(s.started) || at(s.updated);
}

/** A title a harness gives a session before it has one (Continue, Crush, Cursor). */
const PLACEHOLDER_TITLE = /^(?:untitled|new)(?: (?:session|chat|conversation|thread))?$/i;

/** User turns read at most when looking for the first typed prompt. */
const TURNS = 8;

/**
 * What session `s` was about in one line: its title when it has one, else its
 * first user turn that reads as typed (not markup such as `<command-name>`,
 * not a bare slash command such as `/model`), else its first user turn at
 * all; null when it has neither a title nor a user turn.
 */
export function describeSession(
  store: Store,
  s: Pick<SessionRow, "id" | "title">,
): string | null {
  const title = s.title?.trim();
  if (title && !PLACEHOLDER_TITLE.test(title)) return oneLine(title, DESCRIPTION_CHARS);
  const turns = Q.userTurns.all(store, { session: s.id, limit: TURNS })
    .map((t) => t.text.trim()).filter(Boolean);
  // Not markup, a slash command (with its arguments: `/model opus`) or a paste's placeholder
  // (`[Pasted text #1 +16 lines]`): trial 15 found them named as what sessions were about.
  const typed = turns.find((t) =>
    !t.startsWith("<") && !/^\/[\w:-]+(?:\s[^\n]{0,40})?$/.test(t) &&
    !/^\[(?:Pasted text|Image) #\d+[^\]]*\]$/.test(t)
  );
  const first = typed ?? turns[0] ?? title;
  return first ? oneLine(first, DESCRIPTION_CHARS) : null;
}
