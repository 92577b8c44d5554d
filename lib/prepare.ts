/**
 * Everything ingest does to a session chunk that needs no database: label a
 * remote's session, normalise its project, render and cap each event's text,
 * redact it and every derived value, collect its vocabulary tokens and judge
 * its signals. The result is plain data, so it is made where the chunk was
 * parsed (the parse worker, lib/parse_worker.ts, for large stores) and the
 * writer (lib/ingest.ts) only inserts rows.
 *
 * @module
 */
import type { EditSpan, Event, Session } from "../core/model.ts";
import {
  type FoundSecrets,
  namedByCue,
  namedIn,
  redact,
  type RedactionCounts,
  redactRepeats,
} from "./redact.ts";
import { renderCall } from "./render.ts";
import { eventFlags } from "./search/signals.ts";
import { VocabCollector } from "./search/tokenize.ts";
import { normalizeProject } from "./project_path.ts";
import { stripFrames } from "../core/frame.ts";
import { cap, cutsIn, KEEP_CHARS } from "../core/text.ts";
import { stripEscapes } from "../core/terminal.ts";
import { type Label, labelSession } from "./remote/label.ts";

export { cap };

/** Cap on speech and summary text stored per event: 64 KiB of characters. */
export const MAX_TEXT = 64 * 1024;
/** Cap on tool output stored per result (head and tail kept): 16 KiB of characters. */
export const MAX_RESULT = 16 * 1024;
/** Cap on an edit span or written content kept for `restore`: 1 MiB of characters (the largest cap). */
export const MAX_SPAN = KEEP_CHARS;
/** Longest call input (JSON, characters) kept in `events.data`. */
export const MAX_DATA = 4000;
/**
 * How much of one tool result feeds the vocabulary, in characters: its head.
 * The whole text is indexed for search; only the vocabulary (substring and
 * spelling tiers) skips the rest of long outputs, which are mostly data. (The
 * vocabulary is the largest cost it adds to indexing: 1 KiB heads keep it
 * near a tenth; whole outputs cost about a seventh.)
 */
export const VOCAB_RESULT_HEAD = 1024;

/**
 * Where a name written joined in mixed case changes case (`authorizeWithYNAB`,
 * `isSyncingBackfillForMonth`, `YNABClient`): {@link vocabText}.
 */
const CASE_CHANGE = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/g;

/** Whether the UTF-16 unit `c` is an ASCII letter or digit. */
const alnum = (c: number) => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122);

/**
 * The text of an event that feeds the vocabulary: all of it, but of a tool result longer
 * than {@link VOCAB_RESULT_HEAD} its head and the names of the rest written joined in mixed
 * case (lib/search/vocab_rebuild.ts makes it again the same way). A piece of such a name
 * typed back (`withYN`, `authorizeWith` of `authorizeWithYNAB`) is found only through the
 * vocabulary (trial 118 F2: a name 1.9 KB into a file read was found by no piece of it, and
 * `withYN` was "corrected" to `within`). Found from each change of case, not by a pattern
 * spanning the name: that one cost ~15 ns a character, this ~2.
 */
export function vocabText(kind: string, text: string): string {
  if (kind !== "tool_result" || text.length <= VOCAB_RESULT_HEAD) return text;
  const names: string[] = [];
  const re = new RegExp(CASE_CHANGE);
  re.lastIndex = VOCAB_RESULT_HEAD;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let a = m.index, b = m.index + m[0].length;
    while (a > 0 && alnum(text.charCodeAt(a - 1))) a--;
    while (b < text.length && alnum(text.charCodeAt(b))) b++;
    names.push(text.slice(a, b));
    re.lastIndex = b;
  }
  const head = text.slice(0, VOCAB_RESULT_HEAD);
  return names.length ? `${head} ${names.join(" ")}` : head;
}

/**
 * The form of a parser's dedupe key stored in `events.key`: the key itself
 * when short (16 characters or fewer, not starting with `~`), else `~` and a
 * 64-bit digest in base 36 (about 15 characters; Claude Code's keys are ~80).
 * Two keys of one session share a digest with odds near 2^-64 per pair.
 * Indexes written before digests keep their long keys; lookups try both forms.
 * (Measured and not kept: the two halves in base 36 by hand instead of
 * `toString(36)`, 54k keys of 55 characters under Bun: 38-295 ms against 21-151, slower.)
 */
