/**
 * DEJA_HOME that is a regular file (or a folder under one) is named as such, in one line with a
 * hint, by every command (trial 127 F8: doctor said "its folder is read-only", search and show
 * "cannot read the index …: ENOTDIR", index "cannot create the index directory …: EEXIST").
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWith } from "./_cli_io.ts";
import { removeTemp, tempDir } from "./_tmp.ts";

Deno.test("DEJA_HOME that is a file is named as a file where a folder is needed, by every command", async () => {
  const dir = tempDir("deja-homefile-");
  try {
    const file = join(dir, "dejahome");
    writeFileSync(file, "not a folder\n");
    for (const home of [file, join(file, "sub")]) {
      const vars = { HOME: join(dir, "home"), DEJA_HOME: home, DEJA_NO_REFRESH: "1" };
      const said = `deja: ${file} is a file, where deja needs a folder for its index`;
      for (
        const args of [["zebra"], ["show", "abcd1234"], ["index"], ["stats"], ["last"], [
          "remember",
          "a note",
        ]]
      ) {
        const r = await run(args, vars);
        assertEquals(r.code, 2, `${args.join(" ")}: ${r.out}${r.err}`);
        assertStringIncludes(r.err, said);
        assertStringIncludes(r.err, "hint: move the file away, or point DEJA_HOME at a folder");
        assert(!/ENOTDIR|EEXIST|read-only/.test(r.err), r.err);
      }
      const doc = await run(["doctor", "--json"], vars);
      const index = JSON.parse(doc.out).index;
      assertStringIncludes(index.not_folder, `${file} is a file`);
      assertEquals(index.read_only, false);
      const text = await run(["doctor"], vars);
      assertEquals(text.code, 1);
      assertStringIncludes(text.err, "index (its folder is a file)");
      assert(!text.out.includes("read-only"), text.out);
    }
    assertEquals(readFileSync(file, "utf8"), "not a folder\n");
  } finally {
    removeTemp(dir);
  }
});

const run = (args: string[], vars: Record<string, string>) => runWith(args, vars);
