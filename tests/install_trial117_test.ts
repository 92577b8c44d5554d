/**
 * Install and doctor as trial 117 met them: Kimi Code's first `[[hooks]]` table joins a
 * config.toml that holds anything already, a target deja cannot read or edit is refused and
 * named while the others go on (install, `--auto`, doctor), a TOML file with both line endings
 * keeps each line's own and hears nothing from the TOML library, and doctor says of the user's
 * own `deja` MCP entry (or file) what install says: kept, `--force` replaces it.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { read, roundTrip, t, world, write } from "./_install_world.ts";
import { runMain } from "./_cli_io.ts";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { installTargets } from "../lib/install/run.ts";
import { targetStatus } from "../lib/install/doctor.ts";
import { parseConfig } from "../lib/install/formats.ts";
import { doctorData, doctorText, wireHint } from "../lib/cli/cmd_doctor.ts";

type Obj = Record<string, unknown>;

const io = (env: Parameters<typeof doctorText>[1]["env"]) => ({ isTTY: false, env });

/** A YAML text whose aliases expand past what the yaml library reads (it throws, no parse error). */
function aliasBomb(): string {
  let text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  let prev = "a";
  for (const n of "bcdefg") {
    text += `${n}: &${n} [${Array(10).fill(`*${prev}`).join(", ")}]\n`;
    prev = n;
  }
  return text;
}

