/**
 * `deja install` into configs kept in TOML (Codex), JSONC (opencode, Gemini
 * CLI), YAML (Goose) and Cursor's versioned hooks file: deja's entry added
 * with the user's comments, other servers and odd formatting kept byte for
 * byte, a second install changing nothing, uninstall giving back the
 * original bytes, and a config that does not parse refused with line:column.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { read, roundTrip, t, world, write } from "./_install_world.ts";
import { existsSync, linkSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { targetStatus } from "../lib/install/doctor.ts";
import { inPackageCache, launcherPath } from "../lib/install/launcher.ts";
import { FormatError, parseConfig } from "../lib/install/formats.ts";
import { dialectFor } from "../lib/hooks/dialect.ts";
import { runMain } from "./_cli_io.ts";

Deno.test("codex: [mcp_servers.deja] joins a commented config.toml; comments and servers kept", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    const original = `# my codex setup
model = "gpt-5.5"   # the fast one
approval_policy = "on-request"

[mcp_servers.github]
command = "gh-mcp"
args = ["--stdio"]  # keep this

[projects."/home/u/work"]
trust_level = "trusted"
`;
    const after = roundTrip(w, "codex", path, original);
    for (const line of original.split("\n")) assertStringIncludes(after, line);
    const v = parseConfig(after, "toml") as Record<string, Record<string, unknown>>;
    assertEquals(v.mcp_servers.deja, { command: launcherPath(w.env), args: ["mcp"] });
    assertEquals(v.mcp_servers.github, { command: "gh-mcp", args: ["--stdio"] });
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("codex-auto writes hooks.json in Claude's nested shape with --harness codex", () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("codex-auto")]);
    const hooks = JSON.parse(read(join(w.home, ".codex", "hooks.json"))).hooks;
    assertEquals(Object.keys(hooks), [
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "PreCompact",
    ]);
    const cmd = hooks.PreToolUse[0].hooks[0].command as string;
    assertStringIncludes(cmd, "hook-tool --harness codex");
    assertEquals(hooks.PreToolUse[0].matcher, "Bash|apply_patch");
    // Not approved in Codex yet (trial 102 F6).
    assertEquals(targetStatus(w.env, t("codex-auto")).state, "will_not_run");
    assertEquals(dialectFor(cmd.split(" ").slice(2)).id, "codex");
    uninstallTargets(w.env, [t("codex")]);
    assert(!existsSync(join(w.home, ".codex", "hooks.json")), "a file deja created goes");
    assert(!existsSync(join(w.home, ".codex", "config.toml")));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("opencode: mcp.deja joins a JSONC config with comments, tabs and a trailing comma", () => {
  const w = world();
  try {
    const path = join(w.home, ".config", "opencode", "opencode.json");
    const original = `{
\t// my model
\t"$schema": "https://opencode.ai/config.json",
\t"model": "anthropic/claude", /* inline */
\t"mcp": {
\t\t"other": { "type": "remote", "url": "http://127.0.0.1:9" },
\t},
}
`;
    const after = roundTrip(w, "opencode", path, original);
    assertStringIncludes(after, "// my model");
    assertStringIncludes(after, "/* inline */");
    const v = parseConfig(after, "jsonc") as { mcp: Record<string, unknown> };
    assertEquals(v.mcp.deja, {
      type: "local",
      command: [launcherPath(w.env), "mcp"],
      enabled: true,
    });
    assert(v.mcp.other);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("gemini-auto: hooks in milliseconds and hooksConfig, both gone after uninstall", () => {
  const w = world();
  try {
    const path = join(w.home, ".gemini", "settings.json");
    const original = `{
  // Gemini reads comments here
  "theme": "Dracula",
  "mcpServers": { "fs": { "command": "fs-mcp" } }
}
`;
    write(path, original);
    installTargets(w.env, w.self, [t("gemini-auto")]);
    const v = parseConfig(read(path), "jsonc") as Record<string, Record<string, unknown>>;
    assertEquals(v.hooksConfig, { enabled: true });
    const start = (v.hooks.SessionStart as Array<{ hooks: Array<{ timeout: number }> }>)[0];
    assertEquals(start.hooks[0].timeout, 10000);
    assert(v.hooks.BeforeAgent && v.hooks.AfterTool);
    // Gemini CLI drops a BeforeTool hook's text and PreCompress's result: not wired.
    assertEquals(Object.keys(v.hooks), ["SessionStart", "BeforeAgent", "AfterTool"]);
    assertStringIncludes(read(path), "// Gemini reads comments here");
    uninstallTargets(w.env, [t("gemini")]);
    assertEquals(read(path), original);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

/** deja's gemini-auto hooks as earlier versions wrote them: BeforeTool and PreCompress included. */
function oldGeminiHooks(launcher: string) {
  const item = (sub: string) => ({
    type: "command",
    command: `${launcher} ${sub} --harness gemini`,
    timeout: 10000,
  });
  return {
    SessionStart: [{ hooks: [item("hook-context")] }],
    BeforeAgent: [{ hooks: [item("hook-prompt")] }],
    BeforeTool: [
      { matcher: "write_file", hooks: [{ type: "command", command: "my-guard" }] },
      { matcher: "run_shell_command|write_file|replace", hooks: [item("hook-tool")] },
    ],
    AfterTool: [{ matcher: "run_shell_command", hooks: [item("hook-tool-after")] }],
    PreCompress: [{
      hooks: [item("hook-precompact"), { type: "command", command: "my-snapshot" }],
    }],
  };
}

/** A settings.json wired by `deja install gemini` plus the old gemini-auto hooks. */
function oldGeminiWiring(w: ReturnType<typeof world>): string {
  const path = join(w.home, ".gemini", "settings.json");
  installTargets(w.env, w.self, [t("gemini")]);
  const v = JSON.parse(read(path));
  v.hooks = oldGeminiHooks(launcherPath(w.env));
  v.hooksConfig = { enabled: true };
  write(path, JSON.stringify(v, null, 2) + "\n");
  return path;
}

Deno.test("gemini-auto over deja's old BeforeTool/PreCompress hooks takes them out, keeps the user's", () => {
  const w = world();
  try {
    const path = oldGeminiWiring(w);
    const before = targetStatus(w.env, t("gemini-auto"));
    assertEquals(before.state, "wired");
    const warn = before.parts.find((p) => p.kind === "hooks")?.warning ?? "";
    assertStringIncludes(warn, "BeforeTool hook-tool, PreCompress hook-precompact");
    assertStringIncludes(warn, "deja install gemini-auto");
    installTargets(w.env, w.self, [t("gemini-auto")]);
    const text = read(path);
    assert(!text.includes("hook-tool --harness") && !text.includes("hook-precompact"), text);
    const v = JSON.parse(text);
    assertEquals(v.hooks.BeforeTool, [
      { matcher: "write_file", hooks: [{ type: "command", command: "my-guard" }] },
    ]);
    assertEquals(v.hooks.PreCompress, [{ hooks: [{ type: "command", command: "my-snapshot" }] }]);
    assertStringIncludes(JSON.stringify(v.hooks.AfterTool), "hook-tool-after --harness gemini");
    const after = targetStatus(w.env, t("gemini-auto"));
    assertEquals(after.state, "wired");
    assertEquals(after.parts.find((p) => p.kind === "hooks")?.warning, undefined);
    // Installing again changes nothing.
    installTargets(w.env, w.self, [t("gemini-auto")]);
    assertEquals(read(path), text);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("gemini-auto over old hooks of deja's alone leaves no empty BeforeTool/PreCompress", () => {
  const w = world();
  try {
    const path = join(w.home, ".gemini", "settings.json");
    const hooks = oldGeminiHooks(launcherPath(w.env));
    hooks.BeforeTool.shift();
    hooks.PreCompress[0].hooks.pop();
    write(path, JSON.stringify({ hooks, hooksConfig: { enabled: true } }, null, 2) + "\n");
    installTargets(w.env, w.self, [t("gemini-auto")]);
    const v = JSON.parse(read(path));
    assertEquals(Object.keys(v.hooks), ["SessionStart", "BeforeAgent", "AfterTool"]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 131 F2: with only the retired entries there, doctor said "not wired" and no word of them.
Deno.test("doctor warns of deja's old BeforeTool/PreCompress hooks without the current ones", () => {
  const w = world();
  try {
    const path = join(w.home, ".gemini", "settings.json");
    installTargets(w.env, w.self, [t("gemini")]);
    const v = JSON.parse(read(path));
    const old = oldGeminiHooks(launcherPath(w.env));
    v.hooks = { BeforeTool: old.BeforeTool, PreCompress: old.PreCompress };
    write(path, JSON.stringify(v, null, 2) + "\n");
    const s = targetStatus(w.env, t("gemini-auto"));
    const hooks = s.parts.find((p) => p.kind === "hooks");
    assertEquals(hooks?.state, "not_wired");
    assertStringIncludes(hooks?.warning ?? "", "BeforeTool hook-tool, PreCompress hook-precompact");
    assertStringIncludes(hooks?.warning ?? "", "deja install gemini-auto");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("uninstall gemini takes deja's old BeforeTool/PreCompress hooks out too", () => {
  const w = world();
  try {
    const path = oldGeminiWiring(w);
    uninstallTargets(w.env, [t("gemini")]);
    const text = read(path);
    assert(!text.includes("--harness gemini") && !text.includes("mcpServers"), text);
    const v = JSON.parse(text);
    assertEquals(v.hooks.BeforeTool, [
      { matcher: "write_file", hooks: [{ type: "command", command: "my-guard" }] },
    ]);
    assertEquals(v.hooks.PreCompress, [{ hooks: [{ type: "command", command: "my-snapshot" }] }]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("goose: extensions.deja joins a commented config.yaml", () => {
  const w = world();
  try {
    const path = join(w.home, ".config", "goose", "config.yaml");
    const original = `# goose settings
