/**
 * Scores labelled queries against an index: hit@1, hit@5, recall@5 and MRR@10
 * per kind, the share of negative queries answered "nothing matched" (tier
 * `relevance` or `none`; the `negatives` row holds every kind that must find
 * nothing), and in-process latency. Used by `deno task
 * bench:recall` and by tests/recall_test.ts.
 *
 * @module
 */
import type { Store } from "../lib/store.ts";
import { search } from "../lib/search.ts";
import type { Ablation } from "../lib/search/rank.ts";
import { type Kind, KINDS, type LabelledQuery } from "./recall_queries.ts";

/** What one query did. */
export interface QueryOutcome {
  q: LabelledQuery;
  tier: string;
  nothingMatched: boolean;
  /** 1-based rank of the first relevant session in the top 10, or 0. */
  rank: number;
  /** Session ids returned, best first (at most 10). */
  top: string[];
  /** In-process milliseconds. */
  ms: number;
}

/** Figures of one kind (or all kinds). */
export interface KindFigures {
  kind: Kind | "overall" | "negatives";
  n: number;
  hit1: number;
  /** Share of queries with a relevant session in the top 5. */
  hit5: number;
  recall5: number;
  mrr10: number;
  /** Share answered "nothing matched" (the figure that counts for negative queries). */
  nothing: number;
  p50: number;
  p95: number;
}

/** Runs every query the way the CLI does (throwaway projects hidden), keeping the top 10. */
export function runQueries(
  store: Store,
  queries: LabelledQuery[],
  now: number,
  ablate?: Ablation[],
): QueryOutcome[] {
  return queries.map((q) => {
    const t = performance.now();
    const res = search(store, q.query, { limit: 10, hideThrowaway: true, now, ablate });
    const ms = performance.now() - t;
    const top = res.results.map((r) => r.id);
    const i = top.findIndex((id) => q.relevant.includes(id));
    // (An older search without `nothingMatched` reads it from the tier.)
    const nothing = (res as { nothingMatched?: boolean }).nothingMatched ??
      (res.tier === "none" || res.tier === "relevance");
    return { q, tier: res.tier, nothingMatched: nothing, rank: i + 1, top, ms };
  });
}

/** The `p`th percentile of `xs` (0 when empty). */
export function pct(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** The paraphrase kinds (questions in other words), left out of the overall row. */
export const PARAPHRASE = (k: string): boolean =>
  k === "paradev" || k === "paraphrase" || k === "blind" || k === "blind2";

/** Kinds whose queries have no relevant session (scored by "nothing matched" alone). */
export const NEGATIVE = (k: string): boolean =>
  k === "negative" || k === "nearmiss" || k === "blindneg" || k === "blind2neg" ||
  k === "negatives";

/** Kinds the `negatives` row counts: "nothing matched" is the right answer to every query. */
export const MUST_FIND_NOTHING = (k: string): boolean =>
  k === "negative" || k === "blindneg" || k === "blind2neg";

/** Figures per kind, then the overall row over every other kind with relevant sessions. */
export function figures(outcomes: QueryOutcome[]): KindFigures[] {
  const row = (kind: KindFigures["kind"], os: QueryOutcome[]): KindFigures => {
    const pos = os.filter((o) => o.q.relevant.length);
    const mean = (f: (o: QueryOutcome) => number) =>
      pos.length ? pos.reduce((s, o) => s + f(o), 0) / pos.length : 0;
    return {
      kind,
      n: os.length,
      hit1: mean((o) => (o.rank === 1 ? 1 : 0)),
      hit5: mean((o) => (o.rank && o.rank <= 5 ? 1 : 0)),
      recall5: mean((o) =>
        o.q.relevant.filter((id) => o.top.slice(0, 5).includes(id)).length / o.q.relevant.length
      ),
      mrr10: mean((o) => (o.rank ? 1 / o.rank : 0)),
      nothing: os.length ? os.filter((o) => o.nothingMatched).length / os.length : 0,
      p50: pct(os.map((o) => o.ms), 50),
      p95: pct(os.map((o) => o.ms), 95),
    };
  };
  const out = KINDS.map((k) => row(k, outcomes.filter((o) => o.q.kind === k))).filter((r) => r.n);
  // Every query "nothing matched" answers rightly (the near misses of `nearmiss` are not: long
  // sessions hold their words).
  const none = outcomes.filter((o) => MUST_FIND_NOTHING(o.q.kind));
  if (none.length) out.push(row("negatives", none));
  // Overall stays comparable with runs before the paraphrase kinds, reported apart.
  out.push(row("overall", outcomes.filter((o) => o.q.relevant.length && !PARAPHRASE(o.q.kind))));
  return out;
}

/**
 * The table as text, with cold-process columns when given (every cold time in
 * ms, per row kind).
 */
export function table(rows: KindFigures[], cold?: Map<string, number[]>): string {
  const head = ["kind", "n", "hit@1", "hit@5", "recall@5", "MRR@10", "nothing", "p50 ms", "p95 ms"];
  if (cold) head.push("cold p50", "cold p95");
  const lines = [head.map((h, i) => (i ? h.padStart(9) : h.padEnd(10))).join(" ")];
  for (const r of rows) {
    const cells = [
      r.kind.padEnd(10),
      String(r.n).padStart(9),
      ...(NEGATIVE(r.kind)
        ? ["-", "-", "-", "-"]
        : [r.hit1, r.hit5, r.recall5, r.mrr10].map((x) => x.toFixed(2)))
        .map((s) => s.padStart(9)),
      r.nothing.toFixed(2).padStart(9),
      r.p50.toFixed(1).padStart(9),
      r.p95.toFixed(1).padStart(9),
    ];
    if (cold) {
      const ts = cold.get(r.kind);
      for (const p of [50, 95]) cells.push((ts?.length ? pct(ts, p).toFixed(0) : "-").padStart(9));
    }
    lines.push(cells.join(" "));
  }
  return lines.join("\n");
}

/** hit@1 per kind (and overall, and the negatives' "nothing matched" share) as one table row. */
export function hitRow(label: string, rows: KindFigures[]): string {
  const cell = (r: KindFigures) => (NEGATIVE(r.kind) ? r.nothing : r.hit1).toFixed(2).padStart(9);
  return label.padEnd(24) + rows.map(cell).join(" ");
}

/** The header of {@link hitRow} rows. */
export function hitHeader(rows: KindFigures[]): string {
  return "hit@1 (negative: nothing)".padEnd(24) + rows.map((r) => r.kind.padStart(9)).join(" ");
}
