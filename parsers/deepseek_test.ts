import { assert, assertEquals, assertThrows } from "../tests/_assert.ts";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { constants, zstdCompressSync } from "node:zlib";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { mergeChunks } from "../lib/merge.ts";
import { deepseek } from "./deepseek.ts";
import { isZstd, unzstd } from "./_zstd.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";

// ---- helpers -----------------------------------------------------------------

function temp(): { dir: string; cleanup(): void } {
  const dir = tempDir("deja-dsh-");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One zstd frame with a checksum, as the harness writes each flush. */
const frame = (text: string) =>
  new Uint8Array(
    zstdCompressSync(new TextEncoder().encode(text), {
      params: { [constants.ZSTD_c_checksumFlag]: 1 },
    }),
  );
const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const ID = "session-0000-aaaa";
const header = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: "session",
    version: 0,
    id: ID,
    createdAt: 1772355600000,
    cwd: "/w/app",
    delegationDepth: 0,
    ...extra,
  });
const ev = (type: string, seq: number, data: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type, seq, time: 1772355600000 + seq, data, ...extra });
const userMsg = (seq: number, text: string, kind = "user") =>
  ev("user/message", seq, { content: [{ type: "text", text }], source: { kind } });
const delta = (seq: number, text: string, step = 1) =>
  ev("assistant/chunk", seq, { turn: 1, step, chunk: { type: "text-delta", index: 0, text } });
const whole = (seq: number, text: string, step = 1) =>
  ev("assistant/message", seq, {
    turn: 1,
    step,
    message: {
      role: "assistant",
      content: [{ type: "reasoning", text: "thinking" }, { type: "text", text }],
    },
  });

function write(dir: string, name: string, content: string | Uint8Array): string {
  const d = join(dir, "--w-app--", ID);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, name), content);
  return join(d, name);
}

const src = (path: string): SourceRef => ({
  harness: "deepseek",
  path,
  kind: path.endsWith(".zstd") ? "document" : "append",
});
const parse = (path: string, offset = 0) =>
  parseOne(deepseek, src(path), testEnv("/nohome"), { offset });
const kinds = (s: Session | undefined, kind?: Event["kind"]) =>
  (s?.events ?? []).filter((e) => !kind || e.kind === kind);
const texts = (s: Session | undefined) => (s?.events ?? []).map((e) => `${e.kind}:${e.text}`);

// ---- zstd frames -----------------------------------------------------------------

Deno.test("unzstd decodes every concatenated frame when node:zlib alone would stop after the first", () => {
  const data = cat(frame("a\n"), frame("b\n"), frame("c\n"));
  const r = unzstd(data);
  assertEquals([new TextDecoder().decode(r.data), r.frames, r.torn], ["a\nb\nc\n", 3, undefined]);
  assert(isZstd(data) && !isZstd(new Uint8Array([1, 2, 3, 4])));
  // A skippable frame (magic 0x184D2A50) between data frames is passed over.
  const skippable = new Uint8Array([0x50, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 9, 9]);
  assertEquals(new TextDecoder().decode(unzstd(cat(frame("x"), skippable, frame("y"))).data), "xy");
});

Deno.test("unzstd reports a torn last frame and, when lenient, a bad frame, keeping what came before", () => {
  const good = frame("head\n");
  const next = frame("tail\n");
  const torn = unzstd(cat(good, next.subarray(0, next.length - 2)));
  assertEquals([new TextDecoder().decode(torn.data), torn.torn], ["head\n", good.length]);
  const junk = cat(good, new Uint8Array([1, 2, 3, 4, 5, 6]));
  assertThrows(() => unzstd(junk));
  const lenient = unzstd(junk, { lenient: true });
  assertEquals([new TextDecoder().decode(lenient.data), lenient.bad?.at], ["head\n", good.length]);
});

// ---- discovery -----------------------------------------------------------------

