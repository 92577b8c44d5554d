/**
 * `deja view` against what the CLI says of the same index (trial 99): a blame path typed
 * relative, the charts' range, filters kept with a new query, subagents marked, an empty list
 * that says what its filters left out, and the resume button's caveat.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";
import { join } from "node:path";
import { fileSession, indexSessions } from "./_memory.ts";
import { startView, type ViewOptions } from "../lib/view/server.ts";

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

/** A session that wrote each of `paths`. */
function writer(id: string, paths: string[]): MemSession {
  return {
    id,
    project: "/home/dev/k",
    at: AT,
    events: [
      ["user", "fix the image repositories"],
      ...paths.map((path, i): MemSession["events"][0] => ({
        kind: "tool_call",
        text: "",
        tool: { name: "Write", id: `w${i}`, writes: [{ path, content: "apiVersion: v1\n" }] },
        time: AT + (i + 1) * 60e3,
      })),
    ],
  };
}

// Trial 99 F1: `apps/x.yaml` was read as `/apps/x.yaml`; a basename match named no file it
// listed changes of.
Deno.test("view blame takes a relative path from where it runs, and names each change's file when several matched", async () => {
  const radarr = "/home/dev/k/apps/media/radarr/image-repository.yaml";
  const jackett = "/home/dev/k/apps/media/jackett/image-repository.yaml";
  await using v = await viewOf([writer("sess-w", [radarr, jackett])], { cwd: "/somewhere" });
  const rel = await v.get(
    `/blame?path=${encodeURIComponent("apps/media/radarr/image-repository.yaml")}`,
  );
  assertStringIncludes(rel, '<h1 class="path">apps/media/radarr/image-repository.yaml</h1>');
  assertStringIncludes(rel, "taken from /somewhere, where deja view was started");
  assertStringIncludes(rel, "1 session touched a file whose path ends so (suffix match)");
  assertStringIncludes(rel, radarr);
  const elsewhere = await v.get(`/blame?path=${encodeURIComponent("/srv/image-repository.yaml")}`);
  assertStringIncludes(elsewhere, "No session touched this file itself; 1 session touched");
  assertStringIncludes(elsewhere, radarr);
  assertStringIncludes(elsewhere, jackett);
  await using blind = await viewOf([writer("sess-w", [radarr])]);
  const unknown = await blind.get(`/blame?path=${encodeURIComponent("apps/x.yaml")}`);
  assertStringIncludes(unknown, "knows no directory it is relative to");
  assert(!unknown.includes("/apps/x.yaml"), "not made absolute against /");
});

// Trial 99 F2: 26 weeks ending at the newest session drew 20 of 45 sessions, labelled `10-27`.
Deno.test("view week charts reach back to the oldest session (up to two years) and name the year", async () => {
  await using v = await viewOf([
    { id: "sess-a", at: Date.parse("2025-08-12T10:00:00Z"), events: [["user", "the old work"]] },
    { id: "sess-b", at: Date.parse("2026-09-14T10:00:00Z"), events: [["user", "the new work"]] },
  ]);
  const r = await v.get("/stats");
  assertStringIncludes(r, 'week by week <span class="sub">2025-08-11 to 2026-11-01</span>');
  const ticks = [...r.matchAll(/<text x="[\d.]+" y="194">([^<]*)<\/text>/g)].map((m) => m[1]);
  assertEquals(ticks[0], "2025-08-11");
  assert(ticks.some((t) => t.startsWith("2026-")), ticks.join(" "));
  assert(ticks.some((t) => /^\d\d-\d\d$/.test(t)), ticks.join(" "));
});

// A user trial: with no recent session the charts ended at the newest one, which read as
// recent activity; they run to today, the days since empty, and the page says since when.
Deno.test("view charts run to today when no session is recent, and say when the newest was", async () => {
  await using v = await viewOf([
    { id: "sess-a", at: Date.parse("2026-03-03T10:00:00Z"), events: [["user", "the old work"]] },
    { id: "sess-b", at: Date.parse("2026-04-15T10:00:00Z"), events: [["user", "the last work"]] },
  ]);
  const r = await v.get("/stats");
  assertStringIncludes(
    r,
    'Sessions active per day <span class="sub">2025-10-27 to 2026-11-01</span>',
  );
  assertStringIncludes(r, 'week by week <span class="sub">2026-03-02 to 2026-11-01</span>');
  assertStringIncludes(r, "No session since 2026-04-15: the charts run to today, 2026-11-01.");
  // The weeks since are drawn, empty: the last tick is of this week, not April's.
  const ticks = [...r.matchAll(/<text x="[\d.]+" y="194">([^<]*)<\/text>/g)].map((m) => m[1]);
  assert(ticks.includes("09-28"), ticks.join(" "));
  await using recent = await viewOf([{ id: "sess-c", at: AT, events: [["user", "today"]] }]);
  assert(!(await recent.get("/stats")).includes("No session since"), "recent work is not quiet");
});

