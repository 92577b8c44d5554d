import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { captureIO, runMain } from "../../tests/_cli_io.ts";
import { snapshot, world, write } from "../../tests/_install_world.ts";
import { chmodSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { csi } from "./output.ts";
import { installCmd, installData, parseInstall } from "./cmd_install.ts";

const args = (positionals: string[], values: Record<string, boolean> = {}) => ({
  values,
  positionals,
});

Deno.test("install parses targets, takes remote-sync out as a service, and reads --force and --no-index", () => {
  const p = parseInstall(args(["crush", "remote-sync"], { force: true, "no-index": true }));
  assertEquals([p.names, p.services.map((s) => s.name), p.force, p.index], [
    ["crush"],
    ["remote-sync"],
    true,
    false,
  ]);
  assert(!p.onlyServices);
  const only = parseInstall(args([], { "watch-service": true }));
  assert(only.onlyServices && only.index && !only.json);
});

Deno.test("install's run wires a target and asks for a first index only when there is none", () => {
  const w = world();
  try {
    const r = installData(w.env, parseInstall(args(["crush"])), w.self);
    assertEquals(r.report?.outcomes.map((o) => [o.target, o.refused]), [["crush", undefined]]);
    assertEquals(r.report?.launcher.action, "created");
    assert(existsSync(join(w.home, ".config/crush/crush.json")));
    assert(r.needsIndex, "no index yet");
    assert(!installData(w.env, parseInstall(args(["crush"], { json: true })), w.self).needsIndex);
    assert(
      !installData(w.env, parseInstall(args(["crush"], { "no-index": true })), w.self).needsIndex,
    );
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("install prints colour on a terminal, plain lines to a pipe, and JSON with --json", async () => {
  const w = world();
  try {
    const tty = captureIO(w.env, true);
    assertEquals(await installCmd.run(args(["crush"], { "no-index": true }), tty.io), 0);
    assertStringIncludes(tty.out(), csi("32m") + "created  ");

    const pipe = captureIO(w.env, false);
    assertEquals(await installCmd.run(args(["crush"], { "no-index": true }), pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assertStringIncludes(pipe.out(), "unchanged: everything was already in place\n");
    assertStringIncludes(pipe.out(), "check it any time: deja doctor");
    assertEquals(pipe.err(), "");

    const json = captureIO(w.env, false);
    assertEquals(await installCmd.run(args(["crush"], { json: true }), json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(doc.targets[0].target, "crush");
    assertEquals(doc.targets[0].refused, null);
    assert(doc.targets[0].changes.every((c: { action: string }) => c.action === "unchanged"));
    // Trial 58: JSON said nothing of the first index it does not build, nor of the notes.
    assertEquals([doc.notes, doc.first_index], [[], "not built: run 'deja index'"]);
    const codex = captureIO(w.env, false);
    await installCmd.run(args(["codex-auto"], { json: true }), codex.io);
    assertStringIncludes(JSON.parse(codex.out()).notes.join(" "), "only once you approve it");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("install of an unknown target is a usage error with the targets as hint", async () => {
  const w = world();
  try {
    const r = await runMain(w.env, ["install", "nope"]);
    assertEquals(r.code, 2);
    assertEquals(r.out, "");
    assertStringIncludes(r.err, "deja: unknown target 'nope'\nhint: targets: ");
    // Words that name no target were maybe a search (trial 57).
    const words = await runMain(w.env, ["install", "redis", "in", "kubernetes"]);
    assertEquals(words.code, 2);
    assertStringIncludes(
      words.err,
      "hint: to search these words: deja search install redis in kubernetes; targets: ",
    );
    const none = await runMain(w.env, ["install"]);
    assertEquals(none.code, 2);
    assertStringIncludes(none.err, "which target?");
    // Trial 58: `all` was an unknown target, `claude_code` had no suggestion.
    const all = await runMain(w.env, ["install", "all"]);
    assertEquals(all.code, 2);
    assertStringIncludes(all.err, "'all' is no target; for every harness found here: --all");
    assertStringIncludes(all.err, "hint: deja install --all");
    const snake = await runMain(w.env, ["uninstall", "Claude_Code"]);
    assertEquals(snake.code, 0, snake.err);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("install refuses a broken config on stderr, writes nothing, and exits 2", async () => {
  const w = world();
  try {
    write(join(w.home, ".config/crush/crush.json"), "{ not json");
    const r = await runMain(w.env, ["install", "crush", "--no-index"]);
    assertEquals(r.code, 2);
    assertEquals(r.out, "");
    assertStringIncludes(r.err, "deja: crush refused: ");
    assertStringIncludes(r.err, "hint: nothing was written;");
    assert(!existsSync(join(w.root, "deja")), "no launcher, no data dir");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("install with one target refused installs the others, names the refused one, and exits 2 (text and JSON)", async () => {
  // Reported by a user trial (2026-12): a read-only ~/.claude.json stopped crush from being
  // installed too, and the JSON said crush had nothing to do and the absent launcher "unchanged".
  for (const json of [false, true]) {
    const w = world();
    try {
      const claude = join(w.home, ".claude.json");
      write(claude, "{}\n");
      chmodSync(claude, 0o444);
      const r = await runMain(
        w.env,
        ["install", "claude-code", "crush", "--no-index"].concat(
          json ? ["--json"] : [],
        ),
      );
      assertEquals(r.code, 2, r.err);
      assertStringIncludes(r.err, "deja: claude-code refused: ");
      assertStringIncludes(r.err, "read-only");
      assertStringIncludes(r.err, "hint: nothing of claude-code was changed;");
      assert(existsSync(join(w.home, ".config/crush/crush.json")), "crush is installed");
      assertEquals(readFileSync(claude, "utf8"), "{}\n");
      if (!json) {
        assertStringIncludes(r.out, "created   crush");
        assertStringIncludes(r.out, "launcher");
        continue;
      }
      const doc = JSON.parse(r.out);
      assertEquals(doc.launcher.action, "created");
      const [c, k] = doc.targets;
      assertEquals([c.target, c.changes], ["claude-code", []]);
      assertStringIncludes(c.refused, "read-only");
      assertEquals([k.target, k.refused], ["crush", null]);
      assert(k.changes.some((x: { action: string }) => x.action === "created"), r.out);
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  }
});

Deno.test("install --watch-service --json prints one document with the service in it", async () => {
  const w = world();
  try {
    const only = captureIO(w.env, false);
    assertEquals(await installCmd.run(args([], { "watch-service": true, json: true }), only.io), 0);
    const a = JSON.parse(only.out());
    assertEquals([a.launcher, a.targets], [null, []]);
    assertEquals(a.services.map((s: { name: string; action: string }) => [s.name, s.action]), [
      ["watch", "created"],
    ]);
    assert(existsSync(a.services[0].path), a.services[0].path);
    assertStringIncludes(a.services[0].enable, "deja-watch");

    const both = captureIO(w.env, false);
    const r = await installCmd.run(args(["crush"], { "watch-service": true, json: true }), both.io);
    assertEquals(r, 0);
    const b = JSON.parse(both.out());
    assertEquals(b.targets[0].target, "crush");
    assertEquals(b.services[0].action, "unchanged");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("install --dry-run says what it would write and writes nothing; uninstall names where to look", async () => {
  // Trial 58: the preview install pointed to (`sources --wiring`) left out files it writes.
  const w = world();
  try {
    write(join(w.home, ".claude.json"), '{"numStartups": 3}\n');
    const before = snapshot(w.root);
    const on = await runMain(w.env, ["install", "--dry-run", "claude-auto"]);
    assertEquals(on.code, 0, on.err);
    assertStringIncludes(on.out, "dry run: nothing was written\n");
    assertStringIncludes(on.out, "would update    claude-code  mcp      ~/.claude.json");
    assertStringIncludes(on.out, "would create    claude-auto  hooks    ~/.claude/settings.json");
    assertStringIncludes(on.out, "would create    launcher");
    assertStringIncludes(on.out, "would build the first index (none yet; --no-index skips it)");
    assertEquals(
      snapshot(w.root),
      before,
      "not one file written, the launcher and lock included",
    );
    const json = await runMain(w.env, ["install", "--dry-run", "claude-auto", "--json"]);
    const doc = JSON.parse(json.out);
    assertEquals([doc.dry_run, doc.launcher.action], [true, "created"]);
    // What it said is what install then does.
    const real = await runMain(w.env, ["install", "claude-auto", "--no-index", "--json"]);
    const done = JSON.parse(real.out);
    const actions = (d: { targets: Array<{ changes: Array<{ path: string; action: string }> }> }) =>
      d.targets.flatMap((t) => t.changes.map((c) => `${c.path} ${c.action}`)).sort();
    assertEquals(actions(done), actions(doc));
    // Once done, a dry run has nothing to write, and does not say how to write it.
    const after = await runMain(w.env, ["install", "--dry-run", "claude-auto"]);
    assertStringIncludes(after.out, "unchanged: everything was already in place");
    assert(!after.out.includes("to write it"), after.out);
    const off = await runMain(w.env, ["uninstall", "--dry-run", "--all"]);
    assertEquals(off.code, 2);
    assertStringIncludes(off.err, "hint: uninstall has no dry run: 'deja doctor' shows");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
