import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../tests/_assert.ts";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { DejaError } from "../../core/errors.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import { csi } from "./output.ts";
import { driftCmd, driftData, parseDrift } from "./cmd_drift.ts";

const ID = "d41f0000-1111-4222-8333-444455556666";

/** A Claude Code store with one record type deja does not know, indexed. */
async function fixture() {
  const ix = await indexSessions([
    { id: ID, cwd: "/w/app", start: "2026-11-01T10:00:00Z", turns: [{ user: "hello" }] },
  ]);
  ix.store.close();
  const file = join(ix.root, "claude", "-w-app", `${ID}.jsonl`);
  const odd = { type: "mystery-record", sessionId: ID, uuid: "m1", version: "2.1.91", x: 1 };
  appendFileSync(file, JSON.stringify(odd) + "\n");
  await runIndex(ix.env, parsers, { only: ["claude"] });
  return ix;
}

Deno.test("drift parses --harness and refuses an unknown one with exit 2", () => {
  assertEquals(parseDrift({ values: { harness: ["claude"] }, positionals: [] }), {
    harnesses: ["claude"],
    json: false,
  });
  assertEquals(parseDrift({ values: {}, positionals: [] }).harnesses, undefined);
  const e = assertThrows(() => parseDrift({ values: { harness: ["x"] }, positionals: [] }));
  assert(e instanceof DejaError && e.exitCode === 2);
});

Deno.test("drift's run groups what the stores hold that deja does not know, per harness", async () => {
  const ix = await fixture();
  try {
    const r = await driftData(ix.env, { json: false });
    assertEquals(r.harnesses.map((h) => [h.harness, h.versions]), [["claude", ["2.1.91"]]]);
    const ch = r.harnesses[0].changes[0];
    assertEquals([ch.kind, ch.detail, ch.count], ["content", "type mystery-record", 1]);
    assertStringIncludes(ch.sample ?? "", '"type":"mystery-record"');
    const none = await driftData(ix.env, { harnesses: ["codex"], json: false });
    assertEquals([none.harnesses, none.checked], [[], 0]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("drift prints colour on a terminal, plain Markdown to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  try {
    const tty = captureIO(ix.env, true);
    assertEquals(await driftCmd.run({ values: {}, positionals: [] }, tty.io), 0);
    assertStringIncludes(tty.out(), csi("1m") + "## claude 2.1.91 · ");

    const pipe = captureIO(ix.env, false);
    assertEquals(await driftCmd.run({ values: {}, positionals: [] }, pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assert(pipe.out().startsWith("1 change in 1 harness (1 indexed store); "), pipe.out());
    assertStringIncludes(pipe.out(), "- content: type mystery-record (seen 1 time in 1 store)\n");
    assertStringIncludes(pipe.out(), "  ```json\n  {");

    const only = captureIO(ix.env, false);
    const codex = { values: { harness: ["codex"] }, positionals: [] };
    assertEquals(await driftCmd.run(codex, only.io), 0);
    assertEquals(only.out(), "no drift seen for codex in 0 indexed stores\n");

    const json = captureIO(ix.env, false);
    assertEquals(await driftCmd.run({ values: { json: true }, positionals: [] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.checked, doc.unchecked, doc.harnesses[0].harness], [1, 0, "claude"]);
    assert(typeof doc.deja === "string" && doc.index.endsWith("index.db"));
  } finally {
    ix.cleanup();
  }
});

Deno.test("drift without an index is an error", async () => {
  const env = testEnv("/nonexistent-home", { DEJA_HOME: "/nonexistent-deja" });
  await assertRejects(
    () => driftCmd.run({ values: {}, positionals: [] }, captureIO(env, false).io),
    DejaError,
  );
});
