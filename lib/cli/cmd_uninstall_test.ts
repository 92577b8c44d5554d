import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { captureIO, runMain } from "../../tests/_cli_io.ts";
import { t, world } from "../../tests/_install_world.ts";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { installTargets } from "../install/run.ts";
import { csi } from "./output.ts";
import { installCmd } from "./cmd_install.ts";
import { parseUninstall, uninstallCmd, uninstallData } from "./cmd_uninstall.ts";

const args = (positionals: string[], values: Record<string, boolean> = {}) => ({
  values,
  positionals,
});

Deno.test("uninstall parses targets and services; --watch-service alone touches no target", () => {
  const p = parseUninstall(args(["claude", "remote-sync"]));
  assertEquals([p.names, p.services.map((s) => s.name), p.onlyServices], [
    ["claude"],
    ["remote-sync"],
    false,
  ]);
  assert(parseUninstall(args([], { "watch-service": true })).onlyServices);
});

Deno.test("uninstall's run removes deja's entry and the launcher once nothing is wired", () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("crush")]);
    const cfg = join(w.home, ".config/crush/crush.json");
    const r = uninstallData(w.env, parseUninstall(args(["crush"])));
    assertEquals(r.report?.outcomes[0].target, "crush");
    assertEquals(r.report?.launcher.action, "removed");
    assertEquals(r.removed, []);
    assert(!existsSync(cfg) || !readFileSync(cfg, "utf8").includes("deja"));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("uninstall prints colour on a terminal, plain lines to a pipe, and JSON with --json", async () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("crush")]);
    const tty = captureIO(w.env, true);
    assertEquals(await uninstallCmd.run(args(["crush"]), tty.io), 0);
    assertStringIncludes(tty.out(), csi("33m") + "removed  ");

    const pipe = captureIO(w.env, false);
    assertEquals(await uninstallCmd.run(args(["crush"]), pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assertStringIncludes(pipe.out(), "unchanged: nothing of deja's was there\n");

    const json = captureIO(w.env, false);
    assertEquals(await uninstallCmd.run(args(["crush"], { json: true }), json.io), 0);
    assertEquals(JSON.parse(json.out()).targets[0].target, "crush");
    assert(!existsSync(join(w.root, "deja", "bin")));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("uninstall of an unknown target is a usage error with the targets as hint", async () => {
  const w = world();
  try {
    const r = await runMain(w.env, ["uninstall", "nope"]);
    assertEquals([r.code, r.out], [2, ""]);
    assertStringIncludes(r.err, "deja: unknown target 'nope'\nhint: targets: ");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("uninstall --watch-service --json names the service it removed", async () => {
  const w = world();
  try {
    const put = captureIO(w.env, false);
    assertEquals(await installCmd.run(args([], { "watch-service": true, json: true }), put.io), 0);
    const path = JSON.parse(put.out()).services[0].path;
    const json = captureIO(w.env, false);
    assertEquals(
      await uninstallCmd.run(args([], { "watch-service": true, json: true }), json.io),
      0,
    );
    const doc = JSON.parse(json.out());
    assertEquals(doc.services.map((s: { name: string; action: string }) => [s.name, s.action]), [
      ["watch", "removed"],
    ]);
    assertEquals(doc.services[0].path, path);
    assert(!existsSync(path));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
