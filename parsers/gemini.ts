/**
 * Gemini CLI (`@google/gemini-cli`).
 *
 * @module
 */
import { readStoreText } from "../core/fsread.ts";
import { createHash } from "node:crypto";
import { basename, dirname, join, sep } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Event,
  ParseCtx,
  Parser,
  Session,
  SkipReason,
  SourceRef,
} from "../core/model.ts";
import {
  isRegularFile,
  listFiles,
  readJsonFile,
  readTextOrNone,
  skipUnreadable,
  subdirs,
  type Unreadable,
} from "../core/fs.ts";
import { headRecords, readJsonl } from "./_jsonl.ts";
import {
  countStreamDamage,
  salvageDocument,
  streamDocument,
  type StreamedDocument,
  WHOLE_DOC_BYTES,
  wholeDocMax,
} from "./_json_doc.ts";
import { stat } from "node:fs/promises";
import { REPAIRED } from "../core/text.ts";
import { rootFrom } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { arr, type Obj, obj, str } from "./_util.ts";
import { geminiMessageEvents } from "./_gemini_events.ts";
import { logSessions } from "./_gemini_logs.ts";
import {
  checkpointFiles,
  checkpointSessionIds,
  checkpointSessions,
} from "./_gemini_checkpoints.ts";

const ID = "gemini";

/** A folder name that is a session id (Gemini CLI session ids are UUIDs). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The Gemini CLI parser.
 *
 * Store layout, under `${DEJA_GEMINI_ROOT:-${GEMINI_CLI_HOME:-~}/.gemini}`
 * (`GEMINI_CLI_HOME` names the directory that holds `.gemini`; docs/registry/gemini.md):
 * - `tmp/<projectId>/chats/**` holds the chats. `<projectId>` is a sha256 of
 *   the project root (older builds; realdata/gemini-cli) or a slug (newer
 *   builds; realdata/farm/gemini, 0.61.0). Subagent chats live one level down,
 *   in `chats/<parent session id>/<id>.json[l]` with `kind: "subagent"`
 *   (realdata/gemini-cli `twynek.json`); a folder that is not a UUID (e.g.
 *   `skill-extraction-<hex>`, Gemini's background skill extraction) names no
 *   session: such a chat is filed under the folder's name (`unknown` when it
 *   lies in `chats/` itself), a parent the index never holds.
 * - `*.json`: one whole conversation `{sessionId, projectHash, startTime,
 *   lastUpdated, kind?, summary?, directories?, messages[]}` (older builds).
 *   Other JSON in `chats/` (checkpoints, a stray `logs.json`) has no
 *   `sessionId` and is ignored.
 * - `tmp/<projectId>/logs.json`: the prompt log (`_gemini_logs.ts`); the
 *   prompts of a session whose chat is gone are that session.
 * - `tmp/<projectId>/checkpoint-<tag>.json`: a saved conversation
 *   (`_gemini_checkpoints.ts`); when no chat holds it, it is the session (and
 *   the prompt log leaves a session it names to it).
 * - `*.jsonl`: the streamed layout (0.61.0; Gemini CLI's
 *   `chatRecordingService.ts`, read via the search tool): a metadata line
 *   `{sessionId, projectHash, startTime, lastUpdated, kind}`, message lines
 *   (a line whose `id` was seen before replaces that message in place: the CLI
 *   rewrites a message when its tool calls arrive), `{"$set": {...}}` patches
 *   (a `messages` list replaces the whole state) and `{"$rewindTo": "<id>"}`
 *   (that message and everything after it are dropped; an unknown id changes
 *   nothing). Replayed in order, so both layouts are `document` sources.
 * - A resumed `.json` chat is rewritten as `<same name>.jsonl`; discovery then
 *   drops the `.json`, and parsing a `.json` whose `.jsonl` twin exists yields
 *   nothing, so the `.jsonl` always wins.
 * - Project: `projects.json` `{"projects": {"<abs path>": "<projectId>"}}`
 *   reverse lookup (by slug, or by the sha256 of the path for hashed folders
 *   and `projectHash`), else `tmp/<projectId>/.project_root`, else unknown.
 *
 * Mapping (`_gemini_events.ts`): `user` -> user (the `<session_context>`
 * environment turn and function-response-only turns dropped); `gemini` /
 * `model` -> assistant (thoughts dropped); `info`/`error`/`warning` -> notice;
 * `toolCalls[]` -> tool_call + tool_result (`run_shell_command` -> command,
 * exit from `Exit Code: N`; `replace`/`edit` -> edits; `write_file` -> writes;
 * `read_file` -> paths; a resumed chat's `$set` snapshot carries the calls as
 * `functionCall` parts and the results as `functionResponse` parts, mapped the
 * same way, first copy of a result kept). Times are ISO strings -> epoch ms;
 * a message without one gets the session start. Title from `summary`.
 */
