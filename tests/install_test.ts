/**
 * `deja install` / `uninstall` / `doctor` against a temporary HOME: the files
 * written, byte-for-byte idempotence, the user's entries kept, refusals that
 * touch nothing, backups, modes, symlinks, and doctor's four states.
 */
import { assert, assertEquals, assertStringIncludes, assertThrows } from "./_assert.ts";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { testEnv } from "./_fixture.ts";
import { exactly } from "./_env.ts";
import type { Env } from "../core/model.ts";
import { findTarget, type TargetRef, wirables } from "../lib/install/facts.ts";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { indexStatus, targetStatus } from "../lib/install/doctor.ts";
import { selectTargets } from "../lib/install/select.ts";
import { launcherPath } from "../lib/install/launcher.ts";
import { Store } from "../lib/store.ts";
import { DejaError } from "../core/errors.ts";
import { Q } from "../lib/schema.ts";
import { tempDir } from "./_tmp.ts";
import { snapshot } from "./_install_world.ts";

interface World {
  root: string;
  home: string;
  env: Env;
  /** A stand-in deja binary the launcher points at. */
  self: string[];
  launcher: string;
}

function world(vars: Record<string, string> = {}): World {
  const root = tempDir("deja-install-");
  const home = join(root, "home");
  mkdirSync(home);
  const bin = join(root, "bin", "deja");
  mkdirSync(dirname(bin));
  writeFileSync(bin, '#!/bin/sh\necho "fake deja $*"\n', { mode: 0o755 });
  const env = testEnv(home, { DEJA_HOME: join(root, "deja"), ...vars });
  return { root, home, env, self: [bin], launcher: launcherPath(env) };
}

const t = (name: string): TargetRef => {
  const r = findTarget(name);
  assert(r, `no target ${name}`);
  return r;
};

function write(path: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode });
  chmodSync(path, mode);
}

const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));

Deno.test("install crush-auto writes the MCP server under 'mcp', the hook, skill and command where Crush reads them", () => {
  const w = world();
  const r = installTargets(w.env, w.self, [t("crush-auto")]);
  assertEquals(r.outcomes[0].refused, undefined);
  const cfg = json(join(w.home, ".config/crush/crush.json"));
  assertEquals(cfg, {
    mcp: { deja: { type: "stdio", command: w.launcher, args: ["mcp"] } },
    hooks: {
      PreToolUse: [{
        matcher: "^(bash|edit|write|multiedit)$",
        command: `${w.launcher} hook-tool --crush`,
        timeout: 10,
      }],
    },
  });
  assertEquals(cfg.mcpServers, undefined);
  const skill = readFileSync(join(w.home, ".agents/skills/deja-history/SKILL.md"), "utf8");
  assert(skill.startsWith("---\nname: deja-history\ndescription: "), skill.slice(0, 80));
  const cmd = readFileSync(join(w.home, ".config/crush/commands/deja.md"), "utf8");
  assert(!cmd.startsWith("---"), "Crush sends front matter to the model: the command has none");
  assertStringIncludes(cmd, "$QUERY");
  assertEquals(
    readFileSync(w.launcher, "utf8").split("\n")[4],
    `# target: ${JSON.stringify(w.self)}`,
  );
});

Deno.test("install claude-auto writes mcpServers.deja in ~/.claude.json and the six hooks in settings.json", () => {
  const w = world();
  installTargets(w.env, w.self, [t("claude-auto")]);
  assertEquals(json(join(w.home, ".claude.json")), {
    mcpServers: { deja: { type: "stdio", command: w.launcher, args: ["mcp"] } },
  });
  const hooks = json(join(w.home, ".claude/settings.json")).hooks;
  const one = (sub: string) => [{ type: "command", command: `${w.launcher} ${sub}`, timeout: 10 }];
  assertEquals(hooks, {
    SessionStart: [{ hooks: one("hook-context") }],
    UserPromptSubmit: [{ hooks: one("hook-prompt") }],
    PreToolUse: [{ matcher: "Bash|Edit|Write|MultiEdit|NotebookEdit", hooks: one("hook-tool") }],
    PostToolUse: [{ matcher: "Bash", hooks: one("hook-tool-after") }],
    PostToolUseFailure: [{ matcher: "Bash", hooks: one("hook-tool-after") }],
    // Trial 102 F5: docs/hooks.md had Claude Code's PreCompact answered; install wired none.
    PreCompact: [{ matcher: "manual|auto", hooks: one("hook-precompact") }],
  });
  assert(existsSync(join(w.home, ".claude/skills/deja-history/SKILL.md")));
  const cmd = readFileSync(join(w.home, ".claude/commands/deja.md"), "utf8");
  assert(cmd.startsWith("---\ndescription: "), "Claude Code reads front matter");
  assertStringIncludes(cmd, "$ARGUMENTS");
});

Deno.test("a second install changes no byte and no mtime, and every action says unchanged", () => {
  const w = world();
  write(join(w.home, ".claude.json"), JSON.stringify({ numStartups: 3, projects: { "/p": {} } }));
  const targets = [t("crush-auto"), t("claude-auto")];
  installTargets(w.env, w.self, targets);
  const before = snapshot(w.root);
  const r = installTargets(w.env, w.self, targets);
  assertEquals(snapshot(w.root), before);
  const actions = r.outcomes.flatMap((o) => o.changes.map((c) => c.action));
  assertEquals(actions.length, 8);
  assert(actions.every((a) => a === "unchanged"), actions.join(","));
  assertEquals(r.launcher.action, "unchanged");
});

