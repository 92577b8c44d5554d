/**
 * `openclaw-auto`: a plugin in `~/.openclaw/extensions/deja/` (manifest and
 * entry) whose `before_prompt_build` hook puts deja's recall before the
 * prompt, and the grant OpenClaw needs before it runs a non-bundled plugin's
 * conversation hooks (`plugins.entries.deja.hooks.allowConversationAccess`).
 * Facts from OpenClaw 2026.9.6 (docs/registry/openclaw.md).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { read, t, world, write } from "./_install_world.ts";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { targetStatus } from "../lib/install/doctor.ts";
import { parseConfig } from "../lib/install/formats.ts";

type Obj = Record<string, unknown>;

/** A user's openclaw.json: comments, a provider, a plugin entry of their own. */
const USER_CONFIG = `{
  // my gateway
  "agents": { "defaults": { "model": { "primary": "farm/mock-model" } } },
  "plugins": {
    "entries": {
      "voice-call": { "enabled": true, "hooks": { "allowPromptInjection": false } },
    },
  },
}
`;

Deno.test("openclaw-auto: the grant joins a commented openclaw.json; twice changes no byte; uninstall gives it back", () => {
  const w = world();
  try {
    const path = join(w.home, ".openclaw", "openclaw.json");
    write(path, USER_CONFIG);
    installTargets(w.env, w.self, [t("openclaw-auto")]);
    const after = read(path);
    const files = ["openclaw.plugin.json", "index.mjs"].map((f) =>
      join(w.home, ".openclaw", "extensions", "deja", f)
    );
    const texts = files.map(read);
    const again = installTargets(w.env, w.self, [t("openclaw-auto")]);
    assertEquals(read(path), after, "a second install changes no byte");
    assertEquals(files.map(read), texts);
    assert(again.outcomes.flatMap((o) => o.changes).every((c) => c.action === "unchanged"));
    assertEquals(read(`${path}.deja.bak`), USER_CONFIG, "one backup of the original bytes");
    assertStringIncludes(after, "// my gateway");
    const v = parseConfig(after, "jsonc") as { plugins: { entries: Obj }; mcp: Obj };
    assertEquals(Object.keys(v.plugins.entries), ["voice-call", "deja"]);
    assertEquals(v.plugins.entries.deja, { hooks: { allowConversationAccess: true } });
    assert(v.mcp, "-auto brings the plain target's MCP server along");
    // `uninstall openclaw-auto` takes the plugin and the grant (trial 102 F3: what the target
    // is); `uninstall openclaw` the MCP server -auto brought along too.
    uninstallTargets(w.env, [t("openclaw-auto")]);
    assert(!existsSync(join(w.home, ".openclaw", "extensions")), "the plugin and its dirs go");
    const left = parseConfig(read(path), "jsonc") as { plugins: { entries: Obj }; mcp: Obj };
    assertEquals(Object.keys(left.plugins.entries), ["voice-call"]);
    assert(left.mcp, "the plain target's MCP server stays");
    uninstallTargets(w.env, [t("openclaw")]);
    assertEquals(read(path), USER_CONFIG, "uninstall gives back the original bytes");
    assert(!existsSync(`${path}.deja.bak`));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("openclaw-auto: the manifest names the plugin; doctor sees files and grant", () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("openclaw"), t("openclaw-auto")]);
    const dir = join(w.home, ".openclaw", "extensions", "deja");
    const manifest = JSON.parse(read(join(dir, "openclaw.plugin.json")));
    assertEquals(manifest.id, "deja");
    assertEquals(manifest.configSchema.type, "object");
    assertEquals(targetStatus(w.env, t("openclaw-auto")).state, "wired");
    // The user takes the grant back by hand: doctor says the hook cannot run.
    const path = join(w.home, ".openclaw", "openclaw.json");
    const cfg = parseConfig(read(path), "jsonc") as { plugins: { entries: { deja: Obj } } };
    delete cfg.plugins.entries.deja.hooks;
    writeFileSync(path, JSON.stringify(cfg));
    const st = targetStatus(w.env, t("openclaw-auto"));
    assertEquals(st.state, "partly_wired", "the plugin files are there, the grant is not");
    assertStringIncludes(
      String(st.parts.find((p) => p.path === path)?.detail),
      "allowConversationAccess",
    );
    // Uninstalling the plain target takes everything deja wrote for OpenClaw.
    installTargets(w.env, w.self, [t("openclaw-auto")]);
    uninstallTargets(w.env, [t("openclaw")]);
    assert(!existsSync(dir));
    assert(!existsSync(path), "the config deja created goes once nothing of deja is left in it");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("openclaw-auto: a grant the user set to false is not overruled (refused, nothing written)", () => {
  const w = world();
  try {
    const path = join(w.home, ".openclaw", "openclaw.json");
    const text =
      `{ "plugins": { "entries": { "deja": { "hooks": { "allowConversationAccess": false } } } } }\n`;
    write(path, text);
    const r = installTargets(w.env, w.self, [t("openclaw-auto")]);
    const refused = r.outcomes.find((o) => o.target === "openclaw-auto")?.refused ?? "";
    assertStringIncludes(refused, "allowConversationAccess is false");
    assertEquals(read(path), text);
    assert(!existsSync(join(w.home, ".openclaw", "extensions", "deja")));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("openclaw-auto: the plugin's before_prompt_build prepends deja's recall, session start once", async () => {
  const w = world();
  try {
    // The launcher's deja: prints its arguments and the event it was given.
    writeFileSync(w.self[0], '#!/bin/sh\nprintf "ran %s <%s>" "$*" "$(cat)"\n', { mode: 0o755 });
    installTargets(w.env, w.self, [t("openclaw-auto")]);
    const file = join(w.home, ".openclaw", "extensions", "deja", "index.mjs");
    assertStringIncludes(read(file), "deja:managed");
    const plugin = (await import(`file://${file}`)).default;
    assertEquals(plugin.id, "deja");
    const hooks: Record<string, (e: unknown, c: unknown) => Promise<Obj | undefined>> = {};
    plugin.register({ on: (name: string, fn: (typeof hooks)[string]) => (hooks[name] = fn) });
    assertEquals(Object.keys(hooks), ["before_prompt_build"]);
    const event = {
      prompt: "[Tue] the marigold discount",
      currentUserMessage: "the marigold discount",
    };
    const ctx = { sessionId: "s1", sessionKey: "agent:main:main", workspaceDir: "/w/shop" };
    const first = String((await hooks.before_prompt_build(event, ctx))?.prependContext);
    assertStringIncludes(first, "ran hook-context --harness openclaw");
    assertStringIncludes(first, "ran hook-prompt --harness openclaw");
    assertStringIncludes(
      first,
      '"cwd":"/w/shop","session_id":"s1","prompt":"the marigold discount"',
    );
    const again = String((await hooks.before_prompt_build(event, ctx))?.prependContext);
    assert(!again.includes("hook-context"), "the session start is told once per session");
    // A launcher that fails gives no text, not an error.
    writeFileSync(w.self[0], "#!/bin/sh\nexit 3\n", { mode: 0o755 });
    assertEquals(await hooks.before_prompt_build(event, { ...ctx, sessionId: "s2" }), undefined);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
