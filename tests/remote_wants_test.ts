/**
 * A remote's mirror holds what discovery reads, not only the parsers' roots:
 * Claude Code's `history.jsonl` beside `projects/`, and the `crush.db` of every
 * project Crush's `projects.json` names (outside Crush's data root). Both are
 * indexed from the mirror with the remote's label, and a mirror never leads
 * the parsers to a store of this machine. Real rsync, tests/remote/fake_ssh.sh.
 */
import { assert, assertEquals } from "./_assert.ts";
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { materialize, REPO } from "./_fixture.ts";
import { indexPath, Store } from "../lib/store.ts";
import { HAVE_RSYNC, type Hit, SVC, world, writeClaude } from "./_remote.ts";

Deno.test({
  name:
    "remote sync mirrors Claude's history.jsonl and Crush's per-project stores, indexed labelled",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    // The remote's Crush projects live outside its home (and outside Crush's data root).
    const fx = materialize(join(REPO, "fixtures", "registry", "crush"));
    try {
      writeClaude(w.remoteHome, SVC);
      writeFileSync(
        join(w.remoteHome, ".claude", "history.jsonl"),
        JSON.stringify({
          display: "why does the zorblaxian cache evict early",
          timestamp: Date.parse("2026-11-12T09:00:00Z"),
          project: "/w/svc",
          sessionId: "7e57aaaa-0000-4000-8000-00000000aaaa",
        }) + "\n",
      );
      const crushData = join(w.remoteHome, ".local", "share", "crush");
      mkdirSync(crushData, { recursive: true });
      cpSync(join(fx.root, "data", "projects.json"), join(crushData, "projects.json"));
      await w.run(["remote", "add", "devbox", "devbox", "--path-map", "/w/svc=/home/me/svc"]);
      const sync = await w.run(["remote", "sync"]);
      assertEquals(sync.code, 0, sync.err);
      const mirror = join(w.root, "deja", "remotes", "devbox");
      assert(existsSync(join(mirror, w.remoteHome, ".claude", "history.jsonl")), "history.jsonl");
      const appDb = join(fx.root, "projects", "app", ".crush", "crush.db");
      assert(existsSync(join(mirror, appDb)), "the app project's crush.db");
      // The prompt history: labelled, its project mapped.
      const hist = (await w.json(["search", "zorblaxian", "--junk"])).results as Hit[];
      assertEquals(hist.map((h) => [h.origin, h.project]), [["devbox", "/home/me/svc"]]);
      // Crush's sessions: read from the mirror's copies only, projects kept as the remote's.
      const crushRows = () => {
        const store = Store.open(indexPath(w.env));
        try {
          return store.db.prepare(
            "SELECT project, source FROM sessions WHERE harness = 'crush' AND origin = 'devbox'",
          ).all() as Array<{ project: string; source: string }>;
        } finally {
          store.close();
        }
      };
      const rows = crushRows();
      assert(rows.length > 0, "no Crush session from the remote");
      for (const r of rows) {
        assert(r.source.startsWith(`${mirror}/`), `read outside the mirror: ${r.source}`);
        assert(r.project.startsWith(`devbox:${fx.root}/`), r.project);
      }
      // The remote's stores gone (as seen from here): the mirror's copies stay indexed.
      rmSync(fx.root, { recursive: true, force: true });
      assertEquals((await w.run(["index", "-q"])).code, 0);
      assertEquals(crushRows().length, rows.length);
    } finally {
      fx.cleanup();
      w.cleanup();
    }
  },
});
