import { assert, assertEquals, assertStringIncludes, assertThrows } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { csi } from "./output.ts";
import { ctxCmd, ctxData, parseCtx } from "./cmd_ctx.ts";

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
