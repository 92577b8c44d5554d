/**
 * `deja forget`: removes sessions from the index and keeps a tombstone for
 * each (lib/forget/tombstones.ts) so that no later `deja index` brings them
 * back; `--unforget` lifts a tombstone and re-reads the session's store.
 *
 * Selectors combine (a session must match all given): `session` an id prefix
 * (`harness:prefix` too), `project` a substring of the project path, `before`
 * a time the session's last activity is older than. A forgotten session's
 * subagents are forgotten with it. Removal deletes the rows (events, commands,
 * file spans, their FTS entries), prunes the words only they held from the
 * vocabulary, merges the FTS index (so the deleted words leave its segments)
 * with `secure_delete` on, and checkpoints the WAL.
 *
 * @module
 */
import { rewriteFile } from "../rewrite_file.ts";
import { Q } from "../schema.ts";
import { projectLike } from "../project_path.ts";
import { readOnlyIndexError, readOnlyWhy, type Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import type { SessionRow } from "../rows.ts";
import { rebuildVocab } from "../search/vocab_rebuild.ts";
import { VocabCollector } from "../search/tokenize.ts";
import { pruneVocab } from "../search/vocab.ts";
import { markReplays } from "../replays.ts";
import { buildAssociations } from "../search/assoc.ts";
import {
  keyOf,
  readTombstones,
  type Tombstone,
  tombstoneFile,
  TOMBSTONES_KEY,
  tombstoneStamp,
  writeTombstones,
} from "./tombstones.ts";
import { dropNotes } from "./notes_file.ts";
import { isDayOf, type NoteRecord } from "../../parsers/deja.ts";
import { AmbiguousSession } from "../sessions.ts";
import { dropEvents } from "../drop_events.ts";

/** What to forget. */
export interface ForgetSelector {
  /** Id prefix, optionally `harness:prefix`. */
  session?: string;
  /** Substring of the project path. */
  project?: string;
  /** Epoch ms: sessions whose last activity is older. */
  before?: number;
  /** Forget every session an id prefix matches (else several matches are an error). */
  allMatches?: boolean;
}

/** The sessions a selector picked (with their subagents). */
export interface ForgetPlan {
  sessions: SessionRow[];
  /** Events they hold. */
  events: number;
  /** Undated sessions the other selectors would pick, left out by the date bound (0 without one). */
  undated: number;
}

/** What a forget removed. */
export interface ForgetOutcome {
  sessions: number;
  events: number;
  /** Vocabulary words no remaining event held. */
  wordsPruned: number;
  /** Notes deleted from deja's own notes file (their sessions got no tombstone). */
  notesDeleted?: number;
  /** Sessions that got a tombstone (all but those of deja's own notes file). */
  tombstoned?: number;
  /**
   * Another process was reading the index, so the file's old pages (the forgotten text among
   * them) stay on disk until it ends: the log could not be copied back.
   */
  heldBack?: boolean;
}

/**
 * The sessions `sel` picks.
 *
 * @throws {DejaError} (exit 2) with no selector, or when an id prefix matches
 *   several sessions and `allMatches` is not set (the hint lists them).
 */
export function planForget(store: Store, sel: ForgetSelector): ForgetPlan {
  if (sel.session === undefined && sel.project === undefined && sel.before === undefined) {
    throw new DejaError(
      "forget needs --session, --project or --before",
      "deja forget --session <id> --dry-run shows what would go",
      2,
    );
  }
  let harness: string | null = null;
  let prefix: string | null = null;
  if (sel.session !== undefined) {
    const m = /^([a-z][a-z0-9_]*):(.+)$/.exec(sel.session);
    harness = m ? m[1] : null;
    prefix = (m ? m[2] : sel.session).replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
  }
  const project = sel.project === undefined ? null : projectLike(sel.project);
  const picked = Q.forgetCandidates.all(store, {
    prefix,
    harness,
    project,
    before: sel.before ?? null,
  });
  // A session with no date is neither before nor after any date: a date bound never picks it.
  const undated = sel.before === undefined
    ? 0
    : Q.forgetUndated.get(store, { prefix, harness, project })?.n ?? 0;
  if (sel.session !== undefined && !sel.allMatches) {
    const top = picked.filter((s) => !s.parent || !picked.some((p) => p.native_id === s.parent));
    if (top.length > 1) {
      // Listed as every command lists an ambiguous id, newest first, with "… N more" past the first.
      const newest = [...picked].sort((a, b) =>
        (b.updated ?? b.started ?? 0) - (a.updated ?? a.started ?? 0)
      );
      throw new AmbiguousSession(sel.session, newest, store, {
        all: true,
        hint:
          "name one (each line starts with an id that names it alone), or add --all-matches to " +
          "forget them all",
      });
    }
  }
  const byId = new Map(picked.map((s) => [s.id, s]));
  for (
    const c of Q.childrenOfMany.all(store, { ids: JSON.stringify(picked.map((s) => s.id)) })
  ) byId.set(c.id, c);
  const sessions = [...byId.values()].sort((a, b) => (a.updated ?? 0) - (b.updated ?? 0));
  return { sessions, events: sessions.reduce((n, s) => n + s.events, 0), undated };
}

/** deja's own notes file, which a forget edits instead of keeping a tombstone (./notes_file.ts). */
export interface OwnNotes {
  /** The notes file (parsers/deja.ts `notesPath`). */
  path: string;
  /** Zone the notes' days are read in (`TZ`). */
  tz?: string;
}

/**
 * Whether the notes day `row` (a session read from the notes file) holds a note: the day is
 * its project's ({@link isDayOf}) and one of its events has the note's time. Read from the
 * index, not from the day the note falls on in this shell's zone (trial 42).
 */
export function dayHolds(
  store: Store,
  row: Pick<SessionRow, "id" | "native_id">,
): (n: NoteRecord) => boolean {
  let times: Set<number | null> | undefined;
  return (n) => {
    if (!isDayOf(n.project, row.native_id)) return false;
    times ??= new Set(Q.eventsOfSession.all(store, { session: row.id }).map((e) => e.time));
    return times.has(n.time);
  };
}

/**
 * Whether a note is one of the notes days `days`': a day's id is its project's and its time is
 * one of that session's events ({@link dayHolds}), never the day read again in this shell's zone
 * (trial 42: a day indexed under another TZ lost a note of the next day and kept one of its own).
 */
export function ofDays(
  store: Store,
  days: readonly Pick<SessionRow, "id" | "native_id">[],
): (n: NoteRecord) => boolean {
  const holds = days.map((s) => dayHolds(store, s));
  return (n) => holds.some((h) => h(n));
}

/**
 * Writes the tombstones of `plan`, then removes its sessions from the index.
 * Sessions read from deja's own notes file (`notes`) get no tombstone: their
 * notes are deleted from the file instead, so their text leaves the disk and
 * a note written later under the same id is indexed as usual. Call with the
 * writer lock held.
 */
export function applyForget(
  store: Store,
  plan: ForgetPlan,
  reason: string,
  now = Date.now(),
  notes?: OwnNotes,
): ForgetOutcome {
  if (!plan.sessions.length) return { sessions: 0, events: 0, wordsPruned: 0 };
  // An index read as it is (read-only) cannot lose the sessions: nothing is written, not even
  // the tombstones (trial 33: "stopped", yet the forget was recorded and took effect later).
  if (store.frozen) throw readOnlyIndexError("'deja forget'", readOnlyWhy(store.path));
  const own = plan.sessions.filter((s) => notes && s.source === notes.path);
  let notesDeleted = 0;
  if (notes && own.length) {
    // The lines first: if removal fails, the next index reads the shorter file whole.
    notesDeleted = dropNotes(notes.path, notes.tz, ofDays(store, own)).length;
    Q.forgetSource.run(store, { path: notes.path });
  }
  const file = tombstoneFile(store.path);
  const list = readTombstones(file);
  const have = new Set(list.map((t) => t.key));
  for (const s of plan.sessions) {
    if (own.includes(s)) continue;
    const key = keyOf(s.harness, s.native_id);
    if (have.has(key)) continue;
    list.push({
      key,
      harness: s.harness,
      id: s.native_id,
      project: s.project,
      title: s.title,
      source: s.source,
      ...(s.parent ? { parent: s.parent } : {}),
      at: now,
      reason,
    });
  }
  // The tombstones first: if removal fails, running forget again finishes it.
  writeTombstones(file, list);
  const stamp = tombstoneStamp(file);
  const tombstoned = plan.sessions.length - own.length;
  const out = removeSessions(store, plan.sessions);
  // The removal done, the index records the file it agrees with: lost with the removal (a
  // -wal removed), the record no longer matches, and the removal is done again (./reapply.ts).
  Q.setMeta.run(store, { key: TOMBSTONES_KEY, value: stamp });
  return { ...out, notesDeleted, tombstoned };
}

/**
 * Removes `sessions` from the index, leaving no trace of their text: the rows
 * (events, commands, file spans, their FTS entries), the words only they held
 * in the vocabulary and the associations learned from them (rebuilt), the FTS segments merged with `secure_delete` on, the file
 * rewritten (VACUUM) and the WAL checkpointed. Writes no tombstone (see {@link applyForget}). Call with the
 * writer lock held.
 */
export function removeSessions(store: Store, sessions: SessionRow[]): ForgetOutcome {
  const events = sessions.reduce((n, s) => n + s.events, 0);
  if (!sessions.length) return { sessions: 0, events: 0, wordsPruned: 0 };
  const ids = JSON.stringify(sessions.map((s) => s.id));
  const words = new VocabCollector();
  for (const r of Q.textsOfSessions.iterate(store, { ids })) words.add(r.text);
  const sources = new Set(sessions.map((s) => s.source));
  store.db.exec("PRAGMA secure_delete = ON");
  let pruned = 0;
  store.tx(() => {
    dropEvents(store, sessions.map((s) => s.id));
    Q.deleteSessions.run(store, { ids });
    pruned = pruneVocab(store, words.take());
    for (const src of sources) {
      const t = Q.sourceTotals.get(store, { source: src })!;
      Q.setSourceTotals.run(store, { sessions: t.sessions, events: t.events, path: src });
    }
  });
  // And every word no event holds any more, scrubbed from a store since it was read too
  // (trial 76: a scrubbed word stayed in `vocab` through a forget).
  rebuildVocab(store);
  // Words learned from the removed sessions leave the association table with them.
  buildAssociations(store, true);
  // A removed session's calls another session replays are that one's now (lib/replays.ts).
  markReplays(store);
  // Merge the FTS segments so the deleted words leave them, and keep no old page in the WAL.
  store.db.exec("INSERT INTO events_fts(events_fts) VALUES ('optimize')");
  store.db.exec("INSERT INTO vocab_tri(vocab_tri) VALUES ('optimize')");
  // Secure delete zeroes the cells deleted now, not the stale copies earlier writes left in
  // the free space of live pages (a file span rewritten when its store was read again): the
  // file is rewritten whole (trial 67: `strings index.db` still read a forgotten session's
  // edits and commands, and `--rebuild`, which keeps the file, left them too).
  rewriteFile(store);
  // A reader on an older snapshot (`deja view`, an MCP server, another shell's query) keeps the
  // log from being copied back: the old pages, forgotten text in them, stay in index.db until it
  // ends (trial 115 F3: said nowhere).
  const ck = store.db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get() as
    | { busy: number; log: number; checkpointed: number }
    | undefined;
  const heldBack = !!ck && (ck.busy !== 0 || ck.checkpointed < ck.log);
  return {
    sessions: sessions.length,
    events,
    wordsPruned: pruned,
    ...(heldBack ? { heldBack: true } : {}),
  };
}

/**
 * Lifts the tombstone `key` (`harness:id`, or an id that names one
 * tombstone). The session comes back with a read of its harness's stores that
 * writes only the sessions the index lacks (lib/indexer.ts `restore`): its store
 * is not marked to be read again whole, which replaced the other sessions read
 * from it, losing what other stores had merged into them (Codex: a thread's
 * rollout events, project and model, left with its history.jsonl prompt).
 *
 * @returns the lifted tombstone.
 * @throws {DejaError} exit 1 when no tombstone matches; exit 2 when several do.
 */
export function unforget(indexPath: string, key: string): Tombstone {
  const file = tombstoneFile(indexPath);
  const list = readTombstones(file);
  let hits = list.filter((t) => t.key === key);
  // `harness:id-prefix` (the form `deja forget --list` prints and the help documents), or a bare prefix.
  if (!hits.length) hits = list.filter((t) => t.key.startsWith(key) || t.id.startsWith(key));
  // A session and its subagents match one prefix: the session is meant (they come back with it).
  const roots = hits.filter((t) =>
    !t.parent || !hits.some((h) => h.harness === t.harness && h.id === t.parent)
  );
  if (roots.length === 1) hits = roots;
  if (!hits.length) {
    throw new DejaError(
      `no forgotten session matches '${key}'`,
      "deja forget --list shows them",
      1,
    );
  }
  if (hits.length > 1) {
    throw new DejaError(
      `'${key}' matches ${hits.length} forgotten sessions`,
      `give the whole key: ${hits.slice(0, 5).map((t) => t.key).join(", ")}`,
      2,
    );
  }
  const t = hits[0];
  // Its subagents were forgotten with it and come back with it.
  lift(file, list, (x) => x === t || (x.harness === t.harness && x.parent === t.id));
  return t;
}

/**
 * Lifts the tombstones the last forget wrote (they share its time): `deja forget --undo`
 * brings a whole selection back in one command; run again, it undoes the forget before.
 *
 * @returns the lifted tombstones.
 * @throws {DejaError} exit 1 when there are none.
 */
export function unforgetLast(indexPath: string): Tombstone[] {
  const file = tombstoneFile(indexPath);
  const list = readTombstones(file);
  if (!list.length) {
    throw new DejaError("no forgotten sessions", "deja forget --list shows them", 1);
  }
  const last = Math.max(...list.map((t) => t.at));
  return lift(file, list, (t) => t.at === last);
}

/** Writes `list` without the tombstones `lifted` picks; returns those. */
function lift(file: string, list: Tombstone[], lifted: (t: Tombstone) => boolean): Tombstone[] {
  writeTombstones(file, list.filter((t) => !lifted(t)));
  return list.filter(lifted);
}
