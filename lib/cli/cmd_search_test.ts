import { assert, assertEquals, assertStringIncludes, assertThrows } from "../../tests/_assert.ts";
import { claudeLines, indexSessions } from "../../tests/_memory.ts";
import { captureIO, runMain, withVars } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { csi } from "./output.ts";
import { parseSearch, searchCmd, searchData } from "./cmd_search.ts";
import { searchFound } from "./search_out.ts";

const APP = "5ea00000-1111-4222-8333-444455556666";
const LIB = "5eab0000-1111-4222-8333-444455556666";

function fixture() {
  return indexSessions([
    {
      id: APP,
      cwd: "/w/app",
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "fix the flaky websocket reconnect" }, { say: "Reconnect backoff added." }],
    },
    {
      id: LIB,
      cwd: "/w/lib",
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "tune the parser benchmarks" }, { say: "Benchmarks tuned." }],
    },
  ]);
}

const args = (positionals: string[], values: Record<string, unknown> = {}) => ({
  values: values as Record<string, string | boolean | string[]>,
  positionals,
});

Deno.test("search parses its query and filters, and refuses no query, a bad --since or role with exit 2", () => {
  const d = parseSearch(args([" websocket", "reconnect "], { role: ["tool"], since: "30d" }));
  assertEquals([d.query, d.kinds, d.limit, d.regex, d.json], [
    "websocket reconnect",
    ["tool_call", "tool_result"],
    10,
    false,
    false,
  ]);
  assert(d.since !== undefined && d.since < Date.now());
  assertEquals(parseSearch(args(["a "], { re: true })).query, "a ", "a regex keeps its spaces");
  for (
    const bad of [
      args(["  "]),
      args(['""']),
      args(['" "', '""']),
      args(["x"], { since: "soon" }),
      args(["x"], { role: ["robot"] }),
      args(["x"], { harness: ["nope"] }),
    ]
  ) {
    const e = assertThrows(() => parseSearch(bad), DejaError);
    assertEquals((e as DejaError).exitCode, 2, e.message);
  }
});

Deno.test("search's run finds the session that holds the words, with its short reference", async () => {
  const ix = await fixture();
  try {
    const io = captureIO(ix.env, false).io;
    const d = await searchData(ix.store, parseSearch(args(["websocket", "reconnect"])), io);
    assertEquals(d.result.results.map((r) => r.id), [APP]);
    assert(APP.startsWith(d.refs.get(`claude:${APP}`)!));
    assertEquals([searchFound(d), d.embeddings, d.warning], [true, "off", undefined]);
    const inLib = await searchData(
      ix.store,
      parseSearch(args(["websocket"], { session: LIB.slice(0, 8) })),
      io,
    );
    assertEquals(inLib.result.results.length, 0, "--session keeps the search inside LIB");
  } finally {
    ix.cleanup();
  }
});

Deno.test("search prints colour on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  try {
    const tty = captureIO(ix.env, true);
    assertEquals(await searchCmd.run(args(["benchmarks"]), tty.io), 0);
    assertStringIncludes(tty.out(), csi("1m") + "claude");
    assert(!tty.out().includes("websocket"));

    const pipe = captureIO(ix.env, false);
    assertEquals(await searchCmd.run(args(["websocket"]), pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assertStringIncludes(pipe.out(), "  fix the flaky websocket reconnect\n");
    // Hints go to stderr, the results alone to stdout (trial 59: `| wc -l` counted them).
    assertStringIncludes(pipe.err(), "deja show <id> for a whole session\n");
    assert(!pipe.out().includes("deja show <id>"), pipe.out());

    const json = captureIO(ix.env, false);
    assertEquals(await searchCmd.run(args(["websocket"], { json: true }), json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.tier, doc.nothing_matched, doc.embeddings], ["exact", false, "off"]);
    assertEquals(doc.results.map((r: { id: string }) => r.id), [APP]);
    assert(APP.startsWith(doc.results[0].short_id));

    const none = captureIO(ix.env, false);
    assertEquals(await searchCmd.run(args(["zzqqxx"]), none.io), 1);
    assertStringIncludes(none.err(), "deja: nothing matched");
    assertEquals(none.out(), "");
  } finally {
    ix.cleanup();
  }
});

Deno.test("search through main reports a usage error with exit 2, and freshens the index first", async () => {
  const ix = await fixture();
  try {
    const quiet = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    const bad = await runMain(quiet, ["search", "x", "--role", "robot"]);
    assertEquals([bad.code, bad.out], [2, ""]);
    assertStringIncludes(bad.err, "deja: unknown role 'robot'\nhint: roles: user,");

    // A session written after the index was built is found: main.ts freshens before search runs.
    const NEW = "5eac0000-1111-4222-8333-444455556666";
    const dir = join(ix.root, "claude", "-w-new");
    mkdirSync(dir, { recursive: true });
    const spec = { id: NEW, cwd: "/w/new", start: "2026-11-03T10:00:00Z" };
    writeFileSync(
      join(dir, `${NEW}.jsonl`),
      claudeLines({ ...spec, turns: [{ user: "migrate the quokka tables" }] }).join("\n") + "\n",
    );
    assertEquals((await runMain(quiet, ["search", "quokka"])).code, 1, "no refresh: not found");
    const fresh = await runMain(ix.env, ["search", "quokka", "--json"]);
    assertEquals(fresh.code, 0, fresh.err);
    assertEquals(JSON.parse(fresh.out).results.map((r: { id: string }) => r.id), [NEW]);
  } finally {
    ix.cleanup();
  }
});

// Regression (2026-12, fresh-user trial): `deja kubernets` was narrated "word forms:
// kubernets → kubernetes" (their Porter stems agree by chance): a typo is a close spelling.
Deno.test("search names a spelling fix as a close spelling, a word form as a word form", async () => {
  const ix = await indexSessions([{
    id: "aaaa0000-1111-4222-8333-444455556666",
    cwd: "/w/k",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "set up the kubernetes cluster, the build fails" }, {
      say: "kubernetes is up",
    }],
  }]);
  try {
    for (
      const [q, tier, said] of [
        ["kubernets", "close", "close spellings: kubernets → kubernetes"],
        ["failing", "stemmed", "word forms: failing → fails"],
      ]
    ) {
      const text = captureIO(ix.env, false);
      assertEquals(await searchCmd.run({ values: {}, positionals: [q] }, text.io), 0);
      assertStringIncludes(text.err(), said);
      const json = captureIO(ix.env, false);
      await searchCmd.run({ values: { json: true }, positionals: [q] }, json.io);
      assertEquals(JSON.parse(json.out()).tier, tier, q);
    }
  } finally {
    ix.cleanup();
  }
});
