import { assert, assertEquals } from "../tests/_assert.ts";
import { JsonStream } from "./_json_stream.ts";
import { cap, KEEP_CHARS } from "../core/text.ts";

const enc = new TextEncoder();

/** Feeds `bytes` to a new reader `step` bytes at a time. */
function stream(bytes: Uint8Array, step: number, budget?: number): JsonStream {
  const s = new JsonStream(budget);
  for (let i = 0; i < bytes.length; i += step) s.push(bytes.subarray(i, i + step));
  return s;
}

const GOOD = [
  `{"a":[1,-2.5e3,0,1E+2,true,false,null,"x\\n\\t\\"\\\\\\/\\b\\f\\r\\u00e9\\ud83d\\ude00é😀"],"b":{},"c":[]}`,
  `["\\ud83d","\\ud83d\\ud83d\\ude00","\\ude00x","\\ud83dx","é\\ud83d","a\\u0000b","\\uD83D\\uDE00"]`,
  `{"__proto__":{"z":1},"k":{"k":"dup","k":"last"}}`,
  `  "a string alone"  `,
  `0`,
  `[[[[]]],{"":""}]`,
];

Deno.test("JsonStream reads what JSON.parse reads, however the bytes are split", () => {
  for (const doc of GOOD) {
    const bytes = enc.encode(doc);
    for (const step of [1, 2, 3, 5, 4096]) {
      const got = stream(bytes, step).end();
      assertEquals(got?.value, JSON.parse(doc), `${doc} in pieces of ${step}`);
    }
  }
});

Deno.test("JsonStream reads a line that starts with a byte order mark", () => {
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('{"a":1}')]);
  for (const step of [1, 2, 64]) assertEquals(stream(bytes, step).end()?.value, { a: 1 });
});

Deno.test("JsonStream fails what JSON.parse refuses, as malformed_json", () => {
  const bad = [
    `{"a":1,}`,
    `[1,]`,
    `{"a" 1}`,
    `01`,
    `1.`,
    `-`,
    `tru`,
    `nul`,
    `"tab\there"`,
    `{"a":1}x`,
    `[1 2]`,
    `{1:2}`,
    ``,
    `"\\x"`,
    `"\\u12G4"`,
    `[}`,
    `{"a":[1}`,
    `"unterminated`,
    `{"a":`,
  ];
  for (const doc of bad) {
    let parsed = true;
    try {
      JSON.parse(doc);
    } catch {
      parsed = false;
    }
    assert(!parsed, doc);
    const s = stream(enc.encode(doc), 3);
    assertEquals([s.end(), s.failure], [undefined, "malformed_json"], doc);
  }
});

Deno.test("JsonStream reads bytes that are not UTF-8 in a string as U+FFFD and keeps the line", () => {
  for (
    const bytes of [
      [0x22, 0xff, 0x22],
      [0x22, 0xe2, 0x82, 0x22],
      [0x22, 0xe2, 0x5c, 0x6e, 0x22],
      [0x22, 0x61, 0xff, 0xfe, 0xc3, 0x62, 0x22],
    ]
  ) {
    const s = stream(new Uint8Array(bytes), 1);
    const want = JSON.parse(new TextDecoder().decode(new Uint8Array(bytes)));
    assertEquals(
      [s.end(), s.failure, s.repaired],
      [{ value: want }, undefined, true],
      String(bytes),
    );
  }
  const real = stream(enc.encode(`"a\ufffd b \uFFFD"`), 2);
  assertEquals([real.end(), real.repaired], [{ value: "a\ufffd b \ufffd" }, false]);
});

Deno.test("JsonStream keeps of a long string exactly what the index's caps would keep", () => {
  // Escapes, two- and four-byte characters, spread over the head, the cut and the tail.
  const long = "lorem é ipsum 😀 dolor\\nsit \\u00e9 amet ".repeat(80_000);
  const doc = `{"type":"user","content":[{"text":"${long}","n":1}],"small":"kept whole"}`;
  const whole = JSON.parse(doc);
  const s = stream(enc.encode(doc), 256 * 1024);
  const got = s.end()!.value as typeof whole;
  assertEquals(s.cuts, 1);
  assertEquals(got.small, "kept whole");
  const full: string = whole.content[0].text;
  const kept: string = got.content[0].text;
  assert(full.length > KEEP_CHARS * 2);
  assertEquals(kept, cap(full, KEEP_CHARS));
  // Capped again by lib/prepare.ts (results, speech, spans): the same text, the same count.
  for (
    const [max, share] of [[16 * 1024, 0.25], [64 * 1024, 0.1], [64 * 1024, 0.25], [
      KEEP_CHARS,
      0.25,
    ]]
  ) {
    assertEquals(cap(kept, max, share), cap(full, max, share), `cap ${max} ${share}`);
  }
});

Deno.test("JsonStream fails a line whose kept values pass the budget as oversized", () => {
  const many = `[${Array.from({ length: 5000 }, (_, i) => i).join(",")}]`;
  const s = stream(enc.encode(many), 100, 10_000);
  assertEquals([s.end(), s.failure], [undefined, "oversized"]);
  assertEquals(stream(enc.encode(many), 100).end()?.value, JSON.parse(many));
});

Deno.test("JsonStream spills the items of the named top-level array, each once, and gives their budget back", () => {
  const items = Array.from(
    { length: 500 },
    (_, i) => ({ i, text: "x".repeat(100), nested: [[i]] }),
  );
  const doc = { id: "s", messages: items, other: [[1], [2]], tail: { messages: [1, 2] } };
  const bytes = enc.encode(JSON.stringify(doc));
  for (const step of [1, 7, 4096]) {
    const got: unknown[] = [];
    // 500 items of about 150 characters each pass a budget of 10,000 together, not one at a time.
    const s = new JsonStream(10_000, { key: "messages", item: (v) => got.push(v) });
    for (let i = 0; i < bytes.length; i += step) s.push(bytes.subarray(i, i + step));
    const end = s.end();
    assertEquals(s.failure, undefined, `pieces of ${step}`);
    assertEquals(got, items);
    // Only the top-level key spills: the rest of the document is kept as read.
    assertEquals(end?.value, { ...doc, messages: [] });
  }
  // Without the spill the same document passes the budget.
  const whole = new JsonStream(10_000);
  whole.push(bytes);
  assertEquals(whole.end(), undefined);
  assertEquals(whole.failure, "oversized");
});

Deno.test("JsonStream's partial value holds the members finished before a failure", () => {
  const s = new JsonStream(undefined, { key: "messages", item: () => {} });
  s.push(enc.encode(`{"sessionId":"abc","startTime":"t","messages":[{"a":1},{"b":`));
  s.push(enc.encode(`]`));
  assertEquals(s.end(), undefined);
  assertEquals(s.failure, "malformed_json");
  assertEquals(s.partial, { sessionId: "abc", startTime: "t" });
});
