/**
 * The `-auto` targets of Factory Droid (hooks in settings.json), Cline (a
 * plugin whose `beforeRun` hook adds deja's recall to the run), the refusal of
 * `auggie-auto` and `copilot-auto` (their hooks bring no text to the model),
 * and doctor's warning while Codex has not approved deja's hooks (its trust
 * pins in config.toml).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { read, roundTrip, t, world, write } from "./_install_world.ts";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { targetStatus } from "../lib/install/doctor.ts";
import { launcherPath } from "../lib/install/launcher.ts";
import { parseConfig } from "../lib/install/formats.ts";
import { selectTargets } from "../lib/install/select.ts";
import { DejaError } from "../core/errors.ts";
import { hookHash, hookKey } from "../lib/install/codex_trust.ts";
import { dialectFor } from "../lib/hooks/dialect.ts";
import { refusalText } from "../lib/cli/_wire.ts";

type Obj = Record<string, unknown>;

Deno.test("factory-auto: SessionStart and UserPromptSubmit join a commented settings.json", () => {
  const w = world();
  try {
    const path = join(w.home, ".factory", "settings.json");
    const original = `{
  // droid writes its defaults here
  "model": "custom:mock-model",
  "customModels": [{ "model": "m", "baseUrl": "http://127.0.0.1:9/v1" }],
  "hooks": {
    "PreToolUse": [{ "matcher": "Execute", "hooks": [{ "type": "command", "command": "audit" }] }]
  }
}
`;
    const after = roundTrip(w, "factory-auto", path, original);
    assertStringIncludes(after, "// droid writes its defaults here");
    const v = parseConfig(after, "jsonc") as { hooks: Record<string, Obj[]> };
    assertEquals(Object.keys(v.hooks), ["PreToolUse", "SessionStart", "UserPromptSubmit"]);
    const cmd = (v.hooks.SessionStart[0].hooks as Obj[])[0];
    assertEquals(cmd, {
      type: "command",
      command: `${launcherPath(w.env)} hook-context --harness factory`,
      timeout: 10,
    });
    assertEquals(dialectFor(["--harness", "factory"]).projectEnv, ["FACTORY_PROJECT_DIR"]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("cline-auto: the plugin's beforeRun adds deja's recall, session start once", async () => {
  const w = world();
  try {
    // The launcher's deja: prints its arguments and the event it was given.
    writeFileSync(w.self[0], '#!/bin/sh\nprintf "ran %s <%s>" "$*" "$(cat)"\n', { mode: 0o755 });
    installTargets(w.env, w.self, [t("cline-auto")]);
    const file = join(w.home, ".cline", "plugins", "deja", "index.js");
    assertStringIncludes(read(file), "deja:managed");
    assertEquals(targetStatus(w.env, t("cline-auto")).state, "wired");
    const plugin = (await import(`file://${file}`)).default;
    assertEquals([plugin.name, plugin.manifest.capabilities], ["deja", ["hooks"]]);
    plugin.setup({}, { workspaceInfo: { rootPath: "/w/shop" } });
    const ctx = {
      snapshot: {
        conversationId: "c1",
        messages: [{ role: "user", content: [{ type: "text", text: "the marigold discount" }] }],
      },
    };
    const first = (await plugin.hooks.beforeRun(ctx)).appendContext as string;
    assertStringIncludes(first, "ran hook-context --harness cline");
    assertStringIncludes(first, "ran hook-prompt --harness cline");
    assertStringIncludes(
      first,
      '"cwd":"/w/shop","session_id":"c1","prompt":"the marigold discount"',
    );
    const again = (await plugin.hooks.beforeRun(ctx)).appendContext as string;
    assert(!again.includes("hook-context"), "the session start is told once per conversation");
    uninstallTargets(w.env, [t("cline-auto")]);
    assert(!existsSync(join(w.home, ".cline", "plugins")), "the plugin and the dirs deja made go");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("cline-auto: a user's own plugin of the same name is kept", () => {
  const w = world();
  try {
    const file = join(w.home, ".cline", "plugins", "deja", "index.js");
    write(file, "export default {};\n");
    const r = installTargets(w.env, w.self, [t("cline-auto")]);
    const c = r.outcomes.flatMap((o) => o.changes).find((x) => x.kind === "hooks");
    assertEquals([c?.action, c?.note], ["kept", "not written by deja; --force replaces it"]);
    assertEquals(read(file), "export default {};\n");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("auggie-auto and copilot-auto are refused (exit 2) with why and the plain target", () => {
  const w = world();
  try {
    for (
      const [name, plain, why] of [
        ["auggie-auto", "auggie", /PromptSubmit hooks without reading what they print/],
        ["copilot-auto", "copilot", /sessionStart and userPromptSubmitted hooks to no model/],
      ] as const
    ) {
      try {
        selectTargets(w.env, { names: [name] }, true);
        throw new Error(`${name} was accepted`);
      } catch (e) {
        assert(e instanceof DejaError, String(e));
        assertEquals(e.exitCode, 2);
        assert(why.test(e.message), e.message);
        assertStringIncludes(e.hint ?? "", `deja install ${plain}`);
      }
    }
    assertEquals(selectTargets(w.env, { names: ["droid"] }, true)[0].name, "factory");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("Codex's trust hash matches pins observed in a real config.toml", () => {
  // Vectors of a real ~/.codex/config.toml written by Codex 0.150 (third-party record).
  assertEquals(
    hookHash(
      "PostToolUse",
      "Edit|Write|apply_patch",
      "bash ~/.vibemon/notify.sh activity codex_cli",
      10,
    ),
    "sha256:306ce275f2cc817572187285d692d4878cca2fb0b823d32fea8b5b28f2595fd0",
  );
  assertEquals(
    hookHash("SessionEnd", undefined, "bash ~/.vibemon/notify.sh session_end codex_cli", 10),
    "sha256:59015a3376fd5e5d8ffb5bf1adf4be4ebc610622c674a7546a32a06ac4a47a61",
  );
  assertEquals(
    hookKey("/h/.codex/hooks.json", "UserPromptSubmit", 0, 1),
    "/h/.codex/hooks.json:user_prompt_submit:0:1",
  );
});

Deno.test("doctor warns while Codex has not approved deja's hooks, and not once every pin holds", () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("codex-auto")]);
    const warning = () =>
      targetStatus(w.env, t("codex-auto")).parts.find((p) => p.kind === "hooks")?.warning;
    const st = targetStatus(w.env, t("codex-auto"));
    // Trial 102 F6: "wired", exit 0, for hooks Codex runs none of yet.
    assertEquals(st.state, "will_not_run");
    assertStringIncludes(warning() ?? "", "hooks present, not yet approved — run /hooks in Codex");
    // Pin every deja hook the way Codex's /hooks does.
    const hooksPath = join(w.home, ".codex", "hooks.json");
    const hooks = JSON.parse(read(hooksPath)).hooks as Record<string, Obj[]>;
    const pins: string[] = [];
    for (const [event, groups] of Object.entries(hooks)) {
      groups.forEach((g, gi) =>
        (g.hooks as Obj[]).forEach((h, hi) => {
          const hash = hookHash(
            event,
            g.matcher as string | undefined,
            String(h.command),
            h.timeout as number,
          );
          pins.push(
            `[hooks.state."${hookKey(hooksPath, event, gi, hi)}"]\ntrusted_hash = "${hash}"\n`,
          );
        })
      );
    }
    const config = join(w.home, ".codex", "config.toml");
    const before = read(config);
    writeFileSync(config, before + "\n" + pins.join("\n"));
    assertEquals(warning(), undefined);
    // A pin of another hash: the hook changed since it was approved.
    assertEquals(targetStatus(w.env, t("codex-auto")).state, "wired");
    writeFileSync(config, read(config).replace(/sha256:[0-9a-f]{4}/, "sha256:0000"));
    assertStringIncludes(warning() ?? "", "1 changed since approved");
    assertEquals(targetStatus(w.env, t("codex-auto")).state, "partly_wired", "the others run");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Trial 84 F5: `uninstall claude-auto` over a broken settings.json said "claude-code refused".
Deno.test("uninstall claude-auto refused over a broken config is said under claude-auto", () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("claude-auto")]);
    const settings = join(w.home, ".claude", "settings.json");
    writeFileSync(settings, read(settings).replace(/\}\s*$/, ",,\n"));
    const r = uninstallTargets(w.env, [t("claude-auto")]);
    const refused = r.outcomes.filter((o) => o.refused);
    assertEquals(refused.map((o) => o.target), ["claude-auto"]);
    assertStringIncludes(refusalText(r), "deja: claude-auto refused: ");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
