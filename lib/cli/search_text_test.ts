import { assertEquals } from "../../tests/_assert.ts";
import { quoteShown } from "./common.ts";

// Trial 81 F12: `"cluster host" forgejo` was shown `"cluster host" forgejo"`.
Deno.test("quoteShown never leaves a quote unbalanced", () => {
  assertEquals(quoteShown("redis cluster"), '"redis cluster"');
  assertEquals(quoteShown('"redis cluster"'), '"redis cluster"');
  assertEquals(quoteShown('"cluster host" forgejo'), `'"cluster host" forgejo'`);
  assertEquals(quoteShown('"a" "b"'), `'"a" "b"'`);
  assertEquals(quoteShown("x".repeat(100), 10), `"${"x".repeat(10)}…"`);
});

// Trial 81 F7: "'counterintuitive' is in no session" of a word in the unread middle of a
// record too long to index whole; trial 134 F5: of a word in a warm-up file left out and in a
// Gemini subagent's thoughts. A word the index lacks is in no searchable text, whatever the
// stores hold.
Deno.test("absentHint says no searchable text of a word the index lacks", async () => {
  const { absentHint } = await import("./_search_notes.ts");
  const said: string[] = [];
  const io = { err: (s: string) => void said.push(s) } as unknown as Parameters<
    typeof absentHint
  >[0];
  absentHint(io, { words: ["zzqq"], query: "redis", sessions: 2 });
  assertEquals(said, [
    "hint: 'zzqq' is in no searchable text; without it: 2 sessions: deja redis\n",
  ]);
});