export const gemini: Parser = {
  id: ID,
  discover,
  parse,
};

function geminiRoot(env: DiscoverCtx["env"]): string {
  return rootFrom(env, ID, [["GEMINI_CLI_HOME", ".gemini"]], "~/.gemini");
}

/** What a checkpoint is, for `deja sources --verbose` (Discovery.notSessions). */
const CHECKPOINT =
  "checkpoint (the chat saved before a tool changed a file, for /restore; the chat itself is read)";

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const root = geminiRoot(env);
  const tmp = join(root, "tmp");
  const sources: SourceRef[] = [];
  let checkpoints = 0;
  const projects = await subdirs(tmp, problem);
  for (const projectId of projects) {
    const chats = join(tmp, projectId, "chats");
    const files = await listFiles(chats, {
      match: (_p, n) => n.endsWith(".json") || n.endsWith(".jsonl"),
      maxDepth: 2,
      onError: problem,
    });
    for (const path of await dropTwins(files)) {
      sources.push({ harness: ID, path, kind: "document", hint: { projectId, root } });
    }
    // `checkpoint-<tag>.json` (`/chat save`): a session of its own when its chat is gone.
    for (const path of await checkpointFiles(join(tmp, projectId))) {
      sources.push({
        harness: ID,
        path,
        kind: "document",
        hint: { projectId, root, checkpoint: "1" },
      });
    }
    const logs = join(tmp, projectId, "logs.json");
    if (await isRegularFile(logs, problem)) {
      sources.push({ harness: ID, path: logs, kind: "document", hint: { projectId, root, logs } });
    }
    // `checkpoints/<time>-<file>-<tool>.json`: a chat's state saved before a tool changed a
    // file (for /restore), a copy of a chat already read: counted, not read (realdata, 2026-03).
    const saved = await listFiles(join(tmp, projectId, "checkpoints"), {
      match: (_p, n) => n.endsWith(".json"),
      maxDepth: 1,
      onError: () => {},
    });
    checkpoints += saved.length;
  }
  const notSessions = checkpoints ? { [CHECKPOINT]: checkpoints } : undefined;
  return { roots: [tmp], sources, ...(notSessions ? { notSessions } : {}) };
}

/**
 * Drops a `.json` chat when a `.jsonl` holds the same session: the same file
 * name with `l` appended (how Gemini CLI migrates a resumed chat), or a
 * `.jsonl` in the same folder with the same 8-character short id whose
 * metadata names the same `sessionId`.
 */
async function dropTwins(files: string[]): Promise<string[]> {
  const all = new Set(files);
  const out: string[] = [];
  for (const f of files) {
    if (!f.endsWith(".json")) {
      out.push(f);
      continue;
    }
    if (all.has(`${f}l`)) continue;
    const short = /-([0-9a-f]{8})\.json$/i.exec(f)?.[1];
    const rivals = short
      ? files.filter((g) => g.endsWith(`-${short}.jsonl`) && dirname(g) === dirname(f))
      : [];
    if (rivals.length && await sameSession(f, rivals)) continue;
    out.push(f);
  }
  return out;
}

async function sameSession(json: string, jsonls: string[]): Promise<boolean> {
  const id = str(obj(await readJsonFile(json, 64 << 20))?.sessionId);
  if (!id) return false;
  for (const j of jsonls) {
    for (const r of await headRecords(j, 3)) {
      if (str(obj(r)?.sessionId) === id) return true;
    }
  }
  return false;
}

