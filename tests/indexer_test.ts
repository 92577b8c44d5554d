import { assert, assertEquals, assertStringIncludes, assertThrows } from "./_assert.ts";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Event, ParseCtx, Parser, Session, SourceRef } from "../core/model.ts";
import { runIndex } from "../lib/indexer.ts";
import { acquireWriterLock, indexPath, Store } from "../lib/store.ts";
import { DejaError } from "../core/errors.ts";
import { search } from "../lib/search.ts";
import { readJsonl } from "../parsers/_jsonl.ts";
import { listFiles } from "../core/fs.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

/**
 * A fake harness for the indexer's own tests: `<root>/*.jsonl` (append) and
 * `<root>/*.json` (document). The first JSONL line is a header `{"sid": ...}`;
 * later lines are events. Counts its parse calls.
 */
function fakeParser(root: string, calls: string[], failOn?: string, id = "fake"): Parser {
  return {
    id,
    async discover() {
      const files = await listFiles(root, {
        match: (_p, n) => n.endsWith(".jsonl") || n.endsWith(".json"),
      });
      return {
        roots: [root],
        sources: files.map((path): SourceRef => ({
          harness: id,
          path,
          kind: path.endsWith(".jsonl") ? "append" : "document",
        })),
      };
    },
    async *parse(src: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
      calls.push(src.path);
      if (src.kind === "document") {
        const doc = JSON.parse(readFileSync(src.path, "utf8"));
        yield { harness: id, id: doc.sid, path: src.path, events: doc.events };
        return;
      }
      let sid = (ctx.state as { sid?: string } | undefined)?.sid;
      let note = (ctx.state as { note?: string } | undefined)?.note;
      const events: Event[] = [];
      for await (const { value } of readJsonl(src.path, ctx)) {
        const v = value as Record<string, unknown>;
        if (typeof v.sid === "string") {
          sid = v.sid;
          note = typeof v.note === "string" ? v.note : undefined;
          continue;
        }
        if (failOn && v.text === failOn) throw new Error("parser broke on purpose");
        events.push(v as unknown as Event);
      }
      ctx.endState = { sid, note };
      if (sid) yield { harness: id, id: sid, path: src.path, project: "/work/app", events };
    },
  };
}

function setup() {
  const dir = tempDir("deja-idx-");
  const root = join(dir, "store");
  mkdirSync(root);
  const env = testEnv(join(dir, "home"), { DEJA_HOME: join(dir, "deja") });
  return { dir, root, env };
}

const line = (v: unknown) => JSON.stringify(v) + "\n";

function eventsOf(
  env: ReturnType<typeof testEnv>,
  sid: string,
): Array<{ seq: number; text: string; kind: string }> {
  const s = Store.open(indexPath(env));
  try {
    return s.db.prepare(
      `SELECT e.seq, e.text, e.kind FROM events e JOIN sessions s ON s.id = e.session_id
       WHERE s.native_id = ? ORDER BY e.seq`,
    ).all(sid) as Array<{ seq: number; text: string; kind: string }>;
  } finally {
    s.close();
  }
}

Deno.test("a no-op index run parses no source when nothing changed", async () => {
  const { root, env } = setup();
  writeFileSync(
    join(root, "a.jsonl"),
    line({ sid: "s1" }) + line({ kind: "user", text: "hello there" }),
  );
  writeFileSync(
    join(root, "b.json"),
    JSON.stringify({ sid: "d1", events: [{ kind: "user", text: "doc words" }] }),
  );
  const calls: string[] = [];
  await runIndex(env, [fakeParser(root, calls)]);
  assertEquals(calls.length, 2);
  calls.length = 0;
  const r = await runIndex(env, [fakeParser(root, calls)]);
  assertEquals(calls, []);
  assertEquals(r.harnesses[0].read, 0);
  assertEquals(r.harnesses[0].found, 2);
});

