/**
 * The `-auto` targets of Kimi Code (`[[hooks]]` tables in config.toml), Hermes
 * (`pre_llm_call` shell hooks in config.yaml, answered as `{"context": ...}`),
 * Kilo CLI and omp (plugin and extension files), and the harnesses that get
 * none (a clear error naming the plain target). Everything under a temp HOME;
 * the hooks run against a small index of their own.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { read, roundTrip, t, world, write } from "./_install_world.ts";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { launcherPath } from "../lib/install/launcher.ts";
import { parseConfig } from "../lib/install/formats.ts";
import { selectTargets } from "../lib/install/select.ts";
import { targetStatus } from "../lib/install/doctor.ts";
import { DejaError } from "../core/errors.ts";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import type { Env } from "../core/model.ts";
import { indexSessions } from "./_memory.ts";

type Obj = Record<string, unknown>;

Deno.test("kimi-auto: [[hooks]] tables join Kimi Code's config.toml; comments and the user's hooks kept", () => {
  const w = world();
  try {
    const path = join(w.home, ".kimi-code", "config.toml");
    const original = `# Kimi Code settings
default_model = "kimi-k2"   # keep

[[hooks]]
event = "PreToolUse"
matcher = "Shell"
command = "~/bin/guard.sh"   # the user's own
`;
    const after = roundTrip(w, "kimi-auto", path, original);
    assert(after.startsWith(original), `the user's bytes stay first:\n${after}`);
    const v = parseConfig(after, "toml") as { hooks: Obj[] };
    assertEquals(v.hooks.length, 3);
    assertEquals(v.hooks[0].command, "~/bin/guard.sh");
    const mine = v.hooks.slice(1);
    assertEquals(mine.map((h) => h.event), ["UserPromptSubmit", "UserPromptSubmit"]);
    // Kimi Code's schema is strict: exactly event, matcher?, command, timeout.
    for (const h of mine) assertEquals(Object.keys(h).sort(), ["command", "event", "timeout"]);
    assertStringIncludes(String(mine[1].command), "hook-prompt --harness kimi");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("kimi-auto: doctor says wired, and uninstall leaves no hooks key behind", () => {
  const w = world();
  try {
    const path = join(w.home, ".kimi-code", "config.toml");
    installTargets(w.env, w.self, [t("kimi-auto")]);
    assertEquals(targetStatus(w.env, t("kimi-auto")).state, "wired");
    uninstallTargets(w.env, [t("kimi-auto")]);
    assert(!existsSync(path), "the config deja created goes again");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("kimi-auto: a hooks value that is not a list is refused and left untouched", () => {
  const w = world();
  try {
    const path = join(w.home, ".kimi-code", "config.toml");
    const original = `[hooks]\nsession_start = "x"\n`;
    write(path, original);
    const r = installTargets(w.env, w.self, [t("kimi-auto")]);
    assert(r.aborted);
    const auto = r.outcomes.find((o) => o.target === "kimi-auto");
    assertStringIncludes(String(auto?.refused), "hooks is not a list");
    // The plain target, which kimi-auto writes too, has its row (trial 102 F1).
    assertStringIncludes(String(r.outcomes.find((o) => o.target === "kimi")?.refused), "kimi-auto");
    assertEquals(read(path), original);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("hermes-auto: pre_llm_call hooks join config.yaml beside the MCP server; only deja's lines change", () => {
  const w = world();
  try {
    const path = join(w.home, ".hermes", "config.yaml");
    const original = `model:
  default: "anthropic/claude-sonnet-4"   # keep me
toolsets: [hermes-cli,  web]
hooks:
  post_tool_call:
    - matcher: "write_file|patch"
      command: "~/.hermes/agent-hooks/auto-format.sh"
`;
    write(path, original);
    installTargets(w.env, w.self, [t("hermes-auto")]);
    const after = read(path);
    installTargets(w.env, w.self, [t("hermes-auto")]);
    assertEquals(read(path), after, "a second install changes no byte");
    assertStringIncludes(after, `  default: "anthropic/claude-sonnet-4"   # keep me\n`);
    assertStringIncludes(after, "toolsets: [hermes-cli,  web]\n");
    const v = parseConfig(after, "yaml") as { hooks: Record<string, Obj[]>; mcp_servers: Obj };
    assertEquals(v.hooks.post_tool_call.length, 1);
    assertEquals(v.hooks.pre_llm_call.map((h) => Object.keys(h).sort()), [
      ["command", "timeout"],
      ["command", "timeout"],
    ]);
    assertEquals((v.mcp_servers.deja as Obj).command, launcherPath(w.env));
    const s = targetStatus(w.env, t("hermes-auto"));
    assertEquals(s.state, "wired");
    uninstallTargets(w.env, [t("hermes")]);
    assertEquals(read(path), original, "uninstall gives back the original bytes");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("kilocode-auto and omp-auto write their plugin and extension with their own dialect", () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("kilocode-auto"), t("omp-auto")]);
    const kilo = read(join(w.home, ".config", "kilo", "plugins", "deja.js"));
    assertStringIncludes(kilo, `"hook-prompt", "--harness", "kilocode"`);
    assertStringIncludes(kilo, "server:");
    const omp = read(join(w.home, ".omp", "agent", "extensions", "deja-auto.js"));
    assertStringIncludes(omp, `"hook-context", "--harness", "omp"`);
    assertStringIncludes(omp, `pi.on("before_agent_start"`);
    uninstallTargets(w.env, [t("kilocode-auto"), t("omp-auto")]);
    assert(!existsSync(join(w.home, ".config", "kilo", "plugins", "deja.js")));
    assert(!existsSync(join(w.home, ".omp", "agent", "extensions", "deja-auto.js")));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("an -auto target of a harness without one is an error naming why and the plain target", () => {
  const w = world();
  try {
    for (
      const [name, plain] of [["goose-auto", "goose"], ["amp-auto", "amp"], [
        "antigravity-auto",
        "antigravity",
      ]]
    ) {
      let err: unknown;
      try {
        selectTargets(w.env, { names: [name] }, true);
      } catch (e) {
        err = e;
      }
      assert(err instanceof DejaError, name);
      assertEquals(err.exitCode, 2);
      assertStringIncludes(err.message, "gets no automatic recall");
      assertStringIncludes(String(err.hint), `deja install ${plain}`);
    }
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("kimi-auto: refused with a hint and nothing written when only Kimi CLI's ~/.kimi is here", async () => {
  const w = world();
  try {
    mkdirSync(join(w.home, ".kimi"));
    let err: unknown;
    try {
      selectTargets(w.env, { names: ["kimi-auto"] }, true);
    } catch (e) {
      err = e;
    }
    assert(err instanceof DejaError);
    assertEquals(err.exitCode, 2);
    assertStringIncludes(err.message, "Kimi Code was not found (no ~/.kimi-code)");
    assertStringIncludes(String(err.hint), "KIMI_CODE_HOME");
    assertStringIncludes(String(err.hint), "'deja install kimi'");
    // Through the command: exit 2, and no file of any kind appears.
    const r = await run(w.env, ["install", "kimi-auto", "--no-index"], "");
    assertEquals(r.code, 2);
    assert(!existsSync(join(w.home, ".kimi-code")));
    assert(!existsSync(join(w.home, ".kimi", "mcp.json")));
    assert(!existsSync(launcherPath(w.env)));
    // Uninstall still takes it (whatever an older deja wrote).
    assertEquals(selectTargets(w.env, { names: ["kimi-auto"] }, false).map((x) => x.name), [
      "kimi-auto",
    ]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("install --auto wires Kimi CLI's MCP server, not kimi-auto, until Kimi Code is here", () => {
  const w = world();
  try {
    mkdirSync(join(w.home, ".kimi"));
    const names = () =>
      selectTargets(w.env, { names: [], auto: true }, true).map((x) => x.name)
        .filter((n) => n.startsWith("kimi"));
    assertEquals(names(), ["kimi"]);
    mkdirSync(join(w.home, ".kimi-code"));
    assertEquals(names(), ["kimi-auto"]);
    assertEquals(selectTargets(w.env, { names: ["kimi-auto"] }, true).map((x) => x.name), [
      "kimi-auto",
    ]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

async function run(env: Env, args: string[], stdin: string) {
  const out: string[] = [];
  const io: IO = {
    args,
    env,
    cwd: "/",
    out: (t) => out.push(t),
    err: () => {},
    isTTY: false,
    errTTY: false,
    readStdin: () => Promise.resolve(stdin),
  };
  return { code: await main(io), out: out.join("") };
}

Deno.test("Hermes's pre_llm_call event gets {context} with the prompt read from extra.user_message", async () => {
  // Enough other sessions that the prompt's rare word stands out.
  const filler = Array.from({ length: 12 }, (_, i) => ({
    id: `f${String(i).padStart(2, "0")}f0000-0000-4000-8000-0000000000${
      String(i).padStart(2, "0")
    }`,
    cwd: "/w/garden",
    start: `2026-09-${String(i + 1).padStart(2, "0")}T10:00:00Z`,
    turns: [{ user: `chore number ${i}: lint the css` }, { say: `Done with chore ${i}.` }],
  }));
  const ix = await indexSessions([...filler, {
    id: "e5e50005-0000-4000-8000-000000000005",
    cwd: "/w/garden",
    start: "2026-10-07T10:00:00Z",
    turns: [
      { user: "Why does the quincefrost sensor drift at night?" },
      { say: "The quincefrost sensor drifts because its heater cycles; fixed the duty cycle." },
    ],
  }]);
  try {
    const ev = JSON.stringify({
      hook_event_name: "pre_llm_call",
      session_id: "h1",
      cwd: "/w/garden",
      extra: { user_message: "the quincefrost sensor drifts again", is_first_turn: true },
    });
    const r = await run(ix.env, ["hook-prompt", "--harness", "hermes"], ev);
    assertEquals(r.code, 0);
    const v = JSON.parse(r.out) as { context: string };
    assertStringIncludes(v.context, "quincefrost");
    const k = await run(ix.env, ["hook-prompt", "--harness", "kimi"], ev.replace('"extra"', '"x"'));
    assertEquals(k.code, 0);
  } finally {
    ix.cleanup();
  }
});

Deno.test("kimi-auto: a timeout above Kimi Code's 600 s is a broken entry for doctor, and install sets deja's (trial 121 M3)", () => {
  const w = world();
  try {
    const path = join(w.home, ".kimi-code", "config.toml");
    installTargets(w.env, w.self, [t("kimi-auto")]);
    const ours = read(path);
    write(path, ours.replaceAll("timeout = 10", "timeout = 900"));
    const st = targetStatus(w.env, t("kimi-auto"));
    assertEquals(st.state, "broken_entry");
    assertStringIncludes(JSON.stringify(st), "outside the 1-600 s the harness accepts");
    // Install keeps no timeout the harness refuses: deja's goes back, and is said.
    const rep = installTargets(w.env, w.self, [t("kimi-auto")]);
    assertEquals(read(path), ours);
    assertStringIncludes(JSON.stringify(rep.outcomes), "above the 600 s the harness accepts");
    assertEquals(targetStatus(w.env, t("kimi-auto")).state, "wired");
    // One within the range stays the user's.
    write(path, ours.replaceAll("timeout = 10", "timeout = 45"));
    installTargets(w.env, w.self, [t("kimi-auto")]);
    assertStringIncludes(read(path), "timeout = 45");
    assertEquals(targetStatus(w.env, t("kimi-auto")).state, "wired");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