Deno.test("install keeps unknown keys, their order, and the user's own servers and hooks", () => {
  const w = world();
  const claude = {
    numStartups: 12,
    projects: { "/w/app": { allowedTools: ["Bash"], history: [] } },
    mcpServers: { github: { type: "stdio", command: "gh-mcp", args: [] } },
    zLast: { big: 9007199254740991 },
  };
  const settings = {
    permissions: { allow: ["Bash(ls:*)"] },
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] }],
    },
  };
  const crush = {
    $schema: "https://charm.land/crush.json",
    options: { debug: true },
    mcp: { fs: { type: "stdio", command: "fs-mcp" } },
    hooks: { PreToolUse: [{ matcher: "^bash$", command: "./mine.sh", timeout: 5 }] },
  };
  write(join(w.home, ".claude.json"), JSON.stringify(claude, null, 2));
  write(join(w.home, ".claude/settings.json"), JSON.stringify(settings));
  write(join(w.home, ".config/crush/crush.json"), JSON.stringify(crush));
  installTargets(w.env, w.self, [t("claude-auto"), t("crush-auto")]);
  const c = json(join(w.home, ".claude.json"));
  assertEquals(Object.keys(c), ["numStartups", "projects", "mcpServers", "zLast"]);
  assertEquals(c.projects, claude.projects);
  assertEquals(c.mcpServers.github, claude.mcpServers.github);
  assertEquals(c.zLast, claude.zLast);
  const s = json(join(w.home, ".claude/settings.json"));
  assertEquals(s.permissions, settings.permissions);
  assertEquals(s.hooks.PreToolUse[0], settings.hooks.PreToolUse[0]);
  assertEquals(s.hooks.PreToolUse.length, 2);
  const k = json(join(w.home, ".config/crush/crush.json"));
  assertEquals(k.options, crush.options);
  assertEquals(k.mcp.fs, crush.mcp.fs);
  assertEquals(k.hooks.PreToolUse[0], crush.hooks.PreToolUse[0]);
});

Deno.test("install backs a config up once, before its first change, and never overwrites the backup", () => {
  const w = world();
  const path = join(w.home, ".config/crush/crush.json");
  const original = '{"options": {"debug": true}}\n';
  write(path, original);
  installTargets(w.env, w.self, [t("crush")]);
  assertEquals(readFileSync(`${path}.deja.bak`, "utf8"), original);
  assertEquals(statSync(`${path}.deja.bak`).mode & 0o777, 0o600);
  uninstallTargets(w.env, [t("crush")]);
  installTargets(w.env, w.self, [t("crush-auto")]);
  assertEquals(readFileSync(`${path}.deja.bak`, "utf8"), original, "the first backup is kept");
  const fresh = world();
  installTargets(fresh.env, fresh.self, [t("crush")]);
  assert(
    !existsSync(join(fresh.home, ".config/crush/crush.json.deja.bak")),
    "a file deja creates needs no backup",
  );
});

Deno.test("install keeps an existing config's mode, makes new files 0600 and the launcher 0700", () => {
  const w = world();
  write(join(w.home, ".claude.json"), "{}", 0o644);
  installTargets(w.env, w.self, [t("claude-auto")]);
  assertEquals(statSync(join(w.home, ".claude.json")).mode & 0o777, 0o644);
  assertEquals(statSync(join(w.home, ".claude/settings.json")).mode & 0o777, 0o600);
  assertEquals(statSync(join(w.home, ".claude/commands/deja.md")).mode & 0o777, 0o600);
  assertEquals(statSync(w.launcher).mode & 0o777, 0o700);
  const leftovers = readdirSync(w.home).filter((n) => n.endsWith(".tmp"));
  assertEquals(leftovers, [], "no temp file is left behind");
});

Deno.test("install writes a symlinked config at its target and leaves the link in place", () => {
  const w = world();
  const real = join(w.root, "dotfiles", "crush.json");
  write(real, '{"options": {}}');
  mkdirSync(join(w.home, ".config/crush"), { recursive: true });
  symlinkSync(real, join(w.home, ".config/crush/crush.json"));
  installTargets(w.env, w.self, [t("crush")]);
  assert(lstatSync(join(w.home, ".config/crush/crush.json")).isSymbolicLink());
  assertEquals(json(real).mcp.deja.command, w.launcher);
});

Deno.test("install refuses a config that is not valid JSON, names line:column, and leaves that target alone", () => {
  const w = world();
  const path = join(w.home, ".config/crush/crush.json");
  write(path, '{"mcp": {,}\n');
  const r = installTargets(w.env, w.self, [t("claude-code"), t("crush-auto")]);
  assert(!r.aborted, "the other target goes on");
  const crush = r.outcomes[1];
  assert(crush.refused, "crush-auto is refused");
  assertStringIncludes(crush.refused, `${path}:1:10: not valid JSON`);
  assertEquals(crush.changes, []);
  assertEquals(r.outcomes[0].refused, undefined, "the other target is not blamed");
  assert(r.outcomes[0].changes.length > 0, "and is installed");
  assertEquals(r.launcher.action, "created");
  assert(existsSync(w.launcher));
  assertStringIncludes(readFileSync(join(w.home, ".claude.json"), "utf8"), w.launcher);
  assertEquals(readFileSync(path, "utf8"), '{"mcp": {,}\n', "the broken config is untouched");
  assert(!existsSync(`${path}.deja.bak`));
});

Deno.test("install writes nothing at all, not even the launcher, when every target is refused", () => {
  const w = world();
  const path = join(w.home, ".config/crush/crush.json");
  write(path, '{"mcp": {,}\n');
  const before = snapshot(w.root);
  const r = installTargets(w.env, w.self, [t("crush"), t("crush-auto")]);
  assert(r.aborted, "the run is stopped before any write");
  assert(r.outcomes.every((o) => o.refused && !o.changes.length));
  assertEquals(r.launcher.action, "absent", "the launcher is not there, and not said to be");
  assert(!existsSync(w.launcher), "no launcher written");
  assertEquals(snapshot(w.root), before, "not one file under the root changed");
});

