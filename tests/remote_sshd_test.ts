/**
 * `deja remote` against a real OpenSSH server: Debian's `sshd` on 127.0.0.1 on
 * a free port, a throwaway host key and user key in a temp dir, run as the
 * current user with its own config; the "remote" HOME is a temp dir holding
 * Claude Code stores (set per key with `environment=`). Nothing of the user's
 * ssh setup is read or written (`ssh -F` a config of the test's own, its own
 * known_hosts).
 *
 * Opt-in: runs only with `DEJA_TEST_SSHD=1` (`deno task test:sshd`), so CI
 * never depends on an ssh server; skips, saying why, when `sshd` is missing.
 */
import { assert, assertEquals } from "./_assert.ts";
import { appendFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { userInfo } from "node:os";
import { spawn, spawnSync } from "node:child_process";
import { createServer, Socket } from "node:net";
import process from "node:process";
import { HAVE_RSYNC, type Hit, SVC, world, writeClaude } from "./_remote.ts";
import { tempDir } from "./_tmp.ts";

const WANTED = process.env.DEJA_TEST_SSHD === "1";
const SSHD = ["/usr/sbin/sshd", "/usr/local/sbin/sshd"].find((p) => existsSync(p));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = new Socket();
    c.once("connect", () => (c.destroy(), resolve(true)));
    c.once("error", () => (c.destroy(), resolve(false)));
    c.connect(port, "127.0.0.1");
  });
}

function keygen(path: string): string {
  const r = spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path]);
  if (r.status !== 0) throw new Error(`ssh-keygen: ${r.stderr}`);
  return Deno.readTextFileSync(`${path}.pub`).trim();
}

/** Why the test cannot run here, or null. */
function unavailable(): string | null {
  if (!SSHD) return "no sshd (apt-get install openssh-server)";
  if (!HAVE_RSYNC) return "no rsync";
  if (process.getuid?.() === 0 && !existsSync("/run/sshd")) {
    return "sshd run as root needs its privilege separation directory /run/sshd (mkdir -p /run/sshd)";
  }
  return null;
}

Deno.test({
  name: "remote add/sync/search over a real sshd on 127.0.0.1 (DEJA_TEST_SSHD=1)",
  ignore: !WANTED,
  async fn() {
    const why = unavailable();
    if (why) {
      console.log(`skipped: ${why}`);
      return;
    }
    const keys = tempDir("deja-sshd-");
    let sshd: ReturnType<typeof spawn> | undefined;
    const w = world({ DEJA_SSH: `ssh -F ${join(keys, "ssh_config")}` });
    try {
      const hostPub = keygen(join(keys, "host_key"));
      const userPub = keygen(join(keys, "user_key"));
      // The remote session's HOME is the test's remote home, whatever the account's is.
      writeFileSync(
        join(keys, "authorized_keys"),
        `environment="HOME=${w.remoteHome}" ${userPub}\n`,
        { mode: 0o600 },
      );
      const port = await freePort();
      const config = [
        `Port ${port}`,
        "ListenAddress 127.0.0.1",
        `HostKey ${join(keys, "host_key")}`,
        `AuthorizedKeysFile ${join(keys, "authorized_keys")}`,
        `PidFile ${join(keys, "sshd.pid")}`,
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "PubkeyAuthentication yes",
        "PermitRootLogin prohibit-password",
        "PermitUserEnvironment yes",
        "StrictModes no",
        "UsePAM no",
        "LogLevel ERROR",
      ].join("\n") + "\n";
      writeFileSync(join(keys, "sshd_config"), config);
      writeFileSync(
        join(keys, "ssh_config"),
        [
          "Host *",
          `  IdentityFile ${join(keys, "user_key")}`,
          "  IdentitiesOnly yes",
          `  UserKnownHostsFile ${join(keys, "known_hosts")}`,
          "  GlobalKnownHostsFile /dev/null",
          "  StrictHostKeyChecking yes",
          "  LogLevel ERROR",
        ].join("\n") + "\n",
      );
      writeFileSync(join(keys, "known_hosts"), `[127.0.0.1]:${port} ${hostPub}\n`);
      sshd = spawn(SSHD!, ["-D", "-e", "-f", join(keys, "sshd_config")], { stdio: "pipe" });
      let log = "";
      sshd.stderr?.on("data", (b) => (log += String(b)));
      for (let i = 0; i < 100 && !(await accepts(port)); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert(await accepts(port), `sshd did not start: ${log}`);

      const file = writeClaude(w.remoteHome, {
        ...SVC,
        turns: [
          ...SVC.turns,
          ...Array.from({ length: 300 }, (_, i) => ({ say: `step ${i} ${"lorem ".repeat(60)}` })),
        ],
      });
      const user = userInfo().username;
      const add = await w.run(["remote", "add", "box", `${user}@127.0.0.1:${port}`]);
      assertEquals(add.code, 0, add.err);
      const first = await w.json(["remote", "sync"]);
      const r0 = (first.remotes as Array<Record<string, unknown>>)[0];
      assertEquals(r0.ok, true, `${r0.error} ${r0.hint ?? ""} ${log}`);
      const hits = (await w.json(["search", "gizmotron", "--junk"])).results as Hit[];
      assertEquals(hits.map((h) => [h.id, h.origin]), [[`box:${SVC.id}`, "box"]]);
      // Only what changed moves: nothing, then one appended line.
      const none = ((await w.json(["remote", "sync"])).remotes as Array<Record<string, number>>)[0];
      assertEquals(none.files, 0);
      appendFileSync(
        file,
        JSON.stringify({
          type: "user",
          sessionId: SVC.id,
          uuid: "7e57ffff-0000-4000-8000-00000000fff1",
          timestamp: "2026-11-12T10:00:00Z",
          cwd: SVC.cwd,
          message: { role: "user", content: "plonkfizzle appended over real ssh" },
        }) + "\n",
      );
      const tail = ((await w.json(["remote", "sync"])).remotes as Array<Record<string, number>>)[0];
      assertEquals(tail.files, 1);
      const b0 = r0.bytes as number;
      assert(tail.bytes < b0 / 10, `appended sync received ${tail.bytes} of ${b0} bytes`);
      console.log(
        `sshd figures: first ${b0} B in ${r0.ms} ms; no change ${none.bytes} B in ${none.ms} ms; ` +
          `one appended line ${tail.bytes} B in ${tail.ms} ms`,
      );
      const got = (await w.json(["search", "plonkfizzle", "--junk"])).results as Hit[];
      assertEquals(got[0]?.id, `box:${SVC.id}`);
      // A wrong port: a clear error with a hint, the mirror still searchable.
      await w.run(["remote", "add", "closed", `${user}@127.0.0.1:${await freePort()}`]);
      const down = await w.run(["remote", "sync", "closed"]);
      assertEquals(down.code, 2);
      assert(/could not reach/.test(down.err) && /hint:/.test(down.err), down.err);
      assertEquals(((await w.json(["search", "gizmotron", "--junk"])).results as Hit[]).length, 1);
    } finally {
      sshd?.kill();
      w.cleanup();
      rmSync(keys, { recursive: true, force: true });
    }
  },
});
