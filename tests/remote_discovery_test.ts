/**
 * A remote whose own deja says where its stores are: a sync that finds none names every place
 * that deja looked. Real rsync, tests/remote/fake_ssh.sh for ssh, a stand-in `deja` on the
 * remote's PATH that prints a `sources --json`.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HAVE_RSYNC, world } from "./_remote.ts";

Deno.test({
  name:
    "a sync whose remote deja finds no store names where that deja looked (trial 112 F8: 'looked for nothing')",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      const at = (p: string) => join(w.remoteHome, p);
      const sources = {
        harnesses: [
          { harness: "claude", roots: [{ path: at(".claude/projects"), exists: false }] },
          { harness: "codex", roots: [{ path: at(".codex"), exists: false }] },
          { harness: "gemini", roots: [{ path: at(".gemini/tmp"), exists: false }] },
        ],
      };
      const bin = join(w.root, "remote-bin");
      mkdirSync(bin, { recursive: true });
      writeFileSync(
        join(bin, "deja"),
        `#!/bin/sh\ncat <<'EOF'\n${JSON.stringify(sources)}\nEOF\n`,
        {
          mode: 0o755,
        },
      );
      const path = { FAKE_REMOTE_PATH: `${bin}:/usr/local/bin:/usr/bin:/bin` };
      assertEquals((await w.run(["remote", "add", "empty", "devbox"])).code, 0);
      const r = await w.run(["remote", "sync", "empty"], path);
      assertEquals(r.code, 1, r.err);
      assertStringIncludes(
        r.err,
        `no harness store found on devbox (HOME=${w.remoteHome}; looked for ~/.claude/projects, ` +
          "~/.codex, ~/.gemini/tmp, by its deja's 'sources')",
      );
      const doc = JSON.parse((await w.run(["remote", "sync", "empty", "--json"], path)).out);
      assertEquals(doc.remotes[0].discovery, "deja");
      assertEquals(doc.remotes[0].roots, []);
      assertEquals(doc.remotes[0].looked, [
        at(".claude/projects"),
        at(".codex"),
        at(".gemini/tmp"),
      ]);
    } finally {
      w.cleanup();
    }
  },
});
