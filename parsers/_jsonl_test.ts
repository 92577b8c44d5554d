import { assertEquals } from "../tests/_assert.ts";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readJsonl, readLines, STREAM_LINE_BYTES } from "./_jsonl.ts";
import { cap, KEEP_CHARS } from "../core/text.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { testEnv } from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";

const enc = new TextEncoder();

function file(content: string | Uint8Array): string {
  const p = join(tempDir("deja-jsonl-"), "a.jsonl");
  writeFileSync(p, content);
  return p;
}

async function read(path: string, offset = 0, maxLine?: number) {
  const ctx = new SourceCtx(testEnv("/nonexistent"), offset);
  const values: unknown[] = [];
  for await (const r of readJsonl(path, ctx, maxLine)) values.push(r.value);
  return { values, ctx };
}

Deno.test("readJsonl skips a malformed line mid-file and goes on", async () => {
  const { values, ctx } = await read(file('{"a":1}\n{oops\n{"a":2}\n'));
  assertEquals(values, [{ a: 1 }, { a: 2 }]);
  assertEquals(ctx.counts.malformed_json, 1);
  assertEquals(ctx.endOffset, 22);
});

Deno.test("readJsonl leaves an unterminated last line for the next run", async () => {
  const p = file('{"a":1}\n{"a":');
  const { values, ctx } = await read(p);
  assertEquals(values, [{ a: 1 }]);
  assertEquals(ctx.endOffset, 8);
});

Deno.test("readJsonl takes a complete last record that has no newline yet", async () => {
  const { values, ctx } = await read(file('{"a":1}\n{"a":2}'));
  assertEquals(values, [{ a: 1 }, { a: 2 }]);
  assertEquals(ctx.endOffset, 15);
});

Deno.test("readJsonl reads a line with invalid UTF-8 in a string with U+FFFD, keeps it and counts it once", async () => {
  // {"a":"x\xff\xfe\xc3 word"}: the bytes before a word in a message's text.
  const bad = new Uint8Array([
    ...enc.encode('{"a":"x'),
    0xff,
    0xfe,
    0xc3,
    ...enc.encode(' word"}\n'),
  ]);
  const good = enc.encode('{"a":"ok"}\n');
  const { values, ctx } = await read(file(new Uint8Array([...good, ...bad, ...good])));
  assertEquals(values, [{ a: "ok" }, { a: "x\ufffd\ufffd\ufffd word" }, { a: "ok" }]);
  assertEquals(ctx.counts, { invalid_utf8: 1 });
});

Deno.test("readJsonl counts a line whose bad bytes break its JSON once, as malformed_json", async () => {
  const bad = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]); // {"\xff\xfe"}
  const { values, ctx } = await read(file(new Uint8Array([...bad, ...enc.encode('{"a":1}\n')])));
  assertEquals(values, [{ a: 1 }]);
  assertEquals(ctx.counts, { malformed_json: 1 });
});

Deno.test("readJsonl counts a line over the cap that is not JSON as oversized and reads the next", async () => {
  const big = `{"x":"${"y".repeat(5000)}"}\n`;
  const { values, ctx } = await read(file(big.slice(0, 3000) + '\n{"a":3}\n'), 0, 1000);
  assertEquals(values, [{ a: 3 }]);
  assertEquals(ctx.counts.oversized, 1);
});

Deno.test("readJsonl reads a line over the cap in pieces, its long strings cut as the index would", async () => {
  const text = "y".repeat(KEEP_CHARS + 5000);
  const { values, ctx } = await read(file(`{"x":"${text}","n":2}\n{"a":3}\n`), 0, 1000);
  assertEquals(values, [{ x: cap(text, KEEP_CHARS), n: 2 }, { a: 3 }]);
  assertEquals(ctx.skipped, 0);
});

Deno.test("readJsonl counts a long line that is not JSON, keeps one with bad UTF-8, and reads on", async () => {
  const long = "z".repeat(STREAM_LINE_BYTES + 10);
  const bad = enc.encode(`{"x":"${long}"\n`);
  const notUtf8 = new Uint8Array([...enc.encode(`{"x":"${long}`), 0xff, 0x22, 0x7d, 0x0a]);
  const p = file(new Uint8Array([...bad, ...notUtf8, ...enc.encode('{"a":4}\n')]));
  const { values, ctx } = await read(p);
  assertEquals(values.length, 2);
  assertEquals((values[0] as { x: string }).x.endsWith("zz\ufffd"), true);
  assertEquals(values[1], { a: 4 });
  assertEquals([ctx.counts.malformed_json, ctx.counts.invalid_utf8], [1, 1]);
});