Deno.test("trial 117 F1: kimi-auto's first [[hooks]] tables join a config.toml that holds other keys", () => {
  for (
    const original of [
      '# kimi\ndefault_model = "kimi-k2"\n',
      'default_model = "kimi-k2"', // no final newline
      '# kimi\r\ndefault_model = "kimi-k2"\r\n\r\n[ui]\r\ntheme = "dark"\r\n',
    ]
  ) {
    const w = world();
    try {
      const path = join(w.home, ".kimi-code", "config.toml");
      const after = roundTrip(w, "kimi-auto", path, original);
      assert(after.startsWith(original), `the user's bytes stay first:\n${after}`);
      const v = parseConfig(after, "toml") as { hooks: Obj[]; default_model: string };
      assertEquals(v.default_model, "kimi-k2");
      assertEquals(v.hooks.map((h) => h.event), ["UserPromptSubmit", "UserPromptSubmit"]);
      assertStringIncludes(String(v.hooks[1].command), "hook-prompt --harness kimi");
      // The file's own line ending on the lines deja adds.
      if (original.includes("\r\n")) assert(!/[^\r]\n/.test(after), JSON.stringify(after));
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  }
});

Deno.test("trial 117 F1: install --auto and doctor go on past a Kimi config.toml, the others wired", async () => {
  const w = world();
  try {
    const kimi = join(w.home, ".kimi-code", "config.toml");
    write(kimi, '# kimi\ndefault_model = "kimi-k2"\n');
    write(join(w.home, ".claude.json"), "{}\n");
    const dry = await runMain(w.env, ["install", "--auto", "--dry-run"]);
    assertEquals(dry.code, 0, dry.err);
    assertStringIncludes(dry.out, "would update    kimi-auto    hooks    ~/.kimi-code/config.toml");
    assertStringIncludes(dry.out, "claude-auto");
    const doctor = await runMain(w.env, ["doctor", "--json"]);
    assert(!doctor.err.includes("Node not found"), doctor.err);
    const targets = (JSON.parse(doctor.out) as { targets: Array<{ target: string }> }).targets;
    assert(targets.some((x) => x.target === "kimi-auto") && targets.length > 10);
    const real = await runMain(w.env, ["install", "--auto"]);
    assertEquals(real.code, 0, real.err);
    assertEquals(targetStatus(w.env, t("kimi-auto")).state, "wired");
    assertEquals(targetStatus(w.env, t("claude-auto")).state, "wired");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("trial 117 F1: a target whose config deja fails to read is refused and named; install and doctor go on", async () => {
  const w = world();
  try {
    // The yaml library throws on this (no parse error of its own): any such failure counts.
    const goose = join(w.home, ".config", "goose", "config.yaml");
    const bomb = aliasBomb();
    write(goose, bomb);
    write(join(w.home, ".claude.json"), "{}\n");
    const r = installTargets(w.env, w.self, [t("goose"), t("claude-code")]);
    assert(!r.aborted);
    const refused = r.outcomes.find((o) => o.target === "goose")?.refused ?? "";
    assertStringIncludes(refused, "deja could not read or edit its configs (");
    assertStringIncludes(refused, "Excessive alias count");
    assertStringIncludes(refused, "nothing of it was changed");
    assertEquals(r.outcomes.find((o) => o.target === "claude-code")?.refused, undefined);
    assertEquals(targetStatus(w.env, t("claude-code")).state, "wired");
    assertEquals(read(goose), bomb, "the config is left as it was");
    // `install --auto`: the same, with the exit code of a refused target and one line naming it.
    const auto = await runMain(w.env, ["install", "--auto"]);
    assertEquals(auto.code, 2, auto.err);
    assertStringIncludes(auto.err, "deja: goose refused: deja could not read or edit its configs");
    assert(!auto.err.includes("    at "), auto.err);
    assertEquals(targetStatus(w.env, t("claude-auto")).state, "wired");
    // doctor reports every target, goose's config as one it could not read.
    const d = doctorData(w.env, w.self);
    const st = d.targets.find((x) => x.target === "goose")!;
    assertEquals(st.state, "broken_config");
    assertStringIncludes(st.parts[0].detail ?? "", "deja could not read it: Excessive alias count");
    assert(d.targets.some((x) => x.target === "claude-auto" && x.state === "wired"));
    const doc = await runMain(w.env, ["doctor"]);
    assertEquals(doc.code, 1);
    assertStringIncludes(doc.err, "goose (broken config)");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("trial 117 F5: a TOML file with both line endings keeps each line's, and no library warning is printed", () => {
  const w = world();
  const warn = console.warn;
  const warned: unknown[] = [];
  console.warn = (...a: unknown[]) => void warned.push(a);
  try {
    const path = join(w.home, ".grok", "config.toml");
    const original = '[ui]\ntheme = "dark"\r\n# mine\n';
    const after = roundTrip(w, "grok", path, original);
    assertEquals(warned, []);
    assert(after.startsWith(original), JSON.stringify(after));
    assertEquals(
      (parseConfig(after, "toml") as { mcp_servers: { deja: Obj } }).mcp_servers.deja.args,
      ["mcp"],
    );
  } finally {
    console.warn = warn;
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("trial 117 F6: doctor says the user's own deja MCP entry is theirs, and that --force replaces it", () => {
  const cases = [
    {
      target: "codex",
      file: [".codex", "config.toml"],
      text: '[mcp_servers.deja]\ncommand = "/opt/other/server"\nargs = ["x"]\n',
      key: "mcp_servers.deja",
    },
    {
      target: "claude-code",
      file: [".claude.json"],
      text: '{"mcpServers": {"deja": {"command": "/opt/other/server"}}}\n',
      key: "mcpServers.deja",
    },
  ];
  for (const c of cases) {
    const w = world();
    try {
      write(join(w.home, ...c.file), c.text);
      const r = installTargets(w.env, w.self, [t(c.target)]);
      const mcp = r.outcomes.flatMap((o) => o.changes).find((x) => x.kind === "mcp");
      assertEquals(mcp?.action, "kept");
      const d = doctorData(w.env, w.self);
      const st = d.targets.find((x) => x.target === c.target)!;
      const part = st.parts.find((p) => p.kind === "mcp")!;
      assertEquals(part.theirs, true);
      assertStringIncludes(part.detail ?? "", `an entry deja did not write is there (${c.key})`);
      assertEquals(wireHint(st), `deja install ${c.target} --force`);
      const out = doctorText(d, io(w.env));
      assertStringIncludes(
        out,
        `the MCP entry there is yours, not written by deja, and install keeps it; ` +
          `'deja install ${c.target} --force' replaces it with deja's`,
      );
      assert(!new RegExp(`: deja install ${c.target}$`, "m").test(out), out);
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  }
});

Deno.test("trial 117 F6: a skill file of the user's is said as theirs too, beside the MCP entry deja can add", () => {
  const w = world();
  try {
    const skill = join(w.home, ".codex", "skills", "deja-history", "SKILL.md");
    write(skill, "my own notes\n");
    const d = doctorData(w.env, w.self);
    const st = d.targets.find((x) => x.target === "codex")!;
    assertEquals(st.parts.find((p) => p.kind === "skill")?.theirs, true);
    // The MCP entry is missing and deja can add it: the plain install is still the hint.
    assertEquals(wireHint(st), "deja install codex");
    assertStringIncludes(
      doctorText(d, io(w.env)),
      "deja install codex (the skill there is yours, not written by deja, and install keeps " +
        "it; --force replaces it)",
    );
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
