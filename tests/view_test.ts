/**
 * `deja view` in-process: the server on a fixture index, reached over real
 * HTTP. Who may ask (token, Host, method), what every page shows, and that
 * hostile transcript text is shown as text, never as markup.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { request } from "node:http";
import { networkInterfaces } from "node:os";
import { memIndex } from "./_search_fixture.ts";
import { startView, type ViewServer } from "../lib/view/server.ts";
import { search } from "../lib/search.ts";

const HOSTILE = `<script>alert("pwned")</script><img src=x onerror=alert(1)>`;
const AT = Date.parse("2026-11-01T10:00:00Z");

/** A GET (or another method) with full control of the headers, as a browser or an attacker sends. */
function get(
  srv: ViewServer,
  path: string,
  o: { host?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: "127.0.0.1",
      port: srv.port,
      path,
      method: o.method ?? "GET",
      headers: { host: o.host ?? `127.0.0.1:${srv.port}`, ...o.headers },
    }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => body += c);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function fixture() {
  const idx = await memIndex([
    {
      id: "sess-hostile",
      project: `/home/dev/<b>evil</b>`,
      at: AT,
      events: [
        ["user", `fix the flaky websocket test ${HOSTILE}`],
        ["assistant", `Looking at it. ${HOSTILE}`],
        {
          kind: "tool_call",
          text: "",
          tool: { name: "Bash", id: "c1", command: "npm test -- --grep websocket" },
          time: AT + 120e3,
        },
        {
          kind: "tool_result",
          text: "1 failing\n  websocket reconnects",
          result: { callId: "c1", exit: 1 },
          time: AT + 180e3,
        },
        {
          kind: "tool_call",
          text: "",
          tool: { name: "Bash", id: "c2", command: "ls build" },
          time: AT + 200e3,
        },
        { kind: "tool_result", text: "out.js", result: { callId: "c2" }, time: AT + 210e3 },
        {
          kind: "tool_call",
          text: "",
          tool: {
            name: "Edit",
            id: "c3",
            edits: [{
              path: "/home/dev/app/src/ws.ts",
              old: "const retries = 1;\nconnect();",
              new: "const retries = 5;\nconnect();",
            }],
          },
          time: AT + 240e3,
        },
        { kind: "tool_result", text: "ok", result: { callId: "c3" }, time: AT + 250e3 },
        ["summary", "Compacted: the websocket test retries now."],
      ],
    },
    {
      id: "agent-1",
      parent: "sess-hostile",
      project: `/home/dev/<b>evil</b>`,
      at: AT + 60e3,
      events: [["user", "subagent looks up the websocket retry setting"]],
    },
    {
      id: "sess-other",
      project: "/home/dev/other",
      at: AT - 86_400_000,
      events: [["user", "rename the websocket helper"], ["assistant", "Renamed."]],
    },
  ]);
  const srv = await startView({ env: idx.env, token: "k".repeat(32), now: () => AT + 3_600_000 });
  return {
    idx,
    srv,
    base: `/${srv.token}`,
    async [Symbol.asyncDispose]() {
      await srv.close();
      idx.cleanup();
    },
  };
}

Deno.test("view refuses a request without the token, or with another one", async () => {
  await using f = await fixture();
  for (const path of ["/", "/app.css", `/${"k".repeat(31)}/`, `/${"k".repeat(33)}/`, "/stats"]) {
    const r = await get(f.srv, path);
    assertEquals(r.status, 403, path);
    assert(!r.body.includes("sess-hostile"), path);
  }
  assertEquals((await get(f.srv, `${f.base}/`)).status, 200);
  assert(f.srv.url.startsWith(`http://127.0.0.1:${f.srv.port}/${f.srv.token}/`));
});

Deno.test("view refuses a foreign Host header (DNS rebinding) and accepts its own names", async () => {
  await using f = await fixture();
  for (const host of ["evil.example", `evil.example:${f.srv.port}`, "127.0.0.1", "localhost:1"]) {
    assertEquals((await get(f.srv, `${f.base}/`, { host })).status, 403, host);
  }
  assertEquals((await get(f.srv, `${f.base}/`, { host: `localhost:${f.srv.port}` })).status, 200);
});

