import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { csi } from "./output.ts";
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { indexPath } from "../store.ts";
import {
  forgetCmd,
  forgetSessions,
  forgetText,
  forgottenSessions,
  parseForget,
  unforgetSession,
} from "./cmd_forget.ts";

const KEEP = "f0a90000-1111-4222-8333-444455556666";
const GONE = "f0b90000-1111-4222-8333-444455556666";

function fixture() {
  return indexSessions([
    { id: KEEP, cwd: "/w/app", start: "2026-11-01T10:00:00Z", turns: [{ user: "keep me" }] },
    { id: GONE, cwd: "/w/secret", start: "2026-11-02T10:00:00Z", turns: [{ user: "drop me" }] },
  ]);
}

Deno.test("forget parses a selection, --list and --unforget, and refuses a bad --before", () => {
  assertEquals(parseForget({ values: { list: true }, positionals: [] }), {
    mode: "list",
    json: false,
  });
  assertEquals(parseForget({ values: { unforget: "claude:ab" }, positionals: [] }), {
    mode: "unforget",
    key: "claude:ab",
    json: false,
  });
  const f = parseForget({ values: { project: "secret", "dry-run": true }, positionals: [] });
  assert(f.mode === "forget");
  assertEquals([f.reason, f.dry, f.sel.project], ["--project secret", true, "secret"]);
  try {
    parseForget({ values: { before: "someday" }, positionals: [] });
    throw new Error("expected a DejaError");
  } catch (e) {
    assert(e instanceof DejaError && e.exitCode === 2);
  }
});

Deno.test("forget's run plans on a dry run, removes otherwise, and unforget brings it back", async () => {
  const ix = await fixture();
  ix.store.close(); // the commands open the index themselves
  try {
    const sel = { session: "f0b9", allMatches: false };
    const dry = forgetSessions(ix.env, { sel, reason: "--session f0b9", dry: true });
    assertEquals(dry.plan.sessions.map((s) => s.native_id), [GONE]);
    assertEquals(dry.out, undefined);
    const done = forgetSessions(ix.env, { sel, reason: "--session f0b9", dry: false });
    assertEquals(done.out?.sessions, 1);
    assertEquals(forgottenSessions(ix.env).map((t) => t.key), [`claude:${GONE}`]);
    const t = await unforgetSession(ix.env, `claude:${GONE}`);
    assertEquals(t.key, `claude:${GONE}`);
    assertEquals(forgottenSessions(ix.env), []);
  } finally {
    ix.cleanup();
  }
});

