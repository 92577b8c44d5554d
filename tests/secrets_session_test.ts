/**
 * A secret a cue names once is masked wherever its session repeats it bare, however the
 * session is cut into chunks on its way to the index (trial 111 F5: a password named in the
 * first event of a 1.2 MB session was stored in clear where its last event repeated it).
 */
import { assert, assertEquals } from "./_assert.ts";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import type { Env } from "../core/model.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { parsers } from "../parsers/mod.ts";
import { CHUNK_EVENTS, claude } from "../parsers/claude.ts";
import { claudeLines, type Turn } from "./_memory.ts";
import { testEnv } from "./_fixture.ts";
import { scopedTempDir } from "./_tmp.ts";

const SECRET = "Gl4ssOniong00000";
const ID = "5ec5e551-0000-4000-8000-000000000001";

/** Filler replies: enough that a session spans `chunks` parser chunks. */
function filler(chunks: number): Turn[] {
  return Array.from({ length: CHUNK_EVENTS * (chunks - 1) + 10 }, (_, i) => ({
    say: `filler reply ${i} about the flaky build`,
  }));
}

/** A temp world: the Claude Code store's session file and the env that indexes it. */
function world(dir: string, worker: string): { env: Env; file: string } {
  const root = join(dir, "claude");
  const project = join(root, "-w-p");
  mkdirSync(project, { recursive: true });
  const env = testEnv(join(dir, "home"), {
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: root,
    XDG_DATA_HOME: join(dir, "xdg"),
    XDG_CONFIG_HOME: join(dir, "config"),
    DEJA_PARSE_WORKER: worker,
    TZ: "UTC",
  });
  return { env, file: join(project, `${ID}.jsonl`) };
}

function write(file: string, turns: Turn[]): void {
  const lines = claudeLines({ id: ID, cwd: "/w/p", start: "2026-11-21T11:00:00Z", turns });
  writeFileSync(file, lines.join("\n") + "\n");
}

/** How many chunks the parser yields of the session file (the test's premise). */
async function chunksOf(env: Env, file: string): Promise<number> {
  let n = 0;
  const src = { harness: "claude", path: file, kind: "append" as const };
  for await (const _ of claude.parse(src, new SourceCtx(env))) n++;
  return n;
}

/** The index file's bytes (and its WAL's) as text. */
function indexBytes(env: Env): string {
  const p = indexPath(env);
  const store = Store.open(p);
  try {
    store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    store.close();
  }
  let s = readFileSync(p).toString("latin1");
  if (existsSync(`${p}-wal`)) s += readFileSync(`${p}-wal`).toString("latin1");
  return s;
}

/** What `deja <args>` prints on stdout, and its exit code. */
async function deja(env: Env, args: string[]): Promise<{ out: string; code: number }> {
  const out: string[] = [];
  const io: IO = {
    args,
    env,
    cwd: "/w/p",
    out: (t) => out.push(t),
    err: () => {},
    isTTY: false,
    errTTY: false,
    readStdin: () => Promise.resolve(""),
  };
  const code = await main(io);
  return { out: out.join(""), code };
}

/** The texts of the session's events, in order. */
function texts(env: Env): string[] {
  const store = Store.open(indexPath(env));
  try {
    return (store.db.prepare(
      "SELECT e.text FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.native_id = ? ORDER BY e.seq",
    ).all(ID) as { text: string }[]).map((r) => r.text);
  } finally {
    store.close();
  }
}

/** The secret is in no byte of the index, no event, no search or `show` output. */
async function assertMasked(env: Env): Promise<void> {
  const all = texts(env);
  assert(all.length > CHUNK_EVENTS * 2, `the session was indexed (${all.length} events)`);
  assertEquals(all.filter((t) => t.includes(SECRET)), []);
  assert(!indexBytes(env).toLowerCase().includes(SECRET.toLowerCase()), "stored in the index");
  const found = await deja(env, ["--no-refresh", SECRET]);
  assert(!found.out.includes(SECRET), found.out);
  assertEquals(found.code, 1, found.out);
  const shown = await deja(env, ["show", ID.slice(0, 8), "--full"]);
  assert(shown.out.includes("filler reply"), "show printed the session");
  assert(!shown.out.includes(SECRET), "shown in clear");
}

