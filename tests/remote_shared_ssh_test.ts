/**
 * `deja remote sync` logs in once: every ssh of a sync (the probe, each rsync
 * pass) runs over one OpenSSH master connection (ControlMaster, its socket in a
 * private temporary directory), which the sync closes at the end (`-O exit`)
 * and whose directory it removes. tests/remote/fake_ssh.sh records each call
 * and plays the master; real rsync in between. The speed-up is measured with
 * a real sshd (tests/remote_sshd_test.ts): 3 logins per no-change sync became 1.
 */
import { assert, assertEquals, assertMatch } from "./_assert.ts";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HAVE_RSYNC, SVC, world, writeClaude } from "./_remote.ts";
import { closeShared, CONTROL_PERSIST_S, openShared, sshArgv } from "../lib/remote/ssh.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

Deno.test({
  name: "remote sync runs every ssh over one master connection and closes it at the end",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      const tmp = join(w.root, "tmp");
      mkdirSync(tmp);
      const log = join(w.root, "ssh.log");
      const extra = { TMPDIR: tmp, FAKE_SSH_LOG: log };
      writeClaude(w.remoteHome, SVC);
      assertEquals((await w.run(["remote", "add", "devbox", "me@devbox"], extra)).code, 0);
      writeFileSync(log, "");
      const sync = await w.run(["remote", "sync"], extra);
      assertEquals(sync.code, 0, sync.err);
      const calls = readFileSync(log, "utf8").trim().split("\n");
      // The probe and at least the two rsync passes, then the close.
      assert(calls.length >= 4, calls.join("\n"));
      const path = /ControlPath=(\S+)/.exec(calls[0])?.[1] ?? "";
      assertMatch(path, new RegExp(`^${tmp}/deja-ssh-[^/]+/c$`));
      for (const c of calls) {
        assert(c.includes("-o ControlMaster=auto"), c);
        assert(c.includes(`-o ControlPath=${path} `), c);
        assert(c.includes(`-o ControlPersist=${CONTROL_PERSIST_S}`), c);
      }
      assert(calls.slice(0, -1).every((c) => !c.includes("-O exit")), "closed only at the end");
      assertMatch(calls[calls.length - 1], /-O exit me@devbox$/);
      assertEquals(readdirSync(tmp), [], "the socket's directory is gone");
    } finally {
      w.cleanup();
    }
  },
});

Deno.test("the shared connection's directory is private, and none is made on Windows", () => {
  const root = tempDir("deja-shared-ssh-");
  try {
    const env = testEnv(join(root, "home"), { TMPDIR: root, DEJA_SSH: "/nonexistent/ssh" });
    const s = openShared(env);
    assert(s);
    assertEquals(statSync(s.dir).mode & 0o777, 0o700);
    const argv = sshArgv(env, { port: 2222 }, s);
    assertEquals(argv.slice(0, 3), ["/nonexistent/ssh", "-p", "2222"]);
    assert(argv.includes(`ControlPath=${s.path}`) && argv.includes("ControlMaster=auto"));
    assert(!sshArgv(env, {}).some((a) => a.startsWith("Control")), "no sharing unless asked");
    closeShared(env, { host: "h" }, s); // no master started: nothing to end, the directory goes
    assertEquals(readdirSync(root), []);
    assertEquals(openShared({ ...env, platform: "win32" }), undefined);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
