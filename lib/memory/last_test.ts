import { assertEquals } from "../../tests/_assert.ts";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { indexSessions, type SessionSpec } from "../../tests/_memory.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { runIndex } from "../indexer.ts";
import { indexPath, Store } from "../store.ts";
import { parsers } from "../../parsers/mod.ts";
import { lastSessions } from "./last.ts";

const at = (id: string, cwd: string, day: string): SessionSpec => ({
  id,
  cwd,
  start: `2026-06-${day}T10:00:00Z`,
  turns: [{ user: `work on ${cwd}` }],
});

Deno.test("lastSessions lists newest first, filters, and leaves subagents under their parent", async () => {
  const ix = await indexSessions([
    at("31310001-0000-4000-8000-000000000001", "/w/a", "01"),
    at("32320002-0000-4000-8000-000000000002", "/w/b", "03"),
    at("33330003-0000-4000-8000-000000000003", "/w/a", "02"),
  ]);
  try {
    // A subagent of the newest session, written later than everything else.
    const dir = join(
      ix.root,
      "claude",
      "-w-b",
      "32320002-0000-4000-8000-000000000002",
      "subagents",
    );
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "agent-a9a9a9a9a9a9a9a9.jsonl"),
      JSON.stringify({
        isSidechain: true,
        sessionId: "32320002-0000-4000-8000-000000000002",
        agentId: "a9a9a9a9a9a9a9a9",
        cwd: "/w/b",
        uuid: "s1",
        timestamp: "2026-06-09T10:00:00Z",
        type: "user",
        message: { role: "user", content: "look around" },
      }) + "\n",
    );
    ix.store.close();
    await runIndex(ix.env, parsers, { only: ["claude"] });
    const store = Store.open(indexPath(ix.env));
    try {
      const ids = (o = {}) => lastSessions(store, o).sessions.map((s) => s.native_id.slice(0, 4));
      const kids = store.db.prepare("SELECT COUNT(*) AS n FROM sessions WHERE parent IS NOT NULL")
        .get() as { n: number };
      assertEquals(kids.n, 1);
      assertEquals(ids(), ["3232", "3333", "3131"]);
      assertEquals(ids({ limit: 2 }), ["3232", "3333"]);
      assertEquals(ids({ project: "/w/a" }), ["3333", "3131"]);
      assertEquals(ids({ harness: ["codex"] }), []);
      assertEquals(ids({ harness: ["codex", "claude"] }).length, 3);
    } finally {
      store.close();
    }
  } finally {
    ix.cleanup();
  }
});

// Regression (real stores, 2026-12): a Codex Desktop rollout whose `session_meta`
// names a parent thread, a Gemini subagent chat and a Claude aside subagent were
// counted by `stats` but never listed by `last`, because their parents were not
// indexed.
Deno.test("lastSessions lists a subagent whose parent is not indexed as a session of its own", async () => {
  const ix = await indexSessions([at("41410001-0000-4000-8000-000000000001", "/w/a", "01")]);
  try {
    const dir = join(
      ix.root,
      "claude",
      "-w-c",
      "42420002-0000-4000-8000-00000000dead",
      "subagents",
    );
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "agent-aside_question-b9b9b9b9b9b9b9b9.jsonl"),
      JSON.stringify({
        isSidechain: true,
        sessionId: "42420002-0000-4000-8000-00000000dead",
        agentId: "aside_question-b9b9b9b9b9b9b9b9",
        cwd: "/w/c",
        uuid: "s1",
        timestamp: "2026-06-05T10:00:00Z",
        type: "user",
        message: { role: "user", content: "/model" },
      }) + "\n" + JSON.stringify({
        isSidechain: true,
        sessionId: "42420002-0000-4000-8000-00000000dead",
        agentId: "aside_question-b9b9b9b9b9b9b9b9",
        cwd: "/w/c",
        uuid: "s2",
        timestamp: "2026-06-05T10:01:00Z",
        type: "user",
        message: { role: "user", content: "  Why does the\n  build   fail on arm64?  " },
      }) + "\n",
    );
    ix.store.close();
    await runIndex(ix.env, parsers, { only: ["claude"] });
    const store = Store.open(indexPath(ix.env));
    try {
      const rows = lastSessions(store).sessions;
      assertEquals(rows.map((s) => s.native_id.slice(0, 4)), ["4242", "4141"]);
      // A description on every row: the title, else the first prompt a person typed, on one line.
      assertEquals(rows.map((s) => s.description), [
        "Why does the build fail on arm64?",
        "work on /w/a",
      ]);
    } finally {
      store.close();
    }
  } finally {
    ix.cleanup();
  }
});

// Regression (2027-01): `last` cut a description before removing escape sequences, so an OSC-8
// link cut mid-sequence left `8;;http://evil.ex…` visible.
Deno.test("lastSessions cleans a description before cutting it", async () => {
  const link = `\x1b]8;;http://evil.example/${"x".repeat(300)}\x07click\x1b]8;;\x07`;
  const ix = await indexSessions([{
    id: "34340004-0000-4000-8000-000000000004",
    cwd: "/w/c",
    start: "2026-06-04T10:00:00Z",
    turns: [{ user: `${"word ".repeat(30)}${link} after` }],
  }]);
  try {
    const [s] = lastSessions(ix.store).sessions;
    assertEquals(s.description, `${"word ".repeat(30)}click after`);
  } finally {
    ix.cleanup();
  }
});

