/**
 * Whose an entry is: only what deja writes, exactly, is deja's. A hook or MCP
 * entry that merely names a `deja-launcher` is the user's and survives
 * uninstall; and the user's empty containers (a `"Stop": []`) survive too.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { targetStatus } from "../lib/install/doctor.ts";
import { read, roundTrip, t, world, write } from "./_install_world.ts";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { launcherPath } from "../lib/install/launcher.ts";

const hand = (command: string) =>
  JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command }] }] } }) + "\n";

for (
  const command of [
    "/x/deja/bin/deja-launcher hook-context | tee /tmp/log",
    "/x/deja/bin/deja-launcher hook-context --mine",
  ]
) {
  Deno.test(`uninstall claude-auto keeps the user's hook '${command}'`, () => {
    const w = world();
    try {
      const path = join(w.home, ".claude/settings.json");
      write(path, hand(command));
      uninstallTargets(w.env, [t("claude-auto")]);
      assertEquals(read(path), hand(command), "never installed: not a byte changes");
      const r = installTargets(w.env, w.self, [t("claude-auto")]);
      assert(JSON.stringify(r.outcomes).includes("not written by deja"));
      uninstallTargets(w.env, [t("claude-auto")]);
      assertEquals(read(path), hand(command), "install + uninstall gives the user's bytes back");
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  });
}

Deno.test("uninstall cursor keeps an MCP entry with the user's args and env", () => {
  const w = world();
  try {
    const path = join(w.home, ".cursor/mcp.json");
    const mine = JSON.stringify({
      mcpServers: {
        deja: { command: "/x/deja/bin/deja-launcher", args: ["mcp", "--mine"], env: { A: "1" } },
      },
    }) + "\n";
    write(path, mine);
    uninstallTargets(w.env, [t("cursor")]);
    assertEquals(read(path), mine);
    installTargets(w.env, w.self, [t("cursor")]);
    assertEquals(read(path), mine, "kept by install (no --force)");
    uninstallTargets(w.env, [t("cursor")]);
    assertEquals(read(path), mine);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

for (const original of [`{"hooks":{"Stop":[]}}\n`, `{"hooks":{"PreToolUse":[]}}\n`]) {
  Deno.test(`install + uninstall claude-auto gives back ${original.trim()}`, () => {
    const w = world();
    try {
      roundTrip(w, "claude-auto", join(w.home, ".claude/settings.json"), original);
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  });
}

Deno.test("the user's empty mcpServers map stays after install + uninstall cursor", () => {
  const w = world();
  try {
    roundTrip(w, "cursor", join(w.home, ".cursor/mcp.json"), `{"mcpServers":{}}\n`);
    assert(!existsSync(join(w.home, ".cursor/mcp.json.deja.bak")));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 82 F4: deja's own entry with an `env` the user added was called "not written by
// deja" by install and "not deja's" by uninstall.
Deno.test("deja's MCP entry the user edited is said to be deja's as edited, and kept", () => {
  const w = world();
  try {
    const path = join(w.home, ".cursor/mcp.json");
    write(path, `{"mcpServers": {}}\n`);
    installTargets(w.env, w.self, [t("cursor")]);
    const doc = JSON.parse(read(path));
    doc.mcpServers.deja.env = { DEJA_X: "1" };
    write(path, JSON.stringify(doc) + "\n");
    const again = installTargets(w.env, w.self, [t("cursor")]);
    const c = again.outcomes[0].changes.find((x) => x.kind === "mcp");
    assertEquals([c?.action, c?.note], [
      "kept",
      "deja's entry as you edited it, kept as yours; --force replaces it",
    ]);
    // Kept by uninstall, with how it goes (trial 102 F4: no way was said, and `--force` was an
    // unknown option), and the launcher it runs kept and said so.
    const kept = "deja's entry as you edited it, kept as yours: 'deja uninstall cursor --force' " +
      "removes it, or take mcpServers.deja out of this file yourself";
    const gone = uninstallTargets(w.env, [t("cursor")]);
    const u = gone.outcomes[0].changes.find((x) => x.kind === "mcp");
    assertEquals([u?.action, u?.note], ["kept", kept]);
    assertEquals([gone.launcher.action, gone.launcher.keptFor], ["kept", path]);
    assertEquals(JSON.parse(read(path)).mcpServers.deja.env, { DEJA_X: "1" });
    // Said so again, and by doctor (trial 84 F4: "not deja's", "an entry deja did not write").
    const twice = uninstallTargets(w.env, [t("cursor")]).outcomes[0].changes.find((x) =>
      x.kind === "mcp"
    );
    assertEquals(twice?.note, kept);
    const st = targetStatus(w.env, t("cursor"));
    const warning = st.parts.find((p) => p.kind === "mcp")?.warning;
    assertStringIncludes(String(warning), "deja's entry as you edited it runs deja's server");
    assertStringIncludes(String(warning), "'deja uninstall cursor --force' removes it");
    // Not "not wired" above a part that is (trial 102 F4).
    assertEquals(st.state, "partly_wired");
    // --force takes it and the launcher with it; the file, written by the user since deja
    // wrote it, keeps the user's formatting (trial 138 H1: a backup's bytes put back over the
    // user's edits since), the data as before install.
    const forced = uninstallTargets(w.env, [t("cursor")], { force: true });
    assertEquals(forced.outcomes[0].changes.find((x) => x.kind === "mcp")?.action, "removed");
    assertEquals(forced.launcher.action, "removed");
    assertEquals(read(path), `{"mcpServers":{}}\n`);
    assertEquals(targetStatus(w.env, t("cursor")).state, "not_wired");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 82 F5: the user's own `deja` entry, running another deja, kept the launcher and the
// install state after `uninstall --all`, though nothing ran the launcher.
Deno.test("uninstall --all removes the launcher when the entry kept runs another deja", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    const mine =
      `model = "o3"\n\n[mcp_servers.deja]\ncommand = "/opt/deja/bin/deja"\nargs = ["mcp"]\n`;
    write(path, mine);
    // Made before the wiring found the user's entry: taken back at once, as nothing runs it
    // (trial 84 F7).
    const i = installTargets(w.env, w.self, [t("codex")]);
    assertEquals(i.launcher.action, "absent");
    assert(!existsSync(launcherPath(w.env)), "no launcher kept that nothing runs");
    const r = uninstallTargets(w.env, [t("codex")]);
    assert(!existsSync(launcherPath(w.env)));
    assert(r.launcher?.action !== "kept", JSON.stringify(r.launcher));
    assertEquals(read(path), mine);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 84 F2: a second install deleted the matcher `startup` the user put on deja's own
// SessionStart hook.
Deno.test("a matcher the user put on deja's hook where deja writes none stays", () => {
  const w = world();
  try {
    const path = join(w.home, ".claude/settings.json");
    write(path, "{}\n");
    const first = installTargets(w.env, w.self, [t("claude-auto")]);
    const doc = JSON.parse(read(path));
    assert(doc.hooks, JSON.stringify(first.outcomes));
    doc.hooks.SessionStart[0].matcher = "startup";
    write(path, JSON.stringify(doc, null, 2) + "\n");
    installTargets(w.env, w.self, [t("claude-auto")]);
    assertEquals(JSON.parse(read(path)).hooks.SessionStart[0].matcher, "startup");
    uninstallTargets(w.env, [t("claude-auto")]);
    assert(!read(path).includes("hook-context"), read(path));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
