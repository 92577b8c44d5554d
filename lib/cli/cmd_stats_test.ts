import { assert, assertEquals, assertStringIncludes, assertThrows } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { DejaError } from "../../core/errors.ts";
import { csi } from "./output.ts";
import { parseStats, statsCmd, statsData } from "./cmd_stats.ts";
import { lastCmd } from "./cmd_last.ts";
import { isoTime } from "./common.ts";
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { tempDir } from "../../tests/_tmp.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import type { Env } from "../../core/model.ts";
import { indexPath, Store } from "../store.ts";

function fixture() {
  return indexSessions([
    {
      id: "57a70000-1111-4222-8333-444455556666",
      cwd: "/w/app",
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "count me" }, { bash: "ls", out: "a b" }],
    },
  ]);
}

Deno.test("stats parses --json", () => {
  assertEquals(parseStats({ values: { json: true }, positionals: [] }), { json: true });
});

Deno.test("stats' run counts sessions per harness and projects", async () => {
  const ix = await fixture();
  try {
    const st = statsData(ix.env);
    assertEquals(st.sessions, 1);
    assertEquals(st.harnesses.map((h) => [h.harness, h.sessions]), [["claude", 1]]);
    assertEquals(st.projects.map((p) => p.project), ["/w/app"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("stats without an index is an error", () => {
  assertThrows(
    () => statsData(testEnv("/nonexistent-home", { DEJA_HOME: "/nonexistent-deja" })),
    DejaError,
  );
});

Deno.test("stats prints colour on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  try {
    const tty = captureIO(ix.env, true);
    assertEquals(await statsCmd.run({ values: {}, positionals: [] }, tty.io), 0);
    assertStringIncludes(tty.out(), csi("1m") + "totals");

    const pipe = captureIO(ix.env, false);
    assertEquals(await statsCmd.run({ values: {}, positionals: [] }, pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assertStringIncludes(pipe.out(), "totals     1 session,");
    // The per-harness line says one session in the singular too (a user trial: "1 sessions").
    assert(!/\b1 sessions\b/.test(pipe.out()), pipe.out());
    assert(/claude +1 session /.test(pipe.out()), pipe.out());
    assertStringIncludes(pipe.out(), "redacted   nothing");

    const json = captureIO(ix.env, false);
    assertEquals(await statsCmd.run({ values: { json: true }, positionals: [] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(doc.sessions, 1);
    assert("exclude_patterns" in doc && !("excludePatterns" in doc));
    assert(/^\d{4}-\d\d-\d\dT/.test(doc.harnesses[0].first));
  } finally {
    ix.cleanup();
  }
});

Deno.test("stats says how many projects past the ten it lists when there are more", async () => {
  // Twelve projects: /w/p00 has three sessions, /w/p01 two, the rest one each.
  const specs = [];
  for (let p = 0; p < 12; p++) {
    for (let n = 0; n < (p === 0 ? 3 : p === 1 ? 2 : 1); n++) {
      specs.push({
        id: `57a7${String(p).padStart(2, "0")}${n}0-1111-4222-8333-444455556666`,
        cwd: `/w/p${String(p).padStart(2, "0")}`,
        start: "2026-11-01T10:00:00Z",
        turns: [{ user: `project ${p} session ${n}` }],
      });
    }
  }
  const ix = await indexSessions(specs);
  try {
    const st = statsData(ix.env);
    assertEquals(st.projects.length, 10);
    assertEquals(st.projects.slice(0, 2).map((p) => [p.project, p.sessions]), [
      ["/w/p00", 3],
      ["/w/p01", 2],
    ]);
    assertEquals(st.moreProjects, { projects: 2, sessions: 2 });

    const pipe = captureIO(ix.env, false);
    assertEquals(await statsCmd.run({ values: {}, positionals: [] }, pipe.io), 0);
    assertStringIncludes(pipe.out(), "  … 2 more projects (2 sessions)\n");

    const json = captureIO(ix.env, false);
    assertEquals(await statsCmd.run({ values: { json: true }, positionals: [] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(doc.more_projects, { projects: 2, sessions: 2 });
    assert(!("moreProjects" in doc));
  } finally {
    ix.cleanup();
  }
});

Deno.test("stats prints no more-projects line when every project fits in the ten", async () => {
  const ix = await fixture();
  try {
    assertEquals(statsData(ix.env).moreProjects, { projects: 0, sessions: 0 });
    const pipe = captureIO(ix.env, false);
    await statsCmd.run({ values: {}, positionals: [] }, pipe.io);
    assert(!pipe.out().includes("more project"), pipe.out());
  } finally {
    ix.cleanup();
  }
});

async function jsonOf(env: Env) {
  const json = captureIO(env, false);
  assertEquals(await statsCmd.run({ values: { json: true }, positionals: [] }, json.io), 0);
  return json;
}

/**
 * Kimi sessions in one work dir: one dated by its wire.jsonl (2026-03-04), two with only a
 * context.jsonl (no times), their files touched "today" as a copied store would be.
 */
async function kimiWorld(root: string, dated: boolean, history = false) {
  const kimi = join(root, "kimi");
  const hash = createHash("md5").update("/w/k").digest("hex");
  const session = (id: string) => {
    const dir = join(kimi, "sessions", hash, id);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  mkdirSync(kimi, { recursive: true });
  writeFileSync(
    join(kimi, "kimi.json"),
    JSON.stringify({ work_dirs: [{ path: "/w/k", kaos: "local", last_session_id: null }] }),
  );
  if (dated) {
    const at = Date.parse("2026-03-04T02:00:00Z") / 1000;
    writeFileSync(
      join(session("11111111-0000-4000-8000-000000000001"), "wire.jsonl"),
      [
        { type: "metadata", protocol_version: "1.3" },
        { timestamp: at, message: { type: "TurnBegin", payload: { user_input: "dated ask" } } },
        {
          timestamp: at + 60,
          message: { type: "ContentPart", payload: { type: "text", text: "dated reply" } },
        },
        { timestamp: at + 61, message: { type: "TurnEnd", payload: {} } },
      ].map((r) => JSON.stringify(r) + "\n").join(""),
    );
  }
  const copied = new Date("2026-12-02T16:00:00Z");
  for (
    const id of ["22222222-0000-4000-8000-000000000002", "33333333-0000-4000-8000-000000000003"]
  ) {
    const f = join(session(id), "context.jsonl");
    writeFileSync(
      f,
      [{ role: "user", content: "undated ask" }, { role: "assistant", content: "undated reply" }]
        .map((r) => JSON.stringify(r) + "\n").join(""),
    );
    utimesSync(f, copied, copied);
  }
  if (history) {
    // A prompt history: a prompt no context holds becomes the undated `prompt-history-<md5>`.
    mkdirSync(join(kimi, "user-history"), { recursive: true });
    const f = join(kimi, "user-history", `${hash}.jsonl`);
    writeFileSync(f, JSON.stringify({ content: "a prompt from the history" }) + "\n");
    utimesSync(f, copied, copied);
  }
  const env = testEnv(join(root, "home"), {
    DEJA_HOME: join(root, "deja"),
    DEJA_KIMI_ROOT: kimi,
    TZ: "UTC",
  });
  await runIndex(env, parsers, { only: ["kimi"] });
  return env;
}

Deno.test("stats' date range leaves out sessions dated only by their file's time, and says so", async () => {
  const root = tempDir("deja-stats-filetime-");
  try {
    const env = await kimiWorld(join(root, "a"), true);
    const [h] = statsData(env).harnesses;
    assertEquals(
      [h.harness, h.sessions, isoTime(h.first), isoTime(h.last), h.timeFromFile, h.fileDated],
      ["kimi", 3, "2026-03-04T02:00:00.000Z", "2026-03-04T02:01:01.000Z", false, 2],
    );
    const pipe = captureIO(env, false);
    assertEquals(await statsCmd.run({ values: {}, positionals: [] }, pipe.io), 0);
    assertStringIncludes(
      pipe.out(),
      "3 sessions        6 events  2026-03-04 02:00 .. 2026-03-04 02:01  (2 of them dated only by file time, outside this range)",
    );
    const json = captureIO(env, false);
    assertEquals(await statsCmd.run({ values: { json: true }, positionals: [] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(doc.harnesses[0].last, "2026-03-04T02:01:01.000Z");
    assertEquals([doc.harnesses[0].time_from_file, doc.harnesses[0].file_dated], [false, 2]);

    // No dated session at all: the file times are the range, marked as such.
    const only = await kimiWorld(join(root, "b"), false);
    const [o] = statsData(only).harnesses;
    assertEquals(
      [o.sessions, isoTime(o.first), isoTime(o.last), o.timeFromFile, o.fileDated],
      [2, "2026-12-02T16:00:00.000Z", "2026-12-02T16:00:00.000Z", true, 2],
    );
    const text = captureIO(only, false);
    assertEquals(await statsCmd.run({ values: {}, positionals: [] }, text.io), 0);
    assertStringIncludes(text.out(), "2026-12-02 16:00 .. 2026-12-02 16:00 (file time)");

    // A prompt history among them: counted among the file-dated, and said to be undated
    // (user trial 2026-12: `6 sessions … + 4 dated only by file time` left open whether the
    // 4 were among the 6, and which of them had no date of their own).
    const both = await kimiWorld(join(root, "c"), true, true);
    const [b] = statsData(both).harnesses;
    assertEquals([b.sessions, b.fileDated, b.undated], [4, 3, 1]);
    const line = captureIO(both, false);
    assertEquals(await statsCmd.run({ values: {}, positionals: [] }, line.io), 0);
    assertStringIncludes(
      line.out(),
      "(3 of them dated only by file time, outside this range; 1 of those a prompt history, undated)",
    );
    const doc2 = JSON.parse((await jsonOf(both)).out());
    assertEquals([doc2.harnesses[0].file_dated, doc2.harnesses[0].undated], [3, 1]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("stats counts the subagents listed on their own, and last marks them", async () => {
  const parent = "5ab50000-1111-4222-8333-444455556666";
  const gone = "5ab60000-1111-4222-8333-444455556666";
  const ix = await indexSessions([
    {
      id: parent,
      cwd: "/w/app",
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "split the work" }, { say: "handing it to a subagent" }],
    },
    {
      id: parent,
      agent: "a1a1a1a1a1a1a1a1",
      cwd: "/w/app",
      start: "2026-11-01T10:02:00Z",
      turns: [{ user: "read the routes" }, { say: "read" }],
    },
    // Its parent's file is not in the store (trial 37: three such in a real store).
    {
      id: gone,
      agent: "b2b2b2b2b2b2b2b2",
      cwd: "/w/app",
      start: "2026-11-01T11:00:00Z",
      turns: [{ user: "check the tests" }, { say: "checked" }],
    },
  ]);
  try {
    const st = statsData(ix.env);
    assertEquals([st.sessions, st.subagents, st.subagentsAlone], [3, 1, 1]);
    const pipe = captureIO(ix.env, false);
    assertEquals(await statsCmd.run({ values: {}, positionals: [] }, pipe.io), 0);
    assertStringIncludes(
      pipe.out(),
      "1 of the sessions is a subagent, filed under its parent session; " +
        "1 more is a subagent listed on its own, the parent not in the index\n",
    );
    const json = captureIO(ix.env, false);
    assertEquals(await statsCmd.run({ values: { json: true }, positionals: [] }, json.io), 0);
    assertEquals(JSON.parse(json.out()).subagents_alone, 1);
    const last = captureIO(ix.env, false);
    assertEquals(await lastCmd.run({ values: {}, positionals: [] }, last.io), 0);
    const lines = last.out().split("\n").filter((l) => /^\S/.test(l));
    assertEquals(lines.length, 2, last.out());
    // Said as search and show say it (trial 139 L1).
    assertStringIncludes(lines[0], `  subagent of ${gone} (not indexed)`);
    assert(!lines[1].includes("subagent"), lines[1]);
    const lastJ = captureIO(ix.env, false);
    assertEquals(await lastCmd.run({ values: { json: true }, positionals: [] }, lastJ.io), 0);
    assertEquals(JSON.parse(lastJ.out()).sessions.map((s: { parent: string | null }) => s.parent), [
      gone,
      null,
    ]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("stats splits the sessions by machine and counts those with no project", async () => {
  const ix = await indexSessions([1, 2, 3].map((i) => ({
    id: `57a7000${i}-1111-4222-8333-444455556666`,
    cwd: `/w/app${i}`,
    start: `2026-11-0${i}T10:00:00Z`,
    turns: [{ user: `session ${i}` }, { say: "ok" }],
  })));
  try {
    // As `deja remote sync` leaves them: one session of box1, one read without a project.
    const store = Store.open(indexPath(ix.env));
    try {
      store.db.exec("UPDATE sessions SET origin = 'box1' WHERE native_id LIKE '57a70001%'");
      store.db.exec("UPDATE sessions SET project = NULL WHERE native_id LIKE '57a70002%'");
    } finally {
      store.close();
    }
    const pipe = captureIO(ix.env, false);
    assertEquals(await statsCmd.run({ values: {}, positionals: [] }, pipe.io), 0);
    // trial 101 F4: "claude 3 sessions" with one of them box1's, unsaid.
    assertStringIncludes(pipe.out(), "2 from this machine, 1 from box1 (remote)");
    assertStringIncludes(pipe.out(), "(1 of them from remotes)");
    // trial 101 F5: the project-less session was in no line of the projects list.
    assertStringIncludes(pipe.out(), "1  (no project)");
    const json = captureIO(ix.env, false);
    await statsCmd.run({ values: { json: true }, positionals: [] }, json.io);
    const doc = JSON.parse(json.out());
    assertEquals(doc.no_project, 1);
    assertEquals(
      doc.machines.map((m: { origin: string | null; sessions: number }) => [m.origin, m.sessions]),
      [[null, 2], ["box1", 1]],
    );
    assertEquals(doc.machines[1].harnesses, [{ harness: "claude", sessions: 1, events: 2 }]);
  } finally {
    ix.cleanup();
  }
});
