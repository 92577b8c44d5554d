/**
 * Links in a store (new user, 2026-12): a Claude projects folder whose session
 * files were links to the real files was indexed as nothing, with no word.
 * Discovery follows links to files and folders; a link to nothing or to a
 * FIFO is reported, never opened.
 */
import { assert, assertEquals } from "../tests/_assert.ts";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { isRegularFile, listFiles, problemLine, subdirs, withPermissionHint } from "./fs.ts";
import { tempDir } from "../tests/_tmp.ts";

Deno.test("walk yields a link to a regular file and reports a link to nothing (file or folder) or to a FIFO", async () => {
  const root = tempDir("deja-fs-links-");
  try {
    const real = join(root, "real");
    const store = join(root, "store");
    mkdirSync(real);
    mkdirSync(join(store, "proj"), { recursive: true });
    writeFileSync(join(real, "a.jsonl"), "{}\n");
    execFileSync("mkfifo", [join(real, "pipe.jsonl")]);
    symlinkSync(join(real, "a.jsonl"), join(store, "proj", "a.jsonl"));
    symlinkSync(join(real, "gone.jsonl"), join(store, "proj", "dead.jsonl"));
    symlinkSync(join(real, "pipe.jsonl"), join(store, "proj", "pipe.jsonl"));
    symlinkSync(store, join(store, "proj", "loop")); // back up the tree: entered once
    // A project folder that was a link to a copy moved away since (new user, 2026-12): reported
    // like a dead file link, though its name is not a store's.
    symlinkSync(join(root, "moved-away"), join(store, "scratch"));
    const errors: string[] = [];
    const files = await listFiles(store, {
      match: (_p, n) => n.endsWith(".jsonl"),
      onError: (p, e) => errors.push(`${p.slice(store.length)} ${(e as { code?: string }).code}`),
    });
    assertEquals(files, [join(store, "proj", "a.jsonl")]);
    assertEquals(errors, [
      "/proj/dead.jsonl EBROKENLINK",
      "/proj/pipe.jsonl ENOTREG",
      "/scratch EBROKENLINK",
    ]);
    assertEquals(await isRegularFile(join(store, "proj", "a.jsonl")), true);
    const reported: string[] = [];
    const dead = join(store, "proj", "dead.jsonl");
    assertEquals(await isRegularFile(dead, (p) => reported.push(p)), false);
    assertEquals(reported, [dead]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("subdirs lists links to directories beside directories, sorted", async () => {
  const root = tempDir("deja-fs-subdirs-");
  try {
    mkdirSync(join(root, "b"));
    mkdirSync(join(root, "elsewhere", "x"), { recursive: true });
    writeFileSync(join(root, "file"), "");
    symlinkSync(join(root, "elsewhere", "x"), join(root, "a"));
    symlinkSync(join(root, "file"), join(root, "c"));
    assertEquals(await subdirs(root), ["a", "b", "elsewhere"]);
    assertEquals(await subdirs(join(root, "missing")), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("a permission error gets its hint once, by code or by its text alone", () => {
  const e = Object.assign(new Error("EACCES: permission denied, open '/s/a.jsonl'"), {
    code: "EACCES",
  });
  const line = problemLine("/s/a.jsonl", e);
  assert(line.endsWith("check its permissions for the user running deja)"), line);
  // A read's error reaches the indexer as text: the same hint, never twice.
  const text = withPermissionHint("/s/a.jsonl: EACCES: permission denied, open '/s/a.jsonl'");
  assert(text.includes("deja cannot read it"), text);
  assert(withPermissionHint(text) === text);
  assert(
    withPermissionHint("/s/b.db: file is not a database") === "/s/b.db: file is not a database",
  );
  assert(
    problemLine("/s/c", Object.assign(new Error("gone"), { code: "ENOENT" })) === "/s/c: gone",
  );
});

Deno.test("a link to a folder that holds the root (`/`, the root's parent) is reported, not walked; one elsewhere is", async () => {
  const base = tempDir("deja-fs-linkup-");
  const root = join(base, "projects");
  mkdirSync(join(root, "-w-a"), { recursive: true });
  writeFileSync(join(root, "-w-a", "s.jsonl"), "{}\n");
  mkdirSync(join(base, "elsewhere"));
  writeFileSync(join(base, "elsewhere", "t.jsonl"), "{}\n");
  writeFileSync(join(base, "above.jsonl"), "{}\n"); // in the root's parent: never read
  symlinkSync("/", join(root, "-w-a", "rootlink"));
  symlinkSync(base, join(root, "-w-a", "up"));
  symlinkSync(root, join(root, "self"));
  symlinkSync(join(base, "elsewhere"), join(root, "-w-b"));
  const problems: [string, string][] = [];
  const found = await listFiles(root, {
    match: (_p, name) => name.endsWith(".jsonl"),
    maxDepth: 6,
    onError: (p, e) => problems.push([p.slice(root.length), (e as { code?: string }).code ?? ""]),
  });
  assertEquals(found, [join(root, "-w-a", "s.jsonl"), join(root, "-w-b", "t.jsonl")]);
  // A link to the root itself is a loop: passed over in silence, as before.
  assertEquals(problems.sort(), [
    ["/-w-a/rootlink", "ELINKUP"],
    ["/-w-a/up", "ELINKUP"],
  ]);
});
