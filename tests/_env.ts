/**
 * Hermetic environments for tests: every location deja or a harness reads, built from scratch
 * under a temporary root, and a way to start a child process with exactly that environment.
 *
 * Why the second half matters: under Deno, `node:child_process` *adds* the `env` option to the
 * parent's environment instead of replacing it, so a test that passes `{ HOME, DEJA_HOME }` still
 * hands the child the developer's `XDG_CONFIG_HOME`, `CRUSH_GLOBAL_CONFIG` or `CLAUDE_CONFIG_DIR`
 * (and `deja install` then edits their real configs). {@link onlyEnv} starts the child through
 * `env -i`, which clears everything first.
 */
import process from "node:process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./_fixture.ts";

/** Variables that are not locations but that a child needs to run at all. */
const PASS = ["PATH"];

/**
 * Every variable naming a location deja or a harness reads or writes: home, the XDG base
 * directories, and every `${VAR}` a registry store path or install template names (harness
 * config variables such as `CRUSH_GLOBAL_CONFIG`, `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, each
 * `DEJA_<ID>_ROOT`), read from registry.json so a new harness is covered without an edit here.
 */
export const LOCATION_VARS: readonly string[] = (() => {
  const text = readFileSync(join(REPO, "registry.json"), "utf8");
  const named = [...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]);
  return [
    ...new Set([
      "HOME",
      "USERPROFILE",
      "APPDATA",
      "LOCALAPPDATA",
      "XDG_CONFIG_HOME",
      "XDG_DATA_HOME",
      "XDG_STATE_HOME",
      "XDG_CACHE_HOME",
      "XDG_RUNTIME_DIR",
      "DEJA_HOME",
      "DEJA_EXCLUDE_PROJECTS",
      ...named,
    ]),
  ].sort();
})();

/**
 * An environment built from scratch for a test rooted at `root`: HOME is `root/home`, the XDG
 * directories are their defaults under it (so output still reads `~/.config/...`), PATH is the
 * caller's (to find deno, bun, sh), and nothing else of the caller's is kept; `vars` are added
 * last (DEJA_HOME, DEJA_<ID>_ROOT, ...). Harness variables left out fall back to their defaults
 * under this HOME.
 */
export function hermeticEnv(
  root: string,
  vars: Record<string, string> = {},
): Record<string, string> {
  const home = join(root, "home");
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    XDG_CACHE_HOME: join(home, ".cache"),
    LANG: "C.UTF-8",
  };
  for (const k of PASS) if (process.env[k] !== undefined) env[k] = process.env[k]!;
  return { ...env, ...vars };
}

/**
 * The argv that runs `argv` with exactly `env` and nothing inherited: `env -i K=V ... argv`.
 * Use it for every child a test starts with an environment of its own. PATH is taken from the
 * caller when `env` has none, so `argv[0]` is still found.
 */
export function onlyEnv(argv: string[], env: Record<string, string | undefined>): string[] {
  const vars = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env };
  const pairs = Object.entries(vars).filter(([, v]) => v !== undefined).map(([k, v]) =>
    `${k}=${v}`
  );
  return ["env", "-i", ...pairs, ...argv];
}

/** {@link onlyEnv} split as `spawn(cmd, args, ...)` takes it: `spawnSync(...exactly(argv, env), opts)`. */
export function exactly(
  argv: string[],
  env: Record<string, string | undefined>,
): [string, string[]] {
  const [cmd, ...args] = onlyEnv(argv, env);
  return [cmd, args];
}

/** The command that runs deja from this checkout's sources, as a child process runs it. */
export const FROM_SOURCE: readonly string[] = [
  process.execPath,
  "run",
  "-A",
  "--config",
  join(REPO, "deno.json"),
  join(REPO, "main.ts"),
];
