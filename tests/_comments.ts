/**
 * Comments that send a reader outside the repository: every `.ts` file's
 * comments checked for the research notes, which are not in it (the
 * `research` folder, the `formats-*` notes: {@link NOTES}); shipped code
 * (`core/`, `lib/`, `parsers/`, `main.ts`, `bin.ts`) also for the shared
 * folder beside the checkout ({@link OUTSIDE}). Tests and benchmarks may name
 * the real stores they read when present, since the code beside the comment
 * reads them (and skips when they are absent).
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

/** One comment line that points outside the repository. */
export interface OutsideRef {
  /** File relative to the root, `/`-separated, and 1-based line. */
  where: string;
  /** What it cites. */
  cites: string;
}

const SKIP = new Set(["node_modules", "fixtures", "dist", ".git"]);
/** Research notes kept outside the repository. */
export const NOTES = /(?:\bresearch\/|\bformats-(?:new|anchor)\b)/;
/** The shared folder beside the checkout. */
export const OUTSIDE = /(?:\.\.\/shared\b|\/work\/shared\b)/;

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const p = join(dir, name);
    // A file another test's build writes and removes beside the sources (`bun build`'s
    // `.<hash>.bun-build`) may be gone by now: what is not there holds no comment.
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith(".ts") && !name.endsWith(".gen.ts")) out.push(p);
  }
  return out;
}

function shipped(rel: string): boolean {
  if (rel.endsWith("_test.ts")) return false;
  return /^(core|lib|parsers)\//.test(rel) || rel === "main.ts" || rel === "bin.ts";
}

/**
 * The comment text of each line of `text`, by 1-based line: block and `//`
 * comments, outside string and template literals (a regular expression
 * literal holding `//` or quotes would be misread; the tree has none that
 * matter).
 */
export function commentLines(text: string): Array<[number, string]> {
  const said: string[] = [];
  let line = 0;
  let state: "code" | "line" | "block" | "'" | '"' | "`" = "code";
  const add = (c: string) => (said[line] = (said[line] ?? "") + c);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "\n") {
      line++;
      if (state === "line" || state === "'" || state === '"') state = "code";
      continue;
    }
    if (state === "line" || state === "block") {
      if (state === "block" && c === "*" && next === "/") {
        state = "code";
        i++;
      } else add(c);
    } else if (state === "code") {
      if (c === "/" && next === "/") [state, i] = ["line", i + 1];
      else if (c === "/" && next === "*") [state, i] = ["block", i + 1];
      else if (c === "'" || c === '"' || c === "`") state = c;
    } else if (c === "\\") i++;
    else if (c === state) state = "code";
  }
  const out: Array<[number, string]> = [];
  said.forEach((t, n) => {
    if (t && t.trim()) out.push([n + 1, t]);
  });
  return out;
}

/** Every comment under `root` that cites research notes, or (in shipped code) a path outside it. */
export function outsideRefs(root: string): OutsideRef[] {
  const abs = resolve(root);
  const out: OutsideRef[] = [];
  for (const file of tsFiles(abs)) {
    const rel = relative(abs, file).split(sep).join("/");
    for (const [n, said] of commentLines(readFileSync(file, "utf8"))) {
      const m = NOTES.exec(said) ?? (shipped(rel) ? OUTSIDE.exec(said) : null);
      if (m) out.push({ where: `${rel}:${n}`, cites: m[0] });
    }
  }
  return out;
}
