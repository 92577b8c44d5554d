/**
 * Which stores the index's last reads found damaged or could not read, per
 * harness, from the `sources` rows alone (no discovery): what `deja doctor`
 * reports in short, pointing at `deja sources --verbose` for the details.
 *
 * @module
 */
import { join, sep } from "node:path";
import type { Env } from "../core/model.ts";
import { dataDir } from "../core/paths.ts";
import type { SourceRow } from "./rows.ts";
import { agedCounts, agedExamples, isDamage } from "./skips.ts";
import { parseKept, parseKeptIds, parseSkipExamples, parseSkips } from "./source_state.ts";
import { type StoreState, storeState, unreadableNow } from "./gone.ts";
import { isPermissionDenied, withPermissionHint } from "../core/fs.ts";
import { plural } from "../core/text.ts";

/** One harness's stores whose last read failed, could not be read, or found them damaged. */
export interface HarnessDamage {
  harness: string;
  /**
   * Stores whose last read failed for another reason than permission (nothing
   * of them read: not a database, a bad header), and what else the last
   * `deja index` could not read of the harness (a damaged registry).
   */
  failed: number;
  /**
   * Stores deja may not read (permission denied now or on their last read),
   * and folders the last `deja index` could not open that hold none the index
   * knows (a folder counts as its stores, once).
   */
  unreadable: number;
  /** The most recent failure, `path: message`, or null. */
  last_error: string | null;
  /** Every failure once, `path: message` (stores first, then what discovery could not open). */
  errors: string[];
  /** Stores whose last read found damaged bytes ({@link isDamage}) or kept sessions as indexed. */
  damaged: number;
  /** Records those reads lost to damage, by reason (records deja skips by design left out). */
  skipped: Record<string, number>;
  /** Per damaged store, what could not be read ({@link damageLine}). */
  damaged_stores: string[];
  /** Sessions damaged reads returned shorter or not at all, kept as indexed. */
  kept: number;
}

/** What one store's recorded skips say: counts by reason, the damage, sessions kept as indexed. */
export interface StoreSkips {
  counts: Record<string, number>;
  /** The skip notes, `<reason> at <where>[: detail]`, aged as the counts are. */
  examples: string[];
  /** Reasons that say the bytes are damaged ({@link isDamage}), with their counts. */
  lost: Array<[string, number]>;
  kept: number;
  /** The native ids of the sessions kept (undefined when the record does not say). */
  keptIds?: string[];
  /**
   * The store's last read found damaged bytes or kept sessions as indexed.
   * Records the harness wrote in a shape deja skips (`bad_shape`, ...) are
   * information, not damage (lib/skips.ts {@link isDamage}).
   */
  damaged: boolean;
}

/**
 * Reads a `sources.skipped` value (lib/source_state.ts) as {@link StoreSkips};
 * with the store's recorded mtime (epoch ms), an unfinished last line long
 * unchanged counts `truncated` (lib/skips.ts agedCounts).
 */
export function storeSkips(skipped: string | null, mtimeMs?: number | null): StoreSkips {
  const counts = agedCounts(parseSkips(skipped) as Record<string, number>, mtimeMs);
  const examples = agedExamples(parseSkipExamples(skipped), mtimeMs);
  const lost = Object.entries(counts).filter(([k, v]) => v && isDamage(k));
  const kept = parseKept(skipped);
  const keptIds = kept ? parseKeptIds(skipped) : undefined;
  return {
    counts,
    examples,
    lost,
    kept,
    ...(keptIds ? { keptIds } : {}),
    damaged: lost.length > 0 || kept > 0,
  };
}

/** How a store the index holds stands as a problem: unreadable, failed, or none. */
export type StoreProblem = "unreadable" | "failed" | null;

/**
 * The problem of one indexed store, from its row and its {@link StoreState}: a
 * stat that fails now, or a last read denied permission, is `unreadable`;
 * another failed last read is `failed`. `deja sources`, `deja doctor` and
 * `deja index` count by this one rule.
 */
