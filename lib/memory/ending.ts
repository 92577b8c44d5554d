/**
 * How a session ended, as far as its store says: with a request no reply
 * followed, or in the middle of a reply. `deja show` says so under the last
 * event (docs/json-output.md, `show`: `unanswered`, `ended_mid_reply`).
 *
 * @module
 */
import type { EventRow, SessionRow, SourceRow } from "../rows.ts";
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import { storeSkips } from "../store_damage.ts";
import { notReopened } from "../resume_source.ts";

/**
 * `unanswered`: the last request got no reply (no assistant words, no tool call
 * after it); `mid_reply`: the last reply was cut off mid-stream; `call_unfinished`: the
 * session ends on a tool call no result followed, in a session whose store records results
 * (trial 73: show ended on `git stash` with nothing said; trial 85: four calls at once, two
 * results); `calls_only`: the session ends on tool calls, each with its result, and no words
 * followed them (trial 85: show said nothing where ctx said "No reply"); null: none of these,
 * or nothing to say (no request at all, a notes day).
 */
export type Ending = "unanswered" | "mid_reply" | "call_unfinished" | "calls_only" | null;

/** True when the harness never finished this reply (core/model.ts `Event.cut`, `{"cut":true}`). */
export function isCut(e: Pick<EventRow, "kind" | "data">): boolean {
  return e.kind === "assistant" && e.data !== null && e.data.startsWith('{"cut":true');
}

/** What {@link endingOf} may ask beyond the events. */
export interface EndingContext {
  /** The session's store file (its `sources` row), when the index has it. */
  source?: Pick<SourceRow, "sessions" | "skipped" | "mtime"> | null;
  /**
   * Whether the store records replies at all (lib/schema.ts `sourceHasReplies`);
   * asked only of a session with none. Absent: taken as yes.
   */
  recordsReplies?: () => boolean;
  /**
   * Whether the harness records tool results (some session of it holds one); asked only of a
   * session that holds none. Absent: taken as no.
   */
  recordsResults?: () => boolean;
}

/**
 * How the session of `events` ended. A request is a user turn that reads as
 * typed (markup such as `<command-name>` or `<local-command-stdout>` is the
 * harness's, not a request). The reply was cut when the last assistant event
 * after the last request is marked cut (Crush: no `finish` part, or one whose
 * reason is `canceled` or `error`), or when the session's store file, holding
 * this session alone, ends in a line cut off: unfinished and unchanged for over
 * 10 minutes (lib/skips.ts `STALE_PARTIAL_MS`), so the record the harness was
 * writing, the reply in all likelihood, is lost; a line still being written
 * says nothing yet. A request with nothing after it is unanswered unless the
 * store keeps no replies at all (Codex's `history.jsonl`, a prompt history:
 * realdata codex 019d3c86, five prompts and no transcript).
 */
export function endingOf(
  events: Iterable<Pick<EventRow, "kind" | "text" | "data"> & { call_id?: string | null }>,
  ctx: EndingContext = {},
): Ending {
  const w = new EndingWatch();
  for (const e of events) w.see(e);
  return w.ending(ctx);
}

/**
 * {@link endingOf} fed one event at a time, in order: `deja show` reads a long session once
 * and learns its ending on the way, holding none of it.
 */
export class EndingWatch {
  #asked = false;
  /** Since the last request: the last assistant event was cut; a reply came. */
  #cut = false;
  #replied = false;
  #anyReply = false;
  /** The last event of the conversation was a tool call; a result was ever recorded. */
  #openCall = false;
  #anyResult = false;
  /** Since the last request: the calls no result answered yet (by call id); assistant words. */
  #open = new Set<string>();
  #words = false;

