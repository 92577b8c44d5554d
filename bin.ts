/**
 * The compiled binary's entry point (`deno compile`, `bun build --compile
 * --splitting`): the hooks, which run before every tool call of an agent,
 * take a fast path that loads only the hook modules; everything else goes
 * through main.ts and its command table. `--version` (which the launcher asks a
 * `deja` on PATH) answers at once too, from lib/version.ts like main.ts. A
 * first build or a rebuild (`deja index`) is relaunched for a batch run here,
 * before main.ts loads (lib/batch_run.ts), and a `deja index` that finds nothing
 * changed is answered here from the stat manifest (lib/cli/index_quick.ts).
 *
 * @module
 */
import process from "node:process";
import { asksVersion, VERSION_LINE } from "./lib/version.ts";
import { HOOK_NAMES } from "./lib/hooks/table.ts";
import { writeAll, writeLost } from "./core/stdio.ts";

const argv = process.argv.slice(2);

if (asksVersion(argv)) {
  writeAll(1, VERSION_LINE); // no stream objects: half the start-up CPU (core/stdio.ts)
  // As every other command (trial 60: `deja -V > /dev/full` exited 0).
  const lost = writeLost(1);
  if (lost) {
    writeAll(2, `deja: the output could not be written whole (${lost})\n`);
    process.exitCode = 1;
  }
} else if (HOOK_NAMES.has(argv[0] ?? "") && !argv.includes("--help") && !argv.includes("-h")) {
  const { hookProcess } = await import("./lib/hooks/main.ts");
  await hookProcess();
} else {
  const { exit, processEnv, processIO } = await import("./core/runtime.ts");
  let code: number | null = null;
  if (argv[0] === "index") {
    // A first build or a rebuild relaunches before main.ts and the commands load (lib/batch_run.ts).
    (await import("./lib/batch_run.ts")).relaunchIndexBatch(argv, processEnv());
    // Nothing changed: answered before they load (lib/cli/index_quick.ts).
    code = (await import("./lib/cli/index_quick.ts")).quickIndex(argv, processIO());
  }
  if (code === null) code = await (await import("./main.ts")).main(processIO());
  exit(code);
}
