import { assert, assertEquals } from "../tests/_assert.ts";
import { DatabaseSync } from "node:sqlite";
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { zstdCompressSync } from "node:zlib";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { NOT_WRITTEN } from "./_crush_store.ts";
import { crush } from "./crush.ts";
import { bashExit, exitCode, stripCwd, stripThink, symbolEdit } from "./_crush_parts.ts";
import { StoreError } from "../core/sqlite_read.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { tempDir } from "../tests/_tmp.ts";

// ---- helpers ---------------------------------------------------------------

type Gen = "0627" | "0812" | "0127";

/** Crush's tables as each goose generation left them (columns only; realdata/crush). */
function ddl(gen: Gen): string {
  const todos = gen === "0627" ? "" : ", todos TEXT";
  const summary = gen === "0627" ? "" : ", is_summary_message INTEGER DEFAULT 0 NOT NULL";
  const read = gen === "0127"
    ? "CREATE TABLE read_files (session_id TEXT, path TEXT, read_at INTEGER, PRIMARY KEY (path, session_id));"
    : "";
  return `CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL,
      message_count INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL,
      summary_message_id TEXT${todos});
    CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL,
      parts TEXT NOT NULL DEFAULT '[]', model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
      finished_at INTEGER, provider TEXT${summary});
    ${read}`;
}

interface Temp {
  dir: string;
  cleanup(): void;
}

