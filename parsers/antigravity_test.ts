import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { assert, assertEquals } from "../tests/_assert.ts";
import { parseOne, testEnv } from "../tests/_fixture.ts";
import { antigravity } from "./antigravity.ts";
import { cleanUserContent, fileUriPath, headerPath, stepBody } from "./_antigravity_steps.ts";
import { tempDir } from "../tests/_tmp.ts";

const CONV = "7d1e0c3a-5b6f-4a2e-9c1d-0e2f3a4b5c6d";
const transcript = (conv = CONV) => `brain/${conv}/.system_generated/logs/transcript.jsonl`;

function tree(files: Record<string, string | Uint8Array>): { root: string; cleanup(): void } {
  const root = tempDir("deja-antigravity-");
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

let n = 0;
function step(source: string, type: string, content: string, extra: Record<string, unknown> = {}) {
  n++;
  return {
    step_index: n,
    source,
    type,
    status: "DONE",
    created_at: `2026-08-14T09:00:${String(n % 60).padStart(2, "0")}Z`,
    content,
    ...extra,
  };
}
const jsonl = (...recs: unknown[]) => recs.map((r) => JSON.stringify(r) + "\n").join("");
const ask = (text: string) =>
  step("USER_EXPLICIT", "USER_INPUT", `<USER_REQUEST>${text}</USER_REQUEST>`);
const src = (root: string, conv = CONV): SourceRef => ({
  harness: "antigravity",
  path: join(root, transcript(conv)),
  kind: "document",
  hint: { root },
});
const kinds = (s: Session) => s.events.map((e) => e.kind);
const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);

async function parse(root: string, conv = CONV) {
  return await parseOne(antigravity, src(root, conv), testEnv(root));
}

Deno.test("discovery reads every ~/.gemini/antigravity* root when DEJA_ANTIGRAVITY_ROOT is unset", async () => {
  const t = tree({
    [`.gemini/antigravity/${transcript("ide-conv")}`]: jsonl(ask("a")),
    [`.gemini/antigravity-cli/${transcript("cli-conv")}`]: jsonl(ask("b")),
    ".gemini/antigravity-cli/brain/cli-conv/notes.md": "not a transcript",
    [`.gemini/other/${transcript("nope")}`]: jsonl(ask("c")),
    ".gemini/antigravity-file": "a file, not a root",
  });
  try {
    const d = await antigravity.discover({ env: testEnv(t.root), knownProjects: [] });
    assertEquals(d.roots, [
      join(t.root, ".gemini/antigravity"),
      join(t.root, ".gemini/antigravity-cli"),
    ]);
    assertEquals(d.sources.map((s) => [s.kind, s.hint?.root, s.path.slice(t.root.length + 1)]), [
      [
        "document",
        join(t.root, ".gemini/antigravity"),
        `.gemini/antigravity/${transcript("ide-conv")}`,
      ],
      [
        "document",
        join(t.root, ".gemini/antigravity-cli"),
        `.gemini/antigravity-cli/${transcript("cli-conv")}`,
      ],
    ]);
    const one = await antigravity.discover({
      env: testEnv(t.root, { DEJA_ANTIGRAVITY_ROOT: join(t.root, ".gemini/other") }),
      knownProjects: [],
    });
    assertEquals(one.sources.map((s) => s.path), [
      join(t.root, ".gemini/other", transcript("nope")),
    ]);
    const none = await antigravity.discover({ env: testEnv("/nowhere"), knownProjects: [] });
    assertEquals([none.roots, none.sources], [["/nowhere/.gemini/antigravity"], []]);
  } finally {
    t.cleanup();
  }
});

Deno.test("user text loses the metadata blocks and the USER_REQUEST wrapper when a person typed it", () => {
  assertEquals(
    cleanUserContent(
      "<USER_REQUEST>\nfix the pool\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nlocal time\nopen file\n" +
        "</ADDITIONAL_METADATA><USER_SETTINGS_CHANGE>model: x</USER_SETTINGS_CHANGE>\n",
    ),
    "fix the pool",
  );
});

