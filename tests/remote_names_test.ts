/**
 * A remote's name beside the ids people type: a name that starts a local session's id leaves
 * that id naming the local session, and one machine is not added under two names. Real rsync,
 * tests/remote/fake_ssh.sh for ssh.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { join } from "node:path";
import { HAVE_RSYNC, OTHER, SVC, world, writeClaude } from "./_remote.ts";

const LOCAL = "cda4b925-0000-4000-8000-000000000001";

Deno.test({
  name:
    "a remote named like a local session's id leaves that id naming the local session (trial 112 F9)",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      writeClaude(w.remoteHome, SVC);
      writeClaude(w.remoteHome, OTHER);
      writeClaude(w.home, { ...OTHER, id: LOCAL, cwd: "/w/here" });
      assertEquals((await w.run(["remote", "add", "cda4b925", "me@devbox:2222"])).code, 0);
      const sync = await w.run(["remote", "sync"]);
      assertEquals(sync.code, 0, sync.err);
      // It exited 2, listing the remote's sessions beside the local one.
      const show = await w.run(["show", "cda4b925", "--json"]);
      assertEquals(show.code, 0, show.err);
      assertEquals(JSON.parse(show.out).id, LOCAL);
      // The short id lists print still names it (it became cda4b925-000).
      const last = (await w.json(["last", "--from", "local"])).sessions as Array<
        Record<string, unknown>
      >;
      assertEquals(last.map((s) => s.short_id), ["cda4b925"]);
      // With its colon the name reaches the remote's sessions.
      assertEquals(
        (await w.json(["show", `cda4b925:${SVC.id.slice(0, 8)}`])).id,
        `cda4b925:${SVC.id}`,
      );
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name: "a remote's name alone still reaches its sessions when no session's id starts so",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      writeClaude(w.remoteHome, SVC);
      writeClaude(w.home, { ...OTHER, id: LOCAL, cwd: "/w/here" });
      assertEquals((await w.run(["remote", "add", "devbox", "me@devbox:2222"])).code, 0);
      assertEquals((await w.run(["remote", "sync"])).code, 0);
      assertEquals((await w.json(["show", "devbox"])).id, `devbox:${SVC.id}`);
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name: "remote add refuses a target already added under another name (trial 112 F9)",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      assertEquals((await w.run(["remote", "add", "devbox", "me@devbox:2222"])).code, 0);
      const again = await w.run(["remote", "add", "other", "me@devbox:2222"]);
      assertEquals(again.code, 2, again.out);
      assertStringIncludes(again.err, "me@devbox:2222 is already the remote 'devbox'");
      assertStringIncludes(again.err, "hint: 'deja remote sync devbox' syncs it");
      const list = (await w.json(["remote", "list"])).remotes as Array<Record<string, unknown>>;
      assertEquals(list.map((r) => r.name), ["devbox"]);
      // ssh's default port written out, or left out, is the same target (trial 113 F5).
      assertEquals((await w.run(["remote", "add", "plain", "me@devbox"])).code, 0);
      for (const [name, target] of [["p22", "me@devbox:22"], ["p0", "me@devbox"]]) {
        const twice = await w.run(["remote", "add", name, target]);
        assertEquals(twice.code, 2, twice.out);
        assertStringIncludes(twice.err, "me@devbox is already the remote 'plain'");
      }
      assertEquals((await w.run(["remote", "add", "p22", "you@devbox:22"])).code, 0);
      const p22 = await w.run(["remote", "add", "plain22", "you@devbox"]);
      assertEquals(p22.code, 2, p22.out);
      assertStringIncludes(p22.err, "you@devbox:22 is already the remote 'p22'");
      // Another login or port is another machine's home.
      assertEquals((await w.run(["remote", "add", "other", "you@devbox:2222"])).code, 0);
      assertEquals((await w.run(["remote", "add", "third", "me@devbox:2200"])).code, 0);
    } finally {
      w.cleanup();
    }
  },
});

const CAFE = { ...SVC, id: "cafe0001-1111-4222-8333-444455556666" };

Deno.test({
  name:
    "a remote named like another remote's session id leaves that id naming the session (trial 113 F4)",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      writeClaude(w.remoteHome, CAFE);
      assertEquals((await w.run(["remote", "add", "box", "me@devbox:2222"])).code, 0);
      assertEquals((await w.run(["remote", "sync", "box"])).code, 0);
      // Another machine, named cafe0001, with no session of that id.
      const other = join(w.root, "other");
      writeClaude(other, SVC);
      writeClaude(other, OTHER);
      assertEquals((await w.run(["remote", "add", "cafe0001", "me@other:2222"])).code, 0);
      const sync = await w.run(["remote", "sync", "cafe0001"], { FAKE_REMOTE_HOME: other });
      assertEquals(sync.code, 0, sync.err);
      // It exited 2, listing the remote cafe0001's two sessions.
      const show = await w.run(["show", "cafe0001", "--json"]);
      assertEquals(show.code, 0, show.err);
      assertEquals(JSON.parse(show.out).id, `box:${CAFE.id}`);
      const resume = await w.run(["resume", "cafe0001"]);
      assertEquals(resume.code, 0, resume.err);
      assertStringIncludes(resume.out, CAFE.id);
      // With its colon the name reaches the remote's sessions.
      assertEquals(
        (await w.json(["show", `cafe0001:${SVC.id.slice(0, 8)}`])).id,
        `cafe0001:${SVC.id}`,
      );
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name: "an id prefix a local and a remote session share lists both, exit 2 (trial 113 F6)",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      const local = "058a90bd-630d-4000-8000-000000000001";
      const remote = "058a90bd-9999-4999-8999-999999999999";
      writeClaude(w.remoteHome, { ...SVC, id: remote });
      writeClaude(w.home, { ...OTHER, id: local, cwd: "/w/here" });
      assertEquals((await w.run(["remote", "add", "box", "me@devbox:2222"])).code, 0);
      assertEquals((await w.run(["remote", "sync"])).code, 0);
      // `show` opened the local one, exit 0; `resume` tried the local one alone.
      for (const cmd of ["show", "resume"]) {
        const r = await w.run([cmd, "058a90bd"]);
        assertEquals(r.code, 2, `${cmd}: ${r.out}`);
        assertStringIncludes(r.err, "'058a90bd' matches 2 sessions");
        assertStringIncludes(r.err, "  058a90bd-630 ");
        assertStringIncludes(r.err, "  box:058a90bd ");
      }
      // The refs listed name each alone.
      assertEquals((await w.json(["show", "058a90bd-630"])).id, local);
      assertEquals((await w.json(["show", "box:058a90bd"])).id, `box:${remote}`);
      assertEquals((await w.json(["show", "058a90bd-9"])).id, `box:${remote}`);
    } finally {
      w.cleanup();
    }
  },
});