/** Session-level facts gathered from a whole file or from replaying the JSONL. */
interface Conversation {
  meta: Obj;
  messages: Obj[];
  /** The document was damaged (its skips are counted): no messages is then no "empty" chat. */
  damaged?: boolean;
}

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  if (source.hint?.logs) {
    const { root, projectId } = source.hint;
    const project = await projectFor(root, projectId, undefined, skipUnreadable(ctx));
    const chats = join(root, "tmp", projectId, "chats");
    const held = await checkpointSessionIds(join(root, "tmp", projectId));
    yield* await logSessions(ID, source.path, chats, ctx, project, held);
    return;
  }
  if (source.hint?.checkpoint) {
    const { root, projectId } = source.hint;
    const project = await projectFor(root, projectId, undefined, skipUnreadable(ctx));
    const chats = join(root, "tmp", projectId, "chats");
    yield* checkpointSessions(ID, source, ctx, { project, chats });
    return;
  }
  if (!source.path.endsWith(".jsonl") && await sizeOf(source.path) > wholeDocMax(ctx)) {
    yield* parseStreamed(source, ctx);
    return;
  }
  const conv = source.path.endsWith(".jsonl")
    ? await replayJsonl(source.path, ctx)
    : await readWhole(source.path, ctx);
  if (!conv) return;
  const chat = await chatOf(source, conv.meta, ctx);
  if (!chat) return;
  for (const m of conv.messages) chat.add(m);
  if (chat.held) yield chat.chunk();
  // A chat saved before its first message says why it is no session (trial 28: "1 store,
  // 1 read, 0 sessions" and no reason). (A `.jsonl` emptied by a `$set` was cleared.)
  // Not of a damaged one: its damage is its skip (trial 101 F6: one file counted as
  // `malformed_json` and `empty`, "a chat with no messages").
  else if (!conv.messages.length && !conv.damaged && !source.path.endsWith(".jsonl")) {
    ctx.skip("empty", source.path, "a chat with no messages");
  }
}

/**
 * Where a message starts in a chat Gemini CLI wrote (`JSON.stringify(…, null, 2)`: each
 * message a line `    {` of its own, realdata/gemini-cli): a message damaged in a chat read
 * in pieces is passed over to the next one.
 */
const ITEM_LINE = new TextEncoder().encode("\n    {");

/** Messages read before a streamed chat yields a chunk of its events. */
const CHUNK_MESSAGES = 256;

/**
 * A `.json` chat over `wholeDocMax` bytes (parsers/_json_doc.ts), read in pieces (`streamDocument`,
 * parsers/_json_doc.ts) in two passes: the first reads the chat's own fields
 * (its id, title and times, wherever they sit around `messages`), the second
 * its messages, yielded as chunks of the session. Memory holds one chunk,
 * whatever the size of the file (trial 26: a 77 MB chat was skipped whole).
 */
async function* parseStreamed(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const path = source.path;
  if (await isRegularFile(`${path}l`)) return; // the .jsonl twin wins
  let count = 0;
  let head: StreamedDocument;
  try {
    const pass = streamDocument(path, "messages", ITEM_LINE);
    for (let r = pass.next();; r = pass.next()) {
      if (r.done) {
        head = r.value;
        break;
      }
      count++;
    }
  } catch (e) {
    ctx.skip("unreadable", path, (e as Error).message);
    return;
  }
  if (head.repaired) ctx.skip("invalid_utf8", path, REPAIRED);
  if (head.value === undefined) {
    // Damaged before its first value began: nothing of it is a chat.
    ctx.skip(head.failure?.why ?? "malformed_json", `${path}@${head.failure?.at ?? 0}`);
    return;
  }
  const meta = chatMeta(head.value, count, path, ctx);
  const chat = meta && await chatOf(source, meta, ctx);
  if (!chat) {
    if (head.failure) ctx.skip(head.failure.why, `${path}@${head.failure.at}`);
    return;
  }
  let i = 0;
  const pass = streamDocument(path, "messages", ITEM_LINE);
  for (let r = pass.next(); !r.done; r = pass.next()) {
    const m = obj(r.value);
    if (!m) ctx.skip("bad_shape", `${path}#messages[${i}]`, "message is not an object");
    else chat.add(m);
    if (++i % CHUNK_MESSAGES === 0 && chat.held) yield chat.chunk();
  }
  countStreamDamage(head, path, i, ctx);
  if (chat.held) yield chat.chunk();
  else if (!i && !head.failure && !head.skipped.length) {
    ctx.skip("empty", path, "a chat with no messages");
  }
}

