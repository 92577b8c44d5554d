import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { rmSync, writeFileSync } from "node:fs";
import { tempDir } from "../../tests/_tmp.ts";
import { join } from "node:path";
import { csi } from "./output.ts";
import { parseSources, sourcesCmd, sourcesData, sourcesText, storeBytes } from "./cmd_sources.ts";

const ID = "50bce000-1111-4222-8333-444455556666";

function fixture() {
  return indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "list the stores" }, { say: "Done." }],
  }]);
}

Deno.test("sources parses its three switches", () => {
  assertEquals(parseSources({ values: { verbose: true }, positionals: [] }), {
    verbose: true,
    wiring: false,
    json: false,
  });
});

Deno.test("sources' run counts the indexed stores and sessions per harness", async () => {
  const ix = await fixture();
  try {
    const d = await sourcesData(ix.env);
    assert(d.index !== null);
    const claude = d.harnesses.find((h) => h.harness === "claude")!;
    assertEquals([claude.stores, claude.indexed, claude.sessions], [1, 1, 1]);
    assert(claude.roots.some((r) => r.exists));
  } finally {
    ix.cleanup();
  }
});

Deno.test("sources' run says there is no index when none was built", async () => {
  const d = await sourcesData(testEnv("/nonexistent-home", { DEJA_HOME: "/nonexistent-deja" }));
  assertEquals(d.index, null);
  assertEquals(d.harnesses.find((h) => h.harness === "claude")!.sessions, 0);
});

