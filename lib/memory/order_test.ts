import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { claudeLines } from "../../tests/_memory.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { tempDir } from "../../tests/_tmp.ts";
import { runIndex } from "../indexer.ts";
import { indexPath, Store } from "../store.ts";
import { parsers } from "../../parsers/mod.ts";
import { listSpans } from "./restore.ts";
import { blame } from "./blame.ts";
import { parseRestore, restoreData, restoreJson, restoreText } from "../cli/cmd_restore.ts";

const WD = "/work/svc";
const SID = "0f0e0d0c-1111-4222-8333-444455556666";
const PROMPT = "Replace every db. call in a.py with a direct call from the imports";
const line = (r: unknown) => JSON.stringify(r) + "\n";
const call = (id: string, name: string, args: unknown) => ({
  role: "assistant",
  content: "",
  tool_calls: [{ type: "function", id, function: { name, arguments: JSON.stringify(args) } }],
});
const result = (id: string) => ({ role: "tool", content: "ok", tool_call_id: id });
const edit = (old: string) => ({ path: `${WD}/a.py`, edit: { old, new: "x\n" } });

/**
 * A Kimi session without timestamps (context.jsonl) that edits a.py, spawns a subagent
 * (context_sub_1.jsonl) that edits it twice, then edits it again; its files dated 2026-11-29. A Claude session edited
 * a.py on 2026-01-13, with timestamps. The Kimi files are the sessions' own (their mtime is
 * their last write, lib/session_time.ts); with `undated`, the index marks the Kimi sessions'
 * times as a shared file's instead (as a prompt history's), to hold the other kind to the rule.
 */
