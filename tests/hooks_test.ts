/**
 * The hooks run in-process over hand-written Claude Code sessions: each
 * hook's envelope and budget, the silence cases, dedupe within one agent
 * session, and exit 0 whatever happens.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import { makeEnv } from "../core/runtime.ts";
import type { Env } from "../core/model.ts";
import { FRAME_OPEN, FRAME_PREAMBLE } from "../core/frame.ts";
import { assemble, BUDGET } from "../lib/hooks/run.ts";
import { claudeLines, indexSessions, type MemoryIndex, type SessionSpec } from "./_memory.ts";
import { tempDir } from "./_tmp.ts";
import { readGiveUps } from "../lib/hooks/log.ts";
import { remember } from "../lib/memory/notes.ts";

const WS: SessionSpec = {
  id: "a1a10001-0000-4000-8000-000000000001",
  cwd: "/w/app",
  start: "2026-10-01T10:00:00Z",
  turns: [
    { user: "Fix the flaky websocket reconnect test in ws_client, it says ECONNREFUSED." },
    {
      bash: "npm test",
      out: "ws_client reconnect\nError: connect ECONNREFUSED 127.0.0.1:6379 (redis)",
      exit: 1,
    },
    { bash: "docker compose up -d redis", out: "Container redis Started", exit: 0 },
    { bash: "npm test", out: "42 passing", exit: 0 },
    {
      say: "The root cause was redis not running for the ws_client reconnect test; " +
        "fixed by starting it with docker compose before the tests.",
    },
    { edit: "/w/app/src/ws_client.ts", old: "retry(0)", new: "retry(backoff)" },
    { say: "Changed the reconnect backoff in ws_client so the flaky retry waits." },
  ],
};

const METRICS: SessionSpec = {
  id: "b2b20002-0000-4000-8000-000000000002",
  cwd: "/w/app",
  start: "2026-10-05T10:00:00Z",
  turns: [
    { user: "Add the metrics endpoint for prometheus scraping to the server." },
    { bash: "npm run build", out: "built in 2s", exit: 0 },
    { say: "Decided to expose /metrics through prom-client; the build passes." },
    { write: "/w/app/src/metrics.ts", content: "export const metrics = 1;\n" },
  ],
};

const OTHER: SessionSpec = {
  id: "c3c30003-0000-4000-8000-000000000003",
  cwd: "/w/other",
  start: "2026-10-06T10:00:00Z",
  turns: [
    { user: "Investigate the websocket reconnect ECONNREFUSED in ws_client over here." },
    { say: "The root cause was a firewall rule blocking the websocket port." },
  ],
};

interface Ran {
  code: number;
  out: string;
  err: string;
}

function io(env: Env, args: string[], stdin: string | (() => Promise<string>), cwd = "/"): {
  io: IO;
  out: string[];
  err: string[];
} {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      args,
      env,
      cwd,
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      isTTY: false,
      errTTY: false,
      readStdin: () => typeof stdin === "string" ? Promise.resolve(stdin) : stdin(),
    },
  };
}

async function hook(env: Env, args: string[], event: unknown, cwd = "/"): Promise<Ran> {
  const x = io(env, args, typeof event === "string" ? event : JSON.stringify(event), cwd);
  const code = await main(x.io);
  return { code, out: x.out.join(""), err: x.err.join("") };
}

/** The context a Claude envelope carries, checking its shape and event name. */
function claude(r: Ran, event: string): string {
  assertEquals(r.code, 0);
  const v = JSON.parse(r.out);
  assertEquals(Object.keys(v), ["hookSpecificOutput"]);
  assertEquals(v.hookSpecificOutput.hookEventName, event);
  const t = v.hookSpecificOutput.additionalContext as string;
  assert(t.startsWith(`${FRAME_OPEN}\n${FRAME_PREAMBLE}\n`), t);
  assert(t.endsWith("</deja-recall>"), t);
  return t;
}

const bytes = (s: string) => new TextEncoder().encode(s).length;

async function withIndex(fn: (ix: MemoryIndex) => Promise<void>) {
  const ix = await indexSessions([WS, METRICS, OTHER]);
  try {
    await fn(ix);
  } finally {
    ix.cleanup();
  }
}

Deno.test("hook-context gives the project's last session once per agent session, within 2 KiB", () =>
  withIndex(async (ix) => {
    const ev = { session_id: "agent-1", cwd: "/w/app/src", source: "startup" };
    const t = claude(await hook(ix.env, ["hook-context"], ev), "SessionStart");
    assert(bytes(t) <= BUDGET.context, `${bytes(t)} bytes`);
    assertStringIncludes(t, `# deja context: claude · /w/app · ${METRICS.id}`);
    assertStringIncludes(t, "prom-client");
    // Resumed or cleared within the same agent session: nothing again.
    assertEquals((await hook(ix.env, ["hook-context"], { ...ev, source: "resume" })).out, "");
    // Another agent session hears it again.
    const again = await hook(ix.env, ["hook-context"], { ...ev, session_id: "agent-2" });
    assertStringIncludes(claude(again, "SessionStart"), METRICS.id);
  }));

// Trial 66: of 13 notes the newest 3 were shown, and nothing said ten more were kept.
Deno.test("hook-context says how many of the project's notes did not fit", () =>
  withIndex(async (ix) => {
    const t0 = Date.parse("2026-10-07T10:00:00Z");
    for (let i = 0; i < 13; i++) {
      const text = i === 0
        ? "IMPORTANT: never run flux suspend on flux-system"
        : `gotcha ${i}: ${"x".repeat(120)}`;
      await remember(ix.env, text, { project: "/w/app", cwd: "/w/app", now: t0 + i * 60_000 });
    }
    const ev = { session_id: "agent-n", cwd: "/w/app", source: "startup" };
    const t = claude(await hook(ix.env, ["hook-context"], ev), "SessionStart");
    assertStringIncludes(t, "Notes kept for this project (deja remember):\n- gotcha 12:");
    const shown = t.split("\n").filter((l) => /^- gotcha \d+:/.test(l)).length;
    assert(shown >= 1 && shown < 13, `${shown} shown`);
    assert(!t.includes("IMPORTANT"), "the oldest note did not fit");
    assertStringIncludes(t, `- … and ${13 - shown} more notes (deja search --harness deja`);
  }));

// Trial 68 F7: a note tagged `gotcha` was among the older notes left unsaid behind routine ones.
Deno.test("hook-context puts the notes tagged as warnings first, newest first among them", () =>
  withIndex(async (ix) => {
    const t0 = Date.parse("2026-10-07T10:00:00Z");
    const at = (i: number) => ({ project: "/w/app", cwd: "/w/app", now: t0 + i * 60_000 });
    await remember(ix.env, "redis lives in namespace redis, never redis.infra", {
      ...at(0),
      tags: ["gotcha"],
    });
    await remember(ix.env, "flux reconciles every 10 minutes", { ...at(1), tags: ["infra"] });
    await remember(ix.env, "keep the staging secrets sealed", { ...at(2), tags: ["important"] });
    for (let i = 3; i < 12; i++) {
      await remember(ix.env, `routine ${i}: ${"x".repeat(120)}`, at(i));
    }
    const ev = { session_id: "agent-g", cwd: "/w/app", source: "startup" };
    const t = claude(await hook(ix.env, ["hook-context"], ev), "SessionStart");
    const lines = t.split("\n");
    const head = lines.indexOf("Notes kept for this project (deja remember):");
    assert(head >= 0, t);
    assertStringIncludes(lines[head + 1], "keep the staging secrets sealed #important");
    assertStringIncludes(
      lines[head + 2],
      "redis lives in namespace redis, never redis.infra #gotcha",
    );
    assertStringIncludes(lines[head + 3], "routine 11:");
    assert(!t.includes("flux reconciles"), "an untagged-as-warning older note waits its turn");
    assertStringIncludes(t, "more notes (deja search --harness deja");
  }));

