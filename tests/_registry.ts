/** Registry loading and the fixture run shared by the registry test and the golden task. */
import { readdirSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import type { Parser } from "../core/model.ts";
import { materialize, normalize, REPO, runParser, testEnv } from "./_fixture.ts";
import { overrideVar } from "../core/paths.ts";

export interface RegistryEntry {
  id: string;
  display_name: string;
  store_paths: string[];
  format_kind: string;
  fixture_root: string;
  fixture_paths: string[];
  parser_source: string;
  last_verified: string;
  capabilities: Record<string, unknown>;
  /** Absolute fixtures/registry/<id>. */
  fixtureDir: string;
}

export function loadRegistry(): RegistryEntry[] {
  const raw = JSON.parse(readFileSync(join(REPO, "registry.json"), "utf8"));
  return (raw.harnesses as RegistryEntry[]).map((e) => ({
    ...e,
    fixtureDir: join(REPO, "fixtures/registry", e.id),
  }));
}

/** When a golden run's files were last written: a store a parser dates by mtime reads this. */
export const FIXTURE_MTIME = new Date("2026-06-01T12:00:00Z");

/** Gives every file under `dir` the mtime {@link FIXTURE_MTIME}, so a golden is the same on every run. */
function stampFiles(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) utimesSync(join(e.parentPath, e.name), FIXTURE_MTIME, FIXTURE_MTIME);
  }
}

/**
 * Materialises the entry's fixture, points DEJA_<ID>_ROOT at its fixture_root,
 * runs the parser, and returns the normalised result the golden file holds.
 */
export async function fixtureRun(entry: RegistryEntry, parser: Parser): Promise<unknown> {
  const fx = materialize(entry.fixtureDir);
  try {
    stampFiles(fx.root);
    const rel = entry.fixture_root.replace(`fixtures/registry/${entry.id}`, "").replace(/^\//, "");
    const home = join(fx.root, "__home__");
    const env = testEnv(home, { [overrideVar(entry.id)]: join(fx.root, rel), TZ: "UTC" });
    const run = await runParser(parser, env, [join(fx.root, "known-project")]);
    return normalize(
      { sessions: run.sessions, skips: run.skips, errors: run.errors },
      fx.root,
    );
  } finally {
    fx.cleanup();
  }
}
