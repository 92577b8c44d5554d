/**
 * The files discovery reads to find stores are part of what the stat pass
 * stamps (Discovery.reads). Regression (new-user trial, 2026-12): a Crush
 * project added to `projects.json`, rewritten in place, was not found: `deja
 * index` said `up to date` in 0.03 s, and kept saying so after the new store
 * was touched, until `--rebuild` or a change to a store deja already knew.
 */
import { assert, assertEquals } from "../../tests/_assert.ts";
import { mkdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../tests/_tmp.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { runMain } from "../../tests/_cli_io.ts";
import { listProjects, tinyStore, tinyVars } from "../../tests/_crush_tiny.ts";
import { parsers } from "../../parsers/mod.ts";
import { upToDate } from "./noop.ts";

/** A project folder `<dir>/<name>` holding a Crush store of sessions `ids`. */
function project(dir: string, name: string, ids: string[]): string {
  const p = join(dir, name);
  mkdirSync(join(p, ".crush"), { recursive: true });
  tinyStore(join(p, ".crush", "crush.db"), ids);
  return p;
}

Deno.test("a Crush project added to projects.json in place is found by the next index, not answered up to date", async () => {
  const dir = tempDir("deja-noop-reads-");
  mkdirSync(join(dir, "crush"), { recursive: true });
  const one = project(dir, "one", ["a"]);
  listProjects(dir, [one]);
  const vars = tinyVars(dir);
  const env = testEnv(vars.HOME, vars);
  assertEquals((await runMain(env, ["index", "--quiet"])).code, 0);
  assert(upToDate(env), "nothing changed yet: the stat pass answers");
  // A second project, listed by rewriting projects.json in place (its folder's mtime stays).
  const two = project(dir, "two", ["b"]);
  listProjects(dir, [one, two]);
  // An mtime surely other than the one stamped, and older than the next discovery.
  const other = new Date(Date.now() - 60_000);
  utimesSync(join(dir, "crush", "projects.json"), other, other);
  assertEquals(upToDate(env), null);
  const r = await runMain(env, ["index", "--json"]);
  assertEquals(r.code, 0, r.err);
  const crush = JSON.parse(r.out).harnesses.find((h: { harness: string }) => h.harness === "crush");
  assertEquals([crush.found, crush.sessions], [2, 1]);
  assert(upToDate(env), "stamped again: the next run is a no-op");
});

Deno.test("discoveries that learn where stores are from a file name that file for the stat pass", async () => {
  const dir = tempDir("deja-noop-reads-");
  const env = testEnv(join(dir, "home"), {
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
  });
  const reads = async (id: string) => {
    const p = parsers.find((x) => x.id === id)!;
    return (await p.discover({ env, knownProjects: [] })).reads ?? [];
  };
  assertEquals(await reads("crush"), [join(dir, "data", "crush", "projects.json")]);
  assertEquals(await reads("reasonix"), [join(dir, "home", ".reasonix", "config.toml")]);
  assert((await reads("roo")).includes(join(dir, "config", "Code", "User", "settings.json")));
  assertEquals(await reads("hermes"), [join(dir, "home", ".hermes", "config.yaml")]);
});
