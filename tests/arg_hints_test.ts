/**
 * Hints a new user met with the compiled binary (2026-12, wave 22): a filter that
 * left nothing blamed on the words, over-long arguments blamed on the index, huge
 * word lists echoed back, search hints that could not be run as printed, and
 * `last <words>` / `show <words>` that never offered to search. Each failed before its fix.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./_assert.ts";
import { indexSessions } from "./_memory.ts";
import { runMain, withVars } from "./_cli_io.ts";

function fixture() {
  return indexSessions([{
    id: "40770000-1111-4222-8333-444455556666",
    cwd: "/w/k3s",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "roll out the deployment" },
      { bash: "kubectl rollout status deploy/app", out: "done", exit: 0 },
      { bash: "git status", out: "clean", exit: 0 },
    ],
  }]);
}

async function withIndex(
  f: (run: (args: string[]) => ReturnType<typeof runMain>) => Promise<void>,
) {
  const ix = await fixture();
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    await f((args) => runMain(env, args));
  } finally {
    ix.cleanup();
  }
}

Deno.test("how and last say the --project filter left nothing when it did", async () => {
  await withIndex(async (run) => {
    const how = await run(["how", "kubectl", "--project", "/nosuch"]);
    assertEquals(how.code, 1);
    assertStringIncludes(how.err, "in project /nosuch; without --project: 1 command");
    assert(!how.err.includes("deja search"), how.err);
    const last = await run(["last", "--project", "/nosuch"]);
    assertEquals(last.code, 1);
    assertStringIncludes(last.err, "without --project: 1 session");
    const fine = await run(["last", "--project", "/w/k3s/"]);
    assertEquals(fine.code, 0, fine.err);
  });
});

Deno.test("a 60,000-character argument gets a clear message, not a hint at a broken index", async () => {
  await withIndex(async (run) => {
    const long = "a".repeat(60_000);
    for (
      const args of [["show", long], ["ctx", long], ["blame", long], [
        "search",
        "x",
        "--project",
        long,
      ], [
        "how",
        "git",
        "--project",
        long,
      ]]
    ) {
      const r = await run(args);
      assert(r.code !== 0, args[0]);
      assert(!r.err.includes("doctor"), `${args[0]}: ${r.err.slice(0, 300)}`);
      assert(!r.err.includes("SQLite refused"), `${args[0]}: ${r.err.slice(0, 300)}`);
      assert(r.err.length < 1000, `${args[0]} printed ${r.err.length} characters`);
    }
    const p = await run(["last", "--project", long]);
    assertStringIncludes(p.err, "the --project value is longer than");
  });
});

Deno.test("how lists a few of many words, not all of them", async () => {
  await withIndex(async (run) => {
    const words = Array.from({ length: 1500 }, (_, i) => `x${i}`);
    const r = await run(["how", ...words]);
    assertEquals(r.code, 1);
    assert(r.err.length < 600, `printed ${r.err.length} characters`);
    assertStringIncludes(r.err, "'x0' and 'x1'");
    assertStringIncludes(r.err, "more");
  });
});

Deno.test("search hints are runnable as printed: no '…' inside, no command word added to plain words", async () => {
  await withIndex(async (run) => {
    const git = await run(["how", "nosuchtool"]);
    assertStringIncludes(git.err, "hint: to search these words: deja search nosuchtool\n");
    const q = await run(["how", "did", "I", "hide", "the", "spinner"]);
    assertStringIncludes(q.err, "deja search how did I hide the spinner");
    const fix = await run([
      "fix",
      "Error: developer is not one of [admin, owner, maintainer, reporter, guest] in func validateRole at line 12",
    ]);
    const hint = fix.err.split("\n").find((l) => l.includes("deja search")) ?? "";
    assert(!hint.includes("…"), hint);
    assert(!/deja search '?fix /.test(hint), hint);
  });
});

Deno.test("last and show with plain words offer to search them", async () => {
  await withIndex(async (run) => {
    for (
      const args of [["last", "fix"], ["show", "me"]]
    ) {
      const r = await run(args);
      assertStringIncludes(r.err, `to search these words: deja search ${args.join(" ")}`);
    }
    // A window's words are that window's sessions (trial 16), named as typed, with their days
    // (trial 103 F1); `week` alone is the past week.
    const week = await run(["last", "last", "week"]);
    assertMatch(
      week.err,
      /no session in the index matches last week \(Mon [\d-]+ to Sun [\d-]+\); without 'last week'/,
    );
    const past = await run(["last", "week"]);
    assertMatch(
      past.err,
      /no session in the index matches past week \(since \w{3} [\d-]+ [\d:]+\)/,
    );
    // Prose that does not fit is searched (tests/cli_words_test.ts).
    const prose = await run(["last", "fix", "for", "docker"]);
    assertStringIncludes(
      prose.err,
      "deja: searched the question instead: deja search fix for docker\n",
    );
  });
});

Deno.test("last -5 lists the newest 5, as head -5 would (it hinted 'deja last -- -5', which fails)", async () => {
  await withIndex(async (run) => {
    const dashed = await run(["last", "-5", "--json"]);
    assertEquals(dashed.code, 0, dashed.err);
    assertEquals(dashed.out, (await run(["last", "5", "--json"])).out);
    assertEquals(dashed.err, "");
    // After `--` it is text again, and refused as a count.
    const after = await run(["last", "--", "-5"]);
    assertEquals(after.code, 2);
    assertStringIncludes(after.err, "'deja last 20' lists the newest 20");
  });
});
