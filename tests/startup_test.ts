/**
 * Start-up loads only what a command needs: main.ts reaches no command module,
 * no index code and no hook runner through static imports (each is imported when
 * a run needs it), and every entry of the command table loads its command.
 */
import { assert, assertEquals } from "./_assert.ts";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPO } from "./_fixture.ts";
import { COMMANDS } from "../lib/cli/table.ts";
import { loadCommand } from "../lib/cli/common.ts";

interface Dep {
  code?: { specifier: string };
  isDynamic?: boolean;
}

/** Local modules main.ts reaches through static imports only. */
function staticGraph(root: string): Set<string> {
  // The graph's JSON passes 1 MB (spawnSync's default buffer) when the checkout's path is long.
  const r = spawnSync("deno", ["info", "--json", root], {
    cwd: REPO,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  assertEquals(r.status, 0, `${r.error ?? ""} ${r.stderr}`);
  const info = JSON.parse(r.stdout) as {
    modules: { specifier: string; dependencies?: Dep[] }[];
  };
  const deps = new Map(info.modules.map((m) => [m.specifier, m.dependencies ?? []]));
  const seen = new Set<string>();
  const walk = (s: string) => {
    if (seen.has(s)) return;
    seen.add(s);
    for (const d of deps.get(s) ?? []) if (!d.isDynamic && d.code) walk(d.code.specifier);
  };
  walk(new URL(`file://${join(REPO, root)}`).href);
  return new Set([...seen].map((s) => s.replace(`file://${REPO}/`, "")));
}

Deno.test("main.ts loads no command module, index or hook runner before dispatch", () => {
  const graph = staticGraph("main.ts");
  const heavy = [...graph].filter((p) =>
    /^lib\/cli\/cmd_/.test(p) || p === "lib/store.ts" || p === "lib/hooks/run.ts" ||
    p.startsWith("parsers/")
  );
  assertEquals(heavy, []);
});

Deno.test("every command of the table loads, with a usage line and a run function", async () => {
  const names = new Set<string>();
  for (const entry of COMMANDS) {
    assert(!names.has(entry.name), `duplicate command ${entry.name}`);
    names.add(entry.name);
    const cmd = await loadCommand(entry);
    assertEquals(cmd.name, entry.name);
    assert(cmd.usage.startsWith(entry.name), cmd.usage);
    assertEquals(typeof cmd.run, "function");
  }
});
