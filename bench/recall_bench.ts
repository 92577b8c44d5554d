/**
 * `deno task bench:recall [--targets 120] [--distractors 300] [--per-kind 30]
 * [--seed 11] [--cold 5] [--no-binary] [--misses] [--ablate] [--json <file>]`: the labelled search
 * benchmark. `--seeds 3,5,7` runs it once per seed (in-process figures only) and prints hit@1
 * per kind and seed with the mean and the lowest: one seed's 60 queries a kind move by a few
 * hits from seed to seed (paraphrase 0.57-0.68 over six seeds), so a change is judged on many. Generates a history in Claude Code format (bench/gen_recall.ts),
 * indexes it with the production indexer, runs the labelled queries
 * (bench/recall_queries.ts) in-process the way the CLI does, and prints hit@1,
 * recall@5 and MRR@10 per query kind, the share of negative queries answered
 * "nothing matched", and latency: in-process p50/p95 and, unless
 * `--no-binary`, the compiled binary as a cold process (p50 and p95 over up
 * to `--cold` queries of each kind; every kind, the blind ones included). `--ablate` adds hit@1 with each ranking change
 * switched off alone. With `DEJA_EMBED_URL` (and `DEJA_EMBED_MODEL`) naming an
 * embeddings endpoint, a second table gives the figures with the optional
 * rerank (lib/embeddings/); without it nothing is sent anywhere. Asserts
 * nothing; tests/recall_test.ts holds the floor.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { generateHistory } from "./gen_recall.ts";
import { makeQueries } from "./recall_queries.ts";
import {
  figures,
  hitHeader,
  hitRow,
  type KindFigures,
  MUST_FIND_NOTHING,
  NEGATIVE,
  pct,
  type QueryOutcome,
  runQueries,
  table,
} from "./recall_eval.ts";
import { ABLATE, type Ablation } from "../lib/search/rank.ts";
import { search } from "../lib/search.ts";
import { embedPass } from "../lib/embeddings/pass.ts";
import { CANDIDATES, rerank } from "../lib/embeddings/rerank.ts";
import { REPO } from "../tests/_fixture.ts";
import { runIndex } from "../lib/indexer.ts";
import { makeEnv } from "../core/runtime.ts";
import { indexPath, Store } from "../lib/store.ts";
import { parsers } from "../parsers/mod.ts";

const { values } = parseArgs({
  options: {
    targets: { type: "string", default: "120" },
    distractors: { type: "string", default: "300" },
    "per-kind": { type: "string", default: "30" },
    cold: { type: "string", default: "5" },
    seed: { type: "string", default: "11" },
    seeds: { type: "string" },
    "no-binary": { type: "boolean", default: false },
    misses: { type: "boolean", default: false },
    ablate: { type: "boolean", default: false },
    json: { type: "string" },
  },
});
if (values.seeds) {
  console.log(bySeed(values.seeds.split(",").map(Number)));
  process.exit(0);
}
const targets = Number(values.targets);
const seed = Number(values.seed);
const work = join(REPO, ".bench", `recall-${seed}-${targets}-${values.distractors}`);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const t0 = performance.now();
const h = generateHistory(join(work, "claude"), {
  targets,
  distractors: Number(values.distractors),
  seed,
});
const queries = makeQueries(h, Number(values["per-kind"]), seed + 1);
const vars = {
  HOME: join(work, "home"),
  DEJA_HOME: join(work, "deja"),
  DEJA_CLAUDE_ROOT: join(work, "claude", "projects"),
  NO_COLOR: "1",
};
const env = makeEnv(vars);
await runIndex(env, parsers, { only: ["claude"] });
console.log(
  `history: ${h.files} sessions (${h.cases.length} with planted work), ${
    (h.bytes / 1e6).toFixed(1)
  } MB, indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${queries.length} queries`,
);
const store = Store.open(indexPath(env));
runQueries(store, queries.slice(0, 10), h.now); // warm the page cache and the JIT
const outcomes = runQueries(store, queries, h.now);
const ablations: string[] = [];
if (values.ablate) {
  // Each ranking change switched off alone: the difference is what it adds.
  const full = figures(outcomes);
  ablations.push(hitHeader(full), hitRow("all ranking changes", full));
  for (const name of Object.keys(ABLATE) as Ablation[]) {
    ablations.push(hitRow(`without ${name}`, figures(runQueries(store, queries, h.now, [name]))));
  }
}
const embedded = await withEmbeddings(store);
store.close();

let cold: Map<string, number[]> | undefined;
const bin = join(REPO, "dist/deja-bun");
if (!values["no-binary"]) {
  if (!existsSync(bin)) spawnSync("deno", ["task", "compile:bun"], { cwd: REPO, stdio: "inherit" });
  if (existsSync(bin)) {
    cold = new Map();
    const all: number[] = [];
    const none: number[] = [];
    for (const kind of new Set(queries.map((q) => q.kind))) {
      const times: number[] = [];
      for (const q of queries.filter((x) => x.kind === kind).slice(0, Number(values.cold))) {
        const t = performance.now();
        spawnSync(bin, ["search", "--json", "--", q.query], {
          env: { ...process.env, ...vars },
          encoding: "utf8",
        });
        times.push(performance.now() - t);
      }
      cold.set(kind, times);
      all.push(...times);
      if (MUST_FIND_NOTHING(kind)) none.push(...times);
    }
    cold.set("overall", all);
    cold.set("negatives", none);
  }
}
const rows = figures(outcomes);
console.log(table(rows, cold));
if (ablations.length) console.log("\n" + ablations.join("\n"));
if (embedded) {
  console.log(`\nwith embeddings from ${process.env.DEJA_EMBED_URL}:\n${table(embedded)}`);
}
if (values.misses) {
  for (const o of outcomes) {
    const neg = !o.q.relevant.length;
    if (neg ? o.nothingMatched : o.rank === 1) continue;
    const kinds = o.top.slice(0, 3).map((id) => `${id.slice(0, 8)}:${h.sessions.get(id)}`).join(
      " ",
    );
    console.log(
      `miss ${o.q.kind.padEnd(9)} rank=${o.rank} tier=${o.tier} ${
        JSON.stringify(o.q.query)
      } -> ${kinds}`,
    );
  }
}
if (values.json) {
  writeFileSync(
    values.json,
    JSON.stringify(
      {
        rows,
        cold: cold ? Object.fromEntries([...cold].map(([k, ts]) => [k, pct(ts, 50)])) : null,
        coldP95: cold ? Object.fromEntries([...cold].map(([k, ts]) => [k, pct(ts, 95)])) : null,
      },
      null,
      2,
    ),
  );
}

/**
 * Figures with the optional embeddings rerank (lib/embeddings/), only when
 * `DEJA_EMBED_URL` names an endpoint: every session embedded first, then each
 * query reranked the way `deja search` does.
 */
