/**
 * Tests of the shared pi-family reader (`_pi.ts`, `_pi_events.ts`, `_pi_tools.ts`), run
 * through the pi parser unless a fork's layout matters. Per-harness files test discovery,
 * their fixture and their real stores.
 */
import { assert, assertEquals } from "../tests/_assert.ts";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pi } from "./pi.ts";
import { omp } from "./omp.ts";
import { parseOne, testEnv } from "../tests/_fixture.ts";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { tempDir } from "../tests/_tmp.ts";

export const ID = "0190aaaa-0000-7000-8000-000000000001";
const env = testEnv("/nonexistent-home");

/** A temp directory, removed by `cleanup`. */
export function temp(): { dir: string; cleanup(): void } {
  const dir = tempDir("deja-pi-");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes records (objects, or raw strings written as they are) one per line. */
export function writeJsonl(path: string, lines: unknown[], tail = ""): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(
    path,
    lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l)) + "\n").join("") + tail,
  );
  return path;
}

export const header = (extra: Record<string, unknown> = {}) => ({
  type: "session",
  version: 3,
  id: ID,
  timestamp: "2026-07-01T10:00:00.000Z",
  cwd: "/w/app",
  ...extra,
});

export const entry = (id: string, message: Record<string, unknown>, ts: unknown = undefined) => ({
  type: "message",
  id,
  parentId: null,
  ...(ts === undefined ? { timestamp: "2026-07-01T10:00:01.000Z" } : { timestamp: ts }),
  message,
});

export const user = (id: string, text: string, ts?: unknown) =>
  entry(id, { role: "user", content: [{ type: "text", text }] }, ts);
export const say = (id: string, text: string) =>
  entry(id, { role: "assistant", content: [{ type: "text", text }], model: "m-1" });

const src = (path: string, harness = "pi"): SourceRef => ({ harness, path, kind: "append" });
const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);

Deno.test("header is re-read on a resumed pass so the session id stays the header id", async () => {
  const t = temp();
  try {
    const path = writeJsonl(join(t.dir, `2026-07-01T10-00-00-000Z_${ID}.jsonl`), [
      header(),
      user("u1", "first"),
    ]);
    const full = await parseOne(pi, src(path), env);
    const offset = full.ctx.endOffset!;
    appendFileSync(path, JSON.stringify(say("a1", "second")) + "\n");
    // No saved state at all: only the head re-read can give the id and cwd.
    const resumed = await parseOne(pi, src(path), env, { offset });
    assertEquals(full.sessions[0].id, ID);
    assertEquals(resumed.sessions[0].id, ID);
    assertEquals(resumed.sessions[0].project, "/w/app");
    assertEquals(texts(resumed.sessions[0], "assistant"), ["second"]);
    assertEquals(texts(resumed.sessions[0], "user"), []);
  } finally {
    t.cleanup();
  }
});

Deno.test("saved state keeps the id when the head can no longer be read", async () => {
  const t = temp();
  try {
    const path = writeJsonl(join(t.dir, "x.jsonl"), ["garbage head", say("a1", "later")]);
    const state = { id: ID, cwd: "/w/app" };
    const { sessions } = await parseOne(pi, src(path), env, { state });
    assertEquals(sessions[0].id, ID);
    assertEquals(sessions[0].project, "/w/app");
  } finally {
    t.cleanup();
  }
});

Deno.test("omp title slot before the header still yields the header id on a resume", async () => {
  const t = temp();
  try {
    const path = writeJsonl(join(t.dir, `2026-07-02T09-00-00-000Z_${ID}.jsonl`), [
      { type: "title", v: 1, title: "Slot title", updatedAt: "2026-07-02T09:00:00Z", pad: "  " },
      header({ cwd: "/w/omp" }),
      user("u1", "hello"),
    ]);
    const full = await parseOne(omp, src(path, "omp"), env);
    appendFileSync(path, JSON.stringify(say("a1", "hi")) + "\n");
    const resumed = await parseOne(omp, src(path, "omp"), env, { offset: full.ctx.endOffset });
    assertEquals(full.sessions[0].id, ID);
    assertEquals(resumed.sessions[0].id, ID);
    assertEquals(resumed.sessions[0].title, "Slot title");
    assertEquals(resumed.sessions[0].project, "/w/omp");
  } finally {
    t.cleanup();
  }
});

