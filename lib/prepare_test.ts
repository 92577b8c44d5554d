import { assert, assertEquals, assertStringIncludes } from "../tests/_assert.ts";
import type { Session } from "../core/model.ts";
import {
  MAX_RESULT,
  MAX_SESSION_SECRETS,
  MAX_TEXT,
  prepareChunk,
  SessionSecrets,
} from "./prepare.ts";
import { VocabCollector } from "./search/tokenize.ts";
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
  const { named, ...ready } = prepareChunk(chunk());
  const all = JSON.stringify(ready);
  assert(!all.includes(SECRET), all);
  // Only the list the writer masks earlier parts of the session by holds it (in memory).
  assertEquals(named, [[SECRET, "assignment"]]);
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

Deno.test("values a cue named in a session's chunk are masked in its later chunks; kept bounded, per session", () => {
  const secrets = new SessionSecrets();
  const vocab = new VocabCollector();
  const at = (id: string, ...texts: string[]): Session => ({
    harness: "claude",
    id,
    path: "/tmp/s.jsonl",
    events: texts.map((text) => ({ kind: "user", text })),
  });
  // A value known by its own form (a provider token) is found anywhere: not kept.
  const named = Array.from(
    { length: MAX_SESSION_SECRETS + 5 },
    (_, i) => `DB_PASSWORD=Xq7Lk${i}zzRt`,
  );
  prepareChunk(
    at("s1", `DB_PASSWORD=${SECRET}`, "sk-ant-api03-" + "Zz9".repeat(10)),
    vocab,
    undefined,
    undefined,
    secrets,
  );
  assertEquals([...secrets.values.keys()], [SECRET]);
  const later = prepareChunk(
    at("s1", `it worked with ${SECRET} again`),
    vocab,
    undefined,
    undefined,
    secrets,
  );
  assertEquals(later.events[0].text, "it worked with [redacted:assignment] again");
  assertEquals(later.redactions, { assignment: 1 });
  prepareChunk(at("s1", ...named), vocab, undefined, undefined, secrets);
  assertEquals(secrets.values.size, MAX_SESSION_SECRETS);
  // Another session starts again: nothing of s1 is kept for it.
  prepareChunk(at("s2", "nothing secret here"), vocab, undefined, undefined, secrets);
  assertEquals(secrets.values.size, 0);
});
