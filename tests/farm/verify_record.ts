/**
 * `deno task verify:record <report.json>`: writes "last verified" from a
 * farm report. For every harness that passed (and that deja has a parser
 * for), its registry.json entry gets `verified_version` (the version that ran),
 * `verified_by: "farm"` and `last_verified` (the run's date), and its page
 * docs/registry/<id>.md gets the generated part of its Verified section and
 * the same "Last verified" date. Harnesses that failed or were skipped are
 * left as they were. Wiring rows (`deno task farm --wiring`) whose MCP round
 * trip held write `wiring_verified` and the page's wiring part instead. Exit 0 when something was recorded, 1 when nothing
 * passed, 2 on an error.
 *
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { REPO } from "../_fixture.ts";
import type { FarmReport } from "./report.ts";
import { greens, setFields, updatePage } from "./_verified.ts";
import { setWiring, updateWiringPage, wiringGreens } from "./_wiring_verified.ts";

/** What {@link record} did. */
export interface Recorded {
  /** `id version date` of each entry written. */
  recorded: string[];
  /** `name: why` of each harness left as it was. */
  untouched: string[];
}

/** Records the green harnesses of `report` in the registry and pages under `repo`. */
export function record(repo: string, report: FarmReport): Recorded {
  const regPath = join(repo, "registry.json");
  let reg = readFileSync(regPath, "utf8");
  const out: Recorded = { recorded: [], untouched: [] };
  const pages = new Map<string, string>();
  for (const g of greens(report)) {
    reg = setFields(reg, g.id, {
      last_verified: g.date,
      verified_version: g.version,
      verified_by: "farm",
    });
    const page = join(repo, "docs/registry", `${g.id}.md`);
    pages.set(page, updatePage(readFileSync(page, "utf8"), g));
    out.recorded.push(`${g.id} ${g.version} ${g.date}`);
  }
  for (const g of wiringGreens(report)) {
    reg = setWiring(reg, g.id, g);
    const page = join(repo, "docs/registry", `${g.id}.md`);
    pages.set(page, updateWiringPage(pages.get(page) ?? readFileSync(page, "utf8"), g));
    out.recorded.push(`${g.id} wiring ${g.version} ${g.date} mcp${g.hooks ? "+hooks" : ""}`);
  }
  for (const h of report.harnesses) {
    if (h.mode === "wiring") {
      if (!out.recorded.some((l) => l.startsWith(`${h.parser} wiring `))) {
        out.untouched.push(`${h.name} wiring: ${h.status}${h.reason ? ` (${h.reason})` : ""}`);
      }
    } else if (h.status !== "passed") {
      out.untouched.push(`${h.name}: ${h.status}${h.reason ? ` (${h.reason})` : ""}`);
    } else if (!h.parser) out.untouched.push(`${h.name}: no parser`);
  }
  JSON.parse(reg); // never write a registry that does not parse
  writeFileSync(regPath, reg);
  for (const [path, text] of pages) writeFileSync(path, text);
  return out;
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) {
    console.error(
      "usage: deno task verify:record <report.json>   (from 'deno task farm --report <file>')",
    );
    process.exit(2);
  }
  try {
    const r = record(REPO, JSON.parse(readFileSync(file, "utf8")) as FarmReport);
    for (const l of r.recorded) console.log(`recorded  ${l}`);
    for (const l of r.untouched) console.log(`left      ${l}`);
    process.exit(r.recorded.length ? 0 : 1);
  } catch (e) {
    console.error(`verify:record: ${(e as Error).message}`);
    process.exit(2);
  }
}
