/**
 * Test support for the Crush hook: copies of the real Crush stores in
 * ../shared/realdata/crush laid out as Crush keeps them (projects.json naming
 * one project per store) and indexed, and a live session that grows inside
 * one of them, copied message by message from a real session under a new id.
 */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { basename, join } from "node:path";
import { REPO, testEnv } from "./_fixture.ts";
import { runIndex } from "../lib/indexer.ts";
import { parsers } from "../parsers/mod.ts";
import type { Env } from "../core/model.ts";
import { makeEnv } from "../core/runtime.ts";
import { tempDir } from "./_tmp.ts";

export const REAL = join(REPO, "..", "shared", "realdata", "crush");
/** The real "Add Redis" session (k3s store) the live session is copied from. */
export const REDIS = "093f9963-97b6-4279-9bea-ded429193b34";
/** Its subagent (an agent-tool session). */
export const SUB = "call_e5a890454e8c4a71b5efd553";
/** The summary message of the real "Flux Kustomization" session. */
export const SUMMARY_MSG = "62ff4016-7eb7-43d8-a175-fe6e6cdd6877";
export const LIVE = "live-0000-redis";

export interface World {
  env: Env;
  project: string;
  db: DatabaseSync;
  root: string;
}

/**
 * The indexed copies; `env` points the hooks at them, CRUSH_PROJECT_DIR at the k3s project.
 * `stashFinished`: the copy of the "Add Redis" session gets the result its last call never got
 * (the store ends on `git stash`, called and never answered), a stash that succeeded, so the
 * session holds a fix for the `git pull --rebase` failure before it (a call with no result is no
 * fix: lib/memory/fix.ts).
 */
export async function world(opts: { stashFinished?: boolean } = {}): Promise<World> {
  const root = tempDir("deja-hook-crush-");
  const projects: Array<Record<string, string>> = [];
  for (const name of readdirSync(REAL).sort()) {
    if (!name.endsWith(".db")) continue;
    const proj = join(root, "projects", basename(name, ".db"));
    mkdirSync(join(proj, ".crush"), { recursive: true });
    copyFileSync(join(REAL, name), join(proj, ".crush", "crush.db"));
    projects.push({
      path: proj,
      data_dir: join(proj, ".crush"),
      last_accessed: "2026-11-01T00:00:00Z",
    });
  }
  if (opts.stashFinished) finishStash(join(root, "projects", "k3s-subagent-summary-0627"));
  mkdirSync(join(root, "data"));
  writeFileSync(join(root, "data", "projects.json"), JSON.stringify({ projects }));
  const vars = { DEJA_HOME: join(root, "deja"), DEJA_CRUSH_ROOT: join(root, "data") };
  await runIndex(testEnv(join(root, "home"), vars), parsers, { only: ["crush"] });
  const project = join(root, "projects", "k3s-subagent-summary-0627");
  const env = makeEnv(
    { HOME: join(root, "home"), ...vars, CRUSH_PROJECT_DIR: project },
    join(root, "home"),
  );
  const db = new DatabaseSync(join(project, ".crush", "crush.db"));
  return { env, project, db, root };
}

/** The stash call of the "Add Redis" session, answered as Crush answers a command that exited 0. */
function finishStash(project: string): void {
  const db = new DatabaseSync(join(project, ".crush", "crush.db"));
  try {
    const t = 1757346946;
    const content = "Saved working directory and index state WIP on main: 1a2b3c4 add redis\n\n" +
      "<cwd>/Users/user/Code/k</cwd>";
    const parts = [
      {
        type: "tool_result",
        data: { tool_call_id: "call_db31e86b5ac942db8559c9dc", name: "", content, is_error: false },
      },
      { type: "finish", data: { reason: "stop", time: 0 } },
    ];
    // Every other column as the failed pull's result row has it.
    const c = cols(db, "messages");
    const pick = c.map((n) =>
      n === "id" ? "?" : n === "parts" ? "?" : n === "created_at" || n === "updated_at" ? "?" : n
    );
    const args = c.flatMap((n): Array<string | number> =>
      n === "id"
        ? ["stash-result"]
        : n === "parts"
        ? [JSON.stringify(parts)]
        : n === "created_at" || n === "updated_at"
        ? [t]
        : []
    );
    db.prepare(
      `INSERT INTO messages (${c.join(",")}) SELECT ${pick.join(",")} FROM messages
       WHERE session_id = ? AND role = 'tool' ORDER BY rowid DESC LIMIT 1`,
    ).run(...args, REDIS);
    // Crush's triggers stamp the session with the wall clock on every write: it ended when its
    // last message did, so they stand aside for the last word.
    const triggers = db.prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'sessions'",
    ).all() as Array<{ name: string; sql: string }>;
    for (const tr of triggers) db.exec(`DROP TRIGGER "${tr.name}"`);
    db.prepare("UPDATE sessions SET updated_at = ? WHERE id = ?").run(t, REDIS);
    for (const tr of triggers) db.exec(tr.sql);
  } finally {
    db.close();
  }
}

function cols(db: DatabaseSync, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as Array<{ name: string }>)
    .map((r) => r.name);
}

/** Starts the live session: a copy of the session row of `from` under `LIVE`. */
export function startLive(db: DatabaseSync, from: string): void {
  const c = cols(db, "sessions");
  const pick = c.map((n) =>
    n === "id"
      ? "?"
      : n === "summary_message_id" || n === "parent_session_id"
      ? "NULL"
      : n === "message_count"
      ? "0"
      : n
  );
  db.prepare(
    `INSERT INTO sessions (${c.join(",")}) SELECT ${pick.join(",")} FROM sessions WHERE id = ?`,
  )
    .run(LIVE, from);
}

/** Copies the messages of `from` with rowids in (after, upto] into the live session. */
export function reveal(db: DatabaseSync, from: string, after: number, upto: number): void {
  const c = cols(db, "messages");
  const pick = c.map((n) => n === "id" ? "'L-' || id" : n === "session_id" ? "?" : n);
  db.prepare(
    `INSERT INTO messages (${c.join(",")}) SELECT ${pick.join(",")} FROM messages
     WHERE session_id = ? AND rowid > ? AND rowid <= ? ORDER BY rowid`,
  ).run(LIVE, from, after, upto);
}

/** Adds a message to the live session (parts as Crush writes them), one second after the last. */
export function addMessage(db: DatabaseSync, id: string, role: string, parts: unknown[]): void {
  const t =
    (db.prepare("SELECT MAX(created_at) AS t FROM messages WHERE session_id = ?").get(LIVE) as {
      t: number;
    }).t + 1;
  db.prepare(
    "INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(id, LIVE, role, JSON.stringify(parts), t, t);
}
