import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { assert, assertEquals } from "../tests/_assert.ts";
import { materialize, parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { roo } from "./roo.ts";
import { parseJsonc } from "./_vscode.ts";
import { tempDir } from "../tests/_tmp.ts";

const FIXTURE = join(REPO, "fixtures/registry/roo");

async function fixture(): Promise<
  { sessions: Session[]; skips: Record<string, Record<string, number>> }
> {
  const fx = materialize(FIXTURE);
  try {
    const run = await runParser(
      roo,
      testEnv(join(fx.root, "__home__"), { DEJA_ROO_ROOT: fx.root }),
    );
    const skips: Record<string, Record<string, number>> = {};
    for (const [k, v] of Object.entries(run.skips)) skips[k.replace(fx.root, "<root>")] = v;
    return { sessions: run.sessions, skips };
  } finally {
    fx.cleanup();
  }
}

function session(list: Session[], id: string): Session {
  const s = list.find((x) => x.id === id);
  assert(s, `session ${id} not found among ${list.map((x) => x.id).join(", ")}`);
  return s;
}

function call(events: Event[], id: string): Event {
  const e = events.find((x) => x.kind === "tool_call" && x.tool?.id === id);
  assert(e, `no call ${id}`);
  return e;
}

function result(events: Event[], id: string): Event {
  const e = events.find((x) => x.kind === "tool_result" && x.result?.callId === id);
  assert(e, `no result ${id}`);
  return e;
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir("deja-roo-");
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function writeTask(root: string, id: string, body: string | Uint8Array): string {
  mkdirSync(join(root, "tasks", id), { recursive: true });
  const p = join(root, "tasks", id, "api_conversation_history.json");
  writeFileSync(p, body);
  return p;
}

const src = (path: string): SourceRef => ({ harness: "roo", path, kind: "document" });

Deno.test("discover finds Roo's task folders in every editor's rooveterinaryinc.roo-cline storage and not Cline's", async () => {
  await withTemp(async (home) => {
    writeTask(
      join(home, ".config", "Code", "User", "globalStorage", "rooveterinaryinc.roo-cline"),
      "r1",
      "[]",
    );
    writeTask(
      join(home, ".config", "Cursor", "User", "globalStorage", "rooveterinaryinc.roo-cline"),
      "r2",
      "[]",
    );
    writeTask(
      join(home, ".config", "Code", "User", "globalStorage", "saoudrizwan.claude-dev"),
      "cline",
      "[]",
    );
    const d = await roo.discover({ env: testEnv(home), knownProjects: [] });
    assertEquals(d.sources.map((s) => s.path.split("/").at(-2)).sort(), ["r1", "r2"]);
  });
});

Deno.test("discover adds roo-cline.customStoragePath from a JSONC settings.json with comments, a trailing comma and ~", async () => {
  await withTemp(async (home) => {
    writeTask(join(home, "roo-tasks"), "custom1", "[]");
    mkdirSync(join(home, ".config", "Code", "User"), { recursive: true });
    writeFileSync(
      join(home, ".config", "Code", "User", "settings.json"),
      `{\n  // where Roo keeps tasks\n  "roo-cline.customStoragePath": "~/roo-tasks", /* moved */\n  "editor.fontSize": 13,\n}\n`,
    );
    const d = await roo.discover({ env: testEnv(home), knownProjects: [] });
    assertEquals(d.sources.map((s) => s.path.split("/").at(-2)), ["custom1"]);
    assert(d.roots.includes(join(home, "roo-tasks")));
  });
});

Deno.test("discover uses only DEJA_ROO_ROOT when it is set", async () => {
  await withTemp(async (home) => {
    writeTask(
      join(home, ".config", "Code", "User", "globalStorage", "rooveterinaryinc.roo-cline"),
      "r1",
      "[]",
    );
    writeTask(join(home, "override"), "o1", "[]");
    const d = await roo.discover({
      env: testEnv(home, { DEJA_ROO_ROOT: join(home, "override") }),
      knownProjects: [],
    });
    assertEquals(d.roots, [join(home, "override")]);
    assertEquals(d.sources.map((s) => s.path.split("/").at(-2)), ["o1"]);
  });
});

Deno.test("parseJsonc keeps // inside strings while removing comments and trailing commas", () => {
  assertEquals(parseJsonc(`{"a": "http://x", // c\n "b": [1, 2,], }`), {
    a: "http://x",
    b: [1, 2],
  });
});

Deno.test("parse reads the v2 envelope's AI SDK parts and takes title, project and time from history_item.json", async () => {
  const { sessions } = await fixture();
  const s = session(sessions, "t-roo-0001");
  assertEquals(s.title, "Rename the helper formatDate to formatDay");
  assertEquals(s.project, "/w/roo-app");
  assertEquals(s.started, 1795100000000);
  assertEquals(s.events[0], {
    kind: "user",
    text: "Rename the helper formatDate to formatDay",
    time: 1795100001000,
  });
  assert(!s.events.some((e) => e.text.includes("SECRET-THOUGHT")), "reasoning leaked");
});

Deno.test("parse turns apply_diff with :start_line: into an edit and links tool-result parts by toolCallId", async () => {
  const { sessions } = await fixture();
  const ev = session(sessions, "t-roo-0001").events;
  assertEquals(call(ev, "call_diff").tool?.edits, [
    {
      path: "/w/roo-app/src/util.ts",
      old: "export function formatDate(d) {",
      new: "export function formatDay(d) {",
    },
  ]);
  assertEquals(result(ev, "call_diff").text, "Changes successfully applied to src/util.ts");
});

Deno.test("parse reads the exit status from Roo's command result text and strips its framing", async () => {
  const { sessions } = await fixture();
  const ev = session(sessions, "t-roo-0001").events;
  assertEquals(call(ev, "call_lint").tool?.command, "npm run lint");
  const r = result(ev, "call_lint");
  assertEquals(r.result, { callId: "call_lint", exit: 2, isError: true });
  assertEquals(r.text, "src/app.ts: formatDate is not defined");
});

Deno.test("parse maps search_replace and write_to_file and marks an error-text output as an error", async () => {
  const { sessions } = await fixture();
  const ev = session(sessions, "t-roo-0001").events;
  assertEquals(call(ev, "call_sr").tool?.edits, [
    { path: "/w/roo-app/src/app.ts", old: "formatDate(now)", new: "formatDay(now)" },
  ]);
  assertEquals(call(ev, "call_w").tool?.writes, [
    { path: "/w/roo-app/docs/rename.md", content: "formatDate is now formatDay.\n" },
  ]);
  assertEquals(result(ev, "call_w").text, "File written");
  assertEquals(result(ev, "call_rd").result?.isError, true);
});

Deno.test("parse files a condense message with isSummary as a summary event and skips truncation markers", async () => {
  const { sessions } = await fixture();
  const ev = session(sessions, "t-roo-0001").events;
  const sums = ev.filter((e) => e.kind === "summary");
  assertEquals(sums.length, 1);
  assert(sums[0].text.startsWith("Conversation so far"));
  assertEquals(
    ev.at(-1)?.text,
    "Renamed the helper and added docs. Marker: zebrafinch-roo-fixture",
  );
});

Deno.test("parse makes a subtask a subagent session of its parentTaskId and reads its XML tool calls", async () => {
  const { sessions } = await fixture();
  const s = session(sessions, "t-roo-0002");
  assertEquals(s.parent, "t-roo-0001");
  const read = s.events.find((e) => e.tool?.name === "read_file");
  assertEquals(read?.tool?.paths, ["/w/roo-app/src/util.ts", "/w/roo-app/src/app.ts"]);
  const write = s.events.find((e) => e.tool?.name === "write_to_file");
  assertEquals(write?.tool?.writes?.[0].path, "/w/roo-app/src/util.test.ts");
  const denied = s.events[s.events.indexOf(write!) + 1];
  assertEquals(denied.result?.isError, true);
  assert(s.events.some((e) => e.kind === "user" && e.text === "put it under tests/ instead"));
  assertEquals(s.events.at(-1), {
    kind: "assistant",
    text: "I will move the test as asked.",
    time: 1795100025000,
  });
});

Deno.test("parse counts an empty history file as empty and an unknown role as unknown_record", async () => {
  const { sessions, skips } = await fixture();
  assertEquals(skips["<root>/tasks/t-roo-0003/api_conversation_history.json"], { empty: 1 });
  assertEquals(skips["<root>/tasks/t-roo-0001/api_conversation_history.json"], {
    unknown_record: 1,
  });
  assert(!sessions.some((s) => s.id === "t-roo-0003"));
});

Deno.test("parse counts an envelope of an unknown version as unknown_schema and still reads its messages", async () => {
  await withTemp(async (dir) => {
    const p = writeTask(
      dir,
      "v3",
      JSON.stringify({
        version: 3,
        messages: [{ role: "user", content: "<task>\nnew\n</task>", ts: 1795100000000 }],
      }),
    );
    const { sessions, ctx } = await parseOne(roo, src(p), testEnv(dir));
    assertEquals(ctx.counts, { unknown_schema: 1 });
    assertEquals(sessions[0].events.map((e) => e.text), ["new"]);
  });
});

Deno.test("parse counts a truncated or non-UTF-8 history file and yields nothing", async () => {
  await withTemp(async (dir) => {
    const torn = writeTask(dir, "torn", '{"version":2,"messages":[{"role":"user"');
    const bad = writeTask(dir, "bad", new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]));
    const a = await parseOne(roo, src(torn), testEnv(dir));
    const b = await parseOne(roo, src(bad), testEnv(dir));
    assertEquals([a.sessions.length, b.sessions.length], [0, 0]);
    assertEquals(a.ctx.counts, { malformed_json: 1 });
    // read with a replacement character, which then is no JSON member
    assertEquals(b.ctx.counts, { invalid_utf8: 1, malformed_json: 1 });
  });
});

Deno.test("fixture run equals expected.json when DEJA_ROO_ROOT points at the fixture", async () => {
  const entry = loadRegistry().find((e) => e.id === "roo");
  assert(entry);
  const want = JSON.parse(await Deno.readTextFile(join(FIXTURE, "expected.json")));
  assertEquals(await fixtureRun(entry, roo), want);
});