for (const worker of ["0", "1"]) {
  const where = worker === "1" ? "a parse worker" : "in process";
  Deno.test(`a value named in a session's first chunk is masked where its third repeats it (${where})`, async () => {
    using tmp = scopedTempDir("deja-secrets-");
    const { env, file } = world(tmp.path, worker);
    write(file, [
      { user: `the db password is ${SECRET} - connect to prod` },
      ...filler(3),
      { say: `Logged in to the database with ${SECRET} successfully.` },
    ]);
    assert(await chunksOf(env, file) >= 3, "the session is read in three chunks or more");
    await runIndex(env, parsers, { only: ["claude"] });
    await assertMasked(env);
    const last = texts(env).at(-1)!;
    assertEquals(last, "Logged in to the database with [redacted:prose_password] successfully.");
  });
}

/** Turns holding the secret bare: a reply, a command, an edit's replaced text. */
const BARE: Turn[] = [
  { say: `Logged in to the database with ${SECRET} successfully.` },
  { bash: `echo ${SECRET} > /tmp/login.txt`, out: "", exit: 0 },
  { edit: "/w/p/notes.txt", old: `login ${SECRET}`, new: "login removed" },
];

/** Every row of the index that holds the secret, by table (the vocabulary included). */
function rowsHolding(env: Env): Record<string, number> {
  const store = Store.open(indexPath(env));
  try {
    const n = (sql: string) => (store.db.prepare(sql).get(`%${SECRET}%`) as { n: number }).n;
    return {
      events: n("SELECT count(*) n FROM events WHERE text LIKE ? OR data LIKE ?1"),
      commands: n("SELECT count(*) n FROM commands WHERE command LIKE ?"),
      files: n("SELECT count(*) n FROM files WHERE old LIKE ? OR new LIKE ?1"),
      titles: n("SELECT count(*) n FROM sessions WHERE title LIKE ?"),
      vocab: n("SELECT count(*) n FROM vocab WHERE term LIKE ?"),
      fts: n("SELECT count(*) n FROM events_vocab WHERE term LIKE ?"),
    };
  } finally {
    store.close();
  }
}

const NONE = { events: 0, commands: 0, files: 0, titles: 0, vocab: 0, fts: 0 };

/** Not held by any row, not found by search, not shown. */
async function assertMaskedRows(env: Env): Promise<void> {
  assertEquals(rowsHolding(env), NONE);
  const found = await deja(env, ["--no-refresh", SECRET]);
  assert(!found.out.includes(SECRET), found.out);
  assertEquals(found.code, 1, found.out);
  const shown = await deja(env, ["show", ID.slice(0, 8), "--full"]);
  assert(shown.out.includes("Logged in to the database with [redacted:prose_password]"), "shown");
  assert(!shown.out.includes(SECRET), "shown in clear");
}

for (const worker of ["0", "1"]) {
  const where = worker === "1" ? "a parse worker" : "in process";
  Deno.test(`a value named in a session's third chunk is masked where its first held it bare (${where})`, async () => {
    using tmp = scopedTempDir("deja-secrets-");
    const { env, file } = world(tmp.path, worker);
    write(file, [
      ...BARE,
      ...filler(3),
      { user: `the db password is ${SECRET} - connect to prod` },
    ]);
    assert(await chunksOf(env, file) >= 3, "the session is read in three chunks or more");
    await runIndex(env, parsers, { only: ["claude"] });
    await assertMaskedRows(env);
  });
}

Deno.test("a value named in a part of a session appended later is masked in the part an earlier run indexed", async () => {
  using tmp = scopedTempDir("deja-secrets-");
  const { env, file } = world(tmp.path, "0");
  const first: Turn[] = [...BARE, { say: "filler reply about the flaky build" }];
  const spec = (turns: Turn[]) =>
    claudeLines({
      id: ID,
      cwd: "/w/p",
      start: "2026-11-21T11:00:00Z",
      title: `Connect with ${SECRET}`,
      turns,
    });
  writeFileSync(file, spec(first).join("\n") + "\n");
  await runIndex(env, parsers, { only: ["claude"] });
  assert(rowsHolding(env).events > 0, "the first run stored the value: no cue named it yet");
  const before = texts(env).length;
  // The same lines, and after them the cue (the file appended to, as a live session is).
  writeFileSync(
    file,
    spec([...first, { user: `the db password is ${SECRET} - connect to prod` }]).join("\n") +
      "\n",
  );
  const r = await runIndex(env, parsers, { only: ["claude"] });
  assertEquals(r.harnesses[0].errors, []);
  await assertMaskedRows(env);
  assertEquals(texts(env).length, before + 1, "the first part's events kept, one added");
});

