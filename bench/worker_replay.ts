/**
 * `deno task bench:worker [--corpus DIR] [--runs 3]`: a parse worker's cost alone
 * (issue 18). Runs what lib/parse_worker.ts does to every source of a Claude Code
 * projects directory (the 100 MB corpus of `deno task bench` by default) on one
 * thread: read and parse (parsers/claude.ts), prepare (lib/prepare.ts: render,
 * redact, tokenise) and serialise each chunk, and prints per run the CPU time of
 * each stage (each stage includes those before it) and a digest of every chunk's
 * JSON text, so a change that should not alter what is indexed can be checked
 * against the digest of the code before it. Under Bun, as the compiled binary
 * runs: `npx -y bun@1.4.5 run bench/worker_replay.ts`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { createHash } from "node:crypto";
import process from "node:process";
import { cpuMs, replayCorpus } from "./_replay.ts";
import { claude } from "../parsers/claude.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { prepareChunk, SessionSecrets } from "../lib/prepare.ts";
import { VocabCollector } from "../lib/search/tokenize.ts";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "100" },
    runs: { type: "string", default: "3" },
    corpus: { type: "string" },
  },
});

const found = await replayCorpus(Number(values.mb), values.corpus);
const env = found.env;

/** One pass over every source, up to `stage`; returns the JSON digest at stage 2. */
async function pass(stage: 0 | 1 | 2): Promise<{ ms: number; events: number; digest: string }> {
  const hash = createHash("sha256");
  const vocab = new VocabCollector();
  const secrets = new SessionSecrets();
  let events = 0;
  const c0 = process.cpuUsage();
  for (const src of found.sources) {
    vocab.clear();
    vocab.owner = undefined;
    for await (const chunk of claude.parse(src, new SourceCtx(env))) {
      events += chunk.events.length;
      if (stage === 0) continue;
      const ready = prepareChunk(chunk, vocab, undefined, undefined, secrets);
      if (stage === 2) hash.update(JSON.stringify(ready));
    }
  }
  return { ms: cpuMs(c0), events, digest: hash.digest("hex").slice(0, 16) };
}

const names = ["read+parse", "+prepare", "+stringify"];
for (let r = 0; r < Number(values.runs); r++) {
  const out: string[] = [];
  let digest = "";
  for (const stage of [0, 1, 2] as const) {
    const p = await pass(stage);
    out.push(`${names[stage]} ${p.ms.toFixed(0)} ms`);
    if (stage === 2) digest = `${p.events} events, digest ${p.digest}`;
  }
  console.log(`run ${r + 1}: ${out.join(", ")}; ${digest}`);
}
