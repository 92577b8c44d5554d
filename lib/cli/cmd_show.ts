/**
 * `deja show <id-prefix>`: one whole session, event by event.
 *
 * Parse ({@link parseShow}) → run ({@link showSession}: reads the index,
 * returns data) → render ({@link showJson}, {@link showText}).
 *
 * @module
 */
import { type CopiedIn, copiedIn, copiedText } from "../memory/copied.ts";
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtSessionTime, fmtTime, isoTime, printJsonStreaming } from "./common.ts";
import { cutsIn, oneLine, tilde } from "../../core/text.ts";
import { collectGarbage, collectGarbageSoon, GarbagePacer, type IO } from "../../core/runtime.ts";
import { indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import {
  AmbiguousSession,
  modelsLabel,
  modelsOf,
  resolveSession,
  shortRef,
  switchCount,
} from "../sessions.ts";
import { Q } from "../schema.ts";
import type { EventRow, FileRow, SessionRow } from "../rows.ts";
import { describeSession } from "../memory/last.ts";
import type { Outcome } from "../memory/outcome.ts";
import {
  addResultStatuses,
  commandStatuses,
  type RunStatus,
  statusWords,
} from "../memory/run_status.ts";
import { noteIdAt, notesOfDays } from "../memory/note_ids.ts";
import { editDiffs, replacingAll } from "./_show_edits.ts";
import { isUndated } from "../session_time.ts";
import { type Ending, endingText, EndingWatch, isCut, sessionEnding } from "../memory/ending.ts";
import { type SessionDamage, sessionDamage, sessionDamageText } from "../store_damage.ts";
import { storeState } from "../gone.ts";
import { patchLabels } from "../memory/moves.ts";

export const showCmd: CommandSpec = {
  asks: true,
  refresh: true,
  usage: "show <id-prefix | harness:id-prefix | deja:<day>> [--json]",
  maxPositionals: 1,
  options: {
    json: { type: "boolean", description: "print the session as JSON (docs/json-output.md)" },
    full: { type: "boolean", description: "do not shorten long texts" },
  },
  run: (a, io) => Promise.resolve(runShow(a, io)),
};

/** What `deja show` was asked. */
export interface ShowArgs {
  /** A session id or its first characters, optionally `harness:`-prefixed. */
  ref: string;
  json: boolean;
  /** Do not shorten long texts. */
  full: boolean;
}

/** One session as `deja show` shows it. */
export interface ShowData {
  session: SessionRow;
  /** The title, or else the first typed prompt. */
  description: string | null;
  /** The shortest unambiguous reference of the session. */
  ref: string;
  /**
   * The events in order, as often as they are asked for: the list itself when read whole,
   * else read from the index a page at a time as they are shown ({@link pagedEvents}).
   */
  events: Iterable<EventRow>;
  /** The replies' models in order, each change once (lib/sessions.ts `modelPath`). */
  models: string[];
  /** The edits that replaced every occurrence of their old text (`replacingAll`). */
  replaceAll: Set<FileRow>;
  /**
   * Per event row id: the outcome of the call or result — a shell call's from
   * its command row, any other call's and every result's from the result's
   * status (`events.data`): a result the harness marked as an error, or with a
   * non-zero exit, is failed whatever the tool.
   */
  commands: Map<number, RunStatus>;
  /** The file touches, in the session's order (each with its event's seq). */
  files: Array<FileRow & { seq: number }>;
  /** Subagents: native id and shortest reference. */
  subagents: Array<{ id: string; ref: string }>;
  /**
   * A subagent's parent as the text names it: its shortest reference when indexed, else its id;
   * null when the store recorded none (Gemini CLI's `unknown`); undefined for no subagent.
   */
  parentRef?: string | null;
  /**
   * The session whose store holds this session's only record, a copy of its history (a
   * Codex fork's rollout copies its parent's turns; lib/memory/copied.ts), else undefined.
   */
  copiedIn?: CopiedIn;
  /**
   * False when the store file is gone since it was read (the index keeps its
   * sessions: deja is memory); one stat when the session is shown.
   */
  sourceExists: boolean;
  /**
   * Stores gone since that gave this session events besides its source (a copy of its file,
   * appended to, then deleted): what only they held is kept in the index, as a gone store's is.
   */
  goneCopies: string[];
  /** A day of notes (harness `deja`): per event row id, the id of its note (`deja forget --note`). */
  noteIds: Map<number, string>;
  /** How the session ended: its last request unanswered, or mid-reply (lib/memory/ending.ts). */
  ending: Ending;
  /**
   * What its store's last read could not read (lib/store_damage.ts): records
   * lost to damage, so the session may lack messages; null when none.
   */
  damage: SessionDamage | null;
}

/**
 * Reads `deja show`'s arguments.
 *
 * @throws {DejaError} exit 2 when no session is named.
 */
export function parseShow(a: Args): ShowArgs {
  const ref = a.positionals[0];
  if (!ref) {
    throw new DejaError(
      "which session? give an id or its first characters",
      "'deja last' lists sessions with their ids",
      2,
    );
  }
  return { ref, json: Boolean(a.values.json), full: Boolean(a.values.full) };
}

/**
 * The session `ref` names, with its events, command outcomes, file touches
 * and subagents.
 *
 * @throws {DejaError} exit 1 when no session matches, 2 when several do (lib/sessions.ts).
 */
export function showSession(
  store: Store,
  ref: string,
  tz?: string,
  opts: { lean?: boolean } = {},
): ShowData {
  const s = resolveSession(store, ref);
  // Lean: the events are read a page at a time as they are shown ({@link pagedEvents}); a
  // day of notes (small, and its note ids read from the text) is read whole.
  const lean = opts.lean === true && s.harness !== "deja";
  const whole = lean ? null : Q.eventsOfSession.all(store, { session: s.id });
  const files = Q.filesOfSession.all(store, { session: s.id });
  const commands = commandStatuses(Q.commandsInOrder.iterate(store, { session: s.id }));
  // The rows read are garbage now; a runtime that collects late holds them beside what the
  // next pass reads (a session of 150,000 commands: ~70 MB).
  collectGarbage();
  const seen = survey(
    whole ?? Q.eventMetaOfSession.iterate(store, { session: s.id }),
    new Set(files.map((f) => f.event_id)),
  );
  addResultStatuses(seen.calls, seen.results, commands);
  collectGarbage();
  // Gone as `deja sources` counts it: deleted, or no file now (a folder made in its place).
  const exists = storeState(s.source) !== "gone";
  return {
    session: s,
    description: describeSession(store, s),
    ref: shortRef(store, s.harness, s.native_id),
    events: whole ?? pagedEvents(store, s.id),
    models: seen.models,
    replaceAll: replacingAll(files, seen.editData),
    commands,
    files,
    ...(s.parent ? { parentRef: parentOf(store, s.harness, s.parent) } : {}),
    subagents: Q.childrenOf.all(store, { harness: s.harness, parent: s.native_id })
      .map((c) => ({ id: c.native_id, ref: shortRef(store, c.harness, c.native_id) })),
    copiedIn: copiedIn(store, s),
    sourceExists: exists,
    goneCopies: Q.copiesOf.all(store, { harness: s.harness, native_id: s.native_id })
      .map((r) => r.source).filter((p) => storeState(p) === "gone").sort(),
    noteIds: s.harness === "deja" ? noteIdsOf(s, whole ?? [], tz) : new Map(),
    ending: sessionEnding(store, s, seen.ending),
    damage: goneDamage(
      sessionDamage(Q.sourceByPath.get(store, { path: s.source }), s.native_id),
      exists,
    ),
  };
}

/**
 * How `show` names a subagent's parent: its shortest reference, its id with `(not indexed)`, or
 * null when the store recorded no parent (trial 120 L21: "subagent of unknown").
 */
function parentOf(store: Store, harness: string, parent: string): string | null {
  if (/(?:^|:)unknown$/.test(parent)) return null;
  return Q.sessionByKey.get(store, { harness, native_id: parent })
    ? shortRef(store, harness, parent)
    : `${parent} (not indexed)`;
}

/**
 * A store gone since: what it held is kept, which the source line says ("gone since; kept in
 * the index"); that it was empty or shorter when last read is no longer said (trial 34: "is
 * empty now" beside "gone since"). Records its last read could not read still are.
 */
function goneDamage(d: SessionDamage | null, exists: boolean): SessionDamage | null {
  if (!d || exists) return d;
  if (!d.unreadable_records) return null;
  const { kept_as_indexed: _k, now_empty: _e, ...rest } = d;
  return rest;
}

/** What one pass over a session's events learns that showing it needs before the first. */
interface Survey {
  /** The calls with a call id, and the results with a call id or a status, in order. */
  calls: Array<Pick<EventRow, "id" | "call_id">>;
  results: Array<Pick<EventRow, "id" | "call_id" | "data">>;
  /** The replies' models, each change once. */
  models: string[];
  /** The `data` of the events that edited files. */
  editData: Map<number, string | null>;
  ending: EndingWatch;
}

/**
 * Reads `events` once (a lean read: their metadata a row at a time) for {@link Survey},
 * keeping of each only what it needs: a million events' rows held took about 480 MB.
 */
function survey(events: Iterable<EventRow>, edits: ReadonlySet<number>): Survey {
  const out: Survey = {
    calls: [],
    results: [],
    models: [],
    editData: new Map(),
    ending: new EndingWatch(),
  };
  for (const e of events) {
    const { id, call_id, data } = e;
    if (e.kind === "tool_call" && call_id) out.calls.push({ id, call_id });
    else if (e.kind === "tool_result" && (call_id || data)) out.results.push({ id, call_id, data });
    if (e.model && e.model !== out.models.at(-1)) out.models.push(e.model);
    if (edits.has(id)) out.editData.set(id, data);
    out.ending.see(e);
  }
  return out;
}

/** Bytes of event text read between two collections of garbage ({@link pagedEvents}). */
const SHOW_GC_BYTES = 32 << 20;

/** The garbage one event shown makes beside its text, as {@link pagedEvents} counts it. */
const EVENT_GARBAGE_BYTES = 1024;

/** Bytes of event text {@link pagedEvents} reads at a time. */
const TEXT_PAGE_BYTES = 4 << 20;

/** Events whose metadata {@link pagedEvents} reads at a time. */
const META_PAGE = 1024;

/**
 * The events of session `session` in order, read from the store left open each time they are
 * iterated: their metadata {@link META_PAGE} at a time, their text a page of about
 * {@link TEXT_PAGE_BYTES} at a time. A session of a million events or 150 MB was held whole,
 * about 1 GB (trial 30).
 */
function pagedEvents(store: Store, session: number): Iterable<EventRow> {
  return {
    *[Symbol.iterator]() {
      // The pages read and written are garbage at once; a runtime that collects late holds
      // many of them (a 150 MB Cline task, before its commands were folded as read: 528 -> 454 MB).
      const pacer = new GarbagePacer(SHOW_GC_BYTES, collectGarbageSoon);
      let after = Number.MIN_SAFE_INTEGER;
      for (;;) {
        const meta = Q.eventMetaPage.all(store, { session, after, limit: META_PAGE });
        if (!meta.length) return;
        for (let i = 0; i < meta.length;) {
          let bytes = 0;
          let j = i;
          while (j < meta.length && (j === i || bytes + meta[j].n <= TEXT_PAGE_BYTES)) {
            bytes += meta[j].n;
            j++;
          }
          // Each event shown makes garbage beyond its text (its rows, its lines): counted too, or
          // a session of many short events (420,000 tool calls and results) collects too late.
          pacer.took(bytes + (j - i) * EVENT_GARBAGE_BYTES);
          const texts = new Map(
            Q.eventTextsBetween.all(store, { session, from: meta[i].seq, to: meta[j - 1].seq })
              .map((r) => [r.id, r.text]),
          );
          for (; i < j; i++) {
            const { n: _, ...e } = meta[i];
            yield { ...e, text: texts.get(e.id) ?? "" };
          }
        }
        after = meta[meta.length - 1].seq;
      }
    },
  };
}

/** Per event of a notes day `s`, its note's id, read from the notes file it came from. */
function noteIdsOf(s: SessionRow, events: EventRow[], tz?: string): Map<number, string> {
  const day = notesOfDays({ path: s.source, tz }, [s.native_id]).get(s.native_id);
  const out = new Map<number, string>();
  for (const e of events) {
    const id = noteIdAt(day, e.time, e.text);
    if (id) out.set(e.id, id);
  }
  return out;
}

/** The `--json` document (docs/json-output.md, `show`). */
export function showJson(d: ShowData): Record<string, unknown> {
  return { ...showJsonHead(d), events: [...d.events].map((e) => eventJson(d, e)) };
}

/** {@link showJson} but for its events, whose place it holds (`events: []`). */
function showJsonHead(d: ShowData): Record<string, unknown> {
  const s = d.session;
  return {
    harness: s.harness,
    id: s.native_id,
    origin: s.origin ?? null,
    project: s.project,
    title: s.title,
    description: d.description,
    started: isoTime(s.started),
    updated: isoTime(s.updated),
    time_from_file: Boolean(s.time_from_file),
    undated: isUndated(s),
    model: s.model,
    models: modelsOf(s),
    model_switches: switchCount(d.models),
    parent: s.parent,
    source: s.source,
    source_exists: d.sourceExists,
    also_from_gone: d.goneCopies,
    source_damage: d.damage,
    subagents: d.subagents.map((c) => c.id),
    copied_in: d.copiedIn?.id ?? null,
    unanswered: d.ending === "unanswered",
    ended_mid_reply: d.ending === "mid_reply",
    ended_on_call: d.ending === "call_unfinished",
    ended_after_calls: d.ending === "calls_only",
    events: [],
    files: ((every) =>
      d.files.map((f) => ({
        path: f.path,
        op: f.op,
        seq: f.seq,
        time: isoTime(f.time),
        old: f.old,
        new: f.new,
        failed: f.failed === 1,
        call_id: f.call_id,
        ...(every.has(f) ? { replace_all: true } : {}),
      })))(d.replaceAll),
  };
}

/** One event of {@link showJson}. */
function eventJson(d: ShowData, e: EventRow): Record<string, unknown> {
  const cmd = d.commands.get(e.id);
  return {
    seq: e.seq,
    kind: e.kind,
    time: isoTime(e.time),
    text: e.text,
    tool: e.tool,
    call_id: e.call_id,
    ...(e.model ? { model: e.model } : {}),
    ...(d.noteIds.has(e.id) ? { note_id: d.noteIds.get(e.id) } : {}),
    ...(cmd ? { exit: cmd.exit, is_error: cmd.is_error === 1 } : {}),
    // The exit status is the pipe's last program's (`head`), not the command's.
    ...(cmd?.of ? { exit_of: cmd.of } : {}),
    // Stopped at its time limit or moved to the background (`timed out after 2m 0.0s`).
    ...(cmd?.ended ? { ended: cmd.ended } : {}),
    // A call that never ran has no outcome: it says `not_run` instead.
    ...(cmd ? cmd.not_run ? { not_run: true } : { outcome: cmd.outcome } : {}),
    ...(isCut(e) ? { cut: true } : {}),
  };
}

/** The session as text for a reader (colour when `io` is a terminal). */
export function showText(d: ShowData, io: Pick<IO, "isTTY" | "env">, full: boolean): string {
  return [...showChunks(d, io, full)].join("");
}

/** Events {@link showChunks} renders between two writes. */
const CHUNK_EVENTS = 256;

/**
 * {@link showText} in pieces of {@link CHUNK_EVENTS} events, each ending in a newline:
 * written as they come, a long session is never held as one text.
 */
export function* showChunks(
  d: ShowData,
  io: Pick<IO, "isTTY" | "env">,
  full: boolean,
): Generator<string> {
  const s = d.session;
  const c = colors(io);
  const runColor = (o: Outcome) => o === "ok" ? c.green : o === "failed" ? c.red : c.yellow;
  const models = modelsLabel(s, d.models);
  const out: string[] = [
    `${c.bold(oneLine(d.description ?? "(no title, no prompt)", 100))}`,
    `${c.cyan(d.ref)} ${s.harness}  ${tilde(s.project, io.env.home)}  ${fmtTime(s.started)} → ${
      fmtSessionTime(s.updated, s)
    }${models ? `  ${models}` : ""}`,
    c.dim(`id ${s.native_id}  source ${tilde(s.source, io.env.home)}`) +
    (d.sourceExists ? "" : c.yellow(" (gone since; kept in the index)")),
  ];
  // Trial 137 M3: a copy's events, the copy deleted, were shown under a source that held none.
  for (const p of d.goneCopies) {
    out.push(c.yellow(
      `also read from ${
        tilde(p, io.env.home)
      } (gone since): what only it held is kept in the index`,
    ));
  }
  if (d.damage) out.push(c.yellow(sessionDamageText(d.damage)));
  if (s.parent) {
    out.push(c.dim(
      d.parentRef === null
        ? "a subagent; its store records no parent"
        : `subagent of ${d.parentRef ?? s.parent}`,
    ));
  }
  if (d.subagents.length) {
    out.push(c.dim(`subagents: ${d.subagents.map((x) => x.ref).join(", ")}`));
  }
  if (d.copiedIn) out.push(c.yellow(copiedText(d.copiedIn.ref)));
  out.push("");
  const diffs = editDiffs(d.files, full, d.replaceAll);
  let model: string | undefined;
  let i = 0;
  for (const e of d.events) {
    if (i++ && (i - 1) % CHUNK_EVENTS === 0 && out.length) {
      yield out.join("\n") + "\n";
      out.length = 0;
    }
    // A patch's deletion and rename said as such, not as a read (trial 97 F8).
    const said = e.kind === "tool_call" ? patchLabels(e.text, e.data, s.project) : e.text;
    // Where the replies' model changes (the first one is the header's).
    if (e.model && e.model !== model) {
      if (model !== undefined) out.push(c.dim(`— model ${e.model} from here`));
      model = e.model;
    }
    const edited = e.kind === "tool_call" ? diffs.get(e.id) : undefined;
    // Its diff stands for its text: the rename it also made is said above it.
    const moved = said === e.text
      ? []
      : said.split("\n").filter((l) => /^(?:rename|delete) /.test(l));
    const diff = edited !== undefined && moved.length ? [...moved, edited].join("\n") : edited;
    // A read of part of a file says which part (trial 52: two reads of one file looked the
    // same, the second with `limit: 20`, which is what `fix` offered as the fix).
    const part = e.kind === "tool_call" && said.startsWith("read ") ? readPart(e.data) : "";
    const text = (full ? diff ?? said : clip(diff ?? said, e.kind)) + part;
    const label = e.kind === "tool_call" || e.kind === "tool_result"
      ? `${e.kind} ${e.tool ?? ""}`.trim()
      : e.kind;
    const cmd = d.commands.get(e.id);
    // A result repeats its call's status only when it failed (the call line says `exit 0`).
    const run = cmd && statusWords(cmd, e.kind);
    const status = run
      ? (run.tone === "not_run" ? c.yellow : runColor(run.tone))(` ${run.words}`)
      : "";
    const note = d.noteIds.get(e.id);
    const cut = isCut(e) ? c.yellow(" cut off") : "";
    out.push(
      `${c.dim(fmtTime(e.time))} ${c.bold(label)}${status}${cut}${
        note ? `  note ${c.cyan(note)}` : ""
      }`,
    );
    out.push(
      text.split("\n").map((l) =>
        diff === undefined
          ? `  ${l}`
          : l.startsWith("- ")
          ? c.red(`  ${l}`)
          : l.startsWith("+ ")
          ? c.green(`  ${l}`)
          : `  ${l}`
      ).join("\n"),
    );
  }
  const ending = endingText(d.ending);
  if (ending) out.push("", c.yellow(ending));
  if (d.noteIds.size) {
    out.push(
      "",
      c.dim(
        `deja forget --note <note id> forgets one note; deja forget --session ${s.harness}:${s.native_id} the whole day`,
      ),
    );
  }
  if (out.length) yield out.join("\n") + "\n";
}

/** The part of a file a read call asked for, from its input (` (offset: 40, limit: 20)`), else "". */
export function readPart(data: string | null | undefined): string {
  if (!data || !/offset|limit|line|range/i.test(data)) return "";
  let input: unknown;
  try {
    input = JSON.parse(data);
  } catch {
    return "";
  }
  if (!input || typeof input !== "object" || Array.isArray(input)) return "";
  const said = Object.entries(input as Record<string, unknown>)
    .filter(([k, v]) =>
      /^(?:offset|limit|(?:start|end)_?line|line_?(?:start|end)|lines?|view_?range|range)$/i
        .test(k) &&
      (typeof v === "number" || (Array.isArray(v) && v.every((x) => typeof x === "number")))
    )
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join("-") : v}`);
  return said.length ? ` (${said.join(", ")})` : "";
}

function runShow(a: Args, io: IO): number {
  const args = parseShow(a);
  const store = Store.open(indexPath(io.env));
  try {
    // The events are read and written a page at a time, as text and as JSON (trial 30: a
    // session of 150 MB or a million events held whole, about 1 GB, even through `| head`).
    if (args.json) {
      const d = showSession(store, args.ref, io.env.get("TZ"), { lean: true });
      const events = function* () {
        for (const e of d.events) yield eventJson(d, e);
      };
      printJsonStreaming(io, showJsonHead(d), { events: events() });
      return 0;
    }
    const refs = refsShown(store, args.ref);
    if (refs.length > 1) {
      io.err(`deja: ${refs.length} projects have notes that day; each one's in turn\n`);
    }
    for (const [i, ref] of refs.entries()) {
      const d = showSession(store, ref, io.env.get("TZ"), { lean: true });
      if (i) io.out("\n");
      for (const chunk of showChunks(d, io, args.full)) {
        io.out(chunk);
        // Read by no one now (`| head`): the rest is not made (trial 32: the whole session was).
        if (io.outGone?.()) return 0;
      }
    }
  } finally {
    store.close();
  }
  return 0;
}

