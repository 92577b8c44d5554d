/**
 * `deja demo`: the main job on the bundled sample stores. It lays the embedded
 * fixtures out in a temporary directory, indexes them into a temporary index
 * (never the user's), and runs a search. Useful on a machine with no agent
 * history, and as a smoke test of the binary.
 *
 * Parse ({@link parseDemo}) → run ({@link demoWorld} lays the stores out; `deja index` and
 * `deja search` then run on them, printing as they do) → render ({@link demoIntro},
 * {@link demoQueryLine}, {@link DEMO_OUTRO}).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import type { Args, CommandSpec } from "./common.ts";
import type { Env } from "../../core/model.ts";
import type { IO } from "../../core/runtime.ts";
import { makeEnv } from "../../core/runtime.ts";
import { FIXTURES } from "../demo_data.gen.ts";
import registry from "../../registry.json" with { type: "json" };
import { overrideVar } from "../../core/paths.ts";
import { indexCmd } from "./cmd_index.ts";
import { runSearch, searchCmd } from "./cmd_search.ts";
import { parsers } from "../../parsers/mod.ts";

/**
 * Writes the embedded fixtures under `root` (`.sql` executed). `@ROOT@` in a
 * fixture stands for its harness's own fixture directory (`<root>/<id>`).
 */
export function layOutFixtures(root: string): void {
  for (const [rel, text] of Object.entries(FIXTURES)) {
    const body = text.replaceAll("@ROOT@", join(root, rel.split("/")[0]));
    const target = join(root, rel.endsWith(".sql") ? rel.slice(0, -4) : rel);
    mkdirSync(dirname(target), { recursive: true });
    if (rel.endsWith(".sql")) {
      const db = new DatabaseSync(target);
      // A throwaway copy: no fsync per statement (the largest fixture took half a second).
      db.exec("PRAGMA synchronous = OFF");
      db.exec(body);
      db.close();
    } else {
      writeFileSync(target, body);
    }
  }
}

/** Env variables pointing every harness root at the laid-out fixtures. */
export function fixtureVars(root: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const h of registry.harnesses) {
    const rel = h.fixture_root.replace(/^fixtures\/registry\//, "");
    vars[overrideVar(h.id)] = join(root, rel);
  }
  return vars;
}

export const demoCmd: CommandSpec = {
  usage: "demo [query...] [search options] [--keep]",
  // Every search option works here: the search below advertises them ("--limit shows more").
  options: {
    ...searchCmd.options,
    keep: { type: "boolean", description: "keep the temporary directory and print its path" },
  },
  run: (a, io) => runDemo(parseDemo(a), io),
};

/** What `deja demo` was asked. */
export interface DemoArgs {
  /** The search words (default: `failing tests`). */
  query: string[];
  /** The search options as given, `--json` among them (checked by the search). */
  search: Args["values"];
  json: boolean;
  /** Keep the temporary directory and say where it is. */
  keep: boolean;
}

/** A demo world: the sample stores laid out and an env whose every root points into them. */
export interface DemoWorld {
  /** The temporary directory that holds it all. */
  root: string;
  /** The env the demo's index and search run under (its own HOME and DEJA_HOME). */
  env: Env;
}

/** Reads `deja demo`'s arguments (the search checks its own options when it runs). */
export function parseDemo(a: Args): DemoArgs {
  const { keep, ...search } = a.values;
  return {
    query: a.positionals.length ? a.positionals : ["failing", "tests"],
    // The sample projects live in a temp dir: shown, not hidden as throwaway.
    search: { junk: true, ...search },
    json: Boolean(a.values.json),
    keep: Boolean(keep),
  };
}

/**
 * Lays the embedded sample stores out under a new directory in `base` and
 * returns the env that reads them (colour as `noColor` says). The caller
 * removes `root`.
 */
export function demoWorld(base: string, noColor: string | undefined): DemoWorld {
  const root = mkdtempSync(join(base, "deja-demo-"));
  try {
    layOutFixtures(join(root, "stores"));
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  const vars = {
    ...fixtureVars(join(root, "stores")),
    HOME: join(root, "home"),
    DEJA_HOME: join(root, "deja"),
    NO_COLOR: noColor,
  };
  return { root, env: makeEnv(vars, join(root, "home")) };
}

/** The first line on stdout: what was indexed. */
export function demoIntro(harnesses: number): string {
  return `Sample stores of ${harnesses} harnesses, indexed into a temporary index:\n`;
}

/** The search shown as the command a person would type. */
export function demoQueryLine(query: string[]): string {
  return `\n$ deja ${query.join(" ")}\n`;
}

/** The last line: how to do the same on one's own history. */
export const DEMO_OUTRO = `\nOn your own history: deja index, then deja "<words you remember>".\n`;

/**
 * Runs the demo: stores laid out under `base`, indexed, searched; the
 * directory removed afterwards unless `--keep`. Returns the search's exit code.
 */
export async function runDemo(args: DemoArgs, io: IO, base = tmpdir()): Promise<number> {
  // Progress on stderr from the first moment: laying out and indexing take a few seconds.
  io.err(`deja demo: laying out the sample stores of ${parsers.length} harnesses…\n`);
  const world = demoWorld(base, io.env.get("NO_COLOR"));
  try {
    const sub = { ...io, env: world.env };
    io.err(`deja demo: indexing them into a temporary index…\n`);
    if (!args.json) {
      io.out(demoIntro(parsers.length));
      // The samples' damage, there on purpose, in one line (lib/cli/index_text.ts).
      await indexCmd.run({ values: { samples: true }, positionals: [] }, sub);
    } else {
      await indexCmd.run({ values: { quiet: true }, positionals: [] }, sub);
    }
    if (!args.json) io.out(demoQueryLine(args.query));
    const code = await runSearch({ values: args.search, positionals: args.query }, sub);
    if (!args.json) io.out(DEMO_OUTRO);
    if (args.keep) io.err(`kept ${world.root} (DEJA_HOME=${join(world.root, "deja")})\n`);
    return code;
  } finally {
    if (!args.keep) rmSync(world.root, { recursive: true, force: true });
  }
}
