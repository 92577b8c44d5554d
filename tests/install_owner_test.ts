/**
 * Who owns an entry (reported by a fresh user, 2027-01): a hook the user
 * wrote that calls deja was taken over by install and deleted by uninstall;
 * a second `install --force` made uninstall put back an older entry than the
 * one it replaced last. Only entries that run deja's launcher are deja's.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { read, t, world, write } from "./_install_world.ts";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { launcherPath } from "../lib/install/launcher.ts";
import { formatOf, parseConfig } from "../lib/install/formats.ts";

function inWorld(fn: (w: ReturnType<typeof world>) => void): void {
  const w = world();
  try {
    fn(w);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
}

const CASES: Array<[string, string, string]> = [
  [
    "claude-auto",
    ".claude/settings.json",
    '{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"deja hook-prompt"}]}]}}',
  ],
  [
    "claude-auto",
    ".claude/settings.json",
    '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/usr/local/bin/deja hook-tool"}]}]}}',
  ],
  [
    "crush-auto",
    ".config/crush/crush.json",
    '{"hooks":{"PreToolUse":[{"command":"/usr/local/bin/deja hook-tool --crush"}]}}',
  ],
  [
    "kimi-auto",
    ".kimi-code/config.toml",
    '[[hooks]]\nevent = "UserPromptSubmit"\ncommand = "deja hook-prompt --harness kimi"\n',
  ],
];

for (const [target, rel, original] of CASES) {
  const sub = /hook-[a-z]+/.exec(original)![0];
  const event = /UserPromptSubmit|PreToolUse/.exec(original)![0];
  Deno.test(`${target}: a ${sub} hook the user wrote is kept, and survives uninstall --all`, () => {
    inWorld((w) => {
      const path = join(w.home, rel);
      write(path, original);
      const ins = installTargets(w.env, w.self, [t(target)]);
      const hook = ins.outcomes.flatMap((o) => o.changes).find((c) => c.kind === "hooks")!;
      const after = read(path);
      // deja's other hooks written beside it: the file is updated, and the kept one said so
      // (trial 58: "kept" of a file deja had just written to).
      const hooksText = rel.endsWith(".json") ? JSON.stringify(JSON.parse(after).hooks) : after;
      if (hooksText.includes(launcherPath(w.env))) {
        assertEquals(hook.action, "updated");
        assertStringIncludes(hook.note ?? "", "yours that run the same deja commands kept");
      } else {
        assertEquals(hook.action, "kept");
        assertStringIncludes(hook.note ?? "", "not written by deja; --force replaces it");
      }
      assertEquals(commandsOf(after, rel, event, sub).length, 1, `no second ${sub}: ${after}`);
      uninstallTargets(w.env, [t(target.replace(/-auto$/, "")), t(target)]);
      assertEquals(read(path), original, "uninstall leaves the user's hook");
    });
  });

  Deno.test(`${target}: --force replaces the user's ${sub} hook, and uninstall gives it back`, () => {
    inWorld((w) => {
      const path = join(w.home, rel);
      write(path, original);
      installTargets(w.env, w.self, [t(target)], { force: true });
      assertStringIncludes(read(path), launcherPath(w.env));
      assertEquals(read(`${path}.deja.bak`), original, "backed up first");
      uninstallTargets(w.env, [t(target.replace(/-auto$/, "")), t(target)]);
      assertEquals(read(path), original, "the user's hook is back");
      assert(!existsSync(`${path}.deja.bak`));
    });
  });
}

/** The hook commands running `sub` for `event` in a config's text. */
function commandsOf(text: string, rel: string, event: string, sub: string): string[] {
  const o = parseConfig(text, formatOf(rel)) as Record<string, unknown>;
  const h = o.hooks as Record<string, unknown> | unknown[];
  const flat = (Array.isArray(h) ? h.filter((x) => (x as Obj).event === event) : h[event] as Obj[])
    .flatMap((e) => Array.isArray((e as Obj).hooks) ? (e as Obj).hooks as Obj[] : [e as Obj]);
  return flat.map((x) => String(x.command)).filter((c) => c.includes(sub));
}
type Obj = Record<string, unknown>;

const entry = (cmd: string) => `{"mcpServers":{"deja":{"command":"${cmd}","args":["mcp"]}}}`;

Deno.test("cursor: after two --force installs uninstall puts back the entry replaced last", () => {
  inWorld((w) => {
    const path = join(w.home, ".cursor", "mcp.json");
    write(path, entry("/opt/a/deja"));
    installTargets(w.env, w.self, [t("cursor")], { force: true });
    write(path, entry("/opt/b/deja"));
    installTargets(w.env, w.self, [t("cursor")], { force: true });
    uninstallTargets(w.env, [t("cursor")]);
    assertEquals(JSON.parse(read(path)), JSON.parse(entry("/opt/b/deja")), "B, not A");
  });
});

Deno.test("cursor: an entry the user changed after --force is left alone by uninstall", () => {
  inWorld((w) => {
    const path = join(w.home, ".cursor", "mcp.json");
    write(path, entry("/opt/a/deja"));
    installTargets(w.env, w.self, [t("cursor")], { force: true });
    write(path, entry("/opt/c/deja"));
    uninstallTargets(w.env, [t("cursor")]);
    assertEquals(read(path), entry("/opt/c/deja"));
  });
});