/**
 * The sessions `deja show <ref>` shows as text: the one `ref` names, or, for a day of notes
 * (`deja:<YYYY-MM-DD>`) several projects have, each project's notes of that day, newest first
 * (trial 105 F7: the README's `deja show deja:<day>` was refused as ambiguous as soon as two
 * projects had notes that day). `--json`, one session's document, still refuses it.
 *
 * @throws {DejaError} as {@link resolveSession} does, for any other reference.
 */
function refsShown(store: Store, ref: string): string[] {
  try {
    resolveSession(store, ref);
    return [ref];
  } catch (e) {
    const day = /^deja:\d{4}-\d{2}-\d{2}$/i.test(ref.trim());
    if (!day || !(e instanceof AmbiguousSession) || e.total > e.candidates.length) throw e;
    return e.candidates.map((c) => `deja:${c.id}`);
  }
}

/**
 * `text` shortened for reading, with how much more there was: the characters
 * `--full` shows, and those the index cut before (its markers, core/text.ts
 * `cutText`), which `--full` cannot show.
 */
export function clip(text: string, kind: string): string {
  const max = kind === "tool_result" ? 600 : 4000;
  if (text.length <= max) return text;
  const rest = text.slice(max);
  const { chars, marks } = cutsIn(rest);
  const shown = rest.length - marks;
  const note = chars
    ? `${shown + chars} more characters; --full shows the ${shown} the index kept`
    : `${shown} more characters; --full`;
  return `${text.slice(0, max)}\n… (${note})`;
}
