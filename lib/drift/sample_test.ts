import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonlWhere, pasteable, recordAt, SAMPLE_LIMITS } from "./sample.ts";
import { tempDir } from "../../tests/_tmp.ts";

const KEY = "sk-ant-" + "Ab9".repeat(10);

Deno.test("pasteable redacts a secret before cutting when the cut would split it", () => {
  const text = "y".repeat(SAMPLE_LIMITS.string - 10) + " " + KEY + " tail";
  const out = pasteable({ text });
  assert(!out.includes("sk-ant") && !out.includes("Ab9Ab9"), out);
  assertStringIncludes(out, "…[+");
});

Deno.test("pasteable keeps every key and cuts strings, arrays and depth when the record is big", () => {
  let deep: unknown = "bottom";
  for (let i = 0; i < 20; i++) deep = { d: deep };
  const keys = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
  const out = JSON.parse(pasteable({ ...keys, long: "z".repeat(500), arr: [1, 2, 3, 4, 5], deep }));
  assertEquals(Object.keys(out).length, 33);
  assertEquals(out.long, "z".repeat(SAMPLE_LIMITS.string) + "…[+300 chars]");
  assertEquals(out.arr, [1, 2, 3, 4, "…[+1 more]"]);
  assert(!JSON.stringify(out).includes("bottom"), "nesting is cut");
});

Deno.test("pasteable shows the home directory as ~ and caps the whole text", () => {
  assertEquals(pasteable({ cwd: "/home/ann/app" }, "/home/ann"), '{"cwd":"~/app"}');
  assertEquals(pasteable({ cwd: "/x" }, "/"), '{"cwd":"/x"}');
  const wide = Object.fromEntries(
    Array.from({ length: 400 }, (_, i) => [`key${i}`, "v".repeat(40)]),
  );
  const out = pasteable(wide);
  assertEquals(out.length, SAMPLE_LIMITS.chars);
  assert(out.endsWith("…"));
});

Deno.test("recordAt reads the one line at an offset and says why when it cannot", async () => {
  const dir = tempDir("deja-sample-");
  try {
    const path = join(dir, "s.jsonl");
    const first = JSON.stringify({ n: 1 });
    writeFileSync(path, `${first}\n{"n":2}\nnot json\n${"q".repeat(300)}`);
    assertEquals(await recordAt(path, 0), { value: { n: 1 } });
    assertEquals(await recordAt(path, first.length + 1), { value: { n: 2 } });
    assertStringIncludes(JSON.stringify(await recordAt(path, first.length + 9)), "no longer one");
    const long = first.length + 18;
    assertEquals(await recordAt(path, long, 100), { problem: "the record is over 100 bytes" });
    assertStringIncludes(JSON.stringify(await recordAt(path, 10_000)), "shorter");
    assertStringIncludes(JSON.stringify(await recordAt(join(dir, "gone"), 0)), "ENOENT");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("jsonlWhere splits a path@offset locator and nothing else", () => {
  assertEquals(jsonlWhere("/a/b@c.jsonl@120"), { path: "/a/b@c.jsonl", offset: 120 });
  assertEquals(jsonlWhere("/a/b.db: sessions.mood"), undefined);
  assertEquals(jsonlWhere("msg_1"), undefined);
});
