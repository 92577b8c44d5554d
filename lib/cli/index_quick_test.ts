import { assert, assertEquals } from "../../tests/_assert.ts";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../tests/_tmp.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { captureIO, runMain } from "../../tests/_cli_io.ts";
import { claudeLine } from "../../tests/_memory.ts";
import { quickIndex } from "./index_quick.ts";
import { manifestPath } from "../fresh/manifest.ts";
import { indexPath } from "../../core/paths.ts";
import type { Env } from "../../core/model.ts";

const SID = "41111111-2222-4333-8444-555555555555";

/** One Claude session and a second harness's store, indexed by `deja index` (main's way). */
async function world(vars: Record<string, string> = {}) {
  const dir = tempDir("deja-quick-");
  const proj = join(dir, "claude", "-w-app");
  mkdirSync(proj, { recursive: true });
  const file = join(proj, `${SID}.jsonl`);
  writeFileSync(
    file,
    claudeLine(0, "the parser crashes on unicode input", SID) + claudeLine(1, "Fixed it.", SID),
  );
  const all: Record<string, string> = {
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    XDG_STATE_HOME: join(dir, "state"),
    XDG_CACHE_HOME: join(dir, "cache"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "claude"),
    NO_COLOR: "1",
    ...vars,
  };
  const env = testEnv(all.HOME, all);
  // The first run reads the store; the second finds nothing changed and writes the manifest.
  assertEquals((await runMain(env, ["index"])).code, 0);
  assertEquals((await runMain(env, ["index"])).code, 0);
  assert(existsSync(manifestPath(indexPath(env))), "the no-op run wrote the stat manifest");
  return { dir, file, env };
}

/** What quickIndex answered and wrote for `args`. */
function quick(env: Env, args: string[]) {
  const c = captureIO(env, false, args);
  const code = quickIndex(args, c.io);
  return { code, out: c.out(), err: c.err() };
}

/** The variables `env` was made of. */
const vars = (env: Env) => env.vars!() as Record<string, string>;

/** The run's time is the one figure two runs may differ by. */
const timeless = (s: string) =>
  s.replace(/indexed in \d+\.\d\d s/, "indexed in T s").replace(/"ms": \d+/, '"ms": T');

Deno.test("index_quick: a no-op 'deja index' answers as the command does (text, --json, --quiet)", async () => {
  const { env } = await world();
  for (
    const args of [["index"], ["index", "--json"], ["index", "--quiet"], [
      "index",
      "--quiet",
      "--json",
    ]]
  ) {
    const q = quick(env, args);
    const m = await runMain(env, args);
    assertEquals(q.code, 0, args.join(" "));
    assertEquals(q.code, m.code, args.join(" "));
    assertEquals(timeless(q.out), timeless(m.out), args.join(" "));
    assertEquals(q.err, m.err, args.join(" "));
  }
  const text = quick(env, ["index"]).out;
  assert(text.includes("up to date (1 session, 2 events)"), text);
  assertEquals(JSON.parse(quick(env, ["index", "--json"]).out).complete, true);
});

Deno.test("index_quick: leaves to the command what the manifest cannot vouch for, writing nothing", async () => {
  const { dir, file, env } = await world();
  // Options it does not take.
  for (
    const args of [["index", "--rebuild"], ["index", "--harness", "claude"], ["index", "--help"], [
      "index",
      "--watch",
    ], ["search", "x"]]
  ) {
    const q = quick(env, args);
    assertEquals(q, { code: null, out: "", err: "" }, args.join(" "));
  }
  // An embeddings endpoint: its pass runs after every run.
  const withUrl = testEnv(env.home, {
    ...vars(env),
    DEJA_EMBED_URL: "http://127.0.0.1:9/v1/embeddings",
  });
  assertEquals(quick(withUrl, ["index"]), { code: null, out: "", err: "" });
  // An exclusion pattern (the full run applies it), from the file or the variable.
  mkdirSync(join(dir, "config", "deja"), { recursive: true });
  writeFileSync(join(dir, "config", "deja", "exclude"), "*/secret-project\n");
  assertEquals(quick(env, ["index"]), { code: null, out: "", err: "" });
  writeFileSync(join(dir, "config", "deja", "exclude"), "# none\n");
  assertEquals(quick(env, ["index"]).code, 0);
  const excluding = testEnv(env.home, { ...vars(env), DEJA_EXCLUDE_PROJECTS: "app" });
  assertEquals(quick(excluding, ["index"]), { code: null, out: "", err: "" });
  // A store that grew.
  appendFileSync(file, claudeLine(2, "and the emoji case too", SID));
  assertEquals(quick(env, ["index"]), { code: null, out: "", err: "" });
  const m = await runMain(env, ["index"]);
  assert(m.out.includes("1 session written"), m.out);
  // Then nothing changed again: answered.
  assertEquals((await runMain(env, ["index"])).code, 0);
  assertEquals(quick(env, ["index"]).code, 0);
  // No index at all.
  const none = testEnv(env.home, { ...vars(env), DEJA_HOME: join(dir, "nowhere") });
  assertEquals(quick(none, ["index"]), { code: null, out: "", err: "" });
  assert(!existsSync(join(dir, "nowhere")), "nothing created");
});

Deno.test("index_quick: a TZ deja cannot read is warned of as main.ts warns before a command", async () => {
  const { env } = await world({ TZ: "Nowhere/Atlantis" });
  const q = quick(env, ["index"]);
  const m = await runMain(env, ["index"]);
  assertEquals(q.code, 0);
  assert(q.err.includes("TZ=Nowhere/Atlantis"), q.err);
  assertEquals(q.err, m.err);
  // Not to a quiet run ("print nothing unless something failed"), quick or not.
  assertEquals(quick(env, ["index", "--quiet"]), { code: 0, out: "", err: "" });
  for (const flag of ["--quiet", "-q"]) {
    const r = await runMain(env, ["index", flag]);
    assertEquals([r.code, r.out, r.err], [0, "", ""], flag);
  }
});
