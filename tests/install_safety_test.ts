/**
 * What install and uninstall must never do to a user's files (reported by a
 * new user, 2027-01): delete a file deja did not create (a symlinked
 * `{"mcpServers":{}}`), take over or delete a `deja` entry the user wrote by
 * hand, replace a dangling symlink with a file, half-install a target one of
 * whose configs' places cannot be written, or rewrite a read-only config.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { read, t, world, write } from "./_install_world.ts";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { launcherPath } from "../lib/install/launcher.ts";
import { parseConfig } from "../lib/install/formats.ts";

/** Runs `fn` in a fresh world, removed afterwards. */
function inWorld(fn: (w: ReturnType<typeof world>) => void): void {
  const w = world();
  try {
    fn(w);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
}

/** Every `*.deja.bak` under `dir`. */
function backups(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return backups(p);
    return e.name.endsWith(".deja.bak") ? [p] : [];
  });
}

for (
  const [target, rel, original] of [
    ["cursor", ".cursor/mcp.json", '{"mcpServers":{}}\n'],
    ["qwen", ".qwen/settings.json", "{}\n"],
    ["cursor", ".cursor/mcp.json", "{}"],
  ]
) {
  Deno.test(`${target}: uninstall gives back a symlinked ${original.trim()} byte for byte, never deletes it`, () => {
    inWorld((w) => {
      const real = join(w.home, "dotfiles", "config.json");
      write(real, original);
      const link = join(w.home, rel);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(real, link);
      const ins = installTargets(w.env, w.self, [t(target)]);
      assert(!ins.aborted, JSON.stringify(ins.outcomes));
      assertStringIncludes(read(link), "deja");
      uninstallTargets(w.env, [t(target)]);
      assert(lstatSync(link).isSymbolicLink(), "the symlink stays");
      assertEquals(readlinkSync(link), real);
      assertEquals(read(real), original, "the user's file, byte for byte");
      assertEquals(backups(w.home), [], "no backup left");
    });
  });
}

Deno.test("cursor: a plain config that held only {} is left holding {} (deja did not create it)", () => {
  inWorld((w) => {
    const path = join(w.home, ".cursor", "mcp.json");
    write(path, '{ "mcpServers": {} }');
    installTargets(w.env, w.self, [t("cursor")]);
    uninstallTargets(w.env, [t("cursor")]);
    assertEquals(read(path), '{ "mcpServers": {} }');
  });
});

const CODEX_OWN = `model = "o3"\n\n[mcp_servers.deja]\ncommand = "/usr/local/bin/deja"\n` +
  `args = ["mcp"]\nenv = { DEJA_HOME = "/data/deja" }\n`;

for (
  const [target, rel, original] of [
    ["codex", ".codex/config.toml", CODEX_OWN],
    [
      "claude-code",
      ".claude.json",
      '{"mcpServers":{"deja":{"command":"deja","args":["mcp"],"env":{"DEJA_HOME":"/d"}}}}',
    ],
  ]
) {
  Deno.test(`${target}: a deja entry the user wrote is kept (and survives uninstall)`, () => {
    inWorld((w) => {
      const path = join(w.home, rel);
      write(path, original);
      const ins = installTargets(w.env, w.self, [t(target)]);
      const mcp = ins.outcomes.flatMap((o) => o.changes).find((c) => c.kind === "mcp")!;
      assertEquals(mcp.action, "kept");
      assertStringIncludes(mcp.note ?? "", "--force");
      assertEquals(read(path), original);
      uninstallTargets(w.env, [t(target)]);
      assertEquals(read(path), original, "uninstall leaves the user's entry");
    });
  });

  Deno.test(`${target}: --force replaces the user's deja entry, and uninstall gives it back`, () => {
    inWorld((w) => {
      const path = join(w.home, rel);
      write(path, original);
      installTargets(w.env, w.self, [t(target)], { force: true });
      assertStringIncludes(read(path), launcherPath(w.env));
      assertEquals(read(`${path}.deja.bak`), original, "backed up first");
      uninstallTargets(w.env, [t(target)]);
      assertEquals(read(path), original, "the user's entry is back, byte for byte");
      assertEquals(backups(w.home), []);
    });
  });
}

Deno.test("cursor: a dangling config symlink is written through, and uninstall leaves the link as it was", () => {
  inWorld((w) => {
    const target = join(w.root, "elsewhere", "mcp.json");
    mkdirSync(dirname(target));
    const link = join(w.home, ".cursor", "mcp.json");
    mkdirSync(dirname(link));
    symlinkSync(target, link);
    installTargets(w.env, w.self, [t("cursor")]);
    assert(lstatSync(link).isSymbolicLink(), "still a link");
    assertStringIncludes(read(target), "deja");
    uninstallTargets(w.env, [t("cursor")]);
    assert(lstatSync(link).isSymbolicLink(), "still a link");
    assertEquals(readlinkSync(link), target);
    assert(!existsSync(target), "the file deja created at the target went");
  });
});

Deno.test("cursor: a symlink into a directory that does not exist is refused, nothing written", () => {
  inWorld((w) => {
    const target = join(w.root, "nonexistent", "mcp.json");
    const link = join(w.home, ".cursor", "mcp.json");
    mkdirSync(dirname(link));
    symlinkSync(target, link);
    const ins = installTargets(w.env, w.self, [t("cursor")]);
    assert(ins.aborted);
    assertStringIncludes(ins.outcomes[0].refused ?? "", "does not exist");
    assert(lstatSync(link).isSymbolicLink());
    assert(!existsSync(dirname(target)));
    assert(!existsSync(launcherPath(w.env)), "not even the launcher");
  });
});