Deno.test("SYSTEM steps and thinking are dropped and only planner prose is speech when MODEL steps mix prose and tools", async () => {
  const t = tree({
    [transcript()]: jsonl(
      ask("why?"),
      step("SYSTEM", "EPHEMERAL_MESSAGE", "The workspace is indexed."),
      step("MODEL", "PLANNER_RESPONSE", "Looking.", { thinking: "SECRET-THINKING" }),
      step("MODEL", "", "Untyped prose counts as speech."),
      step("MODEL", "GREP_SEARCH", "Created At: 2026-08-14T09:00:07Z\nmatch.go:3: pool"),
      step("USER_IMPLICIT", "", "an unrecognised source"),
      step("USER_EXPLICIT", "", "   "),
    ),
  });
  try {
    const s = (await parse(t.root)).sessions[0];
    assertEquals(s.events.map((e) => [e.kind, e.text]), [
      ["user", "why?"],
      ["assistant", "Looking."],
      ["assistant", "Untyped prose counts as speech."],
      ["tool_result", "match.go:3: pool"],
    ]);
    assert(!JSON.stringify(s).includes("SECRET-THINKING"));
  } finally {
    t.cleanup();
  }
});

Deno.test("a RUN_COMMAND step gives a call with its Task Description and a result without time headers", async () => {
  const t = tree({
    [transcript()]: jsonl(
      ask("test"),
      step(
        "MODEL",
        "RUN_COMMAND",
        "Created At: 2026-08-14T09:00:03Z\nCompleted At: 2026-08-14T09:00:05Z\nTask Description: go test ./...\nFAIL",
      ),
      step("MODEL", "GENERIC", "Task Description: make lint\nok"),
    ),
  });
  try {
    const s = (await parse(t.root)).sessions[0];
    assertEquals(kinds(s), ["user", "tool_call", "tool_result", "tool_call", "tool_result"]);
    assertEquals(s.events[1].tool?.command, "go test ./...");
    assertEquals(s.events[2].text, "Task Description: go test ./...\nFAIL");
    assertEquals(s.events[2].result?.callId, s.events[1].tool?.id);
    assertEquals(s.events[3].tool?.command, "make lint");
  } finally {
    t.cleanup();
  }
});

Deno.test("file headers give a path only when their value is a file:// URI, backticks and suffix removed", () => {
  assertEquals(
    headerPath("File Path: `file:///work/my%20app/a.go` (lines 1-9)"),
    "/work/my app/a.go",
  );
  assertEquals(headerPath("Created At: x\nEdited file file:///work/b.go\n"), "/work/b.go");
  assertEquals(headerPath("File Path: relative/c.go"), undefined);
  assertEquals(fileUriPath("file:///C:/Users/me/d.go"), "C:/Users/me/d.go");
  assertEquals(stepBody("\nCreated At: 1\nCompleted At: 2\n"), "");
});

