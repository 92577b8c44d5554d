/**
 * What install says when something is off (reported 2027-01): a config that is
 * a directory, where broken TOML is, a misspelt target, `<alias>-auto`, and an
 * `-auto` target of a harness that fires no hooks.
 */
import { assert, assertEquals, assertStringIncludes, assertThrows } from "./_assert.ts";
import { t, world, write } from "./_install_world.ts";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { installTargets } from "../lib/install/run.ts";
import { selectTargets } from "../lib/install/select.ts";
import { targetStatus } from "../lib/install/doctor.ts";
import { DejaError } from "../core/errors.ts";
import { testEnv } from "./_fixture.ts";

Deno.test("a config that is a directory is named so, by install and by doctor", () => {
  const w = world();
  try {
    mkdirSync(join(w.home, ".cursor", "mcp.json"), { recursive: true });
    const r = installTargets(w.env, w.self, [t("cursor")]);
    assertStringIncludes(r.outcomes[0].refused ?? "", "mcp.json is a directory, not a file");
    const mcp = targetStatus(w.env, t("cursor")).parts.find((p) => p.kind === "mcp")!;
    assertEquals(mcp.detail, "is a directory, not a file");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("an unclosed TOML table header is placed on its own line", () => {
  const w = world();
  try {
    const path = join(w.home, ".codex", "config.toml");
    write(path, 'model = "x"\n\n[mcp_servers.a\nfoo = 1\n');
    const r = installTargets(w.env, w.self, [t("codex")]);
    assertStringIncludes(r.outcomes[0].refused ?? "", `${path}:3:15:`);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("a config of valid text but the wrong shape is said to be so, once", () => {
  // Trial 38: `[]` was "not valid JSON", and "(nothing was changed)" came before the hint
  // saying nothing was written.
  const w = world();
  try {
    const path = join(w.home, ".claude.json");
    write(path, "[]\n");
    const r = installTargets(w.env, w.self, [t("claude-code")]);
    assertEquals(
      r.outcomes[0].refused,
      `${path} holds a list where its settings (an object) belong`,
    );
    write(path, '{"mcpServers": []}\n');
    const shape = installTargets(w.env, w.self, [t("claude-code")]).outcomes[0].refused ?? "";
    assertEquals(shape, `${path}: mcpServers is not an object`);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// Named targets only: nothing is looked up on disk.
const pick = (name: string) => selectTargets(testEnv("/nonexistent"), { names: [name] }, true);
const message = (name: string) => assertThrows(() => pick(name), DejaError).message;

Deno.test("target names: did you mean, <alias>-auto, and -auto of a harness without hooks", () => {
  assertStringIncludes(message("curser"), "did you mean 'cursor'?");
  assertStringIncludes(message("gemini-atuo"), "did you mean 'gemini-auto'?");
  assertEquals(pick("claude-code-auto")[0].name, "claude-auto");
  assertEquals(pick("droid-auto")[0].name, "factory-auto");
  for (const [name, plain] of [["zed-auto", "zed"], ["vscode-auto", "vscode"]]) {
    const e = assertThrows(() => pick(name), DejaError) as DejaError;
    assertStringIncludes(e.message, "fires no hooks");
    assert(e.hint?.includes(`deja install ${plain}`), e.hint);
  }
});

Deno.test("uninstall --auto takes back the -auto wiring of every harness and leaves the rest", () => {
  const refs = selectTargets(testEnv("/nonexistent"), { names: [], auto: true }, false);
  assert(refs.length > 5);
  assert(refs.every((r) => r.auto), refs.map((r) => r.name).join(","));
});

Deno.test("target names: uninstall hints uninstall, aliases suggest the listed target, any case", () => {
  const env = testEnv("/nonexistent-home");
  const refused = (name: string, install: boolean) => {
    const e = assertThrows(() => selectTargets(env, { names: [name] }, install), DejaError);
    return `${e.message} ${(e as DejaError & { hint?: string }).hint ?? ""}`;
  };
  for (const n of ["goose-auto", "zed-auto"]) {
    const said = refused(n, false);
    assertStringIncludes(said, `deja uninstall ${n.replace("-auto", "")}`);
    assert(!said.includes("deja install"), said);
  }
  assertStringIncludes(refused("claud", false), "did you mean 'claude-code'?");
  assertEquals(selectTargets(env, { names: ["CODEX"] }, true).map((r) => r.name), ["codex"]);
});