export function storedKey(key: string): string {
  if (key.length <= 16 && key[0] !== "~") return key;
  let a = 0x811c9dc5 | 0; // signed: a small integer to the JIT, the same bits
  let b = 0x9747b28c | 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return `~${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}`;
}

/** A file touch of a call or result, its spans redacted and capped. */
export interface PreparedFile {
  path: string;
  op: "read" | "edit" | "write";
  old: string | null;
  new: string | null;
}

/** One event ready for the `events` row and its derived rows. */
export interface PreparedEvent {
  kind: Event["kind"];
  /** Rendered, capped and redacted. */
  text: string;
  time: number | null;
  /** The parser's dedupe key as stored ({@link storedKey}). */
  key: string | null;
  /** The parser's key itself when it differs from {@link key} (an older index stored it whole). */
  longKey?: string;
  tool: string | null;
  callId: string | null;
  /** JSON: a call's decoded input (redacted; null when over {@link MAX_DATA}), a result's status. */
  data: string | null;
  /** lib/search/signals.ts bits. */
  flags: number;
  /** A call's shell command (redacted, capped). */
  command?: string;
  /** A call's reads, edits and writes, a result's edits. */
  files?: PreparedFile[];
  /**
   * A result's status, applied to its call's command and file rows (`notRun`: the call
   * never ran, so it keeps no command row).
   */
  result?: { exit?: number; isError?: boolean; notRun?: boolean; overwritten?: string };
  /** The model of the reply (`Event.model`); the writer keeps it where it changes. */
  model?: string;
}

/** A session chunk ready to write: the session's fields, its events, what redaction and tokens it adds. */
export interface PreparedChunk extends Omit<Session, "events"> {
  events: PreparedEvent[];
  /** Secrets replaced in the events' texts, by kind (derived copies are not counted again). */
  redactions: RedactionCounts;
  /**
   * Vocabulary tokens of the events' texts (lib/search/vocab.ts) that the
   * collector passed to {@link prepareChunk} had not seen, each once.
   */
  tokens: string[];
  /**
   * Secret values a cue named in this chunk (value, kind) that the session's earlier chunks
   * of this read did not name: the writer masks them where the index holds them bare already
   * (its earlier chunks, or a part of the session an earlier run read; lib/ingest.ts). They
   * cross to the writer in memory only and are never stored. Absent when there are none.
   */
  named?: [string, string][];
  /**
   * Called by the writer once it took {@link tokens} into its vocabulary: the
   * parse worker that sent them then leaves them out of the chunks it prepares
   * next, of any session (lib/parse_worker.ts). Absent where no worker waits to hear.
   */
  kept?: () => void;
  /**
   * An append store's byte the parse had reached when this chunk was yielded (its
   * `ctx.endOffset` then): the progress line shows how far a big store is read (trial 122 F2).
   * Absent for other kinds of store.
   */
  at?: number;
}

/**
 * Secret values a cue named (lib/redact.ts `namedByCue`) in the chunks of one session
 * prepared so far, masked where its later chunks repeat them bare: parsers yield a large
 * session in several chunks (lib/parse_worker.ts, lib/parse_pool.ts keep one of these per
 * reader, as they keep a {@link VocabCollector}). In memory only; another session starts it
 * again. Values of the other kinds are not kept: their own form finds them anywhere.
 */
export class SessionSecrets {
  /** The session the values belong to (`harness\u0000id`). */
  owner: string | undefined;
  /** At most {@link MAX_SESSION_SECRETS}. */
  readonly values: FoundSecrets = new Map();
}

/**
 * Values a {@link SessionSecrets} keeps per session: past it, a value found later is masked
 * in its own chunk only (trial 111 F5 named one; each kept value costs every later chunk of
 * the session a little of its scan for repeats).
 */
export const MAX_SESSION_SECRETS = 256;

