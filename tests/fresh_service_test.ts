/**
 * The watch service and first index of `deja install` (issue "always fresh"):
 * the service file is written where systemd/launchd read it, never enabled,
 * removed by uninstall; doctor says whether a watcher runs; install builds the
 * first index unless `--no-index`.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { makeEnv } from "../core/runtime.ts";
import { serviceText, watchStatus } from "../lib/fresh/service.ts";
import { runMain } from "./_cli_io.ts";
import { tempDir } from "./_tmp.ts";

function world() {
  const dir = tempDir("deja-svc-");
  const proj = join(dir, "claude", "-w-app");
  mkdirSync(proj, { recursive: true });
  writeFileSync(
    join(proj, "51111111-2222-4333-8444-555555555555.jsonl"),
    JSON.stringify({
      type: "user",
      sessionId: "51111111-2222-4333-8444-555555555555",
      uuid: "u1",
      cwd: "/w/app",
      timestamp: "2026-11-01T10:00:00Z",
      message: { role: "user", content: "the first index holds this" },
    }) + "\n",
  );
  const vars: Record<string, string> = {
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    XDG_CACHE_HOME: join(dir, "cache"),
    XDG_STATE_HOME: join(dir, "state"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "claude"),
    CRUSH_GLOBAL_CONFIG: join(dir, "crush-config"),
    CRUSH_GLOBAL_DATA: join(dir, "crush-data"),
    CLAUDE_CONFIG_DIR: join(dir, "claude-config"),
    DEJA_NO_REFRESH: "1",
  };
  return { dir, vars };
}

function run(args: string[], vars: Record<string, string>) {
  return runMain(makeEnv(vars, vars.HOME), args);
}

Deno.test("install --watch-service writes a systemd user unit running the launcher, and uninstall removes it", async () => {
  if (process.platform !== "linux") return;
  const w = world();
  const r = await run(["install", "--watch-service", "--no-index"], w.vars);
  assertEquals(r.code, 0, r.err);
  const unit = join(w.vars.XDG_CONFIG_HOME, "systemd", "user", "deja-watch.service");
  const text = readFileSync(unit, "utf8");
  assertStringIncludes(text, "/bin/deja-launcher index --watch --quiet");
  assertStringIncludes(text, `Environment=DEJA_HOME=${w.vars.DEJA_HOME}`);
  assertStringIncludes(r.out, "systemctl --user daemon-reload && systemctl --user enable");
  assert(existsSync(join(w.vars.DEJA_HOME, "bin", "deja-launcher")), "the launcher it runs");
  const again = await run(["install", "--watch-service", "--no-index"], w.vars);
  assertStringIncludes(again.out, "unchanged");
  const u = await run(["uninstall", "--watch-service"], w.vars);
  assertEquals(u.code, 0, u.err);
  assert(!existsSync(unit), "removed");
  assert(
    !existsSync(join(w.vars.XDG_CONFIG_HOME, "systemd")),
    "the directories install made went too",
  );
});

Deno.test("the launchd agent is a plist with the launcher and DEJA_HOME escaped", () => {
  const env = makeEnv({ HOME: "/Users/a", DEJA_HOME: "/Users/a/d&<x>" }, "/Users/a");
  const mac = { ...env, platform: "darwin" };
  const text = serviceText(mac, "/Users/a/d&<x>/bin/deja-launcher");
  assertStringIncludes(text, "<string>/Users/a/d&amp;&lt;x&gt;/bin/deja-launcher</string>");
  assertStringIncludes(text, "<key>DEJA_HOME</key><string>/Users/a/d&amp;&lt;x&gt;</string>");
  assertStringIncludes(text, "<key>RunAtLoad</key><true/>");
});

Deno.test("install builds the first index unless --no-index", async () => {
  const w = world();
  const skip = await run(["install", "claude-code", "--no-index"], w.vars);
  assertEquals(skip.code, 0, skip.err);
  assert(!existsSync(join(w.vars.DEJA_HOME, "index.db")), "--no-index builds none");
  const r = await run(["install", "claude-code"], w.vars);
  assertEquals(r.code, 0, r.err);
  assertStringIncludes(r.err, "indexed 1 session of 1 harness");
  assertEquals((await run(["first", "index", "holds"], w.vars)).code, 0);
});

Deno.test("doctor says whether a watcher runs", async () => {
  const w = world();
  const env = makeEnv(w.vars, w.vars.HOME);
  assertEquals(watchStatus(env).pid, null);
  mkdirSync(w.vars.DEJA_HOME, { recursive: true });
  writeFileSync(join(w.vars.DEJA_HOME, "watch.pid"), `${process.pid} ${Date.now()}\n`);
  assertEquals(watchStatus(env).pid, process.pid);
  const r = await run(["doctor", "--json"], w.vars);
  assertEquals(JSON.parse(r.out).watch, { running: true, pid: process.pid, service: null });
  writeFileSync(join(w.vars.DEJA_HOME, "watch.pid"), `999999999 ${Date.now()}\n`);
  assertEquals(watchStatus(env).pid, null, "a dead watcher's pid file is not a watcher");
});
