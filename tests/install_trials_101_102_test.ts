/**
 * Install, uninstall and doctor as two new users met them (trials 101 and 102): a hook edited
 * into a command deja lacks is a fault, every target asked for gets its row, a target takes out
 * what it is, the user's own timeout stays, an edited MCP entry can be taken out, hooks that
 * will not run are said so, doctor names the refusal of the install it would suggest, backups
 * are named, a Zed comment stays on its line, and `install --all` with stores but no config says
 * what is there.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { read, t, world, write } from "./_install_world.ts";
import { runMain, withVars } from "./_cli_io.ts";
import { chmodSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { targetStatus } from "../lib/install/doctor.ts";
import { selectTargets } from "../lib/install/select.ts";
import { doctorData, doctorText, problemsText } from "../lib/cli/cmd_doctor.ts";
import { autoNotes, refusalText, wireJson, wireText } from "../lib/cli/_wire.ts";

const io = (env: Parameters<typeof wireText>[1]["env"]) => ({ isTTY: false, env });

Deno.test("trial 101 F1: a deja hook edited into an unknown hook is a broken entry, a problem, exit 1", async () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("claude-code"), t("claude-auto")]);
    const settings = join(w.home, ".claude", "settings.json");
    write(settings, read(settings).replace("deja-launcher hook-prompt", "deja-launcher hook-NOPE"));
    const st = targetStatus(w.env, t("claude-auto"));
    assertEquals(st.state, "broken_entry");
    const detail = st.parts[0].detail ?? "";
    assertStringIncludes(
      detail,
      "UserPromptSubmit runs 'deja-launcher hook-NOPE': no such deja hook",
    );
    assertStringIncludes(detail, "exits 2");
    assertStringIncludes(detail, "fix or remove that entry in ~/.claude/settings.json");
    const r = doctorData(w.env, w.self);
    assertEquals(r.problems, ["claude-auto (broken entry)"]);
    assertStringIncludes(problemsText(r), "doctor found 1 problem: claude-auto (broken entry)");
    assertEquals((await runMain(w.env, ["doctor"])).code, 1);
    // A word that is no command is searched for: its text would be the hook's answer.
    write(settings, read(settings).replace("hook-NOPE", "recal"));
    assertStringIncludes(
      targetStatus(w.env, t("claude-auto")).parts[0].detail ?? "",
      "'recal' is no deja command",
    );
    // Another deja command, and a hook's own flag, are the user's use of deja: they run.
    write(settings, read(settings).replace("deja-launcher recal", "deja-launcher last 3"));
    assertEquals(targetStatus(w.env, t("claude-auto")).state, "partly_wired");
    write(settings, read(settings).replace("deja-launcher last 3", "deja-launcher hook-NOPE"));
    // Install writes deja's own hook beside it, and says the broken one is there.
    const again = installTargets(w.env, w.self, [t("claude-auto")]);
    assertStringIncludes(autoNotes(again, w.env).join("\n"), "no such deja hook");
    // Uninstall keeps it as the user's, says so, and --force takes it.
    const off = uninstallTargets(w.env, [t("claude-auto")]);
    const hooks = off.outcomes.flatMap((o) => o.changes).find((c) => c.kind === "hooks");
    assertEquals(hooks?.action, "kept");
    assertStringIncludes(hooks?.note ?? "", "'deja uninstall claude-auto --force' removes it too");
    uninstallTargets(w.env, [t("claude-auto")], { force: true });
    assert(!existsSync(settings), "the file deja created goes once nothing is left in it");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("trial 102 F1: a broken ~/.claude.json refuses claude-code and claude-auto, each with its row", () => {
  const w = world();
  try {
    write(join(w.home, ".claude.json"), '{ "mcpServers": { "a": 1 ');
    mkdirSync(join(w.home, ".claude"), { recursive: true });
    const refs = selectTargets(w.env, { names: ["claude-code", "claude-auto"] }, true);
    const r = installTargets(w.env, w.self, refs);
    assert(r.aborted);
    assertEquals(
      r.outcomes.map((
        o,
      ) => [o.target, /\.claude\.json:\d+:\d+: not valid JSON/.test(o.refused ?? "")]),
      [
        ["claude-code", true],
        ["claude-auto", true],
      ],
    );
    const doc = wireJson(r) as { targets: Array<{ target: string; refused: string | null }> };
    assertEquals(doc.targets.map((x) => x.target), ["claude-code", "claude-auto"]);
    const text = refusalText(r);
    assertStringIncludes(text, "deja: claude-code refused: ");
    assertStringIncludes(text, "deja: claude-auto refused: ");
    assertEquals(text.match(/^hint:/gm)?.length, 1, "the hint once");
    // Only settings.json broken: the plain target asked for is wired, claude-auto refused.
    write(join(w.home, ".claude.json"), "{}\n");
    write(join(w.home, ".claude", "settings.json"), '{ "hooks": ');
    const named = installTargets(w.env, w.self, refs);
    assertEquals(named.outcomes.map((o) => [o.target, Boolean(o.refused)]), [
      ["claude-code", false],
      ["claude-auto", true],
    ]);
    assertEquals(targetStatus(w.env, t("claude-code")).state, "wired");
    // claude-auto alone: its plain row says why it was not written, and how to get it.
    uninstallTargets(w.env, [t("claude-code")]);
    const alone = installTargets(w.env, w.self, [t("claude-auto")]);
    assertStringIncludes(
      alone.outcomes.find((o) => o.target === "claude-code")?.refused ?? "",
      "not written without claude-auto",
    );
    // Uninstall of the plain target, refused, names claude-auto too.
    installTargets(w.env, w.self, [t("claude-code")]);
    const off = uninstallTargets(w.env, [t("claude-code")]);
    assertEquals(off.outcomes.filter((o) => o.refused).map((o) => o.target), [
      "claude-code",
      "claude-auto",
    ]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("trial 102 F2: the user's timeout on deja's hook is kept and said, and doctor warns of a low one", () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("gemini-auto")]);
    const settings = join(w.home, ".gemini", "settings.json");
    write(settings, read(settings).replace('"timeout": 10000', '"timeout": 500'));
    const hooks = targetStatus(w.env, t("gemini-auto")).parts.find((p) => p.kind === "hooks")!;
    assertEquals(hooks.state, "wired");
    assertStringIncludes(
      hooks.warning ?? "",
      "below the 4 s a hook may take (SessionStart 500 ms)",
    );
    const again = installTargets(w.env, w.self, [t("gemini-auto")]);
    const c = again.outcomes.flatMap((o) => o.changes).find((x) => x.kind === "hooks");
    assertEquals(c?.action, "kept");
    assertStringIncludes(
      c?.note ?? "",
      "your timeout on deja's SessionStart hook (500 ms; deja writes 10000 ms) is kept as yours",
    );
    assertStringIncludes(c?.note ?? "", "--force sets deja's");
    assertStringIncludes(read(settings), '"timeout": 500');
    installTargets(w.env, w.self, [t("gemini-auto")], { force: true });
    assert(!read(settings).includes('"timeout": 500'), "--force sets deja's");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("trial 102 F5: claude-auto wires PreCompact (manual|auto) as docs/hooks.md says", () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("claude-auto")]);
    const hooks = JSON.parse(read(join(w.home, ".claude", "settings.json"))).hooks;
    assertEquals(hooks.PreCompact[0].matcher, "manual|auto");
    assertStringIncludes(hooks.PreCompact[0].hooks[0].command, "deja-launcher hook-precompact");
    const doc = read(new URL("../docs/hooks.md", import.meta.url).pathname);
    assertStringIncludes(doc, "`PreCompact`");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("trial 102 F7: doctor's note says the install it would suggest is refused now, and why", () => {
  const w = world();
  try {
    const crush = join(w.home, ".config", "crush", "crush.json");
    write(crush, "{}\n");
    chmodSync(crush, 0o444);
    const r = doctorData(w.env, w.self);
    const st = r.targets.find((x) => x.target === "crush")!;
    assertStringIncludes(st.blocked ?? "", "is read-only (mode 444)");
    const out = doctorText(r, io(w.env));
    assertStringIncludes(out, "'deja install crush' is refused now: ");
    assert(!/: deja install crush$/m.test(out), out);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("trial 102 F9: install names the backups it made of the user's configs, once", () => {
  const w = world();
  try {
    write(join(w.home, ".claude.json"), '{"numStartups": 1}\n');
    const r = installTargets(w.env, w.self, [t("claude-auto")]);
    const text = wireText(r, io(w.env), true);
    assertEquals(text.match(/\.claude\.json\.deja\.bak/g)?.length, 1, text);
    assertStringIncludes(text, "kept a backup (your config before deja's first edit, mode 0600");
    assertEquals((wireJson(r) as { backups: string[] }).backups, [
      join(w.home, ".claude.json.deja.bak"),
    ]);
    // None made the second time: none said.
    const again = installTargets(w.env, w.self, [t("claude-auto")]);
    assert(!wireText(again, io(w.env), true).includes("deja.bak"));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("trial 102 F8: Zed's comment after the last server stays on its line, and uninstall gives the bytes back", () => {
  const w = world();
  try {
    const path = join(w.home, ".config", "zed", "settings.json");
    const mine = `// Zed settings
{
  "theme": "One Dark",
  "context_servers": {
    "my-server": { "command": { "path": "my", "args": [] } }, // trailing
  },
}
`;
    write(path, mine);
    installTargets(w.env, w.self, [t("zed")]);
    const after = read(path);
    assertStringIncludes(
      after,
      '"my-server": { "command": { "path": "my", "args": [] } }, // trailing\n',
    );
    assert(!after.split('"deja"')[1].includes("// trailing"), after);
    // The file changed since (another setting): the comment stays where it was all the same.
    write(path, read(path).replace('"One Dark"', '"One Light"'));
    uninstallTargets(w.env, [t("zed")]);
    assertEquals(read(path), mine.replace('"One Dark"', '"One Light"'));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("trial 101 F11: install --all with stores but no config says which harnesses and what to do", async () => {
  const w = world();
  try {
    const store = join(w.root, "stores", "claude");
    mkdirSync(join(store, "-p"), { recursive: true });
    write(
      join(store, "-p", "s.jsonl"),
      JSON.stringify({
        type: "user",
        sessionId: "s",
        cwd: "/p",
        timestamp: "2026-01-01T00:00:00Z",
        message: { role: "user", content: "hi" },
      }) + "\n",
    );
    const env = withVars(w.env, { DEJA_CLAUDE_ROOT: store });
    const r = await runMain(env, ["install", "--all", "--dry-run"]);
    assertEquals(r.code, 1);
    assertStringIncludes(r.err, `no config of a harness deja can wire was found under ${w.home}`);
    assertStringIncludes(r.err, "Claude Code (DEJA_CLAUDE_ROOT) has its session store here");
    assertStringIncludes(r.err, "deja install claude-code");
    assert(!existsSync(join(w.home, ".claude.json")));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