Deno.test("discover reads one log per session directory: the highest generation, compressed before plain", async () => {
  const t = temp();
  try {
    write(t.dir, "session.jsonl", header() + "\n");
    write(t.dir, "session.v2.jsonl", header({ version: 2 }) + "\n");
    const v2z = write(t.dir, "session.v2.jsonl.zstd", frame(header({ version: 2 }) + "\n"));
    write(t.dir, "notes.jsonl", "{}\n");
    mkdirSync(join(t.dir, "_no-cwd", "session-x"), { recursive: true });
    const plain = join(t.dir, "_no-cwd", "session-x", "session.jsonl");
    writeFileSync(plain, header() + "\n");
    const d = await deepseek.discover({
      env: testEnv("/nohome", { DEJA_DEEPSEEK_ROOT: t.dir }),
      knownProjects: [],
    });
    assertEquals(
      d.sources.map((s) => [s.path, s.kind]).sort(),
      [[v2z, "document"], [plain, "append"]].sort(),
    );
    const viaHome = await deepseek.discover({
      env: testEnv("/nohome", { DSH_HOME: join(t.dir, "..") }),
      knownProjects: [],
    });
    assertEquals(viaHome.roots, [join(t.dir, "..", "sessions")]);
  } finally {
    t.cleanup();
  }
});

// ---- records -------------------------------------------------------------------

Deno.test("streamed pieces and the whole answer give one assistant event placed where the stream began", async () => {
  const t = temp();
  try {
    const path = write(
      t.dir,
      "session.jsonl",
      [
        header(),
        userMsg(1, "run it"),
        delta(2, "Running "),
        delta(3, "now."),
        ev("tool/call", 4, {
          turn: 1,
          step: 1,
          callId: "c1",
          name: "bash",
          arguments: JSON.stringify({ command: "cat missing.txt" }),
        }),
        whole(5, "Running now."),
        ev("step/end", 6, { turn: 1, step: 1 }),
      ].join("\n") + "\n",
    );
    const s = (await parse(path)).sessions[0];
    assertEquals(texts(s), ["user:run it", "assistant:Running now.", "tool_call:"]);
    assertEquals(kinds(s, "tool_call")[0].tool?.command, "cat missing.txt");
    assert(!JSON.stringify(s).includes("thinking"), "reasoning leaked");
  } finally {
    t.cleanup();
  }
});

Deno.test("an interrupted answer is the concatenation of its delta and packed pieces when no whole message follows", async () => {
  const t = temp();
  try {
    const path = write(
      t.dir,
      "session.jsonl",
      [
        header(),
        userMsg(1, "explain"),
        JSON.stringify({
          type: "reasoning-chunks",
          seq0: 2,
          time0: 1772355600002,
          data: { turn: 1, step: 1, dt: [1], texts: ["hmm", "."] },
        }),
        JSON.stringify({
          type: "text-chunks",
          seq0: 4,
          time0: 1772355600004,
          data: { turn: 1, step: 1, dt: [1, 1], texts: ["It ", "builds, ", "then "] },
        }),
        delta(7, "ships."),
      ].join("\n") + "\n",
    );
    const s = (await parse(path)).sessions[0];
    assertEquals(texts(s), ["user:explain", "assistant:It builds, then ships."]);
    assertEquals(s.events[1].time, 1772355600007);
  } finally {
    t.cleanup();
  }
});

