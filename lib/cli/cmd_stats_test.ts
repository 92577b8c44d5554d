import { assert, assertEquals, assertStringIncludes, assertThrows } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { DejaError } from "../../core/errors.ts";
import { csi } from "./output.ts";
import { parseStats, statsCmd, statsData } from "./cmd_stats.ts";

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
