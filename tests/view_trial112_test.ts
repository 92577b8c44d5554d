/**
 * `deja view` against what the CLI says of the same index (trial 112): failed calls of any
 * tool marked as `deja show` marks them, sessions charted on every day they were active,
 * subagents filed under their parents said, error pages with the CLI's hint, an output cut
 * by the index said so, and an empty index's Activity page.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";
import { startView, type ViewOptions } from "../lib/view/server.ts";
import { showJson, showSession } from "../lib/cli/cmd_show.ts";
import { indexPath } from "../lib/store.ts";
import { sentinelPath } from "../lib/fresh/background.ts";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

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

// Trial 112 F3: a session active yesterday showed "0 sessions" on yesterday's square (it was
// charted only on the day it started), while `deja last yesterday` and the list put it there.
Deno.test("view charts a session on every day and week it had events, and says what it counts", async () => {
  const noon = (day: string) => Date.parse(`${day}T12:00:00Z`);
  await using v = await viewOf([{
    id: "sess-span",
    at: noon("2026-10-20"),
    updated: noon("2026-10-31") + 60e3,
    events: [
      { kind: "user", text: "start the migration", time: noon("2026-10-20") },
      { kind: "assistant", text: "started", time: noon("2026-10-20") + 60e3 },
      { kind: "user", text: "back to the migration", time: noon("2026-10-31") },
      { kind: "assistant", text: "done", time: noon("2026-10-31") + 60e3 },
    ],
  }]);
  const r = await v.get("/stats");
  const day = (d: string) => new RegExp(`<title>${d}: ([^<]*)</title>`).exec(r)?.[1];
  assertEquals(day("2026-10-20"), "1 session active");
  assertEquals(day("2026-10-25"), "0 sessions active");
  assertEquals(day("2026-10-31"), "1 session active");
  // The week bars count it in each week it was active (weeks of 10-19 and 10-26), once each.
  const bars = [...r.matchAll(/<title>(\d{4}-\d\d-\d\d) · mem: ([^<]*)<\/title>/g)]
    .map((m) => `${m[1]} ${m[2]}`);
  assertEquals(bars, ["2026-10-19 1 active", "2026-10-26 1 active"]);
  assertStringIncludes(r, "Sessions active per day");
  assertStringIncludes(r, "A session counts on every day and in every week it has events");
});

// Trial 112 F4: the view said 58 sessions (crush 27) where `deja stats` said 60 (crush 28): it
// counts subagents filed under their parents with them, and said nothing of it.
Deno.test("view says how many subagents it counts with their parent sessions, on the list and Activity", async () => {
  await using v = await viewOf([
    { id: "sess-top", at: AT, events: [["user", "the parent's work"]] },
    { id: "sess-kid", parent: "sess-top", at: AT, events: [["user", "a filed subagent"]] },
    { id: "sess-grandkid", parent: "sess-kid", at: AT, events: [["user", "its own subagent"]] },
    { id: "sess-other", at: AT, events: [["user", "other work"]] },
  ]);
  const said = "2 subagents filed under their parent sessions are not counted as sessions here " +
    "(&#39;deja stats&#39; counts them).";
  const stats = await v.get("/stats");
  assertEquals(/<div class="n">(\d+)<\/div>\s*<div class="l">sessions</.exec(stats)?.[1], "2");
  assertStringIncludes(stats, said);
  assertStringIncludes(await v.get("/"), said);
  // Under a list that holds no parent of one, nothing is said.
  const other = await v.get(`/?project=${encodeURIComponent("/nowhere")}`);
  assertEquals(other.includes("subagent"), false);
});

// Trial 112 F10: an empty index drew empty charts with axis labels "0 1 1"; the heat map's last
// month label ("Dec") was cut at the right edge.
Deno.test("view Activity of an empty index says so, and no month label runs past the heat map", async () => {
  await using empty = await viewOf([]);
  const none = await empty.get("/stats");
  assertStringIncludes(none, '<div class="empty">No sessions yet.</div>');
  assertEquals(none.includes("<svg"), false);
  // A month whose first Monday is in the map's last week (December 2026, today 2026-12-08).
  await using v = await viewOf([{ id: "sess-a", at: AT, events: [["user", "work"]] }], {
    now: () => Date.parse("2026-12-08T12:00:00Z"),
  });
  const r = await v.get("/stats");
  const width = Number(/class="chart heat" viewBox="0 0 (\d+)/.exec(r)?.[1]);
  const months = [...r.matchAll(/<text x="(\d+)" y="12"( text-anchor="end")?>(\w+)<\/text>/g)];
  assertEquals(months.at(-1)?.[3], "Dec");
  for (const [, x, end, name] of months) {
    // A label 24 px wide at most: it ends inside the map.
    const right = end ? Number(x) : Number(x) + 24;
    assertEquals(right <= width, true, `${name} at ${x} of ${width}`);
  }
});

/** Asserts `r` is a page of the app: HTML, its header linking home. */
function page(r: { type: string; body: string }): void {
  assertStringIncludes(r.type, "text/html");
  assertStringIncludes(r.body, `<a class="brand" href="/${KEY}/">deja</a>`);
}