Deno.test("two installs at once both keep their record: the second waits for the first", async () => {
  // Trial 58: two concurrent `deja install gemini-auto`, then an uninstall, left
  // `hooksConfig.enabled` set in about two runs of ten: each install read the state before the
  // other wrote it. Two processes install at once; every record is there afterwards.
  const w = world();
  const script = join(w.root, "install.ts");
  const here = new URL("..", import.meta.url).pathname;
  writeFileSync(
    script,
    `import { installTargets } from "${here}lib/install/run.ts";
     import { findTarget } from "${here}lib/install/facts.ts";
     import { makeEnv } from "${here}core/runtime.ts";
     const env = makeEnv({ HOME: ${JSON.stringify(w.home)}, DEJA_HOME: ${
      JSON.stringify(w.env.get("DEJA_HOME"))
    } }, ${JSON.stringify(w.home)});
     const r = installTargets(env, ${JSON.stringify(w.self)}, [findTarget(Deno.args[0])!]);
     if (r.outcomes.some((o) => o.refused)) Deno.exit(3);`,
  );
  const { spawn } = await import("node:child_process");
  const run = (target: string) =>
    new Promise<number>((done) => {
      const p = spawn(
        ...exactly([
          Deno.execPath(),
          "run",
          "-A",
          "--config",
          join(here, "deno.json"),
          script,
          target,
        ], { HOME: w.home }),
      );
      p.on("exit", (code) => done(code ?? -1));
    });
  assertEquals(await Promise.all([run("gemini-auto"), run("qwen-auto")]), [0, 0]);
  const state = JSON.parse(
    readFileSync(join(w.env.get("DEJA_HOME")!, "install-state.json"), "utf8"),
  );
  const made = (state.made ?? []).map((m: { file: string }) => m.file).join(" ");
  assertStringIncludes(made, join(w.home, ".gemini"));
  assertStringIncludes(made, join(w.home, ".qwen"));
});

Deno.test("install refuses a config whose mcp key holds something other than an object", () => {
  const w = world();
  const path = join(w.home, ".config/crush/crush.json");
  write(path, '{"mcp": ["not", "a", "map"]}');
  const r = installTargets(w.env, w.self, [t("crush")]);
  assertStringIncludes(r.outcomes[0].refused ?? "", "mcp is not an object");
  assertEquals(readFileSync(path, "utf8"), '{"mcp": ["not", "a", "map"]}');
});

Deno.test("uninstall removes only what deja added and leaves the user's entries as they were", () => {
  const w = world();
  const claude = { numStartups: 1, mcpServers: { github: { command: "gh" } } };
  const settings = { hooks: { Stop: [{ hooks: [{ type: "command", command: "./bye.sh" }] }] } };
  const crush = {
    hooks: { PreToolUse: [{ command: "./mine.sh" }] },
    mcp: { fs: { command: "f" } },
  };
  write(join(w.home, ".claude.json"), JSON.stringify(claude));
  write(join(w.home, ".claude/settings.json"), JSON.stringify(settings));
  write(join(w.home, ".config/crush/crush.json"), JSON.stringify(crush));
  installTargets(w.env, w.self, [t("claude-auto"), t("crush-auto")]);
  const r = uninstallTargets(w.env, [t("claude-code"), t("crush")]);
  assert(r.outcomes.every((o) => !o.refused));
  assertEquals(json(join(w.home, ".claude.json")), claude);
  assertEquals(json(join(w.home, ".claude/settings.json")), settings);
  assertEquals(json(join(w.home, ".config/crush/crush.json")), crush);
  assert(
    !existsSync(join(w.home, ".agents/skills/deja-history")),
    "the skill directory deja made goes",
  );
  assert(!existsSync(join(w.home, ".claude/commands/deja.md")));
  assert(!existsSync(w.launcher), "nothing uses the launcher any more");
  const again = uninstallTargets(w.env, [t("claude-code"), t("crush")]);
  assert(again.outcomes.flatMap((o) => o.changes).every((c) => c.action === "absent"));
});

Deno.test("uninstall never creates a config that did not exist", () => {
  const w = world();
  uninstallTargets(w.env, [t("claude-code"), t("crush")]);
  assertEquals(readdirSync(w.home), []);
});

Deno.test("uninstall of an -auto target turns recall off and keeps the plain wiring a plain install wrote; the plain target then takes the rest", () => {
  const w = world();
  installTargets(w.env, w.self, [t("crush")]);
  installTargets(w.env, w.self, [t("crush-auto")]);
  uninstallTargets(w.env, [t("crush-auto")]);
  const cfg = readFileSync(join(w.home, ".config/crush/crush.json"), "utf8");
  assertStringIncludes(cfg, '"deja"');
  assert(!cfg.includes("PreToolUse"), cfg);
  assert(existsSync(join(w.home, ".agents/skills/deja-history/SKILL.md")), "the skill stays");
  uninstallTargets(w.env, [t("crush")]);
  assert(!existsSync(join(w.home, ".config/crush/crush.json")), "deja's own file went");
  assert(!existsSync(join(w.home, ".agents/skills/deja-history/SKILL.md")));
  assert(!existsSync(w.launcher), "nothing runs the launcher any more");
});

// Trial 102 F3: after `install --auto`, `uninstall claude-auto` also took the MCP server, skill
// and command; after `install claude-code` first, the same command took the hooks alone.
Deno.test("uninstall <h>-auto takes the hooks alone whatever the install order; the plain target takes all of deja, and says so", () => {
  const w = world();
  for (const first of [[t("claude-auto")], [t("claude-code"), t("claude-auto")]]) {
    for (const r of first) installTargets(w.env, w.self, [r]);
    const off = uninstallTargets(w.env, [t("claude-auto")]);
    const removed = off.outcomes.flatMap((o) =>
      o.changes.filter((c) => c.action === "removed").map((c) => `${o.target} ${c.kind}`)
    );
    assertEquals(removed, ["claude-auto hooks"]);
    assertEquals(targetStatus(w.env, t("claude-code")).state, "wired");
    assertEquals(targetStatus(w.env, t("claude-auto")).state, "not_wired");
    assert(existsSync(w.launcher), "the MCP server still runs it");
    uninstallTargets(w.env, [t("claude-code")]);
    assertEquals(readdirSync(w.home), [], "nothing of deja's is left in HOME");
  }
  installTargets(w.env, w.self, [t("claude-auto")]);
  const all = uninstallTargets(w.env, [t("claude-code")]);
  const hooks = all.outcomes.find((o) => o.target === "claude-auto")?.changes[0];
  assertEquals(hooks?.action, "removed");
  assertStringIncludes(hooks?.note ?? "", "with claude-code");
  assertStringIncludes(hooks?.note ?? "", "'deja uninstall claude-auto' takes the hooks alone");
  assertEquals(readdirSync(w.home), []);
  assert(!existsSync(w.launcher));
});