Deno.test("user messages from plugins, skill catalogs or without a source are harness context and dropped", async () => {
  const t = temp();
  try {
    const path = write(
      t.dir,
      "session.jsonl",
      [
        header(),
        userMsg(1, "<system-reminder>rules</system-reminder>", "plugin"),
        userMsg(2, "skills: a, b", "skill-catalog"),
        ev("user/message", 3, { content: [{ type: "text", text: "no source" }] }),
        userMsg(4, "typed by a person"),
      ].join("\n") + "\n",
    );
    assertEquals(texts((await parse(path)).sessions[0]), ["user:typed by a person"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("tool calls decode their JSON-string arguments and results carry isError and the call id", async () => {
  const t = temp();
  try {
    const path = write(
      t.dir,
      "session.jsonl",
      [
        header(),
        ev("tool/call", 1, {
          callId: "e",
          name: "edit",
          arguments: JSON.stringify({
            filePath: "README.md",
            oldString: "hello world",
            newString: "hello zebrafinch",
          }),
        }),
        ev("tool/call", 2, {
          callId: "w",
          name: "write",
          arguments: JSON.stringify({ filePath: "/abs/n.md", content: "n" }),
        }),
        ev("tool/call", 3, {
          callId: "p",
          name: "pwsh",
          arguments: JSON.stringify({ command: "Get-ChildItem" }),
        }),
        ev("tool/result", 4, {
          message: {
            role: "user",
            source: { kind: "tool", callId: "e" },
            content: [{
              type: "tool-result",
              toolCallId: "e",
              content: [{ type: "text", text: "ok" }],
              isError: false,
            }],
          },
        }),
        ev("tool/result", 5, {
          message: { source: { kind: "tool", callId: "p" }, content: [] },
          error: { message: "denied" },
        }),
        ev("tool/call", 6, { callId: "x", arguments: "{}" }),
      ].join("\n") + "\n",
    );
    const { sessions, ctx } = await parse(path);
    const calls = kinds(sessions[0], "tool_call").map((e) => e.tool);
    assertEquals(calls[0]?.edits, [{
      path: "/w/app/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
    assertEquals(calls[1]?.writes, [{ path: "/abs/n.md", content: "n" }]);
    assertEquals(calls[2]?.command, "Get-ChildItem");
    assertEquals(kinds(sessions[0], "tool_result").map((e) => [e.text, e.result]), [
      ["ok", { callId: "e", isError: false }],
      ["denied", { callId: "p", isError: true }],
    ]);
    assertEquals(ctx.counts, { bad_shape: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("title, model, summary, subagent parent and unknown types come from their records", async () => {
  const t = temp();
  try {
    const path = write(
      t.dir,
      "session.jsonl",
      [
        header({ parentSession: "session-parent", origin: "subagent", cwd: undefined }),
        ev("session/title", 1, { title: "First" }),
        ev("model/selection", 2, { provider: "p", model: "deepseek-v4-flash" }),
        ev("session/title", 3, { title: "Better title" }),
        ev("compaction/summary", 4, { summary: "Earlier: the README was fixed." }),
        ev("permission/preset", 5, { preset: "default" }),
        ev("cam/observed", 6, {}),
        ev("cam/quiet", 7, {}, { ignorable: true }),
      ].join("\n") + "\n",
    );
    const { sessions, ctx } = await parse(path);
    const s = sessions[0];
    assertEquals([s.title, s.model, s.parent, s.project, s.started], [
      "Better title",
      "deepseek-v4-flash",
      "session-parent",
      undefined,
      1772355600000,
    ]);
    assertEquals(texts(s), ["summary:Earlier: the README was fixed."]);
    assertEquals(ctx.counts, { unknown_record: 1 });
  } finally {
    t.cleanup();
  }
});

// ---- the compressed log -----------------------------------------------------------------

Deno.test("a zstd-framed log (header frame, then one frame per flush) parses like the same log in plain JSONL", async () => {
  const t = temp();
  try {
    const fixture = join(
      REPO,
      "fixtures/registry/deepseek/--home-dev-shop--/session-3f2a9c1e-aaaa-4b6c-9d01-000000000001/session.jsonl",
    );
    const lines = readFileSync(fixture, "utf8").split("\n").filter(Boolean);
    const mid = 12;
    const compressed = cat(
      frame(lines[0] + "\n"),
      frame(lines.slice(1, mid).join("\n") + "\n"),
      frame(lines.slice(mid).join("\n") + "\n"),
    );
    const z = write(t.dir, "session.jsonl.zstd", compressed);
    const plain = await parseOne(deepseek, src(fixture), testEnv("/nohome"));
    const packed = await parse(z);
    assertEquals(
      packed.sessions.map((s) => ({ ...s, path: "" })),
      plain.sessions.map((s) => ({ ...s, path: "" })),
    );
    assertEquals(packed.ctx.counts, plain.ctx.counts);
    assert(
      texts(packed.sessions[0]).includes(
        "assistant:README.md now says hello zebrafinch. zebrafinch-deepseek",
      ),
    );
  } finally {
    t.cleanup();
  }
});

Deno.test("a torn last frame is left for the next read and damage between frames is passed over, both counted", async () => {
  const t = temp();
  try {
    const head = frame(header() + "\n");
    const body = frame(userMsg(1, "first") + "\n");
    const tail = frame(userMsg(2, "second") + "\n");
    const path = write(t.dir, "session.jsonl.zstd", cat(head, body, tail.subarray(0, 7)));
    const torn = await parse(path);
    assertEquals([texts(torn.sessions[0]), torn.ctx.counts], [["user:first"], {
      malformed_json: 1,
    }]);
    writeFileSync(path, cat(head, body, tail));
    assertEquals(texts((await parse(path)).sessions[0]), ["user:first", "user:second"]);
    writeFileSync(path, cat(head, body, new Uint8Array([9, 9, 9, 9, 9]), tail));
    const bad = await parse(path);
    assertEquals([texts(bad.sessions[0]), bad.ctx.counts], [["user:first", "user:second"], {
      corrupt: 1,
    }]);
    writeFileSync(path, "");
    assertEquals((await parse(path)).ctx.counts, { empty: 1 });
  } finally {
    t.cleanup();
  }
});

// ---- hostile plain logs ---------------------------------------------------------------------

Deno.test("an empty plain log is counted empty and yields nothing", async () => {
  const t = temp();
  try {
    const { sessions, ctx } = await parse(write(t.dir, "session.jsonl", ""));
    assertEquals([sessions, ctx.counts], [[], { empty: 1 }]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a truncated last line is left for the next pass and an append completes it", async () => {
  const t = temp();
  try {
    const start = header() + "\n" + userMsg(1, "first") + "\n";
    const last = userMsg(2, "second");
    const path = write(t.dir, "session.jsonl", start + last.slice(0, 25));
    const one = await parse(path);
    assertEquals([texts(one.sessions[0]), one.ctx.endOffset], [
      ["user:first"],
      Buffer.byteLength(start),
    ]);
    appendFileSync(path, last.slice(25) + "\n");
    const two = await parse(path, one.ctx.endOffset);
    assertEquals(two.sessions.map((s) => [s.id, texts(s)]), [[ID, ["user:second"]]]);
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed and invalid UTF-8 lines mid-file are counted and the records after them read", async () => {
  const t = temp();
  try {
    const path = write(t.dir, "session.jsonl", header() + "\n{broken\n");
    appendFileSync(path, new Uint8Array([0x7b, 0xc3, 0x28, 0x7d, 0x0a]));
    appendFileSync(path, userMsg(1, "after") + "\n");
    const { sessions, ctx } = await parse(path);
    assertEquals([texts(sessions[0]), ctx.counts], [["user:after"], {
      malformed_json: 2,
    }]);
  } finally {
    t.cleanup();
  }
});

Deno.test("an unknown first record is counted and the session takes its directory's name as id", async () => {
  const t = temp();
  try {
    const path = write(
      t.dir,
      "session.jsonl",
      JSON.stringify({ kind: "mystery" }) + "\n" + userMsg(1, "hi") + "\n",
    );
    const { sessions, ctx } = await parse(path);
    assertEquals([sessions[0].id, ctx.counts], [ID, { unknown_record: 1 }]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a resumed parse keeps the header's session id and the whole answer replaces pieces flushed earlier", async () => {
  const t = temp();
  try {
    const first =
      [header({ id: "session-from-header" }), userMsg(1, "q"), delta(2, "partial ")].join("\n") +
      "\n";
    const path = write(t.dir, "session.jsonl", first);
    const one = await parse(path);
    assertEquals(texts(one.sessions[0]), ["user:q", "assistant:partial"]);
    appendFileSync(path, [delta(3, "answer"), whole(4, "partial answer")].join("\n") + "\n");
    const two = await parse(path, one.ctx.endOffset);
    assertEquals(two.sessions[0].id, "session-from-header");
    const merged = mergeChunks([...one.sessions, ...two.sessions]);
    assertEquals(texts(merged[0]), ["user:q", "assistant:partial answer"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("the registry fixture parses through discovery without errors", async () => {
  const root = join(REPO, "fixtures/registry/deepseek");
  const run = await runParser(deepseek, testEnv("/nohome", { DEJA_DEEPSEEK_ROOT: root }));
  assertEquals(run.errors, {});
  assertEquals(run.sessions.length, 4);
});

Deno.test("unzstd, when lenient, goes on at the next frame after a damaged or cut-short frame", () => {
  const [a, b, c] = [frame("a\n"), frame("b\n"), frame("c\n")];
  // A flipped byte inside b's compressed data and b cut short in the middle of the file.
  const flipped = b.slice();
  flipped[flipped.length - 3] ^= 0xff;
  const junk = new Uint8Array([1, 2, 3, 4, 5, 6]);
  for (const mid of [junk, b.subarray(0, b.length - 2), cat(junk, flipped)]) {
    const r = unzstd(cat(a, mid, c), { lenient: true });
    const text = new TextDecoder().decode(r.data);
    assert(text.startsWith("a\n") && text.endsWith("c\n"), JSON.stringify(text));
    assert((r.damaged?.length ?? 0) >= 1);
  }
});
