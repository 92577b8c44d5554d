import { assert, assertEquals } from "../tests/_assert.ts";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { zstdCompressSync } from "node:zlib";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { reasonix, reasonixRoot, tomlStateDir } from "./reasonix.ts";
import { materialize, parseOne, REPO, testEnv } from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";

// ---- helpers -----------------------------------------------------------------

function temp(): { dir: string; cleanup(): void } {
  const dir = tempDir("deja-rx-");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function put(path: string, content: string | Uint8Array): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

const lines = (...msgs: unknown[]) => msgs.map((m) => JSON.stringify(m)).join("\n") + "\n";
const jsonl = (path: string): SourceRef => ({ harness: "reasonix", path, kind: "append" });
const parse = (path: string, offset = 0) =>
  parseOne(reasonix, jsonl(path), testEnv("/nohome"), { offset });
const kinds = (s: Session | undefined, kind?: Event["kind"]) =>
  (s?.events ?? []).filter((e) => !kind || e.kind === kind);
const texts = (s: Session | undefined) => (s?.events ?? []).map((e) => `${e.kind}:${e.text}`);

/** One `RX4F` frame: magic, compressed and raw length (big-endian), one zstd frame of a JSON record. */
function rx(record: unknown): Uint8Array {
  const raw = new TextEncoder().encode(JSON.stringify(record));
  const z = new Uint8Array(zstdCompressSync(raw));
  const out = new Uint8Array(12 + z.length);
  out.set([0x52, 0x58, 0x34, 0x46]);
  new DataView(out.buffer).setUint32(4, z.length);
  new DataView(out.buffer).setUint32(8, raw.length);
  out.set(z, 12);
  return out;
}
const b64 = (v: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(v))));
const rec = (type: string, payload?: unknown) => ({
  type,
  ...(payload === undefined ? {} : { payload: b64(payload) }),
});
const frames = (...records: unknown[]) => {
  const parts = records.map(rx);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

// ---- roots and discovery ------------------------------------------------------------

Deno.test("the state root follows REASONIX_STATE_HOME, then config.toml [storage] state, then REASONIX_HOME", async () => {
  const t = temp();
  try {
    assertEquals(
      await reasonixRoot(testEnv("/h", { REASONIX_STATE_HOME: "/s", REASONIX_HOME: "/r" })),
      "/s",
    );
    assertEquals(await reasonixRoot(testEnv("/h")), "/h/.reasonix");
    put(
      join(t.dir, "config.toml"),
      '[model]\nstate = "no"\n[storage] # where\nstate = "/var/rx-state"\n',
    );
    assertEquals(await reasonixRoot(testEnv("/h", { REASONIX_HOME: t.dir })), "/var/rx-state");
    assertEquals(tomlStateDir("[storage]\nother = 1\n"), undefined);
  } finally {
    t.cleanup();
  }
});

Deno.test("discover lists transcripts and frame logs, ignores sibling logs and subagents, and prefers 1.x stores per id", async () => {
  const t = temp();
  try {
    const p = join(t.dir, "projects", "-w-rx");
    const s1 = put(join(p, "sessions", "s1.jsonl"), lines({ role: "user", content: "a" }));
    put(join(p, "sessions", "s1.events.jsonl"), "{}\n");
    put(join(p, "sessions", "subagent-x.jsonl"), "{}\n");
    put(join(p, "sessions", "subagents", "c.jsonl"), "{}\n");
    put(join(p, "sessions", "s2.jsonl"), "{}\n");
    const s2v4 = put(join(p, "sessions-v4", "s2", "events.frames"), frames());
    put(join(t.dir, "sessions", "s3.jsonl"), "{}\n");
    put(join(t.dir, "sessions-v4", "s3", "events.frames"), frames());
    const s3v5 = put(join(t.dir, "desktop-sessions-v5", "by-id", "s3", "events.frames"), frames());
    put(join(t.dir, "sessions-v4", "s3", ".content-v1", "objects", "aa", "x.jsonl"), "{}\n");
    const d = await reasonix.discover({
      env: testEnv("/nohome", { DEJA_REASONIX_ROOT: t.dir }),
      knownProjects: [],
    });
    assertEquals(
      d.sources.map((s) => [s.hint?.id, s.path, s.kind]).sort(),
      [["s1", s1, "append"], ["s2", s2v4, "document"], ["s3", s3v5, "document"]],
    );
  } finally {
    t.cleanup();
  }
});

// ---- JSONL transcripts -------------------------------------------------------------

Deno.test("raw_content wins over content and system, host_authored and local_only lines are dropped", async () => {
  const t = temp();
  try {
    const path = put(
      join(t.dir, "sessions", "s.jsonl"),
      lines(
        { role: "system", content: "You are Reasonix." },
        {
          role: "user",
          content: "typed\n<context>injected</context>",
          raw_content: "typed",
          createdAt: 1772355600500,
        },
        { role: "user", content: "[host] continue", host_authored: true },
        { role: "assistant", content: "partial", local_only: true },
        { role: "assistant", content: "answer", reasoning_content: "private chain" },
      ),
    );
    const s = (await parse(path)).sessions[0];
    assertEquals(texts(s), ["user:typed", "assistant:answer"]);
    assertEquals(s.events[0].time, 1772355600500);
    assert(!JSON.stringify(s).includes("private chain"));
  } finally {
    t.cleanup();
  }
});

Deno.test("flat and nested tool calls decode their JSON-string arguments into commands, edits, writes and paths", async () => {
  const t = temp();
  try {
    const args = (v: unknown) => JSON.stringify(v);
    const path = put(
      join(t.dir, "sessions", "s.jsonl"),
      lines(
        {
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "a", name: "bash", arguments: args({ command: "cat missing.txt" }) },
            {
              id: "b",
              name: "edit_file",
              arguments: args({
                path: "README.md",
                old_string: "hello world",
                new_string: "hello zebrafinch",
              }),
            },
            {
              id: "c",
              name: "multi_edit",
              arguments: args({
                path: "x.ts",
                edits: [{ old_string: "1", new_string: "2" }, { old_string: "3", new_string: "4" }],
              }),
            },
            {
              id: "d",
              type: "function",
              function: {
                name: "write_file",
                arguments: args({ path: "/abs/n.md", content: "n" }),
              },
            },
            {
              id: "e",
              name: "move_file",
              arguments: args({ source_path: "a", destination_path: "b" }),
            },
            { id: "f", name: "read_file", arguments: "{not json" },
            { id: "g", arguments: "{}" },
          ],
        },
      ),
    );
    const { sessions, ctx } = await parse(path);
    const calls = kinds(sessions[0], "tool_call").map((e) => e.tool);
    assertEquals(calls[0]?.command, "cat missing.txt");
    assertEquals(calls[1]?.edits, [{
      path: "README.md",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
    assertEquals(calls[2]?.edits?.length, 2);
    assertEquals(calls[3]?.writes, [{ path: "/abs/n.md", content: "n" }]);
    assertEquals(calls[4]?.paths, ["a", "b"]);
    assertEquals([calls[5]?.name, calls[5]?.input], ["read_file", "{not json"]);
    assertEquals(ctx.counts, { bad_shape: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("tool results carry tool_execution.exitCode and tool_failure as isError", async () => {
  const t = temp();
  try {
    const path = put(
      join(t.dir, "sessions", "s.jsonl"),
      lines(
        {
          role: "tool",
          tool_call_id: "a",
          name: "bash",
          content: "short",
          raw_content: "full output",
          tool_execution: { exitCode: 2 },
          tool_failure: { reason: "exit 2" },
        },
        { role: "tool", tool_call_id: "b", name: "read_file", content: "text" },
      ),
    );
    assertEquals(
      kinds((await parse(path)).sessions[0], "tool_result").map((e) => [e.text, e.result]),
      [
        ["full output", { callId: "a", isError: true, exit: 2 }],
        ["text", { callId: "b", isError: false }],
      ],
    );
  } finally {
    t.cleanup();
  }
});

Deno.test("the .meta sidecar gives project, title and times, and 0.x .meta.json its workspace and summary", async () => {
  const t = temp();
  try {
    const a = put(
      join(t.dir, "projects", "-w-rx", "sessions", "a.jsonl"),
      lines({ role: "user", content: "q" }),
    );
    put(
      `${a}.meta`,
      JSON.stringify({
        workspace_root: "/w/rx",
        topic_title: "Topic",
        custom_title: "Custom",
        created_at: "2026-03-01T09:00:00Z",
        updated_at: 1772359200123,
      }),
    );
    const b = put(join(t.dir, "sessions", "b.jsonl"), lines({ role: "user", content: "q" }));
    put(
      join(t.dir, "sessions", "b.meta.json"),
      JSON.stringify({ workspace: "/w/old", summary: "Old summary" }),
    );
    const sa = (await parse(a)).sessions[0];
    assertEquals([sa.id, sa.project, sa.title, sa.started, sa.updated], [
      "a",
      "/w/rx",
      "Custom",
      Date.UTC(2026, 2, 1, 9),
      1772359200123,
    ]);
    const sb = (await parse(b)).sessions[0];
    assertEquals([sb.project, sb.title], ["/w/old", "Old summary"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("the registry fixture's transcript gives the failing command with its exit and the README edit", async () => {
  const fx = materialize(join(REPO, "fixtures/registry/reasonix"));
  try {
    const d = await reasonix.discover({
      env: testEnv("/nohome", { DEJA_REASONIX_ROOT: fx.root }),
      knownProjects: [],
    });
    const s = (await parseOne(reasonix, d.sources[0], testEnv("/nohome"))).sessions[0];
    const cat = kinds(s, "tool_call").find((e) => e.tool?.command === "cat missing.txt");
    const result = kinds(s, "tool_result").find((e) => e.result?.callId === cat?.tool?.id);
    assertEquals(result?.result?.exit, 1);
    assert(
      kinds(s, "tool_call").some((e) =>
        e.tool?.edits?.[0]?.old === "hello world" && e.tool.edits[0].new === "hello zebrafinch"
      ),
    );
    assert(texts(s).some((x) => x.includes("zebrafinch-reasonix")));
  } finally {
    fx.cleanup();
  }
});

// ---- hostile transcripts -------------------------------------------------------------

Deno.test("an empty transcript is counted empty and yields nothing", async () => {
  const t = temp();
  try {
    const { sessions, ctx } = await parse(put(join(t.dir, "sessions", "e.jsonl"), ""));
    assertEquals([sessions, ctx.counts], [[], { empty: 1 }]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a truncated last line is left for the next pass and an appended completion is read from the offset", async () => {
  const t = temp();
  try {
    const first = lines({ role: "user", content: "one" });
    const second = JSON.stringify({ role: "assistant", content: "two" });
    const path = put(join(t.dir, "sessions", "r.jsonl"), first + second.slice(0, 12));
    const a = await parse(path);
    assertEquals([texts(a.sessions[0]), a.ctx.endOffset], [["user:one"], Buffer.byteLength(first)]);
    appendFileSync(path, second.slice(12) + "\n");
    const b = await parse(path, a.ctx.endOffset);
    assertEquals(b.sessions.map((s) => [s.id, texts(s)]), [["r", ["assistant:two"]]]);
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed, invalid UTF-8 and unknown-role lines are counted, including an unknown first record", async () => {
  const t = temp();
  try {
    const path = put(
      join(t.dir, "sessions", "h.jsonl"),
      JSON.stringify({ kind: "header?" }) + "\n{oops\n",
    );
    appendFileSync(path, new Uint8Array([0x22, 0xe2, 0x82, 0x22, 0x0a]));
    appendFileSync(
      path,
      lines({ role: "critic", content: "?" }, { role: "user", content: "kept" }),
    );
    const { sessions, ctx } = await parse(path);
    assertEquals(texts(sessions[0]), ["user:kept"]);
    assertEquals(ctx.counts, {
      unknown_record: 2,
      malformed_json: 1,
      invalid_utf8: 1,
      bad_shape: 1,
    });
  } finally {
    t.cleanup();
  }
});

// ---- 1.x frame logs ----------------------------------------------------------------------

Deno.test("a frame log replays committed batches and ignores an unterminated last batch", async () => {
  const t = temp();
  try {
    const dir = join(t.dir, "projects", "-w-rx", "sessions-v4", "sv4");
    put(
      join(dir, "manifest.json"),
      JSON.stringify({ sessionId: "sv4", createdAt: 1772355600000, codec: "v4" }),
    );
    put(
      join(t.dir, "projects", "-w-rx", "sessions", "sv4.jsonl.meta"),
      JSON.stringify({ workspace_root: "/w/rx" }),
    );
    const path = put(
      join(dir, "events.frames"),
      frames(
        rec("batch/begin"),
        rec("message/complete", {
          id: "m1",
          role: "user",
          content: "first question",
          createdAt: 1772355600100,
        }),
        rec("message/complete", { id: "m2", role: "assistant", content: "draft" }),
        rec("message/upsert", {
          id: "m2",
          role: "assistant",
          content: "final answer",
          tool_calls: [{ id: "c", name: "bash", arguments: '{"command":"ls"}' }],
        }),
        rec("message/complete", { id: "m3", role: "user", content: "retracted", origin: "user" }),
        rec("message/retract", { ids: ["m3"] }),
        rec("message/complete", {
          id: "m4",
          role: "user",
          content: "from the host",
          origin: "host",
        }),
        rec("session/title", { title: "Frames title" }),
        rec("batch/end"),
        rec("batch/begin"),
        rec("message/complete", { id: "m5", role: "user", content: "still being written" }),
      ),
    );
    const { sessions, ctx } = await parseOne(reasonix, {
      harness: "reasonix",
      path,
      kind: "document",
      hint: { id: "sv4", store: "v4" },
    }, testEnv("/nohome"));
    const s = sessions[0];
    assertEquals(texts(s), ["user:first question", "assistant:final answer", "tool_call:"]);
    assertEquals([s.id, s.title, s.project, s.started], [
      "sv4",
      "Frames title",
      "/w/rx",
      1772355600000,
    ]);
    assertEquals(ctx.counts, {});
  } finally {
    t.cleanup();
  }
});

Deno.test("history/replace swaps the list, payloadRef is counted unsupported and a torn frame is dropped", async () => {
  const t = temp();
  try {
    const whole = frames(
      rec("message/complete", { id: "a", role: "user", content: "gone" }),
      rec("history/replace", {
        messages: [{ id: "b", role: "user", content: "compacted history" }],
      }),
      { type: "message/complete", payloadRef: "ab/cd/0123" },
      rec("mystery/type", {}),
    );
    const tail = rx(rec("message/complete", { id: "c", role: "assistant", content: "torn" }));
    const path = put(
      join(t.dir, "sessions-v4", "x", "events.frames"),
      new Uint8Array([...whole, ...tail.subarray(0, 20)]),
    );
    const { sessions, ctx } = await parseOne(reasonix, {
      harness: "reasonix",
      path,
      kind: "document",
    }, testEnv("/nohome"));
    assertEquals(texts(sessions[0]), ["user:compacted history"]);
    assertEquals(sessions[0].id, "x");
    assertEquals(ctx.counts, { unsupported: 1, unknown_record: 1 });
    writeFileSync(path, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]));
    assertEquals(
      (await parseOne(
        reasonix,
        { harness: "reasonix", path, kind: "document" },
        testEnv("/nohome"),
      )).ctx.counts,
      { corrupt: 1 },
    );
  } finally {
    t.cleanup();
  }
});
