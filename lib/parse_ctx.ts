/**
 * The {@link ParseCtx} the indexer hands a parser, with per-source skip counts
 * and drift notes.
 *
 * @module
 */
import type { DriftKind, Env, ParseCtx, SkipReason } from "../core/model.ts";
import { pasteable } from "./drift/sample.ts";

/** Skip counts of one source: reason -> count, plus a few example locations. */
export interface SkipSummary {
  counts: Partial<Record<SkipReason, number>>;
  /**
   * The first {@link MAX_SKIP_EXAMPLES} skips as `<reason> at <where>[: detail]`
   * (`where` is `<path>@<byte offset>` for a JSONL line, `<path>:<line>` for a
   * Markdown line, or the parser's own locator), for `deja sources`.
   */
  examples: string[];
}

/** One thing a parser did not know, first seen at `where` (kept in `sources.drift`). */
export interface DriftNote {
  kind: DriftKind;
  /** `<path>@<byte offset>` of a JSONL line, or the parser's own locator. */
  where: string;
  /** What is unknown (`record type foo`); the same change has the same detail in every store. */
  detail: string;
  /** Times seen in this source. */
  count: number;
  /** Harness version the store named before it was first seen. */
  version?: string;
  /** The parser's sample, redacted and cut down (JSON text; see `lib/drift/sample.ts`). */
  sample?: string;
}

/** Drift of one source: kind -> count, distinct notes, and the harness version the store named. */
export interface DriftSummary {
  counts: Partial<Record<DriftKind, number>>;
  /** At most {@link MAX_DRIFT_NOTES} distinct (kind, detail) notes, in the order first seen. */
  notes: DriftNote[];
  /** The last harness version the store named (see {@link ParseCtx.version}). */
  version?: string;
}

/** Skip locations kept per source (the first ones seen; earlier passes' first). */
export const MAX_SKIP_EXAMPLES = 5;

/** The skip locations of earlier passes of a source followed by this pass's, bounded. */
export function mergeExamples(prev: string[], next: string[]): string[] {
  return [...new Set([...prev, ...next])].slice(0, MAX_SKIP_EXAMPLES);
}

/** Distinct drift notes kept per source. */
export const MAX_DRIFT_NOTES = 8;

/** Skip reasons that are drift by themselves, and the kind they are filed under. */
const SKIP_DRIFT: Partial<Record<SkipReason, DriftKind>> = {
  unknown_record: "content",
  unknown_schema: "discovery",
};

/** A parse context for one source. */
export class SourceCtx implements ParseCtx {
  endOffset?: number;
  endState?: unknown;
  endWatermark?: number;
  endHolds?: string[];
  readonly counts: Partial<Record<SkipReason, number>> = {};
  readonly examples: string[] = [];
  readonly driftCounts: Partial<Record<DriftKind, number>> = {};
  readonly driftNotes: DriftNote[] = [];
  /** {@link ParseCtx.firstChunkEvents} (set by the parse worker for its first source). */
  firstChunkEvents?: number;
  /** The last harness version the store named in this pass. */
  harnessVersion?: string;
  private lastDriftWhere?: string;

  constructor(
    readonly env: Env,
    readonly offset = 0,
    readonly state: unknown = undefined,
    readonly since = 0,
    readonly held?: ReadonlySet<string>,
  ) {}

  private emptyAt = new Set<string>();

  skip(reason: SkipReason, where: string, detail?: string): void {
    // A file is empty once, however many readers of it notice (records may each be empty).
    if (reason === "empty") {
      if (this.emptyAt.has(where)) return;
      this.emptyAt.add(where);
    }
    this.counts[reason] = (this.counts[reason] ?? 0) + 1;
    if (this.examples.length < MAX_SKIP_EXAMPLES) {
      this.examples.push(`${reason} at ${where}${detail ? `: ${detail}` : ""}`);
    }
    const kind = SKIP_DRIFT[reason];
    if (kind && where !== this.lastDriftWhere) {
      this.drift(kind, where, detail ?? reason.replace("_", " "));
    }
  }

  drift(kind: DriftKind, where: string, detail: string, sample?: unknown): void {
    this.driftCounts[kind] = (this.driftCounts[kind] ?? 0) + 1;
    this.lastDriftWhere = where;
    const same = this.driftNotes.find((n) => n.kind === kind && n.detail === detail);
    if (same) {
      same.count++;
      return;
    }
    if (this.driftNotes.length >= MAX_DRIFT_NOTES) return;
    const note: DriftNote = { kind, where, detail, count: 1 };
    if (this.harnessVersion) note.version = this.harnessVersion;
    if (sample !== undefined) note.sample = pasteable(sample, this.env.home);
    this.driftNotes.push(note);
  }

  version(version: string): void {
    if (version) this.harnessVersion = version;
  }

  /** Total records skipped. */
  get skipped(): number {
    return Object.values(this.counts).reduce((a, b) => a + (b ?? 0), 0);
  }

  summary(): SkipSummary {
    return { counts: { ...this.counts }, examples: [...this.examples] };
  }

  /** What this pass noted as drift. */
  drifted(): DriftSummary {
    const out: DriftSummary = {
      counts: { ...this.driftCounts },
      notes: this.driftNotes.map((n) => ({ ...n })),
    };
    if (this.harnessVersion) out.version = this.harnessVersion;
    return out;
  }
}

/**
 * Folds the drift of a resumed pass (`next`) into what earlier passes of the
 * same append source kept (`prev`): counts add up, notes with the same kind
 * and detail merge (the earlier location and sample stay), the newer version
 * wins.
 */
export function mergeDrift(prev: DriftSummary | undefined, next: DriftSummary): DriftSummary {
  if (!prev) return next;
  const counts = { ...prev.counts };
  for (const [k, v] of Object.entries(next.counts)) {
    counts[k as DriftKind] = (counts[k as DriftKind] ?? 0) + (v ?? 0);
  }
  const notes = prev.notes.map((n) => ({ ...n }));
  for (const n of next.notes) {
    const same = notes.find((o) => o.kind === n.kind && o.detail === n.detail);
    if (same) same.count += n.count;
    else if (notes.length < MAX_DRIFT_NOTES) notes.push({ ...n });
  }
  const version = next.version ?? prev.version;
  return version ? { counts, notes, version } : { counts, notes };
}
