/**
 * Titles are searchable (issue 15): a session's title (Claude Code's
 * `custom-title`, a harness summary) lives in the sessions table, not in the
 * full-text index, and a person who remembers a session by its name searches
 * for it — as a quoted phrase or as its words. Through the CLI in-process, on a
 * Claude Code store.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "./_cli_io.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { search } from "../lib/search.ts";
import { memIndex } from "./_search_fixture.ts";

/** deja's `main` in process over `vars` (the shared capture of tests/_cli_io.ts). */
const run = (args: string[], vars: Record<string, string>) =>
  runMain(testEnv(vars.HOME, vars), args);

const TITLED = "cccccccc-3333-4333-8333-333333333333";
const OTHER = "dddddddd-4444-4444-8444-444444444444";

/** A titled session whose events never say its title, and one that names the words apart. */
function store(): Record<string, string> {
  const dir = tempDir("deja-title-");
  const proj = join(dir, "claude", "-w-web");
  mkdirSync(proj, { recursive: true });
  const line = (sid: string, i: number, role: "user" | "assistant", text: string) =>
    JSON.stringify({
      type: role,
      sessionId: sid,
      cwd: "/w/web",
      timestamp: `2026-11-01T10:0${i}:00Z`,
      uuid: `${sid}-${i}`,
      message: role === "user"
        ? { role: "user", content: text }
        : { id: `m${i}`, role: "assistant", content: [{ type: "text", text }] },
    });
  writeFileSync(
    join(proj, `${TITLED}.jsonl`),
    [
      JSON.stringify({
        type: "custom-title",
        customTitle: "Fix login redirect loop",
        sessionId: TITLED,
      }),
      line(TITLED, 1, "user", "after sign-in the browser bounces between two pages forever"),
      line(
        TITLED,
        2,
        "assistant",
        "The callback URL pointed back at the guard; it now keeps the target.",
      ),
    ].join("\n") + "\n",
  );
  writeFileSync(
    join(proj, `${OTHER}.jsonl`),
    [
      line(OTHER, 1, "user", "fix the event loop lag in the worker"),
      line(OTHER, 2, "assistant", "login is unaffected; the redirect stays as it was"),
    ].join("\n") + "\n",
  );
  return {
    HOME: join(dir, "home"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "claude"),
    DEJA_NO_REFRESH: "1",
  };
}

Deno.test("search finds a session by a quoted phrase of its title, which no event holds", async () => {
  const vars = store();
  assertEquals((await run(["index", "--quiet"], vars)).code, 0);
  const r = await run(["search", "--json", '"Fix login redirect loop"'], vars);
  assertEquals(r.code, 0, r.err);
  const doc = JSON.parse(r.out);
  assertEquals(doc.tier, "exact");
  assertEquals(doc.nothing_matched, false);
  assertEquals(doc.results.map((x: { id: string }) => x.id), [TITLED]);
  const text = await run(["search", '"Fix login redirect loop"'], vars);
  assertEquals(text.code, 0);
  assertStringIncludes(text.out, "  title\n  Fix login redirect loop");
  // A phrase the title holds only in another order is no match.
  assertEquals((await run(["search", '"redirect login loop"'], vars)).code, 1);
});

Deno.test("search ranks first the session whose title holds every word typed", async () => {
  const vars = store();
  await run(["index", "--quiet"], vars);
  const r = await run(["search", "fix", "login", "redirect", "loop"], vars);
  assertEquals(r.code, 0, r.err + r.out);
  const text = r.out;
  assertStringIncludes(text, TITLED.slice(0, 8));
  assertEquals(text.indexOf(TITLED.slice(0, 8)) < text.indexOf(OTHER.slice(0, 8)), true, text);
});

Deno.test("a title match keeps the search's filters (project, harness, event kinds) and folds case and accents", async () => {
  const ix = await memIndex([
    { id: "titled", project: "/w/app", title: "Rotate signing keys", events: [["user", "go"]] },
    { id: "accented", title: "Crash in the Café menü", events: [["user", "go"]] },
  ]);
  const s = ix.open();
  try {
    const ids = (o = {}) => search(s, "rotate signing keys", o).results.map((r) => r.id);
    assertEquals(ids(), ["titled"]);
    assertEquals(ids({ project: "/w/other" }), []);
    assertEquals(ids({ harness: ["codex"] }), []);
    assertEquals(ids({ kinds: ["assistant"] }), []);
    // Folded as the index folds words: case and Latin diacritics.
    assertEquals(search(s, "cafe MENU crash").results.map((r) => r.id), ["accented"]);
  } finally {
    s.close();
    ix.cleanup();
  }
});