function temp(): Temp {
  const dir = tempDir("deja-crush-");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Creates `<dir>/<name>/.crush/crush.db` with `sql` run after the schema. */
function store(t: Temp, name: string, sql: string, gen: Gen = "0812"): string {
  return storeAt(join(t.dir, name, ".crush", "crush.db"), sql, gen);
}

function storeAt(path: string, sql: string, gen: Gen = "0812"): string {
  mkdirSync(join(path, ".."), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec(ddl(gen) + sql);
  db.close();
  return path;
}

const P = (...parts: unknown[]) => JSON.stringify(parts).replaceAll("'", "''");
const text = (t: string, extra: Record<string, unknown> = {}) => ({
  type: "text",
  data: { text: t, ...extra },
});
const call = (id: string, name: string, args: unknown) => ({
  type: "tool_call",
  data: { id, name, input: typeof args === "string" ? args : JSON.stringify(args), finished: true },
});
const res = (id: string, content: string, isError = false, meta?: unknown) => ({
  type: "tool_result",
  data: {
    tool_call_id: id,
    name: "",
    content,
    metadata: meta === undefined ? "" : JSON.stringify(meta),
    is_error: isError,
  },
});
const fin = { type: "finish", data: { reason: "stop", time: 0 } };

let seq = 0;
function sess(id: string, at = 1754620000, extra = ""): string {
  return `INSERT INTO sessions (id, title, created_at, updated_at${
    extra ? ", parent_session_id" : ""
  })
    VALUES ('${id}', 'T ${id}', ${at}, ${at}${extra ? `, '${extra}'` : ""});`;
}
function msg(sid: string, role: string, parts: string, at = 1754620000): string {
  return `INSERT INTO messages (id, session_id, role, parts, created_at, updated_at)
    VALUES ('m${++seq}', '${sid}', '${role}', '${parts}', ${at}, ${at});`;
}

const src = (path: string, project?: string): SourceRef => ({
  harness: "crush",
  path,
  kind: "sqlite",
  hint: project ? { project } : undefined,
});

async function parse(path: string, since = 0) {
  return await parseOne(crush, src(path, "/w/app"), testEnv("/nohome"), { since });
}

function events(s: Session | undefined, kind?: Event["kind"]): Event[] {
  return (s?.events ?? []).filter((e) => !kind || e.kind === kind);
}

// ---- discovery ---------------------------------------------------------------

Deno.test("discover lists one sqlite store per registry project when projects.json names them", async () => {
  const t = temp();
  try {
    const app = store(t, "app", sess("s1"));
    const movedDb = storeAt(join(t.dir, "moved", "state", "crush.db"), sess("s2"));
    mkdirSync(join(t.dir, "abs"));
    const absDb = storeAt(join(t.dir, "elsewhere", "crush.db"), sess("s3"));
    // A project deleted whose store was kept elsewhere: the store is still read.
    const keptDb = storeAt(join(t.dir, "kept", "crush.db"), sess("s4"));
    const root = join(t.dir, "data");
    mkdirSync(root);
    writeFileSync(
      join(root, "projects.json"),
      JSON.stringify({
        projects: [
          { path: join(t.dir, "app"), data_dir: join(t.dir, "app", ".crush") },
          { path: join(t.dir, "gone"), data_dir: join(t.dir, "gone", ".crush") },
          { path: join(t.dir, "moved"), data_dir: "state" },
          { path: join(t.dir, "abs"), data_dir: join(t.dir, "elsewhere") },
          { path: join(t.dir, "deleted"), data_dir: join(t.dir, "kept") },
          { path: join(t.dir, "app"), data_dir: join(t.dir, "app", ".crush") },
        ],
      }),
    );
    const env = testEnv(join(t.dir, "home"), { DEJA_CRUSH_ROOT: root });
    const d = await crush.discover({ env, knownProjects: [] });
    // The store of the project gone with it is looked at, listed absent (trial 101 F8: an
    // entry naming a missing data_dir was passed over without a word).
    assertEquals(d.roots, [root, join(t.dir, "gone", ".crush")]);
    assertEquals(d.sources.map((s) => [s.path, s.hint?.project]), [
      [app, join(t.dir, "app")],
      [movedDb, join(t.dir, "moved")],
      [absDb, join(t.dir, "abs")],
      [keptDb, join(t.dir, "deleted")],
    ]);
    assertEquals(d.sources[0].kind, "sqlite");
    assertEquals(d.sources[0].companions, [`${app}-wal`]);
    const run = await runParser(crush, env);
    assertEquals(run.sessions.map((s) => s.project), [
      join(t.dir, "app"),
      join(t.dir, "moved"),
      join(t.dir, "abs"),
      join(t.dir, "deleted"),
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("discover finds nothing and does not throw when projects.json is missing", async () => {
  const t = temp();
  try {
    const env = testEnv(t.dir, { DEJA_CRUSH_ROOT: join(t.dir, "nope") });
    const d = await crush.discover({ env, knownProjects: [] });
    assertEquals(d.sources, []);
  } finally {
    t.cleanup();
  }
});

Deno.test("a projects.json damaged before its first entry says nothing in it could be read", async () => {
  // Trial 101 F7: "damaged JSON, read what was intact" where nothing was.
  const t = temp();
  try {
    const root = join(t.dir, "data");
    mkdirSync(root);
    writeFileSync(join(root, "projects.json"), '{"projects":[\n');
    const env = testEnv(join(t.dir, "home"), { DEJA_CRUSH_ROOT: root });
    const said: string[] = [];
    const d = await crush.discover({
      env,
      knownProjects: [],
      problem: (_p, e) => void said.push(e.message),
    });
    assertEquals(d.sources, []);
    assertEquals(said.length, 1);
    assert(said[0].startsWith("damaged JSON, nothing in it could be read ("), said[0]);
    // One entry before the damage: what was intact is read, and said so.
    writeFileSync(
      join(root, "projects.json"),
      `{"projects":[{"path":"${join(t.dir, "app")}"},{"pa`,
    );
    said.length = 0;
    await crush.discover({ env, knownProjects: [], problem: (_p, e) => void said.push(e.message) });
    assert(said[0]?.startsWith("damaged JSON, read what was intact ("), said.join());
  } finally {
    t.cleanup();
  }
});

Deno.test("discover reads CRUSH_GLOBAL_DATA, then XDG_DATA_HOME/crush, when DEJA_CRUSH_ROOT is unset", async () => {
  const home = "/h";
  const ctx = (vars: Record<string, string>) => ({ env: testEnv(home, vars), knownProjects: [] });
  assertEquals((await crush.discover(ctx({ CRUSH_GLOBAL_DATA: "/g" }))).roots, ["/g"]);
  assertEquals((await crush.discover(ctx({ XDG_DATA_HOME: "/x" }))).roots, ["/x/crush"]);
  assertEquals((await crush.discover(ctx({}))).roots, ["/h/.local/share/crush"]);
});

// ---- golden fixture ----------------------------------------------------------

Deno.test("fixture parses to expected.json when materialised under fixture_root", async () => {
  const entry = loadRegistry().find((e) => e.id === "crush")!;
  const got = JSON.parse(
    JSON.stringify(await fixtureRun(entry, crush)).replace(
      /\/tmp\/deja-fx-[A-Za-z0-9_]+/g,
      "<root>",
    ),
  );
  const want = JSON.parse(Deno.readTextFileSync(join(entry.fixtureDir, "expected.json")));
  assertEquals(got, want);
});

// ---- schema, units, mapping --------------------------------------------------

Deno.test("timestamps become epoch ms when the store wrote seconds or milliseconds", async () => {
  const t = temp();
  try {
    const db = store(
      t,
      "p",
      sess("s1", 1754620000) + msg("s1", "user", P(text("a")), 1754620001) +
        msg("s1", "user", P(text("b")), 1754620002000),
    );
    const { sessions } = await parse(db);
    assertEquals(sessions[0].started, 1754620000000);
    assertEquals(events(sessions[0]).map((e) => e.time), [1754620001000, 1754620002000]);
  } finally {
    t.cleanup();
  }
});

Deno.test("every schema generation parses when is_summary_message, todos or read_files are absent or present", async () => {
  const t = temp();
  try {
    for (const gen of ["0627", "0812", "0127"] as Gen[]) {
      const db = store(t, gen, sess("s1") + msg("s1", "user", P(text(`hi ${gen}`))), gen);
      const { sessions, ctx } = await parse(db);
      assertEquals(events(sessions[0], "user")[0].text, `hi ${gen}`);
      assertEquals(ctx.skipped, 0);
    }
    // A trimmed fork schema: only the required columns.
    const bare = join(t.dir, "bare.db");
    const db = new DatabaseSync(bare);
    db.exec(
      `CREATE TABLE sessions (id TEXT); CREATE TABLE messages (id TEXT, session_id TEXT, role TEXT, parts TEXT);
      INSERT INTO sessions VALUES ('s1'); INSERT INTO messages VALUES ('m1','s1','user','${
        P(text("bare"))
      }');`,
    );
    db.close();
    const { sessions, ctx } = await parse(bare);
    assertEquals(events(sessions[0]).map((e) => e.text), ["bare"]);
    assertEquals(ctx.endWatermark, 0);
  } finally {
    t.cleanup();
  }
});

Deno.test("a store without sessions/messages tables is skipped as unknown_schema, not thrown", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "odd.db");
    const db = new DatabaseSync(path);
    db.exec(
      "CREATE TABLE messages (id TEXT, session_id TEXT, role TEXT); CREATE TABLE sessions (id TEXT);",
    );
    db.close();
    const { sessions, ctx } = await parse(path);
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { unknown_schema: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("text parts become user and assistant speech and reasoning/binary/image_url/finish are dropped", async () => {
  const t = temp();
  try {
    const db = store(
      t,
      "p",
      sess("s1") +
        msg("s1", "system", P(text("You are Crush"))) +
        msg(
          "s1",
          "user",
          P(
            text("look"),
            { type: "image_url", data: { url: "u" } },
            {
              type: "binary",
              data: { Path: "a.png", MIMEType: "image/png", Data: "AA==" },
            },
            text("go on", { hidden: true }),
            fin,
          ),
        ) +
        msg(
          "s1",
          "assistant",
          P(
            { type: "reasoning", data: { thinking: "secret" } },
            text("<think>\nhmm\n</think>\n\nSeen it."),
            fin,
          ),
        ),
    );
    const { sessions, ctx } = await parse(db);
    assertEquals(events(sessions[0]).map((e) => [e.kind, e.text]), [["user", "look"], [
      "assistant",
      "Seen it.",
    ]]);
    assertEquals(ctx.skipped, 0);
  } finally {
    t.cleanup();
  }
});

// Regression (2026-12, trial 9): a reply whose stream stopped (no finish part, finished_at
// NULL) was shown by ctx as the session's outcome with no word that it stops mid-way.
Deno.test("an assistant message with no finish part, or one cancelled or failed, is cut", async () => {
  const t = temp();
  try {
    const end = (reason: string) => ({ type: "finish", data: { reason, time: 0 } });
    const db = store(
      t,
      "p",
      sess("s1") +
        msg("s1", "user", P(text("plan it"), fin)) +
        msg("s1", "assistant", P(text("Done."), end("end_turn"))) +
        msg("s1", "assistant", P(text("Stopped."), end("canceled"))) +
        msg("s1", "assistant", P(text("Failed."), end("error"))) +
        msg("s1", "assistant", P(text("Here is the plan:\n- Start"))),
    );
    const { sessions } = await parse(db);
    assertEquals(events(sessions[0], "assistant").map((e) => [e.text, e.cut ?? false]), [
      ["Done.", false],
      ["Stopped.", true],
      ["Failed.", true],
      ["Here is the plan:\n- Start", true],
    ]);
    assertEquals(events(sessions[0], "user")[0].cut, undefined);
  } finally {
    t.cleanup();
  }
});

// Regression (2026-12, realdata windows-copilot and k3s dbs): a provider's refusal, stored as a
// `finish` part with reason `error`, was dropped, so `show` had nothing where the turn failed.
Deno.test("a finish part with reason error is a notice with its message and details", async () => {
  const t = temp();
  try {
    const err = (message?: string, details?: string) => ({
      type: "finish",
      data: { reason: "error", time: 0, message, details },
    });
    const db = store(
      t,
      "p",
      sess("s1") +
        msg("s1", "user", P(text("go"), fin)) +
        msg("s1", "assistant", P(err("Bad Request", "Your organization must be verified"))) +
        msg("s1", "assistant", P(text("Half"), err("API Error"))) +
        msg("s1", "assistant", P(err())) +
        msg("s1", "assistant", P(text("Done."), { type: "finish", data: { reason: "end_turn" } })),
    );
    const { sessions, ctx } = await parse(db);
    assertEquals(events(sessions[0]).map((e) => [e.kind, e.text]), [
      ["user", "go"],
      ["notice", "Error: Bad Request\nYour organization must be verified"],
      ["assistant", "Half"],
      ["notice", "Error: API Error"],
      ["assistant", "Done."],
    ]);
    assertEquals(ctx.skipped, 0);
  } finally {
    t.cleanup();
  }
});

Deno.test("tool calls decode their JSON-string input into command, paths, edits and writes", async () => {
  const t = temp();
  try {
    const db = store(
      t,
      "p",
      sess("s1") + msg(
        "s1",
        "assistant",
        P(
          call("c1", "bash", { command: "go test ./..." }),
          call("c2", "view", { file_path: "README.md" }),
          call("c3", "edit", {
            file_path: "/w/app/a.txt",
            old_string: "hello world",
            new_string: "hello zebrafinch",
          }),
          call("c4", "multiedit", {
            file_path: "b.txt",
            edits: [{ old_string: "1", new_string: "2" }, { old_string: "3", new_string: "4" }],
          }),
          call("c5", "write", { file_path: "C:/w/c.txt", content: "x\n" }),
        ),
      ),
    );
    const { sessions } = await parse(db);
    const tools = events(sessions[0], "tool_call").map((e) => e.tool!);
    assertEquals(tools[0].command, "go test ./...");
    assertEquals(tools[0].input, { command: "go test ./..." });
    assertEquals(tools[1].paths, ["/w/app/README.md"]);
    assertEquals(tools[2].edits, [{
      path: "/w/app/a.txt",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
    assertEquals(tools[3].edits, [
      { path: "/w/app/b.txt", old: "1", new: "2" },
      { path: "/w/app/b.txt", old: "3", new: "4" },
    ]);
    assertEquals(tools[4].writes, [{ path: "C:/w/c.txt", content: "x\n" }]);
  } finally {
    t.cleanup();
  }
});

// Regression (2026-12, realdata k3s db, session 0d21b928): the joined call was read as a bash
// call that ran and failed, so `deja how kubectl version` said it ran once and failed; Crush
// had refused it (`invalid parameters`) and kubectl never ran.
Deno.test("a call streamed in nameless pieces is joined to the named call before it, shown with its command and not run", async () => {
  const t = temp();
  try {
    const db = store(
      t,
      "p",
      sess("s1") +
        msg(
          "s1",
          "assistant",
          P(
            call("c0", "bash", ""),
            call("f1", "", '{"'),
            call("f2", "", 'command":"ls -l","timeout": 120000}'),
            call("c1", "bash", { command: "pwd" }),
          ),
        ) +
        msg(
          "s1",
          "tool",
          P(
            res("c0", "invalid parameters", true),
            res("f1", "Tool not found: ", true),
            res("f2", "Tool not found: ", true),
            res("c1", "/w/app\nExit code 0"),
          ),
        ),
    );
    const { sessions, ctx } = await parse(db);
    assertEquals(
      events(sessions[0]).map((e) => [
        e.kind,
        e.tool?.id ?? e.result?.callId,
        e.text,
        e.tool?.command,
        e.result?.notRun,
      ]),
      [
        ["tool_call", "c0", "$ ls -l", undefined, undefined],
        ["tool_call", "c1", "", "pwd", undefined],
        ["tool_result", "c0", "Not run: invalid parameters", undefined, true],
        ["tool_result", "c1", "/w/app\nExit code 0", undefined, undefined],
      ],
    );
    const joined = events(sessions[0], "tool_call")[0].tool!;
    assertEquals(joined, {
      name: "bash",
      id: "c0",
      input: { command: "ls -l", timeout: 120000 },
    });
    assertEquals(events(sessions[0], "tool_result")[0].result?.isError, true);
    assertEquals(ctx.counts, {});
  } finally {
    t.cleanup();
  }
});

Deno.test("a joined call that would read or edit a file derives no read or edit when Crush refused it", async () => {
  const t = temp();
  try {
    const db = store(
      t,
      "p",
      sess("s1") +
        msg(
          "s1",
          "assistant",
          P(call("c0", "view", '{"file_'), call("f1", "", 'path":"a.txt"}')),
        ) +
        msg(
          "s1",
          "tool",
          P(res("c0", "invalid parameters", true), res("f1", "Tool not found: ", true)),
        ),
    );
    const { sessions } = await parse(db);
    const [c, r] = events(sessions[0]);
    assertEquals([c.text, c.tool?.paths], ['view {"file_path":"a.txt"}', undefined]);
    assertEquals(r.result, { callId: "c0", isError: true, notRun: true });
  } finally {
    t.cleanup();
  }
});

Deno.test("nameless pieces with no named call before them show as one nameless call, not a named failure", async () => {
  const t = temp();
  try {
    const db = store(
      t,
      "p",
      sess("s1") +
        msg("s1", "assistant", P(call("f1", "", '{"path":'), call("f2", "", '"a.txt"}'))) +
        msg(
          "s1",
          "tool",
          P(res("f1", "Tool not found: ", true), res("f2", "Tool not found: ", true)),
        ),
    );
    const { sessions } = await parse(db);
    assertEquals(events(sessions[0]).map((e) => [e.kind, e.tool?.id ?? e.result?.callId, e.text]), [
      ["tool_call", "f1", 'tool call with no name (2 fragments): {"path":"a.txt"}'],
      ["tool_result", "f1", "Tool not found: "],
    ]);
    assertEquals(events(sessions[0], "tool_call")[0].tool?.name, "");
  } finally {
    t.cleanup();
  }
});

Deno.test("bash results lose the <cwd> trailer and carry exit N when the last line is Exit code N", async () => {
  const t = temp();
  try {
    const db = store(
      t,
      "p",
      sess("s1") +
        msg(
          "s1",
          "assistant",
          P(
            call("c1", "bash", { command: "cat missing.txt" }),
            call("c2", "bash", { command: "ls" }),
            call("c3", "view", { file_path: "x" }),
          ),
        ) +
        msg(
          "s1",
          "tool",
          P(
            res(
              "c1",
              "cat: missing.txt: No such file or directory\n\nExit code 1\n\n<cwd>/w/app</cwd>",
              false,
              { working_directory: "/w/app" },
            ),
            res("c2", "a\nb\n\n<cwd>/w/app</cwd>"),
            res("c3", "Exit code 9"),
          ),
        ),
    );
    const { sessions } = await parse(db);
    const r = events(sessions[0], "tool_result");
    assertEquals(r.map((e) => e.text), [
      "cat: missing.txt: No such file or directory\n\nExit code 1",
      "a\nb",
      "Exit code 9",
    ]);
    // No `Exit code` line on a bash result: Crush writes one only when the exit is not 0.
    assertEquals(r.map((e) => e.result?.exit), [1, 0, undefined]);
    assertEquals(stripCwd("x\r\nExit code 4\r\n\r\n<cwd>C:/w</cwd>"), "x\r\nExit code 4");
    assertEquals(exitCode("x\r\nExit code 4"), 4);
  } finally {
    t.cleanup();
  }
});

Deno.test("a failed edit, multiedit or write keeps its call and files while its result is isError", async () => {
  const t = temp();
  try {
    const db = store(
      t,
      "p",
      sess("s1") +
        msg(
          "s1",
          "assistant",
          P(
            call("e", "edit", { file_path: "a", old_string: "x", new_string: "y" }),
            call("m", "multiedit", {
              file_path: "b",
              edits: [{ old_string: "p", new_string: "q" }],
            }),
            call("w", "write", { file_path: "c", content: "z" }),
          ),
        ) +
        msg(
          "s1",
          "tool",
          P(
            res("e", "old_string not found in file.", true),
            res("m", "Permission denied", true),
            res("w", "ok"),
          ),
        ),
    );
    const { sessions } = await parse(db);
    assertEquals(
      events(sessions[0], "tool_call").map((e) => (e.tool!.edits ?? e.tool!.writes)![0].path),
      ["/w/app/a", "/w/app/b", "/w/app/c"],
    );
    assertEquals(events(sessions[0], "tool_result").map((e) => e.result?.isError), [
      true,
      true,
      false,
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("lsp_replace_symbol writes its replacement and its result names the replaced lines", async () => {
  const old = "a\nfunc F() {\n\treturn 1\n}\nz";
  const t = temp();
  try {
    const meta = (n: string, action: string) => ({
      file_path: "f.go",
      old_content: old,
      new_content: n,
      action,
    });
    const db = store(
      t,
      "p",
      sess("s1") +
        msg(
          "s1",
          "assistant",
          P(
            call("r", "lsp_replace_symbol", {
              symbol: "F",
              file_path: "f.go",
              replacement: "func F() {\n\treturn 2\n}",
            }),
            call("b", "lsp_replace_symbol", {
              symbol: "F",
              file_path: "f.go",
              replacement: "// F",
              action: "add_before",
            }),
            call("d", "lsp_replace_symbol", { symbol: "F", file_path: "f.go", action: "delete" }),
            call("x", "lsp_replace_symbol", { symbol: "G", file_path: "f.go", replacement: "g" }),
          ),
        ) +
        msg(
          "s1",
          "tool",
          P(
            res(
              "r",
              "Replaced symbol 'F' in f.go (lines 2-4)",
              false,
              meta("a\nfunc F() {\n\treturn 2\n}\nz", "replace"),
            ),
            res(
              "b",
              "Inserted before symbol 'F' in f.go (before line 2)",
              false,
              meta("a\n// F\nfunc F() {\n\treturn 1\n}\nz", "add_before"),
            ),
            res("d", "Deleted symbol 'F' from f.go (lines 2-4)", false, meta("a\nz", "delete")),
            res("x", "no LSP client handles file: f.go", true),
          ),
        ),
    );
    const { sessions } = await parse(db);
    const calls = events(sessions[0], "tool_call").map((e) => e.tool!.writes?.[0].content);
    assertEquals(calls, ["func F() {\n\treturn 2\n}", "// F", undefined, "g"]);
    assertEquals(events(sessions[0], "tool_result").map((e) => e.result?.edits), [
      [{ path: "/w/app/f.go", old: "func F() {\n\treturn 1\n}", new: "func F() {\n\treturn 2\n}" }],
      [{ path: "/w/app/f.go", old: "", new: "// F" }],
      [{ path: "/w/app/f.go", old: "func F() {\n\treturn 1\n}", new: "" }],
      undefined,
    ]);
    // Without a "lines N-M" text, the lines the two contents do not share.
    assertEquals(symbolEdit(meta("a\nB\nz", "replace"), "done", "/p"), {
      path: "/p/f.go",
      old: "func F() {\n\treturn 1\n}",
      new: "B",
    });
  } finally {
    t.cleanup();
  }
});

Deno.test("a bash result is exit 0 without an Exit code line, unknown when aborted, in the background or an error", () => {
  assertEquals(bashExit("a\nb", false), 0);
  assertEquals(bashExit("no output", false), 0);
  assertEquals(bashExit("boom\nExit code 2", false), 2);
  assertEquals(bashExit("partial\nCommand was aborted before completion", false), undefined);
  assertEquals(
    bashExit("Background shell started with ID: 003\n\nUse job_output tool to view output", false),
    undefined,
  );
  assertEquals(
    bashExit(
      "Command is taking longer than expected and has been moved to background.\n\nBackground shell ID: 004",
      false,
    ),
    undefined,
  );
  assertEquals(bashExit("missing command", true), undefined);
  assertEquals(bashExit("User denied permission", true), undefined);
});

Deno.test("shell_command parts become a call and a result with the recorded exit code", async () => {
  const t = temp();
  try {
    const db = store(
      t,
      "p",
      sess("s1") +
        msg(
          "s1",
          "user",
          P(
            { type: "shell_command", data: { command: "make", output: "boom\n", exit_code: 2 } },
            fin,
          ),
        ),
    );
    const { sessions } = await parse(db);
    const [c, r] = events(sessions[0]);
    assertEquals([c.kind, c.tool?.command, c.tool?.name], ["tool_call", "make", "shell_command"]);
    assertEquals([r.kind, r.text, r.result?.exit, r.result?.callId], [
      "tool_result",
      "boom\n",
      2,
      c.tool?.id,
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("title sessions are skipped, subagents get their parent and summaries are kind summary", async () => {
  const t = temp();
  try {
    const db = store(
      t,
      "p",
      `INSERT INTO sessions (id, title, created_at, updated_at, summary_message_id)
        VALUES ('s1', '<think>\nlong musing\n</think>\n\nShort title', 1, 2, 'sum2');` +
        sess("title-s1", 1, "s1") + sess("m1$$call_9", 1, "s1") +
        msg("title-s1", "user", P(text("Generate a title"))) +
        msg("m1$$call_9", "user", P(text("sub task"))) +
        `INSERT INTO messages (id, session_id, role, parts, created_at, updated_at, is_summary_message)
        VALUES ('sum1', 's1', 'assistant', '${P(text("## Summary one"))}', 5, 5, 1),
               ('sum2', 's1', 'assistant', '${P(text("## Summary two"))}', 6, 6, 0);`,
    );
    const { sessions } = await parse(db);
    assertEquals(sessions.map((s) => [s.id, s.parent]), [["s1", undefined], ["m1$$call_9", "s1"]]);
    assertEquals(sessions[0].title, "Short title");
    assertEquals(events(sessions[0]).map((e) => e.kind), ["summary", "summary"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a placeholder title (New Session, Untitled Session) is no title", async () => {
  const t = temp();
  try {
    const db = store(
      t,
      "p",
      `INSERT INTO sessions (id, title, created_at, updated_at)
        VALUES ('a', 'New Session', 1, 2), ('b', 'Untitled Session', 1, 2), ('c', 'New Sessions', 1, 2);` +
        msg("a", "user", P(text("fix the flaky test"))) + msg("b", "user", P(text("hi"))) +
        msg("c", "user", P(text("hey"))),
    );
    const { sessions } = await parse(db);
    assertEquals(sessions.map((s) => [s.id, s.title]), [
      ["a", undefined],
      ["b", undefined],
      ["c", "New Sessions"],
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("stripThink drops closed think blocks and an unclosed leading one", () => {
  assertEquals(stripThink("<think> a </think>  Ayo"), "Ayo");
  assertEquals(stripThink("<think>still thinking"), "");
  assertEquals(stripThink("plain"), "plain");
});

// ---- incremental ---------------------------------------------------------------

Deno.test("watermark is max(updated_at) as stored and a later pass re-reads sessions or messages updated since", async () => {
  const t = temp();
  try {
    const path = store(
      t,
      "p",
      sess("old", 100) + sess("new", 200) + msg("old", "user", P(text("a")), 100) +
        msg("new", "user", P(text("b")), 200),
    );
    const first = await parse(path);
    assertEquals(first.sessions.map((s) => s.id), ["old", "new"]);
    assertEquals(first.ctx.endWatermark, 200);
    const db = new DatabaseSync(path);
    db.exec(
      `UPDATE sessions SET updated_at = 300 WHERE id = 'old';` +
        msg("old", "user", P(text("c")), 300),
    );
    const second = await parse(path, first.ctx.endWatermark);
    // "old" changed since; "new" sits exactly at the watermark and is re-read (>=).
    assertEquals(second.sessions.map((s) => s.id), ["old", "new"]);
    assertEquals(events(second.sessions[0]).map((e) => e.text), ["a", "c"]);
    assertEquals(second.ctx.endWatermark, 300);
    const third = await parse(path, 300);
    assertEquals(third.sessions.map((s) => s.id), ["old"]);
    // Trial 72: an older message edited in place moves only its own updated_at.
    db.exec(`UPDATE messages SET parts = '${P(text("b edited"))}', updated_at = 400
      WHERE session_id = 'new'`);
    db.close();
    const fourth = await parse(path, 300);
    assertEquals(fourth.sessions.map((s) => s.id), ["old", "new"]);
    assertEquals(events(fourth.sessions[1]).map((e) => e.text), ["b edited"]);
    // The watermark stays the sessions' (a stray future message time would hide what follows).
    assertEquals(fourth.ctx.endWatermark, 300);
  } finally {
    t.cleanup();
  }
});

// ---- hostile set ---------------------------------------------------------------

Deno.test("an empty (0-byte) store is counted as empty and yields nothing", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "crush.db");
    writeFileSync(path, "");
    const { sessions, ctx } = await parse(path);
    assertEquals([sessions.length, ctx.counts], [0, { empty: 1 }]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a corrupt store throws StoreError corrupt so the indexer reports the source", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "crush.db");
    writeFileSync(path, "this is not a database at all, just text".repeat(50));
    let err: unknown;
    try {
      await parse(path);
    } catch (e) {
      err = e;
    }
    assert(err instanceof StoreError && err.reason === "corrupt", String(err));
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed, invalid UTF-8, truncated and unknown parts are counted and the rest still parses", async () => {
  const t = temp();
  try {
    const bad = "5b7b2274797065223a2274657874222c2264617461223a7b2274657874223a226361ff227d7d5d";
    const db = store(
      t,
      "p",
      sess("s1") +
        msg("s1", "user", P(text("first"))) +
        msg("s1", "user", '[{"type":"text","data":{"text":"cut') +
        `INSERT INTO messages (id, session_id, role, parts, created_at, updated_at)
         VALUES ('u8', 's1', 'user', CAST(X'${bad}' AS TEXT), 1754620000, 1754620000);` +
        msg("s1", "assistant", P(text("unfinished answ"))) +
        msg("s1", "assistant", P({ type: "hologram", data: {} }, { data: {} }, text("last"))) +
        msg("s1", "robot", P(text("beep"))),
    );
    const { sessions, ctx } = await parse(db);
    assertEquals(events(sessions[0]).map((e) => e.text), [
      "first",
      "ca\uFFFD",
      "unfinished answ",
      "last",
    ]);
    assertEquals(ctx.counts, {
      malformed_json: 1,
      invalid_utf8: 1,
      unknown_record: 2,
      bad_shape: 1,
    });
  } finally {
    t.cleanup();
  }
});

Deno.test("zstd-compressed parts blobs are decoded like plain JSON", async () => {
  const t = temp();
  try {
    const path = store(t, "p", sess("s1"));
    const db = new DatabaseSync(path);
    db.prepare(
      "INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) VALUES ('z', 's1', 'user', ?, 1, 1)",
    )
      .run(new Uint8Array(zstdCompressSync(Buffer.from(JSON.stringify([text("packed")])))));
    db.close();
    const { sessions } = await parse(path);
    assertEquals(events(sessions[0]).map((e) => e.text), ["packed"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a resumed pass from a watermark yields the same session id as a full pass", async () => {
  const t = temp();
  try {
    const path = store(t, "p", sess("s-1", 500) + msg("s-1", "user", P(text("x"))));
    const full = await parse(path);
    const resumed = await parse(path, full.ctx.endWatermark);
    assertEquals(resumed.sessions.map((s) => s.id), full.sessions.map((s) => s.id));
  } finally {
    t.cleanup();
  }
});

// ---- real stores -----------------------------------------------------------------

const REAL = join(REPO, "../shared/realdata/crush");
const REAL_DBS = [
  "crush.db",
  "k3s-subagent-summary-0627.db",
  "windows-copilot-0812.db",
  "mcp-tool-0627.db",
  "gpt5-unfinished-0627.db",
  "empty-newest-20260127.db",
];

Deno.test({
  name:
    "real Crush stores parse through projects.json with their sessions, exits, spans and subagent",
  ignore: !REAL_DBS.every((f) => existsSync(join(REAL, f))),
  async fn() {
    const t = temp();
    try {
      const projects = REAL_DBS.map((f) => {
        const project = join(t.dir, f.replace(/\.db$/, ""));
        mkdirSync(join(project, ".crush"), { recursive: true });
        copyFileSync(join(REAL, f), join(project, ".crush", "crush.db"));
        return {
          path: project,
          data_dir: join(project, ".crush"),
          last_accessed: "2026-01-01T00:00:00Z",
        };
      });
      writeFileSync(join(t.dir, "projects.json"), JSON.stringify({ projects }));
      const run = await runParser(crush, testEnv(join(t.dir, "home"), { DEJA_CRUSH_ROOT: t.dir }));
      assertEquals(run.errors, {});
      const by = (name: string) => run.sessions.filter((s) => s.project === join(t.dir, name));
      // crush.db: 17 sessions, none of them title-* (there are none in this store).
      assertEquals(by("crush").length, 17);
      assertEquals(by("empty-newest-20260127").length, 0);
      assertEquals(by("mcp-tool-0627").length, 3);
      assertEquals(by("gpt5-unfinished-0627").length, 1);
      const exits = (name: string) =>
        [
          ...new Set(
            by(name).flatMap((s) => events(s, "tool_result")).map((e) => e.result?.exit).filter((
              x,
            ) => x !== undefined),
          ),
        ].sort();
      const k3s = by("k3s-subagent-summary-0627");
      assertEquals(k3s.length, 5);
      assertEquals(exits("k3s-subagent-summary-0627"), [0, 1, 127, 128]);
      const sub = k3s.find((s) => s.id === "call_e5a890454e8c4a71b5efd553");
      assertEquals(sub?.parent, "093f9963-97b6-4279-9bea-ded429193b34");
      const summary = events(
        k3s.find((s) => s.id === "dc3d92ac-cf53-49d1-92b0-6df9c267c183"),
        "summary",
      );
      assertEquals(summary.length, 1);
      assert(summary[0].text.startsWith("## Summary"));
      assert(
        k3s.some((s) =>
          events(s, "tool_call").some((e) => e.tool?.name === "edit" && e.tool.edits?.length)
        ),
      );
      const win = by("windows-copilot-0812");
      assertEquals(win.length, 2);
      assertEquals(exits("windows-copilot-0812"), [0, 1, 3, 4]);
      const multi = win.flatMap((s) => events(s, "tool_call")).filter((e) =>
        e.tool?.name === "multiedit"
      );
      assertEquals(multi.length, 3);
      assert(multi.every((e) => (e.tool?.edits?.length ?? 0) > 0));
      assert(multi[0].tool!.edits![0].path.startsWith("C:/Users/"));
      const results = run.sessions.flatMap((s) => events(s, "tool_result"));
      assert(results.length > 100);
      assert(results.every((e) => !e.text.includes("<cwd>")), "a <cwd> tag survived");
      const last = events(by("gpt5-unfinished-0627")[0]).at(-1);
      assertEquals([last?.kind, last?.cut], ["assistant", true]);
      assertEquals(run.sessions.flatMap((s) => events(s)).filter((e) => e.cut).length, 1);
    } finally {
      t.cleanup();
    }
  },
});

/** Crush's file history table (charmbracelet/crush internal/db migrations; realdata's k3s store). */
const FILES_TABLE = `CREATE TABLE files (id TEXT PRIMARY KEY, session_id TEXT NOT NULL,
  path TEXT NOT NULL, content TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);`;

// Trial 52 (realdata k3s store, session a4217d5a): a write over a 197-byte kustomization.yaml
// was "previous content unknown, not restorable" while Crush's file history kept it.
Deno.test("a write over a file gets the content it replaced from Crush's file history", async () => {
  const t = temp();
  try {
    const files = FILES_TABLE;
    const v = (id: string, path: string, content: string, version: number) =>
      `INSERT INTO files VALUES ('${id}', 's1', '${path}', '${content}', ${version}, 1, 1);`;
    const db = store(
      t,
      "app",
      files + sess("s1") +
        msg(
          "s1",
          "assistant",
          P(
            call("w1", "write", { file_path: "k/kustomization.yaml", content: "b\n" }),
            call("w2", "write", { file_path: "/w/app/k/kustomization.yaml", content: "c\n" }),
            call("w3", "write", { file_path: "/w/app/new.txt", content: "n\n" }),
            call("w4", "write", { file_path: "/w/app/x.txt", content: "z\n" }),
            fin,
          ),
        ) +
        msg("s1", "tool", P(res("w1", "File successfully written"))) +
        msg("s1", "tool", P(res("w2", "File successfully written"))) +
        msg("s1", "tool", P(res("w3", "File successfully written"))) +
        msg("s1", "tool", P(res("w4", "File successfully written"))) +
        // The history keeps the path Crush resolved, here another folder than the one read.
        v("f0", "/Users/u/app/k/kustomization.yaml", "a\n", 0) +
        v("f1", "/Users/u/app/k/kustomization.yaml", "b\n", 1) +
        v("f2", "/Users/u/app/k/kustomization.yaml", "c\n", 2) +
        v("n0", "/w/app/new.txt", "", 0) +
        v("n1", "/w/app/new.txt", "n\n", 1) +
        v("x0", "/w/app/x.txt", "old\n", 0) +
        v("x1", "/w/app/x.txt", "z\n", 1),
    );
    const { sessions } = await parse(db);
    const over = events(sessions[0], "tool_result").map((e) => e.result?.overwritten);
    // The second write's path is not the history's, nor its argument relative: not guessed; a
    // new file (an empty version before) replaced nothing.
    assertEquals(over, ["a\n", undefined, undefined, "old\n"]);
  } finally {
    t.cleanup();
  }
});

// Trial 51 (realdata k3s store, session 093f9963): five writes to `/apps/infra/redis/*.yaml` got
// an empty result and left the directory empty; the digest listed them as files changed.
Deno.test("a write with no result whose file Crush's history never kept is a failed one", async () => {
  const t = temp();
  try {
    const files = FILES_TABLE + `
      INSERT INTO files VALUES ('k0', 's1', '/w/app/k.yaml', '', 0, 1, 1);
      INSERT INTO files VALUES ('k1', 's1', '/w/app/k.yaml', 'b', 1, 1, 1);`;
    const db = store(
      t,
      "app",
      files + sess("s1") + sess("s2") +
        msg(
          "s1",
          "assistant",
          P(
            call("w1", "write", { file_path: "/apps/k.yaml", content: "b" }),
            call("w2", "write", { file_path: "/w/app/k.yaml", content: "b" }),
            fin,
          ),
        ) +
        msg("s1", "tool", P(res("w1", ""))) +
        msg("s1", "tool", P(res("w2", ""))) +
        // A session the history keeps nothing of: nothing is judged.
        msg(
          "s2",
          "assistant",
          P(call("w3", "write", { file_path: "/x.yaml", content: "c" }), fin),
        ) +
        msg("s2", "tool", P(res("w3", ""))),
    );
    const { sessions } = await parse(db);
    const results = (id: string) =>
      events(sessions.find((s) => s.id === id), "tool_result").map((e) => [
        e.result?.isError ?? false,
        e.text,
      ]);
    assertEquals(results("s1"), [[true, NOT_WRITTEN], [false, ""]]);
    assertEquals(results("s2"), [[false, ""]]);
  } finally {
    t.cleanup();
  }
});

// Trial 79 F8: a session whose one assistant message held no parts listed its model among
// the models of its replies, and one whose error-only message named another model did not.
Deno.test("a session's model is that of its last message holding a reply", async () => {
  const t = temp();
  try {
    const empty = (sid: string, model: string, parts: string) =>
      `INSERT INTO messages (id, session_id, role, parts, model, created_at, updated_at)
        VALUES ('m${++seq}', '${sid}', 'assistant', '${parts}', '${model}', 1754620001, 1754620001);`;
    const path = store(
      t,
      "models",
      sess("s-none") + msg("s-none", "user", P(text("hello?"))) +
        empty("s-none", "gemma-3n", P()) +
        sess("s-two", 1754620100) + msg("s-two", "user", P(text("fix it"))) +
        empty("s-two", "gpt-5", P(text("Fixed it."), fin)) +
        empty(
          "s-two",
          "gpt-5.2",
          P({ type: "finish", data: { reason: "error", message: "boom" } }),
        ),
    );
    const sessions = (await parse(path)).sessions;
    const got = new Map(sessions.map((s) => [s.id, s.model]));
    assertEquals([got.get("s-none"), got.get("s-two")], [undefined, "gpt-5"]);
    // The empty reply is said, under the model that gave it, so the session's models list it
    // (trial 103 F8: `--model gemma` missed it).
    const none = sessions.find((s) => s.id === "s-none")!;
    assertEquals(
      none.events.filter((e) => e.kind === "notice").map((e) => [e.text, e.model]),
      [["gemma-3n gave no reply: its message is empty", "gemma-3n"]],
    );
    // The error of the turn that gave no reply names the model that failed (trial 93 F4).
    const two = sessions.find((s) => s.id === "s-two")!;
    assertEquals(two.events.filter((e) => e.kind === "notice").map((e) => e.model), ["gpt-5.2"]);
  } finally {
    t.cleanup();
  }
});
