/**
 * `deja forget`: remove sessions from the index for good (tombstones keep them out).
 *
 * Parse ({@link parseForget}) → run ({@link forgottenSessions},
 * {@link unforgetSession}, {@link forgetSessions}) → render
 * ({@link forgottenText}, {@link forgetJson}, {@link forgetText}).
 *
 * @module
 */
import { existsSync } from "node:fs";
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtSessionTime, fmtTime, isoTime, opt, printJson } from "./common.ts";
import { oneLine, plural, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import {
  acquireWriterLock,
  asIndexError,
  IndexDamaged,
  indexPath,
  isMainFile,
  setAsideIndexes,
  Store,
} from "../store.ts";
import { shQuoteShown } from "../shell.ts";
import { dataDir } from "../../core/paths.ts";
import { DejaError } from "../../core/errors.ts";
import { timeOpt } from "./_memory.ts";
import {
  applyForget,
  type ForgetOutcome,
  type ForgetPlan,
  type ForgetSelector,
  ofDays,
  type OwnNotes,
  planForget,
  unforget,
  unforgetLast,
} from "../forget/forget.ts";
import type { Env } from "../../core/model.ts";
import {
  keyOf,
  readTombstones,
  type Tombstone,
  tombstoneFile,
  writeTombstones,
} from "../forget/tombstones.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import { notesPath } from "../../parsers/deja.ts";
import { findNote, forgetNote, type ForgotNote } from "../forget/note.ts";
import { listNotes } from "../forget/notes_file.ts";

/** A forget of more sessions than this (or of every session indexed) needs `--yes`. */
export const BULK = 10;

export const forgetCmd: CommandSpec = {
  usage: "forget (--session <id> | --project <text> | --before <date|30d>)... [--dry-run] " +
    "[--all-matches] [--yes] | --note <id> | --list | --unforget <harness:id> | --undo [--json]",
  maxPositionals: 0,
  // Forgetting is bounded from above only: what is older than a time, never what is newer.
  lacks: {
    since: "forget takes --before <date|30d> (what was last active before then), not --since",
  },
  options: {
    session: { type: "string", value: "<id>", description: "a session id prefix (harness:id too)" },
    project: {
      type: "string",
      value: "<text>",
      description:
        "sessions whose project path contains this (., ../x: from the current directory)",
    },
    before: {
      type: "string",
      value: "<date|30d>",
      description: "sessions last active before this date, this long ago, or yesterday…",
    },
    note: {
      type: "string",
      value: "<id>",
      description: "delete one note ('deja remember' prints its id), not its whole day",
    },
    "dry-run": { type: "boolean", description: "list what would be forgotten, change nothing" },
    "all-matches": { type: "boolean", description: "forget every session an id prefix matches" },
    yes: {
      type: "boolean",
      description: `forget more than ${BULK} sessions, or every session indexed, without asking`,
    },
    list: { type: "boolean", description: "list the forgotten sessions (tombstones)" },
    unforget: {
      type: "string",
      value: "<harness:id>",
      description: "lift a tombstone and read that session's store again",
    },
    undo: {
      type: "boolean",
      description: "bring back every session the last forget removed (again: the one before)",
    },
    json: { type: "boolean", description: "print as JSON (docs/json-output.md)" },
  },
  run: (a, io) => runForget(a, io),
};

/** What `deja forget` was asked: list the tombstones, lift one, or forget a selection. */
export type ForgetArgs =
  | { mode: "list"; json: boolean }
  | { mode: "unforget"; key: string; json: boolean }
  | { mode: "undo"; json: boolean }
  | { mode: "note"; id: string; dry: boolean; json: boolean }
  | {
    mode: "forget";
    sel: ForgetSelector;
    /** The selection as typed, kept in each tombstone. */
    reason: string;
    dry: boolean;
    /** `--yes`: a bulk forget ({@link isBulk}) goes ahead without asking. */
    yes: boolean;
    json: boolean;
  };

/** What a forget (or its dry run) found and removed. */
export interface ForgetData {
  dry: boolean;
  plan: ForgetPlan;
  /** What was removed; undefined on a dry run or when nothing matched. */
  out?: ForgetOutcome;
  /** Of the sessions picked, those read from deja's own notes file (their lines go for good). */
  noteSessions: number;
  /** On a dry run, the notes those days hold, which a forget would delete (trial 44). */
  notes?: { id: string; text: string }[];
  /** Sessions the index held before the forget (set by {@link forgetSessions}). */
  total?: number;
  /**
   * Damaged indexes `deja index --rebuild` set aside (lib/store.ts setAsideIndexes), with
   * their `-wal`: forget leaves them as they are, so they may still hold the text.
   */
  setAside?: string[];
}

/**
 * Reads `deja forget`'s arguments.
 *
 * @throws {DejaError} exit 2 when `--before` is neither a date nor a span, when modes are
 * mixed ({@link oneMode}), or on `--unforget --dry-run`.
 */
export function parseForget(a: Args): ForgetArgs {
  const json = Boolean(a.values.json);
  const dry = Boolean(a.values["dry-run"]);
  const mode = oneMode(a);
  if (mode === "list") return { mode: "list", json }; // it changes nothing: --dry-run holds
  if (mode === "undo" || mode === "unforget") {
    if (dry) {
      throw new DejaError(
        `--${mode} has no --dry-run`,
        "deja forget --list shows the forgotten sessions --unforget would bring back",
        2,
      );
    }
    if (mode === "undo") return { mode: "undo", json };
    return { mode: "unforget", key: opt(a, "unforget")!, json };
  }
  if (mode === "note") return { mode: "note", id: opt(a, "note")!, dry, json };
  const { ms: before, text: beforeText } = timeOpt(a, "before");
  const sel = {
    session: opt(a, "session"),
    project: opt(a, "project"),
    before,
    allMatches: Boolean(a.values["all-matches"]),
  };
  const reason = [
    sel.session !== undefined ? `--session ${sel.session}` : "",
    sel.project !== undefined ? `--project ${sel.project}` : "",
    beforeText !== undefined ? `--before ${beforeText}` : "",
  ].filter(Boolean).join(" ");
  return { mode: "forget", sel, reason, dry, yes: Boolean(a.values.yes), json };
}

/** The selectors of a forget; `--list`, `--unforget` and `--note` take none of them. */
const SELECTORS = ["session", "project", "before", "all-matches", "yes"] as const;

/**
 * Which one mode `a` asks for: `--list`, `--unforget`, `--note`, or a selection.
 *
 * @throws {DejaError} exit 2 when it mixes them (`--session X --note Y` ran only `--note`).
 */
function oneMode(a: Args): "list" | "unforget" | "undo" | "note" | "forget" {
  const set = (k: string) => a.values[k] !== undefined && a.values[k] !== false;
  const modes = (["list", "unforget", "undo", "note"] as const).filter(set);
  const sels = SELECTORS.filter(set);
  if (modes.length + (sels.length ? 1 : 0) <= 1) return modes[0] ?? "forget";
  const named = [...modes, ...sels].map((k) => `--${k}`);
  throw new DejaError(
    `${named.join(" and ")} do not go together`,
    "run one at a time: --list, --unforget <harness:id>, --undo, --note <id>, or selectors " +
      "(--session, --project, --before); see 'deja forget --help'",
    2,
  );
}

/** The forgotten sessions (tombstones) of the index at `env`. */
export function forgottenSessions(env: Env): Tombstone[] {
  return readTombstones(tombstoneFile(indexPath(env)));
}

/**
 * Runs `fn` under the writer lock with the index open (undefined when there is
 * none yet), closing both after.
 */
function underWriterLock<T>(env: Env, fn: (store: Store | undefined, path: string) => T): T {
  const path = indexPath(env);
  const lock = acquireWriterLock(dataDir(env), 0);
  try {
    const store = existsSync(path) ? Store.open(path) : undefined;
    try {
      return fn(store, path);
    } finally {
      store?.close();
    }
  } finally {
    lock.release();
  }
}

/**
 * The lifted tombstones whose sessions the index still lacks after their stores were read
 * again: the store is gone or no longer holds the session (trial 76 F9: `--undo` said such
 * a session was back).
 */
export function notBack(env: Env, lifted: readonly Tombstone[]): Tombstone[] {
  if (!lifted.length) return [];
  const path = indexPath(env);
  if (!existsSync(path)) return [...lifted];
  const store = Store.open(path);
  try {
    const has = store.db.prepare("SELECT 1 FROM sessions WHERE harness = ? AND native_id = ?");
    return lifted.filter((t) => !has.get(t.harness, t.id));
  } finally {
    store.close();
  }
}

/** The lines naming forgotten sessions that could not come back, and why. */
function notBackText(list: readonly Tombstone[], io: IO): string {
  if (!list.length) return "";
  const c = colors(io);
  return c.yellow(
    `${plural(list.length, "session")} could not come back: ${
      list.length === 1 ? "its store no longer holds it" : "their stores no longer hold them"
    } (no longer forgotten: back if ${list.length === 1 ? "it" : "they"} reappear)\n`,
  ) +
    list.map((t) =>
      `  ${c.cyan(t.key)}  ${t.source ? tilde(t.source, io.env.home) : "(no store)"}\n`
    )
      .join("");
}

/**
 * Lifts the tombstone `key` and reads that harness's stores again, so the
 * session is back at once, whole: first as usual (what changed since the last
 * index), then every store whole writing only the sessions the index lacks
 * (lib/indexer.ts `restore`), so no other session loses what its stores gave it.
 * When the read fails the tombstones are put back as they were.
 *
 * @throws {DejaError} when no tombstone has that key (lib/forget/forget.ts).
 */
export async function unforgetSession(env: Env, key: string): Promise<Tombstone> {
  return (await restoring(env, (path) => [unforget(path, key)]))[0];
}

/**
 * Lifts the tombstones of the last forget (`--undo`, lib/forget/forget.ts `unforgetLast`)
 * and reads their harnesses' stores as {@link unforgetSession} does.
 *
 * @throws {DejaError} exit 1 when nothing is forgotten.
 */
export function undoLastForget(env: Env): Promise<Tombstone[]> {
  return restoring(env, (path) => unforgetLast(path));
}

/**
 * Lifts tombstones with `lift` (under the writer lock), then reads their harnesses' stores:
 * first as usual, then whole writing only the sessions the index lacks. When the read
 * fails the tombstones are put back as they were.
 */
async function restoring(env: Env, lift: (path: string) => Tombstone[]): Promise<Tombstone[]> {
  const file = tombstoneFile(indexPath(env));
  const before = readTombstones(file);
  const lifted = underWriterLock(env, (_store, path) => lift(path));
  const only = [...new Set(lifted.map((t) => t.harness))]
    .filter((h) => parsers.some((p) => p.id === h));
  if (!only.length) return lifted;
  try {
    await runIndex(env, parsers, { only, waitMs: UNFORGET_WAIT_MS });
    await runIndex(env, parsers, { only, restore: true, waitMs: UNFORGET_WAIT_MS });
  } catch (e) {
    writeTombstones(file, before);
    throw e;
  }
  return lifted;
}

/** How long `--unforget` waits for another index run to finish before it gives up. */
const UNFORGET_WAIT_MS = 30_000;

/** deja's own notes file for `env`, which a forget edits (lib/forget/forget.ts `OwnNotes`). */
export function ownNotes(env: Env): OwnNotes {
  return { path: notesPath(env), tz: env.get("TZ") };
}

/**
 * Deletes one note (`--note <id>`) from the notes file and the index, then
 * reads the notes file again so the rest of its day is back at once.
 *
 * @throws {DejaError} when no note, or several, have that id (lib/forget/note.ts).
 */
export async function forgetOneNote(env: Env, id: string): Promise<ForgotNote> {
  const r = underWriterLock(env, (store) => forgetNote(store, ownNotes(env), id));
  if (r.sessions) await runIndex(env, parsers, { only: ["deja"] });
  return r;
}

/**
 * Forgets the sessions `sel` picks (under the writer lock), or only plans it
 * when `dry`.
 */
export function forgetSessions(
  env: Env,
  opts: { sel: ForgetSelector; reason: string; dry: boolean },
): ForgetData {
  const lock = opts.dry ? undefined : acquireWriterLock(dataDir(env), 0);
  try {
    const store = Store.open(indexPath(env));
    try {
      const total = store.stats().sessions;
      const plan = planForget(store, opts.sel);
      const notes = ownNotes(env);
      const days = plan.sessions.filter((s) => s.source === notes.path);
      let out;
      try {
        out = opts.dry || !plan.sessions.length
          ? undefined
          : applyForget(store, plan, opts.reason, Date.now(), notes);
      } catch (e) {
        // The tombstones are written first: the forget holds, the index could not follow (trial
        // 67: exit 2 said nothing of the tombstones `--list` then showed).
        const damaged = asIndexError(e, indexPath(env));
        if (!(damaged instanceof IndexDamaged)) throw e;
        const kept = new Set(readTombstones(tombstoneFile(indexPath(env))).map((t) => t.key));
        if (!plan.sessions.every((x) => kept.has(keyOf(x.harness, x.native_id)))) throw damaged;
        throw new DejaError(
          `${damaged.message}; the ${plural(plan.sessions.length, "session")} ${
            plan.sessions.length === 1 ? "is" : "are"
          } recorded as forgotten, but the index still holds ${
            plan.sessions.length === 1 ? "it" : "them"
          }`,
          "deja index --rebuild builds a new index without them (the damaged one is moved aside)",
          2,
        );
      }
      const setAside = setAsideIndexes(indexPath(env));
      // What a dry run of a notes day would delete for good is shown, not only counted.
      const doomed = opts.dry && days.length
        ? listNotes(notes.path, notes.tz).filter(ofDays(store, days))
          .map((n) => ({ id: n.id, text: n.text }))
        : undefined;
      return {
        dry: opts.dry,
        plan,
        out,
        noteSessions: days.length,
        ...(doomed ? { notes: doomed } : {}),
        total,
        setAside,
      };
    } finally {
      store.close();
    }
  } finally {
    lock?.release();
  }
}

/** Whether a forget removes more than {@link BULK} sessions, or every session (of more than one) indexed. */
export function isBulk(d: ForgetData): boolean {
  const n = d.plan.sessions.length;
  return n > BULK || (n > 1 && n === d.total);
}

/** The tombstones as text (colour on a terminal). */
export function forgottenText(list: Tombstone[], io: Pick<IO, "isTTY" | "env">): string {
  if (!list.length) return "no forgotten sessions\n";
  const c = colors(io);
  let out = "";
  for (const t of list) {
    out += `${c.cyan(t.key)}  ${fmtTime(t.at)}  ${tilde(t.project, io.env.home)}  ${
      c.dim(t.reason)
    }\n`;
    if (t.title) out += `  ${oneLine(t.title, 100)}\n`;
  }
  return out;
}

/** The `--json` document of a forget (docs/json-output.md, `forget`). */
export function forgetJson(d: ForgetData): Record<string, unknown> {
  return {
    dry_run: d.dry,
    sessions: d.plan.sessions.map((s) => ({
      harness: s.harness,
      id: s.native_id,
      project: s.project,
      title: s.title,
      updated: isoTime(s.updated),
      parent: s.parent,
    })),
    events: d.plan.events,
    undated_left_out: d.plan.undated,
    forgotten: d.out?.sessions ?? 0,
    words_pruned: d.out?.wordsPruned ?? 0,
    notes_deleted: d.out?.notesDeleted ?? 0,
    // Trial 115 F3: another process reading the index kept the forgotten text on disk.
    held_back: Boolean(d.out?.heldBack),
    note_sessions: d.noteSessions,
    ...(d.notes ? { notes: d.notes } : {}),
    set_aside: d.setAside ?? [],
  };
}

/**
 * The lines naming damaged indexes set aside by `deja index --rebuild` that may still hold
 * what a forget removed, and the command that removes them; empty when there are none.
 * Forget does not delete them itself: such a file may be the only copy of sessions whose
 * stores are gone, and it is damaged, so it is not edited either.
 */
export function setAsideText(paths: readonly string[] = [], what = "their text"): string {
  const main = paths.filter(isMainFile);
  if (!main.length) return "";
  const it = main.length === 1 ? "it" : "them";
  return `a damaged index 'deja index --rebuild' set aside may still hold ${what}: ${
    main.join(", ")
  }\n  remove ${it}: rm ${paths.map(shQuoteShown).join(" ")}\n`;
}

/** The note that a date bound left undated sessions out; empty when it left none. */
export function undatedNote(d: ForgetData): string {
  const n = d.plan.undated;
  return n
    ? `${plural(n, "undated session")} left out: a date bound never picks a session with no date\n`
    : "";
}

/** What was (or would be) forgotten, as text; only the undated note when nothing matched. */
export function forgetText(d: ForgetData, io: Pick<IO, "isTTY" | "env">): string {
  if (!d.plan.sessions.length) return undatedNote(d);
  const c = colors(io);
  const lines = d.plan.sessions.map((s) =>
    `  ${c.cyan(`${s.harness}:${s.native_id}`)}  ${fmtSessionTime(s.updated ?? s.started, s)}  ${
      tilde(s.project, io.env.home)
    }${s.title ? `  ${oneLine(s.title, 60)}` : ""}`
  );
  const what = `${plural(d.plan.sessions.length, "session")} (${plural(d.plan.events, "event")}):`;
  const head = d.dry ? `would forget ${what}` : `forgot ${what}`;
  const note = undatedNote(d);
  const notes = d.out?.notesDeleted
    ? `${
      plural(d.out.notesDeleted, "note")
    } deleted from notes.jsonl (no undo); later notes are kept\n`
    : "";
  const warn = d.dry && d.noteSessions
    ? `${
      plural(d.noteSessions, "of them is a day of deja notes", "of them are days of deja notes")
    }: their notes would be deleted from notes.jsonl for good (no --unforget)\n${
      (d.notes ?? []).map((n) => `  note ${n.id}  ${oneLine(n.text, 70)}\n`).join("")
    }`
    : "";
  const kept = d.out?.tombstoned
    ? "they stay out of the index; deja forget --list shows them, deja forget --undo brings them back\n"
    : "";
  return [head, ...lines].join("\n") + "\n" + (note ? c.dim(note) : "") +
    (d.dry ? c.yellow(warn) : c.dim(notes + kept)) + c.yellow(setAsideText(d.setAside)) +
    (d.out?.heldBack ? c.yellow(HELD_BACK) : "");
}

/**
 * Said when another process reading the index kept the forgotten text in index.db's old pages
 * (the log cannot be copied back while it reads).
 */
export const HELD_BACK = "another process is reading the index (deja view, an MCP server, " +
  "deja index --watch): the forgotten text stays in index.db's unused pages until it stops; " +
  "the next deja command after that clears it\n";

async function runForget(a: Args, io: IO): Promise<number> {
  const args = parseForget(a);
  if (args.mode === "list") {
    const list = forgottenSessions(io.env);
    if (args.json) printJson(io, { tombstones: list.map((t) => ({ ...t, at: isoTime(t.at) })) });
    else io.out(forgottenText(list, io));
    return 0;
  }
  if (args.mode === "unforget") {
    const t = await unforgetSession(io.env, args.key);
    const missing = notBack(io.env, [t]);
    if (args.json) {
      printJson(io, { unforgotten: { ...t, at: isoTime(t.at) }, back: !missing.length });
    } else if (missing.length) io.out(notBackText(missing, io));
    else io.out(`${colors(io).cyan(t.key)} is back in the index\n`);
    return missing.length ? 1 : 0;
  }
  if (args.mode === "undo") {
    const list = await undoLastForget(io.env);
    const missing = notBack(io.env, list);
    const back = list.filter((t) => !missing.includes(t));
    if (args.json) {
      printJson(io, {
        unforgotten: list.map((t) => ({ ...t, at: isoTime(t.at), back: !missing.includes(t) })),
      });
    } else {
      const c = colors(io);
      io.out(
        (back.length
          ? `${plural(back.length, "session")} back in the index:\n` +
            back.map((t) => `  ${c.cyan(t.key)}  ${tilde(t.project, io.env.home)}\n`).join("")
          : "") + notBackText(missing, io),
      );
    }
    return back.length ? 0 : 1;
  }
  if (args.mode === "note") {
    const note = args.dry
      ? findNote(ownNotes(io.env), args.id)
      : (await forgetOneNote(io.env, args.id)).note;
    const setAside = setAsideIndexes(indexPath(io.env));
    if (args.json) {
      printJson(io, {
        dry_run: args.dry,
        note: { id: note.id, session: note.session, project: note.project, text: note.text },
        set_aside: setAside,
      });
    } else {
      const verb = args.dry ? "would forget" : "forgot";
      const c = colors(io);
      io.out(
        `${verb} note ${c.cyan(note.id)}: ${oneLine(note.text, 80)}\n` +
          c.yellow(setAsideText(setAside, "its text")),
      );
      // As a day's notes say it (trial 61: one note's forget said nothing of it).
      io.err(
        c.dim(
          args.dry
            ? "a note forgotten is deleted from notes.jsonl for good (no undo)\n"
            : "deleted from notes.jsonl for good (no undo): remember it again to bring it back\n",
        ),
      );
    }
    return 0;
  }
  if (!args.dry && !args.yes) {
    // A bulk forget asks first: show what it would forget (the error is the JSON answer), and
    // do nothing.
    const plan = forgetSessions(io.env, { ...args, dry: true });
    if (isBulk(plan)) {
      if (!args.json) io.out(forgetText(plan, io));
      const n = plan.plan.sessions.length;
      throw new DejaError(
        `forget would remove ${plural(n, "session")}${
          n === plan.total ? ", every session indexed" : ""
        }: add --yes to forget them`,
        "deja forget --undo brings back what the last forget removed (not deja notes)",
        2,
      );
    }
  }
  const d = forgetSessions(io.env, args);
  const found = d.plan.sessions.length > 0;
  if (args.json) printJson(io, forgetJson(d));
  else if (found) io.out(forgetText(d, io));
  else io.err(`deja: no session matches ${args.reason}\n${forgetText(d, io)}`);
  return found ? 0 : 1;
}
