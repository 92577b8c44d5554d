import { assertEquals } from "../tests/_assert.ts";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readJsonl } from "./_jsonl.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { testEnv } from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";

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

Deno.test("readJsonl skips a line of invalid UTF-8 and keeps the rest", async () => {
  const bad = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]);
  const good = new TextEncoder().encode('{"a":"ok"}\n');
  const { values, ctx } = await read(file(new Uint8Array([...good, ...bad, ...good])));
  assertEquals(values, [{ a: "ok" }, { a: "ok" }]);
  assertEquals(ctx.counts.invalid_utf8, 1);
});

Deno.test("readJsonl skips an oversized line without holding it and reads the next", async () => {
  const big = `{"x":"${"y".repeat(5000)}"}\n`;
  const { values, ctx } = await read(file(big + '{"a":3}\n'), 0, 1000);
  assertEquals(values, [{ a: 3 }]);
  assertEquals(ctx.counts.oversized, 1);
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
