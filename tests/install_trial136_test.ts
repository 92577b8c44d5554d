/**
 * Trial 136: `deja uninstall` gives back the user's config byte for byte apart from deja's own
 * lines: no comment of the user's above deja's entry goes with it (also when the file was
 * replaced by hand between installs), no inline comment of the user's is re-aligned, deja's
 * Codex entry is a table of its own at the end that no table the user adds can take in, and the
 * backup of a symlinked config is kept beside the link, not beside its target.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { testEnv } from "./_fixture.ts";
import { wireJson, wireText } from "../lib/cli/_wire.ts";
import { read, t, world, write } from "./_install_world.ts";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { launcherPath } from "../lib/install/launcher.ts";
import { targetStatus } from "../lib/install/doctor.ts";
import { loadInstallState } from "../lib/install/state.ts";
import { parseConfig } from "../lib/install/formats.ts";

type Obj = Record<string, unknown>;

const install = (w: ReturnType<typeof world>, name: string) => {
  const r = installTargets(w.env, w.self, [t(name)]);
  assert(!r.aborted, JSON.stringify(r.outcomes));
  return r;
};

/** `text` without deja's `[mcp_servers.deja]` table and the blank line before it. */
const withoutDeja = (text: string) =>
  text.replace(/\n?\[mcp_servers\.deja\]\ncommand = [^\n]*\nargs = \["mcp"\]\n/, "");

