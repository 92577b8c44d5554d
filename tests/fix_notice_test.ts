/**
 * Regression (2026-12, new-user trial on real Crush stores, session 0d21b928): a provider's error
 * that Crush reported as a notice, its message inside a JSON body with escaped quotes and
 * newlines, was found by `deja "<error>"` ("matched by error signature") while `deja fix` with
 * the same text answered "never seen": the words next to each `\"` were read as a path and
 * left out of the line's signature (`instead.\",\n` lost `instead`).
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { captureIO } from "./_cli_io.ts";
import { tempDir } from "./_tmp.ts";
import { rmSync } from "node:fs";
import { fixData } from "../lib/cli/cmd_fix.ts";
import { Store } from "../lib/store.ts";
import { indexPath } from "../core/paths.ts";
import { textLines } from "../lib/memory/signature.ts";
import { indexedCrushSession } from "./_crush_tiny.ts";

const SID = "0d21b928-0000-4000-8000-000000000002";

const MESSAGE = "Invalid 'input[3].name': empty string. Expected a string with minimum length 1, " +
  "but got an empty string instead.";

/** The provider's body as Crush kept it: a JSON string holding JSON (`raw`). */
const DETAILS = 'POST "https://openrouter.ai/api/v1/chat/completions": 400 Bad Request ' +
  JSON.stringify({
    message: "Provider returned error",
    code: 400,
    metadata: {
      raw: JSON.stringify(
        { error: { message: MESSAGE, type: "invalid_request_error", code: "empty_string" } },
        null,
        2,
      ),
    },
  });

/** One Crush session: a prompt, then the provider's error as a `finish` part. */
function sessionRows(): Array<[string, unknown[]]> {
  return [
    ["user", [{ type: "text", data: { text: "why does forgejo restart" } }]],
    ["assistant", [{
      type: "finish",
      data: { reason: "error", time: 1004, message: "API Error", details: DETAILS },
    }]],
  ];
}

Deno.test("fix finds a provider error the harness reported in a notice, inside escaped JSON", async () => {
  const root = tempDir("deja-fix-notice-");
  try {
    const env = await indexedCrushSession(root, SID, "forgejo pods", sessionRows());
    const store = Store.open(indexPath(env));
    try {
      const io = captureIO(env, false).io;
      const d = fixData(store, MESSAGE, { limit: 3, junk: true }, io);
      assertEquals([d.status, d.mentioned.map((m) => m.session)], ["unseen", [SID]]);
      assertStringIncludes(d.message, "1 session holds it (reported by the harness)");
    } finally {
      store.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  // The message is a line of its own; a Windows path's `\n` is not read as an escape.
  assertEquals(textLines(DETAILS).some((l) => l.trim() === `"message": "${MESSAGE}",`), true);
  assertEquals(textLines("cannot open C:\\work\\new\\x.txt"), ["cannot open C:\\work\\new\\x.txt"]);
});
