/**
 * `deja view` against what the CLI says of the same index (trial 112): failed calls of any
 * tool marked as `deja show` marks them, sessions charted on every day they were active,
 * subagents filed under their parents said, error pages with the CLI's hint, an output cut
 * by the index said so, and an empty index's Activity page.
 */
import { assertEquals } from "./_assert.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";
import { startView, type ViewOptions } from "../lib/view/server.ts";
import { showJson, showSession } from "../lib/cli/cmd_show.ts";

const AT = Date.parse("2026-11-01T10:00:00Z");
const KEY = "k".repeat(32);

/** A server on an index of `sessions`; `get` answers a page's body (status 200 asserted). */
async function viewOf(sessions: MemSession[], o: Partial<ViewOptions> = {}) {
  const idx = await memIndex(sessions);
  const srv = await startView({ env: idx.env, token: KEY, now: () => AT + 3_600_000, ...o });
  return {
    idx,
    async get(path: string): Promise<string> {
      const r = await fetch(`http://127.0.0.1:${srv.port}/${KEY}${path}`);
      const body = await r.text();
      assertEquals(r.status, 200, path);
      return body;
    },
    async [Symbol.asyncDispose]() {
      await srv.close();
      idx.cleanup();
    },
  };
}

/** The statuses a session page marks (`st-<tone>` spans), in order. */
function marks(html: string): string[] {
  return [...html.matchAll(/<span class="st st-[a-z_]+">([^<]*)<\/span>/g)].map((m) => m[1]);
}

// Trial 112 F1: only shell commands were marked; a Read whose result was an error ("File does
// not exist.") looked like a success in the view while `deja show` said `failed`.
Deno.test("view marks a failed call of any tool and its result where deja show says failed", async () => {
  const call = (id: string, name: string, path: string, at: number): MemSession["events"][0] => ({
    kind: "tool_call",
    text: "",
    tool: { name, id, paths: [path], input: { file_path: path } },
    time: at,
  });
  await using v = await viewOf([{
    id: "sess-read",
    project: "/home/dev/k",
    at: AT,
    events: [
      ["user", "read the audit notes"],
      call("r1", "Read", "/home/dev/k/audit.md", AT + 60e3),
      {
        kind: "tool_result",
        text: "File does not exist.",
        result: { callId: "r1", isError: true },
        time: AT + 61e3,
      },
      call("r2", "Read", "/home/dev/k/notes.md", AT + 62e3),
      { kind: "tool_result", text: "the notes", result: { callId: "r2" }, time: AT + 63e3 },
      // A result whose call is not in the session (drawn alone): marked all the same.
      {
        kind: "tool_result",
        text: "exceeds maximum allowed size",
        result: { callId: "gone", isError: true },
        time: AT + 64e3,
      },
    ],
  }]);
  const html = await v.get("/session?h=mem&id=sess-read");
  assertEquals(marks(html), ["✗ failed", "✗ failed", "✗ failed"]);
  // The same events `deja show` calls failed.
  const store = v.idx.open();
  try {
    const doc = showJson(showSession(store, "sess-read"));
    const failed = (doc.events as Array<{ seq: number; outcome?: string }>)
      .filter((e) => e.outcome === "failed").map((e) => e.seq);
    assertEquals(failed, [1, 2, 5]);
    // Each anchor's stretch of the page, up to the next: the call's mark, then its result's.
    const marked = [...html.matchAll(/id="e(\d+)"[^]*?(?=id="e\d+"|$)/g)]
      .filter((m) => m[0].includes("st-failed")).map((m) => Number(m[1]));
    assertEquals(marked, [1, 2, 5]);
  } finally {
    store.close();
  }
});