Deno.test("codex F1: a config replaced by hand between installs comes back whole, comments and all", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    write(path, 'model = "o3"\n\n[mcp_servers]\n\n[mcp_servers.github]\ncommand = "npx"\n');
    install(w, "codex");
    // The user puts back another file (deja's entry gone, deja's backup of the first one left).
    const mine = 'model = "o3"\n# c\n# d\n[mcp_servers.gh]\ncommand = "x"\n';
    write(path, mine);
    install(w, "codex");
    const v = parseConfig(read(path), "toml") as { mcp_servers: Obj };
    assertEquals(v.mcp_servers.deja, { command: launcherPath(w.env), args: ["mcp"] });
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(path), mine);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("codex F2: comment lines the user wrote above deja's entry stay when uninstall takes it", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    write(path, 'model = "o3"\n\n[mcp_servers.gh]\ncommand = "x"\n');
    install(w, "codex");
    const edited = read(path).replace(
      "[mcp_servers.deja]",
      "# history search for my agents (added by me)\n# see https://example.com/deja\n" +
        "[mcp_servers.deja]",
    );
    write(path, edited);
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(
      read(path),
      'model = "o3"\n\n[mcp_servers.gh]\ncommand = "x"\n\n' +
        "# history search for my agents (added by me)\n# see https://example.com/deja\n",
    );
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("codex F2: an older deja's one-line entry goes alone; comments above and on it stay", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    const line = `mcp_servers.deja = { command = "${launcherPath(w.env)}", args = [ "mcp" ] }`;
    const text = (entry: string) =>
      `model = "o3"   # mine\n# deja: history search (my note)\n${entry}\n\n` +
      `[mcp_servers.gh]\ncommand = "x"\n`;
    write(path, text(`${line}  # kept by me`));
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(path), text("# kept by me"));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("codex F3: the user's inline comments keep their spaces through install and uninstall", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    const original = 'model = "gpt-5-codex"   # the default model\n' +
      'approval_policy = "on-request"  # asked each time\n\n[features]\nweb_search_request = true\n';
    write(path, original);
    install(w, "codex");
    const after = read(path);
    assert(after.startsWith(original), after);
    // The user adds an inline comment after install: uninstall leaves every other byte.
    const edited = after.replace("web_search_request = true", "web_search_request = true # on");
    write(path, edited);
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(path), withoutDeja(edited));
    assertEquals(read(path), original.replace("= true", "= true # on"));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("codex F4: deja's entry is its own table, which a table the user adds above cannot take in", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    write(
      path,
      'model = "o3"\napproval_policy = "on-request"\n\n[mcp_servers.gh]\ncommand = "x"\n',
    );
    install(w, "codex");
    write(
      path,
      read(path).replace(
        'approval_policy = "on-request"\n',
        'approval_policy = "on-request"\n[mcp_servers.later]\ncommand = "foo"\n',
      ),
    );
    const v = parseConfig(read(path), "toml") as { mcp_servers: Obj };
    assertEquals(v.mcp_servers.later, { command: "foo" });
    assertEquals(v.mcp_servers.gh, { command: "x" });
    assertEquals(v.mcp_servers.deja, { command: launcherPath(w.env), args: ["mcp"] });
    assertEquals(targetStatus(w.env, t("codex")).state, "wired");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("codex F4: an older deja's line a table took in is moved by install, removed by uninstall", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    const mine = 'model = "o3"\n[mcp_servers.later]\ncommand = "foo"\n';
    const stray = `mcp_servers.deja = { command = "${launcherPath(w.env)}", args = [ "mcp" ] }\n`;
    write(path, mine + stray + '\n[profiles.fast]\nmodel = "m"\n');
    install(w, "codex");
    const v = parseConfig(read(path), "toml") as { mcp_servers: Record<string, Obj> };
    assertEquals(v.mcp_servers.later, { command: "foo" }, "the stray copy went");
    assertEquals(v.mcp_servers.deja, { command: launcherPath(w.env), args: ["mcp"] });
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(path), mine + '\n[profiles.fast]\nmodel = "m"\n');
    // Uninstall alone takes a stray too.
    write(path, mine + stray);
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(path), mine);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("opencode F2: a comment the user wrote above deja's JSONC entry stays when it goes", () => {
  const w = world();
  try {
    const path = join(w.home, ".config", "opencode", "opencode.jsonc");
    const original = `{
  // my config
  "mcp": {
    "other": { "type": "remote", "url": "http://127.0.0.1:9" }
  }
}
`;
    write(path, original);
    install(w, "opencode");
    const note = "    // deja: memory across sessions (my note)\n";
    const edited = read(path).replace(/^ {4}"deja": \{/m, (m) => note + m);
    assert(edited.includes(note), edited);
    write(path, edited);
    uninstallTargets(w.env, [t("opencode")]);
    assertEquals(read(path), original.replace('9" }\n', '9" }\n' + note));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("gemini F2: comments above and inside deja's entry stay; the JSON still parses", () => {
  const w = world();
  try {
    const path = join(w.home, ".gemini", "settings.json");
    write(path, `{\n  "mcpServers": {\n    "gh": { "command": "gh" }\n  }\n}\n`);
    install(w, "gemini");
    const edited = read(path).replace(/^( {4})"deja": \{/m, '$1// mine\n$1"deja": { // on it');
    write(path, edited);
    uninstallTargets(w.env, [t("gemini")]);
    const after = read(path);
    assertEquals(
      after,
      `{\n  "mcpServers": {\n    "gh": { "command": "gh" }\n    // mine\n    // on it\n  }\n}\n`,
    );
    assertEquals(parseConfig(after, "json-comments"), { mcpServers: { gh: { command: "gh" } } });
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("codex F5: the backup of a symlinked config is kept beside the link, not in the link's target's directory", () => {
  const w = world();
  try {
    const dots = join(w.root, "dotfiles");
    const real = join(dots, "codex.toml");
    const link = join(w.home, ".codex", "config.toml");
    const original =
      '# mine\nmodel = "o3"\n\n[mcp_servers.gh]\ncommand = "gh"\nenv = { T = "ghp_x" }\n';
    write(real, original);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(real, link);
    const r = install(w, "codex");
    assertEquals(r.outcomes.flatMap((o) => o.backups ?? []), [`${link}.deja.bak`]);
    assertEquals(read(`${link}.deja.bak`), original);
    assertEquals(readdirSync(dots), ["codex.toml"], "nothing of deja's beside the target");
    assert(lstatSync(link).isSymbolicLink());
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(real), original);
    assert(lstatSync(link).isSymbolicLink());
    assert(!existsSync(`${link}.deja.bak`));
    // A backup an older deja kept beside the target still goes back, and goes.
    install(w, "codex");
    renameSync(`${link}.deja.bak`, `${real}.deja.bak`);
    write(real, read(real).replace('"o3"', '"o3"   # aligned by an old deja'));
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(real), original.replace('"o3"', '"o3"   # aligned by an old deja'));
    assertEquals(readdirSync(dots), ["codex.toml"]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("claude-code F6: uninstall under another CLAUDE_CONFIG_DIR that finds nothing names where deja's entry is", () => {
  const w = world();
  try {
    write(join(w.home, ".claude.json"), '{"mcpServers": {"github": {"command": "gh"}}}\n');
    install(w, "claude-code");
    install(w, "codex"); // the launcher stays in use: no launcher line says where
    const other = testEnv(w.home, {
      DEJA_HOME: w.env.get("DEJA_HOME")!,
      CLAUDE_CONFIG_DIR: join(w.root, "ccd2"),
    });
    const r = uninstallTargets(other, [t("claude-code")]);
    assertEquals(r.wiredElsewhere, [join(w.home, ".claude.json")]);
    const text = wireText(r, { isTTY: false, env: other }, false);
    assertStringIncludes(text, "unchanged: nothing of deja's was there\n");
    assertStringIncludes(
      text,
      "deja's entries are in ~/.claude.json, which deja wired under other",
    );
    assertEquals(wireJson(r).wired_elsewhere, [join(w.home, ".claude.json")]);
    // Under the settings it was wired with, nothing is said of elsewhere.
    assertEquals(uninstallTargets(w.env, [t("claude-code")]).wiredElsewhere, undefined);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("gemini F7: install says which retired hooks it took out; doctor names retired ones a deja of yours runs", () => {
  const w = world();
  try {
    const path = join(w.home, ".gemini", "settings.json");
    const item = (prog: string, sub: string) => ({
      type: "command",
      command: `${prog} ${sub} --harness gemini`,
      timeout: 10000,
    });
    const L = launcherPath(w.env);
    write(
      path,
      JSON.stringify({
        hooksConfig: { enabled: true },
        hooks: {
          BeforeTool: [{ matcher: "run_shell_command", hooks: [item(L, "hook-tool")] }],
          PreCompress: [{ hooks: [item("deja", "hook-precompact")] }],
        },
      }) + "\n",
    );
    const warn = () =>
      targetStatus(w.env, t("gemini-auto")).parts.find((p) => p.kind === "hooks")?.warning ?? "";
    assertStringIncludes(warn(), "deja no longer wires BeforeTool hook-tool");
    assertStringIncludes(warn(), "hooks of yours run PreCompress hook-precompact");
    const r = install(w, "gemini-auto");
    const hooks = r.outcomes.flatMap((o) => o.changes).find((c) => c.kind === "hooks");
    assertEquals(hooks?.action, "updated");
    assertStringIncludes(hooks?.note ?? "", "took out deja's BeforeTool hook-tool hook");
    // The user's own `deja hook-precompact` stays theirs, and doctor still says so.
    assertStringIncludes(read(path), '"deja hook-precompact --harness gemini"');
    assertEquals(warn().includes("BeforeTool"), false);
    assertStringIncludes(warn(), "hooks of yours run PreCompress hook-precompact");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 138 H1: a value the user fixed after install (`200000.0` -> `200000`, the same number
// as data) was put back as it was: uninstall gave the backup's bytes back whenever the data
// matched. A config the user edited since deja last wrote it keeps the edit.
Deno.test("trial 138 H1: uninstall keeps an edit the user made after install, same data or not", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    write(path, 'model = "o3"\nmodel_context_window = 200000.0\n');
    install(w, "codex");
    write(path, read(path).replace("200000.0", "200000").replace('"o3"', "'o3'"));
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(path), "model = 'o3'\nmodel_context_window = 200000\n");
    // Not edited: the bytes come back as they were, twice over.
    write(path, 'model = "o3"\nmodel_context_window = 200000.0\n');
    install(w, "codex");
    install(w, "codex-auto");
    uninstallTargets(w.env, [t("codex-auto")]);
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(path), 'model = "o3"\nmodel_context_window = 200000.0\n');
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 140 H1: `deja uninstall codex` of a config holding nothing of deja's dropped every
// date-time and time line (`reviewed_at = 2026-11-30T09:00:00Z`, `quiet_from = 22:00:00`) and
// said "nothing of deja's was there"; install refused such a file ("deja's edit went wrong").
Deno.test("trial 140 H1: TOML dates and times stay byte for byte through install and uninstall", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    const mine = 'model = "o3"\nreviewed_at = 2026-11-30T09:00:00Z\nquiet_from = 22:00:00\n' +
      'local = 2026-11-30T09:00:00\nday = 1979-05-27\n\n[tbl]\nk = "v"\n';
    write(path, mine);
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(path), mine);
    install(w, "codex");
    assert(read(path).startsWith(mine), read(path));
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(path), mine);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 138 L1: the user removed their only other MCP server after install; uninstall left an
// `[mcp_servers]` line the file never had.
Deno.test("trial 138 L1: no empty table header is left where the user's own tables went", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    write(path, 'model = "o3"\n\n[mcp_servers.github]\ncommand = "npx"\n');
    install(w, "codex");
    write(path, read(path).replace('[mcp_servers.github]\ncommand = "npx"\n\n', ""));
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(path), 'model = "o3"\n');
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// The record of what deja last wrote to a config (install-state `configs`) goes when deja's
// part of it goes: a file it made and took out, or one whose backup went.
Deno.test("install-state keeps no record of a config deja no longer wires", () => {
  const w = world();
  try {
    const made = join(w.home, ".codex", "config.toml");
    install(w, "codex");
    assert(loadInstallState(w.env).configs?.[made], "install records what it wrote");
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(loadInstallState(w.env).configs ?? {}, {});
    write(made, 'model = "o3"\n');
    install(w, "codex");
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(made), 'model = "o3"\n');
    assertEquals(loadInstallState(w.env).configs ?? {}, {});
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 141 H1: a TOML integer past 2^53 (valid: TOML's are 64-bit) refused install ("JSON.stringify
// cannot serialize BigInt"), and added after install it refused uninstall: deja's entry could
// not be taken out.
Deno.test("trial 141 H1: a TOML integer past 2^53 neither blocks install nor uninstall", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    const mine = 'model = "o3"\nmax_id = 9007199254740993\n';
    write(path, mine);
    install(w, "codex");
    assertStringIncludes(read(path), "max_id = 9007199254740993\n");
    assertStringIncludes(read(path), "[mcp_servers.deja]");
    uninstallTargets(w.env, [t("codex")]);
    assertEquals(read(path), mine);
    // Added after install: uninstall still takes deja's entry out, the number kept.
    write(path, 'model = "o3"\n');
    install(w, "codex");
    write(path, read(path).replace('model = "o3"\n', 'model = "o3"\nbig = 18446744073709551\n'));
    const u = uninstallTargets(w.env, [t("codex")]);
    assert(!u.outcomes.some((o) => o.refused), JSON.stringify(u.outcomes));
    assertEquals(read(path), 'model = "o3"\nbig = 18446744073709551\n');
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 141 M2: a config the user deleted after install came back at uninstall (the backup's
// bytes, mode 0600), while uninstall said "absent".
Deno.test("trial 141 M2: uninstall does not bring back a config the user deleted", () => {
  const w = world();
  try {
    const path = join(w.home, ".claude.json");
    write(path, '{"theme": "dark"}\n');
    install(w, "claude-code");
    rmSync(path);
    uninstallTargets(w.env, [t("claude-code")]);
    assert(!existsSync(path), "the deleted config is back");
    assert(!existsSync(`${path}.deja.bak`), "the backup is left");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 141 H2: aider's `read: CONVENTIONS.md   # single string form`, made a list to hold
// deja's file too, lost its comment at install, for good once the user edited the file.
Deno.test("trial 141 H2: a YAML value deja turns into a list keeps its comment", () => {
  const w = world();
  try {
    const path = join(w.home, ".aider.conf.yml");
    write(
      path,
      "model: sonnet\nread: CONVENTIONS.md   # single string form\nauto-commits: false\n",
    );
    install(w, "aider");
    assertStringIncludes(read(path), "# single string form");
    write(path, read(path).replace("model: sonnet", "model: opus"));
    uninstallTargets(w.env, [t("aider")]);
    assertStringIncludes(read(path), "# single string form");
    assertStringIncludes(read(path), "model: opus");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 141 M4: a config of two YAML documents was refused with the parsing library's advice to
// its caller ("please use YAML.parseAllDocuments()").
Deno.test("trial 141 M4: a YAML config of several documents is refused saying so", () => {
  let said = "";
  try {
    parseConfig("a: 1\n---\nb: 2\n", "yaml");
  } catch (e) {
    said = (e as Error).message;
  }
  assertStringIncludes(said, "several YAML documents");
  assert(!said.includes("parseAllDocuments"), said);
});