Deno.test("view is read-only, sends no CORS header and a strict content policy", async () => {
  await using f = await fixture();
  for (const method of ["POST", "PUT", "DELETE", "OPTIONS"]) {
    assertEquals((await get(f.srv, `${f.base}/`, { method })).status, 405, method);
  }
  const r = await get(f.srv, `${f.base}/`, { headers: { origin: "http://evil.example" } });
  assertEquals(r.status, 200);
  assert(!Object.keys(r.headers).some((k) => k.startsWith("access-control-")));
  assertStringIncludes(String(r.headers["content-security-policy"]), "script-src 'self'");
  assertEquals(r.headers["x-content-type-options"], "nosniff");
});

Deno.test("view listens on 127.0.0.1 only", async () => {
  await using f = await fixture();
  const other = Object.values(networkInterfaces()).flat()
    .find((i) => i && i.family === "IPv4" && !i.internal)?.address;
  if (!other) {
    console.log("no non-loopback IPv4 address here: only the bound address is checked");
  } else {
    const err = await new Promise<string>((resolve) => {
      const req = request({ host: other, port: f.srv.port, path: `${f.base}/`, timeout: 2000 });
      req.on("response", () => resolve("answered"));
      req.on("error", (e: { code?: string }) => resolve(e.code ?? "error"));
      req.on("timeout", () => {
        req.destroy();
        resolve("timeout");
      });
      req.end();
    });
    assert(err !== "answered", `answered on ${other}`);
  }
  assertStringIncludes(f.srv.url, "//127.0.0.1:");
});

Deno.test("view escapes transcript text on every page", async () => {
  await using f = await fixture();
  const pages = [
    "/",
    "/search?q=websocket",
    "/api/search?q=pwned",
    "/session?h=mem&id=sess-hostile",
    "/projects",
    `/project?p=${encodeURIComponent("/home/dev/<b>evil</b>")}`,
    "/stats",
  ];
  for (const p of pages) {
    const r = await get(f.srv, f.base + p);
    assertEquals(r.status, 200, p);
    assert(!r.body.includes("<script>alert"), `raw script on ${p}`);
    assert(!r.body.includes("<img src=x"), `raw img on ${p}`);
    assert(!r.body.includes("<b>evil"), `raw project markup on ${p}`);
  }
  const s = await get(f.srv, `${f.base}/session?h=mem&id=sess-hostile`);
  assertStringIncludes(s.body, "&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;");
  // The only scripts on a page are the server's own.
  assertEquals([...s.body.matchAll(/<script/g)].length, 1);
});

Deno.test("view list shows sessions with harness, project, date and size; filters by harness and time", async () => {
  await using f = await fixture();
  const r = await get(f.srv, `${f.base}/`);
  assertStringIncludes(r.body, "fix the flaky websocket test");
  assertStringIncludes(r.body, "rename the websocket helper");
  assertStringIncludes(r.body, "/home/dev/other");
  assertStringIncludes(r.body, "session?h=mem&amp;id=sess-hostile");
  // The subagent is filed under its parent, not listed alone.
  assert(!r.body.includes("subagent looks up"));
  const recent = await get(f.srv, `${f.base}/?days=1`);
  assert(!recent.body.includes("rename the websocket helper"));
  assertStringIncludes(recent.body, "fix the flaky websocket test");
  const none = await get(f.srv, `${f.base}/?harness=deja`);
  assertStringIncludes(none.body, "No sessions here");
});

