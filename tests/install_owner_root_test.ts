/**
 * `sudo deja install` (reported 2027-01): writing as root made the user's
 * config, its backup and the new skills/ and commands/ root's, and the user
 * could no longer read their own config. A rewritten file keeps its owner and
 * group; a new file or directory gets its parent directory's.
 */
import { assertEquals } from "./_assert.ts";
import { t, world, write } from "./_install_world.ts";
import { chmodSync, chownSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { installTargets } from "../lib/install/run.ts";
import { uid } from "../core/runtime.ts";
import { testEnv } from "./_fixture.ts";

function chownAll(p: string, u: number, g: number): void {
  chownSync(p, u, g);
  if (!statSync(p).isDirectory()) return;
  for (const e of readdirSync(p)) chownAll(join(p, e), u, g);
}

Deno.test({
  name: "claude-code as root: the user's files keep their owner, new ones get their parent's",
  // Skipped when not root: only root may give a file to another user.
  ignore: uid() !== 0,
  fn() {
    const w = world();
    try {
      const config = join(w.home, ".claude", ".claude.json");
      write(config, '{"theme":"dark"}');
      chmodSync(config, 0o600);
      chownAll(w.home, 65534, 65534);
      const env = testEnv(w.home, {
        DEJA_HOME: join(w.root, "deja"),
        CLAUDE_CONFIG_DIR: join(w.home, ".claude"),
      });
      const r = installTargets(env, w.self, [t("claude-code")]);
      assertEquals(r.aborted, undefined, JSON.stringify(r.outcomes));
      const owner = (p: string) => `${statSync(p).uid}:${statSync(p).gid}`;
      const all: string[] = [];
      const walk = (p: string) => {
        all.push(p);
        if (statSync(p).isDirectory()) { for (const e of readdirSync(p)) walk(join(p, e)); }
      };
      walk(join(w.home, ".claude"));
      assertEquals(all.filter((p) => owner(p) !== "65534:65534"), [], "every file the user's");
      assertEquals(statSync(config).mode & 0o777, 0o600);
      assertEquals(all.some((p) => p.endsWith(".claude.json.deja.bak")), true, all.join(" "));
      assertEquals(all.some((p) => p.includes("skills")), true);
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  },
});
