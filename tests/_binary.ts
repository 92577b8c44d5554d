/**
 * Builds the single binary once per test process with `bun build --compile`
 * (the `deno compile` release build cannot download its runtime here). Bun
 * comes from PATH, else from npm through npx.
 */
import process from "node:process";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./_fixture.ts";
import { onlyEnv } from "./_env.ts";
import { tempDir } from "./_tmp.ts";

let built: string | undefined;

function bunCommand(): string[] {
  const probe = spawnSync("bun", ["--version"], { encoding: "utf8" });
  return probe.status === 0 ? ["bun"] : ["npx", "-y", "bun@1.4.5"];
}

/**
 * Path of the compiled deja binary (built on first call; `DEJA_TEST_BINARY` names one built
 * already). @throws when the build fails.
 */
export function binary(): string {
  if (built && existsSync(built)) return built;
  const given = process.env.DEJA_TEST_BINARY;
  if (given && existsSync(given)) return (built = given);
  const dir = tempDir("deja-bin-");
  // ~100 MB per test process: removed when the process ends (tests/_tmp.ts).
  const out = join(dir, "deja");
  const [cmd, ...pre] = bunCommand();
  const r = spawnSync(
    cmd,
    // bin.ts: hooks on a fast path that loads only their modules (--splitting keeps the
    // rest in chunks loaded on demand); compiled to bytecode as the release is (compile:bun).
    [
      ...pre,
      "build",
      "--compile",
      // As compile:bun: the binary reads no bunfig.toml nor .env of the directory it runs in.
      "--no-compile-autoload-bunfig",
      "--no-compile-autoload-dotenv",
      "--splitting",
      "--bytecode",
      "--format=esm",
      join(REPO, "bin.ts"),
      // The `--re` worker (lib/search/regex_run.ts), an entry of its own as in compile:bun.
      join(REPO, "lib/search/regex_worker.ts"),
      "--outfile",
      out,
    ],
    {
      cwd: REPO,
      encoding: "utf8",
    },
  );
  if (r.status !== 0 || !existsSync(out)) {
    throw new Error(`bun build --compile failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
  built = out;
  return out;
}

/** Result of one run of the binary. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the binary with `args` in `cwd` with exactly `env` (plus PATH), nothing inherited. */
export function runBinary(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  input?: string,
): Run {
  const [cmd, ...rest] = onlyEnv([binary(), ...args], env);
  const r = spawnSync(cmd, rest, {
    cwd,
    encoding: "utf8",
    input,
    timeout: 60_000,
    maxBuffer: 1 << 26,
  });
  return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}
