/**
 * `deja view` shows a long session a page of events at a time: the page of a session of tens of
 * thousands of events was one HTML document of as many blocks, built whole on the server.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { request } from "node:http";
import { memIndex } from "./_search_fixture.ts";
import { startView, type ViewServer } from "../lib/view/server.ts";
import { VIEW_PAGE } from "../lib/view/layout.ts";
import type { Event } from "../core/model.ts";
import { exportView } from "../lib/view/export.ts";
import { Q } from "../lib/schema.ts";
import { tempDir } from "./_tmp.ts";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const AT = Date.parse("2026-11-01T10:00:00Z");
const N = 2 * VIEW_PAGE + 500;

function get(srv: ViewServer, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: "127.0.0.1",
      port: srv.port,
      path,
      headers: { host: `127.0.0.1:${srv.port}` },
    }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => body += c);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

Deno.test("view pages a long session, links a hit to its page, and places subagents and models across pages", async () => {
  const events: Event[] = [];
  for (let i = 0; i < N; i++) {
    const said = i === VIEW_PAGE + 100 ? "the quibbleflux finally connects" : `step ${i} done`;
    events.push({
      kind: i % 2 ? "assistant" : "user",
      text: said,
      time: AT + i * 1000,
      // The model changes once, before the second page: that page starts on the new one.
      ...(i % 2 ? { model: i < VIEW_PAGE - 11 ? "model-a" : "model-b" } : {}),
    } as Event);
  }
  const idx = await memIndex([
    { id: "long-1", project: "/w/long", at: AT, events },
    {
      id: "agent-early",
      parent: "long-1",
      project: "/w/long",
      at: AT + 10_500,
      events: [["user", "early helper at work"]],
    },
    {
      id: "agent-late",
      parent: "long-1",
      project: "/w/long",
      at: AT + (VIEW_PAGE + 50) * 1000 + 500,
      events: [["user", "late helper at work"]],
    },
  ]);
  const srv = await startView({ env: idx.env, token: "p".repeat(32), now: () => AT });
  try {
    const base = `/${srv.token}/session?h=mem&id=long-1`;
    const first = (await get(srv, base)).body;
    assertStringIncludes(first, 'id="e0"');
    assertStringIncludes(first, `id="e${VIEW_PAGE - 1}"`);
    assert(!first.includes(`id="e${VIEW_PAGE}"`), "page 1 stops at its last seq");
    assertStringIncludes(first, `events #0 to #${VIEW_PAGE - 1} of #0 to #${N - 1}`);
    assertStringIncludes(first, `&amp;at=${VIEW_PAGE}">later →</a>`);
    assertStringIncludes(first, "early helper at work");
    assert(!first.includes("late helper at work"), "a subagent sits on the page where it started");
    assert(!first.includes('class="ending"'), "the ending is said on the last page");
    const second = (await get(srv, `${base}&at=${VIEW_PAGE + 7}`)).body;
    assertStringIncludes(second, `id="e${VIEW_PAGE}"`);
    assert(!second.includes('id="e0"'), second.slice(0, 400));
    assertStringIncludes(second, "late helper at work");
    assert(!second.includes("early helper at work"));
    assert(
      second.indexOf("late helper at work") > second.indexOf(`id="e${VIEW_PAGE + 50}"`) &&
        second.indexOf("late helper at work") < second.indexOf(`id="e${VIEW_PAGE + 52}"`),
      "the late subagent sits where it started",
    );
    // The model named before the page is carried over: no change is said at its top.
    assert(!second.includes("— model model-b from here"), "no model change at the page's top");
    assertStringIncludes(first, "— model model-b from here");
    const last = (await get(srv, `${base}&at=${10 * N}`)).body;
    assertStringIncludes(last, `id="e${N - 1}"`);
    assertStringIncludes(last, `events #${2 * VIEW_PAGE} to #${N - 1}`);
    // A search hit on the second page links to that page.
    const hits = (await get(srv, `/${srv.token}/api/search?q=quibbleflux`)).body;
    assertStringIncludes(
      hits,
      `id=long-1&amp;at=${VIEW_PAGE}&amp;hl=quibbleflux#e${VIEW_PAGE + 100}`,
    );
    assertEquals((await get(srv, `${base}&at=-5`)).status, 200);
    // Written as files, every page is written and the pages link each other.
    const store = idx.open();
    const out = tempDir("deja-view-pages-");
    try {
      const s = Q.sessionByKey.get(store, { harness: "mem", native_id: "long-1" })!;
      const r = exportView({ store, env: idx.env, out, target: { session: s }, now: AT });
      const index = readFileSync(join(out, "index.html"), "utf8");
      const later = /<a href="([^"#]+)">later →<\/a>/.exec(index)?.[1];
      assert(later && existsSync(join(out, later)), later);
      assertStringIncludes(readFileSync(join(out, later), "utf8"), `id="e${VIEW_PAGE}"`);
      // Three pages of the session and one of each subagent.
      assertEquals(r.pages, 5);
    } finally {
      store.close();
      rmSync(out, { recursive: true, force: true });
    }
  } finally {
    await srv.close();
    idx.cleanup();
  }
});
