/**
 * What the replay benchmarks share (bench/writer_replay.ts, bench/worker_replay.ts):
 * the synthetic Claude Code corpus's sources as the parser discovers them, and
 * the process's CPU time.
 *
 * @module
 */
import { join } from "node:path";
import process from "node:process";
import { ensureCorpus } from "./gen_claude.ts";
import { REPO } from "../tests/_fixture.ts";
import { claude } from "../parsers/claude.ts";
import type { Env } from "../core/model.ts";

/** CPU ms of the process (every thread: under Bun that includes its JIT and GC helpers). */
export function cpuMs(since?: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
}

/**
 * The Claude Code sources of `corpus` (a projects directory), or of the
 * bench corpus of `mb` megabytes (generated on first use), with the
 * environment that points the parser at them.
 */
export async function replayCorpus(mb: number, corpus?: string) {
  const root = corpus ?? join(ensureCorpus(join(REPO, ".bench"), mb).dir, "projects");
  const env: Env = {
    home: "/nonexistent",
    platform: process.platform,
    get: (n) => (n === "DEJA_CLAUDE_ROOT" ? root : undefined),
  };
  const found = await claude.discover({ env, knownProjects: [], problem() {} });
  return { env, sources: found.sources };
}