GOOSE_PROVIDER: openai   # provider
extensions:
  developer:
    enabled: true
    name: developer
    type: builtin
`;
    const after = roundTrip(w, "goose", path, original);
    assertStringIncludes(after, "# goose settings");
    // Only deja's entry is new: the comment keeps its spacing.
    assertStringIncludes(after, "GOOSE_PROVIDER: openai   # provider");
    const v = parseConfig(after, "yaml") as { extensions: Record<string, Record<string, unknown>> };
    assertEquals(v.extensions.deja.cmd, launcherPath(w.env));
    assertEquals(v.extensions.developer.type, "builtin");
    assertEquals(targetStatus(w.env, t("goose")).state, "not_wired");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("cursor-auto: hooks.json gets version 1 and a flat sessionStart entry", () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("cursor-auto")]);
    const v = JSON.parse(read(join(w.home, ".cursor", "hooks.json")));
    assertEquals(v.version, 1);
    assertStringIncludes(v.hooks.sessionStart[0].command, "hook-context --harness cursor");
    uninstallTargets(w.env, [t("cursor-auto")]);
    assert(!existsSync(join(w.home, ".cursor", "hooks.json")));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("a config that does not parse is refused with line:column and left untouched", () => {
  const cases: Array<[string, string, string, RegExp]> = [
    [
      "codex",
      ".codex/config.toml",
      'model = "x"\n[mcp_servers\n',
      /config\.toml:2:\d+: not valid TOML/,
    ],
    [
      "goose",
      ".config/goose/config.yaml",
      "a: [1, 2\nb: c\n",
      /config\.yaml:\d+:\d+: not valid YAML/,
    ],
    [
      "opencode",
      ".config/opencode/opencode.json",
      '{\n  "mcp": {,\n}\n',
      /opencode\.json:2:\d+: not valid JSON/,
    ],
  ];
  for (const [target, rel, text, re] of cases) {
    const w = world();
    try {
      const path = join(w.home, rel);
      write(path, text);
      const r = installTargets(w.env, w.self, [t(target)]);
      assert(r.aborted, target);
      assert(re.test(r.outcomes[0].refused ?? ""), `${target}: ${r.outcomes[0].refused}`);
      assertEquals(read(path), text);
      assert(!existsSync(`${path}.deja.bak`));
      assertEquals(targetStatus(w.env, t(target)).state, "broken_config");
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  }
});

Deno.test("every plain target of the registry installs into an empty HOME and uninstalls to nothing", () => {
  const w = world();
  try {
    const names = ["codex", "gemini", "qwen", "opencode", "copilot", "cursor", "cline", "kilocode"]
      .concat(["omp", "goose", "amp", "antigravity", "kimi", "openclaw", "hermes", "zed"])
      .concat(["vscode", "kiro", "commandcode", "grok", "roo", "factory", "auggie"]);
    const refs = names.map(t);
    const r = installTargets(w.env, w.self, refs);
    assert(!r.aborted, JSON.stringify(r.outcomes.filter((o) => o.refused)));
    for (const ref of refs) assertEquals(targetStatus(w.env, ref).state, "wired", ref.name);
    uninstallTargets(w.env, refs);
    const left: string[] = [];
    const walk = (d: string) => {
      for (const e of Deno.readDirSync(d)) {
        const p = join(d, e.name);
        if (e.isDirectory) walk(p);
        else left.push(p);
      }
    };
    walk(w.home);
    assertEquals(left, []);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("the launcher records a non-default DEJA_HOME for harnesses that filter the environment", () => {
  const w = world();
  try {
    writeFileSync(w.self[0], '#!/bin/sh\necho "home=$DEJA_HOME args=$*"\n', { mode: 0o755 });
    installTargets(w.env, w.self, [t("codex")]);
    const launcher = launcherPath(w.env);
    const bare = new Deno.Command("/bin/sh", {
      args: [launcher, "mcp"],
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
    }).outputSync();
    assertEquals(new TextDecoder().decode(bare.stdout), `home=${join(w.root, "deja")} args=mcp\n`);
    const given = new Deno.Command("/bin/sh", {
      args: [launcher, "mcp"],
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin", DEJA_HOME: "/elsewhere" },
    }).outputSync();
    assertEquals(new TextDecoder().decode(given.stdout), "home=/elsewhere args=mcp\n");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("a deja inside a package manager's cache is recognised (install warns about it)", () => {
  assert(inPackageCache("/root/.npm/_npx/7a40be/node_modules/.bin/deja"));
  assert(inPackageCache("/home/u/.bun/install/cache/deja@1/bin/deja"));
  assert(!inPackageCache("/usr/local/bin/deja"));
  assert(!inPackageCache("/home/u/.local/bin/deja"));
});

Deno.test("a JSON5 config (unquoted keys, as OpenClaw writes) is refused with why and where", () => {
  const text = "{\n  // mine\n  agents: { defaults: {} },\n}\n";
  let err: unknown;
  try {
    parseConfig(text, "jsonc");
  } catch (e) {
    err = e;
  }
  assert(err instanceof FormatError, String(err));
  assertStringIncludes(err.reason, "JSON5");
  assertEquals(err.at, { line: 3, column: 3 });
  // A plain syntax error says nothing of JSON5.
  try {
    parseConfig('{"a": 1 "b": 2}', "jsonc");
  } catch (e) {
    assert(e instanceof FormatError && !e.reason.includes("JSON5"), String(e));
  }
});

Deno.test("hermes: a key with no value (`mcp_servers:` alone) takes deja's entry", () => {
  // Trial 58: a hand-written `mcp_servers:` (YAML null) was refused: "mcp_servers is not an object".
  const w = world();
  try {
    const path = join(w.home, ".hermes", "config.yaml");
    write(path, "model: gpt-5\nmcp_servers:\n");
    const r = installTargets(w.env, w.self, [t("hermes")]);
    assertEquals(r.outcomes[0].refused, undefined);
    const v = parseConfig(read(path), "yaml") as {
      model: string;
      mcp_servers: Record<string, unknown>;
    };
    assertEquals(v.model, "gpt-5");
    assert(v.mcp_servers.deja, read(path));
    uninstallTargets(w.env, [t("hermes")]);
    assert(!read(path).includes("deja"), read(path));
    assertStringIncludes(read(path), "model: gpt-5");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 82 F1: uninstall put the backup's bytes back over a config whose data was the same,
// losing the comments the user added after install and a 20-digit id changed since.
Deno.test("uninstall keeps what the user added since install that the data does not show", () => {
  const w = world();
  try {
    const codex = join(w.home, ".codex", "config.toml");
    write(codex, `model = "gpt-5.5"\n`);
    installTargets(w.env, w.self, [t("codex")]);
    write(codex, `# NOTE: o3 chosen for cost, see OPS-123\n${read(codex)}`);
    uninstallTargets(w.env, [t("codex")]);
    assertStringIncludes(read(codex), "# NOTE: o3 chosen for cost, see OPS-123");
    assert(!read(codex).includes("deja"), read(codex));
    assert(!existsSync(`${codex}.deja.bak`), "the backup goes");

    const claude = join(w.home, ".claude.json");
    write(claude, `{"orgId": 12345678901234567890, "theme": "dark"}\n`);
    installTargets(w.env, w.self, [t("claude-code")]);
    write(claude, read(claude).replace("12345678901234567890", "12345678901234567891"));
    uninstallTargets(w.env, [t("claude-code")]);
    assertStringIncludes(read(claude), "12345678901234567891");

    // Nothing added since: the original bytes come back.
    const zed = join(w.home, ".config", "zed", "settings.json");
    const original = `{\n  "ui_font_size": 16, // big\n  "context_servers": {}\n}\n`;
    write(zed, original);
    installTargets(w.env, w.self, [t("zed")]);
    uninstallTargets(w.env, [t("zed")]);
    assertEquals(read(zed), original);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 82 F2: Codex's hooks turned off in config.toml (`[features] hooks = false`, or its
