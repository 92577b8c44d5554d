/**
 * `deja view`'s search when it finds nothing, or finds it where the page does not show it:
 * said the way `deja search` says it (trial 95).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { memIndex } from "./_search_fixture.ts";
import { startView } from "../lib/view/server.ts";
import { request } from "node:http";

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
      id: "sess-tools",
      project: "/home/dev/app",
      at: AT,
      events: [
        ["user", "why is the image so large"],
        {
          kind: "tool_call",
          text: "",
          tool: { name: "Bash", id: "c1", command: "du -sh layers" },
          time: AT + 60e3,
        },
        {
          kind: "tool_result",
          text: [...Array(40).keys()].map((i) => i === 33 ? "layer 7: qdrant 2.1G" : `layer ${i}`)
            .join("\n"),
          result: { callId: "c1", exit: 0 },
          time: AT + 70e3,
        },
        {
          kind: "tool_result",
          text: "second result of the same call: flux",
          result: { callId: "c1" },
          time: AT + 80e3,
        },
      ],
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
    url: srv.url,
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

// Trial 95 F1: a result is drawn inside its call's card, and only the call had an id: a hit in
// a tool's output opened its session at the top, the output folded.
Deno.test("view session page gives every event a hit can name its anchor, a tool's output too", async () => {
  await using f = await fixture();
  for (const word of ["qdrant", "flux"]) {
    const hits = await f.get(`api/search?q=${word}`);
    const link = /href="[^"]*\/(session\?[^"#]+)#(e\d+)"/.exec(hits);
    assert(link, hits);
    const page = await f.get(link[1].replaceAll("&amp;", "&"));
    // The output holding the hit is the element of that id, folded (long) or not.
    assert(new RegExp(`<details class="out" id="${link[2]}"`).test(page), `${word}: ${link[2]}`);
  }
  const page = await f.get("session?h=mem&id=sess-tools");
  assertEquals([...page.matchAll(/ id="(e\d+)"/g)].map((m) => m[1]), ["e0", "e1", "e2", "e3"]);
});

// Trial 95 F8: `docker OR redis` said only "Nothing matched", where the CLI says why.
Deno.test("view search that found nothing gives the CLI's hints: words apart, OR typed", async () => {
  await using f = await fixture();
  const body = await f.get(`api/search?q=${encodeURIComponent("docker OR redis")}`);
  assertStringIncludes(body, "Nothing matched “docker OR redis”");
  assertStringIncludes(body, "left out as too common: or");
  assertStringIncludes(
    body,
    "&#39;docker&#39; and &#39;redis&#39; are in no session together: &#39;docker&#39; alone is in 1 session",
  );
  assertStringIncludes(body, "OR is no operator here");
  assert(!body.includes("hint: "), "the CLI's prefix is left out");
});

/** A GET of `path` on the server at `url` (fetch refuses an address this long). */
function getLong(url: string, path: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + path }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => body += c);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

// Trial 95 F9: a query over 16 KB (a pasted stack trace) got an empty 431, a blank page.
Deno.test("view searches a pasted 20 KB error, cut as the CLI cuts it; past its limit says why", async () => {
  await using f = await fixture();
  const trace = [
    "docker build fails",
    ...[...Array(1200).keys()].map((i) => `    at handler${i} (server/frame${i}.js)`),
  ]
    .join("\n");
  assert(trace.length > 20_000);
  const r = await getLong(f.url, `search?q=${encodeURIComponent(trace)}`);
  assertEquals(r.status, 200);
  assertStringIncludes(r.body, "the query was cut");
  const huge = await getLong(f.url, `search?q=${"x".repeat(600_000)}`);
  assertEquals(huge.status, 431);
  assertStringIncludes(huge.body, "The search is longer than deja view reads");
});
