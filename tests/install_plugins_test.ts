/**
 * `deja install` for the harnesses wired through a list or through code:
 * Continue (deja's server one item of the `mcpServers:` list, found by name),
 * aider (`read:` in `.aider.conf.yml` names deja's guidance file), pi (a `deja`
 * tool extension; `pi-auto` a recall extension) and `opencode-auto` (a server
 * plugin). Each: the user's content kept, a second install changing no byte,
 * uninstall giving back the original, a broken config refused.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { read, roundTrip, t, world, write } from "./_install_world.ts";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { launcherPath } from "../lib/install/launcher.ts";
import { parseConfig } from "../lib/install/formats.ts";
import { targetStatus } from "../lib/install/doctor.ts";

type Obj = Record<string, unknown>;

Deno.test("continue: deja is one item of the mcpServers list; other items and comments kept", () => {
  const w = world();
  try {
    const path = join(w.home, ".continue", "config.yaml");
    const original = `name: mine # my assistant
version: 1.0.0
schema: v1
mcpServers:
  # the search server
  - name: search
    command: search-mcp
    args: [--stdio]
models:
  - name: local
    provider: ollama
`;
    const after = roundTrip(w, "continue", path, original);
    assertStringIncludes(after, "# the search server");
    assertStringIncludes(after, "name: mine # my assistant");
    const v = parseConfig(after, "yaml") as { mcpServers: Obj[] };
    assertEquals(v.mcpServers.length, 2);
    assertEquals(v.mcpServers[0], { name: "search", command: "search-mcp", args: ["--stdio"] });
    assertEquals(v.mcpServers[1], {
      name: "deja",
      command: launcherPath(w.env),
      args: ["mcp"],
    });
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("continue: an existing deja item is updated in place, not added twice", () => {
  const w = world();
  try {
    const path = join(w.home, ".continue", "config.yaml");
    write(
      path,
      `mcpServers:\n  - name: deja\n    command: /old/place/deja-launcher\n    args: [mcp]\n    disabled: false\n`,
    );
    installTargets(w.env, w.self, [t("continue")]);
    const v = parseConfig(read(path), "yaml") as { mcpServers: Obj[] };
    assertEquals(v.mcpServers, [{
      name: "deja",
      command: launcherPath(w.env),
      args: ["mcp"],
      disabled: false,
    }]);
    uninstallTargets(w.env, [t("continue")]);
    // The old item was deja's own: no backup of it was made, and none is restored.
    assert(!existsSync(path) || !read(path).includes("/old/place"), "deja's entry is gone");
    assert(!existsSync(`${path}.deja.bak`));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("continue: mcpServers that is not a list is refused and left untouched", () => {
  const w = world();
  try {
    const path = join(w.home, ".continue", "config.yaml");
    const text = `mcpServers:\n  deja: {command: x}\n`;
    write(path, text);
    const r = installTargets(w.env, w.self, [t("continue")]);
    assert(r.outcomes[0].refused, "refused");
    assertStringIncludes(r.outcomes[0].refused!, "not a list");
    assertEquals(read(path), text);
    write(path, "mcpServers: [\n");
    const broken = installTargets(w.env, w.self, [t("continue")]);
    assertStringIncludes(broken.outcomes[0].refused ?? "", "not valid YAML");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("aider: read: gets deja's guidance file; a single string becomes a list and comes back", () => {
  const w = world();
  try {
    const path = join(w.home, ".aider.conf.yml");
    const guide = join(w.home, ".config", "deja", "aider.md");
    write(path, `# aider settings\nmodel: sonnet\nread: CONVENTIONS.md # always\n`);
    const r = installTargets(w.env, w.self, [t("aider")]);
    // aider runs nothing of deja's: no launcher is made (trial 84 F7).
    assertEquals(r.launcher.action, "absent");
    assert(!existsSync(launcherPath(w.env)), "no launcher for aider");
    const after = read(path);
    assertStringIncludes(after, "# aider settings");
    assertEquals((parseConfig(after, "yaml") as Obj).read, ["CONVENTIONS.md", guide]);
    assertStringIncludes(read(guide), "deja blame <file>");
    uninstallTargets(w.env, [t("aider")]);
    // The user's bytes come back, the single string as written (trial 82 F3: left a list).
    assertEquals(read(path), `# aider settings\nmodel: sonnet\nread: CONVENTIONS.md # always\n`);
    assert(!existsSync(`${path}.deja.bak`));
    assert(!existsSync(guide), "uninstall removed the guidance file");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("aider: a list keeps its items; a read: that is a map is refused", () => {
  const w = world();
  try {
    const path = join(w.home, ".aider.conf.yml");
    const guide = join(w.home, ".config", "deja", "aider.md");
    const after = roundTrip(w, "aider", path, `read:\n  - A.md\n  - B.md\n`);
    assertEquals((parseConfig(after, "yaml") as Obj).read, ["A.md", "B.md", guide]);
    write(path, `read:\n  a: b\n`);
    const r = installTargets(w.env, w.self, [t("aider")]);
    assertStringIncludes(r.outcomes[0].refused ?? "", "read is not a list");
    assert(!existsSync(guide), "nothing of a refused target is written");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("pi: a deja tool extension and the skill; pi-auto adds the recall extension; uninstall leaves nothing", () => {
  const w = world();
  try {
    const ext = join(w.home, ".pi", "agent", "extensions");
    installTargets(w.env, w.self, [t("pi")]);
    installTargets(w.env, w.self, [t("pi-auto")]);
    const tool = read(join(ext, "deja.js"));
    assertStringIncludes(tool, `const LAUNCHER = ${JSON.stringify(launcherPath(w.env))};`);
    assertStringIncludes(tool, 'name: "deja"');
    const auto = read(join(ext, "deja-auto.js"));
    assertStringIncludes(auto, '"before_agent_start"');
    assertStringIncludes(auto, '"hook-prompt", "--harness", "pi"');
    assert(existsSync(join(w.home, ".pi", "agent", "skills", "deja-history", "SKILL.md")));
    const again = installTargets(w.env, w.self, [t("pi-auto")]);
    assert(again.outcomes[0].changes.every((c) => c.action === "unchanged"), "idempotent");
    uninstallTargets(w.env, [t("pi-auto")]);
    assert(!existsSync(join(ext, "deja-auto.js")), "automatic recall off");
    assert(existsSync(join(ext, "deja.js")), "the deja tool stays with the plain target");
    uninstallTargets(w.env, [t("pi")]);
    assertEquals(existsSync(ext) ? readdirSync(ext) : [], []);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("opencode-auto writes a server plugin (default export with id and server()) beside the MCP entry", async () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("opencode-auto")]);
    const file = join(w.home, ".config", "opencode", "plugins", "deja.js");
    const mod = await import(`file://${file}`);
    assertEquals(mod.default.id, "deja");
    assertEquals(typeof mod.default.server, "function");
    // The launcher is a script that prints nothing: the hooks answer nothing, and never throw.
    const hooks = await mod.default.server({ directory: w.root });
    const out = { system: ["base"] };
    await hooks["chat.message"]({ sessionID: "s" }, { parts: [{ type: "text", text: "hi" }] });
    await hooks["experimental.chat.system.transform"]({ sessionID: "s" }, out);
    assertEquals(out.system, ["base"]);
    const cfg = parseConfig(read(join(w.home, ".config", "opencode", "opencode.json")), "jsonc");
    assert((cfg as { mcp: Obj }).mcp.deja, "the MCP entry too");
    uninstallTargets(w.env, [t("opencode-auto")]);
    assert(!existsSync(file));
    uninstallTargets(w.env, [t("opencode")]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 66: the next prompt's recall replaced the session start's context, so the project's
// notes and where its last session left off were gone from turn 2 on.
Deno.test("the opencode plugin keeps the session start's context in every turn, the prompt's recall in its own", async () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("opencode-auto")]);
    // A launcher that answers each hook with its name and, for a prompt, the prompt's words.
    writeFileSync(
      launcherPath(w.env),
      '#!/bin/sh\nin=$(cat)\ncase "$1" in\n  hook-context) echo START ;;\n' +
        '  hook-prompt) echo "PROMPT $(printf %s "$in" | sed -n \'s/.*"prompt":"\\([^"]*\\)".*/\\1/p\')" ;;\nesac\n',
      { mode: 0o755 },
    );
    const file = join(w.home, ".config", "opencode", "plugins", "deja.js");
    const mod = await import(`file://${file}?turns`);
    const hooks = await mod.default.server({ directory: w.root });
    const turn = async (text: string) => {
      await hooks["chat.message"]({ sessionID: "s" }, { parts: [{ type: "text", text }] });
      const out = { system: ["base"] };
      await hooks["experimental.chat.system.transform"]({ sessionID: "s" }, out);
      return out.system;
    };
    assertEquals(await turn("first"), ["base", "START\n\nPROMPT first"]);
    assertEquals(await turn("second"), ["base", "START\n\nPROMPT second"]);
    // Another session hears its own start.
    await hooks["chat.message"]({ sessionID: "t" }, { parts: [{ type: "text", text: "x" }] });
    const other = { system: [] as string[] };
    await hooks["experimental.chat.system.transform"]({ sessionID: "t" }, other);
    assertEquals(other.system, ["START\n\nPROMPT x"]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("doctor calls a plugin that runs the launcher stale when the launcher is gone", () => {
  // Trial 58: opencode-auto and kilocode-auto were "wired" with the launcher deleted, their
  // recall silently dead (the plugins spawn it).
  const w = world();
  try {
    installTargets(w.env, w.self, [t("opencode-auto"), t("kilocode-auto")]);
    const state = (name: string) =>
      targetStatus(w.env, { name, harness: t(name).harness, auto: true }).state;
    assertEquals([state("opencode-auto"), state("kilocode-auto")], ["wired", "wired"]);
    rmSync(launcherPath(w.env));
    assertEquals([state("opencode-auto"), state("kilocode-auto")], ["stale_path", "stale_path"]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
