/**
 * The deja round trip through the real Claude Code (pinned in the farm's
 * harness module, installed from npm into ~/.cache/deja-farm and reused)
 * against the farm's mock model, offline. In a fresh HOME a seeded Claude
 * Code store is indexed and `deja install claude-code claude-auto` is run,
 * both by the compiled binary; then one `claude -p` runs inside the farm's
 * loopback-only sandbox (when one can be made) with the round-trip script of
 * tests/farm/roundtrip.ts. The mock's request log must show: the `deja` MCP
 * tool offered to the model; the seeded decision in the tool result of the
 * scripted recall call; the context of every wired hook (SessionStart,
 * UserPromptSubmit, PreToolUse, PostToolUseFailure) in the requests; and no
 * attempt to reach anything but 127.0.0.1. Skipped, with the reason printed,
 * only when the package cannot be installed.
 *
 * The run directory is under the farm cache (or ~/.cache/deja-farm when that
 * is a temp directory), not /tmp: deja's recall leaves out sessions of
 * throwaway (temp) projects. It is removed when the test
 * passes (kept with DEJA_ROUNDTRIP_KEEP=1) and named in the failure message.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { isThrowaway } from "../lib/search/junk.ts";
import { runBinary } from "./_binary.ts";
import { REPO } from "./_fixture.ts";
import { claude } from "./farm/harnesses/claude.ts";
import { ensureInstalled, farmCache } from "./farm/install.ts";
import { makeProject } from "./farm/play.ts";
import { sandboxPrefix } from "./farm/run.ts";
import { type LoggedRequest, readLog } from "./farm/mock_model.ts";
import {
  CHECK_CMD,
  DECISION,
  DEJA_TOOL,
  RECALL_ARGS,
  RESTORE_CMD,
  seedStore,
  tags,
  TOOL_SEARCH,
} from "./farm/roundtrip.ts";
import type { RoundTripJob, RoundTripPlayed } from "./farm/roundtrip_play.ts";

/** Seconds claude may run (its process group is killed then); the whole play gets 60 more. */
const CLAUDE_TIMEOUT_S = 120;

type Obj = Record<string, unknown>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v as Obj[] : []);

/** Every string inside `v`, depth first. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === "object") Object.values(v).forEach((x) => strings(x, out));
  return out;
}

/**
 * What each hook said in a request, by Claude Code's label for it
 * (`SessionStart`, `PreToolUse:Bash`, …): the deja frame that follows
 * "<label> hook additional context: " outside tool results.
 */
function hookBlocks(body: Obj): Map<string, string> {
  const outside = arr(body.messages).map((m) => ({
    ...m,
    content: Array.isArray(m.content)
      ? m.content.filter((b: Obj) => b.type !== "tool_result")
      : m.content,
  }));
  const text = strings([outside, body.system]).join("\n");
  const out = new Map<string, string>();
  const re = /([\w:]+) hook additional context: (<deja-recall>[\s\S]*?<\/deja-recall>)/g;
  for (const m of text.matchAll(re)) out.set(m[1], m[2]);
  return out;
}

/** The text of the tool results answering a `name` call in a request. */
function resultsFor(body: Obj, name: string): string {
  const ids = new Set<string>();
  const out: string[] = [];
  for (const m of arr(body.messages)) {
    for (const b of arr(m.content)) {
      if (b.type === "tool_use" && b.name === name) ids.add(String(b.id));
      if (b.type === "tool_result" && ids.has(String(b.tool_use_id))) {
        out.push(...strings(b.content));
      }
    }
  }
  return out.join("\n");
}

/** Runs `argv` in its own process group; SIGKILL to the group after `ms`. */
function runKilled(argv: string[], ms: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const chunks: string[] = [];
    const child = spawn(argv[0], argv.slice(1), {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    });
    const keep = (c: Uint8Array) => chunks.push(new TextDecoder().decode(c));
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    const timer = setTimeout(() => {
      chunks.push(`\nkilled after ${ms} ms`);
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch { /* gone */ }
    }, ms);
    child.on("error", (e) => chunks.push(`spawn failed: ${e.message}`));
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out: chunks.join("").slice(-4000) });
    });
  });
}