// `uninstall --auto` is the undo of `install --auto`: the plain wiring that install wrote goes
// too, said as such; a plain target installed before it stays.
Deno.test("uninstall --auto takes back the plain wiring install --auto wrote, and only that", () => {
  const w = world();
  mkdirSync(join(w.home, ".claude"), { recursive: true });
  mkdirSync(join(w.home, ".config/crush"), { recursive: true });
  installTargets(w.env, w.self, [t("crush")]);
  installTargets(w.env, w.self, selectTargets(w.env, { names: [], auto: true }, true));
  const off = uninstallTargets(w.env, selectTargets(w.env, { names: [], auto: true }, false));
  const mcp = off.outcomes.find((o) => o.target === "claude-code")?.changes.find((c) =>
    c.kind === "mcp"
  );
  assertEquals(mcp?.action, "removed");
  assertStringIncludes(mcp?.note ?? "", "'install --auto' wrote it");
  assertEquals(targetStatus(w.env, t("claude-code")).state, "not_wired");
  assertEquals(targetStatus(w.env, t("crush")).state, "wired", "installed before --auto: kept");
  assertEquals(targetStatus(w.env, t("crush-auto")).state, "not_wired");
});

Deno.test("a skill or command file deja did not write is kept by install and uninstall, replaced with --force", () => {
  const w = world();
  const skill = join(w.home, ".claude/skills/deja-history/SKILL.md");
  write(skill, "my own notes\n");
  const r = installTargets(w.env, w.self, [t("claude-code")]);
  const c = r.outcomes[0].changes.find((x) => x.kind === "skill");
  assertEquals(c?.action, "kept");
  assertEquals(readFileSync(skill, "utf8"), "my own notes\n");
  uninstallTargets(w.env, [t("claude-code")]);
  assertEquals(readFileSync(skill, "utf8"), "my own notes\n");
  installTargets(w.env, w.self, [t("claude-code")], { force: true });
  assertStringIncludes(readFileSync(skill, "utf8"), "deja:managed");
});

Deno.test("config locations follow CRUSH_GLOBAL_CONFIG, XDG_CONFIG_HOME, CRUSH_SKILLS_DIR and CLAUDE_CONFIG_DIR", () => {
  const w = world();
  const vars = {
    CRUSH_GLOBAL_CONFIG: join(w.root, "crushcfg"),
    XDG_CONFIG_HOME: join(w.root, "xdg"),
    CRUSH_SKILLS_DIR: join(w.root, "skills"),
    CLAUDE_CONFIG_DIR: join(w.root, "claude"),
  };
  const env = testEnv(w.home, { DEJA_HOME: join(w.root, "deja"), ...vars });
  installTargets(env, w.self, [t("crush-auto"), t("claude-auto")]);
  for (
    const p of [
      "crushcfg/crush.json",
      "xdg/crush/commands/deja.md",
      "skills/deja-history/SKILL.md",
      "claude/.claude.json",
      "claude/settings.json",
      "claude/skills/deja-history/SKILL.md",
      "claude/commands/deja.md",
    ]
  ) assert(existsSync(join(w.root, p)), `${p} is written`);
  assertEquals(readdirSync(w.home), [], "nothing lands in the default places");
});

Deno.test("doctor reports wired, not wired, stale path and broken config", () => {
  const w = world();
  const st = (name: string) => targetStatus(w.env, t(name));
  assertEquals(st("crush").state, "not_wired");
  installTargets(w.env, w.self, [t("crush-auto"), t("claude-code")]);
  assertEquals(st("crush").state, "wired");
  assertEquals(st("crush-auto").state, "wired");
  assertEquals(st("claude-code").state, "wired");
  assertEquals(st("claude-auto").state, "not_wired");
  rmSync(w.self[0]);
  const stale = st("crush-auto");
  assertEquals(stale.state, "stale_path");
  assertStringIncludes(stale.parts[0].detail ?? "", w.self[0]);
  assertEquals(st("crush").parts.find((p) => p.kind === "mcp")?.state, "stale_path");
  const moved = join(w.root, "moved", "deja");
  write(moved, "#!/bin/sh\n", 0o755);
  installTargets(w.env, [moved], [t("crush")]);
  assertEquals(st("crush").state, "wired", "re-installing from the new place repairs it");
  write(join(w.home, ".config/crush/crush.json"), "{oops");
  assertEquals(st("crush").state, "broken_config");
  assertEquals(st("crush-auto").parts[0].state, "broken_config");
  rmSync(join(w.home, ".claude/commands/deja.md"));
  const partial = st("claude-code");
  // Trial 102 F4: "not wired" above a part that is wired read as a contradiction.
  assertEquals(partial.state, "partly_wired");
  assertEquals(partial.parts.map((p) => p.state), ["wired", "wired", "not_wired"]);
});

Deno.test("doctor calls the index fresh until a store it read changes", () => {
  const w = world();
  assertEquals(indexStatus(w.env).exists, false);
  const store = Store.open(join(w.root, "deja", "index.db"), { create: true });
  const src = join(w.root, "s.jsonl");
  writeFileSync(src, "{}\n");
  const st = statSync(src);
  Q.setMeta.run(store, { key: "last_index", value: JSON.stringify({ at: Date.now() }) });
  store.db.prepare(
    "INSERT INTO sources (path, harness, kind, size, mtime) VALUES (?, 'claude', 'append', ?, ?)",
  ).run(src, st.size, Math.floor(st.mtimeMs));
  store.close();
  const fresh = indexStatus(w.env);
  assertEquals([fresh.fresh, fresh.sources, fresh.changed], [true, 1, 0]);
  writeFileSync(src, "{}\n{}\n");
  const stale = indexStatus(w.env);
  assertEquals([stale.fresh, stale.changed], [false, 1]);
});

Deno.test("--all wires the harnesses found here, --auto their -auto targets; unknown targets are named", () => {
  const w = world();
  assertThrows(() => selectTargets(w.env, { names: [], all: true }, true), DejaError);
  mkdirSync(join(w.home, ".config/crush"), { recursive: true });
  assertEquals(selectTargets(w.env, { names: [], all: true }, true).map((r) => r.name), ["crush"]);
  assertEquals(selectTargets(w.env, { names: [], auto: true }, true).map((r) => r.name), [
    "crush-auto",
  ]);
  assertEquals(
    selectTargets(w.env, { names: ["crush", "crush-auto", "claude"] }, true).map((r) => r.name),
    ["crush-auto", "claude-code"],
  );
  // Uninstall --all covers every plain target of the registry, found here or not.
  assertEquals(
    selectTargets(w.env, { names: [], all: true }, false).map((r) => r.name),
    wirables().map((x) => x.facts.target),
  );
  const e = assertThrows(() => selectTargets(w.env, { names: ["cursor-x"] }, true), DejaError);
  assertStringIncludes((e as DejaError).hint ?? "", "crush-auto");
  assertThrows(() => selectTargets(w.env, { names: [] }, true), DejaError);
});