// older name `codex_hooks`) left deja's hooks "wired", and install said to approve them.
Deno.test("codex-auto warns when config.toml turns Codex's hooks off", () => {
  for (const key of ["hooks", "codex_hooks"]) {
    const w = world();
    try {
      write(join(w.home, ".codex", "config.toml"), `[features]\n${key} = false\n`);
      installTargets(w.env, w.self, [t("codex-auto")]);
      const warning = targetStatus(w.env, t("codex-auto")).parts.find((p) => p.warning)?.warning;
      assertStringIncludes(String(warning), `features.${key} is false in ~/.codex/config.toml`);
      assertStringIncludes(String(warning), "the harness runs no hook");
      write(join(w.home, ".codex", "config.toml"), `[features]\n${key} = true\n`);
      const on = targetStatus(w.env, t("codex-auto")).parts.find((p) => p.warning)?.warning;
      assert(!String(on).includes("runs no hook"), String(on));
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  }
});

// Trial 82 F6: install wrote a hard-linked config through a rename, splitting it from its
// other name (a dotfiles checkout's) for good.
Deno.test("install and uninstall keep a hard-linked config linked", () => {
  const w = world();
  try {
    const dot = join(w.root, "dotfiles", "settings.json");
    write(dot, `{"theme": "dark"}\n`);
    const path = join(w.home, ".claude", "settings.json");
    mkdirSync(join(w.home, ".claude"), { recursive: true });
    linkSync(dot, path);
    installTargets(w.env, w.self, [t("claude-auto")]);
    assertEquals(statSync(path).ino, statSync(dot).ino, "still one file");
    assertStringIncludes(read(dot), "hook-context");
    uninstallTargets(w.env, [t("claude-auto")]);
    assertEquals(statSync(path).ino, statSync(dot).ino);
    assert(!read(dot).includes("hook-context"), read(dot));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("doctor exits 1 when a target will not run (Codex's hooks not approved), naming it (trial 121 L6)", async () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("codex-auto")]);
    assertEquals(targetStatus(w.env, t("codex-auto")).state, "will_not_run");
    const r = await runMain(w.env, ["doctor"]);
    assertEquals(r.code, 1, r.err);
    assertStringIncludes(r.err, "codex-auto (will not run)");
    const doc = JSON.parse((await runMain(w.env, ["doctor", "--json"])).out);
    assertStringIncludes(JSON.stringify(doc.problems), "codex-auto (will not run)");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("uninstall --auto counts the targets that held nothing of deja's instead of listing them (trial 121 L5)", async () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("codex-auto")]);
    const r = await runMain(w.env, ["uninstall", "--auto"]);
    assertEquals(r.code, 0, r.err);
    const lines = r.out.split("\n");
    // What was there is listed; no target is listed only as absent.
    assert(lines.some((l) => /^removed\s+codex-auto/.test(l)), r.out);
    assertEquals(lines.filter((l) => /^absent\s+\S+-auto/.test(l)), [], r.out);
    assertStringIncludes(r.out, "absent: nothing of deja's in ");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
