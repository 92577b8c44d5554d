/**
 * The index's disk is full: SQLite says "disk I/O error" opening it (it cannot grow the
 * `-shm`) or "database or disk is full". That is named as a full disk with what to free, never
 * as damage: no rebuild is hinted, and `deja index --rebuild` does not set the sound index
 * aside (trial 111 F4: each rebuild moved it to index.db.corrupt-*, and once space was freed a
 * new index quietly lost the sessions of stores deleted since). The full disk is simulated: an
 * `-shm` SQLite cannot size (a FIFO) gives the I/O error, and `diskSpace` says no room is left.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { asSqliteError, diskSpace, isDiskFull } from "../lib/store.ts";
import { claudeLines, claudeStore, type SessionSpec } from "./_memory.ts";
import { tempDir } from "./_tmp.ts";
import { runWith } from "./_cli_io.ts";

const run = (args: string[], vars: Record<string, string>) => runWith(args, vars);

/** `diskSpace.free` answering `bytes` while `fn` runs. */
async function withFree<T>(bytes: number, fn: () => Promise<T>): Promise<T> {
  const real = diskSpace.free;
  diskSpace.free = () => bytes;
  try {
    return await fn();
  } finally {
    diskSpace.free = real;
  }
}

Deno.test("isDiskFull: SQLITE_FULL and ENOSPC always, an I/O error only while the disk has no room", () => {
  const io = Object.assign(new Error("disk I/O error"), {
    errcode: 4874,
    code: "ERR_SQLITE_ERROR",
  });
  const full = Object.assign(new Error("database or disk is full"), { errcode: 13 });
  const nospc = Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
  const corrupt = Object.assign(new Error("database disk image is malformed"), { errcode: 11 });
  const path = "/nowhere/deja/index.db";
  return withFree(0, () => {
    assertEquals([io, full, nospc, corrupt].map((e) => isDiskFull(e, path)), [
      true,
      true,
      true,
      false,
    ]);
    return Promise.resolve();
  }).then(() =>
    withFree(50 * 2 ** 30, () => {
      assertEquals([io, full, nospc, corrupt].map((e) => isDiskFull(e, path)), [
        false,
        true,
        true,
        false,
      ]);
      // A search that met the I/O error on a full disk says the disk, not the words typed.
      const said = asSqliteError(io, "'deja search'", path) as Error;
      assert(!said.message.includes("disk the index is on is full"), said.message);
      return withFree(0, () => {
        const e = asSqliteError(io, "'deja search'", path) as Error & { hint?: string };
        assertStringIncludes(e.message, "the disk the index is on is full");
        assert(!e.hint?.includes("rebuild"), e.hint);
        return Promise.resolve();
      });
    })
  );
});

const SESSIONS: SessionSpec[] = ["a", "b"].map((k, i) => ({
  id: `${k.repeat(8)}-2222-4333-8444-555555555555`,
  cwd: "/w/app",
  start: `2026-11-0${i + 1}T10:00:00Z`,
  turns: [{ say: `the ${k === "a" ? "alphaquokka" : "betawombat"} answer` }, {
    bash: "cargo test",
    out: "ok",
  }],
}));

Deno.test("on a full disk the index is named full, not damaged, and --rebuild keeps it in place", async () => {
  const dir = tempDir("deja-fulldisk-");
  try {
    const { vars, files } = claudeStore(dir, SESSIONS);
    assertEquals((await run(["index", "--quiet"], vars)).code, 0);
    // aaaaaaaa's store is deleted: only the index holds it now ("gone, kept").
    rmSync(files[0]);
    assertEquals((await run(["index"], vars)).code, 0);
    const db = join(vars.DEJA_HOME, "index.db");
    const before = readFileSync(db);
    rmSync(db + "-shm", { force: true });
    execFileSync("mkfifo", [db + "-shm"]);
    // A new session to read: no stat pass can answer for the index.
    const c = { ...SESSIONS[1], id: "cccccccc-2222-4333-8444-555555555555" };
    writeFileSync(join(dirname(files[0]), `${c.id}.jsonl`), claudeLines(c).join("\n") + "\n");
    await withFree(0, async () => {
      for (const args of [["index"], ["index", "--rebuild"], ["alphaquokka"]]) {
        const r = await run(args, vars);
        assertEquals(r.code, 2, `${args.join(" ")}: ${r.err}`);
        assertStringIncludes(
          r.err,
          "the disk the index is on is full (disk I/O error; 0 bytes free)",
        );
        assertStringIncludes(r.err, "hint: free space on the disk holding");
        assert(!/--rebuild|is damaged|corrupt/.test(r.err), `${args.join(" ")}: ${r.err}`);
        // No "catching up" from a search's refresh, nor a background run that cannot write either.
        assert(!r.err.includes("catching up"), `${args.join(" ")}: ${r.err}`);
      }
      // A note is kept in its file; the hint says what lets it be indexed (trial 111 F8).
      const note = await run(["remember", "the zebrafish flag"], vars);
      assertEquals(note.code, 0, note.err);
      assertStringIncludes(note.err, "not indexed yet: cannot open the index");
      assertStringIncludes(
        note.err,
        "hint: free space on the disk holding " + vars.DEJA_HOME +
          "; then the next 'deja index' picks it up",
      );
      const doc = await run(["doctor", "--json"], vars);
      const index = JSON.parse(doc.out).index;
      assertStringIncludes(index.error, "the disk the index is on is full");
      assertEquals(index.set_aside, []);
    });
    assertEquals(
      readdirSync(vars.DEJA_HOME).filter((f) => /corrupt|damaged/.test(f)),
      [],
      "nothing set aside, no damage recorded",
    );
    assertEquals(readFileSync(db), before, "the index as it was");
    // Space freed (and the -shm SQLite could not size gone): all of it is there.
    rmSync(db + "-shm");
    const idx = await run(["index"], vars);
    assertEquals(idx.code, 0, idx.err);
    const kept = await run(["--no-refresh", "alphaquokka"], vars);
    assertEquals(kept.code, 0, `the gone, kept session: ${kept.err}`);
    assertEquals((await run(["--no-refresh", "zebrafish"], vars)).code, 0, "the note");
    assert(!existsSync(db + ".damaged"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