Deno.test("readJsonl leaves a long unterminated last line for the next pass, then reads it", async () => {
  const long = "w".repeat(STREAM_LINE_BYTES + 10);
  const p = file(`{"a":1}\n{"x":"${long}`);
  const first = await read(p);
  // Counted pending (`partial_line`), not consumed.
  assertEquals([first.values, first.ctx.endOffset, first.ctx.counts], [[{ a: 1 }], 8, {
    partial_line: 1,
  }]);
  writeFileSync(p, '"}\n', { flag: "a" });
  const next = await read(p, first.ctx.endOffset);
  assertEquals(next.values, [{ x: cap(long, KEEP_CHARS) }]);
  assertEquals(next.ctx.endOffset, 8 + long.length + 9);
});

Deno.test("readJsonl strips a BOM and ignores blank lines", async () => {
  const { values, ctx } = await read(file('\uFEFF{"a":1}\n\n  \n{"a":2}\n'));
  assertEquals(values, [{ a: 1 }, { a: 2 }]);
  assertEquals(ctx.skipped, 0);
});

Deno.test("readJsonl resumes from an offset", async () => {
  const { values } = await read(file('{"a":1}\n{"a":2}\n'), 8);
  assertEquals(values, [{ a: 2 }]);
});

Deno.test("readJsonl reads an empty file as nothing", async () => {
  const { values, ctx } = await read(file(""));
  assertEquals(values, []);
  assertEquals(ctx.endOffset, 0);
});

Deno.test("readLines skips a line over the cap that spans many reads, holding none of it", async () => {
  // The scale run's 200 MB line, in small: a 3 MB line (twelve 256 KiB reads) over a 100 kB cap,
  // then a line of 600 kB (three reads) under a 1 MB cap, joined whole.
  const p = join(tempDir("deja-jsonl-"), "long.jsonl");
  const long = `{"x":"${"y".repeat(3_000_000)}"}\n`;
  const mid = `{"m":"${"z".repeat(600_000)}"}\n`;
  writeFileSync(p, '{"a":1}\n' + long + mid + '{"a":2}\n' + long.slice(0, 500_000));
  const lines = [];
  for await (const l of readLines(p, 0, 100_000)) lines.push(l);
  assertEquals(lines.map((l) => [l.oversized, l.bytes.length, l.partial]), [
    [false, 7, false],
    [true, 0, false],
    [true, 0, false],
    [false, 7, false],
    [true, 0, true],
  ]);
  assertEquals(lines[2].start, 8 + long.length);
  assertEquals(lines[3].end, 8 + long.length + mid.length + 8);
  const under = [];
  for await (const l of readLines(p, 8 + long.length, 1_000_000)) under.push(l);
  assertEquals(under[0].bytes.length, mid.length - 1);
  // readJsonl reads both long lines in pieces instead (their strings cut as the index would).
  const { values, ctx } = await read(p, 0, 100_000);
  const y = "y".repeat(3_000_000);
  assertEquals(values, [{ a: 1 }, { x: cap(y, KEEP_CHARS) }, { m: "z".repeat(600_000) }, { a: 2 }]);
  // The unterminated tail is left for the next pass: counted pending, not consumed.
  assertEquals(ctx.counts, { partial_line: 1 });
  assertEquals(ctx.endOffset, 8 + long.length + mid.length + 8);
});

Deno.test("readJsonl counts a file of random bytes once, as not_jsonl, not line by line", async () => {
  // Deterministic noise with a newline now and then, and NUL bytes: no JSON in it.
  const noise = new Uint8Array(200_000);
  let x = 12345;
  for (let i = 0; i < noise.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    noise[i] = x >>> 24;
  }
  const p = file(noise);
  const { values, ctx } = await read(p);
  assertEquals(values, []);
  assertEquals(ctx.counts, { not_jsonl: 1 });
  assertEquals(ctx.endOffset, 0);
  assertEquals(ctx.examples[0].includes(p), true);
});

