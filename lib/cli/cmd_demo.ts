/**
 * `deja demo`: the main job on the bundled sample stores. It lays the embedded
 * fixtures out in a temporary directory, indexes them into a temporary index
 * (never the user's), and runs a search. Useful on a machine with no agent
 * history, and as a smoke test of the binary.
 */
import { DatabaseSync } from "node:sqlite";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import type { CommandSpec } from "./common.ts";
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
  async run(a, io) {
    const root = mkdtempSync(join(tmpdir(), "deja-demo-"));
    try {
      // Progress on stderr from the first moment: laying out and indexing take a few seconds.
      io.err(`deja demo: laying out the sample stores of ${parsers.length} harnesses…\n`);
      layOutFixtures(join(root, "stores"));
      const vars = {
        ...fixtureVars(join(root, "stores")),
        HOME: join(root, "home"),
        DEJA_HOME: join(root, "deja"),
        NO_COLOR: io.env.get("NO_COLOR"),
      };
      const env = makeEnv(vars, join(root, "home"));
      const sub = { ...io, env };
      io.err(`deja demo: indexing them into a temporary index…\n`);
      if (!a.values.json) {
        io.out(`Sample stores of ${parsers.length} harnesses, indexed into a temporary index:\n`);
        await indexCmd.run({ values: {}, positionals: [] }, sub);
      } else {
        await indexCmd.run({ values: { quiet: true }, positionals: [] }, sub);
      }
      const query = a.positionals.length ? a.positionals : ["failing", "tests"];
      if (!a.values.json) io.out(`\n$ deja ${query.join(" ")}\n`);
      // The sample projects live in a temp dir: shown, not hidden as throwaway.
      const { keep: _keep, ...search } = a.values;
      const code = await runSearch({ values: { junk: true, ...search }, positionals: query }, sub);
      if (!a.values.json) {
        io.out(`\nOn your own history: deja index, then deja "<words you remember>".\n`);
      }
      if (a.values.keep) io.err(`kept ${root} (DEJA_HOME=${join(root, "deja")})\n`);
      return code;
    } finally {
      if (!a.values.keep) rmSync(root, { recursive: true, force: true });
    }
  },
};