Deno.test("a config place deja cannot write refuses that target before anything of it is written; the others install", () => {
  inWorld((w) => {
    // ~/.gemini is a regular file: nothing can be made under it (as root too).
    write(join(w.home, ".gemini"), "not a directory\n");
    const ins = installTargets(w.env, w.self, [t("codex"), t("gemini")]);
    assert(!ins.aborted);
    const refused = ins.outcomes.find((o) => o.target === "gemini")?.refused ?? "";
    assertStringIncludes(refused, join(w.home, ".gemini"));
    assertEquals(read(join(w.home, ".gemini")), "not a directory\n");
    assert(existsSync(join(w.home, ".codex")), "codex was installed");
    assert(existsSync(launcherPath(w.env)));
  });
});

Deno.test("a read-only directory refuses its target (not as root); the others install", {
  ignore: Deno.uid?.() === 0,
}, () => {
  inWorld((w) => {
    const dir = join(w.home, ".gemini");
    write(join(dir, "settings.json"), "{}\n");
    chmodSync(dir, 0o555);
    try {
      const ins = installTargets(w.env, w.self, [t("codex"), t("gemini")]);
      assert(!ins.aborted);
      assertStringIncludes(ins.outcomes[1].refused ?? "", dir);
      assertEquals(read(join(dir, "settings.json")), "{}\n");
      assert(existsSync(join(w.home, ".codex")));
    } finally {
      chmodSync(dir, 0o755);
    }
  });
});

Deno.test("a read-only config (0444) is refused, even as root: not rewritten, mode kept", () => {
  inWorld((w) => {
    const path = join(w.home, ".cursor", "mcp.json");
    write(path, '{"mcpServers":{}}\n');
    chmodSync(path, 0o444);
    const ins = installTargets(w.env, w.self, [t("cursor")]);
    assert(ins.aborted);
    assertStringIncludes(ins.outcomes[0].refused ?? "", "read-only");
    assertStringIncludes(ins.outcomes[0].refused ?? "", "or add deja's entry by hand");
    assertEquals(read(path), '{"mcpServers":{}}\n');
    assertEquals(statSync(path).mode & 0o777, 0o444);
    // Uninstalling, the hand's work is to remove it (trial 58: "add deja's entry by hand").
    chmodSync(path, 0o644);
    installTargets(w.env, w.self, [t("cursor")]);
    chmodSync(path, 0o444);
    const un = uninstallTargets(w.env, [t("cursor")]);
    assertStringIncludes(un.outcomes[0].refused ?? "", "or remove deja's entry by hand");
    chmodSync(path, 0o644);
  });
});

for (const [target, rel] of [["gemini", ".gemini"], ["qwen", ".qwen"]]) {
  Deno.test(`${target}: a trailing comma (which ${target} rejects) is refused with line:column`, () => {
    inWorld((w) => {
      const path = join(w.home, rel, "settings.json");
      const text = '{\n "theme":"x",\n}\n';
      write(path, text);
      const ins = installTargets(w.env, w.self, [t(target)]);
      assert(ins.aborted);
      assertStringIncludes(ins.outcomes[0].refused ?? "", `${path}:3:1`);
      assertEquals(read(path), text);
    });
  });
}

Deno.test("gemini: comments are still accepted and kept", () => {
  inWorld((w) => {
    const path = join(w.home, ".gemini", "settings.json");
    write(path, '{\n  // mine\n  "theme": "x"\n}\n');
    const ins = installTargets(w.env, w.self, [t("gemini")]);
    assert(!ins.aborted, JSON.stringify(ins.outcomes));
    assertStringIncludes(read(path), "// mine");
    assert(parseConfig(read(path), "json-comments"));
  });
});

Deno.test("claude-code: --force replaces the user's /deja command, and uninstall gives it back", () => {
  inWorld((w) => {
    const path = join(w.home, ".claude", "commands", "deja.md");
    write(path, "my own command\n");
    installTargets(w.env, w.self, [t("claude-code")], { force: true });
    assertStringIncludes(read(path), "deja:managed");
    uninstallTargets(w.env, [t("claude-code")]);
    assertEquals(read(path), "my own command\n");
    assertEquals(backups(w.home), []);
  });
});

Deno.test("installing from a second binary leaves no backup of the launcher after uninstall --all", () => {
  inWorld((w) => {
    installTargets(w.env, w.self, [t("crush")]);
    const other = join(w.root, "bin2", "deja");
    write(other, "#!/bin/sh\n");
    chmodSync(other, 0o755);
    installTargets(w.env, [other], [t("crush")]);
    assertEquals(backups(w.root), []);
    uninstallTargets(w.env, [t("crush")]);
    assert(!existsSync(launcherPath(w.env)));
    assertEquals(backups(w.root), []);
  });
});

Deno.test("uninstall after deja's data directory was deleted leaves no empty directory it made", () => {
  inWorld((w) => {
    mkdirSync(join(w.home, ".claude"));
    installTargets(w.env, w.self, [t("claude-code")]);
    rmSync(join(w.root, "deja"), { recursive: true });
    uninstallTargets(w.env, [t("claude-code")]);
    assertEquals(readdirSync(join(w.home, ".claude")), []);
  });
});