/**
 * Prepares one chunk. `vocab` collects the chunk's tokens: the chunk lists
 * those `vocab` had not seen since the chunks of this session began (a run of
 * chunks of one session, as parsers yield them, shares the collector; another
 * session starts it again). So a token crosses to the writer once per session,
 * not once per chunk (the 100 MB bench corpus: ~226 k tokens, was ~393 k).
 * A parse worker's collector also leaves out the tokens the writer said it
 * kept, whatever their session ({@link VocabCollector.known}, lib/parse_worker.ts).
 * The writer takes a session's chunks all or none (lib/ingest.ts), so a token
 * left out of a later chunk is never missing from `vocab`.
 *
 * `secrets` is shared by the chunks of a session the same way: a value a cue named in an
 * earlier chunk is masked where a later one repeats it bare (trial 111 F5: a password named
 * in a 1.2 MB session's first event was stored in clear where its last repeated it).
 */
export function prepareChunk(
  chunk: Session,
  vocab: VocabCollector = new VocabCollector(),
  label?: Label,
  cut?: CutReport,
  secrets: SessionSecrets = new SessionSecrets(),
): PreparedChunk {
  const c = label ? labelSession(label, chunk) : chunk;
  const redactions: RedactionCounts = {};
  const quiet: RedactionCounts = {};
  const owner = `${c.harness}\u0000${c.id}`;
  if (vocab.owner !== owner) {
    vocab.clear();
    vocab.owner = owner;
  }
  if (secrets.owner !== owner) {
    secrets.values.clear();
    secrets.owner = owner;
  }
  // Two passes: the first redacts each event's text and notes the secrets found; the second
  // masks those values, and those the session's earlier chunks named, where an event repeats
  // them with no cue (before or after the cue).
  const found: FoundSecrets = new Map(secrets.values);
  const texts = c.events.map((e) => redact(eventText(e, found), redactions, found));
  const named: [string, string][] = [];
  for (const [v, kind] of found) {
    if (!namedByCue(kind) || secrets.values.has(v)) continue;
    if (named.length < MAX_SESSION_SECRETS) named.push([v, kind]);
    if (secrets.values.size < MAX_SESSION_SECRETS) secrets.values.set(v, kind);
  }
  if (cut) reportCuts(c, texts, cut);
  const again = redactRepeats(found);
  const clean = again ?? ((t: string) => t);
  const events = c.events.map((e, i) =>
    prepareEvent(
      e,
      clean(texts[i], redactions),
      vocab,
      (t) => clean(redact(t, quiet), quiet),
    )
  );
  const { events: _, ...session } = c;
  return {
    ...session,
    ...(c.project ? { project: normalizeProject(c.project) } : {}),
    ...(c.title ? { title: clean(redact(c.title.slice(0, 500), quiet), quiet) } : {}),
    events,
    redactions,
    tokens: vocab.take(),
    ...(named.length ? { named } : {}),
  };
}

/**
 * Told of each event whose text the index keeps shortened (`where`: its store and
 * session; `detail`: how much is not searchable): a parse's `SourceCtx.skip("cut_long")`.
 */
export type CutReport = (where: string, detail: string) => void;

/** Tells `cut` of each event of `c` whose text (`texts`, in order) holds a cut. */
function reportCuts(c: Session, texts: readonly string[], cut: CutReport): void {
  texts.forEach((t, i) => {
    if (!t.includes(" characters cut] …")) return;
    const { chars, marks } = cutsIn(t);
    if (!chars) return;
    const e = c.events[i];
    cut(
      `${c.path} (session ${c.id}, ${e.kind}${e.time ? ` at ${iso(e.time)}` : ""})`,
      `${chars} characters in its middle are not searchable; the index keeps the ${
        t.length - marks
      } around them; the store itself holds it whole`,
    );
  });
}

/** Epoch ms as ISO time, or the number when it is no valid time. */
function iso(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}

/**
 * An event's searchable text, rendered and capped (not yet redacted). The values a cue names
 * in the part the cap cuts away are added to `found` (trial 114 F2: a URL's password in the
 * middle of a 40 KB output stayed bare where the session repeated it); that part is not kept.
 */