/** Size of a file in bytes; 0 when it cannot be read (the read that follows reports why). */
async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

/**
 * A chat's own fields from its top-level object, or undefined (and counted) when
 * the document is not a chat. `messages` tells whether it held any, for a chat
 * whose `sessionId` was damaged: it keeps the file's name as its id.
 */
function chatMeta(doc: unknown, messages: number, path: string, ctx: ParseCtx): Obj | undefined {
  const o = obj(doc);
  if (o && !str(o.sessionId) && messages && (o.startTime || o.projectHash)) {
    o.sessionId = basename(path, ".json");
  }
  if (o && str(o.sessionId)) return o;
  // logs.json (an array) and checkpoints ({clientHistory, toolCall}) are known non-chats.
  if (Array.isArray(doc)) return undefined;
  if (o && ("clientHistory" in o || "toolCall" in o)) {
    ctx.skip("not_session", path, CHECKPOINT);
    return undefined;
  }
  ctx.skip("unknown_record", path, "JSON document without sessionId");
  return undefined;
}

/** The events of one chat as its messages are added, handed out in chunks of the session. */
interface Chat {
  add(m: Obj): void;
  /** Events added since the last chunk. */
  readonly held: number;
  /** A chunk of the session holding the events added since the last one. */
  chunk(): Session;
}

/** A {@link Chat} for a chat's fields, or undefined (and counted) when it names no session. */
async function chatOf(source: SourceRef, meta: Obj, ctx: ParseCtx): Promise<Chat | undefined> {
  const sessionId = str(meta.sessionId);
  if (!sessionId) {
    ctx.skip("bad_shape", source.path, "no sessionId in the chat");
    return undefined;
  }
  const loc = locate(source);
  // Else the chat's own `directories`: the workspace's folders, the project's first, which
  // the CLI records for a subagent's chat (chatRecordingService.ts, read 2026-12-05; trial
  // 42: realdata chats mrp1k5 and twynek had no project though their files named it).
  // Last, the folder its sibling chats of the same projectHash record, when they agree (trial
  // 103 F4: two chats of IDAHO-VAULT's hash recorded it, two beside them had no project).
  const project =
    (loc
      ? await projectFor(loc.root, loc.projectId, str(meta.projectHash), skipUnreadable(ctx))
      : undefined) ??
      firstDirectory(meta) ??
      (loc && str(meta.projectHash)
        ? await siblingsProject(loc.chats, str(meta.projectHash)!, source.path)
        : undefined);
  const started = toMillis(meta.startTime);
  const last = toMillis(meta.lastUpdated);
  // A chat of `kind: "subagent"` in no parent's folder (Gemini's background skill extraction,
  // `chats/skill-extraction-<hex>/`) is a subagent all the same: filed under its folder's name
  // (or `unknown`), which no session has, so it is never taken for where the user left off
  // (trial 73: the session start digested its machine prompt as the project's last session).
  const parent = parentOf(source.path, loc?.chats) ??
    (meta.kind === "subagent" ? folderOf(source.path, loc?.chats) ?? "unknown" : undefined);
  let events: Event[] = [];
  let model: string | undefined;
  // A result also carried as a functionResponse part later on keeps its first copy.
  const answered = new Set<string>();
  return {
    add(m) {
      const r = geminiMessageEvents(m, {
        project,
        fallbackTime: started,
        skip: ctx.skip.bind(ctx),
        where: source.path,
      });
      for (const e of r.events) {
        if (e.kind === "tool_result" && e.key) {
          if (answered.has(e.key)) continue;
          answered.add(e.key);
        }
        events.push(e);
      }
      if (r.model) model = r.model;
    },
    get held() {
      return events.length;
    },
    chunk() {
      let lo = Infinity;
      let hi = -Infinity;
      for (const t of [started, last, ...events.map((e) => e.time)]) {
        if (t === undefined) continue;
        if (t < lo) lo = t;
        if (t > hi) hi = t;
      }
      const s: Session = {
        harness: ID,
        id: parent === sessionId ? `${sessionId}~subagent` : sessionId,
        project,
        title: str(meta.summary),
        started: lo === Infinity ? undefined : lo,
        updated: hi === -Infinity ? undefined : hi,
        model,
        parent,
        path: source.path,
        events,
      };
      events = [];
      return s;
    },
  };
}