export function storeProblem(error: string | null, state: StoreState): StoreProblem {
  if (state === "unreadable" || (error && isPermissionDenied(error))) return "unreadable";
  return error ? "failed" : null;
}

/**
 * What a damaged read could not read, in one line: `<path>: damaged, could
 * not read sessions rowids 1..5, files 1..44 (2 corrupt)`; null when the read
 * found no damage. `examples` are the read's skip notes
 * (`<reason> at <where>[: detail]`).
 */
export function damageLine(
  path: string,
  counts: Partial<Record<string, number>>,
  examples: readonly string[],
  kept = 0,
  added = 0,
): string | null {
  const lost = Object.entries(counts).filter(([k, v]) => v && isDamage(k));
  if (!lost.length && !kept) return null;
  const cuts: string[] = [];
  const whole: string[] = [];
  const where = examples.flatMap((x) => {
    const reason = x.slice(0, x.indexOf(" "));
    if (!isDamage(reason)) return [];
    let rest = x.slice(reason.length + " at ".length);
    // A file that is not JSONL at all (parsers/_jsonl.ts) is said as such: its note names
    // the store itself, and what follows the path is why, not a place that could not be read.
    if (reason === "not_jsonl") {
      whole.push("not JSONL");
      return [];
    }
    if (rest.startsWith(path)) rest = rest.slice(path.length).replace(/^: /, "");
    const at = rest.split(": ")[0];
    // A cut-off last line (lib/skips.ts agedExamples) is said as such, not as a line unread.
    if (reason === "truncated" && at.startsWith("@")) {
      cuts.push(`cut off at byte ${at.slice(1)}`);
      return [];
    }
    return [at.startsWith("@") ? `the line at byte ${at.slice(1)}` : at];
  });
  const list = [...new Set(where)];
  const what = [
    ...list.length
      ? [`could not read ${list.slice(0, 3).join(", ")}${list.length > 3 ? ", …" : ""}`]
      : [],
    ...new Set(whole),
    ...new Set(cuts),
    ...kept
      ? [
        `kept ${plural(kept, "session")} as indexed${
          added ? `, and added the ${plural(added, "event")} written since` : ""
        }`,
      ]
      : [],
  ];
  const n = lost.map(([k, v]) => `${v} ${k}`).join(", ");
  // Nothing damaged, the store emptied or cut short: said so (trial 31: "damaged" with no
  // reason).
  if (!n && what.length === 1 && kept) {
    return `${path}: ${counts.empty ? "now empty" : "holds less than before"}, ${what[0]}`;
  }
  return `${path}: damaged${what.length ? `, ${what.join(", ")}` : ""}${n ? ` (${n})` : ""}`;
}

/**
 * Damage reasons that say the store's bytes could not be read at all (SQLite
 * pages, an I/O error), unlike records read and found malformed (a cut JSON
 * document, a line that is not JSON): a store left with nothing by them was
 * not read ({@link damagedToNothing}).
 */
const UNREAD: ReadonlySet<string> = new Set(["corrupt", "unreadable"]);

/** Whether a read's `counts` say it met bytes it could not read at all ({@link UNREAD}). */
export function unreadIn(counts: Partial<Record<string, number>>): boolean {
  return Object.keys(counts).some((k) => counts[k] && UNREAD.has(k));
}

/**
 * The failure a damaged read amounts to when it left the index nothing of the
 * store (`held`: sessions the index holds from it after the read): the store
 * counts as not read when its pages or bytes could not be read (`counts`
 * holds `corrupt` or `unreadable`), like one whose read failed (`deja index` exits 3 and
 * names it, `deja sources` and `deja doctor` count it failed), and is read
 * again on every run until it yields something. `damage` is its
 * {@link damageLine}. Null when the read was not damaged or left sessions.
 */
export function damagedToNothing(
  path: string,
  damage: string | null,
  held: number,
  counts: Partial<Record<string, number>>,
): string | null {
  if (!damage || held > 0 || !unreadIn(counts)) {
    return null;
  }
  const what = damage.startsWith(`${path}: `) ? damage.slice(path.length + 2) : damage;
  return `${what}: nothing in it could be read`;
}

