import { assertEquals } from "../../tests/_assert.ts";
import { fileMoves, resolvedIn } from "./moves.ts";

Deno.test("fileMoves reads rm and mv as a shell splits them, and nothing it cannot tell", () => {
  assertEquals(fileMoves("rm -f a.txt 'b c.txt' && git rm -q old.ts"), {
    removed: ["a.txt", "b c.txt", "old.ts"],
    moved: [],
  });
  assertEquals(fileMoves("mv -v x.json crush.json; mv one.md two.md docs/"), {
    removed: [],
    moved: [["x.json", "crush.json"], ["one.md", "docs/one.md"], ["two.md", "docs/two.md"]],
  });
  // A glob or a variable names no file that can be told; after a cd the folder is unknown.
  assertEquals(fileMoves("rm *.log $TMP/x"), { removed: [], moved: [] });
  assertEquals(fileMoves("rm a && cd sub && rm b"), { removed: ["a"], moved: [] });
  // Other commands, and the words rm and mv as arguments, remove nothing.
  assertEquals(fileMoves("echo rm a.txt | grep mv"), { removed: [], moved: [] });
  assertEquals(fileMoves("sudo rm /etc/x.conf"), { removed: ["/etc/x.conf"], moved: [] });
});

Deno.test("resolvedIn makes a path whole against the project, POSIX only", () => {
  assertEquals(resolvedIn("docs/../a.md", "/w/app"), "/w/app/a.md");
  assertEquals(resolvedIn("/tmp/x/", "/w/app"), "/tmp/x");
  assertEquals(resolvedIn("a.md", "C:\\Users\\me\\app"), undefined);
  assertEquals(resolvedIn("a.md", null), undefined);
});
