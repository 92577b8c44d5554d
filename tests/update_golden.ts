/**
 * Rewrites fixtures/registry/<id>/expected.json from the parser's current
 * output. Run only on purpose: `deno task golden [id...]`, then read the diff.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { parsers } from "../parsers/mod.ts";
import { fixtureRun, loadRegistry } from "./_registry.ts";

const want = new Set(process.argv.slice(2));
for (const entry of loadRegistry()) {
  if (want.size && !want.has(entry.id)) continue;
  const parser = parsers.find((p) => p.id === entry.id);
  if (!parser) continue;
  const out = await fixtureRun(entry, parser);
  const file = join(entry.fixtureDir, "expected.json");
  writeFileSync(file, JSON.stringify(out, null, 2) + "\n");
  console.log(`wrote ${file}`);
}