Deno.test("hooks read a session written since the last index before they answer (trial 16)", () =>
  withIndex(async (ix) => {
    // A session that ended after the last `deja index`, and the live one being compacted.
    const later: SessionSpec = {
      id: "d4d40004-0000-4000-8000-000000000004",
      cwd: "/w/app",
      start: "2026-10-09T10:00:00Z",
      turns: [
        { user: "Rotate the signing keys of the webhook verifier." },
        { say: "Decided to keep two keys live for a day; the verifier tries both." },
      ],
    };
    const live: SessionSpec = {
      id: "e5e50005-0000-4000-8000-000000000005",
      cwd: "/w/app",
      start: "2026-10-10T10:00:00Z",
      turns: [
        { user: "Move the nightly export to the cron worker." },
        { bash: "npm run export:nightly", out: "exported 1204 rows", exit: 0 },
      ],
    };
    const dir = join(ix.root, "claude", "-w-app");
    for (const s of [later, live]) {
      writeFileSync(join(dir, `${s.id}.jsonl`), claudeLines(s).join("\n") + "\n");
    }
    // With the refresh off, the hook answers from the index as it was: the session before.
    const off = {
      ...ix.env,
      get: (k: string) => k === "DEJA_HOOK_REFRESH_MS" ? "0" : ix.env.get(k),
    };
    const start = { session_id: live.id, cwd: "/w/app", source: "startup" };
    const stale = claude(await hook(off as Env, ["hook-context"], start), "SessionStart");
    assertStringIncludes(stale, METRICS.id);
    assertEquals(
      (await hook(off as Env, ["hook-precompact"], { session_id: live.id, cwd: "/w/app" })).out,
      "",
    );
    // By default the changed store is read first: the session that just ended is named.
    const t = claude(
      await hook(ix.env, ["hook-context"], start),
      "SessionStart",
    );
    assertStringIncludes(t, later.id);
    assertStringIncludes(t, "two keys");
    const pre = await hook(ix.env, ["hook-precompact"], { session_id: live.id, cwd: "/w/app" });
    assertStringIncludes(pre.out, "npm run export:nightly");
  }));

Deno.test("hook-context never digests the agent's own session", () =>
  withIndex(async (ix) => {
    const ev = { session_id: METRICS.id, cwd: "/w/app" };
    const t = claude(await hook(ix.env, ["hook-context"], ev), "SessionStart");
    assertStringIncludes(t, WS.id);
    assert(!t.includes(METRICS.id));
  }));

// Trial 66: `"not an event"` on stdin got the notes and digest of the process's cwd.
Deno.test("hook-context answers garbage with nothing, and an empty stdin by its working directory", () =>
  withIndex(async (ix) => {
    for (const junk of ['"not an event"', "[1, 2]", "hello {"]) {
      const r = await hook(ix.env, ["hook-context"], junk, "/w/app");
      assertEquals([r.code, r.out], [0, ""], junk);
    }
    const empty = await hook(ix.env, ["hook-context"], "", "/w/app");
    assertStringIncludes(claude(empty, "SessionStart"), METRICS.id);
  }));

Deno.test("hook-context is silent in a project without sessions", () =>
  withIndex(async (ix) => {
    const r = await hook(ix.env, ["hook-context"], { session_id: "s", cwd: "/w/none" });
    assertEquals([r.code, r.out], [0, ""]);
  }));

Deno.test("hook-prompt recalls this project's session on the prompt's topic, once", () =>
  withIndex(async (ix) => {
    const ev = {
      session_id: "agent-p",
      cwd: "/w/app",
      hook_event_name: "UserPromptSubmit",
      prompt: "the ws_client reconnect test is flaky again with ECONNREFUSED",
    };
    const t = claude(await hook(ix.env, ["hook-prompt"], ev), "UserPromptSubmit");
    assert(bytes(t) <= BUDGET.prompt, `${bytes(t)} bytes`);
    assertStringIncludes(t, `id ${WS.id.slice(0, 8)}`);
    assert(!t.includes(OTHER.id.slice(0, 8)), "another project's session stays out");
    assertStringIncludes(t, "concluded:");
    assertEquals((await hook(ix.env, ["hook-prompt"], ev)).out, "", "repeated prompt: silence");
  }));

Deno.test("hook-prompt is silent for chit-chat, slash commands and unknown words", () =>
  withIndex(async (ix) => {
    for (const prompt of ["hello, how are you today?", "/clear", "zqxv wubbalubba frobnik"]) {
      const r = await hook(ix.env, ["hook-prompt"], { session_id: "q", cwd: "/w/app", prompt });
      assertEquals([r.code, r.out], [0, ""], prompt);
    }
  }));

Deno.test("hook-prompt reads a prompt given as text parts and ignores deja's own frames", () =>
  withIndex(async (ix) => {
    const prompt = [{ type: "text", text: "prometheus metrics endpoint scraping" }];
    const t = claude(
      await hook(ix.env, ["hook-prompt"], { session_id: "parts", cwd: "/w/app", prompt }),
      "UserPromptSubmit",
    );
    assertStringIncludes(t, METRICS.id.slice(0, 8));
    const framed = `<deja-recall>\n${FRAME_PREAMBLE}\nprometheus metrics scraping\n</deja-recall>`;
    const r = await hook(ix.env, ["hook-prompt"], {
      session_id: "fr",
      cwd: "/w/app",
      prompt: framed,
    });
    assertEquals(r.out, "", "a prompt that is only deja's own recall asks nothing");
  }));

Deno.test("hook-tool notes a command that failed before, once, within 512 bytes", () =>
  withIndex(async (ix) => {
    const ev = {
      session_id: "agent-t",
      cwd: "/w/app",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm  test" },
    };
    const t = claude(await hook(ix.env, ["hook-tool"], ev), "PreToolUse");
    assert(bytes(t) <= BUDGET.tool, `${bytes(t)} bytes`);
    assertStringIncludes(t, "`npm test` ran in 1 earlier session here");
    assertStringIncludes(t, "1 of 2 runs failed");
    // Trial 75: and why it failed, not its exit status alone.
    assertStringIncludes(t, "It failed with: Error: connect ECONNREFUSED 127.0.0.1:6379 (redis)");
    assertEquals((await hook(ix.env, ["hook-tool"], ev)).out, "", "said once per agent session");
  }));

