/**
 * opencode (sst/opencode, `opencode-ai` on npm).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Env,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { isRegularFile, listFiles } from "../core/fs.ts";
import { expandHome, overrideVar, rootFrom } from "../core/paths.ts";
import { looseHistorySession } from "./_prompt_history.ts";
import { promptHistoryId } from "../core/prompt_history.ts";
import { openSalvaged } from "../core/sqlite_read.ts";
import { toMillis } from "./_time.ts";
import { obj, str } from "./_util.ts";
import { opencodeDatabases, readOpencodeDb } from "./_opencode_db.ts";
import { readJsonObject } from "./_json_doc.ts";
import { buildSession, type OcMessage, type OcPart } from "./_opencode_events.ts";

const ID = "opencode";

/**
 * The opencode parser.
 *
 * Store layout, under the data dir
 * `${DEJA_OPENCODE_ROOT:-${XDG_DATA_HOME:-~/.local/share}/opencode}` (opencode
 * uses XDG paths on every OS):
 * - `opencode.db` (+ `-wal`, `-shm`): SQLite, WAL mode, opencode 1.2 and later
 *   (observed in realdata/farm/opencode, 1.18.33, rows only in the `-wal`; and
 *   realdata/opencode, 1.17.3-aiand.1). Non-stable channel builds write
 *   `opencode-<channel>.db` beside it, and `OPENCODE_DB` (absolute, or relative
 *   to the data dir) names another file (opencode's `storage/db.ts`, read via
 *   the search tool). One `sqlite` source per file; see `_opencode_db.ts`.
 * - `storage/`: the legacy JSON tree of opencode before 1.2 (verified in
 *   opencode's `storage/storage.ts` and `storage/json-migration.ts`):
 *   `storage/session/<projectID>/<sessionID>.json` `{id, directory, title,
 *   parentID, time {created, updated}}`, `storage/message/<sessionID>/<msgID>.json`
 *   and `storage/part/<msgID>/<partID>.json` with the same message and part
 *   shapes as the database's `data` column; ids come from the file names. One
 *   `document` source per session file. opencode copies this tree into the
 *   database once (when the db does not exist yet) and leaves it in place, so
 *   a session file whose id is already in a discovered database is not listed.
 *
 * - `prompt-history.jsonl` in opencode's state dir: the TUI's prompt history,
 *   read by `parseHistory` (its prompts that no session holds).
 *
 * Mapping (see `_opencode_events.ts`): text parts -> user / assistant events
 * (synthetic text dropped; text of an assistant `summary: true` message ->
 * summary); tool parts -> one tool_call and, once completed or failed, one
 * tool_result (`bash` -> command with `metadata.exit`; `read` -> paths;
 * `edit`/`multiedit` -> edits; `write` -> writes; `apply_patch`/`patch` ->
 * edits and writes from the patch envelope). Session title from
 * `session.title` (placeholder titles dropped), parent from `parent_id`,
 * project from `session.directory`. All times epoch ms.
 */
export const opencode: Parser = {
  id: ID,
  discover,
  parse(source: SourceRef, ctx: ParseCtx): AsyncIterable<Session> {
    if (source.hint?.history !== undefined) return parseHistory(source, ctx);
    return source.kind === "sqlite"
      ? readOpencodeDb(ID, source.path, ctx)
      : parseLegacy(source, ctx);
  },
};

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const root = rootFrom(env, ID, [["XDG_DATA_HOME", "opencode"]], "~/.local/share/opencode");
  const legacyDir = join(root, "storage", "session");
  const dbs = await opencodeDatabases(env, root, ID, "OPENCODE_DB", problem);
  const sources: SourceRef[] = dbs.map((path) => ({
    harness: ID,
    path,
    kind: "sqlite",
    companions: [`${path}-wal`],
  }));
  const files = await listFiles(legacyDir, {
    match: (p, n) => n.endsWith(".json") && dirname(p) !== legacyDir,
    maxDepth: 1,
    onError: problem,
  });
  if (files.length) {
    const migrated = sessionIdsIn(dbs, env);
    for (const path of files) {
      if (migrated.has(basename(path, ".json"))) continue;
      sources.push({
        harness: ID,
        path,
        kind: "document",
        hint: { projectID: basename(dirname(path)) },
      });
    }
  }
  const history = historyPath(env, root);
  if (await isRegularFile(history, problem)) {
    sources.push({ harness: ID, path: history, kind: "append", hint: { history: dbs.join("\n") } });
  }
  return { roots: [root, ...dbs, legacyDir], sources, wants: [history] };
}

/**
 * The TUI's prompt history: `${XDG_STATE_HOME:-~/.local/state}/opencode/prompt-history.jsonl`
 * (realdata/opencode, 1.17.3-aiand.1), or `prompt-history.jsonl` in `DEJA_OPENCODE_ROOT`
 * when that is set (deja's own override: the one folder holds the whole store).
 */
