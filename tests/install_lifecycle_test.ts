/**
 * `deja install` and `deja uninstall` as a new user meets them: an `-auto`
 * target undone in any order leaves nothing of deja's (no entry, no backup of
 * deja's own file, no file deja created), uninstall of `<h>-auto` takes back
 * the hooks whatever the install order (the plain target the rest), the config file the user already has is the one
 * edited, parse errors read as one clean line, and detection sees the places
 * discovery reads.
 */
import { assert, assertEquals } from "./_assert.ts";
import { read, t, world, write } from "./_install_world.ts";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { installTargets, uninstallTargets } from "../lib/install/run.ts";
import { targetStatus } from "../lib/install/doctor.ts";
import { launcherPath } from "../lib/install/launcher.ts";
import { detected, wirables } from "../lib/install/facts.ts";
import { readJsonDoc } from "../lib/install/files.ts";

/** Every file under `dir` (relative paths). */
function files(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p, base) : [p.slice(base.length + 1)];
  });
}

const autos = wirables().filter((w) => w.facts.auto).map((w) => w.facts);

Deno.test("install <h>-auto, uninstall <h>-auto, uninstall <h>: nothing of deja's is left, for every harness", () => {
  for (const f of autos) {
    const w = world();
    try {
      installTargets(w.env, w.self, [t(f.auto!.target)]);
      uninstallTargets(w.env, [t(f.auto!.target)]);
      uninstallTargets(w.env, [t(f.target)]);
      assertEquals(files(w.home), [], f.target);
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  }
});

Deno.test("crush: plain then auto install, undone in either order, gives back the user's bytes and no backup", () => {
  for (const order of [["crush-auto", "crush"], ["crush", "crush-auto"]]) {
    const w = world();
    try {
      const path = join(w.home, ".config", "crush", "crush.json");
      const original = '{\n  "options": { "debug": true }\n}\n';
      write(path, original);
      installTargets(w.env, w.self, [t("crush")]);
      installTargets(w.env, w.self, [t("crush-auto")]);
      for (const name of order) uninstallTargets(w.env, [t(name)]);
      assertEquals(read(path), original, order.join(","));
      assert(!existsSync(`${path}.deja.bak`), "no backup left");
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  }
});

Deno.test("a backup of deja's own file (made by an older deja) is never restored", () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("crush-auto")]);
    const path = join(w.home, ".config", "crush", "crush.json");
    write(`${path}.deja.bak`, read(path));
    uninstallTargets(w.env, [t("crush")]);
    assert(!existsSync(path), "deja's file went");
    assert(!existsSync(`${path}.deja.bak`), "and the bad backup too");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("install <h>-auto reports each part under the target that owns it, and uninstalling each target takes back exactly its parts", () => {
  const removed = (r: ReturnType<typeof uninstallTargets>) =>
    [
      ...new Set(
        r.outcomes.flatMap((o) => o.changes).filter((c) => c.action === "removed")
          .map((c) => `${c.target} ${c.kind}`),
      ),
    ].sort();
  for (const f of autos) {
    const auto = f.auto!.target;
    // 1. The plain target first, then -auto: uninstalling -auto turns recall off, the plain stays.
    let w = world();
    try {
      installTargets(w.env, w.self, [t(f.target)]);
      const inst = installTargets(w.env, w.self, [t(auto)]);
      const added = (target: string) =>
        inst.outcomes.flatMap((o) => o.changes)
          .filter((c) => c.target === target && (c.action === "created" || c.action === "updated"))
          .map((c) => c.kind).sort();
      assert(added(auto).every((k) => k === "hooks"), `${f.target}: hooks only`);
      assertEquals(added(f.target), [], `${f.target}: the plain wiring was there already`);
      const off = uninstallTargets(w.env, [t(auto)]);
      assertEquals(removed(off), [...new Set(added(auto).map((k) => `${auto} ${k}`))], f.target);
      assertEquals(targetStatus(w.env, t(auto)).state, "not_wired", f.target);
      const plainParts = targetStatus(w.env, t(f.target)).parts.length;
      if (plainParts) assertEquals(targetStatus(w.env, t(f.target)).state, "wired", f.target);
      uninstallTargets(w.env, [t(f.target)]);
      assertEquals(targetStatus(w.env, t(f.target)).state, "not_wired", f.target);
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
    // 2. -auto alone: uninstalling it takes the same parts as in 1 (trial 102 F3: after
    // `install --auto` it took the MCP server, skill and command too, after a plain install
    // first the hooks alone); uninstalling the plain target then takes the rest.
    w = world();
    try {
      const inst = installTargets(w.env, w.self, [t(auto)]);
      const added = inst.outcomes.flatMap((o) => o.changes)
        .filter((c) => c.action === "created" || c.action === "updated")
        .map((c) => `${c.target} ${c.kind}`);
      assert(!added.some((x) => x === `${f.target} hooks`), `${f.target}: no hooks`);
      const off = uninstallTargets(w.env, [t(auto)]);
      assertEquals(
        removed(off),
        [...new Set(added.filter((x) => x.startsWith(`${auto} `)))].sort(),
        f.target,
      );
      assertEquals(targetStatus(w.env, t(auto)).state, "not_wired", f.target);
      const plainParts = targetStatus(w.env, t(f.target)).parts.length;
      if (plainParts) assertEquals(targetStatus(w.env, t(f.target)).state, "wired", f.target);
      const rest = uninstallTargets(w.env, [t(f.target)]);
      assertEquals(
        removed(rest),
        [...new Set(added.filter((x) => !x.startsWith(`${auto} `)))].sort(),
        f.target,
      );
      assertEquals(targetStatus(w.env, t(f.target)).state, "not_wired", f.target);
      assert(!existsSync(launcherPath(w.env)), `${f.target}: nothing runs the launcher any more`);
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  }
});

Deno.test("opencode: the user's opencode.jsonc is edited, no opencode.json is made beside it", () => {
  const w = world();
  try {
    const dir = join(w.home, ".config", "opencode");
    const jsonc = join(dir, "opencode.jsonc");
    const original = '{\n  // mine\n  "theme": "dark",\n}\n';
    write(jsonc, original);
    const r = installTargets(w.env, w.self, [t("opencode")]);
    assert(!existsSync(join(dir, "opencode.json")), "no second config");
    assert(read(jsonc).includes('"deja"'), read(jsonc));
    assertEquals(r.outcomes[0].changes.find((c) => c.kind === "mcp")?.path, jsonc);
    assertEquals(targetStatus(w.env, t("opencode")).state, "wired");
    uninstallTargets(w.env, [t("opencode")]);
    assertEquals(read(jsonc), original);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("kimi: with only kimi-cli's ~/.kimi, its ~/.kimi/mcp.json is wired", () => {
  const w = world();
  try {
    mkdirSync(join(w.home, ".kimi"));
    installTargets(w.env, w.self, [t("kimi")]);
    assert(existsSync(join(w.home, ".kimi", "mcp.json")));
    assert(!existsSync(join(w.home, ".kimi-code")));
    assertEquals(targetStatus(w.env, t("kimi")).state, "wired");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("cursor counts as present when only its ~/.config/Cursor store is there", () => {
  const w = world();
  try {
    mkdirSync(join(w.home, ".config", "Cursor"), { recursive: true });
    const cursor = wirables().find((x) => x.facts.target === "cursor")!;
    assert(detected(w.env, cursor));
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("a config that does not parse is named with a clean one-line reason", () => {
  const w = world();
  try {
    const cases: Array<[string, string]> = [
      [join(w.home, "c.toml"), "a = 1\nb =\n"],
      [join(w.home, "c.yaml"), "a:\n  b: 1\n c: 2\n"],
      [join(w.home, "c.jsonc"), '{"a": }'],
    ];
    for (const [p, text] of cases) {
      write(p, text);
      let msg = "";
      try {
        readJsonDoc(p);
      } catch (e) {
        msg = (e as Error).message;
      }
      assert(/^\S+:\d+:\d+: not valid \w+ \([^()\n]*[^:()\s]\)$/.test(msg), msg);
    }
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
