/**
 * `deja fix` where the fix is an edit (trial 106): the failing check run again in other words
 * (`python -m pytest` for `pytest`) is its re-run (F3); another command that passed after the
 * edit is no check of it, and the edit stays the lead (F4); the edit is said with enough of
 * its line to be understood (F6). Text and `--json` agree.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { indexSessions, type SessionSpec } from "./_memory.ts";
import { fixAnswer } from "../lib/mcp/answers.ts";
import { fixNote } from "../lib/hooks/point.ts";

const ERR = "E   AssertionError: assert quux_total(2) == 4";

const session = (id: string, day: string, after: string): SessionSpec => ({
  id,
  cwd: "/w/calc",
  start: `2026-09-${day}T10:00:00Z`,
  turns: [
    { user: "make the tests pass" },
    { bash: "pytest tests/test_x.py", out: `tests/test_x.py:3: in test_total\n${ERR}`, exit: 1 },
    {
      edit: "/w/calc/calc.py",
      old: "def quux_total(n):\n    y = 1\n",
      new: "def quux_total(n):\n    y = 2\n",
    },
    { bash: after, out: "1 passed in 0.01s", exit: 0 },
  ],
});

const json = (out: string) => JSON.parse(out) as { fixes: Array<Record<string, unknown>> };

Deno.test("fix: the failing check run again in other words is its re-run, the edit the fix (F3)", async () => {
  for (const again of ["python -m pytest tests/test_x.py", "uv run pytest tests/test_x.py"]) {
    const ix = await indexSessions([session("a7a70001-0000-4000-8000-000000000001", "01", again)]);
    try {
      const r = await runMain(ix.env, ["fix", ERR]);
      assertEquals(r.code, 0, r.err);
      assert(!r.out.includes("not checked"), r.out);
      assertStringIncludes(r.out, "edit /w/calc/calc.py: y = 1 → y = 2");
      assertStringIncludes(r.out, `then run again: ${again}`);
      const j = json((await runMain(ix.env, ["fix", "--json", ERR])).out).fixes[0];
      assertEquals([j.command, j.rerun, j.checked], ["edit /w/calc/calc.py", again, true]);
      assertEquals(j.edits, [{ path: "/w/calc/calc.py", op: "edit", old: "y = 1", new: "y = 2" }]);
    } finally {
      ix.cleanup();
    }
  }
});

Deno.test("fix: another command that passed after the edit leaves the edit the lead (F4)", async () => {
  const ix = await indexSessions([
    session("a7a70002-0000-4000-8000-000000000002", "02", "npm run lint"),
  ]);
  try {
    const r = await runMain(ix.env, ["fix", ERR]);
    assertEquals(r.code, 0, r.err);
    const lines = r.out.split("\n");
    // The edit leads; the other command is said as what ran next, confirming nothing.
    assertEquals(lines[2], "  edit /w/calc/calc.py: y = 1 → y = 2", r.out);
    assert(!lines.some((l) => l.trim() === "npm run lint"), r.out);
    assertStringIncludes(r.out, "npm run lint");
    assertStringIncludes(r.out, "not checked");
    assert(!r.out.includes("then run again"), r.out);
    assert(!r.out.includes("succeeded"), r.out);
    const j = json((await runMain(ix.env, ["fix", "--json", ERR])).out).fixes[0];
    assertEquals([j.command, j.action, j.rerun, j.ran_next, j.checked], [
      "edit /w/calc/calc.py",
      "edit",
      undefined,
      "npm run lint",
      false,
    ]);
    // The agent's answer and the failure hook say it the same way.
    const agent = fixAnswer(ix.store, ERR, {});
    assertStringIncludes(
      agent,
      "1. edit /w/calc/calc.py: y = 1 → y = 2; then ran npm run lint, another command, no re-run",
    );
    assert(!agent.includes("succeeded"), agent);
    const current = { rows: new Set<number>(), hidden: new Set<number>() };
    const note = fixNote(
      ix.store,
      `tests/test_x.py:3: in test_total\n${ERR}`,
      current,
      new Set(),
      2000,
    );
    assertStringIncludes(
      note?.text ?? "",
      "- edit calc.py (y = 1 → y = 2) (1 session; then ran `npm run lint`, no re-run",
    );
    assert(!note?.text.includes("then run `"), note?.text);
  } finally {
    ix.cleanup();
  }
});
