import { assert, assertEquals, assertRejects } from "../tests/_assert.ts";
import { DatabaseSync } from "node:sqlite";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { zstdCompressSync } from "node:zlib";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { zed, zedRoot } from "./zed.ts";
import { resultText, terminalOutput, zedPath } from "./_zed_thread.ts";
import { StoreError } from "../core/sqlite_read.ts";
import { parseOne, testEnv } from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";

// ---- helpers -----------------------------------------------------------------

const FULL =
  `CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL,
  data_type TEXT NOT NULL, data BLOB NOT NULL, parent_id TEXT, folder_paths TEXT, folder_paths_order TEXT, created_at TEXT);`;
/** The table as the first Zed releases created it (db.rs, before the ALTER TABLEs). */
const ORIGINAL =
  `CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL,
  data_type TEXT NOT NULL, data BLOB NOT NULL);`;

function temp(): { dir: string; cleanup(): void } {
  const dir = tempDir("deja-zed-");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

interface Row {
  id: string;
  doc?: unknown;
  type?: string;
  data?: Uint8Array;
  updated?: string;
  created?: string | null;
  folders?: string | null;
  parent?: string | null;
}

function store(dir: string, rows: Row[], schema = FULL): string {
  mkdirSync(join(dir, "threads"), { recursive: true });
  const path = join(dir, "threads", "threads.db");
  const db = new DatabaseSync(path);
  db.exec(schema);
  const full = schema === FULL;
  const ins = rows.length === 0 ? undefined : db.prepare(
    full
      ? "INSERT INTO threads VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)"
      : "INSERT INTO threads VALUES (?, ?, ?, ?, ?)",
  );
  for (const r of rows) {
    const json = new TextEncoder().encode(JSON.stringify(r.doc ?? {}));
    const type = r.type ?? "zstd";
    const data = r.data ?? (type === "zstd" ? new Uint8Array(zstdCompressSync(json)) : json);
    const base = [
      r.id,
      `row summary ${r.id}`,
      r.updated ?? "2026-03-01T10:00:00+00:00",
      type,
      data,
    ];
    if (full) ins?.run(...base, r.parent ?? null, r.folders ?? null, r.created ?? null);
    else ins?.run(...base);
  }
  db.close();
  return path;
}

const src = (path: string): SourceRef => ({ harness: "zed", path, kind: "sqlite" });
const parse = (path: string, since = 0) => parseOne(zed, src(path), testEnv("/nohome"), { since });
const kinds = (s: Session | undefined, kind?: Event["kind"]) =>
  (s?.events ?? []).filter((e) => !kind || e.kind === kind);

const user = (...content: unknown[]) => ({ User: { id: "u", content } });
const agent = (content: unknown[], tool_results: Record<string, unknown> = {}) => ({
  Agent: { content, tool_results, reasoning_details: null },
});
const use = (id: string, name: string, input: unknown) => ({
  ToolUse: { id, name, raw_input: JSON.stringify(input), input, is_input_complete: true },
});
const v3 = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  title: "T",
  messages,
  updated_at: "2026-03-01T10:00:00Z",
  version: "0.3.0",
  ...extra,
});

// ---- discovery -----------------------------------------------------------------

Deno.test("zedRoot picks each platform's data directory when no override is set", () => {
  const env = (platform: string, vars: Record<string, string> = {}) => ({
    ...testEnv("/h", vars),
    platform,
  });
  assertEquals(zedRoot(env("linux")), "/h/.local/share/zed");
  assertEquals(zedRoot(env("linux", { XDG_DATA_HOME: "/x" })), "/x/zed");
  assertEquals(
    zedRoot(env("linux", { FLATPAK_XDG_DATA_HOME: "/f", XDG_DATA_HOME: "/x" })),
    "/f/zed",
  );
  assertEquals(zedRoot(env("darwin")), "/h/Library/Application Support/Zed");
  assertEquals(zedRoot(env("win32", { LOCALAPPDATA: "/l" })), "/l/Zed");
  assertEquals(zedRoot(env("darwin", { DEJA_ZED_ROOT: "/d" })), "/d");
});

