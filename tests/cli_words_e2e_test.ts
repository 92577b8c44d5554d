/**
 * The compiled binary on what a new user types that is not a command's normal use (the
 * in-process cases are tests/cli_words_test.ts): no stack trace, a hint that says what to type.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { join } from "node:path";
import { runBinary } from "./_binary.ts";
import { REPO } from "./_fixture.ts";
import { scopedTempDir } from "./_tmp.ts";

// Regression (2026-12, bun binary): 1000 distinct words and a 50,001-character word crashed
// the search with SQLite's "Expression tree is too large" / "LIKE or GLOB pattern too
// complex" and a stack trace (exit 2).
Deno.test("the binary cuts an oversized query and searches a question read as a command", () => {
  using dir = scopedTempDir("deja-words-e2e-");
  const env = {
    HOME: join(dir.path, "home"),
    DEJA_HOME: join(dir.path, "deja"),
    DEJA_NO_REFRESH: "1",
    DEJA_CLAUDE_ROOT: join(REPO, "fixtures/registry/claude/projects"),
  };
  assertEquals(runBinary(["index", "--harness", "claude", "--quiet"], env, dir.path).code, 0);
  const many = Array.from({ length: 1000 }, (_, i) => `w${i.toString(36)}q`).join(" ");
  for (const query of [many, "x".repeat(50_001)]) {
    const r = runBinary(["search", query], env, dir.path);
    assertEquals(r.code, 1, r.stderr.slice(0, 400));
    assert(!/^\s+at /m.test(r.stderr), `a stack trace:\n${r.stderr.slice(0, 400)}`);
    assertStringIncludes(r.stderr, "the query was cut: left out ");
  }
  // Its one word cut, nothing was searched (trial 54: it said "nothing matched").
  const one = runBinary(["search", "x".repeat(50_001)], env, dir.path);
  assertStringIncludes(
    one.stderr,
    "deja: nothing was searched: the query was cut: left out 1 word",
  );
  const show = runBinary(["show", "me", "the", "forgejo", "logs"], env, dir.path);
  assertEquals(show.code, 1, show.stderr);
  assertStringIncludes(
    show.stderr,
    "deja: searched the question instead: deja search me the forgejo logs\n",
  );
  const flask = runBinary(["show", "flask", "server"], env, dir.path);
  assertEquals(flask.code, 2);
  assertStringIncludes(flask.stderr, "to search these words: deja search flask server");
  const dash = runBinary(["-rf"], env, dir.path);
  assertStringIncludes(dash.stderr, "deja search -- -rf");
});