/** Reads a whole-file `.json` chat; undefined (and counted) when it is not one. */
async function readWhole(path: string, ctx: ParseCtx): Promise<Conversation | undefined> {
  if (await isRegularFile(`${path}l`)) return undefined; // the .jsonl twin wins
  let text: string;
  try {
    text = await readStoreText(path, ctx, path, WHOLE_DOC_BYTES);
  } catch (e) {
    if ((e as { code?: string }).code === "EFBIG") {
      ctx.skip("oversized", path, (e as Error).message);
      return undefined;
    }
    throw e;
  }
  if (!text.trim()) {
    ctx.skip("empty", path);
    return undefined;
  }
  // A damaged chat is read message by message; only what is damaged is lost.
  let damaged = false;
  const seen: ParseCtx = Object.assign(Object.create(ctx), {
    skip: (r: SkipReason, w: string, d?: string) => {
      damaged = true;
      ctx.skip(r, w, d);
    },
  });
  const doc = salvageDocument(text.replace(/^\uFEFF/, ""), path, seen);
  if (doc === undefined) return undefined;
  const o = chatMeta(doc, arr(obj(doc)?.messages).length, path, ctx);
  if (!o) return undefined;
  const messages = arr(o.messages).flatMap((m, i) => {
    const mo = obj(m);
    if (!mo) ctx.skip("bad_shape", `${path}#messages[${i}]`, "message is not an object");
    return mo ? [mo] : [];
  });
  return { meta: o, messages, damaged };
}

/**
 * Replays a streamed `.jsonl` chat from its first byte (a document: `$set`
 * and `$rewindTo` may change anything written before them, so a resume offset
 * is ignored).
 */
async function replayJsonl(path: string, ctx: ParseCtx): Promise<Conversation | undefined> {
  const meta: Obj = {};
  let messages: Obj[] = [];
  let records = 0;
  const whole: ParseCtx = {
    env: ctx.env,
    offset: 0,
    state: undefined,
    since: 0,
    skip: (r, w, d) => ctx.skip(r, w, d),
  };
  for await (const { value, start } of readJsonl(path, whole)) {
    records++;
    const where = `${path}@${start}`;
    const rec = obj(value);
    if (!rec) {
      ctx.skip("unknown_record", where, "line is not a JSON object");
      continue;
    }
    if (typeof rec.$rewindTo === "string") {
      const at = messages.findIndex((m) => m.id === rec.$rewindTo);
      if (at !== -1) messages = messages.slice(0, at);
    } else if (obj(rec.$set)) {
      const set = obj(rec.$set)!;
      const { messages: snap, ...rest } = set;
      Object.assign(meta, rest);
      if (Array.isArray(snap)) {
        const items = snap.flatMap((m) => (obj(m) ? [obj(m)!] : []));
        if (snap.length === 0 || items.some((m) => typeof m.type === "string")) messages = items;
      }
    } else if (typeof rec.id === "string") {
      const at = messages.findIndex((m) => m.id === rec.id);
      if (at === -1) messages.push(rec);
      else messages[at] = rec;
    } else if (typeof rec.sessionId === "string") {
      Object.assign(meta, rec);
    } else {
      ctx.skip("unknown_record", where, `keys ${Object.keys(rec).slice(0, 4).join(",")}`);
    }
  }
  ctx.endOffset = whole.endOffset;
  if (!records) {
    ctx.skip("empty", path);
    return undefined;
  }
  return { meta, messages };
}

/** Where a chat file sits: the `.gemini` root, its project folder id, and its `chats` dir. */
function locate(source: SourceRef): { root: string; projectId: string; chats: string } | undefined {
  const parts = source.path.split(sep);
  for (let i = parts.length - 2; i >= 2; i--) {
    if (parts[i] === "chats" && parts[i - 2] === "tmp") {
      const projectId = source.hint?.projectId ?? parts[i - 1];
      const root = source.hint?.root ?? parts.slice(0, i - 2).join(sep);
      return { root, projectId, chats: parts.slice(0, i + 1).join(sep) };
    }
  }
  return undefined;
}

