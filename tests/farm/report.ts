/**
 * The farm's report: one JSON document per run (its shape below, fields only
 * ever added) and the table printed at the end.
 *
 * @module
 */
import type { Check } from "./verify.ts";

/** One harness in the report. */
export interface HarnessResult {
  /** Farm name (`claude`, `kilo`, ...). */
  name: string;
  display: string;
  /** deja parser id the store was checked with; null when deja has none. */
  parser: string | null;
  /** npm package and the exact version that ran. */
  package: string;
  version: string;
  /** passed: every check that applies holds; failed: one does not; skipped: not checked (reason says why). */
  status: "passed" | "failed" | "skipped";
  /** Why it failed or was skipped ('' when it passed). */
  reason: string;
  /** Wall time in seconds, install included. */
  seconds: number;
  /** Install: whether the cache held it, and seconds spent. */
  install: { cached: boolean; seconds: number } | null;
  /** Requests the mock served. */
  requests: number;
  /** Hosts the harness tried to reach through the mock as a proxy (refused). */
  outbound: string[];
  checks: Check[];
  /** Each command run: step (main, followup, compact), exit status, seconds. */
  runs: Array<{ step: string; exit: number | null; seconds: number; timed_out: boolean }>;
  /** Records deja skipped while indexing the store, by reason. */
  skipped_records: Record<string, number>;
  notes: string | null;
  /** The run directory, kept when the run failed or --keep was given. */
  dir?: string;
  /**
   * What was checked: the store the harness wrote (absent), or `wiring`: what
   * `deja install` wrote reached the model (tests/farm/wiring.ts).
   */
  mode?: "wiring";
}

/** A whole farm run. */
export interface FarmReport {
  /** Report format version. */
  version: 1;
  /** deja version (deno.json). */
  deja: string;
  /** ISO 8601 times. */
  started: string;
  finished: string;
  seconds: number;
  /** How the runs were isolated (null: they were not, and every harness was skipped). */
  sandbox: string | null;
  /** `process.platform-process.arch`. */
  platform: string;
  harnesses: HarnessResult[];
}

/** The table: harness, version, result, seconds, checks and why. */
export function printTable(r: FarmReport): string {
  const rows = [["harness", "version", "result", "seconds", "checks", "why"]];
  for (const h of r.harnesses) {
    const applied = h.checks.filter((c) => c.ok !== null);
    rows.push([
      h.mode ? `${h.name} (${h.mode})` : h.name,
      h.version,
      h.status,
      h.seconds.toFixed(1),
      applied.length ? `${applied.filter((c) => c.ok).length}/${applied.length}` : "-",
      h.reason || h.checks.filter((c) => c.ok === null).map((c) => `${c.name}: n/a`).join("; "),
    ]);
  }
  const w = rows[0].map((_, i) => Math.max(...rows.map((r) => (i === 5 ? 0 : r[i].length))));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 5 ? c : i === 3 || i === 4 ? c.padStart(w[i]) : c.padEnd(w[i]))).join(
      "  ",
    ).trimEnd();
  const n = (s: string) => r.harnesses.filter((h) => h.status === s).length;
  return [
    ...rows.map(line),
    // Not in the "N passed, N failed" form: CI reads that line from the test runner alone.
    `farm: ${n("passed")} of ${r.harnesses.length} harnesses verified (${n("failed")} failing, ${
      n("skipped")
    } skipped) in ${r.seconds.toFixed(1)} s`,
  ].join("\n");
}

/** A harness's result before anything ran: skipped, nothing counted (each run fills it in). */
export function blankResult(
  h: { name: string; display: string; parser?: string; pkg: string; version: string },
  notes: string | null,
): HarnessResult {
  return {
    name: h.name,
    display: h.display,
    parser: h.parser ?? null,
    package: h.pkg,
    version: h.version,
    status: "skipped",
    reason: "",
    seconds: 0,
    install: null,
    requests: 0,
    outbound: [],
    checks: [],
    runs: [],
    skipped_records: {},
    notes,
  };
}