Deno.test("the launcher runs the recorded deja, and exits 0 silently when it is gone", () => {
  const w = world();
  installTargets(w.env, w.self, [t("crush")]);
  const env = { PATH: "/usr/bin:/bin", HOME: w.home };
  const ok = spawnSync(...exactly(["sh", "-c", `${w.launcher} hook-tool --crush`], env), {
    encoding: "utf8",
  });
  assertEquals([ok.status, ok.stdout], [0, "fake deja hook-tool --crush\n"]);
  rmSync(w.self[0]);
  // The event comes from a file: a hook that exits without reading must not race a pipe
  // writer into EPIPE (which leaves spawnSync with no status at all).
  const event = join(w.root, "event.json");
  write(event, '{"event":"PreToolUse"}');
  const gone = spawnSync(
    ...exactly(["sh", "-c", `${w.launcher} hook-tool --crush < '${event}'`], env),
    { encoding: "utf8" },
  );
  assertEquals([gone.status, gone.stdout, gone.stderr], [0, "", ""]);
  const moved = join(w.root, "elsewhere", "deja");
  write(moved, '#!/bin/sh\necho "moved deja $*"\n', 0o755);
  const viaVar = spawnSync(
    ...exactly(["sh", "-c", `${w.launcher} mcp`], { ...env, DEJA_BIN: moved }),
    {
      encoding: "utf8",
    },
  );
  assertEquals(viaVar.stdout, "moved deja mcp\n", "DEJA_BIN is the second place it looks");
});

Deno.test("uninstall --auto takes back the plain wiring install --auto wrote for a harness with no -auto target, not a plain install's", () => {
  // Trial 38: `install --auto` wired goose and zed (no hooks, so no -auto target), and
  // `uninstall --auto` left both wired and their backups, saying nothing.
  const w = world();
  const goose = join(w.home, ".config/goose/config.yaml");
  const zed = join(w.home, ".config/zed/settings.json");
  write(goose, "extensions:\n  developer:\n    enabled: true\n    type: builtin\n");
  write(zed, '{\n  "theme": "One Dark",\n  "context_servers": {}\n}\n');
  const before = snapshot(w.home);
  const on = selectTargets(w.env, { names: [], auto: true }, true);
  assertEquals(on.map((r) => r.name).sort(), ["goose", "zed"]);
  installTargets(w.env, w.self, on);
  assertEquals(targetStatus(w.env, t("goose")).state, "wired");
  const off = selectTargets(w.env, { names: [], auto: true }, false);
  assertEquals(off.filter((r) => ["goose", "zed"].includes(r.name)).length, 2);
  uninstallTargets(w.env, off);
  // The same files, bytes and modes (their mtimes are the writes').
  const bytes = (s: Record<string, string>) =>
    Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.replace(/ \S+ /, " ")]));
  assertEquals(bytes(snapshot(w.home)), bytes(before));
  assert(!existsSync(w.launcher));
  // Asked for by name, goose's plain wiring is the user's choice: `uninstall --auto` keeps it.
  installTargets(w.env, w.self, selectTargets(w.env, { names: [], auto: true }, true));
  installTargets(w.env, w.self, [t("goose")]);
  uninstallTargets(w.env, selectTargets(w.env, { names: [], auto: true }, false));
  assertEquals(targetStatus(w.env, t("goose")).state, "wired");
  assertEquals(targetStatus(w.env, t("zed")).state, "not_wired");
});

Deno.test("gemini-auto's hooksConfig.enabled goes with its uninstall beside the user's hooks, and doctor warns when the user turned it off", () => {
  // Trial 38: install added `hooksConfig.enabled: true` (turning on the user's own hooks
  // too), and uninstall left it on while the user's hook stayed; with the switch off, doctor
  // said "wired" of hooks Gemini CLI never runs.
  const w = world();
  const settings = join(w.home, ".gemini/settings.json");
  const mine = '{\n  "theme": "GitHub",\n  "hooks": {"AfterTool": [{"matcher": "write_file", ' +
    '"hooks": [{"type": "command", "command": "my-linter"}]}]}\n}\n';
  write(settings, mine);
  installTargets(w.env, w.self, [t("gemini-auto")]);
  assertEquals(json(settings).hooksConfig, { enabled: true });
  uninstallTargets(w.env, [t("gemini-auto")]);
  assertEquals(json(settings).hooksConfig, undefined);
  // The MCP server is the plain target's (trial 102 F3): it goes with `uninstall gemini`.
  uninstallTargets(w.env, [t("gemini")]);
  assertEquals(readFileSync(settings, "utf8"), mine);
  // A switch the user set is theirs: kept, and a false one named by doctor.
  write(settings, '{\n  "hooksConfig": {"enabled": false}\n}\n');
  installTargets(w.env, w.self, [t("gemini-auto")]);
  assertEquals(json(settings).hooksConfig, { enabled: false });
  const hooks = targetStatus(w.env, t("gemini-auto")).parts.find((p) => p.kind === "hooks");
  // Trial 102 F6: "wired" (exit 0) of hooks Gemini CLI runs none of.
  assertEquals(hooks?.state, "will_not_run");
  assertEquals(targetStatus(w.env, t("gemini-auto")).state, "will_not_run");
  assertStringIncludes(
    hooks?.warning ?? "",
    "hooksConfig.enabled is false in ~/.gemini/settings.json",
  );
  uninstallTargets(w.env, [t("gemini-auto"), t("gemini")]);
  assertEquals(json(settings), { hooksConfig: { enabled: false } });
});

