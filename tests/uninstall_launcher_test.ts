/**
 * What `deja uninstall` lists and leaves (new-user trial, 2026-12): the launcher
 * stays while anything deja wrote still runs it (pi's extension, a user service)
 * and goes with the last of them; `remote-sync` names both systemd files it
 * removed; an entry or file found where deja's would be but not written by deja
 * is listed `kept (not deja's)` and left alone. Everything under a temp HOME.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { t, world, write } from "./_install_world.ts";
import { runMain } from "./_cli_io.ts";
import { installTargets } from "../lib/install/run.ts";
import { launcherPath } from "../lib/install/launcher.ts";
import { REMOTE_SYNC, writeService } from "../lib/fresh/service.ts";
import { parseUninstall, uninstallData } from "../lib/cli/cmd_uninstall.ts";

const args = (positionals: string[], values: Record<string, boolean> = {}) => ({
  values,
  positionals,
});

Deno.test("uninstall keeps the launcher while pi's extension or a user service runs it, and removes it with the last", () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("claude-code"), t("pi")]);
    const launcher = launcherPath(w.env);
    // pi's extension (a plain `file`, not an MCP server) runs the launcher.
    const a = uninstallData(w.env, parseUninstall(args(["claude-code"])));
    assertEquals(a.report?.launcher.action, "unchanged");
    assert(existsSync(launcher));
    if (w.env.platform !== "linux") return;
    writeService(w.env, launcher, REMOTE_SYNC);
    // The timer runs it too.
    const b = uninstallData(w.env, parseUninstall(args(["pi"])));
    assertEquals(b.report?.launcher.action, "unchanged");
    assert(existsSync(launcher));
    // The last user goes: so does the launcher, reported although only a service was asked for.
    const c = uninstallData(w.env, parseUninstall(args(["remote-sync"])));
    assertEquals(c.report?.launcher.action, "removed");
    assert(!existsSync(launcher));
    assertEquals(c.removed[0].files.map((f) => [f.kind, f.action]), [
      ["service", "removed"],
      ["timer", "removed"],
    ]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("uninstall remote-sync names its .service and .timer; a unit deja did not write is kept (not deja's)", async () => {
  const w = world();
  try {
    if (w.env.platform !== "linux") return;
    const dir = join(w.home, ".config", "systemd", "user");
    assertEquals((await runMain(w.env, ["install", "remote-sync"])).code, 0);
    const mine = "[Service]\nExecStart=/usr/local/bin/my-own-watch\n";
    write(join(dir, "deja-watch.service"), mine);
    const r = await runMain(w.env, ["uninstall", "remote-sync", "--watch-service"]);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(
      r.out,
      "removed   remote-sync  service  ~/.config/systemd/user/deja-remote-sync.service\n",
    );
    assertStringIncludes(
      r.out,
      "removed   remote-sync  timer    ~/.config/systemd/user/deja-remote-sync.timer\n",
    );
    assertStringIncludes(
      r.out,
      "kept      watch        service  ~/.config/systemd/user/deja-watch.service (not deja's)\n",
    );
    assert(!r.out.includes("deja-watch.service)"), "no stop hint for a unit deja did not write");
    assertEquals(readFileSync(join(dir, "deja-watch.service"), "utf8"), mine);
    assert(!existsSync(join(dir, "deja-remote-sync.service")));
    const json = JSON.parse((await runMain(w.env, ["uninstall", "--watch-service", "--json"])).out);
    assertEquals(json.services.map((s: { action: string }) => s.action), ["kept"]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("uninstall lists a deja MCP entry the user wrote as kept (not deja's) and leaves it", async () => {
  const w = world();
  try {
    const cfg = join(w.home, ".codex", "config.toml");
    const mine = '[mcp_servers.deja]\ncommand = "/opt/my-deja"\nargs = ["mcp"]\n';
    write(cfg, mine);
    const r = await runMain(w.env, ["uninstall", "codex"]);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(
      r.out,
      "kept      codex        mcp      ~/.codex/config.toml (not deja's)\n",
    );
    assertEquals(readFileSync(cfg, "utf8"), mine);
    const json = JSON.parse((await runMain(w.env, ["uninstall", "codex", "--json"])).out);
    const mcp = json.targets[0].changes.find((c: { kind: string }) => c.kind === "mcp");
    assertEquals([mcp.action, mcp.note], ["kept", "not deja's"]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
