/**
 * `deja view`'s session page against what trial 126 found: the tab titled as the heading, a
 * shell call that never ran drawn as its command, a failed edit marked as `deja show` marks it.
 */
import { assert, assertStringIncludes } from "./_assert.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";
import { sessionPage } from "../lib/view/session.ts";

const AT = Date.parse("2026-11-01T10:00:00Z");

/** The session page of `id` on an index of `sessions`. */
async function pageOf(sessions: MemSession[], id: string): Promise<string> {
  const idx = await memIndex(sessions);
  const store = idx.open();
  try {
    return sessionPage({ base: "/t", store, env: idx.env, now: AT + 3_600_000 }, "mem", id) ?? "";
  } finally {
    store.close();
    idx.cleanup();
  }
}

// Trial 126 F7: a session its harness gave no title had its raw id as the tab's title, where
// the page's heading read as its first prompt.
Deno.test("view names a session's tab as its heading, not by its bare id", async () => {
  const html = await pageOf([{
    id: "66db2ce0-393a-4771-9986-2462861a8eb7",
    project: "/home/dev/app",
    at: AT,
    events: [["user", "is github copilot chat similar to continue"], ["assistant", "Partly."]],
  }], "66db2ce0-393a-4771-9986-2462861a8eb7");
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
  assertStringIncludes(title, "is github copilot chat similar to continue");
  assert(!title.includes("66db2ce0"), title);
  assertStringIncludes(html, "<h1>is github copilot chat similar to continue</h1>");
});
