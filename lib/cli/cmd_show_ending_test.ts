import { assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { claudeLines, indexSessions, type SessionSpec } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { tempDir } from "../../tests/_tmp.ts";
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runIndex } from "../indexer.ts";
import { listProjects, tinyStore, tinyVars } from "../../tests/_crush_tiny.ts";
import { parsers } from "../../parsers/mod.ts";
import { showCmd } from "./cmd_show.ts";
import { ctxCmd } from "./cmd_ctx.ts";
import { sessionPage } from "../view/session.ts";
import { indexPath, Store } from "../store.ts";
import type { Env } from "../../core/model.ts";

/** The view's page of session `id` (the CLI's trial found it silent on how a session ended). */
function viewPage(env: Env, harness: string, id: string): string {
  const store = Store.open(indexPath(env), { readOnly: true });
  try {
    return sessionPage({ base: "/t", store, env, now: 0 }, harness, id) ?? "";
  } finally {
    store.close();
  }
}

// User trial (2026-12): a session whose last prompt got no answer read in `show` like any other.
Deno.test("show says no reply followed the last message, in text and as unanswered in JSON", async () => {
  const ix = await indexSessions([{
    id: "e0d10000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "fix the build" }, { say: "Fixed." }, { user: "and the tests?" }],
  }, {
    id: "e0d20000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-02T10:00:00Z",
    turns: [{ user: "fix the build" }, { say: "Fixed." }],
  }, {
    // One prompt, in a file of its own (trial 33: not unanswered, its store holding no reply).
    id: "e0d30000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-03T10:00:00Z",
    turns: [{ user: "why is the deploy slow?" }],
  }]);
  try {
    const lone = captureIO(ix.env, false);
    await showCmd.run({ values: { json: true }, positionals: ["e0d3"] }, lone.io);
    assertEquals(JSON.parse(lone.out()).unanswered, true, lone.out());
    const pipe = captureIO(ix.env, false);
    assertEquals(await showCmd.run({ values: {}, positionals: ["e0d1"] }, pipe.io), 0);
    assertEquals(pipe.out().trimEnd().split("\n").at(-1), "no reply followed the last message");
    const json = captureIO(ix.env, false);
    await showCmd.run({ values: { json: true }, positionals: ["e0d1"] }, json.io);
    const doc = JSON.parse(json.out());
    assertEquals([doc.unanswered, doc.ended_mid_reply], [true, false]);

    const answered = captureIO(ix.env, false);
    await showCmd.run({ values: { json: true }, positionals: ["e0d2"] }, answered.io);
    assertEquals(JSON.parse(answered.out()).unanswered, false);
    const text = captureIO(ix.env, false);
    await showCmd.run({ values: {}, positionals: ["e0d2"] }, text.io);
    assertEquals(text.out().includes("no reply followed"), false);

    // The view's session page says it too, and only of the unanswered one.
    const page = viewPage(ix.env, "claude", "e0d10000-1111-4222-8333-444455556666");
    assertStringIncludes(page, `<div class="ending">no reply followed the last message</div>`);
    const done = viewPage(ix.env, "claude", "e0d20000-1111-4222-8333-444455556666");
    assertEquals(done.includes("no reply followed"), false);
  } finally {
    ix.cleanup();
  }
});

/**
 * A Claude Code session under a temp root whose last record is cut in half and unchanged for
 * an hour (its reply lost), indexed: the env and the root.
 */
async function cutSession(id: string, turns: SessionSpec["turns"]) {
  const root = tempDir("deja-show-cut-");
  const dir = join(root, "claude", "-w-app");
  mkdirSync(dir, { recursive: true });
  const lines = claudeLines({ id, cwd: "/w/app", start: "2026-11-01T10:00:00Z", turns });
  const last = lines.pop()!;
  const file = join(dir, `${id}.jsonl`);
  writeFileSync(file, lines.join("\n") + "\n" + last.slice(0, last.length / 2));
  const old = new Date(Date.now() - 3_600_000);
  utimesSync(file, old, old);
  const env = testEnv(join(root, "home"), {
    DEJA_HOME: join(root, "deja"),
    DEJA_CLAUDE_ROOT: join(root, "claude"),
  });
  await runIndex(env, parsers, { only: ["claude"] });
  return { root, env };
}

