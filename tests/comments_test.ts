/**
 * Code comments point at pages in the repository (docs/registry/<id>.md,
 * docs/), never at research notes kept outside it (issue 11, item 7).
 */
import { assertEquals } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { commentLines, outsideRefs } from "./_comments.ts";
import { REPO } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

function tree(files: Record<string, string>): string {
  const root = tempDir("deja-comments-");
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

Deno.test("no code comment cites research notes or, in shipped code, a path outside the repository", () => {
  const got = outsideRefs(REPO).map((r) => `${r.where}: ${r.cites}`);
  assertEquals(got, [], "write the fact on docs/registry/<id>.md and cite that page");
});

Deno.test("the comment check reports notes cited in block and line comments, and shared paths in shipped code", () => {
  const root = tree({
    "parsers/amp.ts":
      `/**\n * Store layout (formats-new §2).\n */\nexport const a = 1; // see ../shared/realdata/x\n`,
    "lib/x.ts": `// measured on /work/shared/realdata/crush\nexport const x = 1;\n`,
    "tests/y_test.ts": `// copies of ../shared/realdata/crush (read when present)\n`,
    "bench/z.ts": `/* from research/formats-anchor.md */\n`,
  });
  assertEquals(outsideRefs(root).map((r) => `${r.where}: ${r.cites}`).sort(), [
    "bench/z.ts:1: research/",
    "lib/x.ts:1: /work/shared",
    "parsers/amp.ts:2: formats-new",
    "parsers/amp.ts:4: ../shared",
  ]);
});

Deno.test("the comment check reads comments only: strings, code and URLs are not comments", () => {
  assertEquals(
    commentLines(
      `const p = "../shared/x"; // kept\nconst u = "https://x.test/a"; const t = \`a\n// no\`;\n/* a\n b */ const c = 1;`,
    ),
    [[1, " kept"], [4, " a"], [5, " b "]],
  );
});
