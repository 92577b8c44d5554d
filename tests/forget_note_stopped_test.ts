/**
 * `deja forget --note <id>` that stops on the index (a full disk) stops whole: the notes
 * file is as it was, so the note is still there to forget by its id once space is freed
 * (trial 114 F8: the file lost the note, the index kept it, searchable, without its id), and
 * a failed rewrite leaves no temporary file (trial 114 F7).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { claudeLines, type SessionSpec } from "./_memory.ts";
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

/** `crypto.randomUUID` answering `uuid` while `fn` runs: a temporary file's name known ahead. */
async function withUuid<T>(uuid: string, fn: () => Promise<T>): Promise<T> {
  const real = crypto.randomUUID;
  crypto.randomUUID = () => uuid as ReturnType<typeof crypto.randomUUID>;
  try {
    return await fn();
  } finally {
    crypto.randomUUID = real;
  }
}

Deno.test("a forget whose file write meets a full disk leaves no temporary file and says no space", async () => {
  const dir = tempDir("deja-forget-tmp-full-");
  try {
    const s: SessionSpec = {
      id: "aaaaaaaa-2222-4333-8444-555555555555",
      cwd: "/w/app",
      start: "2026-11-01T10:00:00Z",
      turns: [{ say: "the alphaquokka answer" }],
    };
    mkdirSync(join(dir, "claude", "-w-app"), { recursive: true });
    writeFileSync(join(dir, "claude", "-w-app", `${s.id}.jsonl`), claudeLines(s).join("\n") + "\n");
    const vars = {
      HOME: join(dir, "home"),
      DEJA_HOME: join(dir, "deja"),
      DEJA_CLAUDE_ROOT: join(dir, "claude"),
      TZ: "UTC",
    };
    assertEquals((await run(["index", "--quiet"], vars)).code, 0);
    const one = await run(["remember", "--json", "the zebrafish flag"], vars);
    assertEquals(one.code, 0, one.err);
    assertEquals((await run(["remember", "the narwhal flag"], vars)).code, 0);
    const { id } = JSON.parse(one.out) as { id: string };
    const uuid = "0f0f0f0f-1111-4222-8333-444444444444";
    const notes = join(vars.DEJA_HOME, "notes.jsonl");
    const before = readFileSync(notes);
    for (
      const [file, args] of [
        [join(vars.DEJA_HOME, "tombstones.jsonl"), ["forget", "--session", "aaaaaaaa"]],
        [notes, ["forget", "--note", id]],
      ] as const
    ) {
      // The temporary file is a device that is always full: its write fails with ENOSPC.
      symlinkSync("/dev/full", `${file}.${uuid}.tmp`);
      const r = await withUuid(uuid, () => run([...args], vars));
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assertStringIncludes(
        r.err,
        `no space left: free space on the disk holding ${vars.DEJA_HOME}`,
      );
      assert(!/may be written by this user|permission/.test(r.err), r.err);
      assertEquals(
        readdirSync(vars.DEJA_HOME).filter((f) => /\.tmp$/.test(f)),
        [],
        `${args.join(" ")}: no temporary file left`,
      );
    }
    assertEquals(readFileSync(notes), before, "the notes as they were");
    assertEquals((await run(["--no-refresh", "alphaquokka"], vars)).code, 0, "not forgotten");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
