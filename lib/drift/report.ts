/**
 * `deja drift`'s data: what the parsers noted they did not know (record types,
 * fields, columns, schema generations), grouped per harness and change, each
 * with the smallest redacted record that shows it.
 *
 * Reads only the index, plus — for a note located at `<path>@<byte offset>`
 * of a JSONL store the index lists — that one line of that store (read-only,
 * at most {@link MAX_RECORD_BYTES}). Never a whole transcript or database.
 *
 * @module
 */
import type { DriftKind } from "../../core/model.ts";
import type { DriftNote } from "../parse_ctx.ts";
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import { jsonlWhere, MAX_RECORD_BYTES, pasteable, recordAt } from "./sample.ts";
import type { SourceRow } from "../rows.ts";
import { parseDrift, parseSkips } from "../source_state.ts";

/** The kinds in the order a report lists them. */
export const DRIFT_KINDS: readonly DriftKind[] = [
  "discovery",
  "session_metadata",
  "roles",
  "content",
  "timestamps",
];

/** One change a harness's stores show (the same kind and detail in every store). */
export interface DriftChange {
  kind: DriftKind;
  /** What is unknown: `type foo`, `field bar on session_meta`, `column sessions.baz`. */
  detail: string;
  /** Times seen, over the last read of every store. */
  count: number;
  /** Stores it was seen in. */
  stores: number;
  /** Absolute path of the store the sample comes from. */
  store: string;
  /** The locator inside it (`<path>@<byte offset>` for a JSONL line). */
  where: string;
  /** Byte offset of the record in `store` when it is a JSONL line, else null. */
  offset: number | null;
  /** Harness version the store named there, or null when it names none. */
  version: string | null;
  /** The smallest sample found: compact JSON, secrets redacted, cut down; null when none. */
  sample: string | null;
  /** Why `sample` is null. */
  sample_problem: string | null;
}

/** Drift of one harness. */
export interface HarnessDrift {
  harness: string;
  /** Harness versions its drifting stores named, sorted (empty when none does). */
  versions: string[];
  /** Stores that show drift. */
  stores: number;
  changes: DriftChange[];
}

/** What {@link driftReport} returns. */
export interface DriftReport {
  /** Harnesses with drift, by id. */
  harnesses: HarnessDrift[];
  /** Stores looked at (of the selected harnesses). */
  checked: number;
  /**
   * Stores last read before deja kept drift notes (index schema 1) whose skip
   * counts include unknown records or schemas: `deja index --rebuild` checks them.
   */
  unchecked: number;
}

/** Options of {@link driftReport}. */
export interface DriftOptions {
  /** Only these harness ids. */
  harnesses?: string[];
  /** The user's home directory, shown as `~` in samples. */
  home?: string;
  /** Candidate records read per change to find the smallest (default 8). */
  candidates?: number;
}

interface Group {
  harness: string;
  kind: DriftKind;
  detail: string;
  count: number;
  notes: Array<{ note: DriftNote; path: string; version?: string }>;
}

/**
 * Builds the drift report from the index.
 *
 * @throws only what the store throws (an unreadable index).
 */
export async function driftReport(store: Store, opts: DriftOptions = {}): Promise<DriftReport> {
  const rows: Array<Pick<SourceRow, "path" | "harness" | "skipped" | "drift">> = [];
  for (const h of opts.harnesses?.length ? opts.harnesses : [null]) {
    rows.push(...Q.driftSources.all(store, { harness: h }));
  }
  const groups = new Map<string, Group>();
  const storesOf = new Map<string, Set<string>>();
  const versionsOf = new Map<string, Set<string>>();
  let unchecked = 0;
  for (const row of rows) {
    const d = parseDrift(row.drift);
    if (!d) {
      if (row.drift === null && skippedUnknown(row.skipped)) unchecked++;
      continue;
    }
    if (d.notes.length === 0) continue;
    for (const note of d.notes) {
      const key = JSON.stringify([row.harness, note.kind, note.detail]);
      let g = groups.get(key);
      if (!g) {
        g = { harness: row.harness, kind: note.kind, detail: note.detail, count: 0, notes: [] };
        groups.set(key, g);
      }
      g.count += note.count;
      const version = note.version ?? d.version;
      g.notes.push({ note, path: row.path, version });
      add(storesOf, row.harness, row.path);
      if (version) add(versionsOf, row.harness, version);
    }
  }
  const byHarness = new Map<string, DriftChange[]>();
  for (const g of groups.values()) {
    const list = byHarness.get(g.harness) ?? [];
    list.push(await change(g, opts));
    byHarness.set(g.harness, list);
  }
  const order = (k: DriftKind) => DRIFT_KINDS.indexOf(k);
  const harnesses = [...byHarness.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map((
    [harness, changes],
  ) => ({
    harness,
    versions: [...(versionsOf.get(harness) ?? [])].sort((a, b) =>
      a.localeCompare(b, "en", { numeric: true })
    ),
    stores: storesOf.get(harness)?.size ?? 0,
    changes: changes.sort((a, b) =>
      order(a.kind) - order(b.kind) || b.count - a.count || (a.detail < b.detail ? -1 : 1)
    ),
  }));
  return { harnesses, checked: rows.length, unchecked };
}

/** One group -> a change, with the smallest sample among its first candidates. */
async function change(g: Group, opts: DriftOptions): Promise<DriftChange> {
  let best: { text: string; at: Group["notes"][number] } | undefined;
  let problem: string | undefined;
  for (const at of g.notes.slice(0, opts.candidates ?? 8)) {
    let text = at.note.sample;
    if (text === undefined) {
      const loc = jsonlWhere(at.note.where);
      if (!loc || loc.path !== at.path) {
        problem ??= "the store gives no record for it (see the detail)";
        continue;
      }
      const r = await recordAt(loc.path, loc.offset, MAX_RECORD_BYTES);
      if ("problem" in r) {
        problem ??= r.problem;
        continue;
      }
      text = pasteable(r.value, opts.home);
    }
    if (!best || text.length < best.text.length) best = { text, at };
  }
  const at = best?.at ?? g.notes[0];
  const loc = jsonlWhere(at.note.where);
  return {
    kind: g.kind,
    detail: g.detail,
    count: g.count,
    stores: new Set(g.notes.map((n) => n.path)).size,
    store: at.path,
    where: at.note.where,
    offset: loc && loc.path === at.path ? loc.offset : null,
    version: at.version ?? null,
    sample: best?.text ?? null,
    sample_problem: best ? null : problem ?? null,
  };
}

function add(m: Map<string, Set<string>>, k: string, v: string): void {
  const s = m.get(k) ?? new Set<string>();
  s.add(v);
  m.set(k, s);
}

function skippedUnknown(json: string | null): boolean {
  const c = parseSkips(json);
  return (c.unknown_record ?? 0) > 0 || (c.unknown_schema ?? 0) > 0;
}
