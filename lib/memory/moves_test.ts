import { assertEquals } from "../../tests/_assert.ts";
import { fileMoves, globNames, resolvedIn } from "./moves.ts";

Deno.test("fileMoves reads rm and mv as a shell splits them, and nothing it cannot tell", () => {
  assertEquals(fileMoves("rm -f a.txt 'b c.txt' && git rm -q old.ts"), {
    removed: ["a.txt", "b c.txt", "old.ts"],
    moved: [],
  });
  assertEquals(fileMoves("mv -v x.json crush.json; mv one.md two.md docs/"), {
    removed: [],
    moved: [["x.json", "crush.json"], ["one.md", "docs/one.md"], ["two.md", "docs/two.md"]],
  });
  // A variable names no file that can be told, nor a glob moved; a cd to a folder named
  // plainly is followed, after another the folder is unknown. A removal's `*` glob is kept, to tell against the files known; `unlink` removes.
  assertEquals(fileMoves("rm *.log $TMP/x"), { removed: [], moved: [] });
  assertEquals(fileMoves("mv *.log old/"), { removed: [], moved: [] });
  assertEquals(fileMoves("rm -f *.tmp k.txt; unlink u.txt"), {
    removed: ["*.tmp", "k.txt", "u.txt"],
    moved: [],
  });
  assertEquals(fileMoves("rm a && cd sub && rm b"), { removed: ["a", "sub/b"], moved: [] });
  assertEquals(fileMoves("cd /tmp/x && mv a b && cd - && rm c"), {
    removed: [],
    moved: [["/tmp/x/a", "/tmp/x/b"]],
  });
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

Deno.test("globNames tells a removal's glob against whole paths, a folder's files inside it", () => {
  assertEquals(globNames("/w/a/*.log", "/w/a/x.log"), true);
  assertEquals(globNames("/w/a/*.log", "/w/a/sub/x.log"), false, "one folder level");
  assertEquals(globNames("/w/a/b?.txt", "/w/a/b1.txt"), true);
  assertEquals(globNames("/w/a/build*", "/w/a/build-1/out.js"), true, "inside a folder it names");
  assertEquals(globNames("/w/a/x.log", "/w/a/x.log"), true);
  assertEquals(globNames("/w/a/x.log", "/w/a/xxlog"), false, "a dot is a dot");
  assertEquals(globNames("/w/a", "/w/ab"), false);
});
