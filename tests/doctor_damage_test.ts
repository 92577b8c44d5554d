/**
 * `deja doctor` shows the stores the index's last reads found damaged or could
 * not read, per harness, not only "index fresh" (a user trial: a Hermes
 * `state.db` that is not a database and Claude Code lines that are not JSON
 * showed only in `deja sources`).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runIndex } from "../lib/indexer.ts";
import { claude } from "../parsers/claude.ts";
import { hermes } from "../parsers/hermes.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { runMain } from "./_cli_io.ts";
import type { HarnessDamage } from "../lib/store_damage.ts";
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";

async function doctor(env: ReturnType<typeof testEnv>, json: boolean) {
  return (await runMain(env, json ? ["doctor", "--json"] : ["doctor"])).out;
}

/**
 * The test home under `root`: Claude Code stores in `projects`, and a Hermes
 * `state.db` of 8 KiB that is no database; `db` is its path.
 */
function withBrokenHermes(root: string, projects: string) {
  const hermesRoot = join(root, "hermes");
  mkdirSync(hermesRoot);
  const db = join(hermesRoot, "state.db");
  writeFileSync(db, "X".repeat(8192));
  const env = testEnv(root, {
    DEJA_CLAUDE_ROOT: projects,
    DEJA_HERMES_ROOT: hermesRoot,
    DEJA_HOME: join(root, "deja"),
    DEJA_NO_REFRESH: "1",
  });
  return { env, db };
}

/** The N of `deja: doctor found N problem(s)` on stderr, and the exit code. */
async function problemCount(env: ReturnType<typeof testEnv>) {
  const r = await runMain(env, ["doctor"]);
  return { n: Number(/doctor found (\d+) problem/.exec(r.err)?.[1] ?? 0), code: r.code };
}

Deno.test("doctor names per harness the stores that failed or lost records, in text and JSON", async () => {
  const root = tempDir("deja-doctor-damage-");
  try {
    const projects = join(root, "claude");
    mkdirSync(join(projects, "p"), { recursive: true });
    const line = (uuid: string, text: string) =>
      JSON.stringify({
        type: "user",
        uuid,
        sessionId: "s1",
        timestamp: "2026-01-01T00:00:00Z",
        cwd: "/p",
        message: { role: "user", content: text },
      });
    writeFileSync(
      join(projects, "p", "s1.jsonl"),
      [line("u1", "hello"), "{oops", line("u2", "again"), "bad"].join("\n") + "\n",
    );
    const { env, db } = withBrokenHermes(root, projects);
    await runIndex(env, [claude, hermes]);
    await runIndex(env, [claude, hermes]); // nothing changed: the last run reads nothing again

    const text = await doctor(env, false);
    assertStringIncludes(text, "claude: 1 store damaged: skipped 2 malformed_json");
    assertStringIncludes(text, `hermes: 1 store failed (${db}: `);
    assertStringIncludes(text, "run 'deja sources --verbose' for details");
    // Trial 9: "last indexed" read as the time of any read, refreshes included.
    assert(/last full run [^,]+, 2 stores, 0 changed since last read/.test(text), text);
    // Trial 74: "fresh … 0 changed" above "1 store failed": what changed in it may be missing.
    assertStringIncludes(text, ", 1 failed at its last read (read again by 'deja index')");
    assertStringIncludes(text, "stale");

    const doc = JSON.parse(await doctor(env, true));
    const by = Object.fromEntries(
      (doc.index.damaged as HarnessDamage[]).map((d) => [d.harness, d]),
    );
    const s1 = join(projects, "p", "s1.jsonl");
    assertEquals(by.claude, {
      harness: "claude",
      failed: 0,
      unreadable: 0,
      last_error: null,
      errors: [],
      damaged: 1,
      skipped: { malformed_json: 2 },
      damaged_stores: [
        `${s1}: damaged, could not read the line at byte ${
          readFileSync(s1, "utf8").indexOf("{oops")
        }, the line at byte ${readFileSync(s1, "utf8").indexOf("bad")} (2 malformed_json)`,
      ],
      kept: 0,
    });
    // The damaged store is named in text too, with what could not be read.
    assertStringIncludes(text, `    ${s1}: damaged, could not read the line at byte`);
    assertEquals(by.hermes.failed, 1);
    assertEquals([doc.index.failed, doc.index.fresh], [1, false]);
    assert(by.hermes.last_error?.startsWith(`${db}: `), String(by.hermes.last_error));

    // The summary counts what the report shows: the two harnesses' damaged stores (a user
    // trial: "found 1 problem" under a list of two, the damaged ones left out).
    assertEquals(doc.problems, ["claude 1 damaged store", "hermes 1 failed store"]);
    assertEquals(await problemCount(env), { n: 2, code: 1 });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("doctor's problem count counts the stores it lists, in text and JSON", async () => {
  const root = tempDir("deja-doctor-count-");
  try {
    const projects = join(root, "claude");
    mkdirSync(join(projects, "p"), { recursive: true });
    // Two damaged Claude stores and one failed Hermes store (a fresh-user trial: three damaged
    // stores listed under "doctor found 2 problem(s)", the count of harnesses).
    for (const s of ["s1", "s2"]) {
      const good = JSON.stringify({
        type: "user",
        uuid: `${s}-u1`,
        sessionId: s,
        timestamp: "2026-01-01T00:00:00Z",
        cwd: "/p",
        message: { role: "user", content: "hello" },
      });
      writeFileSync(join(projects, "p", `${s}.jsonl`), [good, "{oops"].join("\n") + "\n");
    }
    const { env } = withBrokenHermes(root, projects);
    await runIndex(env, [claude, hermes]);
    const r = await runMain(env, ["doctor"]);
    assertEquals(r.code, 1);
    assertStringIncludes(
      r.err,
      "deja: doctor found 3 problems: claude 2 damaged stores, hermes 1 failed store\n",
    );
    const doc = JSON.parse(await doctor(env, true));
    assertEquals(doc.problems, ["claude 2 damaged stores", "hermes 1 failed store"]);
    assertEquals(doc.problem_count, 3);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// Trial 67: a store deleted after it was indexed: doctor said "0 changed" and nothing of it,
// while `deja sources` showed "(1 gone, 1 session kept)".
Deno.test("doctor says how many indexed stores are gone, and keeps them out of the changed count", async () => {
  const root = tempDir("deja-doctor-gone-");
  try {
    const projects = join(root, "claude");
    mkdirSync(join(projects, "p"), { recursive: true });
    const file = (id: string) => join(projects, "p", `${id}.jsonl`);
    for (const id of ["s1", "s2"]) {
      writeFileSync(
        file(id),
        JSON.stringify({
          type: "user",
          uuid: `u-${id}`,
          sessionId: id,
          timestamp: "2026-01-01T00:00:00Z",
          cwd: "/p",
          message: { role: "user", content: `hello from ${id}` },
        }) + "\n",
      );
    }
    const env = testEnv(root, {
      DEJA_CLAUDE_ROOT: projects,
      DEJA_HOME: join(root, "deja"),
      DEJA_NO_REFRESH: "1",
    });
    await runIndex(env, [claude]);
    rmSync(file("s2"));
    const json = JSON.parse(await doctor(env, true));
    assertEquals([json.index.changed, json.index.gone], [0, 1]);
    assertStringIncludes(
      await doctor(env, false),
      "0 changed since last read, 1 gone (sessions kept; 'deja index --rebuild' drops them)",
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