Deno.test("view search answers with the CLI's search: same order, marked snippets, links to the hit", async () => {
  await using f = await fixture();
  const r = await get(f.srv, `${f.base}/api/search?q=websocket`);
  assertStringIncludes(r.body, "<mark>websocket</mark>");
  const store = f.idx.open();
  const cli = search(store, "websocket", { now: AT + 3_600_000, hideThrowaway: true });
  store.close();
  const order = [...r.body.matchAll(/class="title" href="[^"]*id=([^"&#]+)/g)].map((m) =>
    decodeURIComponent(m[1])
  );
  assertEquals(order, cli.results.map((x) => x.id));
  // A snippet links to its event on the session's page; a subagent's hit to its place inside.
  // (with the text its snippet marks, to mark on that page: trial 99 F7).
  assert(/id=sess-hostile&amp;hl=websocket#e\d/.test(r.body));
  assertStringIncludes(r.body, `#${encodeURIComponent("agent-1/e0")}`);
  assertStringIncludes(r.body, "tier exact");
  // A word the search leaves out is said, as the CLI says it (trial 56).
  const left = await get(f.srv, `${f.base}/api/search?q=hello%20websocket`);
  assertStringIncludes(left.body, "left out as too common: hello");
});

Deno.test("view session page: turns, commands with their outcome, diffs, subagents, summaries, copy buttons", async () => {
  await using f = await fixture();
  const r = await get(f.srv, `${f.base}/session?h=mem&id=sess-hostile`);
  const b = r.body;
  assertStringIncludes(b, 'class="ev user" id="e0"');
  assertStringIncludes(b, 'class="ev assistant"');
  assertStringIncludes(b, "$ npm test -- --grep websocket");
  assertStringIncludes(b, '<span class="st st-failed">✗ exit 1</span>');
  // No exit status and nothing failing in the output: unknown, never "ok".
  assertStringIncludes(b, '<span class="st st-unknown">? exit unknown</span>');
  assertStringIncludes(b, '<div class="d">- const retries = 1;</div>');
  assertStringIncludes(b, '<div class="a">+ const retries = 5;</div>');
  assertStringIncludes(b, "compaction summary");
  assertStringIncludes(b, 'class="sub-agent" id="agent-1"');
  assertStringIncludes(b, 'id="agent-1/e0"');
  // `deja resume` does not reopen a session of this harness: no resume button (trial 95 F10:
  // a button for aider sessions, which it refuses).
  assert(!b.includes('data-copy="deja resume'), "a resume button deja resume would refuse");
  assertStringIncludes(b, 'data-copy="deja ctx mem:');
  // The subagent sits where it started: after the first turn, before the first command.
  assert(b.indexOf("subagent looks up") < b.indexOf("$ npm test"));
  assert(b.indexOf("subagent looks up") > b.indexOf("fix the flaky"));
  assertEquals((await get(f.srv, `${f.base}/session?h=mem&id=nope`)).status, 404);
  // An id prefix opens the session, as the CLI takes one (trial 67).
  const pre = await get(f.srv, `${f.base}/session?h=mem&id=sess-hos`);
  assertEquals(pre.status, 200);
  assertStringIncludes(pre.body, 'data-copy="deja ctx mem:');
  // A prefix several sessions share lists them, each with its link (trial 69: 404).
  const several = await get(f.srv, `${f.base}/session?h=mem&id=sess-`);
  assertEquals(several.status, 200);
  assertStringIncludes(several.body, "sessions start “sess-”");
  assertStringIncludes(several.body, "id=sess-hostile");
  assertStringIncludes(several.body, "id=sess-other");
});

Deno.test("view project page lists its sessions and touched files; blame lists who changed a file", async () => {
  await using f = await fixture();
  const p = encodeURIComponent("/home/dev/<b>evil</b>");
  const r = await get(f.srv, `${f.base}/project?p=${p}`);
  assertStringIncludes(r.body, "/home/dev/app/src/ws.ts");
  assertStringIncludes(r.body, "fix the flaky websocket test");
  const all = await get(f.srv, `${f.base}/projects`);
  assertStringIncludes(all.body, "/home/dev/other");
  // A project the index does not hold is not found, like a session.
  assertEquals((await get(f.srv, `${f.base}/project?p=%2Fnowhere`)).status, 404);
  const bl = await get(
    f.srv,
    `${f.base}/blame?p=${p}&path=${encodeURIComponent("/home/dev/app/src/ws.ts")}`,
  );
  assertStringIncludes(bl.body, "1 session touched this file");
  assertStringIncludes(bl.body, "id=sess-hostile#e6");
  // Counts in the singular where one (trial 63: "1 edits").
  assert(/\b1 edit\b/.test(bl.body) && !/\b1 edits\b/.test(bl.body), "1 edit");
  // Another file of its name is said to be one, as `deja blame` says it (trial 95 F7).
  const named = await get(
    f.srv,
    `${f.base}/blame?path=${encodeURIComponent("/elsewhere/lib/ws.ts")}`,
  );
  assertStringIncludes(
    named.body,
    "1 session touched a file of this name elsewhere (basename match)",
  );
});

Deno.test("view activity page draws its charts as inline SVG and counts failed commands", async () => {
  await using f = await fixture();
  const r = await get(f.srv, `${f.base}/stats`);
  assertStringIncludes(r.body, '<svg class="chart heat"');
  assertStringIncludes(r.body, "2026-11-01: 1 session");
  assertStringIncludes(r.body, "<code>npm test -- --grep websocket</code>");
  assert(!r.body.includes("<code>ls build</code>"), "an unknown outcome is not a failure");
  const css = await get(f.srv, `${f.base}/app.css`);
  assertStringIncludes(String(css.headers["content-type"]), "text/css");
});

Deno.test("view shows a session written after it started, freshened the way the CLI freshens", async () => {
  await using f = await fixture();
  await f.srv.close();
  const { memParser } = await import("./_search_fixture.ts");
  const { writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const srv = await startView({
    env: f.idx.env,
    parsers: [memParser(f.idx.root)],
    token: "t".repeat(32),
    freshenEveryMs: 0,
  });
  try {
    assert(!(await get(srv, `/${srv.token}/`)).body.includes("brand new session"));
    const at = Date.now();
    writeFileSync(
      join(f.idx.root, "mem--fresh.json"),
      JSON.stringify({
        harness: "mem",
        id: "fresh",
        project: "/home/dev/other",
        started: at,
        updated: at,
        path: "",
        events: [{ kind: "user", text: "a brand new session", time: at }],
      }),
    );
    assertStringIncludes((await get(srv, `/${srv.token}/`)).body, "a brand new session");
  } finally {
    await srv.close();
  }
});

Deno.test("view activity charts an own file's session, leaves an undated one out and says so; projects show the newest update", async () => {
  // A prompt history: dated only by its file, which many prompts share (11-01 12:00).
  await using f = await fixture();
  await f.idx.add([{
    id: "prompt-history-0123456789abcdef",
    project: "/home/dev/copied",
    fileTime: AT + 2 * 3_600_000,
    sharedFile: true,
    events: [["user", "an old prompt from the history"]],
  }, {
    // A live Kimi context file, the session's own: last written 10 minutes before the view's now.
    id: "kimi-live",
    project: "/home/dev/live",
    fileTime: AT + 3_000_000,
    events: [["user", "the session being worked on now"]],
  }, {
    // Started long ago, last active an hour before the view's now: the project's last activity.
    id: "sess-long",
    project: "/home/dev/long",
    at: AT - 30 * 86_400_000,
    updated: AT + 1_800_000,
    events: [["user", "a month-long refactor"]],
  }]);
  const r = await get(f.srv, `${f.base}/stats`);
  assertStringIncludes(r.body, "1 undated session not charted");
  // The heat map counts the dated session of 11-01 and the live one, not the prompt history.
  assertStringIncludes(r.body, "2026-11-01: 2 sessions");
  const p = await get(f.srv, `${f.base}/projects`);
  const row = (name: string) =>
    p.body.slice(p.body.indexOf(name), p.body.indexOf("</tr>", p.body.indexOf(name)));
  assertStringIncludes(row("/home/dev/long"), "2026-11-01"); // not its start, 2026-10-02
  assert(!row("/home/dev/long").includes("2026-10-02"), row("/home/dev/long"));
  assertStringIncludes(row("/home/dev/copied"), "2026-11-01 12:00 (undated: prompt history)");
  assertStringIncludes(row("/home/dev/live"), "2026-11-01 10:50 (file time)");
  // The session list's time window leaves the undated one out and says so, and holds the
  // live one; without a window both are listed.
  const recent = await get(f.srv, `${f.base}/?days=1`);
  assert(!recent.body.includes("an old prompt from the history"), recent.body);
  assertStringIncludes(recent.body, "the session being worked on now");
  assertStringIncludes(
    recent.body,
    "1 undated session (dated only by a file many sessions share) not in this window",
  );
  const all = await get(f.srv, `${f.base}/`);
  assertStringIncludes(all.body, "an old prompt from the history");
  // By last activity: the live project (its own file, 10:50) first, the long one (10:30), and
  // the prompt history's (its shared file says 12:00) last.
  assert(p.body.indexOf("/home/dev/live") < p.body.indexOf("/home/dev/long"), p.body);
  assert(p.body.indexOf("/home/dev/long") < p.body.indexOf("/home/dev/copied"), p.body);
});

// Trial 67: the harness menu counted the throwaway sessions the list hides ("opencode (1)" led
// to an empty list), and a search said nothing of the hidden sessions holding every word.
Deno.test("view counts and searches as the list shows: throwaway sessions hidden, and said", async () => {
  const idx = await memIndex([
    {
      id: "sess-real",
      project: "/home/dev/app",
      at: AT,
      events: [["user", "rename the websocket helper"], ["assistant", "Renamed."]],
    },
    {
      id: "sess-junk",
      project: "/tmp/farm/claude",
      at: AT,
      events: [["user", "zebrafinch websocket helper crash"], ["assistant", "Reproduced."]],
    },
  ]);
  const srv = await startView({ env: idx.env, token: "k".repeat(32), now: () => AT + 3_600_000 });
  try {
    const base = `/${srv.token}`;
    const list = await get(srv, `${base}/`);
    assertStringIncludes(list.body, "mem (1)");
    assert(!list.body.includes("/tmp/farm"), "no throwaway project in the menu");
    const withJunk = await get(srv, `${base}/?junk=1`);
    assertStringIncludes(withJunk.body, "mem (2)");
    const s = await get(
      srv,
      `${base}/api/search?q=${encodeURIComponent("zebrafinch websocket helper")}`,
    );
    assertStringIncludes(
      s.body,
      "1 hidden session holds every word (throwaway or excluded projects); those below only look like it",
    );
  } finally {
    await srv.close();
    idx.cleanup();
  }
});

// Trial 95 F4: the charts drew an unlabelled window, and the sessions before it went unsaid.
Deno.test("view activity charts say the range they draw and the sessions before it", async () => {
  const old = Date.parse("2024-06-03T10:00:00Z");
  const idx = await memIndex([
    { id: "sess-new", at: AT, events: [["user", "the new work"]] },
    { id: "sess-old", at: old, events: [["user", "the old work"]] },
  ]);
  const srv = await startView({ env: idx.env, token: "k".repeat(32), now: () => AT + 3_600_000 });
  try {
    const r = await get(srv, `/${"k".repeat(32)}/stats`);
    assertStringIncludes(
      r.body,
      'Sessions active per day <span class="sub">2025-10-27 to 2026-11-01; 1 earlier session not drawn</span>',
    );
    assertStringIncludes(
      r.body,
      // Back to the oldest session, two years at most (trial 99 F2).
      'week by week <span class="sub">2024-11-04 to 2026-11-01; 1 earlier session not drawn</span>',
    );
  } finally {
    await srv.close();
    idx.cleanup();
  }
});

// Trial 95 F6: a subagent whose parent the index does not hold looked like a session of its own.
Deno.test("view names a subagent's parent on its page, indexed or not", async () => {
  const idx = await memIndex([
    { id: "sess-top", at: AT, events: [["user", "the parent's work"]] },
    { id: "sess-kid", parent: "sess-top", at: AT, events: [["user", "a subagent's work"]] },
    { id: "sess-orphan", parent: "sess-gone", at: AT, events: [["user", "an orphan's work"]] },
  ]);
  const srv = await startView({ env: idx.env, token: "k".repeat(32), now: () => AT + 3_600_000 });
  try {
    const kid = await get(srv, `/${"k".repeat(32)}/session?h=mem&id=sess-kid`);
    assertStringIncludes(kid.body, "subagent of <a");
    const orphan = await get(srv, `/${"k".repeat(32)}/session?h=mem&id=sess-orphan`);
    assertStringIncludes(orphan.body, "subagent of sess-gone (not indexed)");
  } finally {
    await srv.close();
    idx.cleanup();
  }
});
