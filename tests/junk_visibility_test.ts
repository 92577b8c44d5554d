/** Which throwaway sessions a search still shows: notes, the project one is in, a named project. */
import { assertEquals } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testEnv } from "./_fixture.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { search } from "../lib/search.ts";
import { hiddenSessions } from "../lib/search/sessions.ts";
import { parsers } from "../parsers/mod.ts";
import { tempDir } from "./_tmp.ts";

function setup() {
  const dir = tempDir("deja-vis-");
  const proj = join(dir, "projects", "-x");
  mkdirSync(proj, { recursive: true });
  const sid = "abababab-0000-4000-8000-000000000001";
  const rec = {
    type: "user",
    sessionId: sid,
    uuid: "u1",
    cwd: "/tmp/scratch-app",
    timestamp: "2026-11-01T10:00:00Z",
    message: { role: "user", content: "the quasarwidget keeps crashing" },
  };
  writeFileSync(join(proj, `${sid}.jsonl`), JSON.stringify(rec) + "\n");
  const env = testEnv(join(dir, "home"), {
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "projects"),
  });
  return { env };
}

/** Writes a one-prompt Claude session of project `cwd` beside setup()'s throwaway one. */
function addSession(env: ReturnType<typeof testEnv>, sid: string, cwd: string, content: string) {
  const rec = {
    type: "user",
    sessionId: sid,
    uuid: `u-${sid.slice(0, 4)}`,
    cwd,
    timestamp: "2026-11-02T10:00:00Z",
    message: { role: "user", content },
  };
  writeFileSync(
    join(env.get("DEJA_CLAUDE_ROOT")!, "-x", `${sid}.jsonl`),
    JSON.stringify(rec) + "\n",
  );
}

Deno.test("a throwaway project is hidden by default but shown when one works in it or names it", async () => {
  const { env } = setup();
  await runIndex(env, parsers.filter((p) => p.id === "claude"));
  const s = Store.open(indexPath(env));
  try {
    const base = { hideThrowaway: true, env };
    assertEquals(search(s, "quasarwidget", base).results.length, 0);
    assertEquals(
      search(s, "quasarwidget", { ...base, here: "/tmp/scratch-app/src" }).results.length,
      1,
    );
    assertEquals(search(s, "quasarwidget", { ...base, project: "scratch-app" }).results.length, 1);
    assertEquals(search(s, "quasarwidget", { env }).results.length, 1);
  } finally {
    s.close();
  }
});

Deno.test("notes are never hidden as throwaway, whatever their project", () => {
  const { env } = setup();
  const s = Store.open(indexPath(env), { create: true });
  try {
    s.db.prepare(
      "INSERT INTO sessions (harness, native_id, project, source) VALUES ('deja', 'n1', '/tmp/x', 'notes'), ('claude', 'c1', '/tmp/x', 'f')",
    ).run();
    const hidden = hiddenSessions(s, [], true, env);
    const ids = s.db.prepare("SELECT id, harness FROM sessions").all() as Array<
      { id: number; harness: string }
    >;
    assertEquals(ids.filter((r) => hidden.includes(r.id)).map((r) => r.harness), ["claude"]);
  } finally {
    s.close();
  }
});

Deno.test("a search whose exact hits are all hidden says how many, even when weaker hits show", async () => {
  const { env } = setup();
  const sid = "cdcdcdcd-0000-4000-8000-000000000002";
  addSession(env, sid, join(env.home, "work", "app"), "ship the quasarwidgetsuite release");
  await runIndex(env, parsers.filter((p) => p.id === "claude"));
  const s = Store.open(indexPath(env));
  try {
    const r = search(s, "quasarwidget", { hideThrowaway: true, env });
    assertEquals(r.results.map((x) => x.id), [sid]);
    assertEquals(r.tier === "exact", false);
    assertEquals(r.hidden, 1);
  } finally {
    s.close();
  }
});

Deno.test("a search counts the hidden sessions holding every word beside exact hits too", async () => {
  // Trial 65: `hello world` said `hidden: 0` and no hint while four throwaway sessions held it.
  const { env } = setup();
  const sid = "efefefef-0000-4000-8000-000000000003";
  addSession(env, sid, join(env.home, "work", "app"), "the quasarwidget keeps crashing here too");
  await runIndex(env, parsers.filter((p) => p.id === "claude"));
  const s = Store.open(indexPath(env));
  try {
    const r = search(s, "quasarwidget crashing", { hideThrowaway: true, env });
    assertEquals([r.tier, r.results.map((x) => x.id), r.hidden], ["exact", [sid], 1]);
    assertEquals(search(s, "quasarwidget crashing", { env }).hidden, 0);
  } finally {
    s.close();
  }
});

// Trial 85 F1: `ctx missing.txt`, held only by throwaway sessions, digested the nearest of the
// others by relevance (an unrelated session) and exited 0.
Deno.test("ctx by words held only in throwaway sessions digests none and says so", async () => {
  const { env } = setup();
  addSession(
    env,
    "cdcdcdcd-0000-4000-8000-000000000003",
    "/w/app",
    "the app keeps crashing on start",
  );
  await runIndex(env, parsers.filter((p) => p.id === "claude"));
  const { runMain } = await import("./_cli_io.ts");
  const r = await runMain(env, ["ctx", "quasarwidget", "keeps", "crashing"]);
  assertEquals(r.code, 1, r.out);
  assertEquals(r.out, "");
  assertEquals(r.err.includes("throwaway"), true, r.err);
  const junk = await runMain(env, ["ctx", "quasarwidget", "keeps", "crashing", "--junk"]);
  assertEquals([junk.code, junk.out.includes("abababab")], [0, true]);
});