/** The folder a chat nested one level under `chats/` lies in, undefined for one directly there. */
function folderOf(path: string, chats?: string): string | undefined {
  if (!chats) return undefined;
  const dir = dirname(path);
  return dirname(dir) === chats ? basename(dir) : undefined;
}

/** The parent session of a chat nested in `chats/<uuid>/`. */
function parentOf(path: string, chats?: string): string | undefined {
  if (!chats) return undefined;
  const dir = dirname(path);
  if (dirname(dir) !== chats) return undefined;
  const name = basename(dir);
  return UUID.test(name) ? name : undefined;
}

/** A chat's first recorded workspace folder, or undefined. */
function firstDirectory(meta: Obj): string | undefined {
  return Array.isArray(meta.directories) ? str(meta.directories[0]) : undefined;
}

/** How many sibling chats, and how large, {@link siblingsProject} reads at most. */
const SIBLINGS_MAX = 32;
const SIBLING_BYTES = 4 << 20;

/**
 * Sibling answers per `chats` folder and hash for a few seconds: every chat of a folder asks in
 * one run, and a long-lived process (`index --watch`, the MCP server) sees later chats.
 */
const siblingCache = new Map<string, { at: number; found: Promise<Siblings | undefined> }>();
const SIBLING_CACHE_MS = 5000;

/** What {@link readSiblings} found: the folder, and the chats that record it. */
interface Siblings {
  dir: string;
  from: Set<string>;
}

/**
 * The workspace folder the other chats under `chats` (and its subagents' folders) with the
 * same `projectHash` record, when every one that records a folder records the same; undefined
 * otherwise. Gemini names a project's `tmp` folder by the hash, so its chats are one project's;
 * only some record the folder (subagents' chats do). Reads at most {@link SIBLINGS_MAX}
 * chats of up to {@link SIBLING_BYTES} (a `.jsonl` by its head line); unreadable ones are
 * passed over (their own parse reports them).
 */
function siblingsProject(chats: string, hash: string, self: string): Promise<string | undefined> {
  const key = `${chats}\0${hash}`;
  const now = Date.now();
  let hit = siblingCache.get(key);
  if (!hit || now - hit.at > SIBLING_CACHE_MS) {
    hit = { at: now, found: readSiblings(chats, hash) };
    siblingCache.set(key, hit);
    if (siblingCache.size > 64) siblingCache.delete(siblingCache.keys().next().value!);
  }
  return hit.found.then((r) => (r?.from.size === 1 && r.from.has(self) ? undefined : r?.dir));
}

async function readSiblings(
  chats: string,
  hash: string,
): Promise<Siblings | undefined> {
  const files = (await listFiles(chats, {
    match: (_p, name) => /\.jsonl?$/.test(name),
    maxDepth: 1,
  })).slice(0, SIBLINGS_MAX);
  let dir: string | undefined;
  const from = new Set<string>();
  for (const f of files) {
    let meta: Obj | undefined;
    try {
      if (f.endsWith(".jsonl")) {
        meta = obj((await headRecords(f, 1))[0]);
      } else if ((await sizeOf(f)) <= SIBLING_BYTES) {
        meta = obj(await readJsonFile(f, SIBLING_BYTES));
      }
    } catch {
      continue;
    }
    if (!meta || str(meta.projectHash) !== hash) continue;
    const d = firstDirectory(meta);
    if (!d) continue;
    if (dir !== undefined && d !== dir) return undefined;
    dir = d;
    from.add(f);
  }
  return dir === undefined ? undefined : { dir, from };
}

/** The project directory of a `tmp/<projectId>` folder, or undefined when nothing says. */
async function projectFor(
  root: string,
  projectId: string,
  projectHash?: string,
  report?: Unreadable,
): Promise<string | undefined> {
  const map = obj(
    obj(await readJsonFile(join(root, "projects.json"), undefined, report))?.projects,
  );
  if (map) {
    for (const [path, id] of Object.entries(map)) if (id === projectId) return path;
    for (const path of Object.keys(map)) {
      const h = createHash("sha256").update(path).digest("hex");
      if (h === projectId || h === projectHash) return path;
    }
  }
  const marker = await readTextOrNone(
    join(root, "tmp", projectId, ".project_root"),
    64 << 10,
    report,
  );
  return marker?.trim() || undefined;
}
