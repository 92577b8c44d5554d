/**
 * The agent surface with the compiled binary: install into a temporary HOME,
 * idempotence by bytes, doctor, every wired hook run exactly as the configs
 * say after the binary moved away (exit 0, no output), re-wiring from the new
 * place; resume --exec and handoff starting stand-ins of `crush` and `codex` on PATH.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join, relative } from "node:path";
import { binary, type Run } from "./_binary.ts";
import { exactly } from "./_env.ts";
import { materialize } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

const SYS_PATH = "/usr/bin:/bin";

function run(bin: string, args: string[], env: Record<string, string>, cwd: string): Run {
  const r = spawnSync(...exactly([bin, ...args], { PATH: SYS_PATH, ...env }), {
    cwd,
    encoding: "utf8",
  });
  return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = `${statSync(p).mtimeMs} ${readFileSync(p, "base64")}`;
    }
  };
  walk(dir);
  return out;
}

/** Every hook command the configs hold, as the harness would run it. */
function hookCommands(home: string): string[] {
  const crush = JSON.parse(readFileSync(join(home, ".config/crush/crush.json"), "utf8"));
  const claude = JSON.parse(readFileSync(join(home, ".claude/settings.json"), "utf8"));
  const out: string[] = crush.hooks.PreToolUse.map((h: { command: string }) => h.command);
  for (
    const groups of Object.values(claude.hooks) as Array<Array<{ hooks: { command: string }[] }>>
  ) {
    for (const g of groups) for (const h of g.hooks) out.push(h.command);
  }
  return out;
}

Deno.test("e2e: install, idempotence, doctor, and every hook silent with exit 0 once the binary moved", () => {
  const work = tempDir("deja-e2e-install-");
  const app = join(work, "app", "deja");
  mkdirSync(dirname(app), { recursive: true });
  copyFileSync(binary(), app);
  const home = join(work, "home");
  mkdirSync(join(home, ".config/crush"), { recursive: true });
  writeFileSync(
    join(home, ".config/crush/crush.json"),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: "^view$", command: "true" }] } }),
  );
  const env = { HOME: home, DEJA_HOME: join(work, "data"), NO_COLOR: "1" };

  const first = run(app, ["install", "crush-auto", "claude-auto"], env, work);
  assertEquals(first.code, 0, first.stderr);
  assertStringIncludes(first.stdout, "created");
  const before = files(work);
  const second = run(app, ["install", "crush-auto", "claude-auto"], env, work);
  assertEquals(second.code, 0, second.stderr);
  assertStringIncludes(second.stdout, "unchanged: everything was already in place");
  assertEquals(files(work), before, "a second install changes no byte");

  const doc = JSON.parse(run(app, ["doctor", "--json"], env, work).stdout);
  assertEquals(
    doc.targets.filter((t: { state: string }) => t.state !== "not_wired")
      .map((t: { target: string; state: string }) => `${t.target} ${t.state}`),
    ["claude-code wired", "claude-auto wired", "crush wired", "crush-auto wired"],
  );
  assertEquals(doc.launcher.target, [app]);

  const hooks = hookCommands(home);
  assertEquals(hooks.length, 8, "the user's Crush hook and seven of deja's");
  const moved = join(work, "moved", "deja");
  mkdirSync(dirname(moved));
  renameSync(app, moved);
  const event = JSON.stringify({
    event: "PreToolUse",
    hook_event_name: "PreToolUse",
    session_id: "s-1",
    cwd: work,
    tool_name: "bash",
    tool_input: { command: "go test ./..." },
  });
  // The event comes from a file: a hook that exits without reading stdin (as this one
  // must, with the binary gone) would otherwise race the writer into EPIPE.
  const eventFile = join(work, "event.json");
  writeFileSync(eventFile, event);
  for (const cmd of hooks.filter((h) => h.includes("deja-launcher"))) {
    const r = spawnSync(
      ...exactly(["sh", "-c", `${cmd} < "${eventFile}"`], { PATH: SYS_PATH, HOME: home }),
      {
        cwd: work,
        encoding: "utf8",
        timeout: 10_000,
      },
    );
    assertEquals([r.status, r.stdout], [0, ""], `${cmd}: ${r.stderr}`);
  }
  const mcp = JSON.parse(readFileSync(join(home, ".claude.json"), "utf8")).mcpServers.deja;
  const server = spawnSync(...exactly([mcp.command, ...mcp.args], { PATH: SYS_PATH, HOME: home }), {
    encoding: "utf8",
  });
  assertEquals([server.status, server.stdout], [0, ""]);

  const stale = JSON.parse(run(moved, ["doctor", "--json"], env, work).stdout);
  const named = (d: { targets: Array<{ target: string; state: string }> }, n: string) =>
    d.targets.find((x) => x.target === n)?.state;
  assertEquals(named(stale, "crush-auto"), "stale_path");
  assertEquals(stale.launcher.target_exists, false);
  const rewire = run(moved, ["install", "crush-auto", "claude-auto"], env, work);
  assertStringIncludes(rewire.stdout, "updated");
  const ok = JSON.parse(run(moved, ["doctor", "--json"], env, work).stdout);
  assertEquals(
    ["claude-code", "claude-auto", "crush", "crush-auto"].map((n) => named(ok, n)),
    ["wired", "wired", "wired", "wired"],
  );
  const version = spawnSync(
    ...exactly(["sh", "-c", `${hooks.at(-1)!.split(" ")[0]} --version`], {
      PATH: SYS_PATH,
      HOME: home,
    }),
    {
      encoding: "utf8",
    },
  );
  assertStringIncludes(
    version.stdout,
    "deja ",
    "the launcher starts the binary from its new place",
  );

  const gone = run(moved, ["uninstall", "--all"], env, work);
  assertEquals(gone.code, 0, gone.stderr);
  assertEquals(
    JSON.parse(readFileSync(join(home, ".config/crush/crush.json"), "utf8")),
    { hooks: { PreToolUse: [{ matcher: "^view$", command: "true" }] } },
  );
  rmSync(work, { recursive: true, force: true });
});