Deno.test("discover lists threads/threads.db with its -wal when the store exists, and nothing otherwise", async () => {
  const t = temp();
  try {
    const env = testEnv("/nohome", { DEJA_ZED_ROOT: t.dir });
    assertEquals((await zed.discover({ env, knownProjects: [] })).sources, []);
    const path = store(t.dir, []);
    assertEquals((await zed.discover({ env, knownProjects: [] })).sources, [
      { harness: "zed", path, kind: "sqlite", companions: [`${path}-wal`] },
    ]);
  } finally {
    t.cleanup();
  }
});

// ---- documents ---------------------------------------------------------------------

Deno.test("a zstd v0.3.0 thread gives user, assistant, tool calls and results with thinking, images and Resume dropped", async () => {
  const t = temp();
  try {
    const doc = v3([
      user({ Text: "change " }, {
        Mention: { uri: { File: { abs_path: "/w/shop/README.md" } }, content: "file body" },
      }, {
        Image: { source: "x" },
      }),
      agent([
        { Thinking: { text: "private", signature: "s" } },
        { Text: "On it." },
        use("t1", "terminal", { command: "cat missing.txt", cd: "shop" }),
      ], {
        t1: {
          tool_use_id: "t1",
          tool_name: "terminal",
          is_error: false,
          content: 'Command "cat missing.txt" failed with exit code 1.\n\n```\nno such file\n```',
          output: null,
        },
      }),
      "Resume",
      agent([{ RedactedThinking: "opaque" }, { Text: "Done. zebrafinch-zed" }]),
    ], { model: { provider: "zed.dev", model: "claude-x" } });
    const path = store(t.dir, [{
      id: "th1",
      doc,
      folders: "/w/shop",
      created: "2026-03-01T09:00:00+00:00",
    }]);
    const s = (await parse(path)).sessions[0];
    assertEquals(s.events.map((e) => e.kind), [
      "user",
      "assistant",
      "tool_call",
      "tool_result",
      "assistant",
    ]);
    assertEquals(s.events[0].text, "change @/w/shop/README.md");
    assertEquals(kinds(s, "tool_call")[0].tool?.command, "cat missing.txt");
    assertEquals(kinds(s, "tool_result")[0].text, "no such file");
    assertEquals(kinds(s, "tool_result")[0].result, { callId: "t1", isError: false, exit: 1 });
    assertEquals([s.title, s.project, s.model, s.started], [
      "T",
      "/w/shop",
      "claude-x",
      Date.UTC(2026, 2, 1, 9),
    ]);
    assert(!JSON.stringify(s).includes("private") && !JSON.stringify(s).includes("file body"));
  } finally {
    t.cleanup();
  }
});