async function withEmbeddings(store: Store): Promise<KindFigures[] | null> {
  const url = process.env.DEJA_EMBED_URL;
  if (!url) return null;
  const eenv = makeEnv({
    ...vars,
    DEJA_EMBED_URL: url,
    DEJA_EMBED_MODEL: process.env.DEJA_EMBED_MODEL,
    DEJA_EMBED_API_KEY: process.env.DEJA_EMBED_API_KEY,
  });
  const p = await embedPass(eenv, { maxSessions: Infinity, budgetMs: Infinity });
  if (p?.error) {
    console.log(`embeddings: ${p.error.message}`);
    return null;
  }
  const out: QueryOutcome[] = [];
  for (const q of queries) {
    const opts = { limit: 10, hideThrowaway: true, now: h.now };
    const t = performance.now();
    const wide = search(store, q.query, { ...opts, limit: CANDIDATES });
    const res = (await rerank(store, eenv, wide, opts)).result;
    const ms = performance.now() - t;
    const top = res.results.map((r) => r.id);
    const i = top.findIndex((id) => q.relevant.includes(id));
    out.push({ q, tier: res.tier, nothingMatched: res.nothingMatched, rank: i + 1, top, ms });
  }
  return figures(out);
}

/**
 * `--seeds`: runs this benchmark once per seed in a child process (its `--json`), then
 * tabulates hit@1 per kind (the negatives' "nothing matched" share) with the mean and the lowest.
 */
function bySeed(seeds: number[]): string {
  if (!seeds.length || seeds.some((s) => !Number.isInteger(s))) {
    throw new Error(`--seeds takes whole numbers separated by commas`);
  }
  const per = new Map<number, KindFigures[]>();
  for (const s of seeds) {
    const out = join(REPO, ".bench", `recall-seed-${s}.json`);
    const args = [
      "run",
      "-A",
      new URL(import.meta.url).pathname,
      "--no-binary",
      "--seed",
      String(s),
    ];
    for (const k of ["targets", "distractors", "per-kind"] as const) {
      args.push(`--${k}`, values[k]!);
    }
    const r = spawnSync(process.execPath, [...args, "--json", out], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`seed ${s} failed: ${r.stderr}`);
    per.set(s, (JSON.parse(readFileSync(out, "utf8")) as { rows: KindFigures[] }).rows);
    console.error(`seed ${s} done`);
  }
  const kinds = per.get(seeds[0])!.map((r) => r.kind);
  const head = ["hit@1".padEnd(11), ...seeds.map((s) => `s${s}`.padStart(6)), "  mean", "   min"];
  const lines = [head.join(" ")];
  for (const k of kinds) {
    const xs = seeds.map((s) => {
      const r = per.get(s)!.find((x) => x.kind === k);
      return r ? (NEGATIVE(k) ? r.nothing : r.hit1) : NaN;
    });
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const cells = [...xs, mean, Math.min(...xs)].map((x) => x.toFixed(2).padStart(6));
    lines.push([k.padEnd(11), ...cells].join(" "));
  }
  return lines.join("\n");
}
