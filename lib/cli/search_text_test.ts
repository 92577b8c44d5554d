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
// record too long to index whole.
Deno.test("absentHint says no searchable text when stores were indexed in part", async () => {
  const { absentHint } = await import("./_search_notes.ts");
  const said: string[] = [];
  const io = { err: (s: string) => void said.push(s) } as unknown as Parameters<
    typeof absentHint
  >[0];
  const a = { words: ["zzqq"], query: "redis", sessions: 2 };
  absentHint(io, a);
  absentHint(io, a, true);
  assertEquals(said, [
    "hint: 'zzqq' is in no session; without it: 2 sessions: deja redis\n",
    "hint: 'zzqq' is in no searchable text; without it: 2 sessions: deja redis\n",
  ]);
});