// Trial 99 F4: a subagent whose parent is not indexed was marked on its page only.
Deno.test("view marks a subagent listed on its own in the list and in search hits, as deja last does", async () => {
  await using v = await viewOf([
    { id: "sess-top", at: AT, events: [["user", "the parent's quokka work"]] },
    { id: "sess-kid", parent: "sess-top", at: AT, events: [["user", "a filed quokka subagent"]] },
    { id: "sess-orphan", parent: "sess-gone", at: AT, events: [["user", "an orphan's quokka"]] },
  ]);
  const mark = "subagent of sess-gone (not indexed)";
  for (const path of ["/", "/search?q=quokka"]) {
    const body = await v.get(path);
    assertEquals(body.split(mark).length - 1, 1, path);
  }
});

// Trial 99 F5: an empty list said "No sessions here." with no count and no way back, and a
// value no session has read as "every harness" / "every project".
Deno.test("view says what an empty list's filters left out, links back, and shows an unknown value as chosen", async () => {
  await using v = await viewOf([
    { id: "sess-a", project: "/home/dev/app", at: AT, events: [["user", "the work"]] },
    { id: "sess-b", project: "/home/dev/app", at: AT, events: [["user", "more work"]] },
  ]);
  const empty = await v.get("/?harness=aider&days=7");
  assertStringIncludes(empty, "Without the harness and time filters: 2 sessions.");
  assertStringIncludes(empty, `href="/${KEY}/">Clear the filters</a>`);
  assert(/<option value="aider"\s+selected\s*>aider \(0\)</.test(empty), "aider chosen");
  const nowhere = await v.get("/?project=%2Fnowhere");
  assertStringIncludes(nowhere, "Without the project filter: 2 sessions.");
  assert(/<option value="\/nowhere"\s+selected\s*>\/nowhere \(0\)</.test(nowhere), "chosen");
  assert(!/<option value=""\s+selected\s*>every project/.test(nowhere), "read as every project");
  // A product name is read as --harness reads it.
  const named = await v.get("/?harness=claude-code");
  assert(/<option value="claude"\s+selected\s*>claude \(0\)</.test(named), "claude chosen");
});

// Trial 99 F6: `deja resume gemini:…` warns that Gemini CLI looks sessions up from the
// directory it runs in, which deja does not know; the page's button said nothing.
Deno.test("view puts resume's caveat beside the button of a session whose directory its harness needs", async () => {
  const ix = await indexSessions([]);
  try {
    const id = "f3bcbc84-0a3c-4852-b805-a0112b261a7b";
    // In the folder Gemini CLI reads (trial 130 F1: elsewhere it is refused).
    const source = join(ix.env.home, ".gemini", "tmp", "p", "chats", "g.json");
    fileSession(ix.store, { harness: "gemini", native_id: id, source, project: null });
    const srv = await startView({ env: ix.env, token: KEY, now: () => AT });
    try {
      const r = await fetch(`http://127.0.0.1:${srv.port}/${KEY}/session?h=gemini&id=${id}`);
      const body = await r.text();
      assertStringIncludes(body, 'data-copy="deja resume gemini:');
      assertStringIncludes(body, "as printed it will not find the session: ");
      assertStringIncludes(body, "looks sessions up from the directory it runs in");
    } finally {
      await srv.close();
    }
  } finally {
    ix.cleanup();
  }
});

// Trial 99 F9: "without it: 6 sessions: deja docker" was a command to retype in a terminal.
Deno.test("view links the searches a hint names, under the page's filters", async () => {
  await using v = await viewOf([
    { id: "sess-a", at: AT, events: [["user", "docker build fails"]] },
    { id: "sess-b", at: AT, events: [["user", "redis drops connections"]] },
  ]);
  const absent = await v.get(`/search?q=${encodeURIComponent("docker deskp")}`);
  assertStringIncludes(absent, `<a href="/${KEY}/search?q=docker"><code>deja docker</code></a>`);
  const apart = await v.get(`/search?q=${encodeURIComponent("docker redis")}&harness=mem`);
  assertStringIncludes(
    apart,
    `<a href="/${KEY}/search?q=redis&amp;harness=mem"><code>deja redis --harness mem</code></a>`,
  );
});

// Trial 99 F11: the events tile counted the whole index beside the sessions of real projects,
// and the page never said how many sessions it left out.
Deno.test("view activity counts the events of the sessions it shows and says how many it leaves out", async () => {
  await using v = await viewOf([
    { id: "sess-real", project: "/home/dev/app", at: AT, events: [["user", "a"], ["user", "b"]] },
    {
      id: "sess-junk",
      project: "/tmp/farm/claude",
      at: AT,
      events: [["user", "c"], ["user", "d"], ["user", "e"]],
    },
  ]);
  const tile = (body: string) =>
    /<div class="n">(\d+)<\/div>\s*<div class="l">events</.exec(body)?.[1];
  const shown = await v.get("/stats");
  assertEquals(tile(shown), "2");
  assertStringIncludes(shown, "1 session of throwaway or excluded projects not counted or charted");
  const all = await v.get("/stats?junk=1");
  assertEquals(tile(all), "5");
  assert(!all.includes("not counted or charted"), "nothing left out");
});
