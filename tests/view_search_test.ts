/**
 * `deja view`'s search when it finds nothing, or finds it where the page does not show it:
 * said the way `deja search` says it (trial 95).
 */
import { assert, assertStringIncludes } from "./_assert.ts";
import { memIndex } from "./_search_fixture.ts";
import { startView } from "../lib/view/server.ts";

const AT = Date.parse("2026-11-01T10:00:00Z");

async function fixture() {
  const idx = await memIndex([
    {
      id: "sess-docker",
      project: "/home/dev/app",
      at: AT - 30 * 86_400_000,
      events: [["user", "the docker build fails on arm64"], ["assistant", "Pinned the image."]],
    },
    {
      id: "sess-redis",
      project: "/home/dev/cache",
      at: AT,
      events: [["user", "redis evicts the session keys"], ["assistant", "Raised maxmemory."]],
    },
  ]);
  const srv = await startView({ env: idx.env, token: "k".repeat(32), now: () => AT + 3_600_000 });
  return {
    /** The body of a page of the view, `path` after its token. */
    get: async (path: string) => await (await fetch(`${srv.url}${path}`)).text(),
    async [Symbol.asyncDispose]() {
      await srv.close();
      idx.cleanup();
    },
  };
}

// Trial 95 F2: `docker` under harness aider said "Nothing matched" of a word six sessions held.
Deno.test("view search says when a filter left nothing, how many without it, and links there", async () => {
  await using f = await fixture();
  const cases: Array<[string, string]> = [
    ["project=%2Fhome%2Fdev%2Fcache", "in project /home/dev/cache"],
    ["days=7", "in the last week"],
    ["harness=deja", "in harness deja"],
  ];
  for (const [filter, where] of cases) {
    const body = await f.get(`api/search?q=docker&${filter}`);
    assertStringIncludes(body, `Nothing matched “docker” ${where}`, filter);
    assertStringIncludes(body, "The filter left nothing: without that filter, 1 session", filter);
    assert(/<a class="drop" href="[^"]*\/search\?q=docker"/.test(body), body);
  }
  // The search page says it too, and a filter that is not why says so.
  assertStringIncludes(await f.get("search?q=docker&days=7"), "The filter left nothing");
  assertStringIncludes(await f.get("api/search?q=kubernetes&days=7"), "Nor without that filter");
});
