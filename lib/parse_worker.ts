/**
 * The parse worker's entry point (lib/parse_pool.ts starts it): reads the
 * sources of a batch (one large, or several small ones) one at a time, in order, with their harness's parser, prepares each session chunk for
 * the writer (lib/prepare.ts: render, cap, redact, tokenise) and posts it back, at most {@link MAX_IN_FLIGHT}
 * (or IN_FLIGHT_BYTES of small ones) unacknowledged at once over all its jobs (it starts the next source while the writer still reads the last one's
 * chunks), so a large store never piles up in memory while the writer is busy.
 *
 * Messages in: `{type: "parse", batch: ParseBatch}` (one posted while another runs waits for it), `{type: "ack", bytes, kept?}` (a chunk of `bytes` taken; the chunks whose tokens the writer kept since the last).
 * Messages out, per job of the batch in its order: `{type: "chunk", seq, head, body}` (the worker's `seq`-th chunk as two
 * strings, lib/chunk_wire.ts: a string crosses a thread for the cost of a copy, and cloning the
 * chunk's objects cost three times the CPU, measured on Bun), then `{type: "done", end: ParseEnd}` or
 * `{type: "error", message}` (a source that fails ends so; the next is parsed).
 *
 * Where a worker's CPU goes (issue 18; the 100 MB bench corpus, 54,508 events of
 * 28.2 M characters of text, the two workers' share replayed in one thread under
 * Bun, min of interleaved runs on a loaded 2-core machine): the whole pipeline
 * ~1.2 s (was ~1.66 s). Reading, JSON.parse and the Claude parser ~0.44 s (of it
 * JSON.parse about two fifths); redaction (lib/redact.ts) ~7.4 ns a character,
 * ~0.21 s (was ~18 ns, ~0.52 s: its prefilter ran at 12.5 ns a character before
 * lib/redact_prefilter.ts, 4.9 after, the high-entropy scan 8.7 then 4.3, then about a quarter of
 * that reading only one character in twenty where no long run can be, lib/redact_entropy.ts
 * `longRuns`);
 * vocabulary tokens (lib/search/tokenize.ts, 21.4 M characters: results'
 * heads and all other texts) ~6 ns a character, ~0.13 s (was ~8.3); the
 * chunk's JSON.stringify ~0.1-0.15 s; signals (lib/search/signals.ts), stored
 * keys, rendering and capping ~0.1 s together. (The chunk's JSON.stringify was since replaced by
 * lib/chunk_wire.ts's encoding, about the same cost.)
 *
 * Measured and not kept (issue 18, Bun, FTL off, one thread, loaded 2-core machine): the lines
 * cut by `Buffer.toString("utf8")` or `utf8Slice` instead of a fatal TextDecoder (a U+FFFD
 * then checked again): 86-122 ms against 96-113 for the corpus's 61k lines, no gain. The
 * corpus with every `toolUseResult` left out of its lines (a third of its bytes, which
 * JSON.parse reads and the parser uses only when a result's text is empty): the compiled
 * binary's full index no faster beyond noise (3 pairs at load 6-7, CPU 5.1-6.6 against
 * 5.6-6.9 s), so cutting it out of each line before parsing would not pay for its scan.
 *
 * @module
 */
import { parentPort } from "node:worker_threads";
import { parserFor } from "../parsers/mod.ts";
import { GarbagePacer, makeEnv } from "../core/runtime.ts";
import type { Env } from "../core/model.ts";
import { SourceCtx } from "./parse_ctx.ts";
import {
  IN_FLIGHT_BYTES,
  MAX_IN_FLIGHT,
  type ParseBatch,
  type ParseJob,
  snapshot,
} from "./parse_job.ts";
import { prepareChunk, SessionSecrets } from "./prepare.ts";
import { encodeChunk, wireBytes } from "./chunk_wire.ts";
import { VocabCollector } from "./search/tokenize.ts";
import { trace, traceNow, tracing } from "../core/trace.ts";