Deno.test("doctor calls deja's MCP entry with the user's own settings wired, and says whose it is", () => {
  // Trial 38: an `env` added to deja's entry made doctor say "not wired", while the entry
  // still ran deja's server.
  const w = world();
  installTargets(w.env, w.self, [t("claude-code")]);
  const path = join(w.home, ".claude.json");
  const doc = json(path);
  doc.mcpServers.deja.env = { DEJA_HOME: "/elsewhere" };
  write(path, JSON.stringify(doc, null, 2) + "\n");
  const mcp = targetStatus(w.env, t("claude-code")).parts.find((p) => p.kind === "mcp")!;
  assertEquals(mcp.state, "wired");
  // Deja's install wrote it (trial 84 F4): said as deja's entry as the user edited it.
  assertStringIncludes(mcp.warning ?? "", "deja's entry as you edited it runs deja's server");
  // Other arguments start no server (trial 41: `mcp --bogus` was "wired"): deja's launcher
  // run so fails, a fault (trial 101 F1, of hooks).
  const bogus = json(path);
  bogus.mcpServers.deja.args = ["mcp", "--bogus"];
  write(path, JSON.stringify(bogus, null, 2) + "\n");
  const off = targetStatus(w.env, t("claude-code")).parts.find((p) => p.kind === "mcp")!;
  assertEquals(off.state, "broken_entry");
  assertStringIncludes(off.detail ?? "", "'deja mcp' takes no arguments");
  write(path, JSON.stringify(doc, null, 2) + "\n");
  // Uninstall keeps it, and the launcher it runs.
  uninstallTargets(w.env, [t("claude-code")]);
  assertEquals(json(path).mcpServers.deja.env, { DEJA_HOME: "/elsewhere" });
  assert(existsSync(w.launcher), "the launcher the user's entry runs stays");
});

Deno.test("uninstall keeps the launcher a hook of deja's the user edited still runs, and says where", () => {
  // Trial 39: a flag added to deja's hook kept the hook (the user's now) while uninstall
  // removed the launcher it ran: the agent's hook then failed on every prompt.
  const w = world();
  installTargets(w.env, w.self, [t("claude-auto")]);
  const settings = join(w.home, ".claude/settings.json");
  write(
    settings,
    readFileSync(settings, "utf8").replace(
      "deja-launcher hook-prompt",
      "deja-launcher hook-prompt --no-refresh",
    ),
  );
  const off = uninstallTargets(w.env, [t("claude-auto")]);
  assertStringIncludes(readFileSync(settings, "utf8"), "hook-prompt --no-refresh");
  assertEquals([off.launcher.action, off.launcher.keptFor], ["kept", settings]);
  // Doctor names it too (trial 41: "not wired", and nothing of the hook still running deja).
  const left = targetStatus(w.env, t("claude-auto")).parts.find((p) => p.kind === "hooks")!;
  assertEquals(left.state, "partly_wired");
  assertStringIncludes(left.detail ?? "", "; still there: UserPromptSubmit hook-prompt");
  // And said of the hooks (trial 40: "removed" was all it printed), with how it goes too
  // (trial 102 F4).
  const hooks = off.outcomes.flatMap((o) => o.changes).find((c) => c.kind === "hooks");
  assertEquals([hooks?.action, hooks?.note], [
    "kept",
    "a hook of deja's you edited is kept as yours; deja's others were removed; " +
    "'deja uninstall claude-auto --force' removes it too",
  ]);
  assert(existsSync(w.launcher), "the launcher the edited hook runs stays");
  // Taken out by hand, the next uninstall removes the launcher (with the MCP server, the
  // plain target's, which `uninstall claude-auto` leaves: trial 102 F3).
  const doc = json(settings);
  delete doc.hooks;
  write(settings, JSON.stringify(doc) + "\n");
  assertEquals(uninstallTargets(w.env, [t("claude-code")]).launcher.action, "removed");
  assert(!existsSync(w.launcher));
});

Deno.test("deja's goose entry turned off by hand is said so by doctor, and uninstall takes it", () => {
  // Trial 39: doctor said "wired" (and "runs deja's server") of `enabled: false`, and
  // uninstall kept it as "not deja's".
  const w = world();
  const goose = join(w.home, ".config/goose/config.yaml");
  const before = "extensions:\n  developer:\n    enabled: true\n    type: builtin\n";
  write(goose, before);
  installTargets(w.env, w.self, [t("goose")]);
  write(goose, readFileSync(goose, "utf8").replace(/(deja:[\s\S]*?enabled:) true/, "$1 false"));
  assertStringIncludes(readFileSync(goose, "utf8"), "enabled: false");
  const mcp = targetStatus(w.env, t("goose")).parts.find((p) => p.kind === "mcp")!;
  assertEquals([mcp.state, mcp.detail], [
    "not_wired",
    "deja's entry is there, turned off (enabled: false)",
  ]);
  // Install leaves it off, and says so (trial 40: turned back on, "updated").
  const again = installTargets(w.env, w.self, [t("goose")]);
  assertEquals(again.outcomes[0].changes.map((c) => [c.action, c.note]), [
    ["kept", "turned off by you; --force turns it back on"],
  ]);
  assertStringIncludes(readFileSync(goose, "utf8"), "enabled: false");
  const off = uninstallTargets(w.env, [t("goose")]);
  assertEquals(off.outcomes[0].changes.map((c) => c.action), ["removed"]);
  assertEquals(readFileSync(goose, "utf8"), before);
});

Deno.test("install says it set the switch Gemini CLI's hooks need, in a settings file of the user's", () => {
  // Trials 38, 40, 41: `hooksConfig.enabled` was set without a word, turning on the user's own
  // hooks in that file too.
  const w = world();
  const settings = join(w.home, ".gemini/settings.json");
  write(settings, '{\n  "theme": "GitHub"\n}\n');
  const on = installTargets(w.env, w.self, [t("gemini-auto")]);
  const hooks = on.outcomes.flatMap((o) => o.changes).find((c) => c.kind === "hooks");
  assertEquals(hooks?.action, "updated");
  assertStringIncludes(hooks?.note ?? "", "set hooksConfig.enabled = true: the hooks run only");
  // Nothing to say once it is there, nor of a file deja creates.
  const again = installTargets(w.env, w.self, [t("gemini-auto")]);
  assertEquals(
    again.outcomes.flatMap((o) => o.changes).find((c) => c.kind === "hooks")?.note,
    undefined,
  );
  const fresh = world();
  const made = installTargets(fresh.env, fresh.self, [t("gemini-auto")]);
  const created = made.outcomes.flatMap((o) => o.changes).find((c) => c.kind === "hooks");
  assertEquals(created?.note, undefined);
});