async function world(undated = false) {
  const root = tempDir("deja-order-");
  const kimiRoot = join(root, "kimi");
  const dir = join(kimiRoot, "sessions", createHash("md5").update(WD).digest("hex"), SID);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(kimiRoot, "kimi.json"),
    JSON.stringify({ work_dirs: [{ path: WD, kaos: "local", last_session_id: null }] }),
  );
  writeFileSync(
    join(dir, "context.jsonl"),
    [
      { role: "user", content: "tidy a.py" },
      call("e1", "StrReplaceFile", edit("PARENT-OLD\n")),
      result("e1"),
      call("t1", "Task", { description: "calls", subagent_name: "coder", prompt: PROMPT }),
      result("t1"),
      call("e2", "StrReplaceFile", edit("PARENT-LATE\n")),
      result("e2"),
      { role: "assistant", content: "done" },
    ].map(line).join(""),
  );
  writeFileSync(
    join(dir, "context_sub_1.jsonl"),
    [
      { role: "user", content: PROMPT },
      call("s1", "StrReplaceFile", edit("SUB-OLD-1\n")),
      result("s1"),
      call("s2", "StrReplaceFile", edit("SUB-OLD-2\n")),
      result("s2"),
    ].map(line).join(""),
  );
  const nov = new Date("2026-11-29T12:00:00Z");
  for (const f of ["context.jsonl", "context_sub_1.jsonl"]) utimesSync(join(dir, f), nov, nov);
  const claudeRoot = join(root, "claude", "-work-svc");
  mkdirSync(claudeRoot, { recursive: true });
  writeFileSync(
    join(claudeRoot, "aaaa0001-0000-4000-8000-000000000001.jsonl"),
    claudeLines({
      id: "aaaa0001-0000-4000-8000-000000000001",
      cwd: WD,
      start: "2026-01-13T10:00:00Z",
      turns: [{ user: "fix a.py" }, { edit: `${WD}/a.py`, old: "CLAUDE-OLD\n", new: "y\n" }],
    }).join("\n") + "\n",
  );
  const env = testEnv(join(root, "home"), {
    DEJA_HOME: join(root, "deja"),
    DEJA_CLAUDE_ROOT: join(root, "claude"),
    DEJA_KIMI_ROOT: kimiRoot,
    TZ: "UTC",
  });
  await runIndex(env, parsers, { only: ["claude", "kimi"] });
  const store = Store.open(indexPath(env));
  if (undated) store.db.exec("UPDATE sessions SET time_from_file = 2 WHERE harness = 'kimi'");
  const w = {
    store,
    env,
    claudeRoot,
    cleanup() {
      w.store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return w;
}

const KIMI_SPANS = ["PARENT-LATE", "SUB-OLD-2", "SUB-OLD-1", "PARENT-OLD"];

Deno.test("restore orders spans without a time by their session's time, a subagent's at its spawning call", async () => {
  const w = await world();
  try {
    const r = listSpans(w.store, `${WD}/a.py`, { cwd: "/" });
    // The subagent was spawned between the parent's edits: its edits sit between them, the
    // later first. The Kimi session is dated 2026-11-29 by its own files, its last write:
    // newer than the Claude edit.
    assertEquals(r.spans.map((s) => s.text.trim()), [...KIMI_SPANS, "CLAUDE-OLD"]);
    assertEquals(r.spans.map((s) => s.timeSource), ["file", "file", "file", "file", "event"]);
  } finally {
    w.cleanup();
  }
});

Deno.test("restore puts an undated session's spans (a shared file's time) after every dated one", async () => {
  const w = await world(true);
  try {
    const r = listSpans(w.store, `${WD}/a.py`, { cwd: "/" });
    // The same files' time, but a shared file's: no evidence of when, so after the Claude edit.
    assertEquals(r.spans.map((s) => s.text.trim()), ["CLAUDE-OLD", ...KIMI_SPANS]);
    assertEquals(r.spans.map((s) => s.timeSource), ["event", "file", "file", "file", "file"]);
  } finally {
    w.cleanup();
  }
});

Deno.test("blame lists sessions in the order restore lists their newest spans", async () => {
  const claude = "aaaa0001-0000-4000-8000-000000000001";
  for (const undated of [false, true]) {
    const w = await world(undated);
    try {
      const r = blame(w.store, `${WD}/a.py`, { cwd: "/", readFile: () => undefined });
      assertEquals(
        r.sessions.map((s) => s.session.native_id),
        undated ? [claude, SID, `${SID}/sub_1`] : [SID, `${SID}/sub_1`, claude],
      );
    } finally {
      w.cleanup();
    }
  }
});

Deno.test("restore shows a span's placing time, marked as its session's or its file's", async () => {
  for (const undated of [false, true]) {
    const w = await world(undated);
    try {
      // A Claude session dated by its other records (2026-06-01), whose edit record has no time.
      const id = "bbbb0002-0000-4000-8000-000000000002";
      const lines = claudeLines({
        id,
        cwd: WD,
        start: "2026-06-01T10:00:00Z",
        turns: [{ user: "fix a.py again" }, {
          edit: `${WD}/a.py`,
          old: "SESSION-OLD\n",
          new: "z\n",
        }],
      }).map((l) => {
        const r = JSON.parse(l);
        if (JSON.stringify(r).includes('"tool_use"')) delete r.timestamp;
        return JSON.stringify(r);
      });
      writeFileSync(join(w.claudeRoot, `${id}.jsonl`), lines.join("\n") + "\n");
      w.store.close();
      await runIndex(w.env, parsers, { only: ["claude"] });
      w.store = Store.open(indexPath(w.env));
      const r = listSpans(w.store, `${WD}/a.py`, { cwd: "/" });
      const iso = (t: number | null) => t === null ? null : new Date(t).toISOString().slice(0, 16);
      const kimi = KIMI_SPANS.map((k) => [k, "2026-11-29T12:00", "file"]);
      const claude = [
        ["SESSION-OLD", "2026-06-01T10:02", "session"],
        ["CLAUDE-OLD", "2026-01-13T10:02", "event"],
      ];
      // By time, the Kimi files' (their own) newest; an undated session's after the dated ones.
      assertEquals(
        r.spans.map((s) => [s.text.trim(), iso(s.time), s.timeSource]),
        undated ? [...claude, ...kimi] : [...kimi, ...claude],
      );
      const args = parseRestore({ values: {}, positionals: [`${WD}/a.py`] });
      const io = { env: w.env, cwd: "/", isTTY: false };
      const d = restoreData(w.store, args, io);
      const text = restoreText(d, `${WD}/a.py`, io);
      const [kimiN, sessionN, eventN] = undated ? [3, 1, 2] : [1, 5, 6];
      assertStringIncludes(text, `  ${kimiN}  ~2026-11-29 12:00  edit`);
      assertStringIncludes(text, "(file time)");
      assertStringIncludes(text, `  ${sessionN}  ~2026-06-01 10:02  edit`);
      assertStringIncludes(text, `  ${eventN}   2026-01-13 10:02  edit`);
      assert(!/^\s+\d+ {2}- {2}/m.test(text), text);
      const doc = restoreJson(d) as { spans: Array<Record<string, unknown>> };
      const sources = doc.spans.map((s) => [s.time_source, s.time_from_file]);
      assertEquals(sources[kimiN - 1], ["file", true]);
      assertEquals(sources[sessionN - 1], ["session", false]);
      assertEquals(sources[eventN - 1], ["event", false]);
      assertEquals(doc.spans[sessionN - 1].time, "2026-06-01T10:02:00.000Z");
    } finally {
      w.cleanup();
    }
  }
});
