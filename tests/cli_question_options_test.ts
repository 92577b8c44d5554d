/**
 * Options a new user types with a question or a command that other commands take
 * (`--junk`, `--limit`, `--harness`, `--since`), through the CLI in-process.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { indexSessions, type SessionSpec } from "./_memory.ts";

const S: SessionSpec = {
  id: "c11c0001-1111-4111-8111-111111111111",
  cwd: "/w/web",
  start: "2026-11-01T10:00:00Z",
  turns: [
    { user: "the redis cache for the flask server needs a password" },
    { bash: "redis-cli config set requirepass x", out: "OK" },
    { say: "The redis cache of the flask server now asks for a password." },
  ],
};

/** A session of a throwaway project: left out unless `--junk`. */
const SCRATCH: SessionSpec = {
  id: "71710001-0000-4000-8000-000000000001",
  cwd: "/tmp/tmp.Qz81kPw3/app",
  start: "2026-11-12T10:00:00Z",
  turns: [
    { user: "Trying the redis sentinel for the flask server in a scratch checkout." },
    { bash: "python -c 'import redis; redis.Redis().ping()'", out: "Error: Connection refused" },
    { say: "The redis sentinel is not running here." },
  ],
};

// Regression (2026-12, fresh-user trial): `deja show me the redis I added --junk` stopped at
// "Unknown option '--junk'" with the hint `deja show -- --junk`: an option the command lacks
// kept the question from being searched, though search takes it.
Deno.test("a question begun by a command's name keeps the search options the command lacks", async () => {
  const ix = await indexSessions([S, SCRATCH]);
  try {
    const junk = await runMain(ix.env, ["show", "me", "the", "redis", "sentinel", "--junk"]);
    assertEquals(junk.code, 0, junk.err);
    assertStringIncludes(
      junk.err,
      "deja: searched the question instead: deja search --junk me the redis sentinel\n",
    );
    assertStringIncludes(junk.out, "71710001");
    for (
      const args of [
        ["show", "me", "the", "flask", "server", "--limit", "1"],
        ["show", "me", "the", "flask", "server", "--harness", "claude"],
        ["last", "time", "the", "redis", "cache", "needs", "a", "password", "--limit", "3"],
        ["how", "did", "I", "set", "the", "redis", "password", "--harness", "claude"],
        ["last", "redis", "cache", "needs", "a", "password", "--limit=2"],
      ]
    ) {
      const r = await runMain(ix.env, args);
      assertEquals(r.code, 0, `${args.join(" ")}: ${r.err}`);
      assertStringIncludes(r.err, "deja: searched the question instead: deja search ");
      assertStringIncludes(r.out, "c11c0001", args.join(" "));
    }
    // The options really reach the search: --limit 1 lists one session of the two.
    const one = await runMain(ix.env, ["show", "me", "the", "redis", "--junk", "--limit", "1"]);
    assertEquals((one.out.match(/^\S{8} {2}claude/gm) ?? []).length, 1, one.out);
    // An option neither takes is an error that says so, and searches nothing.
    const bogus = await runMain(ix.env, ["show", "me", "the", "flask", "server", "--bogus"]);
    assertEquals(bogus.code, 2);
    assertStringIncludes(bogus.err, "deja: unknown option '--bogus'");
    assertStringIncludes(bogus.err, "neither 'deja show' nor 'deja search' takes that option");
    assertEquals(bogus.err.includes("searched the question"), false, bogus.err);
    assertEquals(bogus.err.includes("deja show -- --bogus"), false, bogus.err);
    // The command's own syntax with an option it lacks is still its own error.
    const own = await runMain(ix.env, ["show", "c11c0001", "--junk"]);
    assertEquals(own.code, 2);
    assertStringIncludes(own.err, "unknown option '--junk'");
  } finally {
    ix.cleanup();
  }
});

// Regression (2026-12): `deja fix … --junk` was "Unknown option"; then fix looked in throwaway
// projects' sessions whatever it was told (a new-user trial found scratch checkouts' errors
// answered as fixes), so it now hides them as search does and --junk shows them.
// `deja last --since yesterday` was unknown though search took it.
Deno.test("fix hides throwaway sessions unless --junk; last filters by --since; forget names --before", async () => {
  const ix = await indexSessions([S, SCRATCH]);
  try {
    const error = ["fix", "Error: Connection refused"];
    const plain = await runMain(ix.env, error);
    assert(!plain.out.includes(SCRATCH.id.slice(0, 8)), plain.out);
    assertStringIncludes(plain.err, "hint: 1 session of throwaway or excluded projects left out");
    assertStringIncludes(plain.err, "--junk");
    const junk = await runMain(ix.env, [...error, "--junk"]);
    assertStringIncludes(junk.out, SCRATCH.id.slice(0, 8));
    assert(!junk.err.includes("left out"), junk.err);
    const json = await runMain(ix.env, [...error, "--json"]);
    assertEquals(JSON.parse(json.out).hidden, 1);
    const jsonJunk = await runMain(ix.env, [...error, "--json", "--junk"]);
    assertEquals(JSON.parse(jsonJunk.out).hidden, 0);
    const help = await runMain(ix.env, ["fix", "--help"]);
    assertStringIncludes(help.out, "--junk");

    const since = await runMain(ix.env, ["last", "--junk", "--since", "2026-11-10", "--json"]);
    assertEquals(since.code, 0, since.err);
    const ids = JSON.parse(since.out).sessions.map((s: { id: string }) => s.id);
    assertEquals(ids, [SCRATCH.id]);
    const none = await runMain(ix.env, ["last", "--since", "2026-12-01"]);
    assertEquals(none.code, 1);
    // As `deja last` counts them: the throwaway session is hidden (trial 24).
    assertStringIncludes(none.err, "since 2026-12-01; without --since: 1 session\n");
    const bad = await runMain(ix.env, ["last", "--since", "someday"]);
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.err, "--since takes 30d");
    // Trial 17b: `--since 3 months` named the unit as a count; `--since 2 weeks` gave no hint.
    const cut = await runMain(ix.env, ["last", "--since", "3", "months"]);
    assertEquals(cut.code, 2);
    assertStringIncludes(
      cut.err,
      "not '3'\nhint: write the number and its unit as one word: --since 3mo",
    );
    const words = await runMain(ix.env, ["--since", "2", "weeks", "fix"]);
    assertStringIncludes(words.err, "--since 2w");

    const forget = await runMain(ix.env, ["forget", "--since", "yesterday"]);
    assertEquals(forget.code, 2);
    assertStringIncludes(forget.err, "forget takes --before <date|30d>");
    const proto = await runMain(ix.env, ["forget", "--constructor"]);
    assert(!proto.err.includes("function"), proto.err);
  } finally {
    ix.cleanup();
  }
});