function historyPath(env: Env, root: string): string {
  if (env.get(overrideVar(ID))) return join(root, "prompt-history.jsonl");
  const state = expandHome(env, env.get("XDG_STATE_HOME") ?? "~/.local/state");
  return join(state, "opencode", "prompt-history.jsonl");
}

/**
 * `prompt-history.jsonl`, one `{input, parts, mode}` line per prompt typed (no session id,
 * no time): the prompts whose text is in no user text part of the databases become the session
 * `prompt-history` (realdata: 15 of its 17 prompts are in no session of the trimmed db).
 */
function parseHistory(source: SourceRef, ctx: ParseCtx): AsyncIterable<Session> {
  const dbs = (source.hint?.history ?? "").split("\n").filter(Boolean);
  const known = textsIn(dbs, ctx.env);
  return looseHistorySession(ID, source.path, ctx, { id: promptHistoryId(), text: "input", known });
}

/**
 * The user messages' text parts: the small `message` rows are scanned for their role and only
 * those messages' parts are fetched by `part_message_id_id_idx` (CROSS JOIN keeps that order;
 * SQLite's own plan scanned every part, tool outputs included). On a synthetic 194 MB database
 * (10,000 user and 10,000 assistant messages, 40,000 parts of 4 KB) at load ~8: 106–218 ms
 * against 245–582 ms for the scan of every text part, which stays the fallback.
 */
const USER_TEXTS = "SELECT json_extract(p.data, '$.text') AS t FROM message m " +
  "CROSS JOIN part p ON p.message_id = m.id " +
  "WHERE json_extract(m.data, '$.role') = 'user' AND json_extract(p.data, '$.type') = 'text'";
const ALL_TEXTS = "SELECT json_extract(data, '$.text') AS t FROM part " +
  "WHERE json_extract(data, '$.type') = 'text'";

/** The trimmed texts of the user text parts in the databases; empty on any failure. */
function textsIn(dbs: string[], env: Env): Set<string> {
  const texts = new Set<string>();
  for (const path of dbs) {
    let handle;
    try {
      handle = openSalvaged(path, { env, skip: () => {} });
      let rows: Array<{ t: unknown }>;
      try {
        rows = handle.db.prepare(USER_TEXTS).all() as Array<{ t: unknown }>;
      } catch {
        // An older schema (no message table or role): every text part.
        rows = handle.db.prepare(ALL_TEXTS).all() as Array<{ t: unknown }>;
      }
      for (const r of rows) {
        if (typeof r.t === "string") texts.add(r.t.trim());
      }
    } catch {
      // Unreadable or foreign store: its own parse reports it; keep every prompt.
    } finally {
      handle?.close();
    }
  }
  return texts;
}

/** Session ids already in the databases (legacy files opencode migrated); empty on any failure. */
function sessionIdsIn(dbs: string[], env: Env): Set<string> {
  const ids = new Set<string>();
  for (const path of dbs) {
    let handle;
    try {
      handle = openSalvaged(path, { env, skip: () => {} });
      for (const r of handle.db.prepare("SELECT id FROM session").all() as Array<{ id: unknown }>) {
        if (typeof r.id === "string") ids.add(r.id);
      }
    } catch {
      // Unreadable or foreign store: its own parse reports it; list every legacy file.
    } finally {
      handle?.close();
    }
  }
  return ids;
}

/** One legacy session file with its message and part files. */
async function* parseLegacy(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const info = await readJsonObject(source.path, source.path, ctx);
  if (!info) return;
  const id = basename(source.path, ".json");
  const storage = dirname(dirname(dirname(source.path)));
  const json = { match: (_p: string, n: string) => n.endsWith(".json"), maxDepth: 0 };
  const messages: OcMessage[] = [];
  for (const file of await listFiles(join(storage, "message", id), json)) {
    const data = await readJsonObject(file, `message ${basename(file)}`, ctx);
    if (!data) continue;
    const msgId = basename(file, ".json");
    const parts: OcPart[] = [];
    for (const pf of await listFiles(join(storage, "part", msgId), json)) {
      const pd = await readJsonObject(pf, `part ${basename(pf)}`, ctx);
      if (pd) parts.push({ id: basename(pf, ".json"), data: pd });
    }
    messages.push({ id: msgId, data, parts });
  }
  const created = (m: OcMessage) => toMillis(obj(m.data.time)?.created) ?? 0;
  messages.sort((a, b) => created(a) - created(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const time = obj(info.time);
  yield buildSession(
    ID,
    source.path,
    {
      id,
      directory: str(info.directory),
      title: str(info.title),
      parentId: str(info.parentID),
      created: toMillis(time?.created),
      updated: toMillis(time?.updated),
    },
    messages,
    ctx,
  );
}
