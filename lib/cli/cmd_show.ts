/**
 * `deja show <id-prefix>`: one whole session, event by event.
 *
 * Parse ({@link parseShow}) → run ({@link showSession}: reads the index,
 * returns data) → render ({@link showJson}, {@link showText}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtSessionTime, fmtTime, isoTime, printJson } from "./common.ts";
import { cutsIn, oneLine, tilde } from "../../core/text.ts";
import { existsSync } from "node:fs";
import { GarbagePacer, type IO } from "../../core/runtime.ts";
import { indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import {
  modelPath,
  modelsLabel,
  modelsOf,
  resolveSession,
  shortRef,
  switchCount,
} from "../sessions.ts";
import { Q } from "../schema.ts";
import type { EventRow, FileRow, SessionRow } from "../rows.ts";
import { describeSession } from "../memory/last.ts";
import {
  exitOf,
  type Outcome,
  outcomeOf,
  runEnd,
  runFacts,
  statusOwner,
} from "../memory/outcome.ts";
import { noteIdAt, notesOfDays } from "../memory/note_ids.ts";
import { editDiffs, replacingAll } from "./_show_edits.ts";
import { isUndated } from "../session_time.ts";
import { type Ending, endingText, isCut, sessionEnding } from "../memory/ending.ts";
import { type SessionDamage, sessionDamage, sessionDamageText } from "../store_damage.ts";

export const showCmd: CommandSpec = {
  asks: true,
  refresh: true,
  usage: "show <id-prefix | harness:id-prefix> [--json]",
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
  events: EventRow[];
  /**
   * Per event row id: the outcome of the call or result — a shell call's from
   * its command row, any other call's and every result's from the result's
   * status (`events.data`): a result the harness marked as an error, or with a
   * non-zero exit, is failed whatever the tool.
   */
  commands: Map<number, RunStatus>;
  files: FileRow[];
  /** Subagents: native id and shortest reference. */
  subagents: Array<{ id: string; ref: string }>;
  /**
   * False when the store file is gone since it was read (the index keeps its
   * sessions: deja is memory); one stat when the session is shown.
   */
  sourceExists: boolean;
  /** A day of notes (harness `deja`): per event row id, the id of its note (`deja forget --note`). */
  noteIds: Map<number, string>;
  /** How the session ended: its last request unanswered, or mid-reply (lib/memory/ending.ts). */
  ending: Ending;
  /**
   * What its store's last read could not read (lib/store_damage.ts): records
   * lost to damage, so the session may lack messages; null when none.
   */
  damage: SessionDamage | null;
  /**
   * A lean read's texts, by the event's place in `events` (whose `text` is then only its
   * first character): read from the index as they are shown, in order.
   */
  texts?: (i: number) => string;
}

/**
 * Reads `deja show`'s arguments.
 *
 * @throws {DejaError} exit 2 when no session is named.
 */
export function parseShow(a: Args): ShowArgs {
  const ref = a.positionals[0];
  if (!ref) throw new DejaError("which session? give an id or its first characters", undefined, 2);
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
  // Lean: the text is read a page at a time as it is shown ({@link showChunks}); a day of
  // notes (small, and its note ids read from the text) is read whole.
  const lean = opts.lean === true && s.harness !== "deja";
  const events = lean
    ? Q.eventMetaOfSession.all(store, { session: s.id })
    : Q.eventsOfSession.all(store, { session: s.id });
  const commands = new Map<number, RunStatus>();
  for (const c of Q.commandsInOrder.iterate(store, { session: s.id })) {
    const facts = runFacts(c);
    const owner = facts.exit === null ? null : statusOwner(facts.command, facts.exit);
    const outcome = outcomeOf(facts);
    const ended = runEnd(facts.output ?? facts.head);
    commands.set(c.event_id, {
      exit: facts.exit,
      is_error: c.is_error,
      outcome,
      ...(owner ? { of: owner } : {}),
      ...(ended ? { ended } : {}),
    });
  }
  outcomesOfResults(events, commands);
  return {
    session: s,
    description: describeSession(store, s),
    ref: shortRef(store, s.harness, s.native_id),
    events,
    commands,
    files: Q.filesOfSession.all(store, { session: s.id }),
    subagents: Q.childrenOf.all(store, { harness: s.harness, parent: s.native_id })
      .map((c) => ({ id: c.native_id, ref: shortRef(store, c.harness, c.native_id) })),
    sourceExists: existsSync(s.source),
    noteIds: s.harness === "deja" ? noteIdsOf(s, events, tz) : new Map(),
    ending: sessionEnding(store, s, events),
    damage: sessionDamage(Q.sourceByPath.get(store, { path: s.source })),
    ...(lean ? { texts: pagedTexts(store, s.id, events as Array<EventRow & { n: number }>) } : {}),
  };
}

