/**
 * `deja index` as people type it (alone, with `--quiet` or `--json`) when nothing changed:
 * answered from the stat manifest (lib/fresh/quick.ts) before main.ts and the commands load
 * (bin.ts), with the same output and exit code as the command's own run (./index_text.ts).
 * Anything the manifest cannot vouch for, any other option or an embeddings endpoint (its pass
 * runs after every run) goes the command's way. Issue 18:
 * the no-op run's start-up, 13.6 ms p50 against the reference's 12.7 on the 100 MB bench.
 *
 * @module
 */
import type { IO } from "../../core/runtime.ts";
import { indexPath } from "../../core/paths.ts";
import { manifestUpToDate, selectedHarnesses } from "../fresh/quick.ts";
import { embedConfig } from "../embeddings/config.ts";
import { humanIO } from "./output.ts";
import { indexCode, reportIndex } from "./index_text.ts";
import { trace } from "../../core/trace.ts";
import { zoneWarning } from "../../core/localzone.ts";

/** The options the quick run takes; any other sends `deja index` to the command. */
const QUICK_OPTIONS = new Set(["--quiet", "--json"]);

/**
 * Runs `deja index` (`argv` without the program) when the stat manifest shows it has nothing
 * to read and returns its exit code, or null, having written nothing, when the command must
 * run instead.
 */
export function quickIndex(argv: readonly string[], io: IO): number | null {
  if (argv[0] !== "index" || !argv.slice(1).every((a) => QUICK_OPTIONS.has(a))) return null;
  const env = io.env;
  // A bad config is no endpoint to the command too (it runs no pass, says nothing).
  if (embedConfig(env).config) return null;
  const t0 = performance.now();
  const path = indexPath(env);
  let res: ReturnType<typeof manifestUpToDate>;
  try {
    const selected = selectedHarnesses(env, path, undefined);
    res = selected && manifestUpToDate(env, path, selected, t0);
  } catch {
    return null; // nothing written yet: the command meets the same trouble and says it
  }
  if (!res?.totals) return null;
  trace("index up to date (quick)");
  const json = argv.includes("--json");
  const quiet = argv.includes("--quiet");
  const d = {
    index: path,
    res,
    embedded: null,
    warnings: [],
    totals: json || quiet ? undefined : res.totals,
    code: indexCode(res.harnesses),
  };
  const human = humanIO(io);
  // As main.ts does before any command.
  const zone = zoneWarning(env);
  if (zone && !quiet) human.err(zone);
  return reportIndex(d, { json, quiet }, human);
}
