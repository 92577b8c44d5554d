/**
 * The deja round trip through the real Claude Code (pinned, from npm, cached
 * in ~/.cache/deja-farm) against the farm's mock model, offline: in a temp
 * HOME with a seeded Claude Code store indexed and `deja install claude-code
 * claude-auto` done by the compiled binary, one `claude -p` run in the
 * farm's loopback-only sandbox (when one can be made). The mock's request log
 * must show the `deja` MCP tool in the tool list, the seeded decision coming
 * back in the tool result of the scripted recall call, and the hooks'
 * context (SessionStart, UserPromptSubmit) in the requests; nothing may have
 * tried to leave 127.0.0.1. Skipped, with the reason printed, only when the
 * package cannot be installed.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { binary, runBinary } from "./_binary.ts";
import { REPO } from "./_fixture.ts";
import { claude } from "./farm/harnesses/claude.ts";
import { ensureInstalled, farmCache } from "./farm/install.ts";
import { makeProject } from "./farm/play.ts";
import { sandboxPrefix } from "./farm/run.ts";
import { type LoggedRequest, readLog } from "./farm/mock_model.ts";
import { DECISION, DEJA_TOOL, RECALL_ARGS, seedStore, tags } from "./farm/roundtrip.ts";
import type { RoundTripJob, RoundTripPlayed } from "./farm/roundtrip_play.ts";

/** Seconds claude may run; the whole sandboxed play gets 60 more. */
const CLAUDE_TIMEOUT_S = 120;

type Obj = Record<string, unknown>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v as Obj[] : []);

/** Text of a tool_result's content (a string or text blocks). */
function resultText(c: unknown): string {
  return typeof c === "string" ? c : arr(c).map((b) => String(b.text ?? "")).join("\n");
}

/** The tool_result blocks answering a `name` tool_use, across a request's messages. */
function resultsFor(body: Obj, name: string): string[] {
  const ids = new Set<string>();
  const out: string[] = [];
  for (const m of arr(body.messages)) {
    for (const b of arr(m.content)) {
      if (m.role === "assistant" && b.type === "tool_use" && b.name === name) {
        ids.add(String(b.id));
      }
      if (m.role === "user" && b.type === "tool_result" && ids.has(String(b.tool_use_id))) {
        out.push(resultText(b.content));
      }
    }
  }
  return out;
}

