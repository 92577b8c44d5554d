/**
 * A tiny Crush world for store-damage and copy tests: a projects.json listing
 * project folders, a crush.db of short sessions (`a`, `b`: 2 short messages)
 * and one long one (`c`: 6 messages, each marked `C<n>Z` and long enough for a
 * page of its own), the variables that point deja (and nothing else) at them,
 * and a way to damage exactly the pages of session c.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Env } from "../core/model.ts";
import { runIndex } from "../lib/indexer.ts";
import { parsers } from "../parsers/mod.ts";
import { testEnv } from "./_fixture.ts";

/** The page size SQLite gives a new database here. */
const PAGE = 4096;

/** Writes `<dir>/crush/projects.json` listing `projects` (each with its `.crush` data folder). */
export function listProjects(dir: string, projects: readonly string[]): void {
  writeFileSync(
    join(dir, "crush", "projects.json"),
    JSON.stringify({ projects: projects.map((p) => ({ path: p, data_dir: join(p, ".crush") })) }),
  );
}

/** Creates the two tables of a Crush store (the columns the reader uses) in `db`. */
export function crushTables(db: DatabaseSync): void {
  db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT, created_at INTEGER,
    updated_at INTEGER);
    CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, parts TEXT,
    created_at INTEGER)`);
}

/** A crush.db at `path` holding `ids` (of a, b, c), all updated at 1000 unless `cUpdated` says when c was. */
export function tinyStore(path: string, ids: readonly string[], cUpdated = 1000): void {
  const db = new DatabaseSync(path);
  try {
    crushTables(db);
    const msg = db.prepare("INSERT INTO messages VALUES (?, ?, ?, ?, ?)");
    const text = (t: string) => JSON.stringify([{ type: "text", data: { text: t } }]);
    for (const s of ids) {
      db.prepare("INSERT INTO sessions VALUES (?, ?, 1000, ?)").run(
        `${s.repeat(8)}-s`,
        s,
        s === "c" ? cUpdated : 1000,
      );
      const n = s === "c" ? 6 : 2;
      for (let i = 0; i < n; i++) {
        const body = s === "c"
          ? `C${i}Z ${"zanzibar harbour ledger ".repeat(70)}`
          : `${s} turn ${i}`;
        msg.run(`${s}${i}`, `${s.repeat(8)}-s`, i % 2 ? "assistant" : "user", text(body), 1000 + i);
      }
    }
  } finally {
    db.close();
  }
}

/** Every location deja could read or write, under `dir`. */
export function tinyVars(dir: string): Record<string, string> {
  return {
    HOME: join(dir, "home"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CRUSH_ROOT: join(dir, "crush"),
    XDG_DATA_HOME: join(dir, "xdg"),
    XDG_CONFIG_HOME: join(dir, "xdg"),
    XDG_STATE_HOME: join(dir, "xdg"),
    CRUSH_GLOBAL_DATA: join(dir, "crush"),
    CRUSH_GLOBAL_CONFIG: join(dir, "crush"),
    DEJA_NO_REFRESH: "1",
    TZ: "UTC",
  };
}

/** Breaks the b-tree header of every page holding one of session c's messages. */
export function damageSessionC(path: string): void {
  const b = new Uint8Array(readFileSync(path));
  const text = new TextDecoder("latin1").decode(b);
  for (let i = 0; i < 6; i++) {
    const n = Math.floor(text.indexOf(`C${i}Z`) / PAGE);
    b.fill(0xa5, n * PAGE, n * PAGE + 12);
  }
  writeFileSync(path, b);
}

/**
 * One Crush session (`sid`, titled `title`, its messages as `[role, parts]` in order) in a
 * project under `root`, listed in projects.json and indexed; the environment that reads it.
 */
export function indexedCrushSession(
  root: string,
  sid: string,
  title: string,
  rows: ReadonlyArray<readonly [string, unknown[]]>,
): Promise<Env> {
  return indexedCrushSessions(root, [{ sid, title, rows }]);
}

/** {@link indexedCrushSession} of several sessions in one store, in order, a second apart. */
export async function indexedCrushSessions(
  root: string,
  sessions: ReadonlyArray<
    { sid: string; title: string; rows: ReadonlyArray<readonly [string, unknown[]]> }
  >,
): Promise<Env> {
  const project = join(root, "proj");
  mkdirSync(join(project, ".crush"), { recursive: true });
  mkdirSync(join(root, "crush"), { recursive: true });
  listProjects(root, [project]);
  const db = new DatabaseSync(join(project, ".crush", "crush.db"));
  try {
    crushTables(db);
    const msg = db.prepare("INSERT INTO messages VALUES (?, ?, ?, ?, ?)");
    sessions.forEach(({ sid, title, rows }, k) => {
      const at = 1000 * (k + 1);
      db.prepare("INSERT INTO sessions VALUES (?, ?, ?, ?)").run(sid, title, at, at + 10);
      rows.forEach(([role, parts], i) =>
        msg.run(`m${k}-${i}`, sid, role, JSON.stringify(parts), at + 1 + i)
      );
    });
  } finally {
    db.close();
  }
  const env = testEnv(join(root, "home"), {
    DEJA_HOME: join(root, "deja"),
    DEJA_CRUSH_ROOT: join(root, "crush"),
    TZ: "UTC",
  });
  await runIndex(env, parsers, { only: ["crush"] });
  return env;
}
