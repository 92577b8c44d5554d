/**
 * The real stores in ../shared/realdata, indexed through the whole pipeline
 * (discover -> parse -> store -> search). Real files are copied into harness
 * layouts in a temporary directory first: they are test inputs, never edited,
 * and this test also proves nothing beside them changed.
 */
import { assert, assertEquals } from "./_assert.ts";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { createHash } from "node:crypto";
import { testEnv } from "./_fixture.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { search } from "../lib/search.ts";
import { parsers } from "../parsers/mod.ts";
import { tempDir } from "./_tmp.ts";
import { REAL, realdataLayout, realPresent } from "./_realdata.ts";

const present = realPresent;
/** The harnesses of the core issue; the others' real stores are tested beside their parsers. */
const CORE = ["claude", "codex", "gemini", "opencode", "crush", "aider"];

function digest(dir: string): string {
  const h = createHash("sha256");
  const visit = (d: string) => {
    for (
      const ent of readdirSync(d, { withFileTypes: true }).sort((
        x,
        y,
      ) => (x.name < y.name ? -1 : 1))
    ) {
      const p = join(d, ent.name);
      if (ent.isDirectory()) visit(p);
      else if (ent.isFile()) h.update(relative(dir, p)).update(readFileSync(p));
    }
  };
  visit(dir);
  return h.digest("hex");
}

Deno.test({
  name: "the real stores of the six core harnesses index and search end to end",
  ignore: !present,
  fn: async () => {
    const before = digest(REAL);
    const root = tempDir("deja-real-");
    const vars = realdataLayout(root);
    const env = testEnv(join(root, "home"), { ...vars, DEJA_HOME: join(root, "deja") });
    const core = parsers.filter((p) => CORE.includes(p.id));
    const res = await runIndex(env, core);
    for (const h of res.harnesses) {
      assertEquals(h.errors, [], `${h.harness} reported errors`);
      assert(h.found > 0, `${h.harness} found no store`);
    }
    const store = Store.open(indexPath(env));
    try {
      // Every store file yields sessions or is a known empty one.
      const rows = store.db.prepare("SELECT path, harness, sessions, skipped, error FROM sources")
        .all() as Array<
          {
            path: string;
            harness: string;
            sessions: number;
            skipped: string | null;
            error: string | null;
          }
        >;
      // warmup: Claude Code's own cache warm-up sidechain, left out on purpose (docs/registry/claude.md).
      const emptyOk = /snapshot-only|summary-only|warmup|empty-newest|farm\/codex|auggie/;
      for (const r of rows) {
        assertEquals(r.error, null, r.path);
        if (r.sessions === 0) {
          assert(emptyOk.test(r.path) || r.path.includes("empty"), `${r.path} yields no session`);
        }
      }
      for (const h of ["claude", "codex", "gemini", "opencode"]) {
        const hits = search(store, `zebrafinch-${h}`, { harness: [h] });
        assertEquals(hits.tier, "exact", `marker zebrafinch-${h}`);
        assert(hits.results.length >= 1, `marker zebrafinch-${h} not found`);
        const failing = store.db.prepare(
          `SELECT c.exit, c.is_error FROM commands c JOIN sessions s ON s.id = c.session_id
           WHERE s.harness = ? AND c.command LIKE '%cat missing.txt%'`,
        ).all(h) as Array<{ exit: number | null; is_error: number }>;
        assert(failing.length >= 1, `${h}: the cat missing.txt command is not recorded`);
        assert(
          failing.some((c) => c.is_error === 1 || (c.exit ?? 0) !== 0),
          `${h}: cat missing.txt not marked failed`,
        );
        const edit = store.db.prepare(
          `SELECT f.old, f.new FROM files f JOIN sessions s ON s.id = f.session_id
           WHERE s.harness = ? AND f.op = 'edit' AND f.path LIKE '%README.md' AND f.failed = 0`,
        ).all(h) as Array<{ old: string; new: string }>;
        assert(
          edit.some((e) => e.old.includes("hello world") && e.new.includes("hello zebrafinch")),
          `${h}: README edit span`,
        );
      }
      // Exit codes where the store records them (Claude writes "Exit code N" into the error text; Codex records them).
      for (const h of ["claude", "codex", "opencode"]) {
        const exits = store.db.prepare(
          `SELECT c.exit FROM commands c JOIN sessions s ON s.id = c.session_id
           WHERE s.harness = ? AND c.command LIKE '%cat missing.txt%'`,
        ).all(h) as Array<{ exit: number | null }>;
        assert(exits.some((e) => (e.exit ?? 0) > 0), `${h}: cat missing.txt has no non-zero exit`);
      }
      // The public crush.db gives its 17 sessions.
      const crushPublic = store.db.prepare(
        "SELECT COUNT(*) AS n FROM sessions WHERE harness = 'crush' AND source LIKE '%/crush/.crush/crush.db'",
      ).get() as { n: number };
      assertEquals(crushPublic.n, 17);
      // Crush: Exit code N commands, multiedit spans, a subagent with its parent, a summary.
      const crushExits = store.db.prepare(
        "SELECT DISTINCT c.exit FROM commands c JOIN sessions s ON s.id = c.session_id WHERE s.harness = 'crush' AND c.exit IS NOT NULL",
      ).all() as Array<{ exit: number }>;
      const exitSet = new Set(crushExits.map((r) => r.exit));
      for (const n of [1, 3, 4, 127, 128]) assert(exitSet.has(n), `crush exit ${n} missing`);
      const sub = store.db.prepare(
        "SELECT COUNT(*) AS n FROM sessions WHERE harness = 'crush' AND parent IS NOT NULL",
      ).get() as { n: number };
      assert(sub.n >= 1, "crush subagent with parent");
      const summ = store.db.prepare(
        "SELECT COUNT(*) AS n FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.harness = 'crush' AND e.kind = 'summary'",
      ).get() as { n: number };
      assert(summ.n >= 1, "crush summary");
      const spans = store.db.prepare(
        "SELECT COUNT(*) AS n FROM files f JOIN sessions s ON s.id = f.session_id WHERE s.harness = 'crush' AND f.op = 'edit' AND f.old <> ''",
      ).get() as { n: number };
      assert(spans.n >= 3, "crush edit spans");
      const cwdTags = store.db.prepare(
        "SELECT COUNT(*) AS n FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.harness = 'crush' AND e.text LIKE '%<cwd>%'",
      ).get() as { n: number };
      assertEquals(cwdTags.n, 0);
      // aider: sessions with user prompts.
      const aider = store.db.prepare("SELECT COUNT(*) AS n FROM sessions WHERE harness = 'aider'")
        .get() as { n: number };
      assert(aider.n >= 1, "aider sessions");
    } finally {
      store.close();
    }
    // A second run reads nothing.
    const again = await runIndex(env, core);
    for (const h of again.harnesses) {
      assertEquals(h.read, 0, `${h.harness} re-read an unchanged store`);
    }
    // Nothing in realdata changed.
    assertEquals(digest(REAL), before);
  },
});
