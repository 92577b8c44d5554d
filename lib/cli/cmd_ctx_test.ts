import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { csi } from "./output.ts";
import { ctxCmd, ctxData, parseCtx } from "./cmd_ctx.ts";
import { AmbiguousSession, NoSessionMatch } from "../sessions.ts";
import { idShaped } from "../memory/pick.ts";

const ID = "c7c70000-1111-4222-8333-444455556666";

function fixture() {
  return indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "fix the flaky websocket reconnect" },
      { bash: "npm test", out: "ok" },
      { say: "The reconnect waits for the close event now." },
    ],
  }]);
}

Deno.test("ctx parses its query and budget, and refuses an empty query", () => {
  const a = parseCtx({ values: { budget: "900" }, positionals: ["websocket", "reconnect"] });
  assertEquals([a.query, a.budget, a.json], ["websocket reconnect", 900, false]);
  assertThrows(() => parseCtx({ values: {}, positionals: [" "] }), DejaError);
});

Deno.test("ctx's run picks a session by search or by id and digests it", async () => {
  const ix = await fixture();
  try {
    const io = captureIO(ix.env, false).io;
    const bySearch = ctxData(ix.store, parseCtx({ values: {}, positionals: ["websocket"] }), io);
    assert(bySearch.picked !== null);
    assertEquals([bySearch.picked.via, bySearch.picked.session.native_id], ["search", ID]);
    assertStringIncludes(bySearch.digest.markdown, "websocket");
    const byId = ctxData(ix.store, parseCtx({ values: {}, positionals: ["c7c7"] }), io);
    assertEquals(byId.picked?.via, "id");
    const none = ctxData(ix.store, parseCtx({ values: {}, positionals: ["zebra"] }), io);
    assertEquals(none.picked, null);
  } finally {
    ix.cleanup();
  }
});

Deno.test("ctx prints Markdown on a terminal and to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  try {
    const tty = captureIO(ix.env, true);
    assertEquals(await ctxCmd.run({ values: {}, positionals: ["websocket"] }, tty.io), 0);
    const pipe = captureIO(ix.env, false);
    assertEquals(await ctxCmd.run({ values: {}, positionals: ["websocket"] }, pipe.io), 0);
    assertEquals(tty.out(), pipe.out(), "the digest is Markdown, the same on a terminal");
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assertStringIncludes(pipe.out(), "fix the flaky websocket reconnect");

    const json = captureIO(ix.env, false);
    assertEquals(await ctxCmd.run({ values: { json: true }, positionals: ["c7c7"] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.via, doc.session.id, doc.budget], ["id", ID, 8192]);
    assert(ID.startsWith(doc.session.short_id));

    const miss = captureIO(ix.env, false);
    assertEquals(await ctxCmd.run({ values: {}, positionals: ["zebra"] }, miss.io), 1);
    assertStringIncludes(miss.err(), "nothing matched");
    const missJson = captureIO(ix.env, false);
    assertEquals(
      await ctxCmd.run({ values: { json: true }, positionals: ["zebra"] }, missJson.io),
      1,
    );
    assertEquals(JSON.parse(missJson.out()).session, null);
  } finally {
    ix.cleanup();
  }
});

// Regression (2026-12, trial 9): `deja ctx ffffffff` (no such session) digested a session
// holding the colour `#ffffff`, found by reading the id as a misspelling, and exited 0.
Deno.test("ctx refuses an id that matches no session, and finds one only as written", async () => {
  const ix = await indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "make the background #ffffff and revert commit 3f2a9c1d" },
      { say: "The background is white now and 3f2a9c1d is reverted." },
    ],
  }]);
  try {
    const io = captureIO(ix.env, false).io;
    const ask = (q: string) => ctxData(ix.store, parseCtx({ values: {}, positionals: [q] }), io);
    const e = assertThrows(() => ask("ffffffff"), NoSessionMatch) as NoSessionMatch;
    assertEquals(e.exitCode, 1);
    assertStringIncludes(e.hint ?? "", "no session holds it as written");
    const hash = ask("3f2a9c1d");
    assertEquals([hash.picked?.via, hash.picked?.session.native_id], ["search", ID]);
    assertEquals(ask("ffffff").picked?.via, "search", "the colour as written is found");
    assertEquals([idShaped("ffffffff"), idShaped("a1b2c3"), idShaped("claude:zz")], [
      true,
      true,
      true,
    ]);
    assertEquals([idShaped("facade"), idShaped("npm:lodash"), idShaped("deadbee")], [
      false,
      false,
      false,
    ]);
    const run = captureIO(ix.env, false);
    await assertRejects(() => ctxCmd.run({ values: {}, positionals: ["ffffffff"] }, run.io));
  } finally {
    ix.cleanup();
  }
});

