/**
 * The module graph's rules, checked on a tree of TypeScript files:
 *
 * - `core/` imports only `core/` (the contract: model, env, errors, paths,
 *   text, frame, file and store readers, registry reader);
 * - `parsers/` imports `core/` and `parsers/`;
 * - `lib/` imports `core/`, `lib/` and the public files of `parsers/` (the
 *   list `parsers/mod.ts` and a harness's `parsers/<id>.ts`), never a shared
 *   `parsers/_*.ts` reader;
 * - no file imports a private module (`_name.ts`) of another folder.
 *
 * The rules bind shipped code; tests (`*_test.ts`, `tests/`) and benchmarks
 * (`bench/`) may reach anything they check. Data files (registry.json,
 * deno.json) may be imported from anywhere.
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";

/** One import that breaks a rule. */
export interface Violation {
  /** The importing file, relative to the root, `/`-separated. */
  from: string;
  /** The imported file, relative to the root. */
  to: string;
  /** Which rule, in words. */
  rule: string;
}

const SKIP = new Set(["node_modules", "fixtures", "dist", ".git"]);
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^"';]*?(?:from\s*)?["'](\.\.?\/[^"']+)["']/g;
const DYNAMIC = /import\(\s*["'](\.\.?\/[^"']+)["']\s*\)/g;

function tsFiles(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(root, p));
    else if (name.endsWith(".ts")) out.push(p);
  }
  return out;
}

function layer(rel: string): "core" | "parsers" | "lib" | "tests" | "app" {
  if (rel.endsWith("_test.ts") || rel.startsWith("tests/") || rel.startsWith("bench/")) {
    return "tests";
  }
  const top = rel.split("/")[0];
  if (top === "core" || top === "parsers" || top === "lib") return top;
  return "app";
}

/** The imports of every `.ts` file under `root` that break a rule above. */
export function checkLayout(root: string): Violation[] {
  const out: Violation[] = [];
  const abs = resolve(root);
  const rel = (p: string) => relative(abs, p).split(sep).join("/");
  for (const file of tsFiles(abs)) {
    const from = rel(file);
    const l = layer(from);
    if (l === "tests") continue;
    const text = readFileSync(file, "utf8");
    const specs = new Set([...text.matchAll(IMPORT), ...text.matchAll(DYNAMIC)].map((m) => m[1]));
    for (const spec of specs) {
      const target = resolve(dirname(file), spec);
      const to = rel(target);
      if (!to.endsWith(".ts")) continue;
      const top = to.split("/")[0];
      const priv = basename(to).startsWith("_");
      if (priv && dirname(target) !== dirname(file)) {
        out.push({ from, to, rule: "a private module (_name.ts) imported from another folder" });
      }
      if (l === "core" && top !== "core") {
        out.push({ from, to, rule: "core/ imports only core/" });
      } else if (l === "parsers" && top !== "core" && top !== "parsers") {
        out.push({ from, to, rule: "parsers/ import only core/ and parsers/" });
      } else if (l === "lib" && top !== "core" && top !== "lib" && top !== "parsers") {
        out.push({ from, to, rule: "lib/ imports only core/, lib/ and the parser list" });
      }
    }
  }
  return out;
}