Deno.test("edit_file edits, create mode writes, path tools and move_path give paths resolved against the worktree", async () => {
  const t = temp();
  try {
    const doc = v3([agent([
      use("a", "edit_file", {
        display_description: "d",
        path: "shop/README.md",
        mode: "edit",
        edits: [{ old_text: "hello world", new_text: "hello zebrafinch" }],
      }),
      use("b", "streaming_edit_file", {
        display_description: "d",
        path: "shop/NOTES.md",
        mode: "overwrite",
        content: "n",
      }),
      use("c", "edit_file", {
        display_description: "older builds name only the target",
        path: "shop/x.ts",
        mode: "edit",
      }),
      use("d", "read_file", { path: "lib/y.ts" }),
      use("e", "copy_path", { source_path: "shop/a", destination_path: "/abs/b" }),
      use("f", "restore_file_from_disk", { paths: ["shop/r.ts"] }),
      use("g", "find_path", { glob: "**/*.ts" }),
    ])]);
    const path = store(t.dir, [{ id: "th", doc, folders: "/w/lib\n/w/shop" }]);
    const calls = kinds((await parse(path)).sessions[0], "tool_call").map((e) => e.tool);
    assertEquals(calls[0]?.edits, [{
      path: "/w/shop/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
    assertEquals(calls[1]?.writes, [{ path: "/w/shop/NOTES.md", content: "n" }]);
    assertEquals(calls[2]?.paths, ["/w/shop/x.ts"]);
    assertEquals(calls[3]?.paths, ["/w/lib/y.ts"]);
    assertEquals(calls[4]?.paths, ["/w/shop/a", "/abs/b"]);
    assertEquals(calls[5]?.paths, ["/w/shop/r.ts"]);
    assertEquals([calls[6]?.paths, calls[6]?.edits], [undefined, undefined]);
  } finally {
    t.cleanup();
  }
});

Deno.test("zedPath joins a worktree-relative path to the worktree named by its first segment", () => {
  assertEquals(zedPath("shop/a.ts", ["/w/lib", "/w/shop"]), "/w/shop/a.ts");
  assertEquals(zedPath("a.ts", ["/w/shop"]), "/w/shop/a.ts");
  assertEquals(zedPath("/abs/a.ts", ["/w/shop"]), "/abs/a.ts");
  assertEquals(zedPath("a.ts", []), "a.ts");
  assertEquals(
    resultText([{ Text: "a" }, { type: "text", text: "b" }, { TEXT: "c" }, { Image: {} }]),
    "a\nb\nc",
  );
  assertEquals(terminalOutput("```\nok\n```"), { text: "ok", exit: undefined });
  assertEquals(terminalOutput('Command "x" failed with exit code 2.').exit, 2);
});

Deno.test("a legacy json thread drops system and thinking segments and takes its title from summary", async () => {
  const t = temp();
  try {
    const doc = {
      summary: "Old title",
      updated_at: "2025-06-01T08:00:05Z",
      messages: [
        {
          id: 0,
          role: "system",
          segments: [{ type: "text", text: "You are helpful." }],
          tool_uses: [],
          tool_results: [],
        },
        {
          id: 1,
          role: "user",
          segments: [{ type: "text", text: "deploy?" }],
          tool_uses: [],
          tool_results: [],
        },
        {
          id: 2,
          role: "assistant",
          segments: [{ type: "thinking", text: "hmm" }, { type: "text", text: "make deploy" }],
          tool_uses: [{ id: "u", name: "terminal", input: { command: "make deploy" } }],
          tool_results: [{
            tool_use_id: "u",
            is_error: true,
            content: 'Command "make deploy" failed with exit code 2.',
            output: null,
          }],
        },
        { id: 3, role: "narrator", segments: [] },
      ],
      version: "0.2.0",
    };
    const path = store(t.dir, [{
      id: "old",
      doc,
      type: "json",
      updated: "2025-06-01T08:00:05+00:00",
    }]);
    const { sessions, ctx } = await parse(path);
    const s = sessions[0];
    assertEquals(s.events.map((e) => [e.kind, e.text]), [
      ["user", "deploy?"],
      ["assistant", "make deploy"],
      ["tool_call", ""],
      ["tool_result", ""],
    ]);
    assertEquals(kinds(s, "tool_result")[0].result, { callId: "u", isError: true, exit: 2 });
    assertEquals(s.title, "Old title");
    assertEquals(ctx.counts, { unknown_record: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("a store with only the original five columns reads its project from the document's worktree snapshot", async () => {
  const t = temp();
  try {
    const doc = v3([user({ Text: "hi" })], {
      initial_project_snapshot: { worktree_snapshots: [{ worktree_path: "/w/snap" }] },
    });
    const path = store(
      t.dir,
      [{ id: "o", doc, updated: "2026-03-01T10:00:00.250+00:00" }],
      ORIGINAL,
    );
    const s = (await parse(path)).sessions[0];
    assertEquals([s.project, s.started, s.updated, s.parent], [
      "/w/snap",
      Date.UTC(2026, 2, 1, 10, 0, 0, 250),
      Date.UTC(2026, 2, 1, 10, 0, 0, 250),
      undefined,
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("an undecodable blob, an unknown data_type and a non-JSON body each cost one thread only", async () => {
  const t = temp();
  try {
    const path = store(t.dir, [
      {
        id: "bad",
        type: "zstd",
        data: new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58, 0xde, 0xad, 0xbe, 0xef]),
      },
      { id: "gz", type: "gzip", data: new Uint8Array([0x1f, 0x8b]) },
      { id: "nj", type: "json", data: new TextEncoder().encode('{"title": ') },
      { id: "utf", type: "json", data: new Uint8Array([0x7b, 0xff, 0x7d]) },
      { id: "ok", doc: v3([user({ Text: "fine" })]) },
    ]);
    const { sessions, ctx } = await parse(path);
    assertEquals(sessions.map((s) => s.id), ["ok"]);
    assertEquals(ctx.counts, { corrupt: 1, unsupported: 1, malformed_json: 2 });
  } finally {
    t.cleanup();
  }
});

Deno.test("subagent threads keep their parent from parent_id or the document's subagent_context", async () => {
  const t = temp();
  try {
    const path = store(t.dir, [
      { id: "p", doc: v3([user({ Text: "parent" })]) },
      { id: "c1", doc: v3([user({ Text: "child" })]), parent: "p" },
      {
        id: "c2",
        doc: v3([user({ Text: "child" })], { subagent_context: { parent_thread_id: "p" } }),
      },
    ]);
    assertEquals((await parse(path)).sessions.map((s) => [s.id, s.parent]), [["p", undefined], [
      "c1",
      "p",
    ], ["c2", "p"]]);
  } finally {
    t.cleanup();
  }
});

// ---- times and the watermark --------------------------------------------------------------

Deno.test("the since filter compares +00:00 times as instants, keeps the boundary row and re-reads unparseable times", async () => {
  const t = temp();
  try {
    const d = (x: string) => v3([user({ Text: x })]);
    const path = store(t.dir, [
      { id: "early", doc: d("a"), updated: "2026-03-01T09:59:59.999+00:00" },
      { id: "edge", doc: d("b"), updated: "2026-03-01T11:00:00.000+01:00" }, // 10:00:00Z
      { id: "late", doc: d("c"), updated: "2026-03-01T10:00:00.123456789+00:00" },
      { id: "odd", doc: d("d"), updated: "sometime" },
    ]);
    const full = await parse(path);
    assertEquals(full.ctx.endWatermark, Date.UTC(2026, 2, 1, 10, 0, 0, 123));
    const again = await parse(path, Date.UTC(2026, 2, 1, 10));
    assertEquals(again.sessions.map((s) => s.id), ["edge", "late", "odd"]);
  } finally {
    t.cleanup();
  }
});

// ---- stores that cannot be read ---------------------------------------------------------

Deno.test("a store whose threads table lacks data is counted unknown_schema and a 0-byte store empty", async () => {
  const t = temp();
  try {
    const path = store(t.dir, [], "CREATE TABLE threads (id TEXT, summary TEXT);");
    assertEquals((await parse(path, 5)).ctx.counts, { unknown_schema: 1 });
    writeFileSync(path, "");
    const empty = await parse(path, 5);
    assertEquals([empty.ctx.counts, empty.ctx.endWatermark], [{ empty: 1 }, 5]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a corrupt threads.db is reported with StoreError corrupt", async () => {
  const t = temp();
  try {
    mkdirSync(join(t.dir, "threads"));
    const path = join(t.dir, "threads", "threads.db");
    writeFileSync(path, "garbage that is not SQLite ".repeat(40));
    const err = await assertRejects(() => parse(path), StoreError);
    assertEquals((err as StoreError).reason, "corrupt");
  } finally {
    t.cleanup();
  }
});
