/**
 * One concept, one module: the names that shipped code (`core/`, `lib/`,
 * `parsers/`, tests and benchmarks left out) *declares* as exports, and those
 * declared in more than one module. A re-export (`export { x } from`) is the
 * same definition under its one name and is not counted.
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

/** A name exported by more than one module. */
export interface Twice {
  name: string;
  /** The declaring files, relative to the root, `/`-separated, sorted. */
  files: string[];
}

const DIRS = ["core", "lib", "parsers"];
const SKIP = new Set(["node_modules", "fixtures", "dist", ".git"]);
const DECL =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|abstract\s+class|type|interface|enum)\s+([A-Za-z_$][\w$]*)/gm;

function shipped(dir: string): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (SKIP.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...shipped(p));
    else if (name.endsWith(".ts") && !name.endsWith("_test.ts") && !name.endsWith(".gen.ts")) {
      out.push(p);
    }
  }
  return out;
}

/**
 * Every exported name declared in two or more modules under `root`, except
 * the entries of `allowed` (name -> the exact files allowed to declare it: a
 * third declaration still counts).
 */
export function exportedTwice(
  root: string,
  allowed: Readonly<Record<string, readonly string[]>> = {},
): Twice[] {
  const abs = resolve(root);
  const by = new Map<string, Set<string>>();
  for (const d of DIRS) {
    for (const file of shipped(join(abs, d))) {
      const rel = relative(abs, file).split(sep).join("/");
      for (const m of readFileSync(file, "utf8").matchAll(DECL)) {
        const set = by.get(m[1]) ?? new Set<string>();
        set.add(rel);
        by.set(m[1], set);
      }
    }
  }
  const out: Twice[] = [];
  for (const [name, set] of by) {
    if (set.size < 2) continue;
    const files = [...set].sort();
    const ok = allowed[name];
    if (ok && files.every((f) => ok.includes(f))) continue;
    out.push({ name, files });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** `.all(…)` or `.get(…)` (arguments may nest one level and span lines) cast through `unknown`. */
const CAST_ROWS = /\.(?:all|get)\((?:[^()]|\([^()]*\))*\)\s*as\s+unknown\s+as\b/g;

/**
 * Query results cast through `unknown` in shipped code, as `file:line`
 * (`/`-separated, sorted): deja's own index reads rows through the typed
 * queries of lib/sql.ts, a harness's store through core/sqlite_rows.ts.
 */
export function castQueryResults(root: string): string[] {
  const abs = resolve(root);
  const out: string[] = [];
  for (const d of DIRS) {
    for (const file of shipped(join(abs, d))) {
      const rel = relative(abs, file).split(sep).join("/");
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(CAST_ROWS)) {
        out.push(`${rel}:${text.slice(0, m.index).split("\n").length}`);
      }
    }
  }
  return out.sort();
}
