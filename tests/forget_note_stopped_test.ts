/**
 * `deja forget --note <id>` that stops on the index (a full disk) stops whole: the notes
 * file is as it was, so the note is still there to forget by its id once space is freed
 * (trial 114 F8: the file lost the note, the index kept it, searchable, without its id), and
 * a failed rewrite leaves no temporary file (trial 114 F7).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./_tmp.ts";
import { runWith } from "./_cli_io.ts";
import { Store } from "../lib/store.ts";
import { forgetNote } from "../lib/forget/note.ts";

const run = (args: string[], vars: Record<string, string>) => runWith(args, vars);

Deno.test("forget --note stopped by a full disk in the index puts the notes file back", async () => {
  const dir = tempDir("deja-forgetnote-full-");
  try {
    const vars = { HOME: join(dir, "home"), DEJA_HOME: join(dir, "deja"), TZ: "UTC" };
    const one = await run(["remember", "--json", "the zebrafish flag"], vars);
    assertEquals(one.code, 0, one.err);
    assertEquals((await run(["remember", "the narwhal flag"], vars)).code, 0);
    const id = JSON.parse(one.out).id as string;
    const notes = join(vars.DEJA_HOME, "notes.jsonl");
    const before = readFileSync(notes);
    const store = Store.open(join(vars.DEJA_HOME, "index.db"));
    // The index's first write meets a full disk (what SQLite says then: SQLITE_FULL).
    store.tx = () => {
      throw Object.assign(new Error("database or disk is full"), { errcode: 13 });
    };
    let said = "";
    try {
      forgetNote(store, { path: notes, tz: "UTC" }, id);
    } catch (e) {
      said = String((e as Error).message);
    } finally {
      store.close();
    }
    assertEquals(said, "database or disk is full");
    assertEquals(readFileSync(notes), before, "the notes file as it was");
    assertEquals(
      readdirSync(vars.DEJA_HOME).filter((f) => /\.tmp$|\.was$/.test(f)),
      [],
      "no file left beside it",
    );
    // Space freed: the note is forgotten by its id, and no longer found.
    const gone = await run(["forget", "--note", id], vars);
    assertEquals(gone.code, 0, gone.err);
    assert(!readFileSync(notes, "utf8").includes("zebrafish"));
    assertEquals((await run(["zebrafish"], vars)).code, 1);
    assertEquals((await run(["narwhal"], vars)).code, 0, "the other note of the day");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
