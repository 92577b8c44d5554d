/**
 * An index in a folder deja may not write to (a read-only mount, a home shared
 * read-only; trial 29: every search failed, "unable to open database file", and
 * suggested a rebuild). The index is read as it is; commands that must write say
 * why they cannot, with the way out.
 *
 * The folder is made read-only with a read-only bind mount when the tests run as
 * root (whom file modes do not stop), else with its mode; where neither can be
 * done the tests are skipped and say so.
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { assert, assertEquals } from "./_assert.ts";
import { claudeLines, indexSessions } from "./_memory.ts";
import { runMain, withVars } from "./_cli_io.ts";
import { indexPath, Store } from "../lib/store.ts";
import { freshen } from "../lib/fresh/freshen.ts";
import { tempDir } from "./_tmp.ts";
import { testEnv } from "./_fixture.ts";

/** A read-only view of `dir`: its path and how to end it; undefined when none can be made. */
function readOnlyView(dir: string): { path: string; end: () => void } | undefined {
  const uid = process.getuid?.() ?? 0;
  if (uid !== 0) {
    chmodSync(dir, 0o555);
    return { path: dir, end: () => chmodSync(dir, 0o755) };
  }
  const mnt = `${dir}-ro`;
  mkdirSync(mnt, { recursive: true });
  const bind = spawnSync("mount", ["--bind", dir, mnt], { stdio: "ignore" });
  if (bind.status !== 0) return undefined;
  const ro = spawnSync("mount", ["-o", "remount,ro,bind", mnt], { stdio: "ignore" });
  const end = () => {
    spawnSync("umount", [mnt], { stdio: "ignore" });
    rmSync(mnt, { recursive: true, force: true });
  };
  if (ro.status !== 0) {
    end();
    return undefined;
  }
  return { path: mnt, end };
}

/** Whether a read-only view can be made here (probed once). */
const canView = (() => {
  const d = tempDir("deja-ro-probe-");
  try {
    const v = readOnlyView(d);
    v?.end();
    return v !== undefined;
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
})();
if (!canView) console.log("readonly_home_test: no read-only mount or mode possible here; skipped");

const SID = "5a111111-2222-4333-8444-555555555555";

Deno.test({
  name: "an index in a read-only folder is searched as it is, and a write says why it cannot",
  ignore: !canView,
  async fn() {
    const ix = await indexSessions([{
      id: SID,
      cwd: "/w/ro",
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "the zorblatt cache evicts too early" }, { say: "Raised the zorblatt TTL." }],
    }]);
    ix.store.close();
    const home = join(ix.root, "deja");
    const view = readOnlyView(home);
    assert(view);
    try {
      const env = withVars(ix.env, { DEJA_HOME: view.path });
      // Opened as it is: no -shm can be made beside it.
      const store = Store.open(indexPath(env));
      try {
        assert(store.frozen);
        const n = store.db.prepare("SELECT count(*) AS n FROM sessions").get() as { n: number };
        assertEquals(n.n, 1);
      } finally {
        store.close();
      }
      // A new session: no run can read it in; said, and answered from the index as it is.
      const more = claudeLines({
        id: "5a222222-2222-4333-8444-555555555555",
        cwd: "/w/ro",
        start: "2026-11-02T10:00:00Z",
        turns: [{ user: "a later zorblatt question" }],
      });
      writeFileSync(
        join(ix.root, "claude", "-w-ro", "5a222222-2222-4333-8444-555555555555.jsonl"),
        more.join("\n") + "\n",
      );
      const f = await freshen(env);
      // Trial 72: `pending: 0` where doctor said a store had changed.
      assertEquals([f.state, f.pending], ["read_only", 1]);
      const found = await runMain(env, ["zorblatt"]);
      assertEquals(found.code, 0, found.err);
      assert(found.out.includes("zorblatt"), found.out);
      assert(found.err.includes("read-only"), found.err);
      assert(!found.err.includes("--rebuild"), found.err);
      const idx = await runMain(env, ["index"]);
      assert(idx.code !== 0);
      assert(idx.err.includes("cannot be written"), idx.err);
      assert(!idx.err.includes("fewer or shorter words"), idx.err);
      // Watching says it cannot before it says it watches (trial 31: "watching the stores",
      // then a failure to write its pid file).
      const watch = await runMain(env, ["index", "--watch"]);
      assertEquals(watch.code, 2, watch.err);
      assert(watch.err.includes("cannot be written"), watch.err);
      assert(!watch.err.includes("watching"), watch.err);
      // A forget records nothing it cannot carry out (trial 33), and says why in one line.
      const forget = await runMain(env, ["forget", "--session", SID.slice(0, 8)]);
      assertEquals(forget.code, 2, forget.err);
      assert(forget.err.includes("the index cannot be written here"), forget.err);
      assert(!/\n\s+at /.test(forget.err), forget.err);
      // A write of a file of deja's own is one line with the way out, never a stack trace.
      const noted = await runMain(withVars(env, { DEJA_DEJA_ROOT: view.path }), [
        "remember",
        "the zorblatt TTL is 60s",
      ]);
      assertEquals(noted.code, 2, noted.err);
      assert(
        /cannot write .*notes\.jsonl.*the file system is read-only/.test(noted.err),
        noted.err,
      );
      assert(!/\n\s+at /.test(noted.err), noted.err);
      assert(!/\n\s+at /.test(forget.err), forget.err);
      const doc = await runMain(env, ["doctor", "--json"]);
      const report = JSON.parse(doc.out);
      assertEquals(report.index.error, null, JSON.stringify(report.index));
      // Doctor says the index cannot be brought up to date, as a problem (trial 30: "run 'deja
      // index'", which cannot work there).
      assertEquals(report.index.read_only, true, JSON.stringify(report.index));
      assert(doc.err.includes("index (its folder is read-only)"), doc.err);
      assertEquals(doc.code, 1);
    } finally {
      view.end();
      ix.cleanup();
    }
  },
});

Deno.test({
  name:
    "a first index into a read-only folder says the folder cannot be written, not the words typed",
  ignore: !canView,
  async fn() {
    const dir = tempDir("deja-ro-empty-");
    const home = join(dir, "deja");
    mkdirSync(home);
    const view = readOnlyView(home);
    assert(view);
    try {
      const env = testEnv(join(dir, "home"), {
        DEJA_HOME: view.path,
        DEJA_CLAUDE_ROOT: join(dir, "claude"),
        XDG_CONFIG_HOME: join(dir, "config"),
        XDG_DATA_HOME: join(dir, "data"),
      });
      const r = await runMain(env, ["index"]);
      assertEquals(r.code, 2, r.err);
      assert(r.err.includes("the index cannot be written here"), r.err);
      assert(!r.err.includes("words"), r.err);
      // Nor is "run 'deja index'" the way out for a search or doctor there (trial 31).
      const q = await runMain(env, ["some", "words"]);
      assert(q.err.includes("its folder is read-only"), q.err);
      const doc = await runMain(env, ["doctor", "--json"]);
      assertEquals(doc.code, 1, doc.err);
      assertEquals(JSON.parse(doc.out).index.read_only, true, doc.out);
    } finally {
      view.end();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
