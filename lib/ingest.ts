/**
 * Writes parsed sessions into the store: normalise (render tool calls, cap
 * sizes) -> redact -> insert events and the derived rows (`commands` with exit
 * status, `files` with replaced spans and written lines).
 *
 * @module
 */
import type { EditSpan, Event, Session } from "../core/model.ts";
import { Q } from "./schema.ts";
import type { Store } from "./store.ts";
import { redact, type RedactionCounts } from "./redact.ts";
import { renderCall } from "./render.ts";
import { VocabWriter } from "./search/vocab.ts";
import { eventFlags } from "./search/signals.ts";
import { gateOf } from "./forget/gate.ts";
import { recordExcluded } from "./forget/exclusions.ts";
import { normalizeProject } from "./project_path.ts";
import { stripFrames } from "../core/frame.ts";

/** Cap on speech and summary text stored per event: 64 KiB of characters. */
export const MAX_TEXT = 64 * 1024;
/** Cap on tool output stored per result (head and tail kept): 16 KiB of characters. */
export const MAX_RESULT = 16 * 1024;
/** Cap on an edit span or written content kept for `restore`: 1 MiB of characters. */
export const MAX_SPAN = 1 << 20;

/** How a pass treats sessions that already exist in the index. */
export type WriteMode =
  /** The source was re-read whole: its old sessions were removed first; others' are appended to. */
  | "full"
  /** The source was read from an offset: events continue existing sessions. */
  | "append"
  /** Each session yielded is complete: its old events are replaced. */
  | "sessions";

