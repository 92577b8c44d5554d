/**
 * A "remote" machine for the `deja remote` tests: a temp home reached through
 * tests/remote/fake_ssh.sh (ssh's options taken, the command run here with that
 * home), real rsync in between, and deja run in-process against a temp data dir.
 *
 * @module
 */
import { assert } from "./_assert.ts";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import type { Env } from "../core/model.ts";
import { claudeLines, type SessionSpec } from "./_memory.ts";
import { REPO, testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

/** rsync is on PATH (the remote tests need it on both "machines"). */
export const HAVE_RSYNC = spawnSync("rsync", ["--version"]).status === 0;
/** The stand-in for ssh. */
export const FAKE_SSH = join(REPO, "tests", "remote", "fake_ssh.sh");

/** A session on the remote in /w/svc: a failed command, an edit, a conclusion. */
export const SVC: SessionSpec = {
  id: "7e570001-0000-4000-8000-000000000001",
  cwd: "/w/svc",
  start: "2026-11-10T10:00:00Z",
  turns: [
    { user: "The gizmotron service crashes at start." },
    { bash: "node server.js", out: "Error: Cannot find module 'express'", exit: 1 },
    { edit: "/w/svc/server.js", old: "const port = 80;", new: "const port = env.PORT;" },
    { say: "Fixed the gizmotron port." },
  ],
};
/** A session on the remote in a project no path map covers. */
export const OTHER: SessionSpec = {
  id: "7e570002-0000-4000-8000-000000000002",
  cwd: "/srv/other",
  start: "2026-11-11T10:00:00Z",
  turns: [{ user: "Unmapped flibbertigibbet project." }, { say: "ok" }],
};

/** One search hit as `--json` prints it (the fields these tests read). */
export type Hit = { id: string; origin: string | null; project: string };

/** The test world: this machine's home and data dir, the remote's home, deja in-process. */
export interface World {
  root: string;
  /** This machine's home. */
  home: string;
  remoteHome: string;
  env: Env;
  run(
    args: string[],
    extra?: Record<string, string>,
    opts?: { stdin?: string; cwd?: string },
  ): Promise<{ code: number; out: string; err: string }>;
  json(args: string[], extra?: Record<string, string>): Promise<Record<string, unknown>>;
  cleanup(): void;
}

/** Writes session `s` as Claude Code would under `home`; returns the file. */
export function writeClaude(home: string, s: SessionSpec): string {
  const dir = join(home, ".claude", "projects", s.cwd.replace(/[^A-Za-z0-9]/g, "-"));
  mkdirSync(dir, { recursive: true });
  const f = join(dir, `${s.id}.jsonl`);
  writeFileSync(f, claudeLines(s).join("\n") + "\n");
  return f;
}

/** A fresh world in a temp dir (`ssh` is `vars.DEJA_SSH`, the fake one unless given). */
export function world(vars0: Record<string, string> = {}): World {
  const root = tempDir("deja-remote-");
  const remoteHome = join(root, "remote");
  mkdirSync(remoteHome, { recursive: true });
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  const vars: Record<string, string> = {
    DEJA_HOME: join(root, "deja"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CONFIG_HOME: join(home, ".config"),
    DEJA_SSH: FAKE_SSH,
    FAKE_REMOTE_HOME: remoteHome,
    DEJA_NO_REFRESH: "1",
    TZ: "UTC",
    ...vars0,
  };
  const envWith = (extra: Record<string, string> = {}) => testEnv(home, { ...vars, ...extra });
  const run: World["run"] = async (args, extra = {}, opts = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: IO = {
      args,
      env: envWith(extra),
      cwd: opts.cwd ?? root,
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      isTTY: false,
      errTTY: false,
      readStdin: () => Promise.resolve(opts.stdin ?? ""),
    };
    const code = await main(io);
    return { code, out: out.join(""), err: err.join("") };
  };
  return {
    root,
    home,
    remoteHome,
    env: envWith(),
    run,
    async json(args, extra) {
      const r = await run([...args, "--json"], extra);
      assert(r.code === 0 || r.code === 1, `deja ${args.join(" ")}: ${r.code} ${r.err}`);
      if (!r.out) throw new Error(`deja ${args.join(" ")}: exit ${r.code}, no output; ${r.err}`);
      return JSON.parse(r.out);
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
