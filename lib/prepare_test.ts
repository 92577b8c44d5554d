import { assert, assertEquals, assertStringIncludes } from "../tests/_assert.ts";
import type { Session } from "../core/model.ts";
import { MAX_RESULT, MAX_TEXT, prepareChunk } from "./prepare.ts";
import { isLoss, skipsText } from "./skips.ts";

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

Deno.test("an event the index keeps shortened is told of, with how much of it is not searchable", () => {
  const told: [string, string][] = [];
  const long = "word ".repeat(30_000); // 150,000 characters
  prepareChunk(
    {
      harness: "claude",
      id: "s1",
      path: "/h/s1.jsonl",
      events: [
        { kind: "user", text: "short question", time: 1_700_000_000_000 },
        { kind: "assistant", text: long, time: 1_700_000_001_000 },
        { kind: "tool_result", text: long.slice(0, 20_000) },
      ],
    },
    undefined,
    undefined,
    (where, detail) => told.push([where, detail]),
  );
  assertEquals(told.length, 2);
  assert(told[0][0].startsWith("/h/s1.jsonl (session s1, assistant at 2023-11-14T"), told[0][0]);
  // 150,000 characters, 64 Ki kept.
  assert(told[0][1].startsWith(`${150_000 - MAX_TEXT} characters in its middle`), told[0][1]);
  assert(
    told[1][0].includes("tool_result") && told[1][1].includes(`keeps the ${MAX_RESULT} around`),
  );
  assertEquals(isLoss("cut_long"), false);
  assertEquals(
    skipsText({ cut_long: 2, malformed_json: 1 }),
    "skipped: 1 malformed_json, shortened (middle not searchable): 2 cut_long",
  );
});