  see(e: Pick<EventRow, "kind" | "text" | "data"> & { call_id?: string | null }): void {
    const reply = isReply(e);
    if (reply) this.#anyReply = true;
    if (e.kind === "tool_result") this.#anyResult = true;
    if (e.kind !== "notice" && e.kind !== "summary") this.#openCall = e.kind === "tool_call";
    if (e.kind === "user" && isRequest(e.text)) {
      this.#asked = true;
      this.#cut = this.#replied = this.#words = false;
      this.#open.clear();
      return;
    }
    // Words before a call are no reply to what the call found (trial 85: Gemini's "I'll list
    // the contents…", a listing, and the session's end).
    if (e.kind === "tool_call") this.#words = false;
    if (e.kind === "tool_call" && e.call_id) this.#open.add(e.call_id);
    if (e.kind === "tool_result" && e.call_id) this.#open.delete(e.call_id);
    if (e.kind === "assistant") {
      this.#cut = isCut(e);
      if (e.text.trim() || this.#cut) this.#words = true;
    }
    if (reply) this.#replied = true;
  }

  ending(ctx: EndingContext = {}): Ending {
    if (!this.#asked) return null;
    if (this.#cut) return "mid_reply";
    const src = ctx.source;
    if (src?.sessions === 1 && storeSkips(src.skipped, src.mtime).counts.truncated) {
      return "mid_reply";
    }
    if (this.#replied) {
      // A session whose only call got no result says so too, where the harness records
      // results (trial 89 F4: a Claude session ending on its one call said nothing).
      if (!this.#anyResult && !ctx.recordsResults?.()) return null;
      if (this.#openCall || this.#open.size) return "call_unfinished";
      return this.#words ? null : "calls_only";
    }
    // A store of prompts alone records no reply to any of them: nothing to say.
    if (!this.#anyReply && ctx.recordsReplies && !ctx.recordsReplies()) return null;
    return "unanswered";
  }
}

/**
 * How session `s` of the index ended ({@link endingOf} of its `events`, with its
 * store file's row); null for a day of notes (harness `deja`), which asks nothing.
 * `deja show` and the view's session page both say it.
 */
export function sessionEnding(
  store: Store,
  s: Pick<SessionRow, "harness" | "source">,
  events: Iterable<Pick<EventRow, "kind" | "text" | "data">> | EndingWatch,
): Ending {
  if (s.harness === "deja") return null;
  const w = events instanceof EndingWatch ? events : new EndingWatch();
  if (!(events instanceof EndingWatch)) { for (const e of events) w.see(e); }
  const source = Q.sourceByPath.get(store, { path: s.source });
  return w.ending({
    source,
    recordsReplies: () => recordsReplies(store, s, source),
    recordsResults: () => Q.harnessHasResults.get(store, { harness: s.harness })?.yes === 1,
  });
}

/**
 * Whether the store of session `s` records replies: not a prompt history; one that holds a
 * reply; or a store of a harness whose other stores hold replies (trial 33: a Claude Code
 * session of one prompt and no reply was not unanswered; trial 89 F6: nor, in a Crush
 * database whose sessions were all unanswered, any of them).
 */
function recordsReplies(
  store: Store,
  s: Pick<SessionRow, "harness" | "source">,
  source: Pick<SourceRow, "sessions"> | undefined,
): boolean {
  if (notReopened(s.harness, s.source)?.lives.kind === "prompts") return false;
  if (Q.sourceHasReplies.get(store, { source: s.source })?.yes === 1) return true;
  return source !== undefined &&
    Q.harnessHasReplies.get(store, { harness: s.harness })?.yes === 1;
}

/** What a reader is told of an ending: the line under the last event; null for none. */
export function endingText(e: Ending): string | null {
  return e === "unanswered"
    ? "no reply followed the last message"
    : e === "mid_reply"
    ? "ended mid-reply"
    : e === "call_unfinished"
    ? "no result followed the last tool call"
    : e === "calls_only"
    ? "no reply followed the last tool calls"
    : null;
}

/** Assistant words, a cut reply, or a tool call. */
function isReply(e: Pick<EventRow, "kind" | "text" | "data">): boolean {
  return (e.kind === "assistant" && e.text.trim() !== "") || isCut(e) || e.kind === "tool_call";
}

function isRequest(text: string): boolean {
  const t = text.trim();
  return t !== "" && !t.startsWith("<");
}

/**
 * How session `s` ended, read from its last request on, as a hook can afford: null past `cap`
 * events after that request, for a session with no request, and for a day of notes. With the
 * text of the last notice the harness wrote after the request (its error: `API error: Prompt
 * is too long`), when one.
 */
export function tailEnding(
  store: Store,
  s: Pick<SessionRow, "id" | "harness" | "source">,
  cap = 200,
): { ending: Ending; notice?: string } | null {
  if (s.harness === "deja") return null;
  let from: number | undefined;
  const users = Q.eventsOfKindBackFrom.iterate(store, {
    session: s.id,
    kind: "user",
    after: Number.MIN_SAFE_INTEGER,
  });
  for (const e of users) {
    if (!isRequest(e.text)) continue;
    from = e.seq;
    break;
  }
  if (from === undefined) return null;
  const tail: EventRow[] = [];
  const rows = Q.eventsBetweenSeqs.iterate(store, {
    session: s.id,
    from: from - 1,
    to: Number.MAX_SAFE_INTEGER,
  });
  for (const e of rows) {
    if (tail.length >= cap) return null;
    tail.push(e);
  }
  const notice = tail.findLast((e) => e.kind === "notice")?.text.trim();
  return { ending: sessionEnding(store, s, tail), ...(notice ? { notice } : {}) };
}