Deno.test("forget prints colour on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  ix.store.close();
  try {
    const json = captureIO(ix.env, false);
    const dry = { project: "secret", "dry-run": true, json: true };
    assertEquals(await forgetCmd.run({ values: dry, positionals: [] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.dry_run, doc.sessions[0].id, doc.forgotten], [true, GONE, 0]);

    const tty = captureIO(ix.env, true);
    assertEquals(
      await forgetCmd.run({ values: { project: "secret" }, positionals: [] }, tty.io),
      0,
    );
    assertStringIncludes(tty.out(), csi("36m") + `claude:${GONE}`);
    assertStringIncludes(tty.out(), "forgot 1 session (1 event):");

    const pipe = captureIO(ix.env, false);
    assertEquals(await forgetCmd.run({ values: { list: true }, positionals: [] }, pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assertStringIncludes(pipe.out(), `claude:${GONE}`);
    assertStringIncludes(pipe.out(), "--project secret");

    const none = captureIO(ix.env, false);
    assertEquals(
      await forgetCmd.run({ values: { project: "nowhere" }, positionals: [] }, none.io),
      1,
    );
    assertEquals(none.out(), "");
    assertStringIncludes(none.err(), "no session matches --project nowhere");
  } finally {
    ix.cleanup();
  }
});

Deno.test("forget's text says how many undated sessions a date bound left out", () => {
  const io = { isTTY: false, env: { home: "/h" } as never };
  const plan = { sessions: [], events: 0, undated: 2 };
  assertEquals(
    forgetText({ dry: true, plan, noteSessions: 0 }, io),
    "2 undated sessions left out: a date bound never picks a session with no date\n",
  );
  assertEquals(forgetText({ dry: true, plan: { ...plan, undated: 0 }, noteSessions: 0 }, io), "");
});

// Regression (2026-12, user trial): forget said sessions go "for good", while a damaged index
// `deja index --rebuild` had set aside as index.db.corrupt-<time> still held their text.
Deno.test("forget names a damaged index set aside by --rebuild that may still hold the text, with the command to remove it", async () => {
  const ix = await fixture();
  ix.store.close();
  try {
    const quiet = captureIO(ix.env, false);
    const dry = { project: "secret", "dry-run": true };
    assertEquals(await forgetCmd.run({ values: dry, positionals: [] }, quiet.io), 0);
    assert(!quiet.out().includes("set aside"), "no set-aside copy, no word of one");

    const path = indexPath(ix.env);
    const aside = `${path}.corrupt-20261201T000000`;
    copyFileSync(path, aside);
    writeFileSync(`${aside}-wal`, "");
    // Opening the set-aside copy (sqlite3 does) gives it a -shm too; the rm names it (trial 76 F11).
    writeFileSync(`${aside}-shm`, "");
    assert(readFileSync(aside).includes("drop me"), "the set-aside copy holds the session's text");

    const json = captureIO(ix.env, false);
    assertEquals(
      await forgetCmd.run({ values: { ...dry, json: true }, positionals: [] }, json.io),
      0,
    );
    assertEquals(JSON.parse(json.out()).set_aside, [aside, `${aside}-wal`, `${aside}-shm`]);

    const done = captureIO(ix.env, false);
    assertEquals(
      await forgetCmd.run({ values: { project: "secret" }, positionals: [] }, done.io),
      0,
    );
    assertStringIncludes(done.out(), "forgot 1 session (1 event):");
    assertStringIncludes(
      done.out(),
      `a damaged index 'deja index --rebuild' set aside may still hold their text: ${aside}\n`,
    );
    assertStringIncludes(done.out(), `remove it: rm ${aside} ${aside}-wal ${aside}-shm\n`);
  } finally {
    ix.cleanup();
  }
});

// Trial 76 F9: `--undo` said a session was back in the index when its store was gone.
Deno.test("forget --undo says which sessions could not come back because their stores are gone", async () => {
  const ix = await fixture();
  ix.store.close();
  try {
    const sel = { project: "/w" };
    forgetSessions(ix.env, { sel, reason: "--project /w", dry: false });
    const gone = forgottenSessions(ix.env).find((t) => t.id === GONE);
    assert(gone?.source, "the tombstone names its store");
    rmSync(gone.source);

    const text = captureIO(ix.env, false);
    assertEquals(await forgetCmd.run({ values: { undo: true }, positionals: [] }, text.io), 0);
    assertStringIncludes(text.out(), `1 session back in the index:\n  claude:${KEEP}`);
    assertStringIncludes(text.out(), "1 session could not come back: its store no longer holds it");
    assertStringIncludes(text.out(), `  claude:${GONE}  ${gone.source}\n`);
    assertEquals(forgottenSessions(ix.env), []);
  } finally {
    ix.cleanup();
  }
  // A single --unforget of a session whose store is gone says so and exits 1.
  const iy = await fixture();
  iy.store.close();
  try {
    forgetSessions(iy.env, { sel: { session: "f0b9" }, reason: "--session f0b9", dry: false });
    rmSync(forgottenSessions(iy.env)[0].source!);
    const one = captureIO(iy.env, false);
    const code = await forgetCmd.run(
      { values: { unforget: `claude:${GONE}`, json: true }, positionals: [] },
      one.io,
    );
    assertEquals([code, JSON.parse(one.out()).back], [1, false]);
  } finally {
    iy.cleanup();
  }
});