/** Caps `text` to `max` characters, keeping head and tail around a marker. */
export function cap(text: string, max: number, tailShare = 0.25): string {
  if (text.length <= max) return text;
  const tail = Math.floor(max * tailShare);
  const head = max - tail;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}\n… [${cut} characters cut] …\n${text.slice(text.length - tail)}`;
}

/** Event keys a pass remembers per session before it looks them up instead (memory bound). */
export const MAX_FRESH_KEYS = 100_000;

interface Slot {
  id: number;
  nextSeq: number;
  /**
   * Keys written in this pass, when the session had no events before it: a key
   * not in the set cannot be in the index, so no lookup is needed.
   */
  fresh?: Set<string>;
}

/** Writes the sessions of one source pass. Use inside a store transaction. */
export class SourceWriter {
  private slots = new Map<string, Slot>();
  private vocab: VocabWriter;
  /** Sessions of this pass the gate left out (later chunks of them are left out too). */
  private leftOut = new Set<string>();
  /** {@link MAX_FRESH_KEYS}; tests lower it. */
  maxFreshKeys = MAX_FRESH_KEYS;
  readonly redactions: RedactionCounts = {};
  sessions = 0;
  events = 0;

  constructor(private store: Store, readonly source: string, readonly mode: WriteMode) {
    this.vocab = new VocabWriter(store);
    if (mode === "full") {
      for (const row of store.stmt(Q.sessionsOfSource).all(source) as Array<{ id: number }>) {
        store.stmt(Q.deleteSession).run(row.id);
      }
    }
  }

  /** Writes one session chunk. */
  write(chunk: Session): void {
    if (chunk.project) chunk = { ...chunk, project: normalizeProject(chunk.project) };
    const k = `${chunk.harness}\u0000${chunk.id}`;
    if (this.leftOut.has(k)) return;
    if (
      !this.slots.has(k) && (gateOf(this.store)?.check(chunk, this.source) || this.staleCopy(chunk))
    ) {
      this.leftOut.add(k);
      return;
    }
    const slot = this.slot(chunk);
    for (const e of chunk.events) this.writeEvent(slot, e);
  }

  /**
   * True when `c` is a whole copy of a session the index holds from another
   * store that was updated later (opencode channel builds keep the same session
   * in `opencode.db` and `opencode-<channel>.db`): the newer copy stays.
   */
  private staleCopy(c: Session): boolean {
    if (!c.whole || c.updated === undefined) return false;
    const row = this.store.stmt(Q.sessionByKey).get(c.harness, c.id) as
      | { source: string; updated: number | null }
      | undefined;
    return !!row && row.source !== this.source && typeof row.updated === "number" &&
      row.updated > c.updated;
  }

  /** Recounts events of every session this pass touched. */
  finish(): void {
    // In the same transaction as the stamp: the stores an exclusion left sessions out of.
    const gate = gateOf(this.store);
    if (gate) recordExcluded(this.store, gate.excludedBy);
    for (const slot of this.slots.values()) this.store.stmt(Q.countEvents).run(slot.id);
    this.vocab.flush();
  }

  /**
   * Redacts `text`. Only the event text counts towards the per-source figures:
   * the same secret also lands in derived rows (command, edit span, title) and
   * would be counted again there.
   */
  private r(text: string, count = true): string {
    return redact(text, count ? this.redactions : {});
  }

  private slot(c: Session): Slot {
    const k = `${c.harness}\u0000${c.id}`;
    const st = this.store;
    const row = st.stmt(Q.sessionByKey).get(c.harness, c.id) as
      | Record<string, string | number | null>
      | undefined;
    const title = c.title ? this.r(c.title.slice(0, 500), false) : undefined;
    let slot = this.slots.get(k);
    if (!row) {
      const ins = st.stmt(Q.insertSession).get(
        c.harness,
        c.id,
        c.project ?? null,
        title ?? null,
        c.started ?? null,
        c.updated ?? null,
        c.model ?? null,
        c.parent ?? null,
        this.source,
      ) as { id: number };
      slot = { id: ins.id, nextSeq: 0, fresh: new Set() };
      this.slots.set(k, slot);
      this.sessions++;
      return slot;
    }
    const id = row.id as number;
    if (!slot) {
      if (this.mode === "sessions" || c.whole) {
        st.stmt(Q.deleteSessionEvents).run(id);
        slot = { id, nextSeq: 0, fresh: new Set() };
      } else {
        const m = st.stmt(Q.maxSeq).get(id) as { seq: number };
        slot = { id, nextSeq: m.seq + 1 };
      }
      this.slots.set(k, slot);
      this.sessions++;
    }
    const minOf = (a: unknown, b: number | undefined) =>
      typeof a === "number" ? (b === undefined ? a : Math.min(a, b)) : b ?? null;
    const maxOf = (a: unknown, b: number | undefined) =>
      typeof a === "number" ? (b === undefined ? a : Math.max(a, b)) : b ?? null;
    st.stmt(Q.updateSession).run(
      c.project ?? row.project ?? null,
      title ?? row.title ?? null,
      minOf(row.started, c.started),
      maxOf(row.updated, c.updated),
      c.model ?? row.model ?? null,
      c.parent ?? row.parent ?? null,
      this.source,
      id,
    );
    return slot;
  }

  private writeEvent(slot: Slot, e: Event): void {
    const st = this.store;
    const sid = slot.id;
    let text: string;
    if (e.kind === "tool_call" && e.tool) {
      text = e.text || renderCall(e.tool);
      text = cap(text, MAX_TEXT);
    } else if (e.kind === "tool_result") {
      text = cap(stripFrames(e.text), MAX_RESULT);
    } else {
      // deja's own recall, echoed back by a harness, is not new history (core/frame.ts).
      text = cap(stripFrames(e.text), MAX_TEXT, 0.1);
    }
    text = this.r(text);
    this.vocab.add(e.kind, text);
    const failed = e.result !== undefined &&
      (e.result.isError === true || (e.result.exit !== undefined && e.result.exit !== 0));
    const flags = eventFlags(e.kind, text, failed);
    const tool = e.tool?.name ?? null;
    const callId = e.kind === "tool_call" ? e.tool?.id ?? null : e.result?.callId ?? null;
    let data: string | null = null;
    if (e.kind === "tool_call" && e.tool?.input !== undefined) {
      const j = JSON.stringify(e.tool.input);
      data = j !== undefined && j.length <= 4000 ? this.r(j, false) : null;
    } else if (e.kind === "tool_result" && e.result) {
      data = JSON.stringify({ exit: e.result.exit, isError: e.result.isError });
    }
    const time = e.time ?? null;
    let eventId: number;
    let existing: { id: number } | undefined;
    if (e.key !== undefined) {
      if (!slot.fresh || slot.fresh.has(e.key)) {
        existing = st.stmt(Q.eventByKey).get(sid, e.key) as { id: number } | undefined;
      }
      slot.fresh?.add(e.key);
      // Bounded memory on a session of millions of events (issue 18's 2 GB session): past the
      // cap, keys are looked up in the index instead of remembered.
      if (slot.fresh && slot.fresh.size > this.maxFreshKeys) slot.fresh = undefined;
    }
    if (existing) {
      eventId = existing.id;
      st.stmt(Q.updateEvent).run(e.kind, text, time, tool, callId, data, eventId);
      st.stmt(Q.setEventFlags).run(flags, eventId);
      st.stmt(Q.deleteDerived).run(eventId);
      st.stmt(Q.deleteDerivedFiles).run(eventId);
    } else {
      eventId = (st.stmt(Q.insertEvent).get(
        sid,
        slot.nextSeq++,
        e.kind,
        text,
        time,
        e.key ?? null,
        tool,
        callId,
        data,
      ) as { id: number }).id;
      if (flags) st.stmt(Q.setEventFlags).run(flags, eventId);
      this.events++;
    }
    if (e.kind === "tool_call" && e.tool) this.derivedCall(sid, eventId, e, callId);
    if (e.kind === "tool_result" && e.result) this.derivedResult(sid, eventId, e, callId);
  }

  private derivedCall(sid: number, eventId: number, e: Event, callId: string | null): void {
    const st = this.store;
    const t = e.tool!;
    const time = e.time ?? null;
    if (t.command) {
      st.stmt(Q.insertCommand).run(
        eventId,
        sid,
        callId,
        this.r(cap(t.command, MAX_TEXT), false),
        time,
      );
    }
    for (const p of t.paths ?? []) {
      st.stmt(Q.insertFile).run(eventId, sid, callId, p, "read", null, null, time);
    }
    for (const ed of t.edits ?? []) this.insertEdit(eventId, sid, callId, ed, time);
    for (const w of t.writes ?? []) {
      st.stmt(Q.insertFile).run(
        eventId,
        sid,
        callId,
        w.path,
        "write",
        null,
        this.r(cap(w.content, MAX_SPAN), false),
        time,
      );
    }
    if (callId) {
      // A result recorded before its call (some stores stream out of order).
      const r = st.stmt(Q.resultForCall).get(sid, callId) as { data: string | null } | undefined;
      if (r?.data) {
        const info = JSON.parse(r.data) as { exit?: number; isError?: boolean };
        this.applyResult(sid, callId, info.exit, info.isError);
      }
    }
  }

  private derivedResult(sid: number, eventId: number, e: Event, callId: string | null): void {
    const r = e.result!;
    if (callId) this.applyResult(sid, callId, r.exit, r.isError);
    for (const ed of r.edits ?? []) this.insertEdit(eventId, sid, callId, ed, e.time ?? null);
  }

  /** One replaced span, from a call's arguments or a result's metadata. */
  private insertEdit(
    eventId: number,
    sid: number,
    callId: string | null,
    ed: EditSpan,
    time: number | null,
  ): void {
    this.store.stmt(Q.insertFile).run(
      eventId,
      sid,
      callId,
      ed.path,
      "edit",
      this.r(cap(ed.old, MAX_SPAN), false),
      this.r(cap(ed.new, MAX_SPAN), false),
      time,
    );
  }

  private applyResult(sid: number, callId: string, exit?: number, isError?: boolean): void {
    const failed = isError === true || (exit !== undefined && exit !== 0);
    // A plain success changes nothing on the command row (exit stays unknown, not an error).
    if (exit === undefined && !failed) return;
    this.store.stmt(Q.setCommandExit).run(exit ?? null, failed ? 1 : 0, sid, callId);
    if (isError) this.store.stmt(Q.failFiles).run(sid, callId);
  }
}
