/**
 * A refresh on use of another process, as tests need one: a child `deno` that takes the
 * writer lock of a data folder as a brief hold (lib/store.ts), keeps it, then lets go.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./_tmp.ts";

/**
 * Starts the holder of `dir`'s lock for `ms` and resolves once it holds it, with a promise
 * of the child's end.
 */
export async function briefHolder(
  dir: string,
  ms: number,
  /** Hold the lock without recording who holds it (as a holder between its lock and its record). */
  unrecorded = false,
  /** Hold it as a full run does (not brief), doing this (as `deja index --watch` writing). */
  doing?: string,
): Promise<{ done: Promise<unknown> }> {
  const home = tempDir("deja-hold-");
  const script = join(home, "hold.ts");
  const store = new URL("../lib/store.ts", import.meta.url).href;
  const take = unrecorded
    ? `import { DatabaseSync } from "node:sqlite";\n` +
      `const db = new DatabaseSync(${JSON.stringify(join(dir, "index.lock"))});\n` +
      `db.exec("PRAGMA journal_mode = DELETE"); db.exec("BEGIN EXCLUSIVE");\n` +
      `const l = { release: () => db.close() };\n`
    : `import { acquireWriterLock } from ${JSON.stringify(store)};\n` +
      `const l = acquireWriterLock(${JSON.stringify(dir)}, 0, ${
        JSON.stringify(doing ? { doing } : { doing: "refreshing it on use", brief: true })
      });\n`;
  writeFileSync(
    script,
    take +
      `console.log("held");\nawait new Promise((r) => setTimeout(r, ${ms}));\nl.release();\n`,
  );
  const child = spawn(Deno.execPath(), ["run", "-A", "--no-lock", script], {
    stdio: ["ignore", "pipe", "inherit"],
    // Its own module cache and home: the script imports local files and node: built-ins only.
    env: {
      DENO_DIR: join(home, "deno"),
      HOME: home,
      XDG_CACHE_HOME: join(home, ".cache"),
      NO_COLOR: "1",
    },
  });
  const done = new Promise((r) => child.on("exit", r));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (b: Uint8Array) => {
      if (String(b).includes("held")) resolve();
    });
    child.on("exit", () => reject(new Error("the holder ended before it held the lock")));
  });
  return { done };
}