Deno.test("a ~/.claude.json over 8 MiB is installed into and uninstalled from as any other", () => {
  // Trial 58: a valid 8.4 MB ~/.claude.json (Claude Code grows it with every project's
  // history) was "not valid JSON (EFBIG)": deja could neither install nor uninstall there.
  const w = world();
  const path = join(w.home, ".claude.json");
  const big = JSON.stringify({ projects: { "/w/app": { history: "x".repeat(9 << 20) } } });
  write(path, big);
  const r = installTargets(w.env, w.self, [t("claude-code")]);
  assertEquals(r.outcomes[0].refused, undefined);
  assertEquals(json(path).mcpServers.deja.command, w.launcher);
  assertEquals(json(path).projects["/w/app"].history.length, 9 << 20);
  assertEquals(
    targetStatus(w.env, { name: "claude-code", harness: t("claude-code").harness, auto: false })
      .state,
    "wired",
  );
  uninstallTargets(w.env, [t("claude-code")]);
  assertEquals(readFileSync(path, "utf8"), big);
});

Deno.test("doctor and install warn when Claude Code's disableAllHooks stops deja's hooks", async () => {
  // Trial 58: with `disableAllHooks: true` doctor said claude-auto "wired" with no warning.
  const w = world();
  installTargets(w.env, w.self, [t("claude-auto")]);
  const path = join(w.home, ".claude/settings.json");
  const status = () =>
    targetStatus(w.env, { name: "claude-auto", harness: t("claude-auto").harness, auto: true });
  assertEquals(status().parts.map((p) => p.warning).filter(Boolean), []);
  write(path, JSON.stringify({ ...json(path), disableAllHooks: true }));
  // Install says so too (trial 60: doctor alone did), its dry run as well (trial 61).
  const { autoNotes } = await import("../lib/cli/_wire.ts");
  const dry = installTargets(w.env, w.self, [t("claude-auto")], { dryRun: true });
  assertStringIncludes(autoNotes(dry, w.env).join(" "), "disableAllHooks is true");
  const again = installTargets(w.env, w.self, [t("claude-auto")]);
  assertStringIncludes(autoNotes(again, w.env).join(" "), "disableAllHooks is true");
  const s = status();
  assertEquals(s.state, "will_not_run", "trial 102 F6: not 'wired'");
  assertStringIncludes(
    s.parts.map((p) => p.warning ?? "").join(" "),
    "disableAllHooks is true in ~/.claude/settings.json: the harness runs no hook",
  );
});

Deno.test("install beside the user's own deja hooks says it wrote the others, not that it kept the file", () => {
  // Trial 58: with hand-written `deja hook-prompt` and `deja hook-context` hooks, install said
  // "kept … (not written by deja)" and `"action": "kept"`, having added three hooks.
  const w = world();
  const path = join(w.home, ".claude/settings.json");
  write(
    path,
    JSON.stringify({
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: "command", command: "deja hook-prompt" }] }],
        SessionStart: [{ hooks: [{ type: "command", command: "deja hook-context" }] }],
      },
    }),
  );
  const r = installTargets(w.env, w.self, [t("claude-auto")]);
  const hooksOf = (o: typeof r) =>
    o.outcomes.flatMap((x) => x.changes).find((x) => x.kind === "hooks" && x.path === path)!;
  const c = hooksOf(r);
  assertEquals(c.action, "updated");
  assertStringIncludes(c.note ?? "", "yours that run the same deja commands kept");
  const hooks = json(path).hooks;
  assertEquals(hooks.UserPromptSubmit[0].hooks[0].command, "deja hook-prompt");
  assertEquals(hooks.PreToolUse[0].hooks[0].command, `${w.launcher} hook-tool`);
  // With every one of them the user's, the file is kept and said so.
  const again = installTargets(w.env, w.self, [t("claude-auto")]);
  assertEquals(hooksOf(again).action, "kept");
});

Deno.test("uninstall keeps the launcher that a config wired under another CLAUDE_CONFIG_DIR runs, and says so", () => {
  // Trial 58: `CLAUDE_CONFIG_DIR=~/.claude-work deja install claude-auto`, then a plain
  // `uninstall --all` removed the launcher those hooks run: every hook failed with exit 127.
  const w = world();
  const work = join(w.home, ".claude-work");
  mkdirSync(work);
  const other = testEnv(w.home, {
    DEJA_HOME: w.env.get("DEJA_HOME")!,
    CLAUDE_CONFIG_DIR: work,
  });
  installTargets(other, w.self, [t("claude-auto")]);
  const settings = join(work, "settings.json");
  assertStringIncludes(readFileSync(settings, "utf8"), w.launcher);
  const r = uninstallTargets(w.env, selectTargets(w.env, { names: [], all: true }, false));
  assertEquals([r.launcher.action, r.launcher.keptElsewhere], ["kept", true]);
  assert(r.launcher.keptFor?.startsWith(work + "/"), r.launcher.keptFor);
  assert(existsSync(w.launcher), "the hooks there still run it");
  // Under the same settings, uninstall takes it all, the launcher last.
  const again = uninstallTargets(other, [t("claude-auto"), t("claude-code")]);
  assertEquals(again.launcher.action, "removed");
  assert(!existsSync(settings), "deja created it: removed");
});

