import { assert, assertEquals, assertRejects, assertStringIncludes } from "../../tests/_assert.ts";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { captureIO } from "../../tests/_cli_io.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { DejaError } from "../../core/errors.ts";
import { parsers } from "../../parsers/mod.ts";
import { csi } from "./output.ts";
import { demoWorld, parseDemo, runDemo } from "./cmd_demo.ts";
import { tempDir } from "../../tests/_tmp.ts";

/** A temp directory for the demo's own temp directory (and the test's HOME), removed after. */
function scratch() {
  const base = tempDir("deja-demo-test-");
  const env = testEnv(join(base, "home"), { DEJA_HOME: join(base, "user-deja") });
  return { base, env, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

Deno.test("demo parses its query (default 'failing tests'), --keep and --json, and shows throwaway projects", () => {
  const d = parseDemo({ values: { limit: "1", keep: true }, positionals: [] });
  assertEquals(d, {
    query: ["failing", "tests"],
    search: { junk: true, limit: "1" },
    json: false,
    keep: true,
  });
  assertEquals(parseDemo({ values: { json: true }, positionals: ["x"] }).search, {
    junk: true,
    json: true,
  });
});

Deno.test("demo's world points every harness root at the laid-out sample stores", () => {
  const s = scratch();
  try {
    const w = demoWorld(s.base, "1");
    assertEquals(w.env.get("DEJA_HOME"), join(w.root, "deja"));
    assertEquals(w.env.get("NO_COLOR"), "1");
    assert(existsSync(join(w.root, "stores", "claude")));
  } finally {
    s.cleanup();
  }
});

Deno.test("demo indexes, searches and cleans up: colour on a terminal, plain to a pipe, JSON with --json", async () => {
  const s = scratch();
  try {
    const tty = captureIO(s.env, true);
    const one = { values: { limit: "1" }, positionals: ["test"] };
    assertEquals(await runDemo(parseDemo(one), tty.io, s.base), 0);
    assert(tty.out().startsWith(`Sample stores of ${parsers.length} harnesses`), tty.out());
    assertStringIncludes(tty.out(), "\n$ deja test\n");
    // The samples' damage is one line, not one a store (trial 139 L5).
    assert(!tty.out().includes("damaged, could not read"), tty.out());
    assertStringIncludes(tty.out(), " of the sample stores hold damaged records on purpose");
    assertStringIncludes(tty.out(), csi("0m"));
    assert(tty.err().startsWith("deja demo: laying out"), tty.err());
    // The README says what goes where (trial 120 L8: it said only "progress on stderr", and
    // the index's table on stdout read as progress misplaced).
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    assertStringIncludes(readme, "what the index read, per harness, then the search and its");

    const pipe = captureIO(s.env, false);
    const json = { values: { limit: "1", json: true }, positionals: ["test"] };
    assertEquals(await runDemo(parseDemo(json), pipe.io, s.base), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assertEquals(JSON.parse(pipe.out()).results.length, 1);
    assertEquals(readdirSync(s.base), [], "the demo's directory is gone");
  } finally {
    s.cleanup();
  }
});

Deno.test("demo with a bad search option is an error and leaves nothing behind", async () => {
  const s = scratch();
  try {
    const bad = { values: { since: "someday" }, positionals: [] };
    await assertRejects(
      () => runDemo(parseDemo(bad), captureIO(s.env, false).io, s.base),
      DejaError,
    );
    assertEquals(readdirSync(s.base), []);
  } finally {
    s.cleanup();
  }
});

Deno.test("README's first example is the demo's output on the bundled sample stores (trial 120 M3)", async () => {
  // It showed a search of someone's own history, whose session a copy of those stores left out
  // as a throwaway project's: ten unrelated sessions instead.
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const block = readme.split("```console\n")[1].split("```")[0];
  const [command, ...rest] = block.split("\n");
  assertEquals(command, '$ deja demo "cat missing.txt" --limit 2');
  assertStringIncludes(block, `Sample stores of ${parsers.length} harnesses`);
  const results = rest.slice(rest.indexOf("$ deja cat missing.txt")).join("\n");
  const s = scratch();
  try {
    const pipe = captureIO(s.env, false);
    const args = { values: { limit: "2" }, positionals: ["cat missing.txt"] };
    assertEquals(await runDemo(parseDemo(args), pipe.io, s.base), 0);
    assertStringIncludes(pipe.out(), results);
  } finally {
    s.cleanup();
  }
});
