/**
 * A fresh world for install tests: a temp HOME with a fake deja binary, the
 * target lookup, and the round trip every config edit must survive (install,
 * install again without a byte changed, one backup, uninstall back to the
 * original bytes).
 *
 * @module
 */
import { assert, assertEquals } from "./_assert.ts";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { testEnv } from "./_fixture.ts";
import type { Env } from "../core/model.ts";
import { findTarget, type TargetRef } from "../lib/install/facts.ts";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { tempDir } from "./_tmp.ts";

/** A temp HOME and what installs into it need. */
export interface World {
  root: string;
  home: string;
  env: Env;
  self: string[];
}

/** A new temp world (remove `root` when done). */
export function world(): World {
  const root = tempDir("deja-install-fmt-");
  const home = join(root, "home");
  mkdirSync(home);
  const bin = join(root, "bin", "deja");
  mkdirSync(dirname(bin));
  writeFileSync(bin, "#!/bin/sh\n", { mode: 0o755 });
  // CODEX_HOME and XDG_CONFIG_HOME are unset: their defaults under this HOME are used.
  return { root, home, env: testEnv(home, { DEJA_HOME: join(root, "deja") }), self: [bin] };
}

/** The target named `name` (asserted to exist). */
export const t = (name: string): TargetRef => {
  const r = findTarget(name);
  assert(r, `no target ${name}`);
  return r;
};

/** Writes `text` at `path`, making its directory. */
export function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** The text at `p`. */
export const read = (p: string) => readFileSync(p, "utf8");

/** Installs `target` twice and uninstalls it, checking the config at `path` each time. */
export function roundTrip(w: World, target: string, path: string, original: string) {
  write(path, original);
  const first = installTargets(w.env, w.self, [t(target)]);
  assert(!first.aborted, JSON.stringify(first.outcomes));
  const after = read(path);
  const again = installTargets(w.env, w.self, [t(target)]);
  assertEquals(read(path), after, "a second install changes no byte");
  assert(again.outcomes[0].changes.every((c) => c.action !== "updated"));
  assertEquals(read(`${path}.deja.bak`), original, "one backup of the original bytes");
  uninstallTargets(w.env, [t(target)]);
  assertEquals(read(path), original, "uninstall gives back the original bytes");
  assert(!existsSync(`${path}.deja.bak`));
  return after;
}

/** Every file under `dir`: relative path -> bytes, mode and mtime. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = lstatSync(p);
        out[relative(dir, p)] = `${st.mode.toString(8)} ${st.mtimeMs} ${
          e.isSymbolicLink() ? "link" : readFileSync(p, "base64")
        }`;
      }
    }
  };
  walk(dir);
  return out;
}
