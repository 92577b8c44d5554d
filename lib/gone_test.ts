/**
 * How `deja index` and `deja sources` track stores that moved, are copies, or
 * cannot be looked at (fresh-user trial, 2026-12): a session file moved to
 * another project directory was told of as "gone" and counted "gone, kept"
 * until a rebuild; `sources` added up sessions per file (200 copies of one
 * session: "200 sessions" where the index held 1).
 */
import { assert, assertEquals } from "../tests/_assert.ts";
import { appendFileSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeLine } from "../tests/_memory.ts";
import { tempDir } from "../tests/_tmp.ts";
import { testEnv } from "../tests/_fixture.ts";
import { runMain } from "../tests/_cli_io.ts";
import { sourcesData } from "./cli/cmd_sources.ts";
import { storeState } from "./gone.ts";
import type { Env, Parser } from "../core/model.ts";
import { runIndex } from "./indexer.ts";
import { claude as claudeParser } from "../parsers/claude.ts";
import { goneWhileRead } from "./cli/index_text.ts";

const SID = "41111111-2222-4333-8444-555555555556";

/** A temp home with a Claude root; `run` gets the env and the root. */
async function withClaude(run: (env: Env, root: string, dir: string) => Promise<void>) {
  const dir = tempDir("deja-gone-");
  try {
    const root = join(dir, "claude");
    const vars = {
      HOME: join(dir, "home"),
      XDG_CONFIG_HOME: join(dir, "config"),
      XDG_DATA_HOME: join(dir, "data"),
      DEJA_HOME: join(dir, "deja"),
      DEJA_NO_REFRESH: "1",
      DEJA_CLAUDE_ROOT: root,
    };
    mkdirSync(join(root, "-w-a"), { recursive: true });
    mkdirSync(join(root, "-w-b"), { recursive: true });
    await run(testEnv(vars.HOME, vars), root, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const body = claudeLine(0, "the parser crashes", SID) + claudeLine(1, "Fixed.", SID);
const index = (env: Env) => runMain(env, ["index"], "", env.home);
const claude = async (env: Env) =>
  (await sourcesData(env)).harnesses.find((h) => h.harness === "claude")!;
/** `n` lines of session SID, "step i of the fix", a second apart. */
const steps = (n: number) =>
  Array.from({ length: n }, (_, i) => claudeLine(i, `step ${i} of the fix`, SID));
/** Session SID's file of `n` steps under `root`, indexed: its path and lines. */
async function indexedSteps(env: Env, root: string, n: number) {
  const file = join(root, "-w-a", `${SID}.jsonl`);
  const lines = steps(n);
  writeFileSync(file, lines.join(""));
  assertEquals((await index(env)).code, 0);
  return { file, lines };
}
/** The texts of session SID's events, as `deja show --json` gives them. */
const textsOf = async (env: Env) =>
  (JSON.parse((await runMain(env, ["show", SID, "--json"], "", env.home)).out).events as {
    text: string;
  }[]).map((e) => e.text);

Deno.test("a session file moved to another project directory is not told of as gone", async () => {
  await withClaude(async (env, root) => {
    const file = join(root, "-w-a", `${SID}.jsonl`);
    writeFileSync(file, body);
    assertEquals((await index(env)).code, 0);
    renameSync(file, join(root, "-w-b", `${SID}.jsonl`));
    const r = await index(env);
    assert(!r.err.includes("gone"), r.err);
    const h = await claude(env);
    assertEquals([h.gone, h.indexed, h.sessions, h.copies], [0, 1, 1, 0]);
  });
});

// Trial 72: the move met first by a search's refresh on use (a run of some harnesses, with a
// deadline: no gone check) left the old path "gone, 0 sessions kept" and the session counted as
// a copy until a rebuild; the next `deja index` found nothing to read.
Deno.test("a session file moved and first read by a refresh on use leaves no gone store behind", async () => {
  await withClaude(async (env, root) => {
    const file = join(root, "-w-a", `${SID}.jsonl`);
    writeFileSync(file, body);
    assertEquals((await index(env)).code, 0);
    renameSync(file, join(root, "-w-b", `${SID}.jsonl`));
    await runIndex(env, [claudeParser], {
      only: ["claude"],
      deadline: performance.now() + 5000,
      inlineMaxBytes: 8 << 20,
    });
    const h = await claude(env);
    assertEquals([h.gone, h.indexed, h.sessions, h.copies], [0, 1, 1, 0]);
  });
});

Deno.test("a store reached twice through a link is not gone when the link goes", async () => {
  await withClaude(async (env, root) => {
    writeFileSync(join(root, "-w-a", `${SID}.jsonl`), body);
    const link = join(root, "-w-link");
    symlinkSync(join(root, "-w-a"), link);
    assertEquals((await index(env)).code, 0);
    rmSync(link);
    const r = await index(env);
    assert(!r.err.includes("gone"), r.err);
    const h = await claude(env);
    assertEquals([h.gone, h.sessions], [0, 1]);
  });
});

Deno.test("sources counts distinct sessions and says how many stores hold copies", async () => {
  await withClaude(async (env, root) => {
    for (let i = 0; i < 5; i++) writeFileSync(join(root, "-w-a", `copy-${i}.jsonl`), body);
    assertEquals((await index(env)).code, 0);
    const h = await claude(env);
    assertEquals([h.indexed, h.sessions, h.copies], [5, 1, 4]);
  });
});

Deno.test("a store whose stat fails for another reason than 'not there' is not gone", async () => {
  await withClaude((_env, _root, dir) => {
    // A link loop fails the stat with ELOOP (as a directory without search permission fails it
    // with EACCES for a user other than root): the store is there, just unreadable.
    const loop = join(dir, "loop");
    symlinkSync(loop, loop);
    assertEquals(storeState(loop), "unreadable");
    assertEquals(storeState(join(dir, "nothing.jsonl")), "gone");
    writeFileSync(join(dir, "f"), "");
    assertEquals(storeState(join(dir, "f", "x.jsonl")), "gone");
    assertEquals(storeState(join(dir, "f")), "present");
    return Promise.resolve();
  });
});

Deno.test("a session file replaced by a folder of its name is gone, as one deleted (trial 111 F2)", async () => {
  // The folder was never said gone: `deja index` said "up to date", `sources --json` counted
  // indexed 14 of 13 stores and 0 gone, and `show` gave no "gone since".
  await withClaude(async (env, root) => {
    const file = join(root, "-w-a", `${SID}.jsonl`);
    writeFileSync(file, body);
    assertEquals((await index(env)).code, 0);
    rmSync(file);
    mkdirSync(file);
    assertEquals(storeState(file), "gone");
    const r = await index(env);
    assertEquals(r.code, 0, r.err);
    assert(r.err.includes(`1 store gone since the last run (deleted or moved; ${file})`), r.err);
    const h = await claude(env);
    assertEquals([h.stores, h.indexed, h.gone, h.gone_sessions, h.sessions], [0, 0, 1, 1, 1]);
    const show = await runMain(env, ["show", SID], "", env.home);
    assert(show.out.includes("gone since; kept in the index"), show.out);
    // The file back in place of the folder: present again, nothing gone.
    rmSync(file, { recursive: true });
    writeFileSync(file, body);
    assertEquals((await index(env)).code, 0);
    const back = await claude(env);
    assertEquals([back.indexed, back.gone, back.sessions], [1, 0, 1]);
  });
});

Deno.test("a folder two layouts of one harness walk is reported once when it cannot be read", async () => {
  const dir = tempDir("deja-gone-kimi-");
  try {
    // DEJA_KIMI_ROOT points Kimi's two layouts at one folder: one unreadable entry, one line.
    const kimi = join(dir, "kimi", "sessions");
    mkdirSync(kimi, { recursive: true });
    symlinkSync(join(kimi, "x"), join(kimi, "x"));
    const env = testEnv(join(dir, "home"), {
      XDG_CONFIG_HOME: join(dir, "config"),
      XDG_DATA_HOME: join(dir, "data"),
      DEJA_HOME: join(dir, "deja"),
      DEJA_NO_REFRESH: "1",
      DEJA_KIMI_ROOT: join(dir, "kimi"),
    });
    const r = await runMain(env, ["index", "--harness", "kimi"], "", env.home);
    const said = r.out + r.err;
    assertEquals(said.split("is a link to nothing").length - 1, 1, said);
    const h = (await sourcesData(env)).harnesses.find((x) => x.harness === "kimi")!;
    assertEquals(h.not_read.length, 1, h.not_read.join("\n"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("a store deleted after discovery found it is no error: counted gone, nothing recorded, exit 0", async () => {
  await withClaude(async (env, root) => {
    const kept = join(root, "-w-a", `${SID}.jsonl`);
    const lost = join(root, "-w-b", "42222222-2222-4333-8444-555555555556.jsonl");
    writeFileSync(kept, body);
    writeFileSync(lost, body.replaceAll(SID, "42222222-2222-4333-8444-555555555556"));
    // Discovery finds both; the second is deleted before it is read (trial 29: sessions
    // removed while `deja index` ran were errors, exit 3, until the next run).
    const racing: Parser = {
      ...claudeParser,
      async discover(ctx) {
        const d = await claudeParser.discover(ctx);
        rmSync(lost);
        return d;
      },
    };
    const res = await runIndex(env, [racing], { only: ["claude"] });
    const h = res.harnesses.find((x) => x.harness === "claude")!;
    assertEquals([h.found, h.read, h.failed, h.errors], [2, 1, 0, []]);
    assertEquals(h.gone_while_read, { count: 1, first: lost });
    const s = await claude(env);
    assertEquals([s.indexed, s.errors, s.sessions], [1, 0, 1]);
    assert(
      goneWhileRead(h.gone_while_read!).includes("gone before it was read"),
      goneWhileRead(h.gone_while_read!),
    );
  });
});

Deno.test("a session file emptied or overwritten with garbage keeps its session as indexed; one cut short is kept, one cut and written to is added to, one rewritten shorter followed and said (trials 30, 32, 33)", async () => {
  await withClaude(async (env, root) => {
    const { file, lines } = await indexedSteps(env, root, 10);
    const events = async () => (await claude(env)).events;
    const held = await events();
    assert(held >= 10, `${held} events`);
    for (const body of ["", "\u0000\u0001garbage that is no JSON at all\n"]) {
      writeFileSync(file, body);
      const r = await index(env);
      assertEquals(r.code, 0, r.err);
      assert(r.out.includes("kept 1 session as indexed"), r.out);
      assertEquals(await events(), held, JSON.stringify(body));
    }
    // Put back, then cut to four lines: what the index held is kept, and said (trial 32: the
    // index dropped the six lines cut).
    writeFileSync(file, lines.join(""));
    assertEquals((await index(env)).code, 0);
    assertEquals(await events(), held);
    writeFileSync(file, lines.slice(0, 4).join(""));
    const cut = await index(env);
    assert(cut.out.includes("holds less than before, kept 1 session as indexed"), cut.out);
    assertEquals(await events(), held);
    // Cut short, then written to (trial 33: a file restored from an older copy, and the agent
    // went on; one line appended to a cut file left 19 of 57 events): what the index held is
    // kept, the new line added after it, and said.
    writeFileSync(file, [...lines.slice(0, 3), claudeLine(42, "a new last step", SID)].join(""));
    const continued = await index(env);
    assert(
      continued.out.includes("kept 1 session as indexed, and added the 1 event written since"),
      continued.out,
    );
    assertEquals(await events(), held + 1);
    // Then appended to as usual: read from where the last read ended.
    appendFileSync(file, claudeLine(43, "and one more", SID));
    assertEquals((await index(env)).code, 0);
    assertEquals(await events(), held + 2);
    // Still kept: the store holds less than the index (trial 33: sources, doctor and show
    // disagreed once it was appended to).
    assertEquals((await claude(env)).kept, 1);
    const shown = JSON.parse((await runMain(env, ["show", SID, "--json"], "", env.home)).out);
    assertEquals(shown.source_damage?.kept_as_indexed, 1, JSON.stringify(shown.source_damage));
    // ctx says so too (trial 35: no sign its digest held text the store no longer does).
    const ctx = await runMain(env, ["ctx", SID], "", env.home);
    assert(ctx.out.includes("Its store no longer holds it in full"), ctx.out);
    // Given back whole (trial 34: a file restored after a cut stayed "holds less than before").
    const all = [
      ...lines,
      claudeLine(42, "a new last step", SID),
      claudeLine(43, "and one more", SID),
    ];
    writeFileSync(file, all.join(""));
    assertEquals((await index(env)).code, 0);
    assertEquals([await events(), (await claude(env)).kept], [held + 2, 0]);
    // Its last reply edited in place, its time unchanged (trial 34: held twice, old and new):
    // followed, as a secret scrubbed with `sed -i` must be.
    writeFileSync(
      file,
      [...all.slice(0, -1), claudeLine(43, "and one more, edited", SID)].join(""),
    );
    const edited = await index(env);
    assertEquals(edited.code, 0);
    assert(!edited.out.includes("kept"), edited.out);
    assertEquals(await events(), held + 2);
    // Emptied, then written to (trial 34: 14 events became 1): kept, and the new one added.
    writeFileSync(file, "");
    assertEquals((await index(env)).code, 0);
    writeFileSync(file, claudeLine(50, "written after it was emptied", SID));
    assertEquals((await index(env)).code, 0);
    assertEquals(await events(), held + 3);
    // A rebuild starts from the stores, and says what it dropped (trial 34: 14 events became
    // 7, without a word).
    const rebuilt = await runMain(env, ["index", "--rebuild"], "", env.home);
    assertEquals(rebuilt.code, 0, rebuilt.err);
    assert(
      rebuilt.err.includes(
        `the rebuild dropped ${
          held + 2
        } events of 1 session its store holds no more (41111111 claude, ${held + 3} -> 1 events)`,
      ),
      rebuilt.err,
    );
    assertEquals(await events(), 1);
    // Rewritten shorter, its lines out of the order held: the index follows the store, and
    // says so.
    writeFileSync(file, lines.join(""));
    assertEquals((await index(env)).code, 0);
    writeFileSync(file, [lines[2], lines[0], lines[1]].join(""));
    const rewritten = await index(env);
    assert(rewritten.out.includes("holds less than when last read"), rewritten.out);
    assertEquals(await events(), 3);
    // Cut short, then a record dated before the last one kept (trial 36: 5 -> 1 events): what
    // was cut is kept, the new one added.
    writeFileSync(file, lines.join(""));
    assertEquals((await index(env)).code, 0);
    writeFileSync(file, [...lines.slice(0, 3), claudeLine(5, "an older record", SID)].join(""));
    assertEquals((await index(env)).code, 0);
    assertEquals(await events(), held + 1);
    // Cut inside its first line: the session is no longer returned at all, and is kept.
    writeFileSync(file, lines.join(""));
    assertEquals((await index(env)).code, 0);
    // (The record it no longer holds stays kept.)
    const whole = await events();
    assertEquals(whole, held + 1);
    writeFileSync(file, lines[0].slice(0, 40));
    const torn = await index(env);
    assertEquals(torn.code, 0, torn.err);
    assertEquals(await events(), whole, torn.out);
    assert(torn.out.includes("kept 1 session as indexed"), torn.out);
  });
});

Deno.test("doctor counts changed stores apart from harnesses whose folders may hold new ones (trial 30: 41 for one new store)", async () => {
  await withClaude(async (env, root) => {
    writeFileSync(join(root, "-w-a", `${SID}.jsonl`), body);
    assertEquals((await index(env)).code, 0);
    const other = "43333333-2222-4333-8444-555555555556";
    writeFileSync(join(root, "-w-b", `${other}.jsonl`), body.replaceAll(SID, other));
    const r = await runMain(env, ["doctor", "--json"], "", env.home);
    const ix = JSON.parse(r.out).index;
    assertEquals([ix.changed, ix.look_again, ix.fresh], [0, 1, false], JSON.stringify(ix));
  });
});

Deno.test("a rebuild starts from the stores and says which sessions it dropped (trials 33, 34)", async () => {
  await withClaude(async (env, root) => {
    const file = join(root, "-w-a", `${SID}.jsonl`);
    writeFileSync(file, body);
    const other = "42222222-2222-4333-8444-555555555556";
    writeFileSync(join(root, "-w-b", `${other}.jsonl`), body.replaceAll(SID, other));
    assertEquals((await index(env)).code, 0);
    // Rewritten as another session: the first is kept as indexed by a plain run; a rebuild,
    // which starts from the stores, drops it and says so.
    const renamed = "43333333-2222-4333-8444-555555555556";
    writeFileSync(file, body.replaceAll(SID, renamed));
    assert((await index(env)).out.includes("kept 1 session as indexed"));
    assertEquals((await claude(env)).sessions, 3);
    const json = await runMain(env, ["index", "--rebuild", "--json"], "", env.home);
    const dropped = JSON.parse(json.out).dropped;
    assertEquals([dropped?.count, dropped?.first[0].id], [1, SID], json.out);
    assertEquals((await claude(env)).sessions, 2);
    // A store deleted: the same.
    rmSync(join(root, "-w-b", `${other}.jsonl`));
    const r = await runMain(env, ["index", "--rebuild"], "", env.home);
    assertEquals(r.code, 0, r.err);
    assert(
      r.err.includes("the rebuild dropped 1 session no store returns now (42222222 claude, from "),
      r.err,
    );
    const j = await runMain(env, ["index", "--rebuild", "--json"], "", env.home);
    assertEquals(JSON.parse(j.out).dropped, undefined, "nothing more to drop");
    assertEquals((await claude(env)).sessions, 1);
  });
});

Deno.test("show of a session whose store was emptied, then deleted, says it is gone, not empty (trial 34)", async () => {
  await withClaude(async (env, root) => {
    const file = join(root, "-w-a", `${SID}.jsonl`);
    writeFileSync(file, body);
    assertEquals((await index(env)).code, 0);
    writeFileSync(file, "");
    assertEquals((await index(env)).code, 0);
    const empty = JSON.parse((await runMain(env, ["show", SID, "--json"], "", env.home)).out);
    assertEquals(empty.source_damage?.now_empty, true);
    rmSync(file);
    assertEquals((await index(env)).code, 0);
    const gone = await runMain(env, ["show", SID], "", env.home);
    assert(gone.out.includes("gone since; kept in the index"), gone.out);
    assert(!gone.out.includes("empty now"), gone.out);
    const doc = JSON.parse((await runMain(env, ["show", SID, "--json"], "", env.home)).out);
    assertEquals([doc.source_exists, doc.source_damage], [false, null]);
  });
});

Deno.test("index --watch's line for a run says what a store lost, as 'deja index' does (trial 34)", async () => {
  const { checkOnce } = await import("./fresh/watch.ts");
  const { parsers } = await import("../parsers/mod.ts");
  await withClaude(async (env, root) => {
    const { file, lines } = await indexedSteps(env, root, 6);
    writeFileSync(file, lines.slice(0, 2).join(""));
    const line = await checkOnce(env, parsers);
    assert(line.startsWith("claude: 1 read, ") && line.includes(", 0 events; "), line);
    assert(line.includes("holds less than before, kept 1 session as indexed"), line);
    // doctor says how to take the store as it is now (trial 35: no way was named).
    const doctor = await runMain(env, ["doctor"], "", env.home);
    assert(
      doctor.out.includes("'deja index --rebuild' takes the stores as they are now"),
      doctor.out,
    );
  });
});

Deno.test("a session file moved to another project folder and cut short there keeps what the index held (trial 34)", async () => {
  await withClaude(async (env, root) => {
    const from = join(root, "-w-a", `${SID}.jsonl`);
    const to = join(root, "-w-b", `${SID}.jsonl`);
    const lines = steps(10);
    writeFileSync(from, lines.join(""));
    assertEquals((await index(env)).code, 0);
    const events = async () => (await claude(env)).events;
    const held = await events();
    rmSync(from);
    writeFileSync(to, lines.slice(0, 4).join(""));
    const r = await index(env);
    assertEquals(r.code, 0, r.err);
    assert(r.out.includes("kept 1 session as indexed"), r.out);
    assertEquals(await events(), held);
    const doc = JSON.parse((await runMain(env, ["show", SID, "--json"], "", env.home)).out);
    assertEquals([doc.source, doc.source_damage?.kept_as_indexed], [to, 1]);
    // Moved again, and written to there: the new event is added to what was held.
    const back = join(root, "-w-a", `${SID}.jsonl`);
    rmSync(to);
    writeFileSync(
      back,
      [...lines.slice(0, 4), claudeLine(42, "a step after the move", SID)].join(""),
    );
    assertEquals((await index(env)).code, 0);
    assertEquals(await events(), held + 1);
    // Moved whole: nothing to keep, nothing said.
    rmSync(back);
    writeFileSync(to, [...lines, claudeLine(42, "a step after the move", SID)].join(""));
    const whole = await index(env);
    assert(!whole.out.includes("kept"), whole.out);
    assertEquals([await events(), (await claude(env)).kept], [held + 1, 0]);
  });
});

Deno.test("what was deleted or edited inside a session file is followed, what was cut off its end kept, what came after added (trial 35)", async () => {
  await withClaude(async (env, root) => {
    const { file, lines } = await indexedSteps(env, root, 10);
    const texts = () => textsOf(env);
    // A record deleted from the middle (a secret scrubbed so): it leaves the index.
    writeFileSync(file, [...lines.slice(0, 4), ...lines.slice(5)].join(""));
    assertEquals((await index(env)).code, 0);
    assertEquals((await texts()).includes("step 4 of the fix"), false);
    assertEquals((await texts()).length, 9);
    // Put back, cut short, then a record inside what is left edited: the edit is followed,
    // what was cut off kept (trial 35: the edit dropped all that was kept).
    writeFileSync(file, lines.join(""));
    assertEquals((await index(env)).code, 0);
    writeFileSync(file, lines.slice(0, 5).join(""));
    assertEquals((await index(env)).code, 0);
    writeFileSync(
      file,
      [...lines.slice(0, 2), claudeLine(2, "step 2, scrubbed", SID), ...lines.slice(3, 5)].join(""),
    );
    const edited = await index(env);
    assert(!edited.out.includes("rewritten shorter"), edited.out);
    assertEquals(await texts(), [
      "step 0 of the fix",
      "step 1 of the fix",
      "step 2, scrubbed",
      ...lines.slice(3).map((_, i) => `step ${i + 3} of the fix`),
    ]);
    // Cut inside a line, then written to (trial 35: the new records were never read).
    writeFileSync(file, lines.join(""));
    assertEquals((await index(env)).code, 0);
    writeFileSync(file, lines.slice(0, 5).join("") + lines[5].slice(0, 30));
    assertEquals((await index(env)).code, 0);
    appendFileSync(file, "\n" + claudeLine(40, "written after the crash", SID));
    const after = await index(env);
    assert(after.out.includes("kept 1 session as indexed"), after.out);
    const now = await texts();
    assertEquals([now.length, now.at(-1)], [11, "written after the crash"]);
  });
});

Deno.test("a record deleted, one appended, then the old file put back: the appended one is kept; a rebuild drops what an emptied store held (trial 36)", async () => {
  await withClaude(async (env, root) => {
    const { file, lines } = await indexedSteps(env, root, 8);
    const texts = () => textsOf(env);
    writeFileSync(file, [...lines.slice(0, 4), ...lines.slice(5)].join(""));
    assertEquals((await index(env)).code, 0);
    appendFileSync(file, claudeLine(30, "appended after the deletion", SID));
    assertEquals((await index(env)).code, 0);
    writeFileSync(file, lines.join(""));
    const restored = await index(env);
    assert(restored.out.includes("kept 1 session as indexed"), restored.out);
    const now = await texts();
    assertEquals(now.length, 9, now.join(" | "));
    assert(now.includes("appended after the deletion") && now.includes("step 4 of the fix"));
    // Emptied: kept by a plain run; a rebuild starts from the store, and says what went.
    writeFileSync(file, "");
    assertEquals((await index(env)).code, 0);
    assertEquals((await texts()).length, 9);
    const rebuilt = await runMain(env, ["index", "--rebuild", "--json"], "", env.home);
    const dropped = JSON.parse(rebuilt.out).dropped;
    assertEquals([dropped?.count, dropped?.first?.[0]?.id], [1, SID], rebuilt.out);
    assertEquals((await claude(env)).sessions, 0);
  });
});

Deno.test("doctor says how many damaged stores it did not list (trial 36: 5 of 8 shown, nothing said)", async () => {
  await withClaude(async (env, root) => {
    const ids = Array.from({ length: 7 }, (_, i) => `4${i}111111-2222-4333-8444-555555555556`);
    for (const id of ids) {
      writeFileSync(join(root, "-w-a", `${id}.jsonl`), body.replaceAll(SID, id));
    }
    assertEquals((await index(env)).code, 0);
    for (const id of ids) writeFileSync(join(root, "-w-a", `${id}.jsonl`), "");
    assertEquals((await index(env)).code, 0);
    const doctor = await runMain(env, ["doctor"], "", env.home);
    assert(doctor.out.includes("… and 2 more ('deja sources --verbose' lists them)"), doctor.out);
  });
});

Deno.test("a record damaged in the middle stays kept when the file is then written to (trial 37)", async () => {
  await withClaude(async (env, root) => {
    const { file, lines } = await indexedSteps(env, root, 8);
    const texts = () => textsOf(env);
    const torn = [...lines.slice(0, 3), lines[3].slice(0, 30) + "\n", ...lines.slice(4)];
    writeFileSync(file, torn.join(""));
    const damaged = await index(env);
    assert(damaged.out.includes("kept 1 session as indexed"), damaged.out);
    assertEquals((await texts()).length, 8);
    appendFileSync(file, claudeLine(30, "written after the damage", SID));
    assertEquals((await index(env)).code, 0);
    const now = await texts();
    assertEquals(now.length, 9, now.join(" | "));
    assert(now.includes("step 3 of the fix") && now.includes("written after the damage"));
    // Repaired: the record is read again, nothing twice.
    writeFileSync(file, [...lines, claudeLine(30, "written after the damage", SID)].join(""));
    assertEquals((await index(env)).code, 0);
    assertEquals((await texts()).length, 9);
    assertEquals((await claude(env)).kept, 0);
  });
});