/** A page's answer whatever its status: status, content type and body. */
async function fetchPage(port: number, path: string) {
  const r = await fetch(`http://127.0.0.1:${port}/${KEY}${path}`);
  return { status: r.status, type: r.headers.get("content-type") ?? "", body: await r.text() };
}

// Trial 112 F5: errors were bare text/plain lines; a damaged index's lacked the CLI's hint
// (`deja index --rebuild`); with no index it said "Run deja index" while one was being built.
Deno.test("view answers a missing session, a damaged index and an index being built with a page, the CLI's message and hint", async () => {
  const idx = await memIndex([{ id: "sess-a", at: AT, events: [["user", "the work"]] }]);
  const srv = await startView({ env: idx.env, token: KEY, now: () => AT });
  try {
    const missing = await fetchPage(srv.port, "/session?id=nope");
    assertEquals(missing.status, 404);
    page(missing);
    assertStringIncludes(missing.body, "no session matches &#39;nope&#39;");
    assertStringIncludes(missing.body, "hint: search first");
    assertStringIncludes(missing.body, `href="/${KEY}/">Back to the sessions</a>`);
    const nowhere = await fetchPage(srv.port, "/nowhere");
    assertEquals(nowhere.status, 404);
    page(nowhere);

    // Every page of the index's data broken, as a disk gone wrong leaves it.
    const db = indexPath(idx.env);
    const bytes = readFileSync(db);
    const size = bytes.readUInt16BE(16);
    for (let p = size; p < bytes.length; p += size) bytes[p] ^= 0xff;
    writeFileSync(db, bytes);
    const damaged = await fetchPage(srv.port, "/");
    // One status for a damaged index, whether a page's read or the open finds it (trial 113
    // F11: 500 here, 503 for a damaged header).
    assertEquals(damaged.status, 503);
    page(damaged);
    assertStringIncludes(damaged.body, `the index ${db} is damaged`);
    assertStringIncludes(damaged.body, "hint: run &#39;deja index --rebuild&#39;");
    assertStringIncludes(damaged.body, "The index cannot be read");
    // Its header damaged too: the open fails, the same status and page.
    bytes.fill(0x5a, 0, 100);
    writeFileSync(db, bytes);
    const header = await fetchPage(srv.port, "/");
    assertEquals(header.status, damaged.status);
    page(header);
    assertStringIncludes(header.body, "The index cannot be read");
  } finally {
    await srv.close();
    idx.cleanup();
  }

  // No index yet, a background run building it (its sentinel: this process, just now).
  const bare = await memIndex([]);
  for (const end of ["", "-wal", "-shm"]) rmSync(indexPath(bare.env) + end, { force: true });
  const srv2 = await startView({ env: bare.env, token: KEY, now: () => AT });
  try {
    const none = await fetchPage(srv2.port, "/");
    assertEquals(none.status, 503);
    page(none);
    assertStringIncludes(none.body, "hint: run &#39;deja index&#39; first");
    mkdirSync(dirname(sentinelPath(bare.env)), { recursive: true });
    writeFileSync(sentinelPath(bare.env), `${Deno.pid} ${AT}`);
    const building = await fetchPage(srv2.port, "/");
    assertEquals(building.status, 503);
    assertStringIncludes(building.body, "building it in the background now (first run)");
    assertEquals(building.body.includes("run &#39;deja index&#39;"), false);
  } finally {
    await srv2.close();
    bare.cleanup();
  }
});

// Trial 112 F6: a Bash output of 30,001 lines (3.4 MB) was folded under "output · 148 lines",
// the lines the index kept, with the cut said only inside the fold.
Deno.test("view says in an output's fold how much of it the index kept and cut", async () => {
  const big = Array.from({ length: 3000 }, (_, i) => `line ${i} ` + "x".repeat(90)).join("\n");
  const said = big + "\n" + big; // a reply the index keeps more of, also cut
  await using v = await viewOf([{
    id: "sess-big",
    at: AT,
    events: [
      ["user", "run the long build"],
      { kind: "tool_call", text: "", tool: { name: "Bash", id: "b1", command: "make all" } },
      { kind: "tool_result", text: big, result: { callId: "b1", exit: 0 } },
      { kind: "tool_result", text: "a short output", result: { callId: "b1", exit: 0 } },
      ["assistant", said],
    ],
  }]);
  const html = await v.get("/session?h=mem&id=sess-big");
  const summaries = [...html.matchAll(/<summary>(output[^<]*)<\/summary>/g)].map((m) => m[1]);
  assertEquals(summaries.length, 2);
  const [cut, whole] = summaries;
  const m = /^output · (\d+) lines \(the index kept ([\d,]+) of ([\d,]+) characters\) · #2$/
    .exec(cut);
  assertEquals(m?.[3], big.length.toLocaleString("en"), cut);
  assertEquals(Number(m![1]) < 3000, true, cut);
  assertEquals(whole, "output · 1 line · #3");
  // A text's fold says it too.
  const more = /<summary>(\d+ more lines \(the index kept [^<]*)<\/summary>/.exec(html)?.[1] ?? "";
  assertStringIncludes(more, ` of ${said.length.toLocaleString("en")} characters)`);
});
