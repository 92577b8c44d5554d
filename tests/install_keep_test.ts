/**
 * Install changes only deja's entry of a JSON config: the user's one-line
 * siblings, other keys, indentation, CRLF line ends and byte order mark stay
 * (reported 2027-01: `.claude.json` re-serialised with a two-space indent,
 * LF, no BOM, every one-liner expanded; uninstall did not give back a BOM
 * file's bytes).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { roundTrip, world } from "./_install_world.ts";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const BOM = "\uFEFF";
const GITHUB = `"github": { "type": "http", "url": "https://api.example/mcp" }`;
const PROJECTS = `"projects": { "/work/a": { "allowedTools": [] } }`;

for (
  const [name, bom, eol, indent] of [
    ["4-space", "", "\n", "    "],
    ["CRLF", "", "\r\n", "  "],
    ["BOM", BOM, "\n", "\t"],
  ]
) {
  Deno.test(`claude-code: a ${name} .claude.json keeps every byte but deja's entry, and gets them all back`, () => {
    const w = world();
    try {
      const path = join(w.home, ".claude.json");
      const original = bom +
        ["{", `${indent}"mcpServers": {`, `${indent}${indent}${GITHUB}`, `${indent}},`]
          .concat([
            `${indent}${PROJECTS},`,
            `${indent}"permissions": { "allow": ["Bash(ls)"] }`,
            "}",
            "",
          ])
          .join(eol);
      const after = roundTrip(w, "claude-code", path, original);
      const bytes = readFileSync(path); // after uninstall: the original
      assertEquals(bytes.toString("utf8"), original);
      assertStringIncludes(after, `${indent}${indent}${GITHUB}`, "the one-liner sibling stays");
      assertStringIncludes(after, `${indent}${PROJECTS},`, "other keys stay as they were");
      assert(after.startsWith(bom + "{"), "the BOM stays");
      if (eol === "\r\n") assert(!/[^\r]\n/.test(after), "every line still ends in CRLF");
      assertStringIncludes(
        after,
        `${eol}${indent}${indent}"deja": {`,
        "deja's entry in the file's indent",
      );
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  });
}
