/**
 * `deno task bench:costs [--mb 100] [--runs 30] [--fresh]`: what deja costs an
 * agent, in bytes and milliseconds. Prints figures; asserts nothing.
 *
 * - the tool schema: the `tools/list` entry as the server sends it, which a
 *   harness repeats in every request to its model; and the server
 *   instructions (`initialize`), which harnesses put in the system prompt;
 * - the skill (lib/install/texts.ts): its front matter, which harnesses keep
 *   in the system prompt, and the whole file, read when the skill is used;
 * - a recall: the bytes one `recall` answer adds to a turn, on the bench
 *   corpus (bench/gen_claude.ts), per query;
 * - recall latency p50/p95: `tools/call` round trips through the official
 *   MCP SDK client over stdio to the compiled binary (`bun build --compile`,
 *   as the tests build it) over an index of the corpus; and the time from
 *   spawning the server to its answer to `initialize`.
 *
 * The corpus is `.bench/claude-v2-<mb>mb` (generated when missing), its index
 * `.bench/deja-mcp-<mb>mb` (built by the binary when missing or with --fresh).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export points types at "<path>.js.d.ts"; name the declarations directly.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { COMMON_WORDS, generate, RARE_TOKEN } from "./gen_claude.ts";
import { REPO } from "../tests/_fixture.ts";
import { binary } from "../tests/_binary.ts";
import { TEXTS } from "../lib/install/texts.ts";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "100" },
    runs: { type: "string", default: "30" },
    fresh: { type: "boolean", default: false },
  },
});
const mb = Number(values.mb);
const runs = Number(values.runs);
const work = join(REPO, ".bench");
const corpus = join(work, `claude-v2-${mb}mb`);
const dejaHome = join(work, `deja-mcp-${mb}mb`);
const bytes = (s: string) => new TextEncoder().encode(s).length;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const row = (k: string, v: string) => console.log(`${k.padEnd(46)} ${v}`);

if (!existsSync(join(corpus, "done"))) {
  rmSync(corpus, { recursive: true, force: true });
  const g = generate(corpus, mb);
  writeFileSync(join(corpus, "done"), JSON.stringify(g));
}
const corpusBytes = (JSON.parse(readFileSync(join(corpus, "done"), "utf8")) as { bytes: number })
  .bytes;
const env: Record<string, string> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: join(work, "home"),
  DEJA_HOME: dejaHome,
  DEJA_CLAUDE_ROOT: join(corpus, "projects"),
  NO_COLOR: "1",
};
const bin = binary();
const idx = join(dejaHome, "index.db");
if (values.fresh) rmSync(dejaHome, { recursive: true, force: true });
if (!existsSync(idx)) {
  mkdirSync(dejaHome, { recursive: true });
  const t = performance.now();
  const r = spawnSync(bin, ["index", "--harness", "claude", "--quiet"], { env, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`indexing failed (${r.status})`);
  row("index built by the binary", `${((performance.now() - t) / 1000).toFixed(1)} s`);
}
console.log(
  `corpus ${(corpusBytes / 1e6).toFixed(1)} MB of Claude Code JSONL; index ${
    (statSync(idx).size / 1e6).toFixed(1)
  } MB at ${idx}`,
);

// Server start: spawn to the answer to initialize (connect does the handshake).
const starts: number[] = [];
let client!: Client;
for (let i = 0; i < 5; i++) {
  const c = new Client({ name: "deja-bench", version: "1.0.0" });
  const t = performance.now();
  await c.connect(new StdioClientTransport({ command: bin, args: ["mcp"], env, cwd: work }));
  starts.push(performance.now() - t);
  if (i < 4) await c.close();
  else client = c;
}

console.log("\n# bytes");
const { tools } = await client.listTools();
const schema = JSON.stringify(tools[0]);
row("tool schema (tools/list entry, every request)", `${bytes(schema)} B`);
row("server instructions (initialize, once)", `${bytes(client.getInstructions() ?? "")} B`);
const skill = TEXTS.skill;
const front = /^---\n[\s\S]*?\n---\n/.exec(skill)?.[0] ?? "";
row("skill front matter (system prompt)", `${bytes(front)} B`);
row("skill file (read when the skill is used)", `${bytes(skill)} B`);

const queries = [
  RARE_TOKEN,
  COMMON_WORDS.join(" "),
  "server config",
  "import module request",
  "function value return",
  "zzqqxx nothing like it",
];
const call = async (query: string) => {
  const r = await client.callTool({ name: "deja", arguments: { mode: "recall", query } });
  return (r.content as Array<{ text: string }>)[0].text;
};
const sizes: number[] = [];
for (const q of queries) {
  const t = performance.now();
  const text = await call(q);
  const first = performance.now() - t;
  sizes.push(bytes(text));
  row(`recall "${q}"`, `${bytes(text)} B (first call ${first.toFixed(0)} ms)`);
}
row("recall answer (median / max)", `${pct(sizes, 50)} / ${Math.max(...sizes)} B`);

console.log("\n# latency (tools/call round trip through the SDK client, compiled binary)");
row(
  "server start to initialize answer (p50/max)",
  `${pct(starts, 50).toFixed(0)} / ${Math.max(...starts).toFixed(0)} ms`,
);
const all: number[] = [];
for (const q of queries) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await call(q);
    times.push(performance.now() - t);
  }
  all.push(...times);
  row(`recall "${q}" (p50/p95)`, `${pct(times, 50).toFixed(1)} / ${pct(times, 95).toFixed(1)} ms`);
}
row(
  `recall, all queries (p50/p95, n=${all.length})`,
  `${pct(all, 50).toFixed(1)} / ${pct(all, 95).toFixed(1)} ms`,
);
await client.close();