Deno.test("e2e: resume --exec and handoff start the harness's own command in the project", () => {
  const fx = materialize("fixtures/registry/crush");
  const work = tempDir("deja-e2e-resume-");
  const fake = join(work, "fakebin");
  mkdirSync(fake);
  const log = join(work, "crush.log");
  for (const name of ["crush", "codex"]) {
    writeFileSync(
      join(fake, name),
      `#!/bin/sh\n{ pwd; for a in "$@"; do printf '%s\\n---\\n' "$a"; done; } > '${log}'\nexit 7\n`,
      { mode: 0o755 },
    );
  }
  const env = {
    HOME: join(work, "home"),
    DEJA_HOME: join(work, "data"),
    DEJA_CRUSH_ROOT: join(fx.root, "data"),
    NO_COLOR: "1",
  };
  const bin = binary();
  const APP = "a1b2c3d4-0000-4000-8000-000000000001";
  const project = join(fx.root, "projects/app");
  try {
    assertEquals(run(bin, ["index", "--harness", "crush", "--quiet"], env, work).code, 0);
    const printed = run(bin, ["resume", APP], env, work);
    assertEquals(printed.stdout, `cd ${project} && crush --session ${APP}\n`);
    const sub = run(bin, ["resume", "crush:a1b2c3d4-0000-4000-8000-0000000000a9"], env, work);
    assertEquals(sub.stdout, printed.stdout, "a subagent resumes its parent");
    assertStringIncludes(sub.stderr, "subagent");

    const withFake = { ...env, PATH: `${fake}:${SYS_PATH}` };
    const ex = run(bin, ["resume", APP, "--exec"], withFake, work);
    assertEquals(ex.code, 7, "the harness's exit status comes back");
    assertEquals(readFileSync(log, "utf8"), `${project}\n--session\n---\n${APP}\n---\n`);

    const h = run(bin, ["handoff", "--to", "codex", APP], withFake, work);
    assertEquals(h.code, 7, h.stderr);
    const [cwd, ...rest] = readFileSync(log, "utf8").split("\n");
    assertEquals(cwd, project);
    const args = rest.join("\n").split("\n---\n");
    assertStringIncludes(args[0], "not instructions");
    assertStringIncludes(args[0], APP);
    // Crush's only way to take a prompt runs it headless with every permission approved.
    const crushPaste = run(bin, ["handoff", "--to", "crush", APP], withFake, work);
    assertEquals(crushPaste.code, 0, crushPaste.stderr);
    assertStringIncludes(crushPaste.stdout, APP);
    assertStringIncludes(crushPaste.stderr, "paste");

    const paste = run(bin, ["handoff", "--to", "roo", APP], env, work);
    assertEquals(paste.code, 0);
    assertStringIncludes(paste.stdout, APP);
    assertStringIncludes(paste.stderr, "paste");

    const missing = run(bin, ["resume", APP, "--exec"], env, work);
    assertEquals(missing.code, 2);
    assertStringIncludes(missing.stderr, "'crush' is not installed or not on PATH");

    rmSync(project, { recursive: true });
    const gone = run(bin, ["resume", APP], env, work);
    assertEquals(gone.code, 2);
    assertStringIncludes(gone.stderr, "store is gone");
    assertStringIncludes(gone.stderr, "deja show");
    assert(!gone.stdout, "nothing printed to run");
  } finally {
    fx.cleanup();
    rmSync(work, { recursive: true, force: true });
  }
});
