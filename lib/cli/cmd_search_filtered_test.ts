/**
 * New user, 2026-12: `deja login --project nosuchproj`, `--since 30d` said only
 * `nothing matched "login"`; `--harness Claude` was an unknown harness; a
 * 400-word query was echoed back whole.
 */
import { assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { parseSearch, searchCmd } from "./cmd_search.ts";
import { harnessId } from "../../core/registry.ts";

const args = (positionals: string[], values: Record<string, unknown> = {}) => ({
  values: values as Record<string, string | boolean | string[]>,
  positionals,
});

function fixture() {
  return indexSessions([{
    id: "5ea00000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2020-11-01T10:00:00Z",
    turns: [{ user: "fix the flaky websocket reconnect" }, { say: "Reconnect backoff added." }],
  }]);
}

Deno.test("nothing matched under --project or --since says the filter left nothing, in text and --json", async () => {
  const ix = await fixture();
  try {
    const proj = captureIO(ix.env, false);
    assertEquals(await searchCmd.run(args(["websocket"], { project: "nosuchproj" }), proj.io), 1);
    assertStringIncludes(
      proj.err(),
      'nothing matched "websocket" in project nosuchproj; without --project: 1 session\nhint: ',
    );
    const since = captureIO(ix.env, false);
    assertEquals(
      await searchCmd.run(args(["websocket"], { since: "30d", json: true }), since.io),
      1,
    );
    const doc = JSON.parse(since.out());
    assertEquals(doc.filtered_out, {
      filters: [{ flag: "--since", value: "30d" }],
      sessions_without: 1,
    });
    const plain = captureIO(ix.env, false);
    await searchCmd.run(args(["zzqqxx"], { json: true }), plain.io);
    assertEquals(JSON.parse(plain.out()).filtered_out, null);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a long query is clipped in the nothing-matched message", async () => {
  const ix = await fixture();
  try {
    const words = Array.from({ length: 400 }, (_, i) => `zq${i}xv`);
    const io = captureIO(ix.env, false);
    assertEquals(await searchCmd.run(args(words), io.io), 1);
    const line = io.err().split("\n")[0];
    assertStringIncludes(line, '…"');
    assertEquals(line.length < 120, true, line);
  } finally {
    ix.cleanup();
  }
});

Deno.test("--harness takes an id in any case and the harness's names (claude-code)", () => {
  for (const typed of ["Claude", "CLAUDE", "claude-code", "Claude-Code", "claude,codex"]) {
    const f = parseSearch(args(["x"], { harness: [typed] })).filter;
    assertEquals(f.harness?.[0], "claude", typed);
  }
  assertEquals([harnessId("Gemini-CLI"), harnessId("codex-cli"), harnessId("nope")], [
    "gemini",
    "codex",
    undefined,
  ]);
});
