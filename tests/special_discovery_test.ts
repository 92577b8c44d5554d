/**
 * Special files and damaged stores met by discovery and by the companion
 * reads of a parse (issue 14, wave 2): before, a FIFO, socket or device where
 * a store would be was passed over with nothing reported, a companion file
 * (Copilot `workspace.yaml`, Cline `<id>.json`, Cursor `workspace.json`, Gemini
 * `.project_root`, Kimi `state.json` / `kimi.json`) that was one was read as
 * missing, and a discovery's look into a SQLite store with a damaged page gave
 * up the whole store.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Env, Parser } from "../core/model.ts";
import { overrideVar } from "../core/paths.ts";
import { parsers } from "../parsers/mod.ts";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import { loadRegistry } from "./_registry.ts";
import { materialize, parseOne, REPO, testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { indexPath } from "../lib/store.ts";
import { manifestUpToDate, selectedHarnesses } from "../lib/fresh/quick.ts";

const byId = (id: string): Parser => parsers.find((p) => p.id === id)!;

/** The harness's fixture laid out, `file` (relative to its root) made a FIFO first. */
function world(id: string, file?: string): { root: string; env: Env; cleanup(): void } {
  const entry = loadRegistry().find((e) => e.id === id)!;
  const fx = materialize(join(REPO, "fixtures", "registry", id));
  const rel = entry.fixture_root.replace(`fixtures/registry/${id}`, "").replace(/^\//, "");
  if (file) {
    const target = join(fx.root, file);
    rmSync(target, { force: true });
    mkdirSync(dirname(target), { recursive: true });
    execFileSync("mkfifo", [target]);
  }
  const env = testEnv(join(fx.root, "__home__"), {
    [overrideVar(id)]: join(fx.root, rel),
    TZ: "UTC",
  });
  return { root: fx.root, env, cleanup: fx.cleanup };
}

async function discoverWith(id: string, env: Env) {
  const problems: Array<{ path: string; error: Error }> = [];
  const d = await byId(id).discover({
    env,
    knownProjects: [],
    problem: (path, error) => problems.push({ path, error }),
  });
  return { d, problems };
}

const SESSION = "9e9e9e9e-0000-4000-8000-999999999999.jsonl";
const STORE_CASES: Array<{ id: string; file: string }> = [
  { id: "claude", file: `projects/-work-demo/${SESSION}` },
  { id: "opencode", file: "opencode.db" },
  { id: "goose", file: "sessions/sessions.db" },
  { id: "copilot", file: "session-store.db" },
];

for (const c of STORE_CASES) {
  Deno.test(`${c.id} discovery reports a FIFO where a store would be and still finds the others`, async () => {
    const base = world(c.id);
    const others = (await discoverWith(c.id, base.env)).d.sources
      .filter((s) => !s.path.endsWith(c.file)).map((s) => s.path.replace(base.root, ""));
    base.cleanup();
    const w = world(c.id, c.file);
    try {
      const { d, problems } = await discoverWith(c.id, w.env);
      assertEquals(problems.map((p) => p.path), [join(w.root, c.file)]);
      assertStringIncludes(problems[0].error.message, "is a FIFO, not a regular file");
      const paths = d.sources.map((s) => s.path.replace(w.root, ""));
      for (const p of others) assert(paths.includes(p), `${p} is still found`);
      assert(!paths.includes(`/${c.file}`), "the FIFO is not a source");
    } finally {
      w.cleanup();
    }
  });
}

function io(args: string[], env: Env, out: string[], err?: string[]): IO {
  return {
    args,
    env,
    cwd: "/",
    out: (t) => out.push(t),
    err: (t) => err?.push(t),
    isTTY: false,
    errTTY: false,
    readStdin: () => Promise.resolve(""),
  };
}

Deno.test("deja index and deja sources note a FIFO named like a Claude session as not read, and index the rest", async () => {
  const w = world("claude", `projects/-work-demo/${SESSION}`);
  const home = tempDir("deja-special-home-");
  try {
    const vars = Object.fromEntries(
      ["DEJA_CLAUDE_ROOT", "TZ"].map((k) => [k, w.env.get(k)!]),
    );
    const env = testEnv(home, { ...vars, DEJA_HOME: join(home, "deja") });
    const out: string[] = [];
    const code = await main(io(["index", "--harness", "claude", "--json"], env, out));
    // A FIFO holds no store: a "not read" note, not an error, no exit 3 (a fresh-user trial:
    // an `error:` line and exit 3 for what the README lists as information).
    assertEquals(code, 0, "indexed; the FIFO is information");
    const claude = JSON.parse(out.join("")).harnesses.find((h: { harness: string }) =>
      h.harness === "claude"
    );
    assert(claude.sessions > 0, "the other sessions are indexed");
    assertEquals(claude.errors, []);
    assert(
      claude.not_read.some((e: string) => e.includes(`${SESSION} is a FIFO`)),
      claude.not_read,
    );
    const src: string[] = [];
    assertEquals(await main(io(["sources", "--json"], env, src)), 0);
    const row = JSON.parse(src.join("")).harnesses.find((h: { harness: string }) =>
      h.harness === "claude"
    );
    assertEquals([row.errors, row.last_error], [0, null]);
    assert(row.not_read.some((e: string) => e.includes(`${SESSION} is a FIFO`)), row.not_read);
  } finally {
    w.cleanup();
    rmSync(home, { recursive: true, force: true });
  }
});

Deno.test("a FIFO already noted keeps the next deja index a no-op answered from the stat manifest", async () => {
  const w = world("claude", `projects/-work-demo/${SESSION}`);
  const home = tempDir("deja-special-home-");
  try {
    const vars = Object.fromEntries(
      ["DEJA_CLAUDE_ROOT", "TZ"].map((k) => [k, w.env.get(k)!]),
    );
    const env = testEnv(home, { ...vars, DEJA_HOME: join(home, "deja") });
    const first: string[] = [];
    assertEquals(await main(io(["index", "--harness", "claude"], env, first, first)), 0);
    assertStringIncludes(first.join(""), `${SESSION} is a FIFO`);
    // Trial 122 F3: the FIFO's note sent every later run the full way, after a pass over the
    // whole index ("0 sessions written", 1.3-2.1 s on a 352 MB index). Nothing changed: the
    // stat manifest vouches for the index (no SQLite opened), and the run says up to date.
    const path = indexPath(env);
    const selected = selectedHarnesses(env, path, ["claude"]);
    assert(selected && manifestUpToDate(env, path, selected), "the manifest vouches");
    const again: string[] = [];
    assertEquals(await main(io(["index", "--harness", "claude"], env, again, again)), 0);
    assertStringIncludes(again.join(""), "up to date (");
    assert(!again.join("").includes("written"), again.join(""));
  } finally {
    w.cleanup();
    rmSync(home, { recursive: true, force: true });
  }
});

Deno.test("deja index and deja sources note a folder named like a Claude session as not read (trial 122 F5)", async () => {
  const w = world("claude");
  const home = tempDir("deja-special-home-");
  try {
    const dirName = "98f9648f-0000-4000-8000-000000000001.jsonl";
    mkdirSync(join(w.env.get("DEJA_CLAUDE_ROOT")!, "-work-demo", dirName), { recursive: true });
    const vars = Object.fromEntries(
      ["DEJA_CLAUDE_ROOT", "TZ"].map((k) => [k, w.env.get(k)!]),
    );
    const env = testEnv(home, { ...vars, DEJA_HOME: join(home, "deja") });
    const out: string[] = [];
    assertEquals(await main(io(["index", "--harness", "claude", "--json"], env, out)), 0);
    const claude = JSON.parse(out.join("")).harnesses.find((h: { harness: string }) =>
      h.harness === "claude"
    );
    assert(claude.sessions > 0, "the sessions are indexed");
    assertEquals(claude.errors, []);
    const note = `${dirName} is a directory, not a regular file`;
    assert(claude.not_read.some((e: string) => e.includes(note)), claude.not_read);
    const src: string[] = [];
    assertEquals(await main(io(["sources", "--json"], env, src)), 0);
    const row = JSON.parse(src.join("")).harnesses.find((h: { harness: string }) =>
      h.harness === "claude"
    );
    assert(row.not_read.some((e: string) => e.includes(note)), row.not_read);
    // Noted, unchanged: the next run is a no-op as with a FIFO (trial 122 F3).
    const again: string[] = [];
    assertEquals(await main(io(["index", "--harness", "claude"], env, again, again)), 0);
    assertStringIncludes(again.join(""), "up to date (");
  } finally {
    w.cleanup();
    rmSync(home, { recursive: true, force: true });
  }
});

const KIMI = "sessions/32f964acafc4c2dd77eae0fd80952408";
const COMPANIONS: Array<{ id: string; file: string }> = [
  { id: "copilot", file: "session-state/c0ffee00-0000-4000-8000-000000000001/workspace.yaml" },
  { id: "cline", file: "sessions/1795000200000_abcde/1795000200000_abcde.json" },
  { id: "cursor", file: "workspaceStorage/ws01api/workspace.json" },
  { id: "gemini", file: "tmp/orphan/.project_root" },
  { id: "kimi", file: `${KIMI}/7f1c2a10-0000-4000-8000-000000000001/state.json` },
  { id: "kimi", file: "kimi.json" },
];

/** Every source of the harness parsed: sessions found and `unreadable` skips naming `file`. */
async function parseAll(id: string, env: Env, file: string) {
  const d = await byId(id).discover({ env, knownProjects: [] });
  let sessions = 0;
  const unreadable: string[] = [];
  for (const src of d.sources) {
    const { sessions: s, ctx } = await parseOne(byId(id), src, env);
    sessions += s.length;
    unreadable.push(...ctx.examples.filter((l) => l.startsWith("unreadable") && l.includes(file)));
  }
  return { sessions, unreadable };
}

for (const c of COMPANIONS) {
  Deno.test(`${c.id} counts ${c.file.split("/").pop()} as unreadable when it is a FIFO, and keeps the session`, async () => {
    const base = world(c.id);
    const before = await parseAll(c.id, base.env, c.file);
    base.cleanup();
    const w = world(c.id, c.file);
    try {
      const after = await parseAll(c.id, w.env, c.file);
      assertEquals(after.sessions, before.sessions, "no session is lost");
      assert(after.unreadable.length > 0, `${c.file}: counted unreadable`);
    } finally {
      w.cleanup();
    }
  });
}

/** A one-table store of 300 ids (`s<n>`, padded) with the page holding `s150` damaged. */
function damagedIds(path: string, table: string): void {
  const db = new DatabaseSync(path);
  db.exec(`CREATE TABLE ${table} (id TEXT, pad TEXT)`);
  const ins = db.prepare(`INSERT INTO ${table} (id, pad) VALUES (?, ?)`);
  for (let i = 0; i < 300; i++) ins.run(`s${i}`, "pad ".repeat(70));
  db.close();
  const bytes = new Uint8Array(readFileSync(path));
  const at = new TextDecoder("latin1").decode(bytes).indexOf("s150");
  const page = Math.floor(at / 4096);
  bytes.fill(0xa5, page * 4096, page * 4096 + 12);
  writeFileSync(path, bytes);
}

const SALVAGE: Array<{ id: string; db: string; table: string; legacy: (id: string) => string }> = [
  {
    id: "goose",
    db: "sessions/sessions.db",
    table: "sessions",
    legacy: (id) => `sessions/${id}.jsonl`,
  },
  {
    id: "opencode",
    db: "opencode.db",
    table: "session",
    legacy: (id) => `storage/session/proj/${id}.json`,
  },
];

for (const c of SALVAGE) {
  Deno.test(`${c.id} discovery reads the session ids on a database's intact pages when one page is damaged`, async () => {
    const root = tempDir("deja-special-salvage-");
    try {
      mkdirSync(dirname(join(root, c.db)), { recursive: true });
      damagedIds(join(root, c.db), c.table);
      for (const id of ["s3", "s299", "elsewhere"]) {
        const p = join(root, c.legacy(id));
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, "{}");
      }
      const env = testEnv(join(root, "__home__"), { [overrideVar(c.id)]: root });
      const { d } = await discoverWith(c.id, env);
      const legacy = d.sources.filter((s) => s.kind === "document").map((s) => s.path);
      // Ids on intact pages are known to be in the database: their legacy files are not listed.
      assertEquals(legacy, [join(root, c.legacy("elsewhere"))]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}