trace("worker loaded");

const vocab = new VocabCollector();

/** Secret values a cue named in the chunks of the session being read (lib/prepare.ts). */
const secrets = new SessionSecrets();

/**
 * Tokens the writer said it kept (lib/parse_run.ts WorkerLane.kept): a chunk
 * of any later session leaves them out, where a session's first chunk would
 * list them all again. Only the writer's word counts: a chunk it did not keep
 * (a session left out, a source dropped) says nothing of its tokens.
 *
 * Measured (issue 18, 2,282 stores of 40 KB, compiled binary, 4 alternating
 * runs): user CPU 4.3-5.2 s against 5.7-6.0, wall 2.9-3.4 s against 3.8-3.95;
 * the tokens crossing to the writer 882 k -> 36 k.
 */
const kept = new VocabCollector();
vocab.known = kept;

/** Tokens {@link kept} holds at most: past it, it starts again (a worker's memory stays bounded). */
export const KEPT_TOKENS = 1 << 17;

/** Chunks {@link unsure} remembers at most (far more than may be in flight). */
const UNSURE_CHUNKS = 1024;

/** This worker's chunks posted, and those whose tokens the writer has not said it kept, oldest first. */
let posted = 0;
const unsure: { seq: number; tokens: string[] }[] = [];

/** The writer kept the tokens of chunk `seq`; those of earlier chunks it did not say it kept, it never will. */
function keptUpTo(seq: number): void {
  while (unsure.length && unsure[0].seq < seq) unsure.shift();
  if (unsure[0]?.seq !== seq) return;
  if (kept.size >= KEPT_TOKENS) kept.clear();
  kept.mark(unsure.shift()!.tokens);
}

/** Chunks posted and not acknowledged, and their bytes of text. */
let inFlight = 0;
let inFlightBytes = 0;

/** Whether a chunk of `bytes` may be posted: under {@link MAX_IN_FLIGHT} chunks, or under IN_FLIGHT_BYTES with it. */
function mayPost(bytes: number): boolean {
  return inFlight < MAX_IN_FLIGHT || inFlightBytes + bytes <= IN_FLIGHT_BYTES;
}

/**
 * Bytes of chunk text this worker sends between two garbage collections,
 * counted over all its jobs: each chunk's JSON text (and the objects it was
 * made of) is garbage once posted, and Bun collects it late. Measured on the
 * 100 MB bench corpus (about 22 MB of chunk text per worker), compiled binary,
 * 4 alternating runs at load 12 on 2 cores: peak RSS 126-131 MB without, 114-119
 * at 4 MB, 108-112 at 1 MB; CPU 4.9, 5.0 and 5.0 s (medians, within noise).
 * Measured again per thread (3 alternating runs at load 8-11): each collection
 * is a full one on the worker's thread, and at 1 MB (~22 a worker) they cost
 * each worker 0.95-1.0 s of CPU against 0.8-0.9 s at 4 MB, for ~6 MB more peak
 * RSS (115 then 121 MB). Since small stores share worker jobs (GROUP_BYTES in
 * lib/parse_pool.ts), 100 MB as 2,460 stores of 40 KB peaked at 143-151 MB with
 * 4 MB, against 140-142 MB at 2 MB (3 alternating runs, load 2-5; wall within
 * noise on both corpora, 67 large stores 118-125 MB): 2 MB keeps both under the
 * issue's 150 MB.
 */
export const WORKER_GC_BYTES = 2 << 20;

const pacer = new GarbagePacer(WORKER_GC_BYTES);
let wake: (() => void) | undefined;