Deno.test("claude code round trip: deja tool offered, recalled decision and hook context reach the model when run against the mock", () => {
  const t0 = performance.now();
  const spec = `${claude.pkg}@${claude.version}`;
  const inst = ensureInstalled(farmCache(process.env), [spec]);
  if (!inst.ok) {
    console.log(`skipped: cannot install ${spec}: ${inst.error}`);
    return;
  }
  const tInstall = performance.now();
  // Not under /tmp: deja's recall leaves out sessions of throwaway (temp) projects.
  const base = join(farmCache(process.env), "runs");
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, "claude-roundtrip-"));
  const home = join(dir, "home");
  const project = join(dir, "project");
  makeProject(project);
  const real = realpathSync(project);
  for (const [rel, text] of Object.entries(seedStore(real, Date.now()))) {
    const file = join(home, ".claude", "projects", rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  // The variables the farm's run environment gives claude (and so its hooks and MCP server).
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
    NO_COLOR: "1",
  };
  const indexed = runBinary(["index"], env, real);
  assertEquals(indexed.code, 0, indexed.stderr);
  const wired = runBinary(["install", "claude-code", "claude-auto"], env, real);
  assertEquals(wired.code, 0, wired.stderr);
  const settings = JSON.parse(readFileSync(join(home, ".claude/settings.json"), "utf8"));
  assertEquals(Object.keys(settings.hooks).sort(), [
    "PostToolUse",
    "PreToolUse",
    "SessionStart",
    "UserPromptSubmit",
  ]);

  const sandbox = sandboxPrefix();
  const prefix = "prefix" in sandbox ? sandbox.prefix : [];
  if (!prefix.length) {
    console.log(`claude round trip without a sandbox: ${"none" in sandbox && sandbox.none}`);
  }
  const id = Math.random().toString(36).slice(2, 8).replace(/[^a-z0-9]/g, "x").padEnd(6, "q");
  const job: RoundTripJob = {
    harness: claude.name,
    dir,
    pkgDir: inst.prefix,
    pathPrefix: [dirname(binary())],
    basePath: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    scenario: { id, steps: [] },
    timeoutS: CLAUDE_TIMEOUT_S,
  };
  writeFileSync(join(dir, "job.json"), JSON.stringify(job));
  const script = join(REPO, "tests/farm/roundtrip_play.ts");
  const argv = [...prefix, process.execPath, "run", "-A", "--quiet", script, join(dir, "job.json")];
  const p = spawnSync(argv[0], argv.slice(1), {
    encoding: "utf8",
    timeout: (CLAUDE_TIMEOUT_S + 60) * 1000,
    killSignal: "SIGKILL",
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    maxBuffer: 1 << 26,
  });
  const played = JSON.parse(readFileSync(join(dir, "played.json"), "utf8")) as RoundTripPlayed;
  const log: LoggedRequest[] = readLog(readFileSync(join(dir, "requests.jsonl"), "utf8"));
  const why =
    `claude: exit ${played.exit}${played.timedOut ? " (timed out)" : ""}\n${played.tail}` +
    `\nplay: ${p.status} ${p.stderr}\nrun dir kept: ${dir}`;
  assertEquals([played.exit, played.timedOut], [0, false], why);

  // Nothing left 127.0.0.1: no proxy request naming another host, no CONNECT.
  assertEquals(log.filter((r) => r.route === "outbound").map((r) => r.path), [], why);
  const model = log.filter((r) => r.route === "anthropic" && r.reply?.turn === "main");
  assert(model.length >= 2, `two model requests in the task turn, got ${model.length}\n${why}`);

  // 1. The tool list Claude sends holds deja's MCP tool. Claude Code defers MCP tools: the first
  // request names it among the deferred tools, and once ToolSearch loaded it the tool list holds it.
  const first = model[0].body as Obj;
  const names = (r: LoggedRequest) => arr((r.body as Obj).tools).map((t) => String(t.name));
  assert(
    names(model[0]).includes(DEJA_TOOL) || JSON.stringify(first).includes(DEJA_TOOL),
    `the first request names ${DEJA_TOOL}`,
  );
  const offered = model.find((r) => names(r).includes(DEJA_TOOL));
  assert(offered, `${DEJA_TOOL} in a tool list: ${names(model.at(-1)!).join(", ")}\n${why}`);
  const tool = arr((offered.body as Obj).tools).find((t) => t.name === DEJA_TOOL)!;
  const schema = tool.input_schema as { required: string[]; properties: { mode: { enum: string[] } } };
  assertEquals(schema.required, ["mode"]);
  assert(schema.properties.mode.enum.includes("recall"), JSON.stringify(schema));
  assertEquals(model.map((r) => r.reply?.tool).filter((t) => t === DEJA_TOOL).length, 1);
  assertEquals(model.find((r) => r.reply?.tool === DEJA_TOOL)?.reply?.args, RECALL_ARGS);

  // 2. The scripted recall's result, sent back to the model, holds the seeded decision.
  const callAt = model.findIndex((r) => r.reply?.tool === DEJA_TOOL);
  const next = model[callAt + 1];
  assert(next, `a request after the ${DEJA_TOOL} call\n${why}`);
  const result = resultsFor(next.body as Obj, DEJA_TOOL).join("\n");
  if (process.env.DEJA_ROUNDTRIP_SHOW) console.log(result);
  assertStringIncludes(result, "<deja-recall>");
  assertStringIncludes(result, "pin libfoo to 2.3 because of the zebra-sock bug");

  // 3. The hooks' context reaches the model in the task turn's first request.
  const sent = JSON.stringify(first.messages ?? []) + JSON.stringify(first.system ?? "");
  assertStringIncludes(sent, "Where the last session in this project left off", "SessionStart");
  assertStringIncludes(sent, DECISION.slice(0, -1).replace(/^We/, ""), "the decision via a hook");
  assertStringIncludes(sent, "Past sessions in this project on", "UserPromptSubmit");
  assertStringIncludes(played.tail, tags(id).answer);

  const seconds = (x: number) => ((x - t0) / 1000).toFixed(1);
  console.log(
    `claude round trip: ${claude.version}, ${model.length} model requests, install ` +
      `${inst.cached ? "cached" : "fresh"} ${seconds(tInstall)} s, claude ${
        (played.ms / 1000).toFixed(1)
      } s, total ${seconds(performance.now())} s${prefix.length ? "" : " (no sandbox)"}`,
  );
  if (!process.env.DEJA_ROUNDTRIP_KEEP) rmSync(dir, { recursive: true, force: true });
});
