import { assertEquals } from "../tests/_assert.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { testEnv } from "../tests/_fixture.ts";
import { salvageDocument } from "./_json_doc.ts";

const env = testEnv("/nonexistent-home");

function salvage(text: string) {
  const ctx = new SourceCtx(env);
  const value = salvageDocument(text, "doc", ctx);
  return { value, lost: ctx.counts.malformed_json ?? 0 };
}

const chat = {
  sessionId: "s1",
  startTime: "2026-01-01T00:00:00Z",
  messages: [1, 2, 3, 4].map((n) => ({
    id: `m${n}`,
    type: "user",
    content: [{ text: `say ${n}` }],
  })),
  kind: "main",
};
const pretty = JSON.stringify(chat, null, 2);

Deno.test("salvage keeps every other message when one byte of a pretty-printed chat is damaged", () => {
  const at = pretty.indexOf("say 2") - 3; // the quote opening the text
  const { value, lost } = salvage(pretty.slice(0, at) + "\u0001" + pretty.slice(at + 1));
  const v = value as typeof chat;
  assertEquals(v.messages.map((m) => m.id), ["m1", "m3", "m4"]);
  assertEquals([v.sessionId, v.kind, lost], ["s1", "main", 1]);
});

Deno.test("salvage keeps the records of a compact document when one record lost its closing brace", () => {
  const text = JSON.stringify(chat).replace('"say 2"}]}', '"say 2"]}');
  const { value, lost } = salvage(text);
  assertEquals((value as typeof chat).messages.map((m) => m.id), ["m1", "m3", "m4"]);
  assertEquals(lost, 1);
});

Deno.test("salvage reads a top-level array up to a cut-off tail", () => {
  const text = JSON.stringify(chat.messages);
  const { value, lost } = salvage(text.slice(0, text.indexOf("say 4")));
  assertEquals((value as Array<{ id: string }>).map((m) => m.id), ["m1", "m2", "m3"]);
  assertEquals(lost, 1);
});

Deno.test("salvage survives a duplicated and a swapped line in a pretty-printed chat", () => {
  const lines = pretty.split("\n");
  const i = lines.findIndex((l) => l.includes("say 3"));
  const dup = [...lines.slice(0, i), lines[i], ...lines.slice(i)].join("\n");
  const d = salvage(dup).value as typeof chat;
  assertEquals(d.messages.map((m) => m.id), ["m1", "m2", "m4"]); // m3 lacks a comma now
  const j = lines.findIndex((l) => l.includes('"m2"'));
  const swapped = [...lines];
  [swapped[j], swapped[j - 1]] = [swapped[j - 1], swapped[j]];
  const s = salvage(swapped.join("\n"));
  // m2 lost its id line; the rest of it is kept as it was
  assertEquals((s.value as typeof chat).messages.map((m) => m.id), ["m1", undefined, "m3", "m4"]);
});

Deno.test("salvage keeps a record whose only damage is a raw control character, and counts it", () => {
  const text = JSON.stringify(chat).replace("say 3", "say\u00003");
  const { value, lost } = salvage(text);
  assertEquals((value as typeof chat).messages.length, 4);
  assertEquals(lost, 1);
});

Deno.test("salvage gives undefined and counts once when nothing is readable", () => {
  assertEquals(salvage("not json at all"), { value: undefined, lost: 1 });
  assertEquals(salvage('{"history": [{"message": {"role": "us').lost, 1);
});

Deno.test("salvage keeps both neighbours when the comma between two records is damaged", () => {
  const text = JSON.stringify(chat.messages).replace("}]},{", "}]}${");
  const { value, lost } = salvage(text);
  assertEquals((value as Array<{ id: string }>).map((m) => m.id), ["m1", "m2", "m3", "m4"]);
  assertEquals(lost, 1);
});
