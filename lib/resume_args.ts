/**
 * Arguments a resume command needs from where deja read the session: one
 * table, {@link SOURCE_ARGS}, of a harness, a source-path pattern and the
 * flag its first capture is the value of, put right after the program's name.
 *
 * - Oh My Pi keeps a named profile's sessions under `profiles/<name>/`
 *   (`~/.omp/profiles/<name>/agent/sessions/`, `$XDG_DATA_HOME/omp/profiles/<name>/sessions/`)
 *   and `omp --resume <id>` searches only the active profile's sessions, so
 *   such a session reopens with `omp --profile <name> --resume <id>`, the
 *   form omp prints itself (docs/registry/omp.md, "Resume": omp 18.2.3).
 *
 * @module
 */

/** One row: sessions of `harness` whose source path matches `source` take `flag <capture 1>`. */
export interface SourceArgs {
  harness: string;
  source: RegExp;
  flag: string;
}

/** Separator of either OS, so a store read from a Windows path matches too. */
const SEP = String.raw`[\\/]`;

/** The source-derived arguments of the resume commands. */
export const SOURCE_ARGS: readonly SourceArgs[] = [
  {
    harness: "omp",
    source: new RegExp(`${SEP}profiles${SEP}([^\\\\/]+)${SEP}(?:agent${SEP})?sessions${SEP}`),
    flag: "--profile",
  },
];

/**
 * `argv` with the flag and value the session's `source` asks for put after the program's name;
 * `argv` itself when no row matches. `safe` vets the value taken from the path (it throws to
 * refuse it) and returns it.
 */
export function withSourceArgs(
  harness: string,
  source: string,
  argv: string[],
  safe: (value: string) => string,
): string[] {
  for (const row of SOURCE_ARGS) {
    if (row.harness !== harness) continue;
    const m = row.source.exec(source);
    if (!m) continue;
    return [argv[0], row.flag, safe(m[1]), ...argv.slice(1)];
  }
  return argv;
}