Deno.test("truncated last line is left for the next run and read once an append completes it", async () => {
  const t = temp();
  try {
    const whole = JSON.stringify(say("a1", "complete later"));
    const path = writeJsonl(
      join(t.dir, "s.jsonl"),
      [header(), user("u1", "q")],
      whole.slice(0, 20),
    );
    const first = await parseOne(pi, src(path), env);
    const size = Deno.statSync(path).size;
    assert(first.ctx.endOffset! < size, "endOffset stops before the partial line");
    assertEquals(texts(first.sessions[0], "assistant"), []);
    appendFileSync(path, whole.slice(20) + "\n");
    const second = await parseOne(pi, src(path), env, { offset: first.ctx.endOffset });
    assertEquals(texts(second.sessions[0], "assistant"), ["complete later"]);
    assertEquals(second.sessions[0].id, ID);
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed, invalid UTF-8 and unknown records are counted and the rest is read", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "s.jsonl");
    writeJsonl(path, [header(), "{not json", user("u1", "kept"), { type: "future", id: "z" }]);
    appendFileSync(path, new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]));
    appendFileSync(path, JSON.stringify(say("a1", "after the bad bytes")) + "\n");
    const { sessions, ctx } = await parseOne(pi, src(path), env);
    assertEquals(ctx.counts.malformed_json, 2); // the bad bytes sit where JSON needs a key
    assertEquals(ctx.counts.invalid_utf8, undefined);
    assertEquals(ctx.counts.unknown_record, 1);
    assertEquals(texts(sessions[0], "user"), ["kept"]);
    assertEquals(texts(sessions[0], "assistant"), ["after the bad bytes"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("unknown first record does not stop the file: id falls back to the file stem", async () => {
  const t = temp();
  try {
    const path = writeJsonl(join(t.dir, "stem-id.jsonl"), [
      { type: "brand_new_header", v: 9 },
      user("u1", "still read"),
    ]);
    const { sessions, ctx } = await parseOne(pi, src(path), env);
    assertEquals(ctx.counts.unknown_record, 1);
    assertEquals(sessions[0].id, "stem-id");
    assertEquals(texts(sessions[0], "user"), ["still read"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("empty file yields no session and is counted as empty", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "empty.jsonl");
    writeFileSync(path, "");
    const { sessions, ctx } = await parseOne(pi, src(path), env);
    assertEquals(sessions.length, 0);
    assertEquals(ctx.counts.empty, 1);
    assertEquals(ctx.endOffset, 0);
  } finally {
    t.cleanup();
  }
});

Deno.test("a record repeated with the same id is kept once, in its first place", async () => {
  const t = temp();
  try {
    const u = user("u1", "asked once");
    const path = writeJsonl(join(t.dir, "s.jsonl"), [header(), u, say("a1", "answer"), u]);
    const { sessions } = await parseOne(pi, src(path), env);
    assertEquals(sessions[0].events.map((e) => e.text), ["asked once", "answer"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("timestamps in ISO, seconds, milliseconds and microseconds all become epoch ms", async () => {
  const t = temp();
  try {
    const ms = 1782900005000;
    const path = writeJsonl(join(t.dir, "s.jsonl"), [
      header(),
      user("u1", "iso", "2026-07-01T10:00:05.000Z"),
      user("u2", "seconds", ms / 1000),
      user("u3", "millis", ms),
      user("u4", "micros", ms * 1000),
      { type: "message", id: "u5", message: { role: "user", content: "inner", timestamp: ms } },
    ]);
    const { sessions } = await parseOne(pi, src(path), env);
    assertEquals(sessions[0].events.map((e) => e.time), [ms, ms, ms, ms, ms]);
    assertEquals(sessions[0].started, 1782900000000);
  } finally {
    t.cleanup();
  }
});

Deno.test("thinking, extension context and developer turns are dropped; compaction is a summary", async () => {
  const t = temp();
  try {
    const path = writeJsonl(join(t.dir, "s.jsonl"), [
      header(),
      entry("a1", {
        role: "assistant",
        content: [{ type: "thinking", thinking: "SECRET" }, { type: "text", text: "visible" }],
      }),
      { type: "custom_message", id: "c1", customType: "x", content: "EXT", display: true },
      entry("c2", { role: "custom", customType: "hook", content: "HOOK" }),
      entry("d1", { role: "developer", content: [{ type: "text", text: "DEV" }] }),
      { type: "compaction", id: "k1", summary: "what happened so far", tokensBefore: 1 },
      { type: "branch_summary", id: "k2", fromId: "a1", summary: "an abandoned branch" },
      entry("s1", { role: "compactionSummary", summary: "in-message summary" }),
    ]);
    const { sessions, ctx } = await parseOne(pi, src(path), env);
    const all = sessions[0].events.map((e) => e.text).join("|");
    assertEquals(all.includes("SECRET") || all.includes("EXT") || all.includes("HOOK"), false);
    assertEquals(all.includes("DEV"), false);
    assertEquals(texts(sessions[0], "summary"), [
      "what happened so far",
      "an abandoned branch",
      "in-message summary",
    ]);
    assertEquals(ctx.skipped, 0);
  } finally {
    t.cleanup();
  }
});

Deno.test("tool calls carry command, read paths, edit spans and writes, paths made absolute", async () => {
  const t = temp();
  try {
    const call = (id: string, name: string, args: unknown) => ({
      type: "toolCall",
      id,
      name,
      arguments: args,
    });
    const path = writeJsonl(join(t.dir, "s.jsonl"), [
      header(),
      entry("a1", {
        role: "assistant",
        content: [
          call("c1", "bash", { command: "make test" }),
          call("c2", "read", { path: "src/a.ts" }),
          call("c3", "edit", { path: "src/a.ts", edits: [{ oldText: "a", newText: "b" }] }),
          call("c4", "edit", { path: "/abs/b.ts", oldText: "x", newText: "y" }),
          call("c5", "write", { path: "NEW.md", content: "new file\n" }),
          call("c6", "exec", { command: "ls -la" }),
        ],
      }),
    ]);
    const { sessions } = await parseOne(pi, src(path), env);
    const tools = sessions[0].events.filter((e) => e.kind === "tool_call").map((e) => e.tool!);
    assertEquals(tools[0].command, "make test");
    assertEquals(tools[1].paths, ["/w/app/src/a.ts"]);
    assertEquals(tools[2].edits, [{ path: "/w/app/src/a.ts", old: "a", new: "b" }]);
    assertEquals(tools[3].edits, [{ path: "/abs/b.ts", old: "x", new: "y" }]);
    assertEquals(tools[4].writes, [{ path: "/w/app/NEW.md", content: "new file\n" }]);
    assertEquals(tools[5].command, "ls -la");
    assert(sessions[0].events.every((e) => e.kind !== "tool_call" || e.text === ""));
  } finally {
    t.cleanup();
  }
});

Deno.test("tool results lose the exit trailer and keep exit from details or the trailer", async () => {
  const t = temp();
  try {
    const result = (id: string, text: string, extra: Record<string, unknown> = {}) =>
      entry(id, {
        role: "toolResult",
        toolCallId: `call-${id}`,
        toolName: "bash",
        content: [{ type: "text", text }],
        ...extra,
      });
    const path = writeJsonl(join(t.dir, "s.jsonl"), [
      header(),
      result("r1", "no such file\n\n\nCommand exited with code 1", { isError: true }),
      result("r2", "boom\n\n(Command exited with code 2)", { details: { exitCode: 2 } }),
      result("r3", "ok\n\n\nWall time: 0.05 seconds", { details: { exitCode: 0 } }),
      result("r4", "plain output"),
      // Marked no error by the harness, no status of its own: pi's bash resolves only exit 0
      // (trial 104 F3: `ls` was "exit unknown"); another tool's says nothing of an exit.
      result("r5", "README.md", { isError: false }),
      result("r6", "read it", { isError: false, toolName: "read" }),
    ]);
    const { sessions } = await parseOne(pi, src(path), env);
    const rs = sessions[0].events.filter((e) => e.kind === "tool_result");
    assertEquals(rs.map((e) => e.text), [
      "no such file",
      "boom",
      "ok",
      "plain output",
      "README.md",
      "read it",
    ]);
    assertEquals(rs.map((e) => e.result?.exit), [1, 2, 0, undefined, 0, undefined]);
    assertEquals(rs.map((e) => e.result?.isError), [true, true, false, false, false, false]);
    assertEquals(rs[0].result?.callId, "call-r1");
  } finally {
    t.cleanup();
  }
});

Deno.test("a ! command typed by the person becomes a bash call and its result with exit", async () => {
  const t = temp();
  try {
    const path = writeJsonl(join(t.dir, "s.jsonl"), [
      header(),
      entry("b1", {
        role: "bashExecution",
        command: "npm test",
        output: "1 failing\n",
        exitCode: 1,
      }),
    ]);
    const { sessions } = await parseOne(pi, src(path), env);
    const [call, res] = sessions[0].events;
    assertEquals(call.tool?.command, "npm test");
    assertEquals(res.result, { callId: "b1", exit: 1, isError: true });
    assertEquals(res.text, "1 failing");
  } finally {
    t.cleanup();
  }
});

Deno.test("a file under <session>/ beside <session>.jsonl is a child with that session as parent", async () => {
  const t = temp();
  try {
    writeJsonl(join(t.dir, "-w-app", "abc.jsonl"), [header(), user("u1", "parent")]);
    const child = writeJsonl(join(t.dir, "-w-app", "abc", "1-explore.jsonl"), [
      header(), // a child that copied its parent's header id must still get its own id
      user("u1", "child"),
    ]);
    const { sessions } = await parseOne(pi, src(child), env);
    assertEquals(sessions[0].parent, ID);
    assertEquals(sessions[0].id, `${ID}/1-explore`);
  } finally {
    t.cleanup();
  }
});

Deno.test("a file holding only bookkeeping yields no session", async () => {
  const t = temp();
  try {
    const path = writeJsonl(join(t.dir, "s.jsonl"), [
      header(),
      { type: "model_change", id: "m", provider: "p", modelId: "x" },
      { type: "thinking_level_change", id: "t", thinkingLevel: "off" },
    ]);
    const { sessions, ctx } = await parseOne(pi, src(path), env);
    assertEquals(sessions.length, 0);
    assertEquals(ctx.skipped, 0);
    assertEquals((ctx.endState as { id?: string }).id, ID);
  } finally {
    t.cleanup();
  }
});
