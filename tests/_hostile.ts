/**
 * The hostile inputs every parser must survive, as reusable test cases: bad
 * JSON documents (for stores of one JSON document per session) and bad JSONL
 * (for append-only transcripts). Each helper registers its own `Deno.test`s.
 */
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { Parser, Session, SourceRef } from "../core/model.ts";
import { parseOne, testEnv } from "./_fixture.ts";
import { assert, assertEquals } from "./_assert.ts";
import { tempDir } from "./_tmp.ts";

const env = testEnv("/nonexistent-home");

function temp(): string {
  return tempDir("deja-hostile-");
}

/** Parses `bytes` written as `name` (a `kind` source); returns sessions and skip counts. */
async function parseBytes(
  parser: Parser,
  name: string,
  bytes: Uint8Array | string,
  kind: SourceRef["kind"],
) {
  const dir = temp();
  try {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const { sessions, ctx } = await parseOne(parser, { harness: parser.id, path, kind }, env);
    return { sessions, counts: ctx.counts as Record<string, number>, end: ctx.endOffset };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Document stores: an empty file, invalid JSON, a cut-off document, invalid
 * UTF-8 and an oversized (sparse) file are each counted, never thrown; a JSON
 * document of another shape is counted `unknown_record`.
 */
export function documentHostileTests(parser: Parser, file = "s.json"): void {
  const id = parser.id;
  Deno.test(`${id} counts an empty document as empty when the file has no bytes`, async () => {
    const r = await parseBytes(parser, file, "", "document");
    assertEquals([r.sessions.length, r.counts.empty], [0, 1]);
  });
  Deno.test(`${id} counts a cut-off document as malformed_json when the writer stopped mid-file`, async () => {
    const r = await parseBytes(parser, file, '{"history": [{"message": {"role": "us', "document");
    assertEquals([r.sessions.length, r.counts.malformed_json], [0, 1]);
  });
  Deno.test(`${id} counts invalid UTF-8 when the document has a bad byte`, async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    const r = await parseBytes(parser, file, bytes, "document");
    assertEquals([r.sessions.length, r.counts.invalid_utf8], [0, 1]);
  });
  Deno.test(`${id} counts an unknown document as unknown_record when it is another JSON shape`, async () => {
    const r = await parseBytes(parser, file, '{"kind": "settings", "version": 3}', "document");
    assertEquals([r.sessions.length, r.counts.unknown_record], [0, 1]);
  });
  Deno.test(`${id} counts an oversized document without reading it when it is over the cap`, async () => {
    const dir = temp();
    try {
      const path = join(dir, file);
      closeSync(openSync(path, "w"));
      truncateSync(path, 300 * 2 ** 20); // sparse: no disk used
      const { sessions, ctx } = await parseOne(
        parser,
        { harness: id, path, kind: "document" },
        env,
      );
      assertEquals([sessions.length, ctx.counts.oversized], [0, 1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** How a JSONL transcript is built for {@link jsonlHostileTests}. */
export interface JsonlShape {
  /** File name inside a temp dir (may include a folder, e.g. `-w-x/s.jsonl`). */
  file: string;
  /** The i-th complete record (i from 0): records 0..3 must make one session. */
  record(i: number): unknown;
  /** The session id every pass must give. */
  id: string;
}

/**
 * Append-only transcripts: empty file, truncated last line left for the next
 * pass, malformed and invalid-UTF-8 lines mid-file counted, an unknown first
 * record counted, and a pass resumed from an offset naming the same session.
 */
export function jsonlHostileTests(parser: Parser, shape: JsonlShape): void {
  const id = parser.id;
  const line = (i: number) => JSON.stringify(shape.record(i)) + "\n";
  const ids = (s: Session[]) => s.map((x) => x.id);
  Deno.test(`${id} yields nothing and counts the transcript empty when it has no bytes`, async () => {
    const r = await parseBytes(parser, shape.file.replaceAll("/", "_"), "", "append");
    assertEquals([r.sessions.length, r.counts, r.end], [0, { empty: 1 }, 0]);
  });
  Deno.test(`${id} leaves a truncated last line for the next pass when a write is in progress`, async () => {
    const dir = temp();
    try {
      const path = join(dir, shape.file);
      mkdirSync(join(path, ".."), { recursive: true });
      const full = line(0) + line(1);
      const cut = line(2).slice(0, 10);
      writeFileSync(path, full + cut);
      const src: SourceRef = { harness: id, path, kind: "append" };
      const first = await parseOne(parser, src, env);
      assertEquals(first.ctx.endOffset, new TextEncoder().encode(full).length);
      assertEquals(first.ctx.counts, { partial_line: 1 }, "a partial tail is pending, not lost");
      writeFileSync(path, full + line(2) + line(3));
      const next = await parseOne(parser, src, env, {
        offset: first.ctx.endOffset,
        state: first.ctx.endState,
      });
      assertEquals(ids(next.sessions), [shape.id], "a resumed pass names the same session");
      assert(next.sessions[0].events.length > 0, "the completed line is read on the next pass");
      const whole = await parseOne(parser, src, env);
      assertEquals(ids(whole.sessions), [shape.id]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  Deno.test(`${id} counts a malformed line and an invalid UTF-8 line mid-file and reads the rest`, async () => {
    const bad = new Uint8Array([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a]);
    const enc = new TextEncoder();
    const parts = [
      enc.encode(line(0)),
      enc.encode("{not json\n"),
      bad,
      enc.encode(line(1) + line(3)),
    ];
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
    const r = await parseBytes(parser, shape.file.replaceAll("/", "_"), bytes, "append");
    assertEquals([r.counts.malformed_json, r.counts.invalid_utf8], [1, 1]);
    assertEquals(ids(r.sessions), [shape.id]);
  });
  Deno.test(`${id} counts an unknown first record and still reads the records after it`, async () => {
    const dir = temp();
    try {
      const path = join(dir, shape.file);
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, JSON.stringify({ type: "future-header", v: 9 }) + "\n");
      appendFileSync(path, line(0) + line(1));
      const { sessions, ctx } = await parseOne(parser, { harness: id, path, kind: "append" }, env);
      assertEquals(ctx.counts.unknown_record, 1);
      assertEquals(ids(sessions), [shape.id]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/**
 * Writes `doc` as `name` in a temp dir (with `beside` files next to it, by
 * name), parses it as a `document` source, and returns the first session and
 * the skip counts.
 */
export async function parseDocument(
  parser: Parser,
  name: string,
  doc: unknown,
  beside: Record<string, unknown> = {},
): Promise<{ s?: Session; counts: Record<string, number> }> {
  const dir = temp();
  try {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(doc));
    for (const [file, value] of Object.entries(beside)) {
      writeFileSync(join(dir, file), JSON.stringify(value));
    }
    const { sessions, ctx } = await parseOne(
      parser,
      { harness: parser.id, path, kind: "document" },
      env,
    );
    return { s: sessions[0], counts: ctx.counts as Record<string, number> };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