// Regression (trial 30 #8): a Cline task whose history is `[]` was listed by `last` as a
// session of 0 events, although there is nothing in it to show.
Deno.test("lastSessions leaves out sessions that hold no events", async () => {
  const ix = await indexSessions([at("51510001-0000-4000-8000-000000000001", "/w/a", "01")]);
  try {
    const cline = join(ix.root, "cline");
    mkdirSync(join(cline, "tasks", "1790000000002"), { recursive: true });
    writeFileSync(join(cline, "tasks", "1790000000002", "api_conversation_history.json"), "[]");
    ix.store.close();
    const env = testEnv(join(ix.root, "home"), {
      DEJA_HOME: join(ix.root, "deja"),
      DEJA_CLAUDE_ROOT: join(ix.root, "claude"),
      DEJA_CLINE_ROOT: cline,
      TZ: "UTC",
    });
    await runIndex(env, parsers, { only: ["claude", "cline"] });
    const store = Store.open(indexPath(env));
    try {
      const empty = store.db.prepare("SELECT events FROM sessions WHERE harness = 'cline'").all();
      assertEquals(empty, [{ events: 0 }]);
      const listed = lastSessions(store, {});
      assertEquals(listed.sessions.map((s) => s.harness), ["claude"]);
      assertEquals(listed.total, 1);
    } finally {
      store.close();
    }
  } finally {
    ix.cleanup();
  }
});

// Regression (trial 103 F5): `deja last yesterday` listed a session of two events, on
// 2026-12-01 and 2026-12-06, because its span covered December 5; no event fell that day.
Deno.test("lastSessions lists a session for a window with an end only when one of its events falls in it", async () => {
  const ix = await indexSessions([at("61610001-0000-4000-8000-000000000001", "/w/a", "05")]);
  try {
    const line = (uuid: string, timestamp: string, content: string) =>
      JSON.stringify({
        sessionId: "62620002-0000-4000-8000-000000000002",
        cwd: "/w/b",
        uuid,
        timestamp,
        type: "user",
        message: { role: "user", content },
      });
    const dir = join(ix.root, "claude", "-w-b");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "62620002-0000-4000-8000-000000000002.jsonl"),
      [
        line("u1", "2026-06-01T09:00:00Z", "start the long one"),
        line("u2", "2026-06-06T10:00:00Z", "back to it"),
      ].join("\n") + "\n",
    );
    // A Cline task of messages without a time is dated by its file (June 5): by its span alone.
    const cline = join(ix.root, "cline");
    const task = join(cline, "tasks", "1790000000003");
    mkdirSync(task, { recursive: true });
    const history = join(task, "api_conversation_history.json");
    writeFileSync(
      history,
      JSON.stringify([{ role: "user", content: [{ type: "text", text: "tidy the docs" }] }]),
    );
    const june5 = new Date(Date.UTC(2026, 5, 5, 8));
    utimesSync(history, june5, june5);
    // A Continue session created June 2 whose file was saved June 9, no event timed: its start
    // and its end are its times, not every day between (trial 106 F1).
    const cont = join(ix.root, "continue");
    mkdirSync(cont, { recursive: true });
    const CID = "63630003-0000-4000-8000-000000000003";
    writeFileSync(
      join(cont, "sessions.json"),
      JSON.stringify([{
        sessionId: CID,
        title: "tidy",
        dateCreated: String(Date.UTC(2026, 5, 2, 9)),
        workspaceDirectory: "/w/c",
      }]),
    );
    const doc = join(cont, `${CID}.json`);
    writeFileSync(
      doc,
      JSON.stringify({
        sessionId: CID,
        title: "tidy",
        workspaceDirectory: "/w/c",
        history: [{ message: { role: "user", content: "tidy the readme" }, contextItems: [] }],
      }),
    );
    const june9 = new Date(Date.UTC(2026, 5, 9, 8));
    utimesSync(doc, june9, june9);
    ix.store.close();
    const env = testEnv(join(ix.root, "home"), {
      DEJA_HOME: join(ix.root, "deja"),
      DEJA_CLAUDE_ROOT: join(ix.root, "claude"),
      DEJA_CLINE_ROOT: cline,
      DEJA_CONTINUE_ROOT: cont,
      TZ: "UTC",
    });
    await runIndex(env, parsers, { only: ["claude", "cline", "continue"] });
    const store = Store.open(indexPath(env));
    try {
      const ids = (since: number, until?: number) =>
        lastSessions(store, { since, until }).sessions.map((s) => s.native_id.slice(0, 4));
      const day = (d: number) => Date.UTC(2026, 5, d);
      const timed = store.db.prepare(
        "SELECT COUNT(e.time) AS n FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.harness = 'cline'",
      ).get() as { n: number };
      assertEquals(timed.n, 0);
      // June 5: the session of that day and the Cline task, not the one whose span covers it.
      assertEquals(ids(day(5), day(6)).sort(), ["1790", "6161"]);
      // Its days of work, it is listed for.
      assertEquals(ids(day(1), day(2)), ["6262"]);
      assertEquals(ids(day(6), day(7)), ["6262"]);
      // Up to now (no end): by its last event, as before.
      assertEquals(ids(day(5)).includes("6262"), true);
      // The Continue session: its start's day and its file's day, nothing between.
      assertEquals(ids(day(2), day(3)).includes("6363"), true);
      assertEquals(ids(day(9), day(10)).includes("6363"), true);
      assertEquals(ids(day(4), day(5)).includes("6363"), false);
    } finally {
      store.close();
    }
  } finally {
    ix.cleanup();
  }
});
