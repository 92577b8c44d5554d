/**
 * Sessions that two whole-session stores hold (lib/copies.ts). Regressions of trial 9:
 * a cut copy of a Continue session file under another name (same sessionId) doubled the
 * conversation or added a phantom prompt depending on which file was read last, took the
 * session's source, and kept it after the copy was deleted; a copy of a Crush crush.db in
 * another project folder, with a damaged page, took over the sessions' project and source.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { appendFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_cli_io.ts";
import { testEnv } from "./_fixture.ts";
import { claudeLine } from "./_memory.ts";
import { tempDir } from "./_tmp.ts";
import { damageSessionC, listProjects, tinyStore, tinyVars } from "./_crush_tiny.ts";

const run = (args: string[], vars: Record<string, string>) =>
  runMain(testEnv(vars.HOME, vars), args, "", vars.HOME);

const ID = "4574729b-0000-4000-8000-000000000001";

/** A Continue session document of `turns` prompt/answer pairs. */
function continueDoc(turns: number): string {
  const history = [];
  for (let i = 0; i < turns; i++) {
    history.push({ message: { role: "user", content: `question ${i} about the harbour ledger` } });
    history.push({ message: { role: "assistant", content: `answer ${i}: the ledger balances` } });
  }
  return JSON.stringify({ sessionId: ID, title: "Ledger", workspaceDirectory: "/w/led", history });
}