Deno.test("hook-tool notes a file an earlier session changed, and why", () =>
  withIndex(async (ix) => {
    const ev = {
      session_id: "agent-f",
      cwd: "/w/app",
      tool_name: "Edit",
      tool_input: { file_path: "/w/app/src/ws_client.ts", old_string: "a", new_string: "b" },
    };
    const t = claude(await hook(ix.env, ["hook-tool"], ev), "PreToolUse");
    assert(bytes(t) <= BUDGET.tool, `${bytes(t)} bytes`);
    assertStringIncludes(t, "`src/ws_client.ts` was changed in 1 earlier session");
    assertStringIncludes(t, WS.id.slice(0, 8));
    // What was said before the change is named so (trial 48: "Then: …" of a sentence said
    // before a write that succeeded).
    assertStringIncludes(t, "Before it: The root cause was redis not running");
  }));

Deno.test("hook-tool is silent for looking around, unknown tools and unknown files", () =>
  withIndex(async (ix) => {
    const cases = [
      { tool_name: "Bash", tool_input: { command: "ls -la" } },
      { tool_name: "Bash", tool_input: { command: "cd /w/app && git status" } },
      { tool_name: "Bash", tool_input: { command: "make deploy" } },
      { tool_name: "Read", tool_input: { file_path: "/w/app/src/ws_client.ts" } },
      { tool_name: "Write", tool_input: { file_path: "/w/app/src/new.ts", content: "x" } },
      { tool_name: "Bash", tool_input: "not an object" },
    ];
    for (const c of cases) {
      const r = await hook(ix.env, ["hook-tool"], { session_id: "z", cwd: "/w/app", ...c });
      assertEquals([r.code, r.out], [0, ""], JSON.stringify(c));
    }
  }));

Deno.test("hook-tool-after gives what fixed the error before, echoing the event name", () =>
  withIndex(async (ix) => {
    const failure = {
      session_id: "agent-a",
      cwd: "/w/app",
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      error: "Exit code 1\nError: connect ECONNREFUSED 127.0.0.1:6379",
    };
    const t = claude(await hook(ix.env, ["hook-tool-after"], failure), "PostToolUseFailure");
    assert(bytes(t) <= BUDGET.tool, `${bytes(t)} bytes`);
    assertStringIncludes(t, "`docker compose up -d redis`");
    assertEquals((await hook(ix.env, ["hook-tool-after"], failure)).out, "", "once");
    // An older Claude Code: PostToolUse with the exit status in the response.
    const post = {
      session_id: "agent-b",
      cwd: "/w/app",
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_response: {
        stdout: "",
        stderr: "Error: connect ECONNREFUSED 127.0.0.1:6379",
        exit_code: 1,
      },
    };
    assertStringIncludes(
      claude(await hook(ix.env, ["hook-tool-after"], post), "PostToolUse"),
      "docker compose up -d redis",
    );
  }));

Deno.test("hook-tool-after is silent after a command that succeeded or a tool that is no shell", () =>
  withIndex(async (ix) => {
    const ok = {
      session_id: "agent-c",
      cwd: "/w/app",
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_response: { stdout: "Error: connect ECONNREFUSED (expected in this test)", stderr: "" },
    };
    assertEquals((await hook(ix.env, ["hook-tool-after"], ok)).out, "");
    const edit = { ...ok, tool_name: "Edit", hook_event_name: "PostToolUseFailure", error: "x" };
    assertEquals((await hook(ix.env, ["hook-tool-after"], edit)).out, "");
  }));

Deno.test("hook-tool --crush answers in Crush's flat envelope with no decision field", () =>
  withIndex(async (ix) => {
    const ev = {
      event: "PreToolUse",
      session_id: "crush-1",
      cwd: "/w/app",
      tool_name: "bash",
      tool_input: { command: "npm test" },
    };
    const r = await hook(ix.env, ["hook-tool", "--crush"], ev);
    assertEquals(r.code, 0);
    const v = JSON.parse(r.out);
    assertEquals(Object.keys(v).sort(), ["context", "version"]);
    assertEquals(v.version, 1);
    assert(bytes(v.context) <= BUDGET.crush, `${bytes(v.context)} bytes`);
    // First call of the session: the project's last session, and the command's history.
    assertStringIncludes(v.context, METRICS.id);
    assertStringIncludes(v.context, "`npm test` ran in 1 earlier session");
    assertEquals(v.context.split(FRAME_OPEN).length, 2, "one frame");
    assertEquals((await hook(ix.env, ["hook-tool", "--crush"], ev)).out, "", "nothing twice");
  }));

Deno.test("hook-tool --crush without a session id gives no digest (it could not give it once)", () =>
  withIndex(async (ix) => {
    const ev = {
      event: "PreToolUse",
      cwd: "/w/app",
      tool_name: "bash",
      tool_input: { command: "ls" },
    };
    for (let i = 0; i < 2; i++) {
      const r = await hook(ix.env, ["hook-tool", "--crush"], ev);
      assertEquals([r.code, r.out], [0, ""]);
    }
  }));

Deno.test("every hook is silent and exits 0 on garbage, empty or truncated stdin", () =>
  withIndex(async (ix) => {
    for (const name of ["hook-context", "hook-prompt", "hook-tool", "hook-tool-after"]) {
      for (const input of ["", "garbage", "[1,2]", '{"session_id": "s", "cwd": "/w/ap', "\u0000"]) {
        const r = await hook(ix.env, [name, "--crush", "--bogus", "extra"], input);
        assertEquals([r.code, r.out, r.err], [0, "", ""], `${name} ${JSON.stringify(input)}`);
      }
    }
  }));