/** The path a `path: message` failure line names (the whole line when it has no `: `). */
function linePath(line: string): string {
  const i = line.indexOf(": ");
  return i < 0 ? line : line.slice(0, i);
}

/**
 * Per harness (in row order), the stores still in place whose last read failed
 * or was damaged, or that cannot be read now, with what else the last
 * `deja index` could not read of it (`indexErrors`, its `harness: [errors]`:
 * a folder it could not open); harnesses with none are left out, and so are
 * the stores read from remote mirrors (`deja remote`) and stores that are gone
 * (lib/gone.ts). Each failure counts once: an error the last run reported of a
 * store counted here, or of a folder holding one, is not counted again.
 */
export function storeDamage(
  env: Env,
  rows: ReadonlyArray<
    Pick<SourceRow, "path" | "harness" | "skipped" | "error" | "indexed_at"> & {
      mtime?: number | null;
    }
  >,
  indexErrors: Readonly<Record<string, readonly string[]>> = {},
): HarnessDamage[] {
  const mirrors = join(dataDir(env), "remotes") + sep;
  const by = new Map<string, HarnessDamage & { at: number }>();
  const get = (harness: string) => {
    const h = by.get(harness) ?? {
      harness,
      failed: 0,
      unreadable: 0,
      last_error: null,
      errors: [],
      damaged: 0,
      skipped: {},
      damaged_stores: [],
      kept: 0,
      at: -1,
    };
    by.set(harness, h);
    return h;
  };
  const counted = new Map<string, string[]>(); // harness -> store paths counted as failures
  for (const r of rows) {
    if (r.path.startsWith(mirrors)) continue;
    const state = storeState(r.path);
    if (state === "gone") continue;
    const problem = storeProblem(r.error, state);
    // One a stat cannot reach now (permission denied) failed, whatever its last read said.
    const error = state === "unreadable" ? unreadableNow(r.path) : r.error;
    const s = storeSkips(r.skipped, r.mtime);
    if (!problem && !s.damaged) continue;
    const h = get(r.harness);
    if (problem) {
      h[problem]++;
      const line = withPermissionHint(`${r.path}: ${error}`);
      h.errors.push(line);
      counted.set(r.harness, [...counted.get(r.harness) ?? [], r.path]);
      if ((r.indexed_at ?? 0) > h.at) {
        h.at = r.indexed_at ?? 0;
        h.last_error = line;
      }
    } else {
      h.damaged++;
      h.kept += s.kept;
      for (const [k, v] of s.lost) h.skipped[k] = (h.skipped[k] ?? 0) + v;
      const line = damageLine(r.path, s.counts, s.examples, s.kept);
      if (line) h.damaged_stores.push(line);
    }
  }
  for (const [harness, errors] of Object.entries(indexErrors)) {
    for (const e of errors) {
      const at = linePath(e);
      const stores = counted.get(harness) ?? [];
      // A store's failure, or a folder holding stores counted unreadable: already counted.
      if (stores.some((p) => p === at || p.startsWith(at + sep))) continue;
      const h = get(harness);
      if (h.errors.includes(e)) continue;
      h.errors.push(e);
      if (isPermissionDenied(e)) h.unreadable++;
      else h.failed++;
      h.last_error ??= e;
    }
  }
  return [...by.values()].map(({ at: _, ...h }) => h);
}

/**
 * One harness's damage in a few words: `1 store failed (path: file is not a
 * database)`, `1 unreadable (path: ... permission denied ...)`, `2 stores
 * damaged: skipped 3 malformed_json, kept 1 session as indexed`.
 */