function continueWorld() {
  const dir = tempDir("deja-copies-");
  const root = join(dir, "continue");
  mkdirSync(root, { recursive: true });
  const vars = {
    HOME: join(dir, "home"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CONTINUE_ROOT: root,
    XDG_DATA_HOME: join(dir, "xdg"),
    XDG_CONFIG_HOME: join(dir, "xdg"),
    XDG_STATE_HOME: join(dir, "xdg"),
    DEJA_NO_REFRESH: "1",
    TZ: "UTC",
  };
  const session = () => {
    const idx = new DatabaseSync(join(vars.DEJA_HOME, "index.db"), { readOnly: true });
    try {
      const s = idx.prepare("SELECT id, source, events FROM sessions WHERE native_id = ?").get(
        ID,
      ) as { id: number; source: string; events: number };
      const rows = idx.prepare("SELECT count(*) AS n FROM events WHERE session_id = ?").get(
        s.id,
      ) as { n: number };
      return { source: s.source.slice(root.length + 1, root.length + 9), events: rows.n };
    } finally {
      idx.close();
    }
  };
  const index = async (...extra: string[]) => {
    const r = await run(["index", ...extra], vars);
    assert(r.code === 0 || r.code === 3, r.err);
    return r;
  };
  return {
    intact: join(root, `${ID}.json`),
    copy: join(root, "bbbb0000-0000-4000-8000-000000000001.json"),
    vars,
    index,
    session,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

Deno.test("a cut copy of a Continue session never doubles or alters it, whichever file is read last", async () => {
  const w = continueWorld();
  try {
    const whole = continueDoc(4);
    writeFileSync(w.intact, whole);
    await w.index();
    assertEquals(w.session(), { source: "4574729b", events: 8 });
    writeFileSync(w.copy, whole.slice(0, Math.floor(whole.length * 0.4))); // cut: damaged
    const r = await w.index();
    assertStringIncludes(r.out + r.err, "damaged");
    assertEquals(w.session(), { source: "4574729b", events: 8 });
    appendFileSync(w.intact, " ");
    await w.index();
    assertEquals(w.session(), { source: "4574729b", events: 8 });
    appendFileSync(w.copy, " ");
    await w.index();
    assertEquals(w.session(), { source: "4574729b", events: 8 });
    await w.index("--rebuild");
    assertEquals(w.session(), { source: "4574729b", events: 8 });
    const src = await run(["sources", "--json"], w.vars);
    const h = (JSON.parse(src.out) as {
      harnesses: Array<{ harness: string; sessions: number; copies: number }>;
    }).harnesses.find((x) => x.harness === "continue");
    assertEquals([h?.sessions, h?.copies], [1, 1]);
    rmSync(w.copy);
    await w.index();
    assertEquals(w.session(), { source: "4574729b", events: 8 });
  } finally {
    w.cleanup();
  }
});

Deno.test("the intact copy of a Continue session takes it from a cut one, and a longer copy from a shorter", async () => {
  const w = continueWorld();
  try {
    const whole = continueDoc(4);
    writeFileSync(w.copy, whole.slice(0, Math.floor(whole.length * 0.4)));
    await w.index();
    assertEquals(w.session().source, "bbbb0000");
    writeFileSync(w.intact, whole);
    await w.index();
    assertEquals(w.session(), { source: "4574729b", events: 8 });
    // Both whole: the one with more of the conversation holds it, read in either order.
    writeFileSync(w.copy, continueDoc(5));
    await w.index();
    assertEquals(w.session(), { source: "bbbb0000", events: 10 });
    appendFileSync(w.intact, " ");
    await w.index();
    assertEquals(w.session(), { source: "bbbb0000", events: 10 });
  } finally {
    w.cleanup();
  }
});

Deno.test("a Continue session whose file is deleted is read again from the copy still holding it", async () => {
  const w = continueWorld();
  try {
    writeFileSync(w.intact, continueDoc(4));
    writeFileSync(w.copy, continueDoc(3));
    await w.index();
    assertEquals(w.session(), { source: "4574729b", events: 8 });
    rmSync(w.intact);
    await w.index();
    assertEquals(w.session(), { source: "bbbb0000", events: 6 });
  } finally {
    w.cleanup();
  }
});

/** Two Crush projects listed; `proj` holds sessions a and c (6 long messages, `C<n>Z`). */
function crushWorld() {
  const dir = tempDir("deja-copies-crush-");
  const proj = join(dir, "proj");
  const other = join(dir, "corrupt");
  mkdirSync(join(proj, ".crush"), { recursive: true });
  mkdirSync(join(other, ".crush"), { recursive: true });
  mkdirSync(join(dir, "crush"), { recursive: true });
  listProjects(dir, [proj, other]);
  const path = join(proj, ".crush", "crush.db");
  tinyStore(path, ["a", "c"]);
  const vars = tinyVars(dir);
  const sessions = () => {
    const idx = new DatabaseSync(join(vars.DEJA_HOME, "index.db"), { readOnly: true });
    try {
      const rows = idx.prepare("SELECT native_id, project, source, events FROM sessions")
        .all() as Array<{ native_id: string; project: string; source: string; events: number }>;
      return Object.fromEntries(
        rows.map((r) => [r.native_id[0], `${r.project.slice(dir.length + 1)} ${r.events}`]),
      );
    } finally {
      idx.close();
    }
  };
  return {
    dir,
    path,
    copy: join(other, ".crush", "crush.db"),
    other,
    vars,
    sessions,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

Deno.test("a damaged copy of a Crush store in another project takes none of its sessions, and says it is damaged", async () => {
  const w = crushWorld();
  try {
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    cpSync(w.path, w.copy);
    damageSessionC(w.copy);
    const r = await run(["index"], w.vars);
    assertStringIncludes(r.out + r.err, "corrupt");
    assert(!(r.out + r.err).includes("nothing in it could be read"), r.out + r.err);
    assertEquals(w.sessions(), { a: "proj 2", c: "proj 6" });
    await run(["index", "--rebuild", "--quiet"], w.vars);
    assertEquals(w.sessions(), { a: "proj 2", c: "proj 6" });
    rmSync(w.other, { recursive: true });
    await run(["index", "--quiet"], w.vars);
    assertEquals(w.sessions(), { a: "proj 2", c: "proj 6" });
  } finally {
    w.cleanup();
  }
});

Deno.test("a Crush session held from a store that is deleted is read again from its copy", async () => {
  const w = crushWorld();
  try {
    cpSync(w.path, w.copy); // an exact copy: the store read first keeps the sessions
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    assertEquals(w.sessions(), { a: "proj 2", c: "proj 6" });
    rmSync(join(w.dir, "proj"), { recursive: true });
    await run(["index", "--quiet"], w.vars);
    assertEquals(w.sessions(), { a: "corrupt 2", c: "corrupt 6" });
  } finally {
    w.cleanup();
  }
});

Deno.test("a Claude Code session whose lines another file copied stays when that file drops them", async () => {
  // Trial 26: file R held copies of session A's lines (as a resumed session's file does),
  // took A's source, and when R was rewritten without them A left the index, its own file
  // unchanged and never read again; only --rebuild brought it back.
  const dir = tempDir("deja-copies-claude-");
  const proj = join(dir, "claude", "-w-ledger");
  mkdirSync(proj, { recursive: true });
  const A = "aaaa0000-1111-4222-8333-444455556666";
  const R = "bbbb0000-1111-4222-8333-444455556666";
  const own = [0, 1, 2, 3, 4, 5].map((i) => claudeLine(i, `harbour ledger step ${i}`, A));
  const mine = [10, 11].map((i) => claudeLine(i, `reply ${i}`, R));
  writeFileSync(join(proj, `${A}.jsonl`), own.join(""));
  writeFileSync(join(proj, `${R}.jsonl`), [...own, ...mine].join(""));
  const vars = {
    HOME: join(dir, "home"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "claude"),
    XDG_DATA_HOME: join(dir, "xdg"),
    XDG_CONFIG_HOME: join(dir, "xdg"),
    XDG_STATE_HOME: join(dir, "xdg"),
    DEJA_NO_REFRESH: "1",
    TZ: "UTC",
  };
  const events = () => {
    const idx = new DatabaseSync(join(vars.DEJA_HOME, "index.db"), { readOnly: true });
    try {
      const row = idx.prepare(
        "SELECT (SELECT count(*) FROM events e WHERE e.session_id = s.id) AS n FROM sessions s WHERE native_id = ?",
      ).get(A) as { n: number } | undefined;
      return row?.n ?? 0;
    } finally {
      idx.close();
    }
  };
  try {
    assertEquals((await run(["index", "--quiet"], vars)).code, 0);
    assertEquals(events(), 6);
    // R rewritten without A's lines (a later compaction or edit).
    writeFileSync(join(proj, `${R}.jsonl`), [...mine, claudeLine(12, "more", R)].join(""));
    assertEquals((await run(["index", "--quiet"], vars)).code, 0);
    assertEquals(events(), 6, "A is read again from its own file");
    const show = await run(["show", A.slice(0, 8)], vars);
    assertEquals(show.code, 0, show.err);
    assertStringIncludes(show.out, "harbour ledger step 5");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("a Claude Code session's copy, appended to and deleted, is named where its events were kept", async () => {
  // Trial 137 M3: a session file copied under another name and appended to; the copy deleted,
  // `deja show` named the original as the source while it showed the copy's appended events,
  // and `deja sources` said "(1 gone, 0 sessions kept) … (1 copy)". The events stay (a gone
  // store keeps what it held) and show and sources name the gone copy, whichever file took
  // the session last.
  const A = "cccc0000-1111-4222-8333-444455556666";
  const own = [0, 1, 2, 3].map((i) => claudeLine(i, `harbour ledger step ${i}`, A));
  const extra = claudeLine(4, "appended only to the copy quokkafresh", A);
  for (const copyFirst of [true, false]) {
    const dir = tempDir("deja-copies-gone-");
    const proj = join(dir, "claude", "-w-ledger");
    mkdirSync(proj, { recursive: true });
    const orig = join(proj, `${A}.jsonl`);
    const copy = join(proj, "growing-copy.jsonl");
    const vars = {
      HOME: join(dir, "home"),
      DEJA_HOME: join(dir, "deja"),
      DEJA_CLAUDE_ROOT: join(dir, "claude"),
      XDG_DATA_HOME: join(dir, "xdg"),
      XDG_CONFIG_HOME: join(dir, "xdg"),
      XDG_STATE_HOME: join(dir, "xdg"),
      DEJA_NO_REFRESH: "1",
      TZ: "UTC",
    };
    try {
      writeFileSync(orig, own.join(""));
      if (copyFirst) {
        // Both read in one run: the copy is read first and the original takes the session.
        writeFileSync(copy, [...own, extra].join(""));
      } else {
        // The original read first; the copy made and appended to later takes the session.
        assertEquals((await run(["index", "--quiet"], vars)).code, 0);
        writeFileSync(copy, own.join(""));
        assertEquals((await run(["index", "--quiet"], vars)).code, 0);
        appendFileSync(copy, extra);
      }
      assertEquals((await run(["index", "--quiet"], vars)).code, 0);
      rmSync(copy);
      assertEquals((await run(["index", "--quiet"], vars)).code, 0);
      const show = await run(["show", A.slice(0, 8)], vars);
      assertEquals(show.code, 0, show.err);
      assertStringIncludes(show.out, "quokkafresh", "the copy's event is kept");
      assertStringIncludes(show.out, `source ${orig}`);
      assertStringIncludes(
        show.out,
        `also read from ${copy} (gone since): what only it held is kept in the index`,
      );
      const json = JSON.parse((await run(["show", A.slice(0, 8), "--json"], vars)).out);
      assertEquals(json.also_from_gone, [copy]);
      const sources = (await run(["sources"], vars)).out;
      assertStringIncludes(sources, "(1 gone, 1 session kept)", `copy first: ${copyFirst}`);
      assertStringIncludes(sources, "(1 copy)");
      // A rebuild starts from the stores as they are: the copy's event and the copy go.
      assertEquals((await run(["index", "--rebuild", "--quiet"], vars)).code, 0);
      const after = await run(["show", A.slice(0, 8)], vars);
      assert(!after.out.includes("quokkafresh"), after.out);
      assert(!after.out.includes("also read from"), after.out);
      assert(!(await run(["sources"], vars)).out.includes("copy"), "no copy after a rebuild");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