function eventText(e: Event, found: FoundSecrets): string {
  if (e.kind === "tool_call" && e.tool) {
    return capNamed(stripEscapes(e.text || renderCall(e.tool)), MAX_TEXT, 0.25, found);
  }
  // Terminal escapes (colours) are no words: a phrase copied from a terminal matches.
  if (e.kind === "tool_result") {
    return capNamed(stripFrames(stripEscapes(e.text)), MAX_RESULT, 0.25, found);
  }
  // deja's own recall, echoed back by a harness, is not new history (core/frame.ts).
  return capNamed(stripFrames(stripEscapes(e.text)), MAX_TEXT, 0.1, found);
}

/** Characters of the kept head and tail scanned again with the cut middle: a cue across the cut. */
const CUT_EDGE = 256;

/**
 * {@link cap}, adding to `found` the values cues name in the middle it cuts ({@link namedIn}:
 * the rules' prefilter and scan, ~5 ns a character where nothing may be a secret).
 */
function capNamed(text: string, max: number, tailShare: number, found: FoundSecrets): string {
  if (text.length <= max) return text;
  const tail = Math.floor(max * tailShare);
  namedIn(text.slice(Math.max(0, max - tail - CUT_EDGE), text.length - tail + CUT_EDGE), found);
  return cap(text, max, tailShare);
}

/**
 * One event made ready: `text` is its redacted text; `scrub` redacts a derived
 * value. Only the event text counts towards the per-source figures: the same
 * secret also lands in derived rows (command, edit span, title) and would be
 * counted again there.
 */
function prepareEvent(
  e: Event,
  text: string,
  vocab: VocabCollector,
  scrub: (s: string) => string,
): PreparedEvent {
  vocab.add(vocabText(e.kind, text));
  const failed = e.result !== undefined &&
    (e.result.isError === true || (e.result.exit !== undefined && e.result.exit !== 0));
  const r = (s: string, max: number) => scrub(cap(s, max));
  const out: PreparedEvent = {
    kind: e.kind,
    text,
    time: e.time ?? null,
    key: e.key === undefined ? null : storedKey(e.key),
    tool: e.tool?.name ?? null,
    callId: e.kind === "tool_call" ? e.tool?.id ?? null : e.result?.callId ?? null,
    data: null,
    flags: eventFlags(e.kind, text, failed),
  };
  if (e.key !== undefined && out.key !== e.key) out.longKey = e.key;
  if (e.model) out.model = e.model;
  const files: PreparedFile[] = [];
  const edit = (ed: EditSpan): PreparedFile => ({
    path: ed.path,
    op: "edit",
    old: r(ed.old, MAX_SPAN),
    new: r(ed.new, MAX_SPAN),
  });
  if (e.kind === "tool_call" && e.tool) {
    const t = e.tool;
    if (t.input !== undefined) {
      const j = JSON.stringify(t.input);
      out.data = j !== undefined && j.length <= MAX_DATA ? scrub(j) : null;
    }
    if (t.command) out.command = r(t.command, MAX_TEXT);
    for (const p of t.paths ?? []) files.push({ path: p, op: "read", old: null, new: null });
    for (const ed of t.edits ?? []) files.push(edit(ed));
    for (const w of t.writes ?? []) {
      files.push({ path: w.path, op: "write", old: null, new: r(w.content, MAX_SPAN) });
    }
  } else if (e.kind === "assistant" && e.cut) {
    out.data = '{"cut":true}';
  } else if (e.kind === "tool_result" && e.result) {
    const { exit, isError, notRun } = e.result;
    // A write that made its file says so in its status (lib/memory/restore.ts reads it).
    const made = e.result.created && !notRun ? { created: true } : {};
    out.data = JSON.stringify(notRun ? { exit, isError, notRun } : { exit, isError, ...made });
    out.result = notRun ? { exit, isError, notRun } : { exit, isError };
    // What a write replaced: capped and redacted as an edit's replaced text is.
    if (e.result.overwritten !== undefined && !notRun) {
      out.result.overwritten = r(e.result.overwritten, MAX_SPAN);
    }
    for (const ed of e.result.edits ?? []) files.push(edit(ed));
  }
  if (files.length) out.files = files;
  return out;
}