Deno.test("an append-only source resumes after its last complete line and keeps the header's session", async () => {
  const { root, env } = setup();
  const f = join(root, "a.jsonl");
  writeFileSync(
    f,
    line({ sid: "s1" }) + line({ kind: "user", text: "first words" }) + '{"kind":"assistant","te',
  );
  const calls: string[] = [];
  const r1 = await runIndex(env, [fakeParser(root, calls)]);
  assertEquals(eventsOf(env, "s1").map((e) => e.text), ["first words"]);
  assertEquals(r1.harnesses[0].skipped.malformed_json, undefined);
  // The harness finishes the line and writes another.
  appendFileSync(f, 'xt":"second words"}\n' + line({ kind: "user", text: "third words" }));
  await runIndex(env, [fakeParser(root, calls)]);
  const evs = eventsOf(env, "s1");
  assertEquals(evs.map((e) => e.text), ["first words", "second words", "third words"]);
  assertEquals(evs.map((e) => e.seq), [0, 1, 2]);
});

Deno.test("a source whose prefix changed is re-read whole without duplicates", async () => {
  const { root, env } = setup();
  const f = join(root, "a.jsonl");
  writeFileSync(f, line({ sid: "s1" }) + line({ kind: "user", text: "alpha words" }));
  await runIndex(env, [fakeParser(root, [])]);
  writeFileSync(
    f,
    line({ sid: "s1" }) + line({ kind: "user", text: "beta words here" }) +
      line({ kind: "user", text: "gamma" }),
  );
  await runIndex(env, [fakeParser(root, [])]);
  assertEquals(eventsOf(env, "s1").map((e) => e.text), ["beta words here", "gamma"]);
  // A shrunk file is re-read whole too.
  writeFileSync(f, line({ sid: "s1" }) + line({ kind: "user", text: "delta" }));
  await runIndex(env, [fakeParser(root, [])]);
  assertEquals(eventsOf(env, "s1").map((e) => e.text), ["delta"]);
});

Deno.test("a parser failing mid-source rolls back that source only and is retried next run", async () => {
  const { root, env } = setup();
  writeFileSync(
    join(root, "a.jsonl"),
    line({ sid: "s1" }) + line({ kind: "user", text: "good words" }),
  );
  writeFileSync(join(root, "b.jsonl"), line({ sid: "s2" }) + line({ kind: "user", text: "fine" }));
  await runIndex(env, [fakeParser(root, [])]);
  appendFileSync(join(root, "a.jsonl"), line({ kind: "user", text: "boom" }));
  appendFileSync(join(root, "b.jsonl"), line({ kind: "user", text: "more" }));
  const r = await runIndex(env, [fakeParser(root, [], "boom")]);
  assertEquals(r.harnesses[0].errors.length, 1);
  assertStringIncludes(r.harnesses[0].errors[0], "parser broke on purpose");
  assertEquals(eventsOf(env, "s1").map((e) => e.text), ["good words"]);
  assertEquals(eventsOf(env, "s2").map((e) => e.text), ["fine", "more"]);
  // Next run, with the parser fixed, picks the failed source up from where it was.
  const calls: string[] = [];
  await runIndex(env, [fakeParser(root, calls)]);
  assertEquals(calls, [join(root, "a.jsonl")]);
  assertEquals(eventsOf(env, "s1").map((e) => e.text), ["good words", "boom"]);
});

Deno.test("a changed document with the same content is not parsed again", async () => {
  const { root, env } = setup();
  const f = join(root, "d.json");
  const body = JSON.stringify({ sid: "d1", events: [{ kind: "user", text: "doc words" }] });
  writeFileSync(f, body);
  const calls: string[] = [];
  await runIndex(env, [fakeParser(root, calls)]);
  calls.length = 0;
  // Rewritten in place with the same bytes: mtime changes, content does not.
  await new Promise((r) => setTimeout(r, 20));
  writeFileSync(f, body);
  await runIndex(env, [fakeParser(root, calls)]);
  assertEquals(calls, []);
  writeFileSync(
    f,
    JSON.stringify({ sid: "d1", events: [{ kind: "user", text: "new doc words" }] }),
  );
  await runIndex(env, [fakeParser(root, calls)]);
  assertEquals(calls.length, 1);
  assertEquals(eventsOf(env, "d1").map((e) => e.text), ["new doc words"]);
});

