/**
 * Trial 117 F2-F4: what uninstall gives back. A config whose string holds `//` (a URL) gets
 * its original bytes back; so does one with a key the user set to null; a hook of deja's whose
 * timeout the user set is kept by uninstall as install keeps it, and goes with `--force`.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { read, roundTrip, t, world, write } from "./_install_world.ts";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { parseConfig } from "../lib/install/formats.ts";

// F2: the `//` of a URL was read as a comment the backup lacked, so the bytes never came back.
for (
  const [target, file, original] of [
    ["claude-code", ".claude.json", `{"mcpServers": {"a": {"url": "https://x.y/z"}}}\n`],
    [
      "vscode",
      ".config/Code/User/mcp.json",
      `{\n\t"servers": {"github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"}}\n}\n`,
    ],
    [
      "kimi",
      ".kimi-code/mcp.json",
      `{"mcpServers": {"context7": {"url": "https://mcp.context7.com/mcp"}}, "x": {}}\n`,
    ],
  ]
) {
  Deno.test(`trial 117 F2: ${target}: a URL in ${file} does not stop uninstall giving its bytes back`, () => {
    const w = world();
    try {
      roundTrip(w, target, join(w.home, file), original);
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  });
}

Deno.test("trial 117 F2: a comment added after install beside a URL is still kept", () => {
  const w = world();
  try {
    const path = join(w.home, ".config", "zed", "settings.json");
    write(path, `{\n  "url": "https://a.b/c", // mine\n  "context_servers": {}\n}\n`);
    installTargets(w.env, w.self, [t("zed")]);
    write(path, read(path).replace("// mine", "// mine, and a new note"));
    uninstallTargets(w.env, [t("zed")]);
    assertStringIncludes(read(path), "// mine, and a new note");
    assert(!read(path).includes("deja"), read(path));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// F3: a key set to null, replaced by deja's container, was taken out with it.
for (
  const [target, file, original] of [
    ["claude-code", ".claude.json", `{\n  "x": 1,\n  "mcpServers": null\n}\n`],
    ["hermes", ".hermes/config.yaml", `model: gpt-5\nmcp_servers: ~\n`],
  ]
) {
  Deno.test(`trial 117 F3: ${target}: ${JSON.stringify(original)} comes back with its null`, () => {
    const w = world();
    try {
      roundTrip(w, target, join(w.home, file), original);
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  });
}

Deno.test("trial 117 F3: install hermes-auto + uninstall hermes gives back mcp_servers: ~ and hooks: ~", () => {
  const w = world();
  try {
    const path = join(w.home, ".hermes", "config.yaml");
    const original = `model: gpt-5\nmcp_servers: ~\nhooks: ~\n`;
    write(path, original);
    installTargets(w.env, w.self, [t("hermes-auto")]);
    assertStringIncludes(read(path), "hook-prompt");
    uninstallTargets(w.env, [t("hermes")]);
    assertEquals(read(path), original);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("trial 117 F3: a null the user set after install is not undone by uninstall", () => {
  const w = world();
  try {
    const path = join(w.home, ".claude.json");
    write(path, `{"x": 1}\n`);
    installTargets(w.env, w.self, [t("claude-code")]);
    write(path, read(path).replace(`"x": 1`, `"x": 1, "y": null`));
    uninstallTargets(w.env, [t("claude-code")]);
    assertEquals(parseConfig(read(path), "json"), { x: 1, y: null });
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// F4: install kept the user's timeout on deja's hook as theirs; uninstall removed the hook.
for (
  const [target, file, from, to] of [
    ["claude-auto", ".claude/settings.json", `"timeout": 10`, `"timeout": 20`],
    ["crush-auto", ".config/crush/crush.json", `"timeout": 10`, `"timeout": 30`],
    ["gemini-auto", ".gemini/settings.json", `"timeout": 10000`, `"timeout": 25000`],
    ["kimi-auto", ".kimi-code/config.toml", `timeout = 10`, `timeout = 25`],
    ["hermes-auto", ".hermes/config.yaml", `timeout: 10`, `timeout: 25`],
  ]
) {
  Deno.test(`trial 117 F4: ${target}: deja's hook with the user's timeout is kept by uninstall, removed by --force`, () => {
    const w = world();
    try {
      const path = join(w.home, file);
      // An empty Kimi config.toml: one with content is trial 117 F1, not this test's.
      const original = file.endsWith(".toml")
        ? ""
        : file.endsWith(".yaml")
        ? "# mine\n"
        : `{"theme": "dark"}\n`;
      write(path, original);
      installTargets(w.env, w.self, [t(target)]);
      assertStringIncludes(read(path), from);
      write(path, read(path).replace(from, to));
      const again = installTargets(w.env, w.self, [t(target)]);
      const i = again.outcomes.flatMap((o) => o.changes).find((c) => c.kind === "hooks");
      assertEquals(i?.action, "kept");
      assertStringIncludes(i?.note ?? "", "is kept as yours");

      const gone = uninstallTargets(w.env, [t(target)]);
      const u = gone.outcomes.flatMap((o) => o.changes).find((c) => c.kind === "hooks");
      assertEquals([u?.action, u?.note], [
        "kept",
        "a hook of deja's you edited is kept as yours; deja's others were removed; " +
        `'deja uninstall ${target} --force' removes it too`,
      ]);
      assertStringIncludes(read(path), to);

      const forced = uninstallTargets(w.env, [t(target)], { force: true });
      const f = forced.outcomes.flatMap((o) => o.changes).find((c) => c.kind === "hooks");
      assertEquals(f?.action, "removed");
      assert(!/hook-(context|prompt|tool)/.test(read(path)), read(path));
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  });
}