/**
 * Events in the first chunk of this worker's first source (ParseCtx.firstChunkEvents; Claude's
 * chunks hold 256, and its reader doubles the first size at each chunk up to that): the writer,
 * busy from its first chunk to the run's end, waits for it, and this worker's first chunk is
 * prepared with a cold JIT (a first prepareChunk of 32 events took 26-40 ms, the next of 256
 * 10 ms). Traced on the 100 MB bench corpus (DEJA_TRACE_INDEX=1, compiled binary, 4 alternating
 * runs under SCHED_FIFO at load 16-19), the writer's first chunk came 26-33 ms after the worker
 * loaded with 8 events, 30-71 with 32 and 60-148 with 256 (as before); the run ended at
 * 2.56-2.63 s with 8 doubling, 2.44-2.73 s with 256 (medians 2.59 and 2.71 s, within noise).
 */
export const FIRST_CHUNK_EVENTS = 8;

/** Whether this worker has not begun a source yet. */
let firstSource = true;

async function run(job: ParseJob, env: Env): Promise<void> {
  const port = parentPort!;
  const parser = parserFor(job.parser);
  if (!parser) throw new Error(`no parser '${job.parser}'`);
  const ctx = new SourceCtx(
    env,
    job.offset,
    job.state,
    job.since,
    job.held ? new Set(job.held) : undefined,
  );
  if (firstSource) ctx.firstChunkEvents = FIRST_CHUNK_EVENTS;
  firstSource = false;
  // The trace's wait: time this job's chunks waited for the writer's credit.
  let waited = 0;
  if (tracing) trace(`parse ${job.src.path}`);
  for await (const chunk of parser.parse(job.src, ctx)) {
    // Prepared before waiting for credit: the next chunk is ready when the writer asks.
    const ready = prepareChunk(
      chunk,
      vocab,
      job.label,
      (where, detail) => ctx.skip("cut_long", where, detail),
      secrets,
    );
    const wire = encodeChunk(ready);
    const bytes = wireBytes(wire);
    const at = traceNow();
    while (!mayPost(bytes)) await new Promise<void>((r) => (wake = r));
    if (tracing) waited += traceNow() - at;
    inFlight++;
    inFlightBytes += bytes;
    const seq = ++posted;
    if (ready.tokens.length) unsure.push({ seq, tokens: ready.tokens });
    // Chunks the writer never keeps (a project left out) are not held for ever: the oldest go,
    // their tokens sent again when met again.
    if (unsure.length > UNSURE_CHUNKS) unsure.shift();
    port.postMessage({ type: "chunk", seq, head: wire.head, body: wire.body, at: ctx.endOffset });
    pacer.took(bytes);
  }
  port.postMessage({ type: "done", end: snapshot(ctx) });
  if (tracing) trace(`parsed ${job.src.path} waited ${waited.toFixed(1)}`);
}

/** The batch's jobs in order: each ends with its end or its own error, then the next starts. */
async function runAll(batch: ParseBatch): Promise<void> {
  const env = makeEnv(batch.vars, batch.home);
  trace(`batch of ${batch.jobs.length}`);
  for (const job of batch.jobs) {
    vocab.clear(); // a token crosses once per session's chunks of a job (lib/prepare.ts)
    vocab.owner = undefined;
    secrets.owner = undefined;
    try {
      await run(job, env);
    } catch (e) {
      parentPort!.postMessage({ type: "error", message: (e as Error)?.message ?? String(e) });
    }
  }
}

/** The batches posted, run one after the other. */
let queue: Promise<void> = Promise.resolve();

parentPort?.on("message", (
  m: { type: string; batch?: ParseBatch; bytes?: number; kept?: number[] },
) => {
  if (m.type === "ack") {
    for (const seq of m.kept ?? []) keptUpTo(seq);
    inFlight--;
    inFlightBytes -= m.bytes ?? 0;
    const w = wake;
    wake = undefined;
    w?.();
    return;
  }
  if (m.type !== "parse" || !m.batch) return;
  // No fresh credit per batch: chunks of the last one the writer has not taken yet still count.
  // A batch posted while one runs (lib/parse_pool.ts JOB_DEPTH) starts when that one ends.
  const batch = m.batch;
  queue = queue.then(() => runAll(batch));
});
