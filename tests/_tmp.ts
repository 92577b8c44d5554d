/**
 * Temporary directories for tests, removed when they are no longer needed:
 * {@link tempDir} for a directory that lives until the test module ends (the
 * common case: a fixture shared by several steps, a helper that returns a
 * path), {@link scopedTempDir} for one removed as its block ends (`using`).
 * Every directory either makes is removed when the module's process unloads,
 * even after a failed assertion, so a run of the suite leaves nothing in
 * `$TMPDIR` (tests/tmp_hygiene_test.ts checks that).
 *
 * Tests create temporary directories only through this module
 * (tests/tmp_hygiene_test.ts checks that too).
 *
 * @module
 */
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made = new Set<string>();
let hooked = false;

/** Removes `dir` and everything below it, also parts a test left without permissions. */
export function removeTemp(dir: string): void {
  made.delete(dir);
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // A test may have taken a directory's read or write permission away.
    grant(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

function grant(p: string): void {
  try {
    if (!lstatSync(p).isDirectory()) return;
    chmodSync(p, 0o700);
    for (const name of readdirSync(p)) grant(join(p, name));
  } catch { /* gone, or not ours */ }
}

function removeAll(): void {
  for (const dir of [...made]) {
    try {
      removeTemp(dir);
    } catch { /* nothing more can be done at exit */ }
  }
}

/**
 * A new empty directory `$TMPDIR/<prefix>XXXXXX`, removed when the test
 * module ends (earlier with {@link removeTemp}).
 */
export function tempDir(prefix = "deja-test-"): string {
  if (!hooked) {
    hooked = true;
    globalThis.addEventListener("unload", removeAll);
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** A temporary directory removed when the `using` block that holds it ends. */
export interface ScopedTempDir extends Disposable {
  readonly path: string;
}

/** {@link tempDir}, removed as soon as its `using` block ends: `using t = scopedTempDir("deja-x-")`. */
export function scopedTempDir(prefix = "deja-test-"): ScopedTempDir {
  const path = tempDir(prefix);
  return { path, [Symbol.dispose]: () => removeTemp(path) };
}
