import { assertEquals, assertStringIncludes } from "../tests/_assert.ts";
import { makeEnv } from "../core/runtime.ts";
import { MAX_DRIFT_NOTES, mergeDrift, SourceCtx } from "./parse_ctx.ts";

const env = makeEnv({ HOME: "/home/ann" }, "/home/ann");

Deno.test("an unknown_record skip is noted as content drift at its location", () => {
  const ctx = new SourceCtx(env);
  ctx.version("1.2.3");
  ctx.skip("unknown_record", "/s.jsonl@40", "type foo");
  ctx.skip("bad_shape", "/s.jsonl@80", "not an object");
  ctx.skip("unknown_schema", "/s.db", "no messages table");
  assertEquals(ctx.drifted(), {
    counts: { content: 1, discovery: 1 },
    notes: [
      { kind: "content", where: "/s.jsonl@40", detail: "type foo", count: 1, version: "1.2.3" },
      {
        kind: "discovery",
        where: "/s.db",
        detail: "no messages table",
        count: 1,
        version: "1.2.3",
      },
    ],
    version: "1.2.3",
  });
  assertEquals(ctx.counts, { unknown_record: 1, bad_shape: 1, unknown_schema: 1 });
});

Deno.test("a parser's own drift note replaces the default of a skip at the same place", () => {
  const ctx = new SourceCtx(env);
  ctx.drift("roles", "/s.jsonl@0", "role critic");
  ctx.skip("unknown_record", "/s.jsonl@0", "role critic");
  assertEquals(ctx.drifted().notes.map((n) => n.kind), ["roles"]);
  assertEquals(ctx.counts.unknown_record, 1);
});

Deno.test("drift notes merge by kind and detail and stop at the cap when a store repeats them", () => {
  const ctx = new SourceCtx(env);
  ctx.drift("content", "/s.jsonl@0", "type a");
  ctx.drift("content", "/s.jsonl@9", "type a");
  for (let i = 0; i < MAX_DRIFT_NOTES + 3; i++) ctx.drift("content", `/s.jsonl@${i}`, `t${i}`);
  const d = ctx.drifted();
  assertEquals(d.notes.length, MAX_DRIFT_NOTES);
  assertEquals(d.notes[0], { kind: "content", where: "/s.jsonl@0", detail: "type a", count: 2 });
  assertEquals(d.counts.content, MAX_DRIFT_NOTES + 5);
});

Deno.test("a drift sample is redacted and home-relative when the parser gives one", () => {
  const ctx = new SourceCtx(env);
  ctx.drift("session_metadata", "/p/c.db: s.x", "column s.x", {
    example: "token=ghp_" + "a1".repeat(20),
    at: "/home/ann/p",
  });
  const sample = ctx.drifted().notes[0].sample ?? "";
  assertStringIncludes(sample, "[redacted:");
  assertStringIncludes(sample, '"at":"~/p"');
});

Deno.test("mergeDrift adds a resumed pass to the earlier one and keeps the first location", () => {
  const a = new SourceCtx(env);
  a.version("1.0");
  a.drift("content", "/s.jsonl@0", "type a");
  const b = new SourceCtx(env);
  b.drift("content", "/s.jsonl@500", "type a");
  b.drift("roles", "/s.jsonl@600", "role r");
  const m = mergeDrift(a.drifted(), b.drifted());
  assertEquals(m.counts, { content: 2, roles: 1 });
  assertEquals(m.notes.map((n) => [n.where, n.count]), [["/s.jsonl@0", 2], ["/s.jsonl@600", 1]]);
  assertEquals(m.version, "1.0");
  assertEquals(mergeDrift(undefined, b.drifted()), b.drifted());
});