// User trial (2026-12): `deja ctx 019d` matched 13 sessions' ids and digested a search hit
// for the four characters instead, without a word about the ids.
Deno.test("ctx lists the sessions a short id prefix matches and exits 2, never picking one", async () => {
  const spec = (id: string, user: string) => ({
    id,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user }, { say: "done" }],
  });
  const ix = await indexSessions([
    spec("019d0000-0000-4000-8000-000000000001", "fix the login redirect, see 019d"),
    spec("019d1111-0000-4000-8000-000000000002", "add a dark theme"),
  ]);
  try {
    const io = captureIO(ix.env, false).io;
    const ask = (q: string) => ctxData(ix.store, parseCtx({ values: {}, positionals: [q] }), io);
    const e = assertThrows(() => ask("019d"), AmbiguousSession) as AmbiguousSession;
    assertEquals(e.exitCode, 2);
    assertEquals(e.candidates.map((c) => c.ref).sort(), ["019d0000", "019d1111"]);
    assertStringIncludes(e.message, "add a dark theme");
    assertStringIncludes(e.message, "fix the login redirect");
    // A longer prefix still names one; words still search.
    assertEquals(ask("019d1").picked?.session.native_id, "019d1111-0000-4000-8000-000000000002");
    assertEquals(ask("redirect").picked?.via, "search");
  } finally {
    ix.cleanup();
  }
});

// User trial (2026-12): `--budget 100` silently became 256; the JSON said only 256.
Deno.test("ctx warns on stderr when --budget is below 256, and its JSON keeps the budget given", async () => {
  const ix = await fixture();
  try {
    const a = parseCtx({ values: { budget: "100" }, positionals: ["c7c7"] });
    assertEquals([a.budget, a.budgetGiven], [256, 100]);
    const small = captureIO(ix.env, false);
    const run = (io: typeof small.io, budget: string) =>
      ctxCmd.run({ values: { json: true, budget }, positionals: ["c7c7"] }, io);
    assertEquals(await run(small.io, "100"), 0);
    assertStringIncludes(small.err(), "--budget 100 is below 256 bytes");
    const doc = JSON.parse(small.out());
    assertEquals([doc.budget, doc.budget_given], [256, 100]);
    assert(doc.bytes <= 256, `${doc.bytes} bytes`);

    const fine = captureIO(ix.env, false);
    assertEquals(await run(fine.io, "256"), 0);
    assertEquals(fine.err(), "");
    assertEquals(JSON.parse(fine.out()).budget_given, 256);
  } finally {
    ix.cleanup();
  }
});

// Trial 57: `ctx redis --harness claude` digested the session of `redist` in a PATH dump, where
// search and MCP recall say the filter left nothing.
Deno.test("ctx under a filter digests no widened guess where the words as typed match outside it", async () => {
  const ix = await indexSessions([
    {
      id: "c7c70057-0000-4000-8000-000000000001",
      cwd: "/w/app",
      start: "2026-10-01T10:00:00Z",
      turns: [{ user: "add redis to the cluster" }, { say: "Added the redis chart." }],
    },
    {
      id: "c7c70057-0000-4000-8000-000000000002",
      cwd: "/w/other",
      start: "2026-10-02T10:00:00Z",
      turns: [{ user: "copy the redistributable runtime" }, { say: "Copied the redistributable." }],
    },
  ]);
  try {
    const pipe = captureIO(ix.env, false);
    const code = await ctxCmd.run(
      { values: { project: "/w/other" }, positionals: ["redis"] },
      pipe.io,
    );
    assertEquals(code, 1);
    assertEquals(pipe.out(), "");
    assertStringIncludes(
      pipe.err(),
      'deja: nothing matched "redis" in project /w/other; without --project: 1 session',
    );
  } finally {
    ix.cleanup();
  }
});
