/**
 * `deja install remote-sync`: a user timer that runs `deja remote sync`
 * periodically — a systemd user `.service` + `.timer` on Linux, a launchd agent
 * with StartInterval on macOS — written, never enabled (the command is
 * printed), removed by `uninstall remote-sync` and `uninstall --all`.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import { makeEnv } from "../core/runtime.ts";
import { REMOTE_SYNC, serviceFiles } from "../lib/fresh/service.ts";
import { tempDir } from "./_tmp.ts";

function vars(dir: string): Record<string, string> {
  return {
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    XDG_CACHE_HOME: join(dir, "cache"),
    XDG_STATE_HOME: join(dir, "state"),
    DEJA_HOME: join(dir, "deja"),
    CRUSH_GLOBAL_CONFIG: join(dir, "crush-config"),
    CRUSH_GLOBAL_DATA: join(dir, "crush-data"),
    CLAUDE_CONFIG_DIR: join(dir, "claude-config"),
    DEJA_NO_REFRESH: "1",
  };
}

async function run(args: string[], v: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = {
    args,
    env: makeEnv(v, v.HOME),
    cwd: "/",
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTTY: false,
    errTTY: false,
    readStdin: () => Promise.resolve(""),
  };
  const code = await main(io);
  return { code, out: out.join(""), err: err.join("") };
}

Deno.test({
  name:
    "install remote-sync writes a systemd user timer and its oneshot unit; uninstall removes both",
  ignore: process.platform !== "linux",
  async fn() {
    const dir = tempDir("deja-timer-");
    try {
      const v = vars(dir);
      const r = await run(["install", "remote-sync"], v);
      assertEquals(r.code, 0, r.err);
      const units = join(v.XDG_CONFIG_HOME, "systemd", "user");
      const unit = readFileSync(join(units, "deja-remote-sync.service"), "utf8");
      const timer = readFileSync(join(units, "deja-remote-sync.timer"), "utf8");
      assertStringIncludes(unit, "Type=oneshot");
      assertStringIncludes(unit, "/bin/deja-launcher remote sync\n");
      assertStringIncludes(unit, `Environment=DEJA_HOME=${v.DEJA_HOME}`);
      assert(!unit.includes("[Install]"), "the timer starts it, not a target");
      assertStringIncludes(timer, "OnUnitActiveSec=15min");
      assertStringIncludes(timer, "WantedBy=timers.target");
      // Printed, never run; no first index for a timer alone.
      assertStringIncludes(
        r.out,
        "systemctl --user daemon-reload && systemctl --user enable --now deja-remote-sync.timer",
      );
      assert(!existsSync(join(v.DEJA_HOME, "index.db")), "install remote-sync builds no index");
      assert(existsSync(join(v.DEJA_HOME, "bin", "deja-launcher")), "the launcher it runs");
      assertStringIncludes((await run(["install", "remote-sync"], v)).out, "unchanged");
      const u = await run(["uninstall", "remote-sync"], v);
      assertEquals(u.code, 0, u.err);
      assertStringIncludes(u.out, "systemctl --user disable --now deja-remote-sync.timer");
      assert(!existsSync(join(units, "deja-remote-sync.timer")));
      assert(!existsSync(join(units, "deja-remote-sync.service")));
      // --all removes it too, and the watch service beside it stays its own file.
      await run(["install", "remote-sync", "--watch-service", "--no-index"], v);
      assert(existsSync(join(units, "deja-watch.service")));
      assertEquals((await run(["uninstall", "--all"], v)).code, 0);
      assert(!existsSync(join(units, "deja-remote-sync.timer")));
      assert(!existsSync(join(units, "deja-watch.service")));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

Deno.test("the macOS remote-sync agent runs 'remote sync' every StartInterval, not kept alive", () => {
  const env = { ...makeEnv({ HOME: "/Users/a" }, "/Users/a"), platform: "darwin" };
  const files = serviceFiles(env, "/Users/a/.local/share/deja/bin/deja-launcher", REMOTE_SYNC);
  assertEquals(files.map((f) => f.path), [
    "/Users/a/Library/LaunchAgents/dev.deja.remote-sync.plist",
  ]);
  const text = files[0].text;
  assertStringIncludes(text, "<key>Label</key><string>dev.deja.remote-sync</string>");
  assertStringIncludes(text, "<string>remote</string>\n    <string>sync</string>");
  assertStringIncludes(text, "<key>StartInterval</key><integer>900</integer>");
  assert(!text.includes("KeepAlive"), text);
});