Deno.test("show says a session ended mid-reply when its store's last line was cut off", async () => {
  const { root, env } = await cutSession("c0100000-1111-4222-8333-444455556666", [
    { user: "plan the release" },
    { say: "Step one is the changelog." },
    { say: "Step two is the tag and then" },
  ]);
  try {
    const pipe = captureIO(env, false);
    assertEquals(await showCmd.run({ values: {}, positionals: ["c010"] }, pipe.io), 0);
    assertStringIncludes(pipe.out(), "Step one is the changelog.");
    assertEquals(pipe.out().trimEnd().split("\n").at(-1), "ended mid-reply");
    const json = captureIO(env, false);
    await showCmd.run({ values: { json: true }, positionals: ["c010"] }, json.io);
    const doc = JSON.parse(json.out());
    assertEquals([doc.unanswered, doc.ended_mid_reply], [false, true]);
    const page = viewPage(env, "claude", "c0100000-1111-4222-8333-444455556666");
    assertStringIncludes(page, `<div class="ending">ended mid-reply</div>`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// Trial 71: show said "ended mid-reply", ctx "The user's last message, not answered yet".
Deno.test("ctx says as show does that the reply to the last request was cut off", async () => {
  const { root, env } = await cutSession("c0200000-1111-4222-8333-444455556666", [
    { user: "plan the release" },
    { say: "Step one is the changelog." },
    { user: "Also add a CHANGELOG entry for the parser fix" },
    { say: "Adding the entry under Fixed, then" },
  ]);
  try {
    const ctx = captureIO(env, false);
    assertEquals(await ctxCmd.run({ values: {}, positionals: ["c020"] }, ctx.io), 0);
    assertStringIncludes(
      ctx.out(),
      "The session ended mid-reply to the user's last message (the reply's record is cut off " +
        "in its store): “Also add a CHANGELOG entry for the parser fix”",
    );
    assertEquals(ctx.out().includes("not answered yet"), false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("a Crush session no reply followed is said so whatever the other sessions of its store", async () => {
  // Trial 89 F6: once a second unanswered session joined the store (which then held no reply),
  // neither was said unanswered any more.
  const root = tempDir("deja-show-crush-");
  try {
    const answered = join(root, "one");
    const asked = join(root, "two");
    for (const p of [answered, asked]) mkdirSync(join(p, ".crush"), { recursive: true });
    mkdirSync(join(root, "crush"), { recursive: true });
    listProjects(root, [answered, asked]);
    tinyStore(join(answered, ".crush", "crush.db"), ["a"]);
    const path = join(asked, ".crush", "crush.db");
    tinyStore(path, ["b", "d"]);
    const db = new DatabaseSync(path);
    db.exec("DELETE FROM messages WHERE role = 'assistant'");
    db.close();
    const env = testEnv(join(root, "home"), tinyVars(root));
    await runIndex(env, parsers, { only: ["crush"] });
    for (const id of ["bbbb", "dddd"]) {
      const json = captureIO(env, false);
      assertEquals(await showCmd.run({ values: { json: true }, positionals: [id] }, json.io), 0);
      assertEquals(JSON.parse(json.out()).unanswered, true, id);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("show marks a reply Crush never finished cut off, and says the session ended mid-reply", async () => {
  const root = tempDir("deja-show-crush-");
  try {
    const project = join(root, "proj");
    mkdirSync(join(project, ".crush"), { recursive: true });
    mkdirSync(join(root, "crush"), { recursive: true });
    listProjects(root, [project]);
    // Its assistant messages carry no finish part: the stream never ended.
    tinyStore(join(project, ".crush", "crush.db"), ["a"]);
    const env = testEnv(join(root, "home"), tinyVars(root));
    await runIndex(env, parsers, { only: ["crush"] });
    const json = captureIO(env, false);
    assertEquals(await showCmd.run({ values: { json: true }, positionals: ["aaaa"] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(
      doc.events.map((e: { kind: string; cut?: boolean }) => [e.kind, e.cut ?? false]),
      [["user", false], ["assistant", true]],
    );
    assertEquals([doc.unanswered, doc.ended_mid_reply], [false, true]);
    const pipe = captureIO(env, false);
    await showCmd.run({ values: {}, positionals: ["aaaa"] }, pipe.io);
    assertStringIncludes(pipe.out(), "assistant cut off");
    assertEquals(pipe.out().trimEnd().split("\n").at(-1), "ended mid-reply");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// Trial 73 F12: a session ending on a tool call that never got a result closed with no line.
Deno.test("show says no result followed a last tool call, where the session records results", async () => {
  const ix = await indexSessions([{
    id: "e0f10000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "stash the work" },
      { bash: "git status", out: "clean" },
      { bash: "git stash", out: null },
    ],
  }, {
    // A call answered, then words: nothing to say.
    id: "e0f20000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-02T10:00:00Z",
    turns: [{ user: "stash the work" }, { bash: "git stash", out: "Saved" }],
  }, {
    // Its only call got no result (trial 89 F4: said nothing, where an earlier result made
    // it say so).
    id: "e0f30000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-03T10:00:00Z",
    turns: [{ user: "roll the migration back" }, { bash: "make migrate-rollback", out: null }],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await showCmd.run({ values: {}, positionals: ["e0f1"] }, pipe.io), 0);
    assertEquals(pipe.out().trimEnd().split("\n").at(-1), "no result followed the last tool call");
    const json = captureIO(ix.env, false);
    await showCmd.run({ values: { json: true }, positionals: ["e0f1"] }, json.io);
    const doc = JSON.parse(json.out());
    assertEquals([doc.ended_on_call, doc.unanswered, doc.ended_mid_reply], [true, false, false]);
    const page = viewPage(ix.env, "claude", "e0f10000-1111-4222-8333-444455556666");
    assertStringIncludes(page, `<div class="ending">no result followed the last tool call</div>`);

    const done = captureIO(ix.env, false);
    await showCmd.run({ values: { json: true }, positionals: ["e0f2"] }, done.io);
    assertEquals(JSON.parse(done.out()).ended_on_call, false);
    const only = captureIO(ix.env, false);
    await showCmd.run({ values: { json: true }, positionals: ["e0f3"] }, only.io);
    assertEquals(JSON.parse(only.out()).ended_on_call, true);
  } finally {
    ix.cleanup();
  }
});

// Trial 85 F5, F6: four calls made together with two results, and calls answered with no
// words after them, ended with no closing line.
Deno.test("show says when calls made together went unanswered, or calls got no reply after them", async () => {
  const { indexSessions: index } = await import("../../tests/_memory.ts");
  const ix = await index([{
    id: "e0f30000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "look around" },
      { bash: "ls", out: "a b" },
      { say: "I'll read the readme next." },
      { bash: "cat README.md", out: "# app" },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await showCmd.run({ values: {}, positionals: ["e0f3"] }, pipe.io), 0);
    assertEquals(pipe.out().trimEnd().split("\n").at(-1), "no reply followed the last tool calls");
    const json = captureIO(ix.env, false);
    await showCmd.run({ values: { json: true }, positionals: ["e0f3"] }, json.io);
    const doc = JSON.parse(json.out());
    assertEquals([doc.ended_after_calls, doc.ended_on_call, doc.unanswered], [true, false, false]);
  } finally {
    ix.cleanup();
  }
  // Two calls made together, one result: the other never finished.
  const { endingOf } = await import("../memory/ending.ts");
  const ev = (kind: string, text: string, call_id: string | null = null) => ({
    kind,
    text,
    data: null,
    call_id,
  });
  assertEquals(
    endingOf([
      ev("user", "check both"),
      ev("tool_call", "$ a", "c1"),
      ev("tool_call", "$ b", "c2"),
      ev("tool_result", "ok", "c1"),
    ] as never),
    "call_unfinished",
  );
});
