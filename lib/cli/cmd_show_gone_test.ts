/**
 * What `deja show` says about what the index no longer has in full (new user,
 * 2026-12): a session whose store file was deleted since pointed at the
 * missing file with no note, and a 40 MB tool output the index had capped
 * ended with "… (15815 more characters; --full)", far short of the cut.
 */
import { assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { rmSync } from "node:fs";
import { cap } from "../../core/text.ts";
import { clip, showCmd } from "./cmd_show.ts";

const ID = "5e55b000-1111-4222-8333-444455556666";

Deno.test("show says the store file is gone (text and --json) when it was deleted since indexing", async () => {
  const ix = await indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "make the tests pass" }],
  }]);
  try {
    const show = async (json: boolean) => {
      const c = captureIO(ix.env, false);
      assertEquals(await showCmd.run({ values: { json }, positionals: ["5e55b"] }, c.io), 0);
      return c.out();
    };
    assertEquals(JSON.parse(await show(true)).source_exists, true);
    assertEquals((await show(false)).includes("gone since"), false);
    rmSync(JSON.parse(await show(true)).source);
    const doc = JSON.parse(await show(true));
    assertEquals([doc.source_exists, doc.events.length > 0], [false, true]);
    assertStringIncludes(await show(false), "(gone since; kept in the index)");
  } finally {
    ix.cleanup();
  }
});

Deno.test("show's shortened text counts the characters the index cut when the text says so", () => {
  const huge = "x".repeat(2_000_000);
  const kept = cap(huge, 16_000); // how the index keeps a long tool output
  const note = clip(kept, "tool_result").split("\n").at(-1);
  const marker = kept.length - 16_000;
  const shown = kept.length - 600 - marker;
  assertEquals(
    note,
    `… (${2_000_000 - 600} more characters; --full shows the ${shown} the index kept)`,
  );
  assertEquals(
    clip("y".repeat(700), "tool_result").split("\n").at(-1),
    "… (100 more characters; --full)",
  );
});
