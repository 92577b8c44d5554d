import { assertEquals } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkLayout } from "./_layout.ts";
import { tempDir } from "./_tmp.ts";

const ROOT = join(dirname(new URL(import.meta.url).pathname), "..");

function tree(files: Record<string, string>): string {
  const root = tempDir("deja-layout-");
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

Deno.test("the repository's imports follow the layout rules (docs/ARCHITECTURE.md)", () => {
  const v = checkLayout(ROOT);
  assertEquals(v.map((x) => `${x.from} -> ${x.to}: ${x.rule}`), []);
});

Deno.test("the layout check reports core importing lib, parsers importing lib, lib importing a parser's private reader", () => {
  const root = tree({
    "core/model.ts": `import { x } from "../lib/store.ts";\nexport const m = x;\n`,
    "lib/store.ts": `import { r } from "../parsers/_roots.ts";\nexport const x = r;\n`,
    "parsers/_roots.ts": `export const r = 1;\n`,
    "parsers/deja.ts": `import { x } from "../lib/store.ts";\nexport const d = x;\n`,
  });
  const got = checkLayout(root).map((v) => `${v.from} -> ${v.to}: ${v.rule}`).sort();
  assertEquals(got, [
    "core/model.ts -> lib/store.ts: core/ imports only core/",
    "lib/store.ts -> parsers/_roots.ts: a private module (_name.ts) imported from another folder",
    "parsers/deja.ts -> lib/store.ts: parsers/ import only core/ and parsers/",
  ]);
});

Deno.test("the layout check allows a folder's own private modules, the parser list, and tests reaching anywhere", () => {
  const root = tree({
    "core/paths.ts": `export const p = 1;\n`,
    "parsers/_jsonl.ts": `import { p } from "../core/paths.ts";\nexport const j = p;\n`,
    "parsers/mod.ts": `import { j } from "./_jsonl.ts";\nexport const parsers = [j];\n`,
    "lib/cli/_memory.ts": `export const mem = 1;\n`,
    "lib/cli/cmd_x.ts":
      `import { mem } from "./_memory.ts";\nimport { parsers } from "../../parsers/mod.ts";\nexport const c = [mem, parsers];\n`,
    "lib/cli/cmd_x_test.ts": `import { j } from "../../parsers/_jsonl.ts";\nexport const t = j;\n`,
    "tests/x_test.ts": `import { j } from "../parsers/_jsonl.ts";\nexport const t = j;\n`,
  });
  assertEquals(checkLayout(root), []);
});

Deno.test("the layout check sees multi-line, type-only, re-export and dynamic imports", () => {
  const root = tree({
    "core/a.ts": `import type {\n  A,\n  B,\n} from "../lib/b.ts";\nexport type C = A | B;\n`,
    "core/b.ts": `export { x } from "../parsers/x.ts";\n`,
    "core/c.ts": `export const f = () => import("../lib/b.ts");\n`,
    "lib/b.ts": `export type A = 1;\nexport type B = 2;\n`,
    "parsers/x.ts": `export const x = 1;\n`,
  });
  assertEquals(checkLayout(root).map((v) => v.from).sort(), [
    "core/a.ts",
    "core/b.ts",
    "core/c.ts",
  ]);
});
