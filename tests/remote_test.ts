/**
 * `deja remote`: a "remote" machine played by a temp home and tests/remote/fake_ssh.sh (ssh's
 * options taken, the command run here with that home), real rsync in between. No network.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertStringIncludes,
  assertThrows,
} from "./_assert.ts";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { SessionSpec } from "./_memory.ts";
import { materialize, REPO } from "./_fixture.ts";
import { mapPath } from "../lib/remote/label.ts";
import { loadRemotes, parseTarget } from "../lib/remote/config.ts";
import { rsyncHost } from "../lib/remote/sync.ts";
import { indexPath, Store } from "../lib/store.ts";
import { DejaError } from "../core/errors.ts";
import { defaultHidden } from "../lib/search/sessions.ts";
import { FAKE_SSH, HAVE_RSYNC, type Hit, OTHER, SVC, world, writeClaude } from "./_remote.ts";

Deno.test("remote targets and path maps are read the way ssh and a person write them", () => {
  assertEquals(parseTarget("me@devbox:2222"), { host: "me@devbox", port: 2222 });
  assertEquals(parseTarget("devbox"), { host: "devbox" });
  assertEquals(parseTarget("me.x@dev-box_1.lan"), { host: "me.x@dev-box_1.lan" });
  // IPv6 without its brackets, as ssh takes it; in brackets for rsync (trial 84).
  assertEquals(parseTarget("[fe80::1]:22"), { host: "fe80::1", port: 22 });
  assertEquals(parseTarget("me@[::1]:2222"), { host: "me@::1", port: 2222 });
  assertEquals(parseTarget("me@::1"), { host: "me@::1" });
  assertEquals(parseTarget("me@fe80::1"), { host: "me@fe80::1" });
  assertEquals([rsyncHost("me@::1"), rsyncHost("me@devbox")], ["me@[::1]", "me@devbox"]);
  // Shell characters ssh refuses in a host name (trial 79: `me@host;rm` was added).
  for (const bad of ["me@host;rm", "host&x", "a|b", "h$(id)", "me;x@host"]) {
    assertStringIncludes(
      assertThrows(() => parseTarget(bad), DejaError).message,
      "is not an SSH target",
    );
  }
  const label = { origin: "devbox", pathMaps: [{ remote: "/w/svc", local: "/home/me/svc" }] };
  assertEquals(mapPath(label, "/w/svc/a.ts"), "/home/me/svc/a.ts");
  assertEquals(mapPath(label, "/w/svc"), "/home/me/svc");
  assertEquals(mapPath(label, "/w/svcx/a.ts"), "devbox:/w/svcx/a.ts");
  assertEquals(mapPath(label, "C:\\src\\a.ts"), "devbox:C:\\src\\a.ts");
  assertEquals(mapPath(label, "relative/a.ts"), "relative/a.ts");
});

Deno.test({
  name:
    "remote sync mirrors a remote's stores and its sessions come back labelled with their machine",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      writeClaude(w.remoteHome, SVC);
      writeClaude(w.remoteHome, OTHER);
      // Credentials and settings beside the sessions: never copied to this machine.
      const secrets = [
        join(w.remoteHome, ".claude", ".credentials.json"),
        join(w.remoteHome, ".claude", "settings.json"),
        join(w.remoteHome, ".claude", "projects", "auth.json"),
      ];
      for (const f of secrets) {
        mkdirSync(dirname(f), { recursive: true });
        writeFileSync(f, '{"api_key": "sk-remote-SECRET"}');
      }
      // The same native id on this machine: ids must not collide.
      writeClaude(join(w.root, "home"), SVC);
      const add = await w.run([
        "remote",
        "add",
        "devbox",
        "me@devbox:2222",
        "--path-map",
        "/w/svc=/home/me/svc",
      ]);
      assertEquals(add.code, 0, add.err);
      const sync = await w.json(["remote", "sync"]);
      const r0 = (sync.remotes as Array<Record<string, unknown>>)[0];
      assertEquals(r0.ok, true, String(r0.error));
      assertEquals(r0.discovery, "registry");
      const mirror = join(w.root, "deja", "remotes", "devbox");
      const files = (readdirSync(mirror, { recursive: true }) as string[])
        .map((f) => join(mirror, f)).filter((f) => statSync(f).isFile());
      assert(files.length > 0, "the mirror holds the stores");
      for (const f of files) {
        assert(!readFileSync(f, "utf8").includes("sk-remote-SECRET"), `copied: ${f}`);
      }
      assert((r0.files as number) >= 2);
      const res = await w.json(["search", "gizmotron"]);
      const hits = res.results as Hit[];
      const remote = hits.find((h) => h.origin === "devbox");
      const local = hits.find((h) => h.origin === null);
      assert(remote && local, JSON.stringify(hits));
      assertEquals(remote.id, `devbox:${SVC.id}`);
      assertEquals(local.id, SVC.id);
      assertEquals(remote.project, "/home/me/svc");
      // An unmapped project keeps its machine in its path.
      const other = (await w.json(["search", "flibbertigibbet"])).results as Hit[];
      assertEquals(other[0].project, "devbox:/srv/other");
      // --from picks one machine.
      const fromRemote = (await w.json(["search", "gizmotron", "--from", "devbox"]))
        .results as Hit[];
      assertEquals(fromRemote.map((h) => h.origin), ["devbox"]);
      const fromLocal = (await w.json(["search", "gizmotron", "--from", "local"])).results as Hit[];
      assertEquals(fromLocal.map((h) => h.origin), [null]);
      const bad = await w.run(["search", "gizmotron", "--from", "nowhere"]);
      assertEquals(bad.code, 2);
      assertStringIncludes(bad.err, "the remotes are: devbox");
      // blame on the local clone finds the change made on the remote.
      const blame = await w.run(["blame", "/home/me/svc/server.js", "--json", "--junk"]);
      assertStringIncludes(blame.out, `devbox:${SVC.id}`);
      // show and last say where a session came from.
      const show = await w.json(["show", `devbox:${SVC.id.slice(0, 8)}`]);
      assertEquals(show.origin, "devbox");
      const last = await w.json(["last", "--from", "devbox", "--junk"]);
      assertMatch(JSON.stringify(last), /"origin": ?"devbox"/);
      // list and doctor report the sync.
      const list = (await w.json(["remote", "list"])).remotes as Array<Record<string, unknown>>;
      assertEquals(list[0].sessions, 2);
      assertEquals(list[0].last_error, null);
      assert((list[0].roots as string[]).some((r) => r.endsWith("/.claude/projects")));
      const doc = await w.run(["doctor", "--json"]);
      assertEquals(JSON.parse(doc.out).remotes[0].name, "devbox");
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name: "a second sync moves only what changed: nothing, or an appended session's tail",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      const big: SessionSpec = {
        ...SVC,
        turns: Array.from(
          { length: 400 },
          (_, i) => ({ say: `step ${i} ${"lorem ipsum ".repeat(40)}` }),
        ),
      };
      const file = writeClaude(w.remoteHome, big);
      await w.run(["remote", "add", "devbox", "devbox"]);
      const first =
        ((await w.json(["remote", "sync"])).remotes as Array<Record<string, number>>)[0];
      const none = ((await w.json(["remote", "sync"])).remotes as Array<Record<string, number>>)[0];
      assertEquals(none.files, 0);
      appendFileSync(
        file,
        JSON.stringify({
          type: "user",
          sessionId: big.id,
          uuid: "7e57ffff-0000-4000-8000-00000000ffff",
          timestamp: "2026-11-12T10:00:00Z",
          cwd: big.cwd,
          message: { role: "user", content: "quuxwidget appended later" },
        }) + "\n",
      );
      const tail = ((await w.json(["remote", "sync"])).remotes as Array<Record<string, number>>)[0];
      assertEquals(tail.files, 1);
      assert(
        tail.bytes < first.bytes / 10,
        `appended sync received ${tail.bytes} of ${first.bytes} bytes`,
      );
      console.log(
        `remote sync figures: first ${first.bytes} B in ${first.ms} ms; no change ${none.bytes} B in ${none.ms} ms; ` +
          `one appended line ${tail.bytes} B in ${tail.ms} ms`,
      );
      const hits = (await w.json(["search", "quuxwidget", "--junk"])).results as Hit[];
      assertEquals(hits[0]?.id, `devbox:${big.id}`);
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name: "a failed sync says why, keeps the previous mirror searchable, and the next one completes",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      writeClaude(w.remoteHome, SVC);
      await w.run(["remote", "add", "devbox", "devbox"]);
      assertEquals((await w.run(["remote", "sync"])).code, 0);
      // A large new store, cut off mid-transfer.
      const more: SessionSpec = {
        ...OTHER,
        turns: Array.from(
          { length: 300 },
          (_, i) => ({ say: `wibblequark ${i} ${"x".repeat(900)}` }),
        ),
      };
      writeClaude(w.remoteHome, more);
      const cut = await w.run(["remote", "sync"], { FAKE_REMOTE_CUT: "20000" });
      assertEquals(cut.code, 2, cut.out);
      // The host was reached: the copy broke, no login to check (trial 79 F3).
      assertStringIncludes(cut.err, "the connection to devbox broke during the copy");
      assertStringIncludes(cut.err, "hint: run 'deja remote sync' again: it resumes");
      assert(!cut.err.includes("could not reach"), cut.err);
      assertEquals(loadRemotes(w.env)[0].sync?.complete, false);
      // The index leaves the incomplete mirror unread; what it had stays.
      await w.run(["index", "-q"]);
      assertEquals(((await w.json(["search", "gizmotron", "--junk"])).results as Hit[]).length, 1);
      assertEquals(
        ((await w.json(["search", "wibblequark", "--junk"])).results as Hit[]).length,
        0,
      );
      // Next sync resumes and completes.
      assertEquals((await w.run(["remote", "sync"])).code, 0);
      const got = (await w.json(["search", "wibblequark", "--junk"])).results as Hit[];
      assertEquals(got[0]?.id, `devbox:${OTHER.id}`);
      // A host that is down: a clear error, a hint, the sessions still there.
      await w.run(["remote", "add", "gone", "down"]);
      const down = await w.run(["remote", "sync", "gone"]);
      assertEquals(down.code, 2);
      assertStringIncludes(down.err, "could not reach down");
      // The ssh deja ran, DEJA_SSH's (trial 63: the hint said plain ssh).
      assertStringIncludes(down.err, `hint: check that '${FAKE_SSH} down true' works`);
      // Never reached: no discovery to name (trial 79 F3: it said `registry`).
      const downJson = JSON.parse((await w.run(["remote", "sync", "gone", "--json"])).out);
      assertEquals(downJson.remotes[0].discovery, null);
      const list = (await w.json(["remote", "list"])).remotes as Array<Record<string, unknown>>;
      assertMatch(String(list.find((r) => r.name === "gone")?.last_error), /could not reach/);
      // Trial 63: "its sessions stay searchable" of a remote that never had any.
      assertEquals(
        (await w.run(["remote", "remove", "gone"])).out,
        "removed gone (no session of it was indexed)\n",
      );
      // A remote without rsync.
      const norsync = await w.run(["remote", "sync", "devbox"], { FAKE_REMOTE_NO_RSYNC: "1" });
      assertEquals(norsync.code, 2);
      assertStringIncludes(norsync.err, "has no rsync");
      assertEquals(((await w.json(["search", "gizmotron", "--junk"])).results as Hit[]).length, 1);
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name:
    "a remote's SQLite store is copied with its WAL, checked, and indexed; --purge removes it all",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    const fx = materialize(join(REPO, "fixtures", "registry", "opencode"));
    try {
      const dest = join(w.remoteHome, ".local", "share", "opencode");
      mkdirSync(dest, { recursive: true });
      cpSync(join(fx.root, "opencode.db"), join(dest, "opencode.db"));
      await w.run(["remote", "add", "devbox", "devbox"]);
      const s = await w.json(["remote", "sync"]);
      assertEquals((s.remotes as Array<{ ok: boolean }>)[0].ok, true);
      const store = Store.open(indexPath(w.env));
      const n = store.db.prepare(
        "SELECT COUNT(*) AS n FROM sessions WHERE harness = 'opencode' AND origin = 'devbox'",
      ).get() as { n: number };
      // The MCP and hooks leave a --no-auto remote out; the CLI still shows it.
      assertEquals((await w.run(["remote", "policy", "devbox", "--no-auto"])).code, 0);
      const hidden = defaultHidden(store, { env: w.env, junk: true, auto: true });
      const shown = defaultHidden(store, { env: w.env, junk: true });
      store.close();
      assert(n.n > 0, "no opencode session from the remote");
      assertEquals(hidden.size - shown.size, n.n);
      // Removed without --purge: its sessions stay, and stay a --from filter; --purge later
      // still clears them and the mirror.
      const kept = await w.run(["remote", "remove", "devbox"]);
      assertEquals(kept.code, 0);
      assertStringIncludes(kept.out, `its ${n.n} sessions stay searchable`);
      assertEquals((await w.run(["last", "--from", "devbox", "--no-refresh"])).code, 0);
      const rm = await w.json(["remote", "remove", "devbox", "--purge"]);
      assertEquals(rm.sessions, n.n);
      assert(!existsSync(join(w.root, "deja", "remotes", "devbox")));
      assertEquals(loadRemotes(w.env), []);
    } finally {
      fx.cleanup();
      w.cleanup();
    }
  },
});

Deno.test({
  name: "remote remove --purge prunes the words only its sessions held from the vocabulary",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      // trial 101 F3: the purged sessions' words stayed in `vocab` and in stats' word count.
      writeClaude(w.remoteHome, { ...OTHER, turns: [{ user: "quizzlepurge zorbleword" }] });
      writeClaude(w.home, SVC);
      await w.run(["remote", "add", "devbox", "devbox"]);
      assertEquals((await w.run(["remote", "sync"])).code, 0);
      const vocab = () => {
        const store = Store.open(indexPath(w.env));
        try {
          return (store.db.prepare(
            "SELECT term FROM vocab WHERE term IN ('quizzlepurge', 'zorbleword')",
          ).all() as Array<{ term: string }>).map((r) => r.term).sort();
        } finally {
          store.close();
        }
      };
      assertEquals(vocab(), ["quizzlepurge", "zorbleword"]);
      const before = (await w.json(["stats"])).words as number;
      const rm = await w.json(["remote", "remove", "devbox", "--purge"]);
      assertEquals(rm.sessions, 1);
      assertEquals(vocab(), []);
      assert((await w.json(["stats"])).words as number < before, "stats counts fewer words");
      const hits = await w.run(["search", "quizzlepurge", "--junk"]);
      assertEquals(hits.code, 1, hits.out);
      // This machine's session is untouched.
      assertEquals(((await w.json(["search", "gizmotron"])).results as Hit[]).length, 1);
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name:
    "a remote whose stores are gone or never were syncs with a warning, exit 1, and list says so",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      // trial 101 F2: stores moved away on the remote synced "ok", exit 0, no word of it, and
      // `remote list` went on listing the old copy as the remote's stores.
      writeClaude(w.remoteHome, SVC);
      await w.run(["remote", "add", "devbox", "devbox"]);
      assertEquals((await w.run(["remote", "sync"])).code, 0);
      const claude = join(w.remoteHome, ".claude");
      Deno.renameSync(claude, join(w.remoteHome, "claude.away"));
      const gone = await w.run(["remote", "sync"]);
      assertEquals(gone.code, 1, gone.err);
      assertStringIncludes(gone.err, `deja: devbox: no harness store found on devbox (HOME=`);
      assertStringIncludes(gone.err, "looked for ~/");
      assertStringIncludes(gone.err, "~/.claude/projects is gone from it since an earlier sync");
      assertStringIncludes(gone.err, "hint: stores are looked for under the home ssh logs in to");
      const list = (await w.json(["remote", "list"])).remotes as Array<Record<string, unknown>>;
      assertEquals(list[0].roots, []);
      assertEquals(list[0].stale_roots, [join(w.remoteHome, ".claude", "projects")]);
      // The earlier copy stays searchable, said as such.
      assertEquals(list[0].sessions, 1);
      const text = await w.run(["remote", "list"]);
      assertStringIncludes(text.out, "not on the remote at the last sync:");
      // Back in place: current again, nothing stale.
      Deno.renameSync(join(w.remoteHome, "claude.away"), claude);
      assertEquals((await w.run(["remote", "sync"])).code, 0);
      const back = (await w.json(["remote", "list"])).remotes as Array<Record<string, unknown>>;
      assertEquals([back[0].stale_roots, back[0].last_error], [[], null]);
      // A new remote with no store at all: what was looked for, in --json too.
      // (Another login: the one `devbox` names is refused under a second name.)
      assertEquals((await w.run(["remote", "add", "empty", "me@devbox"])).code, 0);
      const r = await w.run(["remote", "sync", "empty", "--json"], {
        FAKE_REMOTE_HOME: join(w.root, "home"),
      });
      assertEquals(r.code, 1, r.err);
      const doc = JSON.parse(r.out).remotes[0];
      assertEquals([doc.ok, doc.roots, doc.home], [true, [], join(w.root, "home")]);
      assert((doc.looked as string[]).length > 3, JSON.stringify(doc));
      assertStringIncludes(doc.warning, "no harness store found on me@devbox");
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name: "a remote session's short id keeps as much of its own id as a local one's",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      // trial 101 F9: `box1:a44`, the 8 characters counted with the machine's name.
      writeClaude(w.remoteHome, SVC);
      await w.run(["remote", "add", "workstation", "devbox"]);
      assertEquals((await w.run(["remote", "sync"])).code, 0);
      const res = await w.json(["search", "gizmotron"]);
      const hit = (res.results as Array<Hit & { short_id: string }>)[0];
      assertEquals(hit.short_id, `workstation:${SVC.id.slice(0, 8)}`);
      const text = await w.run(["search", "gizmotron"]);
      assertStringIncludes(text.out, `workstation:${SVC.id.slice(0, 8)}  claude`);
      // And it names the session.
      const show = await w.json(["show", hit.short_id]);
      assertEquals(show.origin, "workstation");
    } finally {
      w.cleanup();
    }
  },
});