Deno.test("tool results set their command's exit and a failed edit keeps no span", async () => {
  const { root, env } = setup();
  writeFileSync(
    join(root, "a.jsonl"),
    line({ sid: "s1" }) +
      line({
        kind: "tool_call",
        text: "",
        tool: { name: "bash", id: "c1", command: "cat missing.txt" },
      }) +
      line({ kind: "tool_result", text: "No such file", result: { callId: "c1", exit: 1 } }) +
      line({
        kind: "tool_call",
        text: "",
        tool: { name: "edit", id: "c2", edits: [{ path: "/w/a.txt", old: "x", new: "y" }] },
      }) +
      line({
        kind: "tool_result",
        text: "old_string not found",
        result: { callId: "c2", isError: true },
      }) +
      line({
        kind: "tool_call",
        text: "",
        tool: {
          name: "edit",
          id: "c3",
          edits: [{ path: "/w/README.md", old: "hello world", new: "hello zebrafinch" }],
        },
      }) +
      line({ kind: "tool_result", text: "ok", result: { callId: "c3" } }),
  );
  await runIndex(env, [fakeParser(root, [])]);
  const s = Store.open(indexPath(env));
  const cmd = s.db.prepare("SELECT command, exit, is_error FROM commands").all() as Array<
    Record<string, unknown>
  >;
  assertEquals(cmd, [{ command: "cat missing.txt", exit: 1, is_error: 1 }]);
  const files = s.db.prepare("SELECT path, old, new, failed FROM files ORDER BY id").all();
  assertEquals(files as unknown, [
    { path: "/w/a.txt", old: "x", new: "y", failed: 1 },
    { path: "/w/README.md", old: "hello world", new: "hello zebrafinch", failed: 0 },
  ]);
  const hits = search(s, "zebrafinch");
  assertEquals(hits.results.length, 1);
  s.close();
});

Deno.test("a result recorded before its call sets the call's exit, in one pass and across two", async () => {
  const { root, env } = setup();
  const call = (id: string, command: string) =>
    line({ kind: "tool_call", text: "", tool: { name: "bash", id, command } });
  const result = (id: string, exit: number) =>
    line({ kind: "tool_result", text: "failed", result: { callId: id, exit } });
  const f = join(root, "a.jsonl");
  // Streamed out of order: c1's result comes first; c2 has none yet.
  writeFileSync(
    f,
    line({ sid: "s1" }) + result("c1", 2) + call("c1", "make all") + call("c2", "ls"),
  );
  await runIndex(env, [fakeParser(root, [])]);
  // The next pass appends c3's result, then its call: the result is already in the index.
  appendFileSync(f, result("c3", 7));
  await runIndex(env, [fakeParser(root, [])]);
  appendFileSync(f, call("c3", "npm test"));
  await runIndex(env, [fakeParser(root, [])]);
  const s = Store.open(indexPath(env));
  const cmd = s.db.prepare("SELECT command, exit, is_error FROM commands ORDER BY event_id").all();
  s.close();
  assertEquals(cmd as unknown, [
    { command: "make all", exit: 2, is_error: 1 },
    { command: "ls", exit: null, is_error: 0 },
    { command: "npm test", exit: 7, is_error: 1 },
  ]);
});

Deno.test("an event with a known key replaces the earlier one instead of adding", async () => {
  const { root, env } = setup();
  const f = join(root, "a.jsonl");
  writeFileSync(
    f,
    line({ sid: "s1" }) + line({ kind: "assistant", key: "m1", text: "partial answ" }),
  );
  await runIndex(env, [fakeParser(root, [])]);
  appendFileSync(f, line({ kind: "assistant", key: "m1", text: "partial answer complete" }));
  await runIndex(env, [fakeParser(root, [])]);
  assertEquals(eventsOf(env, "s1").map((e) => e.text), ["partial answer complete"]);
  const s = Store.open(indexPath(env));
  assertEquals(search(s, "complete").results.length, 1);
  // The replaced text's token is gone: "answ" is found only inside "answer" (substring tier).
  assertEquals(search(s, "answ").tier, "substring");
  s.close();
});

Deno.test("secrets never reach the index file", async () => {
  const { root, env } = setup();
  const secret = "sk-ant-api03-AAAAbbbbCCCCddddEEEEffff0123456789";
  writeFileSync(
    join(root, "a.jsonl"),
    line({ sid: "s1" }) + line({ kind: "user", text: `my key is ${secret} please keep it` }),
  );
  await runIndex(env, [fakeParser(root, [])]);
  const raw = readFileSync(indexPath(env));
  assertEquals(raw.includes(secret), false);
  assertEquals(eventsOf(env, "s1")[0].text, "my key is [redacted:anthropic_key] please keep it");
});

