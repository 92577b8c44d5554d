import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { captureIO, runMain } from "../../tests/_cli_io.ts";
import { t, world, write } from "../../tests/_install_world.ts";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { installTargets } from "../install/run.ts";
import { launcherPath } from "../install/launcher.ts";
import { csi } from "./output.ts";
import { doctorCmd, doctorData, parseDoctor } from "./cmd_doctor.ts";

const none = { values: {}, positionals: [] };

Deno.test("doctor parses --json", () => {
  assertEquals(parseDoctor({ values: { json: true }, positionals: [] }), { json: true });
});

Deno.test("doctor's run finds nothing wired and no problem in an empty home, then the wired target", () => {
  const w = world();
  try {
    const before = doctorData(w.env, w.self);
    assertEquals(before.problems, []);
    assert(before.targets.every((x) => x.state === "not_wired"));
    assertEquals([before.launcher.exists, before.index.exists], [false, false]);
    installTargets(w.env, w.self, [t("crush")]);
    const after = doctorData(w.env, w.self);
    assertEquals(after.targets.find((x) => x.target === "crush")?.state, "wired");
    assertEquals([after.launcher.exists, after.launcher.target_exists], [true, true]);
    assertEquals(after.problems, []);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("doctor prints colour on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("crush")]);
    const tty = captureIO(w.env, true);
    assertEquals(await doctorCmd.run(none, tty.io), 0);
    assertStringIncludes(tty.out(), csi("32m") + "wired");

    const pipe = captureIO(w.env, false);
    assertEquals(await doctorCmd.run(none, pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assert(/^crush +wired$/m.test(pipe.out()), pipe.out());
    // Trial 101 F10: no fault (exit 0), and what it means with something wired.
    assertStringIncludes(pipe.out(), "index        no index yet  ");
    assertStringIncludes(
      pipe.out(),
      "(deja's hooks and MCP tool answer nothing until one is built: run 'deja index')",
    );
    assertEquals(pipe.err(), "");

    const json = captureIO(w.env, false);
    assertEquals(await doctorCmd.run({ values: { json: true }, positionals: [] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(doc.index.exists, false);
    assertEquals(doc.watch.running, false);
    assertEquals(doc.targets.find((x: { target: string }) => x.target === "crush").state, "wired");
    // Every top-level field has its row in docs/json-output.md (trial 120: `watch` had none).
    const md = readFileSync(new URL("../../docs/json-output.md", import.meta.url), "utf8");
    const section = md.split("## `deja doctor --json`")[1].split("\n## ")[0];
    for (const key of Object.keys(doc)) {
      assert(new RegExp("^\\| `" + key + "[`.\\[]", "m").test(section), `${key} undocumented`);
    }
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("doctor exits 1 naming a broken config on stderr, and refuses an extra argument", async () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("crush")]);
    write(join(w.home, ".config/crush/crush.json"), "{ broken");
    const r = await runMain(w.env, ["doctor"]);
    assertEquals(r.code, 1);
    assertStringIncludes(
      r.err,
      "deja: doctor found 2 problems: crush (broken config), crush-auto",
    );
    assert(/^crush +broken config$/m.test(r.out), r.out);
    const extra = await runMain(w.env, ["doctor", "now"]);
    assertEquals(extra.code, 2);
    assertEquals(
      extra.err,
      "deja: unexpected argument 'now'\nhint: to search these words: deja search doctor now; 'deja doctor --help' shows the command\n",
    );
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

// User trial (2026-12): doctor listed a harness found here as "not wired" and left the
// reader to find out how to wire it.
Deno.test("doctor notes a harness found here but not wired, with the install command", async () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("crush")]);
    const pipe = captureIO(w.env, false);
    assertEquals(await doctorCmd.run(none, pipe.io), 0);
    const out = pipe.out();
    const r = doctorData(w.env, w.self);
    const crush = r.targets.find((x) => x.target === "crush")!;
    const auto = r.targets.find((x) => x.target === "crush-auto")!;
    assertEquals([crush.detected, crush.state, auto.detected, auto.state], [
      true,
      "wired",
      true,
      "not_wired",
    ]);
    assertStringIncludes(
      out,
      "  note     crush is here but not wired (hooks missing): deja install crush-auto",
    );
    assertEquals(out.includes("deja install crush\n"), false, "a wired target gets no note");
    // A harness not found here gets none either.
    const absent = r.targets.filter((x) => !x.detected);
    assert(absent.length > 0);
    for (const x of absent) assertEquals(out.includes(`deja install ${x.target}\n`), false);
    // They are named as not installed, not as missing sessions.
    assertStringIncludes(out, "not installed here (no config found), not wired: ");

    const json = captureIO(w.env, false);
    await doctorCmd.run({ values: { json: true }, positionals: [] }, json.io);
    const doc = JSON.parse(json.out());
    const hint = (target: string) =>
      doc.targets.find((x: { target: string }) => x.target === target).hint;
    assertEquals([hint("crush-auto"), hint("crush"), hint(absent[0].target)], [
      "deja install crush-auto",
      undefined,
      undefined,
    ]);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("doctor calls a launcher the configs run and that is gone missing, not unwritten", async () => {
  // Trial 40: a deleted launcher was "not written yet" while every target said "stale path".
  const w = world();
  try {
    const before = captureIO(w.env, false);
    await doctorCmd.run(none, before.io);
    assertStringIncludes(before.out(), "launcher     not written yet");
    installTargets(w.env, w.self, [t("crush")]);
    rmSync(launcherPath(w.env));
    const after = captureIO(w.env, false);
    await doctorCmd.run(none, after.io);
    assertStringIncludes(after.out(), "launcher     missing  ");
    // The command names the targets (trial 58: plain `deja install` asks "which target?"),
    // and the missing launcher counts as a problem.
    assertStringIncludes(after.out(), "the configs run it: 'deja install crush' writes it again");
    assertStringIncludes(after.err(), "launcher (missing)");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