Deno.test("install keeps deja's skill as the user edited it, and --force replaces it with a backup", () => {
  // Trial 58: a line added to deja's SKILL.md was overwritten by the next install, no --force,
  // no backup, while an edited MCP entry was kept.
  const w = world();
  installTargets(w.env, w.self, [t("claude-code")]);
  const skill = join(w.home, ".claude/skills/deja-history/SKILL.md");
  const mine = readFileSync(skill, "utf8") + "\nAlways search with --junk.\n";
  writeFileSync(skill, mine);
  const again = installTargets(w.env, w.self, [t("claude-code")]);
  const c = again.outcomes.flatMap((o) => o.changes).find((x) => x.path === skill)!;
  assertEquals(c.action, "kept");
  assertStringIncludes(c.note ?? "", "edited since deja wrote it; --force replaces it");
  assertEquals(readFileSync(skill, "utf8"), mine);
  const forced = installTargets(w.env, w.self, [t("claude-code")], { force: true });
  assertEquals(
    forced.outcomes.flatMap((o) => o.changes).find((x) => x.path === skill)?.action,
    "updated",
  );
  assert(!readFileSync(skill, "utf8").includes("Always search with --junk."));
  assertEquals(readFileSync(`${skill}.deja.bak`, "utf8"), mine, "the user's edit is backed up");
  // A second edit forced over is kept beside the first one's backup, and said where (trial
  // 61: deja keeps one backup, so the second edit was lost, "updated").
  const second = readFileSync(skill, "utf8") + "\nAnd a second edit.\n";
  writeFileSync(skill, second);
  const twice = installTargets(w.env, w.self, [t("claude-code")], { force: true });
  const note = twice.outcomes.flatMap((o) => o.changes).find((x) => x.path === skill)?.note ?? "";
  assertStringIncludes(note, "your edited copy kept as ");
  const copies = readdirSync(dirname(skill)).filter((f) =>
    /^SKILL\.md\.edited-\d{14}\.bak$/.test(f)
  );
  assertEquals(copies.length, 1, readdirSync(dirname(skill)).join(" "));
  assertEquals(readFileSync(join(dirname(skill), copies[0]), "utf8"), second);
  assertEquals(readFileSync(`${skill}.deja.bak`, "utf8"), mine, "the first backup stays");
  // A third within the same second takes a name of its own (trial 62: it shared the second's).
  const third0 = readFileSync(skill, "utf8") + "\nA third edit.\n";
  writeFileSync(skill, third0);
  installTargets(w.env, w.self, [t("claude-code")], { force: true });
  const saved = readdirSync(dirname(skill)).filter((f) => f.includes(".edited-"))
    .map((f) => readFileSync(join(dirname(skill), f), "utf8"));
  assert(saved.includes(second) && saved.includes(third0), saved.join(" | "));
  // Written by deja and untouched since: a later install updates it as before.
  const third = installTargets(w.env, w.self, [t("claude-code")]);
  assertEquals(
    third.outcomes.flatMap((o) => o.changes).find((x) => x.path === skill)?.action,
    "unchanged",
  );
  // Uninstall keeps it too once edited (trial 60: it deleted the user's lines, "removed").
  const edited = readFileSync(skill, "utf8") + "\nMy own line.\n";
  writeFileSync(skill, edited);
  const un = uninstallTargets(w.env, [t("claude-code")]);
  const kept = un.outcomes.flatMap((o) => o.changes).find((x) => x.path === skill)!;
  assertEquals(kept.action, "kept");
  assertStringIncludes(kept.note ?? "", "edited since deja wrote it: kept as yours");
  assertEquals(readFileSync(skill, "utf8"), edited);
});

Deno.test("uninstall says it left Gemini's hooksConfig.enabled on beside the user's hooks when no record says deja set it", () => {
  // Trial 58: with deja's data folder reset, uninstall said "removed" and left the switch on,
  // which kept the user's own hook running (it was off before install).
  const w = world();
  const path = join(w.home, ".gemini/settings.json");
  const mine = { hooks: { BeforeTool: [{ hooks: [{ type: "command", command: "./audit.sh" }] }] } };
  write(path, JSON.stringify(mine));
  installTargets(w.env, w.self, [t("gemini-auto")]);
  assertEquals(json(path).hooksConfig, { enabled: true });
  rmSync(join(w.env.get("DEJA_HOME")!, "install-state.json"));
  const r = uninstallTargets(w.env, [t("gemini-auto")]);
  const c = r.outcomes.flatMap((o) => o.changes).find((x) =>
    x.kind === "hooks" && x.path === path
  )!;
  assertEquals(c.action, "removed");
  assertStringIncludes(
    c.note ?? "",
    "left hooksConfig.enabled = true: your own hooks here need it",
  );
  assertEquals(json(path).hooks.BeforeTool[0].hooks[0].command, "./audit.sh");
});

Deno.test("uninstall says it restored the user's file that --force replaced, not that it removed it", () => {
  // Trial 61: uninstall said "removed" of deja.md while it put back the user's own file.
  const w = world();
  const cmd = join(w.home, ".claude/commands/deja.md");
  write(cmd, "my own deja command\n");
  installTargets(w.env, w.self, [t("claude-code")], { force: true });
  assert(readFileSync(cmd, "utf8").includes("$ARGUMENTS"), "deja's replaced it");
  const un = uninstallTargets(w.env, [t("claude-code")]);
  assertEquals(
    un.outcomes.flatMap((o) => o.changes).find((x) => x.path === cmd)?.action,
    "restored",
  );
  assertEquals(readFileSync(cmd, "utf8"), "my own deja command\n");
});

Deno.test("a null MCP entry under deja's name is no entry: install writes deja's, doctor says not wired, uninstall puts the null back (trial 121 L3)", () => {
  const w = world();
  const path = join(w.home, ".claude.json");
  const original =
    '{\n  "numStartups": 3,\n  "mcpServers": { "deja": null, "other": {"command": "x"} }\n}\n';
  write(path, original);
  const before = targetStatus(w.env, t("claude-code")).parts.find((p) => p.kind === "mcp")!;
  assertEquals([before.state, before.theirs, before.detail], ["not_wired", undefined, undefined]);
  const rep = installTargets(w.env, w.self, [t("claude-code")]);
  const mcp = rep.outcomes[0].changes.find((c) => c.path === path)!;
  assert(mcp.action !== "kept", JSON.stringify(mcp));
  const servers = json(path).mcpServers as Record<string, { command?: string }>;
  assertEquals(servers.deja?.command, launcherPath(w.env));
  assertEquals(servers.other, { command: "x" });
  const now = targetStatus(w.env, t("claude-code")).parts.find((p) => p.kind === "mcp")!;
  assertEquals(now.state, "wired");
  uninstallTargets(w.env, [t("claude-code")]);
  assertEquals(readFileSync(path, "utf8"), original);
});