Deno.test("readJsonl counts a text file that is not JSON once, even with an unfinished last line", async () => {
  const { values, ctx } = await read(file("hello\nthis is\n5\nnot json\nat all"));
  assertEquals(values, []);
  assertEquals(ctx.counts, { not_jsonl: 1 });
});

Deno.test("readJsonl counts lines one by one in a JSONL file whose first line is bad", async () => {
  const lines = ["{oops", '{"a":1}', "{bad", '{"a":2}', '{"a":3}'];
  const { values, ctx } = await read(file(lines.join("\n") + '\n{"a":'));
  assertEquals(values, [{ a: 1 }, { a: 2 }, { a: 3 }]);
  assertEquals(ctx.counts, { malformed_json: 2, partial_line: 1 });
});

Deno.test("readJsonl judges a file past its first 16 lines as JSONL when enough of them parse", async () => {
  const lines = ["{oops", ...Array.from({ length: 20 }, (_, i) => `{"n":${i}}`)];
  const { values, ctx } = await read(file(lines.join("\n") + "\n"));
  assertEquals(values.length, 20);
  assertEquals(ctx.counts, { malformed_json: 1 });
});

Deno.test("readJsonl counts a zero-filled file with no newline as not_jsonl, not as being written", async () => {
  const p = file(new Uint8Array(100_000));
  const { values, ctx } = await read(p);
  assertEquals(values, []);
  assertEquals(ctx.counts, { not_jsonl: 1 });
  assertEquals(ctx.examples, [`not_jsonl at ${p}: not JSONL: its one line is not a JSON record`]);
});

Deno.test("readJsonl counts a zero-filled tail after records as damage, not as a line being written", async () => {
  const p = file(new Uint8Array([...enc.encode('{"a":1}\n'), ...new Uint8Array(5000)]));
  const { values, ctx } = await read(p);
  assertEquals(values, [{ a: 1 }]);
  assertEquals(ctx.counts, { malformed_json: 1 });
});

Deno.test("readJsonl counts a long unterminated line already broken before its end as damage", async () => {
  const long = "q".repeat(STREAM_LINE_BYTES + 10);
  const { values, ctx } = await read(file(`{"a":1}\n{"x" 1, "y":"${long}`));
  assertEquals(values, [{ a: 1 }]);
  assertEquals(ctx.counts, { malformed_json: 1 });
});

Deno.test("readLines reads on past the size a small file had when opened, a line across reads", () => {
  // Its buffer is sized to the file (16 KiB at least): a file appended to while read is read on.
  const p = join(tempDir("deja-jsonl-"), "grow.jsonl");
  writeFileSync(p, '{"a":1}\n');
  const it = readLines(p);
  const first = it.next();
  assertEquals(first.done ? null : new TextDecoder().decode(first.value.bytes), '{"a":1}');
  const big = `{"b":"${"q".repeat(40_000)}"}`;
  appendFileSync(p, big + '\n{"c":3}\n');
  const rest = [...it].map((l) => [l.bytes.length, l.partial]);
  assertEquals(rest, [[big.length, false], [7, false]]);
});

Deno.test("readJsonl reads a whole record written on after a torn one on its line (trials 34, 36)", async () => {
  // A harness that died mid-line and wrote its next record on, with no newline between.
  const torn = '{"type":"user","message":{"content":"the first half of a rec';
  const { values, ctx } = await read(file(`{"a":1}\n${torn}{"a":2,"é":"x"}\n{"a":3}\n`));
  assertEquals(values, [{ a: 1 }, { a: 2, "é": "x" }, { a: 3 }]);
  assertEquals(ctx.counts.malformed_json, 1);
  // Where the record starts: after the torn bytes.
  const starts: number[] = [];
  const ctx2 = new SourceCtx(testEnv("/nonexistent"), 0);
  for await (const r of readJsonl(file(`${torn}{"a":2}\n`), ctx2)) starts.push(r.start);
  assertEquals(starts, [enc.encode(torn).length]);
  // A line of no whole record is skipped as before.
  assertEquals((await read(file('{"a":1}\n{"b":{"c"\n'))).values, [{ a: 1 }]);
});