/** The parser state each source keeps in the index (`sources.state`), joined. */
function states(env: Env): string {
  const store = Store.open(indexPath(env));
  try {
    return (store.db.prepare("SELECT state FROM sources").all() as { state: string | null }[])
      .map((r) => r.state ?? "").join("\n");
  } finally {
    store.close();
  }
}

const TITLED = "Marm4lade7Sunrise";

Deno.test("a title repeating a value a cue named is masked in the parser state, and stays masked after an append (trial 114 F1)", async () => {
  using tmp = scopedTempDir("deja-secrets-");
  const { env, file } = world(tmp.path, "0");
  const spec = (turns: Turn[]) =>
    claudeLines({
      id: ID,
      cwd: "/w/p",
      start: "2026-11-21T11:00:00Z",
      title: `Login fix using ${TITLED}`,
      turns,
    }).join("\n") + "\n";
  const first: Turn[] = [{ user: `set it in .env: password=${TITLED}` }, { say: "done" }];
  writeFileSync(file, spec(first));
  const clear = async (when: string) => {
    assert(!states(env).includes(TITLED), `${when}: the state holds the value`);
    assert(
      states(env).includes("Login fix using [redacted:"),
      `${when}: the state keeps the title`,
    );
    assert(!indexBytes(env).toLowerCase().includes(TITLED.toLowerCase()), `${when}: in index.db`);
    const found = await deja(env, ["--no-refresh", TITLED]);
    assertEquals(found.code, 1, `${when}: ${found.out}`);
    const last = await deja(env, ["last", "--no-refresh"]);
    assert(last.out.includes("Login fix using [redacted:"), `${when}: ${last.out}`);
    assert(!last.out.includes(TITLED), `${when}: ${last.out}`);
  };
  await runIndex(env, parsers, { only: ["claude"] });
  await clear("first index");
  // A harmless line appended: the parser resumes from its state, title and all.
  const grown = spec([...first, { user: "one more harmless prompt" }]);
  assert(grown.startsWith(spec(first)), "the file is appended to");
  writeFileSync(file, grown);
  const r = await runIndex(env, parsers, { only: ["claude"] });
  assertEquals(r.harnesses[0].errors, []);
  assertEquals(texts(env).at(-1), "one more harmless prompt", "the append was read");
  await clear("after an append");
});

const CUT = "Womb4tSaguaro";

Deno.test("a value a cue names in the cut middle of a long tool output is masked where the session repeats it (trial 114 F2)", async () => {
  using tmp = scopedTempDir("deja-secrets-");
  const { env, file } = world(tmp.path, "0");
  const fill = (n: number) => Array.from({ length: n }, (_, i) => `line ${i} of the app log`);
  const out = [...fill(1000), `DB_URL=postgres://app:${CUT}@db:5432/x`, ...fill(1000)].join(
    "\n",
  );
  assert(out.length > 40_000, "the output is long");
  write(file, [
    { user: `before: ${CUT}` },
    { bash: "cat app.log", out, exit: 0 },
    { user: `after: ${CUT}` },
  ]);
  await runIndex(env, parsers, { only: ["claude"] });
  const all = texts(env);
  assert(all.some((t) => t.includes(" characters cut] …")), "the output was cut");
  assert(all.every((t) => !t.includes("DB_URL")), "the cut middle is not kept");
  assertEquals(all.filter((t) => t.includes(CUT)), []);
  assertEquals(all[0], "before: [redacted:url_credentials]");
  assertEquals(all.at(-1), "after: [redacted:url_credentials]");
  assert(!indexBytes(env).toLowerCase().includes(CUT.toLowerCase()), "in index.db");
  const found = await deja(env, ["--no-refresh", CUT]);
  assertEquals(found.code, 1, found.out);
});