Deno.test("a second writer is told the index is busy", () => {
  const { env } = setup();
  const dir = join(env.get("DEJA_HOME")!);
  const held = acquireWriterLock(dir, 0);
  try {
    const err = assertThrows(() => acquireWriterLock(dir, 50), DejaError);
    assertStringIncludes(err.message, "busy");
  } finally {
    held.release();
  }
  // Once released, the next writer gets it.
  acquireWriterLock(dir, 0).release();
  assert(true);
});

Deno.test("parser state kept in the index is redacted too", async () => {
  const { root, env } = setup();
  const key = "AKIA" + "QQQQWWWWEEEERRRR";
  writeFileSync(
    join(root, "a.jsonl"),
    line({ sid: "s1", note: `rotate ${key}` }) + line({ kind: "user", text: "hello" }),
  );
  await runIndex(env, [fakeParser(root, [])]);
  const raw = readFileSync(indexPath(env));
  assertEquals(raw.includes(key), false);
});

Deno.test("a rebuild re-reads every store whole and drops sessions whose store is gone", async () => {
  const { root, env } = setup();
  writeFileSync(join(root, "a.jsonl"), line({ sid: "s1" }) + line({ kind: "user", text: "alpha" }));
  writeFileSync(join(root, "b.jsonl"), line({ sid: "s2" }) + line({ kind: "user", text: "beta" }));
  await runIndex(env, [fakeParser(root, [])]);
  rmSync(join(root, "b.jsonl"));
  const calls: string[] = [];
  // A plain run keeps what it read before: the history outlives the file.
  await runIndex(env, [fakeParser(root, calls)]);
  assertEquals(calls, []);
  assertEquals(eventsOf(env, "s2").map((e) => e.text), ["beta"]);
  await runIndex(env, [fakeParser(root, calls)], { rebuild: true });
  assertEquals(calls, [join(root, "a.jsonl")]);
  assertEquals(eventsOf(env, "s1").map((e) => e.text), ["alpha"]);
  assertEquals(eventsOf(env, "s2"), []);
});

Deno.test("a rebuild of one harness leaves the others' sessions alone", async () => {
  const { root, env } = setup();
  const otherRoot = join(root, "..", "other");
  mkdirSync(otherRoot);
  writeFileSync(join(root, "a.jsonl"), line({ sid: "s1" }) + line({ kind: "user", text: "alpha" }));
  writeFileSync(
    join(otherRoot, "o.jsonl"),
    line({ sid: "o1" }) + line({ kind: "user", text: "omega" }),
  );
  const both = () => [fakeParser(root, []), fakeParser(otherRoot, [], undefined, "other")];
  await runIndex(env, both());
  rmSync(join(root, "a.jsonl"));
  await runIndex(env, both(), { rebuild: true, only: ["fake"] });
  assertEquals(eventsOf(env, "o1").map((e) => e.text), ["omega"]);
  assertEquals(eventsOf(env, "s1"), []);
});

Deno.test("small stores share a transaction: one events_fts segment, and a store failing among them loses nothing of the others", async () => {
  const { root, env } = setup();
  for (let i = 0; i < 12; i++) {
    const text = i === 5 ? "boom" : `marker${i} words`;
    writeFileSync(join(root, `s${i}.jsonl`), line({ sid: `s${i}` }) + line({ kind: "user", text }));
  }
  const r = await runIndex(env, [fakeParser(root, [], "boom")]);
  assertEquals(r.harnesses[0].failed, 1);
  const s = Store.open(indexPath(env));
  try {
    const one = (sql: string, ...a: string[]) => (s.db.prepare(sql).get(...a) as { n: number }).n;
    // A commit per store would flush events_fts's pending data into a segment per store.
    assertEquals(one("SELECT count(DISTINCT segid) AS n FROM events_fts_idx"), 1);
    for (let i = 0; i < 12; i++) {
      const hits = one(
        "SELECT count(*) AS n FROM events_fts WHERE events_fts MATCH ?",
        `marker${i}`,
      );
      assertEquals(hits, i === 5 ? 0 : 1, `marker${i}`);
    }
    s.db.exec("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)");
  } finally {
    s.close();
  }
});
