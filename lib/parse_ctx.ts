/**
 * The {@link ParseCtx} the indexer hands a parser, with per-source skip counts.
 *
 * @module
 */
import type { Env, ParseCtx, SkipReason } from "./model.ts";

/** Skip counts of one source: reason -> count, plus a few example locations. */
export interface SkipSummary {
  counts: Partial<Record<SkipReason, number>>;
  /** Up to five `where: detail` strings, for `deja sources` and `deja drift`. */
  examples: string[];
}

/** A parse context for one source. */
export class SourceCtx implements ParseCtx {
  endOffset?: number;
  endState?: unknown;
  endWatermark?: number;
  readonly counts: Partial<Record<SkipReason, number>> = {};
  readonly examples: string[] = [];

  constructor(
    readonly env: Env,
    readonly offset = 0,
    readonly state: unknown = undefined,
    readonly since = 0,
  ) {}

  skip(reason: SkipReason, where: string, detail?: string): void {
    this.counts[reason] = (this.counts[reason] ?? 0) + 1;
    if (this.examples.length < 5) {
      this.examples.push(`${reason} at ${where}${detail ? `: ${detail}` : ""}`);
    }
  }

  /** Total records skipped. */
  get skipped(): number {
    return Object.values(this.counts).reduce((a, b) => a + (b ?? 0), 0);
  }

  summary(): SkipSummary {
    return { counts: { ...this.counts }, examples: [...this.examples] };
  }
}
