/**
 * A one-session Claude Code store file for tests that parse whole stores
 * (the parse pool's tests).
 *
 * @module
 */
import { join } from "node:path";
import { writeFileSync } from "node:fs";

/** Writes `<dir>/<id>.jsonl`: one session of `n` user lines; returns its path. */
export function claudeStore(dir: string, id: string, n: number): string {
  const path = join(dir, `${id}.jsonl`);
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      type: "user",
      message: { role: "user", content: `question ${i} about the build of ${id}` },
      uuid: `${id}-u${i}`,
      sessionId: id,
      cwd: "/tmp/p",
      timestamp: "2025-01-01T00:00:00Z",
    }));
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}
