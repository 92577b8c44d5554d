/**
 * The bounded search for aider's chat histories (new-user trial, 2026-12: a user of aider
 * alone, whose histories sat in project folders no other harness knew, got nothing).
 */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeTemp, tempDir } from "../tests/_tmp.ts";
import { findHistories, MAX_DEPTH } from "./_aider_find.ts";

const NAME = ".aider.chat.history.md";

function put(root: string, rel: string, body = "# aider chat started at 2026-11-20 09:15:00\n") {
  mkdirSync(join(root, rel, ".."), { recursive: true });
  writeFileSync(join(root, rel), body);
}

Deno.test("findHistories finds histories down to 3 levels, in repositories' roots, not in hidden or dependency folders", () => {
  const home = tempDir("deja-aiderfind-");
  try {
    put(home, `${NAME}`);
    put(home, `src/app/${NAME}`);
    mkdirSync(join(home, "src/app/.git"), { recursive: true });
    put(home, `src/app/sub/${NAME}`); // inside a repository: aider writes at its root
    put(home, `src/a/b/c/${NAME}`); // level 3 below ~/src
    put(home, `src/a/b/c/d/${NAME}`); // level 4: too deep
    put(home, `.hidden/${NAME}`);
    put(home, `src/node_modules/x/${NAME}`);
    put(home, `src/vendor/${NAME}`);
    const r = findHistories([home, join(home, "src"), join(home, "missing")], NAME);
    assert.deepEqual(r.files.map((f) => f.slice(home.length + 1)).sort(), [
      NAME,
      `src/a/b/c/${NAME}`,
      `src/app/${NAME}`,
    ]);
    assert.equal(r.capped, false);
    // Watched: the roots, the repository's root, the levels above the last; not a leaf folder.
    assert.ok(r.dirs.includes(join(home, "src")));
    assert.ok(r.dirs.includes(join(home, "src/app")));
    assert.ok(r.dirs.includes(join(home, "src/a/b")));
    assert.ok(!r.dirs.includes(join(home, "src/a/b/c")), String(MAX_DEPTH));
    assert.ok(!r.dirs.some((d) => d.includes(".hidden") || d.includes("node_modules")));
  } finally {
    removeTemp(home);
  }
});

Deno.test("findHistories follows links to folders once each, so a link back up is no loop", () => {
  const home = tempDir("deja-aiderfind-");
  try {
    put(home, `work/p/${NAME}`);
    symlinkSync(home, join(home, "work/p/up")); // loops back to the home
    symlinkSync(join(home, "work"), join(home, "w")); // a second way to the same folder
    const r = findHistories([home], NAME);
    assert.equal(r.files.length, 1);
    assert.equal(new Set(r.dirs).size, r.dirs.length);
  } finally {
    removeTemp(home);
  }
});

Deno.test("findHistories stops at its cap of folders, nearest levels first", () => {
  const home = tempDir("deja-aiderfind-");
  try {
    for (let i = 0; i < 30; i++) mkdirSync(join(home, `d${i}`, "deep"), { recursive: true });
    put(home, `d0/deep/${NAME}`);
    put(home, `d1/${NAME}`);
    put(home, `d7/${NAME}`);
    // 20 folders: the home and 19 of level 1 in name order (d0, d1, d10..d19, d2, d20..d25).
    const r = findHistories([home], NAME, 20);
    assert.equal(r.capped, true);
    assert.deepEqual(r.files, [join(home, "d1", NAME)]);
    assert.equal(findHistories([home], NAME).files.length, 3);
  } finally {
    removeTemp(home);
  }
});

Deno.test("findHistories writes nothing: the folders it searches keep their entries and mtimes", () => {
  const home = tempDir("deja-aiderfind-");
  try {
    put(home, `src/p/${NAME}`);
    const before = [readdirSync(join(home, "src/p")), statSync(join(home, "src/p")).mtimeMs];
    findHistories([home, join(home, "src")], NAME);
    assert.deepEqual(
      [readdirSync(join(home, "src/p")), statSync(join(home, "src/p")).mtimeMs],
      before,
    );
  } finally {
    removeTemp(home);
  }
});