/** Bytes of event text read between two collections of garbage ({@link pagedTexts}). */
const SHOW_GC_BYTES = 32 << 20;

/** Bytes of event text {@link pagedTexts} reads at a time. */
const TEXT_PAGE_BYTES = 4 << 20;

/**
 * The texts of a lean read's events ({@link showSession}), a page of about
 * {@link TEXT_PAGE_BYTES} (at most 1,024 events) at a time, from the store left open: a
 * session of a million events or 150 MB was held whole, about 1 GB (trial 30).
 */
function pagedTexts(
  store: Store,
  session: number,
  events: Array<EventRow & { n: number }>,
): (i: number) => string {
  let page = new Map<number, string>();
  let start = 0, end = -1; // the indexes of `events` the page holds
  // The pages read and written are garbage at once; a runtime that collects late holds
  // many of them (a 150 MB Cline task, before its commands were folded as read: 528 -> 454 MB).
  const pacer = new GarbagePacer(SHOW_GC_BYTES);
  return (i) => {
    if (i > end || i < start) {
      let bytes = 0;
      let j = i;
      while (
        j < events.length && j - i < 1024 && (j === i || bytes + events[j].n <= TEXT_PAGE_BYTES)
      ) {
        bytes += events[j].n;
        j++;
      }
      start = i;
      end = j - 1;
      pacer.took(bytes);
      page = new Map(
        Q.eventTextsBetween.all(store, { session, from: events[i].seq, to: events[end].seq })
          .map((r) => [r.id, r.text]),
      );
    }
    return page.get(events[i].id) ?? "";
  };
}

/** What `show` says of a call or result: its exit, failed, or (`not_run`) that it never ran. */
interface RunStatus {
  exit: number | null;
  is_error: number;
  /** lib/memory/outcome.ts's judgement, as every other surface makes it. */
  outcome: Outcome;
  /** The store says the call never ran (core/model.ts `ToolResultInfo.notRun`). */
  not_run?: boolean;
  /** The status in words when a program last in a pipe returned it (`exit 0 of head`). */
  of?: string;
  /** How it ended when not by itself (lib/memory/outcome.ts `runEnd`: `timed out after 2m`). */
  ended?: string;
}

/**
 * Adds to `out` the outcome of every tool result that records one (its
 * `events.data` `{exit, isError, notRun?}`), and of each call that ran no command but
 * has such a result: a failed `view` or `edit` shows failed like a failed
 * `bash`. A result saying the call never ran marks its call so even over a
 * command row (which says only `failed`). A successful result with no exit
 * adds nothing (nothing to say). The result of a command judged failed (its
 * output reports a failure, lib/memory/outcome.ts) says so like its call.
 */