Deno.test("claude code round trip: deja tool offered, recalled decision and every hook's context reach the model when run against the mock", async () => {
  const t0 = performance.now();
  const spec = `${claude.pkg}@${claude.version}`;
  const inst = ensureInstalled(farmCache(process.env), [spec]);
  if (!inst.ok) {
    console.log(`skipped: cannot install ${spec}: ${inst.error}`);
    return;
  }
  const installS = (performance.now() - t0) / 1000;
  // Recall leaves projects in temp directories out, so the run needs a directory outside them:
  // the farm cache, else the repository's own (git-ignored) .farm-runs. With both under a temp
  // directory (HOME and the checkout in /tmp) the round trip cannot be judged here: skipped.
  const base = [join(farmCache(process.env), "runs"), join(REPO, ".farm-runs")]
    .find((d) => !isThrowaway(d));
  if (!base) {
    console.log("skipped: the farm cache and the checkout are both under a temp directory");
    return;
  }
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, "claude-roundtrip-"));
  const home = join(dir, "home");
  makeProject(join(dir, "project"));
  const project = realpathSync(join(dir, "project"));
  for (const [rel, text] of Object.entries(seedStore(project, Date.now()))) {
    const file = join(home, ".claude", "projects", rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  // What the farm's run environment gives claude, and so its hooks and MCP server.
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
    NO_COLOR: "1",
  };
  const indexed = runBinary(["index"], env, project);
  assertEquals(indexed.code, 0, indexed.stderr);
  const wired = runBinary(["install", "claude-code", "claude-auto"], env, project);
  assertEquals(wired.code, 0, wired.stderr);

  const sandbox = sandboxPrefix();
  const prefix = "prefix" in sandbox ? sandbox.prefix : [];
  if ("none" in sandbox) console.log(`claude round trip runs without a sandbox: ${sandbox.none}`);
  const id = Math.random().toString(36).slice(2, 8).replace(/[^a-z0-9]/g, "x").padEnd(6, "q");
  const job: RoundTripJob = {
    harness: claude.name,
    dir,
    pkgDir: inst.prefix,
    pathPrefix: [],
    basePath: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    scenario: { id, steps: [] },
    timeoutS: CLAUDE_TIMEOUT_S,
  };
  writeFileSync(join(dir, "job.json"), JSON.stringify(job));
  const script = join(REPO, "tests/farm/roundtrip_play.ts");
  const p = await runKilled(
    [...prefix, process.execPath, "run", "-A", "--quiet", script, join(dir, "job.json")],
    (CLAUDE_TIMEOUT_S + 60) * 1000,
  );
  const kept = `run directory kept: ${dir}`;
  assert(
    existsSync(join(dir, "played.json")),
    `the play did not finish (${p.code}): ${p.out}\n${kept}`,
  );
  const played = JSON.parse(readFileSync(join(dir, "played.json"), "utf8")) as RoundTripPlayed;
  const log: LoggedRequest[] = readLog(readFileSync(join(dir, "requests.jsonl"), "utf8"));
  const why = `claude: exit ${played.exit}${played.timedOut ? " (killed: timed out)" : ""}\n` +
    `${played.tail}\n${kept}`;
  assertEquals([played.exit, played.timedOut], [0, false], why);

  // Nothing tried to leave 127.0.0.1 (a proxied request or CONNECT naming another host is logged).
  assertEquals(log.filter((r) => r.route === "outbound").map((r) => r.path), [], why);
  const model = log.filter((r) => r.route === "anthropic" && r.reply?.turn === "main");
  const calls = model.map((r) => r.reply?.tool ?? "answer");
  assertEquals(calls.filter((c) => c !== TOOL_SEARCH), ["Bash", DEJA_TOOL, "answer"], why);
  const body = (i: number) => model[i].body as Obj;

  // 1. deja's MCP tool is offered. Claude Code defers MCP tools: the first request names it among
  // the deferred tools; once ToolSearch loaded it, the tool list holds it with its schema.
  assertStringIncludes(JSON.stringify(body(0)), DEJA_TOOL);
  const listed = model.map((r) => arr((r.body as Obj).tools).find((t) => t.name === DEJA_TOOL));
  const tool = listed.find(Boolean);
  assert(tool, `${DEJA_TOOL} in a tool list\n${why}`);
  const schema = tool.input_schema as { required: string[]; properties: Obj };
  assertEquals(schema.required, ["mode"]);
  assert((schema.properties.mode as { enum: string[] }).enum.includes("recall"));
  const at = calls.indexOf(DEJA_TOOL);
  assert(listed[at], `the tool list of the request that called ${DEJA_TOOL} holds it`);
  assertEquals(model[at].reply?.args, RECALL_ARGS);

  // 2. The scripted recall's result, sent back in the next request, holds the seeded decision.
  const result = resultsFor(body(at + 1), DEJA_TOOL);
  assertStringIncludes(result, "<deja-recall>", why);
  assertStringIncludes(result, DECISION);

  // 3. Every hook's context reaches the model: SessionStart and UserPromptSubmit in the first
  // request, PreToolUse and PostToolUseFailure (the check script is missing here) after the Bash call.
  const first = hookBlocks(body(0));
  const afterBash = hookBlocks(body(calls.indexOf("Bash") + 1));
  const said = (m: Map<string, string>) => [...m].map(([k, v]) => `${k}: ${v}`).join("\n");
  assertEquals([...first.keys()].sort(), ["SessionStart", "UserPromptSubmit"], said(first));
  assertStringIncludes(first.get("SessionStart")!, DECISION, "the last session's digest");
  assertStringIncludes(first.get("UserPromptSubmit")!, DECISION, "the recall for the prompt");
  const pre = afterBash.get("PreToolUse:Bash");
  assert(pre, `PreToolUse context after the Bash call:\n${said(afterBash)}`);
  assertStringIncludes(pre, `\`${CHECK_CMD}\``);
  assertStringIncludes(pre, DECISION);
  const fix = afterBash.get("PostToolUseFailure:Bash");
  assert(fix, `PostToolUseFailure context after the failed Bash call:\n${said(afterBash)}`);
  assertStringIncludes(fix, `\`${RESTORE_CMD}\``);
  assertStringIncludes(played.tail, tags(id).answer);

  console.log(
    `claude round trip: Claude Code ${claude.version}, ${model.length} model requests; install ` +
      `${inst.cached ? "cached" : "fresh"} ${installS.toFixed(1)} s, claude ${
        (played.ms / 1000).toFixed(1)
      } s, total ${((performance.now() - t0) / 1000).toFixed(1)} s` +
      (prefix.length ? ` (${"kind" in sandbox ? sandbox.kind : ""})` : " (no sandbox)"),
  );
  if (!process.env.DEJA_ROUNDTRIP_KEEP) rmSync(dir, { recursive: true, force: true });
});