Deno.test("sources prints colour on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  try {
    const tty = captureIO(ix.env, true);
    assertEquals(await sourcesCmd.run({ values: {}, positionals: [] }, tty.io), 0);
    assertStringIncludes(tty.out(), csi("1m") + "claude");
    // The hint goes to stderr: stdout is the table alone (trial 59).
    assertStringIncludes(tty.err(), "deja sources --verbose: every root");
    assert(!tty.out().includes("--verbose"), tty.out());

    const pipe = captureIO(ix.env, false);
    assertEquals(await sourcesCmd.run({ values: { verbose: true }, positionals: [] }, pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assert(/^claude\s+1 store\s+1 session\s/m.test(pipe.out()), pipe.out());
    assertStringIncludes(pipe.out(), "verified: ");

    const json = captureIO(ix.env, false);
    assertEquals(await sourcesCmd.run({ values: { json: true }, positionals: [] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(Object.keys(doc), ["index", "harnesses", "remotes"]);
    assertEquals(
      doc.harnesses.find((h: { harness: string }) => h.harness === "claude").sessions,
      1,
    );

    const wiring = captureIO(ix.env, false);
    assertEquals(
      await sourcesCmd.run({ values: { wiring: true, json: true }, positionals: [] }, wiring.io),
      0,
    );
    assert(Array.isArray(JSON.parse(wiring.out())));
  } finally {
    ix.cleanup();
  }
});

Deno.test("sources counts a store whose read failed in errors, not in indexed, text and JSON alike", async () => {
  const ix = await fixture();
  try {
    const path =
      (ix.store.db.prepare("SELECT path FROM sources WHERE harness = 'claude'").get() as {
        path: string;
      }).path;
    ix.store.db.prepare("UPDATE sources SET error = 'unreadable' WHERE path = ?").run(path);
    const claude = (await sourcesData(ix.env)).harnesses.find((h) => h.harness === "claude")!;
    assertEquals([claude.stores, claude.indexed, claude.errors], [1, 0, 1]);
    const pipe = captureIO(ix.env, false);
    await sourcesCmd.run({ values: {}, positionals: [] }, pipe.io);
    assertStringIncludes(pipe.out(), "1 store   (1 failed)");
    // Trial 101 F7: the note shifted that line's columns out of line with the others'.
    const lines = pipe.out().split("\n");
    const at = (h: string) => {
      const line = lines.find((l) => l.startsWith(`${h} `)) ?? "";
      return line.indexOf(" session");
    };
    assert(at("claude") > 0);
    assertEquals(at("claude"), at("codex"));
  } finally {
    ix.cleanup();
  }
});

// Regression (new user, 2026-12, real Claude store): after session files were deleted or moved,
// `sources --json` said `"stores": 11, "indexed": 13`: `indexed` counted what the index held,
// vanished stores included. Their sessions stay (deja is memory), counted as `gone`.
Deno.test("sources counts a store deleted since indexing as gone, not indexed, and keeps its sessions", async () => {
  const ix = await indexSessions([
    { id: ID, cwd: "/w/app", start: "2026-11-01T10:00:00Z", turns: [{ user: "keep me" }] },
    {
      id: "50bcf000-1111-4222-8333-444455556666",
      cwd: "/w/app",
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "delete me" }],
    },
  ]);
  try {
    const path = (ix.store.db.prepare("SELECT path FROM sources WHERE path LIKE ?").get(
      "%50bcf000%",
    ) as { path: string }).path;
    rmSync(path);
    const claude = (await sourcesData(ix.env)).harnesses.find((h) => h.harness === "claude")!;
    assertEquals(
      [claude.stores, claude.indexed, claude.gone, claude.sessions, claude.errors],
      [1, 1, 1, 2, 0],
    );
    // `gone: 1` beside `kept: 0` read as a contradiction (a user trial): `gone` counts stores,
    // `gone_sessions` the sessions kept of them, `kept_damaged` (old name `kept`) damaged reads'.
    assertEquals([claude.gone_sessions, claude.kept, claude.kept_damaged], [1, 0, 0]);
    const pipe = captureIO(ix.env, false);
    await sourcesCmd.run({ values: {}, positionals: [] }, pipe.io);
    assert(
      /^claude\s+1 store\s+\(1 gone, 1 session kept\)\s+2 sessions/m.test(pipe.out()),
      pipe.out(),
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("sources does not count a gone store's skips as the harness's damage", async () => {
  const ix = await indexSessions([
    { id: ID, cwd: "/w/app", start: "2026-11-01T10:00:00Z", turns: [{ user: "keep me" }] },
    {
      id: "50bcf000-1111-4222-8333-444455556666",
      cwd: "/w/app",
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "delete me" }],
    },
  ]);
  try {
    const path = (ix.store.db.prepare("SELECT path FROM sources WHERE path LIKE ?").get(
      "%50bcf000%",
    ) as { path: string }).path;
    // The gone store's last read skipped records (as a damaged file would).
    ix.store.db.prepare("UPDATE sources SET skipped = ? WHERE path = ?").run(
      JSON.stringify({
        counts: { unknown_record: 144 },
        examples: [`unknown_record at ${path}@0`],
      }),
      path,
    );
    rmSync(path);
    const claude = (await sourcesData(ix.env)).harnesses.find((h) => h.harness === "claude")!;
    assertEquals([claude.gone, claude.damaged, claude.skipped, claude.skipped_at], [1, 0, {}, []]);
    const pipe = captureIO(ix.env, false);
    await sourcesCmd.run({ values: {}, positionals: [] }, pipe.io);
    assert(!pipe.out().includes("damaged"), pipe.out());
  } finally {
    ix.cleanup();
  }
});

Deno.test("sources lists the skips of every store of a harness, not the first stores' only", async () => {
  const ids = [0, 1, 2, 3, 4].map((i) => `50bd${i}000-1111-4222-8333-444455556666`);
  const ix = await indexSessions(ids.map((id, i) => ({
    id,
    cwd: "/w/app",
    start: `2026-11-0${i + 1}T10:00:00Z`,
    turns: [{ user: `session ${i}` }],
  })));
  try {
    const paths = (ix.store.db.prepare("SELECT path FROM sources ORDER BY rowid").all() as Array<
      { path: string }
    >).map((r) => r.path);
    assertEquals(paths.length, 5);
    for (const p of paths) {
      const examples = [0, 1, 2, 3, 4].map((n) => `bad_shape at ${p}@${n}`);
      ix.store.db.prepare("UPDATE sources SET skipped = ? WHERE path = ?").run(
        JSON.stringify({ counts: { bad_shape: 5 }, examples }),
        p,
      );
    }
    const claude = (await sourcesData(ix.env)).harnesses.find((h) => h.harness === "claude")!;
    for (const p of paths) {
      assert(
        claude.skipped_at.some((x) => x.includes(`${p}@`)),
        `${p}\n${claude.skipped_at.join("\n")}`,
      );
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("a SQLite store's size holds its write-ahead log; another file's does not", () => {
  // Trial 56: opencode's sessions, 2.5 MB in opencode.db-wal, were listed as the 4 KiB main file.
  const dir = tempDir("deja-sources-wal-");
  try {
    for (const [name, bytes] of [["opencode.db", 4096], ["opencode.db-wal", 50_000]] as const) {
      writeFileSync(join(dir, name), new Uint8Array(bytes));
    }
    assertEquals(storeBytes({ path: `${dir}/opencode.db`, size: 4096 }), 54_096);
    // A store whose reads failed has no recorded size: both files as they are now.
    assertEquals(storeBytes({ path: `${dir}/opencode.db`, size: null }), 54_096);
    writeFileSync(join(dir, "s.jsonl"), new Uint8Array(10));
    writeFileSync(join(dir, "s.jsonl-wal"), new Uint8Array(99));
    assertEquals(storeBytes({ path: `${dir}/s.jsonl`, size: 10 }), 10);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("sources says a harness's sessions are kept from an earlier read when no store is found now", async () => {
  // Trial 101 F7: "crush 0 stores … 28 sessions" after its projects.json was damaged, unsaid.
  const ix = await fixture();
  const empty = tempDir("deja-src-empty-");
  try {
    const env = testEnv(ix.env.home, {
      ...ix.env.vars?.(),
      DEJA_CLAUDE_ROOT: empty,
    });
    const pipe = captureIO(env, false);
    await sourcesCmd.run({ values: {}, positionals: [] }, pipe.io);
    const line = pipe.out().split("\n").find((l) => l.startsWith("claude ")) ?? "";
    assertStringIncludes(line, "0 stores");
    assertStringIncludes(line, "1 session");
    assertStringIncludes(line, "(sessions kept from an earlier read)");
  } finally {
    rmSync(empty, { recursive: true, force: true });
    ix.cleanup();
  }
});

Deno.test("sources keeps a remote's row in the harnesses' columns (trial 112 F10)", async () => {
  const ix = await fixture();
  try {
    const d = await sourcesData(ix.env);
    // A problem note widens its column; a remote's label is longer than a harness's name.
    d.harnesses.find((h) => h.harness === "claude")!.errors = 1;
    const counts = { indexed: 2, sessions: 1, bytes: 2048 };
    d.remotes = [{
      remote: "alice",
      harnesses: [{ harness: "codex", ...counts }],
      ...counts,
      gone: 0,
      gone_sessions: 0,
    }];
    const lines = sourcesText(d, { isTTY: false, env: ix.env }, false).split("\n");
    const claude = lines.find((l) => l.startsWith("claude "))!;
    const alice = lines.find((l) => l.startsWith("alice (remote) "))!;
    // Where each column ends: the stores, sessions and size are right-aligned.
    const ends = (l: string) =>
      [/\d+ stores?/, /\d+ sessions?/, /\d+(\.\d)? K?i?B/].map((re) => {
        const m = re.exec(l)!;
        return m.index + m[0].replace(/s$/, "").length;
      });
    assertEquals(ends(alice), ends(claude), `\n${claude}\n${alice}`);
  } finally {
    ix.cleanup();
  }
});