Deno.test("every hook is silent and exits 0 without an index, or with a corrupt one", async () => {
  const root = tempDir("deja-hooks-noidx-");
  try {
    const none = makeEnv({ HOME: root, DEJA_HOME: join(root, "none") }, root);
    mkdirSync(join(root, "bad"));
    writeFileSync(join(root, "bad", "index.db"), "this is not a database at all".repeat(100));
    const bad = makeEnv({ HOME: root, DEJA_HOME: join(root, "bad") }, root);
    mkdirSync(join(root, "dir", "index.db"), { recursive: true });
    const dir = makeEnv({ HOME: root, DEJA_HOME: join(root, "dir") }, root);
    const ev = {
      session_id: "s",
      cwd: "/w/app",
      prompt: "websocket reconnect ECONNREFUSED",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      error: "Error: connect ECONNREFUSED",
    };
    for (const env of [none, bad, dir]) {
      for (const name of ["hook-context", "hook-prompt", "hook-tool", "hook-tool-after"]) {
        const r = await hook(env, [name], ev);
        assertEquals([r.code, r.out, r.err], [0, "", ""], `${name} ${env.get("DEJA_HOME")}`);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("a hook exits 0 with nothing printed when something inside it throws", () =>
  withIndex(async (ix) => {
    const ev = JSON.stringify({ session_id: "s", cwd: "/w/app", source: "startup" });
    // The environment blows up after the event was read: an internal error.
    const throwing: Env = {
      home: ix.env.home,
      platform: ix.env.platform,
      get(name: string) {
        if (name === "DEJA_HOME") throw new Error("forced");
        return ix.env.get(name);
      },
    };
    const a = io(throwing, ["hook-context"], ev);
    assertEquals(await main(a.io), 0);
    assertEquals(a.out.join(""), "");
    // Writing the answer fails.
    const b = io(ix.env, ["hook-context"], ev);
    b.io.out = () => {
      throw new Error("EPIPE");
    };
    assertEquals(await main(b.io), 0);
  }));

Deno.test("a hook past its time budget says nothing", () =>
  withIndex(async (ix) => {
    const env = makeEnv({
      HOME: ix.env.home,
      DEJA_HOME: ix.env.get("DEJA_HOME"),
      DEJA_HOOK_DEADLINE_MS: "1",
    }, ix.env.home);
    const slow = () =>
      new Promise<string>((r) =>
        setTimeout(() => r(JSON.stringify({ session_id: "late", cwd: "/w/app" })), 20)
      );
    const x = io(env, ["hook-context"], slow);
    assertEquals(await main(x.io), 0);
    assertEquals(x.out.join(""), "");
    // Silent to the agent, but not without a trace (trial 55): the hooks' log says why.
    const log = readGiveUps(env);
    assertEquals(log.map((g) => g.hook), ["hook-context"]);
    assert(/^gave up after \d+ ms reading the event \(its budget is 1 ms\)$/.test(log[0].why));
  }));

Deno.test("a hook that gives up says why in the hooks' log, and doctor shows it", () =>
  withIndex(async (ix) => {
    // Trial 55: an event not complete when reading stopped was dropped without a trace.
    const cut = '{"session_id": "s", "cwd": "/w/app", "prompt": "websocket recon';
    assertEquals(await hook(ix.env, ["hook-prompt"], cut), { code: 0, out: "", err: "" });
    assertEquals(await hook(ix.env, ["hook-tool"], "garbage"), { code: 0, out: "", err: "" });
    // Empty stdin is a harness's way to run a hook with nothing to say: no give-up.
    await hook(ix.env, ["hook-context"], "");
    const log = readGiveUps(ix.env);
    assertEquals(log.map((g) => g.hook), ["hook-prompt", "hook-tool"]);
    assert(log[0].why.startsWith("stdin ended, or paused over 200 ms, before"), log[0].why);
    assert(!log[0].why.includes("websocket"), "the event's text is never logged");
    assertEquals(log[1].why, "stdin held no JSON object (7 bytes)");
    const d = await hook(ix.env, ["doctor"], "");
    assertStringIncludes(d.out, "hooks        2 answers given up in the last 7 days");
    assertStringIncludes(d.out, "hook-tool: stdin held no JSON object (7 bytes)");
    const j = JSON.parse((await hook(ix.env, ["doctor", "--json"], "")).out);
    assertEquals([j.hooks.gave_up, j.hooks.last[0].hook], [2, "hook-tool"]);
    // A run with nothing wrong writes nothing.
    await hook(ix.env, ["hook-prompt"], { session_id: "t", cwd: "/w/app", prompt: "hello" });
    assertEquals(readGiveUps(ix.env).length, 2);
  }));

Deno.test("hook help is still available from the command table", () =>
  withIndex(async (ix) => {
    const r = await hook(ix.env, ["hook-tool", "--help"], "");
    assertEquals(r.code, 0);
    assertStringIncludes(r.out, "hook-tool [--crush]");
  }));

Deno.test("every hook stays within its budget when the history is large", async () => {
  const long = (w: string, n: number) => Array.from({ length: n }, (_, i) => `${w}${i}`).join(" ");
  const cmd = `make build-${"x".repeat(600)}`;
  const big: SessionSpec = {
    id: "d4d40004-0000-4000-8000-000000000004",
    cwd: "/w/big",
    start: "2026-09-01T10:00:00Z",
    turns: [
      { user: `The zorblax pipeline breaks in quuxfeed again. ${long("context", 800)}` },
      ...Array.from({ length: 60 }, (_, i) => ({
        bash: `${cmd} --step ${i}`,
        out: `zorblax quuxfeed step ${i}\nError: zorblax quuxfeed exploded at stage ${i}`,
        exit: 1,
      })),
      { bash: cmd, out: "Error: zorblax quuxfeed exploded at stage 9", exit: 1 },
      ...Array.from({ length: 6 }, (_, i) => ({
        bash: `fixup-quuxfeed --variant ${i} ${"y".repeat(300)}`,
        out: "ok",
        exit: 0,
      })),
      {
        say: `The root cause was the zorblax quuxfeed cache; fixed by clearing it. ${
          long("because", 400)
        }`,
      },
      { edit: "/w/big/src/zorblax.ts", old: "a".repeat(3000), new: "b".repeat(3000) },
      { say: `Decided to keep the quuxfeed cache off. ${long("detail", 300)}` },
    ],
  };
  const others: SessionSpec[] = Array.from({ length: 3 }, (_, k) => ({
    ...big,
    id: `d4d40004-0000-4000-8000-00000000001${k}`,
    start: `2026-09-0${k + 2}T10:00:00Z`,
  }));
  const ix = await indexSessions([big, ...others]);
  try {
    const base = { session_id: "budget", cwd: "/w/big" };
    const runs: Array<[string, string, number, Record<string, unknown>]> = [
      ["hook-context", "SessionStart", BUDGET.context, { source: "startup" }],
      ["hook-prompt", "UserPromptSubmit", BUDGET.prompt, {
        prompt: `zorblax quuxfeed pipeline ${long("detail", 50)}`,
      }],
      ["hook-tool", "PreToolUse", BUDGET.tool, { tool_name: "Bash", tool_input: { command: cmd } }],
      ["hook-tool", "PreToolUse", BUDGET.tool, {
        tool_name: "Edit",
        tool_input: { file_path: "/w/big/src/zorblax.ts" },
      }],
      ["hook-tool-after", "PostToolUseFailure", BUDGET.tool, {
        hook_event_name: "PostToolUseFailure",
        tool_name: "Bash",
        error: "Exit code 1\nError: zorblax quuxfeed exploded at stage 3",
      }],
    ];
    for (const [name, event, budget, extra] of runs) {
      const t = claude(await hook(ix.env, [name], { ...base, ...extra }), event);
      assert(bytes(t) <= budget, `${name}: ${bytes(t)} > ${budget} bytes`);
    }
    const crush = await hook(ix.env, ["hook-tool", "--crush"], {
      ...base,
      session_id: "budget-crush",
      tool_name: "bash",
      tool_input: { command: cmd },
    });
    const v = JSON.parse(crush.out);
    assert(bytes(v.context) <= BUDGET.crush, `crush: ${bytes(v.context)} bytes`);
  } finally {
    ix.cleanup();
  }
});

Deno.test("assemble cuts a part to its own budget, defers what does not fit, drops what was said", () => {
  const state = { v: 1 as const, seen: ["old"] };
  const seen = new Set(state.seen);
  let advanced = 0;
  const out = assemble(
    [
      { said: { text: "é".repeat(400), keys: ["a"] }, budget: 100, advance: () => advanced++ },
      { said: { text: "said before", keys: ["old"] }, budget: 100, advance: () => advanced++ },
      { said: { text: "x".repeat(300), keys: ["big"] }, budget: 400, advance: () => advanced++ },
      { said: null, budget: 100, advance: () => advanced++ },
    ],
    state,
    seen,
    300,
  );
  assert(bytes(out) <= 300, `${bytes(out)} bytes`);
  assertStringIncludes(out, "é…");
  assert(!out.includes("said before"));
  assert(!out.includes("xxx"), "the big part waits");
  assertEquals(state.seen, ["old", "a"]);
  assertEquals(advanced, 3, "said, already said and nothing-to-say advance; the deferred one not");
});

Deno.test("hook-prompt falls back to its weightiest word when the others match nothing with it", async () => {
  // Trial 18: "what version of quokkamatic" said nothing: `version` is held, never with it.
  const filler = (i: number): SessionSpec => ({
    id: `f${String(i).padStart(7, "0")}-0000-4000-8000-000000000000`,
    cwd: "/w/app",
    start: "2026-09-01T10:00:00Z",
    turns: [
      { user: i < 3 ? `Bump the version of the logger ${i}.` : `Tidy the logger ${i}.` },
      { say: `Done with ${i}.` },
    ],
  });
  const quokka: SessionSpec = {
    id: "e7e70007-0000-4000-8000-000000000007",
    cwd: "/w/app",
    start: "2026-10-07T10:00:00Z",
    turns: [
      { user: "Upgrade the quokkamatic library to v2.3.1 and fix the throttling bug." },
      { say: "Upgraded quokkamatic; the throttling bug was a stale cache." },
    ],
  };
  const ix = await indexSessions([...Array.from({ length: 30 }, (_, i) => filler(i)), quokka]);
  try {
    const ev = { session_id: "agent-q", cwd: "/w/app", prompt: "what version of quokkamatic" };
    const t = claude(await hook(ix.env, ["hook-prompt"], ev), "UserPromptSubmit");
    assertStringIncludes(t, 'on "quokkamatic"');
    assertStringIncludes(t, "e7e70007");
  } finally {
    ix.cleanup();
  }
});

Deno.test("hook-prompt names the folder of a session under this one", async () => {
  // A session of the folder itself makes it a project; WS's is in a folder under it.
  const top: SessionSpec = {
    id: "d0d00010-0000-4000-8000-000000000010",
    cwd: "/w",
    start: "2026-10-02T10:00:00Z",
    turns: [{ user: "List the projects in this workspace." }, { say: "app and other." }],
  };
  const ix = await indexSessions([WS, METRICS, top]);
  try {
    // Trial 62: sessions of projects in folders under the agent's were listed "in this
    // project" with no path.
    const ev = {
      session_id: "agent-sub",
      cwd: "/w",
      prompt: "the ws_client reconnect test is flaky again with ECONNREFUSED",
    };
    const t = claude(await hook(ix.env, ["hook-prompt"], ev), "UserPromptSubmit");
    assertStringIncludes(t, `, in /w/app, id ${WS.id.slice(0, 8)})`);
    // In the project itself, no path is said.
    const own = claude(
      await hook(ix.env, ["hook-prompt"], { ...ev, session_id: "agent-own", cwd: "/w/app" }),
      "UserPromptSubmit",
    );
    assert(!own.includes(", in /w/app"), own);
  } finally {
    ix.cleanup();
  }
});

// Trial 48: a command that succeeded and printed an old error's text (a grep of notes, a
// warning on stderr) was handed that error's fix.
Deno.test("hook-tool-after is silent after a command that succeeded quoting an old error", () =>
  withIndex(async (ix) => {
    const old = "Error: connect ECONNREFUSED 127.0.0.1:6379";
    const base = {
      cwd: "/w/app",
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "grep -r ECONNREFUSED notes.txt" },
    };
    const cases: Array<[string, unknown]> = [
      // Claude Code's Bash result: PostToolUse fires only after a call that succeeded.
      ["c1", { stdout: `notes.txt: CI said ${old}`, stderr: "", interrupted: false }],
      ["c2", { stdout: "", stderr: `warning: ${old}`, interrupted: false, isImage: false }],
      // A status the text states: Gemini's `Exit Code: 0`, Codex's `Process exited with code 0`.
      ["g1", { llmContent: `Command: grep\nOutput: ${old}\nError: (none)\nExit Code: 0` }],
      ["x1", `Process exited with code 0\nOutput:\n${old}`],
    ];
    for (const [id, response] of cases) {
      const r = await hook(ix.env, ["hook-tool-after"], {
        ...base,
        session_id: `agent-ok-${id}`,
        tool_response: response,
      });
      assertEquals([id, r.code, r.out], [id, 0, ""]);
    }
    // The same text with a failing status still gets its fix.
    const failed = await hook(ix.env, ["hook-tool-after"], {
      ...base,
      session_id: "agent-bad",
      tool_response: `Process exited with code 1\nOutput:\n${old}`,
    });
    assertStringIncludes(failed.out, "docker compose up -d redis");
  }));

// Trial 48: "what did we decide about REDIS_URL" said nothing where "what about REDIS_URL"
// named the session: a rare word held only by another project's session stood in the way.
Deno.test("hook-prompt finds the project's session without a word only another project holds", () =>
  withIndex(async (ix) => {
    const ev = {
      session_id: "agent-rare",
      cwd: "/w/app",
      hook_event_name: "UserPromptSubmit",
      prompt: "what about the firewall and the flaky backoff",
    };
    const t = claude(await hook(ix.env, ["hook-prompt"], ev), "UserPromptSubmit");
    assertStringIncludes(t, `id ${WS.id.slice(0, 8)}`);
    assert(!t.includes(OTHER.id.slice(0, 8)), "another project's session stays out");
    // Two words held only elsewhere (trial 49: "remind me what we decided on REDIS_URL").
    const two = {
      ...ev,
      session_id: "agent-rare-2",
      prompt: "what about the firewall rule and the flaky backoff",
    };
    const u = claude(await hook(ix.env, ["hook-prompt"], two), "UserPromptSubmit");
    assertStringIncludes(u, `id ${WS.id.slice(0, 8)}`);
  }));

// Trial 49: before an edit of a file a past session removed, the note said nothing of it.
Deno.test("hook-tool says when the earlier session removed or moved the file after", async () => {
  const spec = (n: number, bash: string): SessionSpec => ({
    id: `e4e40049-0000-4000-8000-00000000000${n}`,
    cwd: `/w/p${n}`,
    start: "2026-10-01T10:00:00Z",
    turns: [
      { user: "tidy the logs folder please" },
      { write: `/w/p${n}/a.log`, content: "x\n" },
      { bash, out: "", exit: 0 },
      { say: "Cleaned up." },
    ],
  });
  const ix = await indexSessions([spec(1, "rm a.log"), spec(2, "mv a.log b.log")]);
  try {
    const ask = (n: number) =>
      hook(ix.env, ["hook-tool"], {
        session_id: `agent-fate-${n}`,
        cwd: `/w/p${n}`,
        tool_name: "Edit",
        tool_input: { file_path: `/w/p${n}/a.log`, old_string: "x", new_string: "y" },
      });
    assertStringIncludes(claude(await ask(1), "PreToolUse"), "It removed the file later.");
    assertStringIncludes(claude(await ask(2), "PreToolUse"), "It moved the file later to b.log.");
  } finally {
    ix.cleanup();
  }
});

// Trial 66: a note kept in a parent folder (the server ran in `~`) was offered to a new
// project below it as "Notes kept for this project".
Deno.test("hook-context takes no session or note of the home folder for a project below it", () =>
  withIndex(async (ix) => {
    const home = ix.env.home;
    await remember(ix.env, "kept in the home folder: deploy with make release-prod", {
      project: home,
      cwd: home,
      now: Date.parse("2026-10-07T10:00:00Z"),
    });
    const below = { session_id: "agent-h", cwd: join(home, "new-project"), source: "startup" };
    assertEquals((await hook(ix.env, ["hook-context"], below)).out, "");
    // In the home folder itself the note is its own.
    const there = { session_id: "agent-i", cwd: home, source: "startup" };
    assertStringIncludes(
      claude(await hook(ix.env, ["hook-context"], there), "SessionStart"),
      "kept in the home folder",
    );
  }));

// Trial 66: the newest session of the project was a "Hello?" the provider refused, and its
// digest was all the start context said.
Deno.test("hook-context passes over a newer session where nothing was done", async () => {
  const hello: SessionSpec = {
    id: "e5e50005-0000-4000-8000-000000000005",
    cwd: "/w/app",
    start: "2026-10-09T10:00:00Z",
    turns: [{ user: "Hello?" }],
  };
  const ix = await indexSessions([WS, METRICS, hello]);
  try {
    const ev = { session_id: "agent-z", cwd: "/w/app", source: "startup" };
    const t = claude(await hook(ix.env, ["hook-context"], ev), "SessionStart");
    assertStringIncludes(t, METRICS.id);
    assert(!t.includes(hello.id), t);
  } finally {
    ix.cleanup();
  }
});

// Trial 69: a "hi" answered with "Hello! How can I help you today?" stood for the last session.
Deno.test("hook-context passes over a newer greeting exchange, not a newer short question answered", async () => {
  const hi: SessionSpec = {
    id: "f6f60006-0000-4000-8000-000000000006",
    cwd: "/w/app",
    start: "2026-10-09T10:00:00Z",
    turns: [{ user: "hi" }, { say: "Hello! How can I help you today?" }],
  };
  const ix = await indexSessions([WS, METRICS, hi]);
  try {
    const ev = { session_id: "agent-hi", cwd: "/w/app", source: "startup" };
    const t = claude(await hook(ix.env, ["hook-context"], ev), "SessionStart");
    assertStringIncludes(t, METRICS.id);
    assert(!t.includes(hi.id.slice(0, 8)), t);
  } finally {
    ix.cleanup();
  }
  const asked: SessionSpec = {
    ...hi,
    turns: [{ user: "why does the websocket drop?" }, { say: "The proxy closes idle sockets." }],
  };
  const iy = await indexSessions([WS, METRICS, asked]);
  try {
    const ev = { session_id: "agent-q", cwd: "/w/app", source: "startup" };
    const t = claude(await hook(iy.env, ["hook-context"], ev), "SessionStart");
    assertStringIncludes(t, asked.id.slice(0, 8));
  } finally {
    iy.cleanup();
  }
});

// Trial 73: Gemini's background skill extraction (a subagent chat whose parent the index lacks)
// was digested as where the project's last session left off.
Deno.test("hook-context passes over a newer subagent whose parent the index lacks", async () => {
  const sub: SessionSpec = {
    id: "a9a90009-0000-4000-8000-000000000009",
    agent: "skillx",
    cwd: "/w/app",
    start: "2026-10-09T10:00:00Z",
    turns: [
      { user: "# Existing Skills: extract reusable skills from the sessions below" },
      { bash: "ls ~/.gemini/skills", out: "a b" },
      { say: "No new skill to extract." },
    ],
  };
  const ix = await indexSessions([WS, METRICS, sub]);
  try {
    const ev = { session_id: "agent-s", cwd: "/w/app", source: "startup" };
    const t = claude(await hook(ix.env, ["hook-context"], ev), "SessionStart");
    assertStringIncludes(t, METRICS.id);
    assert(!t.includes("Existing Skills"), t);
  } finally {
    ix.cleanup();
  }
  // Trial 75: a Claude Code compaction, whose summary of its parent stands for it, is taken.
  const compact: SessionSpec = {
    ...sub,
    agent: "acompact-0a1b2c3d4e5f6071",
    turns: [
      { user: "Summarize the conversation so far." },
      { say: "8. Current Work: the websocket retry is half done. 9. Next Step: add the backoff." },
    ],
  };
  const iy = await indexSessions([WS, METRICS, compact]);
  try {
    const ev = { session_id: "agent-c", cwd: "/w/app", source: "startup" };
    const t = claude(await hook(iy.env, ["hook-context"], ev), "SessionStart");
    assertStringIncludes(t, "the websocket retry is half done");
  } finally {
    iy.cleanup();
  }
});

// Trial 66: a notes file copied to another data folder, both indexed, listed every note twice.
Deno.test("hook-context says a note held twice once", () =>
  withIndex(async (ix) => {
    const t0 = Date.parse("2026-10-07T10:00:00Z");
    for (const [i, text] of ["deploy with make release", "deploy with make release"].entries()) {
      await remember(ix.env, text, { project: "/w/app", cwd: "/w/app", now: t0 + i * 60_000 });
    }
    const ev = { session_id: "agent-d", cwd: "/w/app", source: "startup" };
    const t = claude(await hook(ix.env, ["hook-context"], ev), "SessionStart");
    assertEquals(t.split("\n").filter((l) => l === "- deploy with make release").length, 1, t);
  }));

// Trial 68: once the live transcript held the prompt, a word only it held (`crashing`) was
// searched with the others, the live session left out, and the hook said nothing.
Deno.test("hook-prompt weighs a word by the sessions other than the agent's own", async () => {
  const prompt = "the flaky ws_client reconnect keeps zorbulating with ECONNREFUSED again";
  const live: SessionSpec = {
    id: "f6f60006-0000-4000-8000-000000000006",
    cwd: "/w/app",
    start: "2026-10-10T10:00:00Z",
    turns: [{ user: prompt }],
  };
  const ix = await indexSessions([WS, METRICS, OTHER, live]);
  try {
    const ev = { session_id: live.id, cwd: "/w/app", hook_event_name: "UserPromptSubmit", prompt };
    const t = claude(await hook(ix.env, ["hook-prompt"], ev), "UserPromptSubmit");
    assertStringIncludes(t, `id ${WS.id.slice(0, 8)}`);
    assert(!t.includes("zorbulating"), "the word only the live session holds is not searched");
  } finally {
    ix.cleanup();
  }
});

// Trial 68: a command run once in `~` was "ran in 1 earlier session here" in a brand-new
// project below it, and the prompt hook took `~` for "this project" too.
Deno.test("hook-tool and hook-prompt take no session of the home folder for a project below it", async () => {
  const inHome: SessionSpec = {
    id: "e7e70007-0000-4000-8000-000000000007",
    cwd: "/w",
    start: "2026-10-11T10:00:00Z",
    turns: [
      { user: "set up zsh completions for the starship prompt" },
      { bash: "npm run build", out: 'npm ERR! Missing script: "build"', exit: 1 },
    ],
  };
  const ix = await indexSessions([inHome]);
  try {
    // A home folder by name only: nothing is discovered under it (no refresh) and every
    // other location stays the test's own.
    const env = {
      ...ix.env,
      home: "/w",
      get: (k: string) => k === "HOME" ? "/w" : k === "DEJA_NO_REFRESH" ? "1" : ix.env.get(k),
    };
    const tool = (cwd: string) => ({
      session_id: `agent-${cwd}`,
      cwd,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm run build" },
    });
    assertEquals((await hook(env as Env, ["hook-tool"], tool("/w/code/new-app"))).out, "");
    assertStringIncludes(
      claude(await hook(env as Env, ["hook-tool"], tool("/w")), "PreToolUse"),
      "ran in 1 earlier session here",
    );
    const ask = {
      session_id: "agent-q",
      cwd: "/w/code/new-app",
      hook_event_name: "UserPromptSubmit",
      prompt: "set up zsh completions for the starship prompt",
    };
    assertEquals((await hook(env as Env, ["hook-prompt"], ask)).out, "");
  } finally {
    ix.cleanup();
  }
});

// Trial 75: the note before an edit fired only for the spelling the earlier session wrote
// (`C:\…`), not for `C:/…` or `c:\…`, which other harnesses on the same machine write.
Deno.test("hook-tool notes a Windows file changed before whatever its spelling", async () => {
  const win: SessionSpec = {
    id: "b7b70007-0000-4000-8000-000000000007",
    cwd: "C:\\w\\app",
    start: "2026-10-09T10:00:00Z",
    turns: [
      { user: "Bind the model switch to Alt+M." },
      { edit: "C:\\w\\app\\keybindings.json", old: "alt+n", new: "alt+m" },
      { say: "Rebound the model switch to Alt+M." },
    ],
  };
  const ix = await indexSessions([win]);
  try {
    for (
      const [i, path] of ["C:/w/app/keybindings.json", "c:\\w\\app\\keybindings.json"].entries()
    ) {
      const ev = {
        session_id: `agent-w${i}`,
        cwd: "C:\\w\\app",
        tool_name: "Edit",
        tool_input: { file_path: path, old_string: "a", new_string: "b" },
      };
      const t = claude(await hook(ix.env, ["hook-tool"], ev), "PreToolUse");
      assertStringIncludes(t, "was changed in 1 earlier session");
    }
  } finally {
    ix.cleanup();
  }
});

// Trial 75: a file whose every earlier change failed got no note, the failure the next agent
// would meet again ("you must read the file before editing it") unsaid.
Deno.test("hook-tool says an earlier session's changes of the file failed, and why", async () => {
  const failing: SessionSpec = {
    id: "c8c80008-0000-4000-8000-000000000008",
    cwd: "/w/app",
    start: "2026-10-09T10:00:00Z",
    turns: [
      { user: "Rename the frontend deployment." },
      {
        edit: "/w/app/deploy.yaml",
        old: "name: a",
        new: "name: b",
        fail: true,
        out: "you must read the file before editing it",
      },
      { say: "Renamed the deployment." },
    ],
  };
  const ix = await indexSessions([failing]);
  try {
    const ev = {
      session_id: "agent-ff",
      cwd: "/w/app",
      tool_name: "Edit",
      tool_input: { file_path: "/w/app/deploy.yaml", old_string: "a", new_string: "b" },
    };
    const t = claude(await hook(ix.env, ["hook-tool"], ev), "PreToolUse");
    assertStringIncludes(t, "Changes of `deploy.yaml` failed in 1 earlier session");
    assertStringIncludes(t, ": you must read the file before editing it");
  } finally {
    ix.cleanup();
  }
});

// Trial 75 F2: the note quoted the earlier reply's claim after the change ("After it: Updated
// to Alt+M. That should work") where the same session shows it false: another change of that
// turn failed, and the user's next message was "does not work".
Deno.test("hook-tool reads the reply after an earlier change with what refutes it", async () => {
  const claimed: SessionSpec = {
    id: "d9d90009-0000-4000-8000-000000000009",
    cwd: "/w/app",
    start: "2026-10-09T10:00:00Z",
    turns: [
      { user: "Rename the frontend deployment and update the kustomization." },
      { edit: "/w/app/kustomization.yaml", old: "a.yaml", new: "b.yaml" },
      {
        edit: "/w/app/frontend.yaml",
        old: "name: a",
        new: "name: b",
        fail: true,
        out: "you must read the file before editing it",
      },
      { say: "Changes applied: frontend deployment renamed and updated." },
      { user: "does not work, the old deployment is still there" },
      { say: "Try applying the kustomization again." },
    ],
  };
  const quiet: SessionSpec = {
    id: "d9d9000a-0000-4000-8000-00000000000a",
    cwd: "/w/lib",
    start: "2026-10-09T11:00:00Z",
    turns: [
      { user: "Bump the version." },
      { edit: "/w/lib/version.txt", old: "1", new: "2" },
      { say: "Bumped the version to 2." },
      { user: "thanks, now tag it" },
    ],
  };
  const ix = await indexSessions([claimed, quiet]);
  try {
    const ev = (cwd: string, file: string) => ({
      session_id: "agent-refuted",
      cwd,
      tool_name: "Edit",
      tool_input: { file_path: file, old_string: "a", new_string: "b" },
    });
    const t = claude(
      await hook(ix.env, ["hook-tool"], ev("/w/app", "/w/app/kustomization.yaml")),
      "PreToolUse",
    );
    assertStringIncludes(
      t,
      "After it, though changes of 1 file in that turn had failed (`frontend.yaml`): " +
        "Changes applied: frontend deployment renamed and updated.",
    );
    assertStringIncludes(
      t,
      "The user's next message: “does not work, the old deployment is still there”",
    );
    const q = claude(
      await hook(ix.env, ["hook-tool"], ev("/w/lib", "/w/lib/version.txt")),
      "PreToolUse",
    );
    assertStringIncludes(q, "After it: Bumped the version to 2.");
    assert(!q.includes("had failed") && !q.includes("next message"), q);
  } finally {
    ix.cleanup();
  }
});

/** What the prompt hook (Claude Code's dialect) adds for `prompt` typed in folder `cwd`. */
async function promptIn(env: Env, cwd: string, prompt: string, session: string): Promise<string> {
  const ev = { session_id: session, cwd, hook_event_name: "UserPromptSubmit", prompt };
  return claude(await hook(env, ["hook-prompt"], ev), "UserPromptSubmit");
}

/**
 * Twenty sessions of other work in other folders (ids `<prefix>0000-…`), so that the words of
 * the session a test recalls are rare.
 */
function otherWork(prefix: string): SessionSpec[] {
  return Array.from({ length: 20 }, (_, i) => `module${i}`).map((w, i) => ({
    id: `${prefix}${String(i).padStart(4, "0")}-0000-4000-8000-000000000000`,
    cwd: `/w/${w}`,
    start: "2026-10-08T10:00:00Z",
    turns: [{ user: `rename the ${w} module` }, { say: `Renamed the ${w} module.` }],
  }));
}

// Trial 85 F4: the prompt hook quoted "Updated to `Alt+M`. That should work" as what the
// session concluded, and left out the user's next message, "does not work".
Deno.test("hook-prompt gives a conclusion with the user's next message when it reports a problem", async () => {
  const keys: SessionSpec = {
    id: "e1e1000e-0000-4000-8000-00000000000e",
    cwd: "/w/dash",
    start: "2026-10-09T10:00:00Z",
    turns: [
      { user: "Rebind the zorbel picker to Alt+M." },
      { edit: "/w/dash/keybindings.json", old: "ctrl+p", new: "alt+m" },
      { say: "Fixed it by rebinding the zorbel picker to Alt+M." },
      { user: "does not work, the zorbel picker still opens on Ctrl+P" },
    ],
  };
  // Other work, so the words of this one are rare.
  const others = otherWork("e1e1");
  const ix = await indexSessions([keys, ...others]);
  try {
    const t = await promptIn(
      ix.env,
      "/w/dash",
      "the zorbel picker keybinding is broken again",
      "agent-k",
    );
    assertStringIncludes(t, "concluded: Fixed it by rebinding the zorbel picker to Alt+M.");
    assertStringIncludes(
      t,
      "(the user's next message: “does not work, the zorbel picker still opens on Ctrl+P”)",
    );
  } finally {
    ix.cleanup();
  }
});

// Trial 93 F10: a reply that offered a hypothesis ("likely caused") was labelled "concluded".
Deno.test("hook-prompt labels a recalled reply that hedges as guessed, not concluded", async () => {
  const guess: SessionSpec = {
    id: "e1e7100f-0000-4000-8000-00000000000f",
    cwd: "/w/dash",
    start: "2026-10-09T10:00:00Z",
    turns: [
      { user: "why did the zorbel backfill tests break after the quibble commit?" },
      {
        say: "Here's why the quibble commit likely broke the zorbel backfill tests. The " +
          "problem is that the getter returns false, yet the template still evaluates it.",
      },
    ],
  };
  const ix = await indexSessions([guess, ...otherWork("e1e8")]);
  try {
    const t = await promptIn(
      ix.env,
      "/w/dash",
      "the zorbel backfill tests broke again after quibble",
      "agent-g",
    );
    assertStringIncludes(t, "id e1e7100f");
    assertStringIncludes(t, "guessed: ");
    assert(!t.includes("concluded:"), t);
  } finally {
    ix.cleanup();
  }
});

// Trial 85 F8: a session whose last request got no reply was recalled on its words alone, as
// if the matter had been handled.
Deno.test("hook-prompt says a recalled session's last request got no reply", async () => {
  const failed: SessionSpec = {
    id: "e1e1100f-0000-4000-8000-00000000000f",
    cwd: "/w/dash",
    start: "2026-10-09T10:00:00Z",
    turns: [
      { user: "The zorbel container cannot find the quibble executable in PATH." },
      { say: "Let me look at how the zorbel image installs quibble." },
      { user: "quibble executable not found in PATH again, fix the zorbel image" },
    ],
  };
  const others = otherWork("e1e2");
  const ix = await indexSessions([failed, ...others]);
  try {
    const t = await promptIn(ix.env, "/w/dash", "the zorbel image cannot find quibble", "agent-q");
    assertStringIncludes(t, "id e1e1100f");
    assertStringIncludes(t, "ended: no reply followed the last message");
  } finally {
    ix.cleanup();
  }
});

// Trial 89 F5: a session whose command failed, no reply after it, was recalled on its prompt.
Deno.test("hook-prompt says a recalled session ended on calls no reply followed", async () => {
  const failed: SessionSpec = {
    id: "e1e5100f-0000-4000-8000-00000000000f",
    cwd: "/w/dash",
    start: "2026-10-09T10:00:00Z",
    turns: [
      { user: "migrate the zorbel schema" },
      { bash: "make migrate-zorbel", out: "relation zorbel does not exist", exit: 2 },
    ],
  };
  const others = otherWork("e1e6");
  const ix = await indexSessions([failed, ...others]);
  try {
    const t = await promptIn(ix.env, "/w/dash", "the zorbel schema migration again", "agent-m");
    assertStringIncludes(t, "id e1e5100f");
    assertStringIncludes(t, "ended: no reply followed the last tool calls");
  } finally {
    ix.cleanup();
  }
});

// Trial 89 F8: Codex ids of sessions begun within a minute share their first 8 characters; the
// hook named both by them, and its own `deja ctx <id>` hint matched two sessions.
Deno.test("hook-prompt names a recalled session by an id no other session shares", async () => {
  const twin = (n: string, say: string): SessionSpec => ({
    id: `e1e3aaaa-${n}-4000-8000-00000000000f`,
    cwd: "/w/dash",
    start: "2026-10-09T10:00:00Z",
    turns: [{ user: "the zorbel quibble cache is stale" }, { say }],
  });
  const others = otherWork("e1e4");
  const ix = await indexSessions([
    twin("0000", "Cleared the zorbel quibble cache."),
    twin("1111", "Rebuilt the zorbel quibble cache."),
    ...others,
  ]);
  try {
    const t = await promptIn(ix.env, "/w/dash", "zorbel quibble cache stale again", "agent-t");
    assert(!t.includes("id e1e3aaaa)"), t);
    assert(/id e1e3aaaa-[01]{3}\)/.test(t), t);
  } finally {
    ix.cleanup();
  }
});

// Trial 85 F2, F3: a Windows path the index holds with mixed separators, a relative Windows
// path and one typed lower-cased got no note.
Deno.test("hook-tool notes a Windows file whatever its separators, letter case or relativity", async () => {
  const win: SessionSpec = {
    id: "b7b7000f-0000-4000-8000-00000000000f",
    cwd: "C:\\w\\vault",
    start: "2026-10-09T10:00:00Z",
    turns: [
      { user: "Tidy the conventions and the setup notes." },
      { edit: "C:\\w\\vault\\!/CONVENTIONS.md", old: "a", new: "b" },
      { edit: "C:\\w\\vault\\.op\\SETUP.md", old: "a", new: "b" },
      { say: "Tidied both." },
    ],
  };
  const ix = await indexSessions([win]);
  try {
    const tries = [
      "C:\\w\\vault\\!\\CONVENTIONS.md",
      "c:\\w\\vault\\!\\conventions.md",
      ".op\\SETUP.md",
      ".op/SETUP.md",
      "c:\\W\\VAULT\\.op\\setup.md",
    ];
    for (const [i, path] of tries.entries()) {
      const ev = {
        session_id: `agent-v${i}`,
        cwd: "C:\\w\\vault",
        tool_name: "Edit",
        tool_input: { file_path: path, old_string: "a", new_string: "b" },
      };
      const t = claude(await hook(ix.env, ["hook-tool"], ev), "PreToolUse");
      assertStringIncludes(t, "was changed in 1 earlier session", path);
    }
  } finally {
    ix.cleanup();
  }
});
