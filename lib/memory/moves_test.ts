import { rmSync } from "node:fs";
import { assertEquals } from "../../tests/_assert.ts";
import { tempDir } from "../../tests/_tmp.ts";
import { fileMoves, globNames, movedWords, resolvedIn, toldMoves } from "./moves.ts";

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
  assertEquals(fileMoves("cd /tmp/x && mv a.c b.c && cd - && rm c"), {
    removed: [],
    moved: [["/tmp/x/a.c", "/tmp/x/b.c"]],
  });
  // Other commands, and the words rm and mv as arguments, remove nothing.
  assertEquals(fileMoves("echo rm a.txt | grep mv"), { removed: [], moved: [] });
  assertEquals(fileMoves("sudo rm /etc/x.conf"), { removed: ["/etc/x.conf"], moved: [] });
});

Deno.test("fileMoves reads an mv's target as a shell does: a folder keeps the name, -t, a cd (trial 97 F2)", () => {
  // `.` after a cd is the folder the cd went to, not a file named like it.
  assertEquals(fileMoves("cd lib && mv ../r6.py ."), {
    removed: [],
    moved: [["r6.py", "lib/r6.py"]],
  });
  // `-t DIR` names the folder: not a rename of DIR to the file's name.
  assertEquals(fileMoves("mv -t lib q8.py q7.py; git mv --target-directory=src a.ts"), {
    removed: [],
    moved: [["q8.py", "lib/q8.py"], ["q7.py", "lib/q7.py"], ["a.ts", "src/a.ts"]],
  });
  assertEquals(fileMoves("mv -vt lib q8.py").moved, [["q8.py", "lib/q8.py"]]);
  // A bare word without an extension may be a folder: said so, not taken as the new name;
  // `-T` says it is the file; a name with an extension is the new name; `git mv -n` is a dry run.
  assertEquals(fileMoves("mv q9.py lib"), { removed: [], moved: [], unsure: [["q9.py", "lib"]] });
  assertEquals(fileMoves("mv -T q9.py lib").moved, [["q9.py", "lib"]]);
  assertEquals(fileMoves("git mv c.py src/c.py").moved, [["c.py", "src/c.py"]]);
  assertEquals(fileMoves("git mv -n c.py d.py"), { removed: [], moved: [] });
});

Deno.test("fileMoves does not read git rm --cached as a removal: the file stays (trial 97 F3)", () => {
  assertEquals(fileMoves("git rm --cached p3.py && git rm -r --cached build"), {
    removed: [],
    moved: [],
  });
  assertEquals(fileMoves("git rm p3.py").removed, ["p3.py"]);
});

Deno.test("toldMoves asks the disk whether a bare mv target is a folder, and leaves it unsure when nothing is there (trial 97 F2)", () => {
  const dir = tempDir("deja-moves-");
  try {
    Deno.mkdirSync(`${dir}/lib`);
    Deno.writeTextFileSync(`${dir}/notes`, "x");
    const told = toldMoves(fileMoves("mv q9.py lib; mv a.txt notes; mv b.txt gone"), dir);
    assertEquals(told.moved, [["q9.py", "lib/q9.py"], ["a.txt", "notes"]]);
    assertEquals(told.unsure, [["b.txt", "gone"]]);
    // A folder copied or moved to a folder holding nothing of its name became that folder
    // (trial 108 F4); one holding its name went into it.
    Deno.mkdirSync(`${dir}/src`);
    Deno.mkdirSync(`${dir}/lib2`);
    Deno.mkdirSync(`${dir}/out/src`, { recursive: true });
    const folders = toldMoves(fileMoves("cp -r src lib2; cp -r src out; mv pkg lib"), dir);
    assertEquals(folders.copied?.map((c) => [c.from, c.to]), [["src", "lib2"], [
      "src",
      "out/src",
    ]]);
    assertEquals(folders.moved, [["pkg", "lib"]]);
    assertEquals(
      movedWords({ moved_to: "gone", unsure: true }),
      "to gone, or into a folder gone (cannot tell which)",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

Deno.test("fileMoves reads a cp as a copy, apart from the moves, its place in the line kept", () => {
  assertEquals(fileMoves("mv a.py b.py && cp -p b.py c.py; cp x.md y.md docs/; cp -t lib q.py"), {
    removed: [],
    moved: [["a.py", "b.py"]],
    copied: [
      { from: "b.py", to: "c.py", after: 1 },
      { from: "x.md", to: "docs/x.md", after: 1 },
      { from: "y.md", to: "docs/y.md", after: 1 },
      { from: "q.py", to: "lib/q.py", after: 1 },
    ],
  });
  // A bare target may be a folder: told by the disk as a move's is; a glob is no copy.
  assertEquals(fileMoves("cp a.py lib; cp *.py old/"), {
    removed: [],
    moved: [],
    copied: [{ from: "a.py", to: "lib", after: 0, unsure: true }],
  });
});

Deno.test("fileMoves leaves a redirection out of the command's words (trial 110 F1)", () => {
  // `2>&1` read as `2>` and the end of the command moved the file into a folder `2>`.
  assertEquals(fileMoves("mv k5.py k6.py 2>&1"), { removed: [], moved: [["k5.py", "k6.py"]] });
  assertEquals(fileMoves("git mv m5.py m6.py 2>&1 | tee log"), {
    removed: [],
    moved: [["m5.py", "m6.py"]],
  });
  assertEquals(fileMoves("mv a.py b.py >/dev/null 2>&1 && rm c.py"), {
    removed: ["c.py"],
    moved: [["a.py", "b.py"]],
  });
  assertEquals(fileMoves("cp k7.py k8.py 2>/dev/null"), {
    removed: [],
    moved: [],
    copied: [{ from: "k7.py", to: "k8.py", after: 0 }],
  });
  assertEquals(fileMoves("mv 'x y.py' z.py >> 'move log.txt'; mv p.py q.py &>/dev/null"), {
    removed: [],
    moved: [["x y.py", "z.py"], ["p.py", "q.py"]],
  });
});
