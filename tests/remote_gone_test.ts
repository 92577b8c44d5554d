/**
 * A session file deleted on a remote: the next sync deletes its copy from the mirror and says
 * so, its sessions stay in the index ("gone, kept", as a local store's), and `remote list` and
 * `deja sources` name it. Real rsync, tests/remote/fake_ssh.sh for ssh.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { HAVE_RSYNC, OTHER, SVC, world, writeClaude } from "./_remote.ts";

Deno.test({
  name:
    "a session file deleted on the remote is said gone by sync, list and sources, kept (trial 113 F10)",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      writeClaude(w.remoteHome, SVC);
      const dead = writeClaude(w.remoteHome, OTHER);
      assertEquals((await w.run(["remote", "add", "box", "me@devbox:2222"])).code, 0);
      const first = await w.run(["remote", "sync", "box"]);
      assertEquals(first.code, 0, first.err);
      const copy = join(w.root, "deja", "remotes", "box", dead);
      assert(existsSync(copy), copy);
      rmSync(dead);
      // It said "0 files changed", and the copy stayed as if the remote still had it.
      const sync = await w.run(["remote", "sync", "box"]);
      assertEquals(sync.code, 0, sync.err);
      assertStringIncludes(sync.out, "box: 0 files changed, 1 gone (its sessions kept), ");
      assert(!existsSync(copy), "the mirror keeps a file the remote deleted");
      const again = JSON.parse((await w.run(["remote", "sync", "box", "--json"])).out);
      assertEquals(again.remotes[0].gone, [], "said gone once, by the sync that found it");
      // `remote list` names it, and its session is kept.
      const list = (await w.json(["remote", "list"])).remotes as Array<Record<string, unknown>>;
      assertEquals(list[0].gone_stores, [dead]);
      assertEquals(list[0].gone_sessions, 1);
      assertEquals(list[0].sessions, 2);
      const listText = await w.run(["remote", "list"]);
      assertStringIncludes(
        listText.out,
        `gone from the remote since an earlier sync: ${dead} (1 gone, 1 session kept)`,
      );
      // `deja sources` counts it gone, not present.
      const src = (await w.json(["sources"])).remotes as Array<Record<string, unknown>>;
      assertEquals([src[0].indexed, src[0].gone, src[0].gone_sessions, src[0].sessions], [
        1,
        1,
        1,
        2,
      ]);
      assertStringIncludes((await w.run(["sources"])).out, "(1 gone, 1 session kept)");
      // `--json` names the file the sync found gone (the remote's path).
      const third = writeClaude(w.remoteHome, {
        ...OTHER,
        id: "7e570003-0000-4000-8000-000000000003",
      });
      assertEquals((await w.run(["remote", "sync", "box"])).code, 0);
      rmSync(third);
      const json = JSON.parse((await w.run(["remote", "sync", "box", "--json"])).out);
      assertEquals(json.remotes[0].gone, [third]);
      // Kept: still shown and found.
      assertEquals((await w.json(["show", `box:${OTHER.id.slice(0, 8)}`])).id, `box:${OTHER.id}`);
    } finally {
      w.cleanup();
    }
  },
});
