import { assert, assertEquals, assertStringIncludes } from "../tests/_assert.ts";
import type { Session } from "../core/model.ts";
import { prepareChunk } from "./prepare.ts";

const SECRET = "Zq7mVx2pLk9wRt4n";

function chunk(): Session {
  return {
    harness: "claude",
    id: "s-repeat",
    path: "/tmp/s.jsonl",
    title: `connect with ${SECRET}`,
    events: [
      { kind: "user", text: `the staging login keeps failing with ${SECRET} on psql` },
      { kind: "assistant", text: `Set DB_PASSWORD=${SECRET} in .env and restart.` },
      {
        kind: "tool_call",
        text: "",
        tool: {
          name: "Bash",
          command: `psql -U app -W ${SECRET} staging`,
          input: { command: `psql -U app -W ${SECRET} staging` },
          edits: [{ path: "/w/.env", old: "DB_PASSWORD=", new: `DB_PASSWORD=${SECRET}` }],
        },
      },
      { kind: "tool_result", text: `FATAL: password ${SECRET} rejected`, result: { exit: 2 } },
    ],
  };
}

Deno.test("a secret a cue names once is masked where an event repeats it bare, before and after", () => {
  const ready = prepareChunk(chunk());
  const all = JSON.stringify(ready);
  assert(!all.includes(SECRET), all);
  assertStringIncludes(ready.events[0].text, "staging login keeps failing with [redacted:");
  assertStringIncludes(ready.events[3].text, "FATAL: password [redacted:");
  assert(!ready.tokens.some((t) => t.toLowerCase().includes(SECRET.toLowerCase())), "vocabulary");
  // The repeats count as redactions of the event texts (the title and derived rows do not).
  const n = Object.values(ready.redactions).reduce((a, b) => a + b, 0);
  assertEquals(n >= 4, true, JSON.stringify(ready.redactions));
});

Deno.test("a chunk with no secret is prepared as before (nothing masked, nothing counted)", () => {
  const c = chunk();
  for (const e of c.events) e.text = e.text.replaceAll(SECRET, "the usual one");
  c.title = "connect";
  c.events[2].tool = { name: "Bash", command: "psql -U app staging" };
  const ready = prepareChunk(c);
  assertEquals(ready.redactions, {});
  assertStringIncludes(ready.events[0].text, "failing with the usual one on psql");
});

Deno.test("a reply the harness never finished is stored with data {cut: true}; a finished one with none", () => {
  const ready = prepareChunk({
    harness: "crush",
    id: "s-cut",
    path: "/tmp/crush.db",
    events: [
      { kind: "assistant", text: "Done." },
      { kind: "assistant", text: "Here is the plan:\n- Start", cut: true },
    ],
  });
  assertEquals(ready.events.map((e) => e.data), [null, '{"cut":true}']);
});