Deno.test("header-only and empty steps yield nothing when a tool step carries no output", async () => {
  const t = tree({
    [transcript()]: jsonl(
      ask("x"),
      step(
        "MODEL",
        "GREP_SEARCH",
        "Created At: 2026-08-14T09:00:07Z\nCompleted At: 2026-08-14T09:00:07Z\n",
      ),
      step("MODEL", "CODE_ACTION", ""),
    ),
  });
  try {
    assertEquals(kinds((await parse(t.root)).sessions[0]), ["user"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a planner tool call with JSON-encoded args is one call whose result is the matching step", async () => {
  const t = tree({
    [transcript()]: jsonl(
      ask("vet"),
      step("MODEL", "PLANNER_RESPONSE", "", {
        tool_calls: [
          { name: "run_command", args: { CommandLine: '"go vet ./..."', Cwd: '"/srv/code/app"' } },
          { name: "view_file", args: { AbsolutePath: '"/srv/code/app/main.go"' } },
        ],
      }),
      step("MODEL", "VIEW_FILE", "File Path: file:///srv/code/app/main.go\npackage main"),
      step("MODEL", "RUN_COMMAND", "Task Description: go vet ./...\nok"),
    ),
  });
  try {
    const s = (await parse(t.root)).sessions[0];
    const calls = s.events.filter((e) => e.kind === "tool_call");
    assertEquals(calls.map((e) => [e.tool?.name, e.tool?.command, e.tool?.paths]), [
      ["run_command", "go vet ./...", undefined],
      ["view_file", undefined, ["/srv/code/app/main.go"]],
    ]);
    const results = s.events.filter((e) => e.kind === "tool_result");
    assertEquals(results.map((e) => e.result?.callId), [calls[1].tool?.id, calls[0].tool?.id]);
    assertEquals(s.project, "/srv/code/app");
  } finally {
    t.cleanup();
  }
});

Deno.test("list_dir and grep_search calls and LIST_DIRECTORY steps name a directory, not a file read", async () => {
  const t = tree({
    [transcript()]: jsonl(
      ask("where"),
      step("MODEL", "PLANNER_RESPONSE", "", {
        tool_calls: [
          { name: "list_dir", args: { DirectoryPath: '"/srv/code/app/internal"' } },
          { name: "grep_search", args: { SearchPath: '"/srv/code/app"', Query: '"TODO"' } },
        ],
      }),
      step("MODEL", "LIST_DIRECTORY", "File Path: file:///srv/code/app/internal\nhandlers.go"),
      step("MODEL", "LIST_DIRECTORY", "File Path: file:///srv/code/app/cmd\nmain.go"),
    ),
  });
  try {
    const s = (await parse(t.root)).sessions[0];
    const calls = s.events.filter((e) => e.kind === "tool_call");
    assertEquals(calls.map((e) => [e.tool?.name, e.tool?.paths, e.tool?.input]), [
      ["list_dir", undefined, { DirectoryPath: "/srv/code/app/internal" }],
      ["grep_search", undefined, { SearchPath: "/srv/code/app", Query: "TODO" }],
      ["LIST_DIRECTORY", undefined, { DirectoryPath: "/srv/code/app/cmd" }],
    ]);
    const results = s.events.filter((e) => e.kind === "tool_result");
    assertEquals(results.map((e) => e.result?.callId), [calls[0].tool?.id, calls[2].tool?.id]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a CODE_ACTION diff block becomes an edit span of the changed file when the step names it", async () => {
  const t = tree({
    [transcript()]: jsonl(
      ask("raise it"),
      step(
        "MODEL",
        "CODE_ACTION",
        "Created At: 1\nThe following changes were made by the replace_file_content tool to: " +
          "/srv/code/app/pool.go. If relevant, run it.\n[diff_block_start]\n@@ -1,2 +1,2 @@\n" +
          " package db\n-const max = 4\n+const max = 16\n[diff_block_end]\n",
      ),
    ),
  });
  try {
    const c = (await parse(t.root)).sessions[0].events.find((e) => e.kind === "tool_call");
    assertEquals([c?.tool?.edits, c?.tool?.paths], [[{
      path: "/srv/code/app/pool.go",
      old: "package db\nconst max = 4",
      new: "package db\nconst max = 16",
    }], undefined]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a step without a readable created_at takes the session start when earlier steps had times", async () => {
  const t = tree({
    [transcript()]: jsonl(
      { ...ask("a"), created_at: "2026-08-14T09:00:00Z" },
      { ...step("MODEL", "PLANNER_RESPONSE", "b"), created_at: "2026-08-14T09:05:00Z" },
      { ...step("MODEL", "PLANNER_RESPONSE", "c"), created_at: "garbage" },
    ),
  });
  try {
    const s = (await parse(t.root)).sessions[0];
    assertEquals(s.events.map((e) => e.time), [
      Date.parse("2026-08-14T09:00:00Z"),
      Date.parse("2026-08-14T09:05:00Z"),
      Date.parse("2026-08-14T09:00:00Z"),
    ]);
    assertEquals([s.started, s.updated], [
      Date.parse("2026-08-14T09:00:00Z"),
      Date.parse("2026-08-14T09:05:00Z"),
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("the project comes from the IDE cache, then the CLI cache, re-read on every pass when they change", async () => {
  const t = tree({
    [transcript()]: jsonl(ask("x")),
    "cache/conversation_metadata.json": JSON.stringify({
      conversations: {
        "7d1e0c3a": {
          summary: { WorkspaceURIs: ["file:///work/ide%20app", "file:///work/second"] },
        },
      },
    }),
    "cache/last_conversations.json": JSON.stringify({ "/work/cli-app": CONV }),
  });
  try {
    assertEquals((await parse(t.root)).sessions[0].project, "/work/ide app");
    rmSync(join(t.root, "cache/conversation_metadata.json"));
    assertEquals((await parse(t.root)).sessions[0].project, "/work/cli-app");
    writeFileSync(join(t.root, "cache/last_conversations.json"), '{"/work/other": "ffff"}');
    assertEquals((await parse(t.root)).sessions[0].project, undefined);
  } finally {
    t.cleanup();
  }
});

Deno.test("the project is the shared directory of the touched files, raised to the checkout, when no cache knows it", async () => {
  const view = (p: string) => step("MODEL", "VIEW_FILE", `File Path: file://${p}\nx`);
  const t = tree({ "work/code/api-gateway/.git/HEAD": "ref: refs/heads/main\n" });
  const deep = join(t.root, "work/code/api-gateway/internal/db");
  const cases: Array<[string[], string | undefined]> = [
    [[`${deep}/pool.go`], join(t.root, "work/code/api-gateway")],
    [["/srv/code/api/cmd/main.go", "/srv/code/api/internal/db/pool.go"], "/srv/code/api"],
    [["/srv/team/code/api/main.go", "/srv/team/code/billing/main.go"], "/srv/team/code"],
    [["/Users/me/notes.md", "/Users/me/todo.txt"], undefined],
    [
      ["/C:/Users/me/code/api/cmd/main.go", "/C:/Users/me/code/api/pool.go"],
      "C:\\Users\\me\\code\\api",
    ],
  ];
  try {
    for (const [i, [paths, want]] of cases.entries()) {
      const conv = `case-${i}`;
      mkdirSync(dirname(join(t.root, transcript(conv))), { recursive: true });
      writeFileSync(join(t.root, transcript(conv)), jsonl(ask("q"), ...paths.map(view)));
      assertEquals((await parse(t.root, conv)).sessions[0].project, want, paths.join(" "));
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("an empty transcript is counted and yields no session", async () => {
  const t = tree({ [transcript()]: "" });
  try {
    const { sessions, ctx } = await parse(t.root);
    assertEquals([sessions, ctx.counts], [[], { empty: 1 }]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a truncated last line is left unread and the lines before it parse when the transcript is being written", async () => {
  const whole = JSON.stringify(step("MODEL", "PLANNER_RESPONSE", "the end")) + "\n";
  const t = tree({ [transcript()]: jsonl(ask("start")) + whole.slice(0, 25) });
  try {
    const first = await parse(t.root);
    assertEquals([texts(first.sessions[0], "user"), first.ctx.counts], [["start"], {
      partial_line: 1,
    }]);
    appendFileSync(join(t.root, transcript()), whole.slice(25));
    const second = await parse(t.root);
    assertEquals(second.sessions.map((s) => [s.id, texts(s, "assistant")]), [[CONV, ["the end"]]]);
    assertEquals(second.ctx.counts, {});
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed, invalid UTF-8 and sourceless lines are counted and skipped when the rest parses", async () => {
  const t = tree({
    [transcript()]: jsonl({ type: "PLANNER_RESPONSE", content: "no source" }, ask("kept")) +
      "{broken\n",
  });
  try {
    appendFileSync(join(t.root, transcript()), new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    appendFileSync(
      join(t.root, transcript()),
      jsonl(step("MODEL", "PLANNER_RESPONSE", "also kept"), [1, 2]),
    );
    const { sessions, ctx } = await parse(t.root);
    assertEquals(ctx.counts, {
      unknown_record: 1,
      malformed_json: 2,
      bad_shape: 1,
    });
    assertEquals(sessions[0].events.map((e) => e.text), ["kept", "also kept"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a re-read after an append gives the same session id, the conversation directory's name", async () => {
  const t = tree({ [transcript()]: jsonl(ask("one")) });
  try {
    const first = await parse(t.root);
    appendFileSync(join(t.root, transcript()), jsonl(step("MODEL", "PLANNER_RESPONSE", "two")));
    const second = await parse(t.root);
    assertEquals([first.sessions[0].id, second.sessions[0].id], [CONV, CONV]);
    assertEquals(texts(second.sessions[0], "assistant"), ["two"]);
  } finally {
    t.cleanup();
  }
});
