import { assert, assertEquals } from "../tests/_assert.ts";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { claude } from "./claude.ts";
import { claudeRecord, type FamilyState } from "./_claude_family.ts";
import { STREAM_LINE_BYTES } from "./_jsonl.ts";
import { toMillis } from "./_time.ts";
import type { Event } from "../core/model.ts";
import { prepareChunk } from "../lib/prepare.ts";
import { claudeLines } from "../tests/_memory.ts";
import { parseOne, testEnv } from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";

const SID = "1009c0de-0000-4000-8000-000000000001";

/** About 1.5 million characters of `word`, emoji and accents: a line over the streaming threshold. */
const big = (word: string) => `${word} 😀 é "q"\\ `.repeat(110_000) + `end of ${word}`;

Deno.test("claude yields from lines read in pieces the prepared events JSON.parse of them gives", async () => {
  const lines = claudeLines({
    id: SID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: big("prompt") },
      { say: big("answer") },
      { bash: "cat log", out: big("output") },
      { write: "/w/app/a.txt", content: big("written") },
      { edit: "/w/app/b.txt", old: big("before"), new: "after" },
    ],
  });
  assert(lines.every((l) => l.length > STREAM_LINE_BYTES || l.length < 2000));
  const path = join(tempDir("deja-claude-long-"), `${SID}.jsonl`);
  writeFileSync(path, lines.join("\n") + "\n");
  const env = testEnv("/nonexistent");
  const { sessions, ctx } = await parseOne(
    claude,
    { harness: "claude", path, kind: "append" },
    env,
  );
  assertEquals(ctx.skipped, 0);
  const streamed = sessions.flatMap((s) => s.events);

  // The same records through JSON.parse, whole.
  const st: FamilyState = { sid: SID, cwd: "/w/app" };
  const facts = { stem: SID, encoded: "-w-app" };
  const whole: Event[] = [];
  for (const l of lines) {
    const r = JSON.parse(l);
    const reading = claudeRecord(r, toMillis(r.timestamp), st, facts, () => {});
    if (reading && "events" in reading) whole.push(...reading.events);
  }
  assertEquals(streamed.length, whole.length);
  // A dedupe key hashed from a cut text differs from the whole text's (stable from pass to pass).
  const prep = (events: Event[]) =>
    prepareChunk({ harness: "claude", id: SID, path, events: events.map(plain) }).events
      .map(({ key: _k, longKey: _l, ...e }) => e);
  assertEquals(prep(streamed), prep(whole));
  // Long enough that every kept text was cut in the middle, and says how much.
  assert(prep(whole).some((e) => /\[\d+ characters cut\]/.test(e.text)));
});

/** An event without undefined fields (the parser drops them). */
function plain(e: Event): Event {
  return JSON.parse(JSON.stringify(e));
}
