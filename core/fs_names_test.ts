/**
 * Names that are not UTF-8 (trial 28): the runtime lists them with U+FFFD in
 * place of the bytes that are not, and no file has that name. A file failed
 * with ENOENT and was later listed as gone; a folder of stores was passed over
 * without a word. Both are reported, once, as what they are.
 */
import { assert, assertEquals } from "../tests/_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { escapeControls, listFiles, problemLine, subdirs } from "./fs.ts";
import { tempDir } from "../tests/_tmp.ts";

/** Makes `root/<bytes>` (a directory when `dir`) from a printf format: the name's raw bytes. */
function rawName(root: string, format: string, dir: boolean): void {
  const make = dir ? 'mkdir "$(printf "$1")"' : 'printf x > "$(printf "$1")"';
  execFileSync("sh", ["-c", `cd "$0" && ${make}`, root, format]);
}

Deno.test("a file or folder whose name is not UTF-8 is reported as such, and the rest is walked", async () => {
  const root = tempDir("deja-fs-names-");
  mkdirSync(join(root, "ok"));
  writeFileSync(join(root, "ok", "a.jsonl"), "{}\n");
  rawName(root, "ff\\377name.jsonl", false);
  rawName(root, "\\351dir", true);
  rawName(root, "other\\377.txt", false); // no store would have this name
  const problems: [string, string][] = [];
  const found = await listFiles(root, {
    match: (_p, name) => name.endsWith(".jsonl"),
    onError: (p, e) => problems.push([p, (e as { code?: string }).code ?? ""]),
  });
  assertEquals(found, [join(root, "ok", "a.jsonl")]);
  assertEquals(problems.map(([, code]) => code), ["EBADNAME", "EBADNAME"]);
  assert(problems.every(([p]) => p.includes("\uFFFD")), JSON.stringify(problems));
  const dirs: string[] = [];
  assertEquals(await subdirs(root, (p) => dirs.push(p)), ["ok"]);
  assertEquals(dirs.length, 1);
});

Deno.test("a problem line writes a name's control characters as escapes", () => {
  assertEquals(escapeControls("a\nb\tc\x1b"), "a\\nb\\tc\\x1b");
  const line = problemLine("/s/nl\nname.jsonl", new Error("unexpected end of input"));
  assertEquals(line, "/s/nl\\nname.jsonl: unexpected end of input");
});