function outcomesOfResults(events: EventRow[], out: Map<number, RunStatus>): void {
  const ofCommand = new Map<string, RunStatus>();
  for (const e of events) {
    const o = e.kind === "tool_call" && e.call_id ? out.get(e.id) : undefined;
    if (o && !ofCommand.has(e.call_id!)) ofCommand.set(e.call_id!, o);
  }
  const byCall = new Map<string, RunStatus>();
  for (const e of events) {
    if (e.kind !== "tool_result" || !e.data) continue;
    let info: { exit?: number; isError?: boolean; notRun?: boolean };
    try {
      info = JSON.parse(e.data);
    } catch {
      continue;
    }
    // A command's result says what its call says (trial 12: a lone `grep` that matched nothing,
    // `unknown` on its call, was `failed` on its result, judged from its exit alone).
    const ran = e.call_id && info.notRun !== true ? ofCommand.get(e.call_id) : undefined;
    if (ran) {
      out.set(e.id, ran);
      continue;
    }
    const exit = typeof info.exit === "number" ? info.exit : null;
    const outcome = outcomeOf({ exit, isError: info.isError === true });
    if (outcome === "unknown") continue;
    const o: RunStatus = { exit, is_error: outcome === "failed" ? 1 : 0, outcome };
    if (info.notRun === true) o.not_run = true;
    out.set(e.id, o);
    if (e.call_id && !byCall.has(e.call_id)) byCall.set(e.call_id, o);
  }
  for (const e of events) {
    if (e.kind !== "tool_call" || !e.call_id) continue;
    const o = byCall.get(e.call_id);
    if (o && (!out.has(e.id) || o.not_run)) out.set(e.id, o);
  }
  for (const e of events) {
    const o = e.kind === "tool_result" && e.call_id ? ofCommand.get(e.call_id) : undefined;
    if (o?.outcome === "failed" && !out.has(e.id)) out.set(e.id, o);
  }
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
    model_switches: switchCount(modelPath(d.events.map((e) => e.model))),
    parent: s.parent,
    source: s.source,
    source_exists: d.sourceExists,
    source_damage: d.damage,
    subagents: d.subagents.map((c) => c.id),
    unanswered: d.ending === "unanswered",
    ended_mid_reply: d.ending === "mid_reply",
    events: d.events.map((e) => {
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
    }),
    files: ((every) =>
      d.files.map((f) => ({
        path: f.path,
        op: f.op,
        old: f.old,
        new: f.new,
        failed: f.failed === 1,
        call_id: f.call_id,
        ...(every.has(f) ? { replace_all: true } : {}),
      })))(replacingAll(d.files, d.events)),
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
  const models = modelsLabel(s, modelPath(d.events.map((e) => e.model)));
  const out: string[] = [
    `${c.bold(oneLine(d.description ?? "(no title, no prompt)", 100))}`,
    `${c.cyan(d.ref)} ${s.harness}  ${tilde(s.project, io.env.home)}  ${fmtTime(s.started)} → ${
      fmtSessionTime(s.updated, s)
    }${models ? `  ${models}` : ""}`,
    c.dim(`id ${s.native_id}  source ${tilde(s.source, io.env.home)}`) +
    (d.sourceExists ? "" : c.yellow(" (gone since; kept in the index)")),
  ];
  if (d.damage) out.push(c.yellow(sessionDamageText(d.damage)));
  if (s.parent) out.push(c.dim(`subagent of ${s.parent}`));
  if (d.subagents.length) {
    out.push(c.dim(`subagents: ${d.subagents.map((x) => x.ref).join(", ")}`));
  }
  out.push("");
  const diffs = editDiffs(d.files, full, replacingAll(d.files, d.events));
  let model: string | undefined;
  for (let i = 0; i < d.events.length; i++) {
    const e = d.events[i];
    if (i && i % CHUNK_EVENTS === 0 && out.length) {
      yield out.join("\n") + "\n";
      out.length = 0;
    }
    const said = d.texts ? d.texts(i) : e.text;
    // Where the replies' model changes (the first one is the header's).
    if (e.model && e.model !== model) {
      if (model !== undefined) out.push(c.dim(`— model ${e.model} from here`));
      model = e.model;
    }
    const diff = e.kind === "tool_call" ? diffs.get(e.id) : undefined;
    const text = full ? diff ?? said : clip(diff ?? said, e.kind);
    const label = e.kind === "tool_call" || e.kind === "tool_result"
      ? `${e.kind} ${e.tool ?? ""}`.trim()
      : e.kind;
    const cmd = d.commands.get(e.id);
    // A result repeats its call's status only when it failed (the call line says `exit 0`).
    const status = cmd && (e.kind !== "tool_result" || cmd.outcome === "failed")
      ? cmd.not_run ? c.yellow(" not run") : cmd.ended
        ? runColor(cmd.outcome)(
          ` ${cmd.ended}${
            cmd.exit !== null && cmd.ended.startsWith("timed") ? ` (exit ${cmd.exit})` : ""
          }`,
        )
        : cmd.of
        ? runColor(cmd.outcome)(
          cmd.outcome === "failed"
            ? ` failed (${exitOf(cmd.exit, cmd.of)})`
            : ` ${exitOf(cmd.exit, cmd.of)}`,
        )
        : cmd.exit !== null
        // PowerShell's 0 beside an error it printed (lib/memory/outcome.ts): said as `ctx` says it.
        ? cmd.exit === 0
          ? cmd.outcome === "failed" ? c.red(" failed (exit 0)") : c.green(" exit 0")
          : c.red(` exit ${cmd.exit}`)
        : cmd.outcome === "failed"
        ? c.red(" failed")
        : ""
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

function runShow(a: Args, io: IO): number {
  const args = parseShow(a);
  const store = Store.open(indexPath(io.env));
  try {
    // As text, the events' text is read and written a page at a time (trial 30: a session of
    // 150 MB or a million events held whole, about 1 GB, even through `| head`).
    const d = showSession(store, args.ref, io.env.get("TZ"), { lean: !args.json });
    if (args.json) printJson(io, showJson(d));
    else for (const chunk of showChunks(d, io, args.full)) io.out(chunk);
  } finally {
    store.close();
  }
  return 0;
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
