/**
 * `install --force` over a hand-written entry whose `args` start with "mcp"
 * wrote invalid JSON (`"args":["mcp""]`, reported 2027-01: jsonc-parser cuts
 * the removal of a one-line list's last item one character short). Every
 * edit is now read back before it is written: a text that does not parse, or
 * does not hold exactly the values meant, is refused and nothing is written.
 */
import { assert, assertEquals, assertThrows } from "./_assert.ts";
import { read, t, world, write } from "./_install_world.ts";
import { rmSync } from "node:fs";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { mcpFile } from "../lib/install/facts.ts";
import { EditCheckError, renderChecked } from "../lib/install/formats.ts";

const SHAPES: Record<string, string> = {
  "longer args, one line": '{"mcpServers":{"deja":{"command":"/opt/deja","args":["mcp","--x"]}}}',
  "longer args, env, pretty": JSON.stringify(
    { mcpServers: { deja: { command: "/opt/deja", args: ["mcp", "--x", "y"], env: { A: "1" } } } },
    null,
    2,
  ),
  "equal args":
    '{"mcpServers":{"deja":{"command":"/opt/deja","args":["serve"]},"o":{"command":"x"}}}',
  "shorter args": '{"mcpServers":{"deja":{"command":"/opt/deja","args":[]}}, "k": [1,2]}',
  "no args, env": '{\n\t"mcpServers": {"deja": {"command": "/opt/deja", "env": {"B": "2"}}}\n}\n',
};

for (const target of ["cursor", "cline"]) {
  for (const [shape, original] of Object.entries(SHAPES)) {
    Deno.test(`${target}: install --force over a hand-written entry (${shape}) writes valid JSON`, () => {
      const w = world();
      try {
        const ref = t(target);
        const path = mcpFile(w.env, ref.harness.facts.mcp!);
        write(path, original);
        const r = installTargets(w.env, w.self, [ref], { force: true });
        assert(!r.aborted, JSON.stringify(r.outcomes));
        const after = JSON.parse(read(path)); // throws on invalid JSON
        const before = JSON.parse(original);
        for (const k of Object.keys(before)) {
          if (k !== "mcpServers") assertEquals(after[k], before[k], "other values kept");
        }
        uninstallTargets(w.env, [ref]);
        assertEquals(JSON.parse(read(path)), before, "the user's entry is back");
      } finally {
        rmSync(w.root, { recursive: true, force: true });
      }
    });
  }
}

Deno.test("renderChecked refuses an edit that would change values it was not meant to", () => {
  // `before` does not match the text: the edit computed from it removes `a` but keeps `b`.
  assertThrows(
    () => renderChecked("json", '{"a":1,"b":2}', { a: 1 }, {}),
    EditCheckError,
  );
  assertEquals(renderChecked("json", '{"a":1,"b":2}', { a: 1, b: 2 }, { b: 2 }), '{"b":2}');
});