export function damageSummary(h: HarnessDamage): string {
  const stores = (n: number) => plural(n, "store");
  const parts: string[] = [];
  const first = (kind: "failed" | "unreadable") =>
    h.errors.find((e) => isPermissionDenied(e) === (kind === "unreadable")) ?? h.last_error;
  if (h.failed) parts.push(`${stores(h.failed)} failed (${first("failed")})`);
  if (h.unreadable) parts.push(`${h.unreadable} unreadable (${first("unreadable")})`);
  if (h.damaged) {
    const what = [
      ...Object.keys(h.skipped).length
        ? [`skipped ${Object.entries(h.skipped).map(([k, v]) => `${v} ${k}`).join(", ")}`]
        : [],
      ...h.kept ? [`kept ${plural(h.kept, "session")} as indexed`] : [],
    ];
    parts.push(`${stores(h.damaged)} damaged: ${what.join(", ")}`);
  }
  return `${h.harness}: ${parts.join("; ")}`;
}

/**
 * What a session's store lost to damage on its last read, as `deja show` says
 * it: the records its bytes did not yield ({@link isDamage} reasons: corrupt
 * pages, lines that are not JSON, a cut-off last line), by reason. The index
 * records skips per store, not per session: for a store holding this session
 * alone (`store_sessions` 1) the count is the session's own; for one holding
 * several it is the whole store's, and some of them may be missing from others.
 */
export interface SessionDamage {
  /** Records of the store its last read could not read (damage reasons only). */
  unreadable_records: number;
  /** Those records by reason (`{"malformed_json": 2}`). */
  skipped: Record<string, number>;
  /** Sessions the store holds in the index (the count above is theirs together). */
  store_sessions: number;
  /**
   * Sessions of the store its last read returned shorter or not at all, kept as they were
   * indexed; absent when none, or when this session is not one of them.
   */
  kept_as_indexed?: number;
  /** The store is empty now (its sessions are kept as they were indexed). */
  now_empty?: boolean;
}

/**
 * The {@link SessionDamage} of a session from its store's `sources` row; null
 * when the row is absent or its last read lost nothing to damage.
 */
export function sessionDamage(
  row: Pick<SourceRow, "skipped" | "mtime" | "sessions"> | null | undefined,
  id?: string,
): SessionDamage | null {
  if (!row) return null;
  const s = storeSkips(row.skipped, row.mtime);
  // Trial 33: a store of two sessions, one kept, said so of the other, just read in full.
  if (s.kept && s.keptIds && id !== undefined && !s.keptIds.includes(id)) s.kept = 0;
  const records = s.lost.reduce((n, [, v]) => n + v, 0);
  if (!records && !s.kept) return null;
  return {
    unreadable_records: records,
    skipped: Object.fromEntries(s.lost),
    store_sessions: row.sessions,
    // Trial 32: a store emptied since showed nothing of it, though doctor said it.
    ...s.kept ? { kept_as_indexed: s.kept } : {},
    ...s.kept && s.counts.empty ? { now_empty: true } : {},
  };
}

/**
 * {@link SessionDamage} in one line for a reader: `its store had 2 unreadable
 * records (malformed_json); some messages may be missing`, the store's sessions
 * named when it holds more than this one.
 */
export function sessionDamageText(d: SessionDamage): string {
  const whose = d.store_sessions > 1 ? `its store (${d.store_sessions} sessions)` : "its store";
  const why = Object.keys(d.skipped).join(", ");
  const kept = d.kept_as_indexed
    ? d.now_empty
      ? `${whose} is empty now; shown as it was indexed`
      : `${whose} no longer holds ${
        d.store_sessions > 1 ? plural(d.kept_as_indexed, "session") : "it"
      } in full; shown as ${d.store_sessions > 1 ? "they were" : "it was"} indexed`
    : "";
  if (!d.unreadable_records) return kept;
  // A damaged database counts a stretch of unreadable rows once, however many rows it held
  // (trial 56: "2 unreadable records" of 51 rows lost).
  const n = d.unreadable_records;
  const what = why === "corrupt"
    ? `${n} damaged stretch${n === 1 ? "" : "es"} of rows`
    : plural(n, "unreadable record");
  return `${whose} had ${what} (${why}); some messages may be missing (deja sources --verbose says where)${
    kept ? `; ${kept.replace(/^its store(?: \(\d+ sessions\))? /, "it ")}` : ""
  }`;
}
