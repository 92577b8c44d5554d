/**
 * One concept, one module (issue 11): no name is declared as an export by two
 * shipped modules, except the few below that mean different things where they
 * stand. Shared value readers, text helpers and paths live in core/
 * (docs/ARCHITECTURE.md).
 */
import { assertEquals } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { castQueryResults, exportedTwice } from "./_concepts.ts";
import { REPO } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

/**
 * Names declared by two modules that are two concepts, each with the exact
 * files allowed; a third declaration, or one elsewhere, still fails.
 */
const DIFFERENT: Record<string, readonly string[]> = {
  // A JSON edit at a key path (formats) vs a file install writes or removes (wire).
  Change: ["lib/install/formats.ts", "lib/install/wire.ts"],
  // The MCP tool's filters (with hiding) vs the FTS row filters of a search tier.
  Filters: ["lib/mcp/answers.ts", "lib/search/retrieve.ts"],
  // One item of the Crush hook's answer vs a piece of an HTML template.
  Part: ["lib/hooks/crush.ts", "lib/view/html.ts"],
  // A hook event's string field `str(o, key)` vs a value read as a string `str(v)`.
  str: ["core/values.ts", "lib/hooks/input.ts"],
  // The drift command's arguments (parse -> run -> render) vs a stored drift summary read back.
  parseDrift: ["lib/cli/cmd_drift.ts", "lib/source_state.ts"],
};

function tree(files: Record<string, string>): string {
  const root = tempDir("deja-concepts-");
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

Deno.test("no name is exported by two shipped modules (one concept, one module)", () => {
  const got = exportedTwice(REPO, DIFFERENT).map((t) => `${t.name}: ${t.files.join(", ")}`);
  assertEquals(got, [], "merge the definitions into one module (core/ for contract helpers)");
});

Deno.test("the concept check reports a helper defined again in another folder", () => {
  const root = tree({
    "core/text.ts": `export function plural(n: number, w: string) {\n  return w;\n}\n`,
    "lib/mcp/answers.ts": `export const plural = (n: number, w: string) => w;\n`,
    "parsers/_util.ts": `export type Obj = Record<string, unknown>;\n`,
    "lib/install/edits.ts": `export interface Obj {\n  x: 1;\n}\n`,
  });
  assertEquals(exportedTwice(root), [
    { name: "Obj", files: ["lib/install/edits.ts", "parsers/_util.ts"] },
    { name: "plural", files: ["core/text.ts", "lib/mcp/answers.ts"] },
  ]);
});

Deno.test("the concept check counts declarations only: re-exports, locals and tests pass; an allowed pair passes, a third file does not", () => {
  const root = tree({
    "core/values.ts": `export function obj(v: unknown) {\n  return v;\n}\n`,
    "parsers/_util.ts": `export { obj } from "../core/values.ts";\n`,
    "lib/a.ts": `function obj(v: unknown) {\n  return v;\n}\nexport const a = obj;\n`,
    "lib/a_test.ts": `export function obj() {}\n`,
    "lib/x.ts": `export type Part = string;\n`,
    "lib/y.ts": `export type Part = number;\n`,
  });
  assertEquals(exportedTwice(root, { Part: ["lib/x.ts", "lib/y.ts"] }), []);
  writeFileSync(join(root, "lib/z.ts"), `export interface Part {\n  p: 1;\n}\n`);
  assertEquals(exportedTwice(root, { Part: ["lib/x.ts", "lib/y.ts"] }), [
    { name: "Part", files: ["lib/x.ts", "lib/y.ts", "lib/z.ts"] },
  ]);
});

Deno.test("no query result is cast through unknown in shipped code (typed queries, core/sqlite_rows.ts)", () => {
  assertEquals(
    castQueryResults(REPO),
    [],
    "declare the query in lib/schema.ts, or read a harness store with allRows/getRow",
  );
});

Deno.test("the cast check reports .all()/.get() cast through unknown, on one line or several", () => {
  const root = tree({
    "parsers/x.ts": `const a = db.prepare("SELECT 1").all() as unknown as Row[];\n` +
      `const b = db.prepare(\`SELECT \${f(x)}\`)\n  .get(id) as unknown as\n  | Row\n  | undefined;\n`,
    "lib/y.ts": `const c = (rows.all(id, g(1)) as unknown as Row[]).map(f);\n`,
    "lib/z.ts":
      `const d = server as unknown as { close(): void };\nconst e = allRows<Row>(stmt, id);\n`,
    "lib/y_test.ts": `const t = s.all() as unknown as Row[];\n`,
  });
  assertEquals(castQueryResults(root), ["lib/y.ts:1", "parsers/x.ts:1", "parsers/x.ts:3"]);
});
