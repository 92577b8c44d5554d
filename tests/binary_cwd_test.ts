/**
 * The binary runs in whatever directory an agent's hook starts it in (trial 29): a Bun
 * executable read that directory's bunfig.toml (a `preload` script ran before deja) and
 * .env (its DEJA_HOME put the index inside the repository). Built with neither (compile:bun).
 */
import { assertEquals } from "./_assert.ts";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBinary } from "./_binary.ts";
import { scopedTempDir } from "./_tmp.ts";

Deno.test("the binary reads no bunfig.toml nor .env of the directory it runs in", () => {
  using dir = scopedTempDir("deja-cwd-e2e-");
  const repo = join(dir.path, "repo");
  mkdirSync(repo);
  const ran = join(dir.path, "preload-ran");
  writeFileSync(
    join(repo, "evil.js"),
    `require("node:fs").writeFileSync(${JSON.stringify(ran)}, "x");`,
  );
  writeFileSync(join(repo, "bunfig.toml"), 'preload = ["./evil.js"]\n');
  const planted = join(repo, "planted-home");
  writeFileSync(join(repo, ".env"), `DEJA_HOME=${planted}\nDEJA_PLANTED=1\n`);
  const env = {
    HOME: join(dir.path, "home"),
    XDG_CONFIG_HOME: join(dir.path, "home", ".config"),
    XDG_DATA_HOME: join(dir.path, "home", ".local", "share"),
    XDG_CACHE_HOME: join(dir.path, "home", ".cache"),
    XDG_STATE_HOME: join(dir.path, "home", ".local", "state"),
    DEJA_NO_REFRESH: "1",
    DEJA_CLAUDE_ROOT: join(dir.path, "no-stores"),
  };
  const v = runBinary(["--version"], env, repo);
  assertEquals(v.code, 0, v.stderr);
  const r = runBinary(["index", "--quiet"], env, repo);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(existsSync(ran), false, "the preload script ran");
  assertEquals(existsSync(planted), false, "the .env's DEJA_HOME was used");
  assertEquals(existsSync(join(dir.path, "home", ".local", "share", "deja")), true);
});
