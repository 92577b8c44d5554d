/**
 * Kimi CLI (`kimi-cli`, Moonshot AI; calls itself Kimi Code CLI).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Event,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import {
  isRegularFile,
  listFiles,
  readJsonFile,
  skipUnreadable,
  statOrNull,
  subdirs,
  type Unreadable,
} from "../core/fs.ts";
import { headRecords, readJsonl } from "./_jsonl.ts";
import { rootFrom } from "../core/paths.ts";
import { arr, obj, str } from "./_util.ts";
import { contextEvents, type KimiCtx, type KimiWireState, WireReader } from "./_kimi_records.ts";
import { isKimiCode, kimiCodeSources, readKimiCode } from "./_kimi_code.ts";
import { looseHistorySession } from "./_prompt_history.ts";
import { promptHistoryId } from "../core/prompt_history.ts";

const ID = "kimi";

/** `context_sub_<n>.jsonl`: a sub-agent's context beside its parent's. */
const SUB = /^context_sub_(\d+)\.jsonl$/;

/**
 * The Kimi CLI parser.
 *
 * Store layout, under `${DEJA_KIMI_ROOT:-${KIMI_SHARE_DIR:-~/.kimi}}` (Kimi
 * CLI's `share.py`; observed in realdata/kimi, Kimi CLI 1.17):
 * - `kimi.json` `{work_dirs: [{path, kaos, last_session_id}],
 *   session_to_workdir?}`; `sessions/<md5 of the work dir path>/<session id>/`
 *   holds one session: `wire.jsonl` (the event stream), `context.jsonl` (the
 *   messages the model sees), `context_sub_<n>.jsonl` (one per sub-agent run
 *   by the `Task` tool), `state.json` (`custom_title` in newer builds),
 *   rotated `context_<n>.jsonl` copies (left after /clear, a revert or a
 *   compaction). Builds before the per-session folder kept the context as
 *   `sessions/<md5>/<session id>.jsonl`.
 * - One source per session folder, never two: `wire.jsonl` when it exists
 *   (it has epoch-second timestamps on every record, the exact text the
 *   person typed, error flags and every turn even after the context was
 *   cleared or compacted), else `context.jsonl` (no timestamps at all; the
 *   public session b1ea4a04 has only this). The rotated `context_<n>.jsonl`
 *   files repeat the context's history and are not read. A wire that starts
 *   mid-step borrows the calls of its orphaned results from `context.jsonl`
 *   (`addOrphanCalls`). Each
 *   `context_sub_<n>.jsonl` is its own session `<session id>/sub_<n>` with
 *   `parent` = the session id; the copies of sub-agent events the parent's
 *   wire carries as `SubagentEvent` are ignored so nothing is counted twice.
 * - Project: the `kimi.json` work dir whose md5 names the folder, else
 *   `session_to_workdir[<session id>]`, else unknown (the public store's
 *   folder no longer matches its redacted path). Relative tool paths resolve
 *   against it.
 *
 * - `user-history/<md5>.jsonl` (prompt history `{content}`, no id or time):
 *   its prompts that no transcript of that work dir holds become one session
 *   `prompt-history-<md5>` (`readUserHistory`).
 *
 * Kimi Code's newer layout under `${KIMI_CODE_HOME:-~/.kimi-code}`
 * (`sessions/<workspace>/<session id>/agents/<agent>/wire.jsonl`, one
 * source per agent) is read by `_kimi_code.ts`. `DEJA_KIMI_ROOT` replaces
 * both homes: both layouts are looked for under it.
 *
 * Records and mapping: `_kimi_records.ts`. Times: wire `timestamp` is epoch
 * seconds with a fraction -> epoch ms; context events have no time, so a
 * context-only session is dated by the file's mtime (`timeFromFile`: the file
 * is the session's own, so its mtime is the session's last write).
 */
export const kimi: Parser = { id: ID, discover, parse };

function kimiRoot(env: DiscoverCtx["env"]): string {
  return rootFrom(env, ID, [["KIMI_SHARE_DIR", ""]], "~/.kimi");
}

/** Kimi Code's home; `DEJA_KIMI_ROOT` redirects both layouts to one folder. */
function kimiCodeRoot(env: DiscoverCtx["env"]): string {
  return rootFrom(env, ID, [["KIMI_CODE_HOME", ""]], "~/.kimi-code");
}

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const root = kimiRoot(env);
  const sessions = join(root, "sessions");
  const files = await listFiles(sessions, {
    match: (_p, n) => n.endsWith(".jsonl"),
    maxDepth: 2,
    onError: problem,
  });
  const all = new Set(files);
  const sources: SourceRef[] = [];
  for (const path of files) {
    const dir = dirname(path);
    const name = basename(path);
    const nested = dirname(dirname(dir)) === sessions; // sessions/<hash>/<id>/<file>
    const keep = nested
      ? name === "wire.jsonl" ||
        SUB.test(name) ||
        (name === "context.jsonl" && !all.has(join(dir, "wire.jsonl")))
      : dirname(dir) === sessions && !(await hasFolder(join(dir, basename(path, ".jsonl"))));
    if (keep) sources.push({ harness: ID, path, kind: "append", hint: { root } });
  }
  const history = join(root, "user-history");
  for (
    const path of await listFiles(history, {
      match: (_p, n) => n.endsWith(".jsonl"),
      maxDepth: 0,
      onError: problem,
    })
  ) sources.push({ harness: ID, path, kind: "append", hint: { root, history: "1" } });
  const code = kimiCodeRoot(env);
  sources.push(...await kimiCodeSources(ID, code, problem));
  const codeSessions = join(code, "sessions");
  const roots = codeSessions === sessions ? [sessions] : [sessions, codeSessions];
  return { roots: [...roots, history], sources };
}

/** True when a legacy `<id>.jsonl` has been superseded by its `<id>/` folder. */
async function hasFolder(dir: string): Promise<boolean> {
  return await isRegularFile(join(dir, "context.jsonl")) ||
    await isRegularFile(join(dir, "wire.jsonl"));
}

/** Where a source sits in the store. */
interface Place {
  root: string;
  workDirKey: string;
  sessionId: string;
  /** `wire`, `context` (incl. the legacy flat file) or a sub-agent number. */
  file: "wire" | "context" | number;
}

function place(source: SourceRef): Place | undefined {
  const path = source.path;
  const name = basename(path);
  const dir = dirname(path);
  const sub = SUB.exec(name);
  if (name === "wire.jsonl" || name === "context.jsonl" || sub) {
    return {
      root: source.hint?.root ?? dirname(dirname(dirname(dir))),
      workDirKey: basename(dirname(dir)),
      sessionId: basename(dir),
      file: sub ? Number(sub[1]) : name === "wire.jsonl" ? "wire" : "context",
    };
  }
  // legacy flat context: sessions/<md5>/<id>.jsonl
  if (!name.endsWith(".jsonl") || basename(dirname(dir)) !== "sessions") return undefined;
  return {
    root: source.hint?.root ?? dirname(dirname(dir)),
    workDirKey: basename(dir),
    sessionId: basename(name, ".jsonl"),
    file: "context",
  };
}

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  if (isKimiCode(source)) {
    yield* readKimiCode(ID, source, ctx);
    return;
  }
  if (source.hint?.history) {
    yield* readUserHistory(source, ctx);
    return;
  }
  const at = place(source);
  if (!at) {
    ctx.skip("unsupported", source.path, "not a Kimi CLI session file");
    return;
  }
  // wire.jsonl wins over the context file of the same session folder.
  if (at.file === "context" && basename(source.path) === "context.jsonl") {
    if (await isRegularFile(join(dirname(source.path), "wire.jsonl"))) return;
  }
  const project = await projectOf(at, skipUnreadable(ctx));
  const kctx: KimiCtx = { project, skip: (r, w, d) => ctx.skip(r, w, d) };
  const sub = typeof at.file === "number";
  const session: Session = {
    harness: ID,
    id: sub ? `${at.sessionId}/sub_${at.file}` : at.sessionId,
    project,
    parent: sub ? at.sessionId : undefined,
    title: sub ? undefined : await titleOf(source, at, skipUnreadable(ctx)),
    path: source.path,
    events: [],
  };
  let records = 0;
  if (at.file === "wire") {
    const state = structuredClone((obj(ctx.state) ?? {}) as KimiWireState);
    const wire = new WireReader(state, kctx);
    for await (const { value, start } of readJsonl(source.path, ctx)) {
      records++;
      const rec = obj(value);
      if (rec) wire.add(rec, start, `${source.path}@${start}`);
      else ctx.skip("unknown_record", `${source.path}@${start}`, "line is not a JSON object");
    }
    wire.finish();
    ctx.endState = state;
    session.events = wire.events;
    if (ctx.offset === 0) await addOrphanCalls(session.events, source.path, kctx, ctx);
    session.started = wire.first;
    session.updated = wire.last;
  } else {
    for await (const { value, start } of readJsonl(source.path, ctx)) {
      records++;
      const where = `${source.path}@${start}`;
      const rec = obj(value);
      const events: Event[] | undefined = rec ? contextEvents(rec, String(start), kctx) : undefined;
      if (events) session.events.push(...events);
      else {ctx.skip(
          "unknown_record",
          where,
          rec ? `role ${JSON.stringify(rec.role)}` : "not an object",
        );}
    }
    // A context file holds no time; it is appended at every turn, so its mtime is the last one.
    const mtime = (await statOrNull(source.path))?.mtimeMs;
    if (mtime !== undefined) [session.updated, session.timeFromFile] = [Math.floor(mtime), true];
  }
  if (!records && ctx.offset === 0) ctx.skip("empty", source.path);
  if (session.events.length || ctx.offset > 0) yield session;
}

/**
 * A wire that starts mid-step holds the results of calls it never recorded
 * (realdata 0be84c98: line 2 is the `ToolResult` of a Shell call that only
 * `context.jsonl` line 1 holds). Each such call is taken from the context file
 * beside the wire and put just before its result, dated like it, so no call is
 * lost. Only on a first pass: a later pass's results follow calls already read.
 */
async function addOrphanCalls(
  events: Event[],
  wirePath: string,
  kctx: KimiCtx,
  ctx: ParseCtx,
): Promise<void> {
  const called = new Set<string>();
  const orphans = new Set<string>();
  for (const e of events) {
    if (e.tool?.id) called.add(e.tool.id);
    else if (e.result?.callId && !called.has(e.result.callId)) orphans.add(e.result.callId);
  }
  if (!orphans.size) return;
  const calls = new Map<string, Event>();
  const path = join(dirname(wirePath), "context.jsonl");
  if (!(await isRegularFile(path))) return;
  // The context file is read for its calls only; what it would skip is not this source's.
  const quiet: ParseCtx = { ...ctx, offset: 0, skip: () => {}, drift: undefined };
  for await (const { value, start } of readJsonl(path, quiet)) {
    const rec = obj(value);
    for (const e of (rec && contextEvents(rec, `ctx:${start}`, kctx)) ?? []) {
      if (e.tool?.id && orphans.has(e.tool.id)) calls.set(e.tool.id, e);
    }
  }
  for (let i = 0; i < events.length; i++) {
    const id = events[i].result?.callId;
    const call = id !== undefined && orphans.has(id) ? calls.get(id) : undefined;
    if (!call) continue;
    orphans.delete(id!);
    events.splice(i, 0, { ...call, time: events[i].time });
    i++;
  }
}

/**
 * `user-history/<md5 of work dir>.jsonl`, one `{content}` line per prompt typed
 * (no session id, no time; realdata 1.17, where 21 of its 43 prompts are in no
 * transcript): the prompts that no `context*.jsonl` or `wire.jsonl` of the
 * same work dir holds become the session `prompt-history-<md5>`.
 */
async function* readUserHistory(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const key = basename(source.path, ".jsonl");
  const root = source.hint?.root ?? dirname(dirname(source.path));
  const at: Place = { root, workDirKey: key, sessionId: "", file: "context" };
  const project = await projectOf(at, skipUnreadable(ctx));
  const known = await typedIn(join(root, "sessions", key), { project, skip: () => {} }, ctx);
  yield* looseHistorySession(ID, source.path, ctx, {
    id: promptHistoryId(key),
    text: "content",
    project,
    known,
  });
}

/** The user texts of every context and wire file of a work dir's sessions. */
async function typedIn(dir: string, kctx: KimiCtx, ctx: ParseCtx): Promise<Set<string>> {
  const known = new Set<string>();
  const quiet: ParseCtx = { ...ctx, offset: 0, skip: () => {}, drift: undefined };
  const files = await listFiles(dir, {
    match: (_p, n) => n.endsWith(".jsonl"),
    maxDepth: 1,
  });
  for (const path of files) {
    const wire = basename(path) === "wire.jsonl"
      ? new WireReader({} as KimiWireState, kctx)
      : undefined;
    for await (const { value, start } of readJsonl(path, quiet)) {
      const rec = obj(value);
      if (!rec) continue;
      if (wire) wire.add(rec, start, path);
      else if (rec.role === "user") {
        for (const e of contextEvents(rec, "", kctx) ?? []) known.add(e.text.trim());
      }
    }
    for (const e of wire?.events ?? []) if (e.kind === "user") known.add(e.text.trim());
  }
  return known;
}

/**
 * The work directory of a session folder (see the parser's doc): the `kimi.json`
 * work dir whose md5 names the folder (`<kaos>_<md5>` for a work dir on another
 * KAOS than `local`), else `session_to_workdir`, else the line of the session's
 * system prompt that names it.
 */
async function projectOf(at: Place, report: Unreadable): Promise<string | undefined> {
  const meta = obj(await readJsonFile(join(at.root, "kimi.json"), undefined, report));
  for (const wd of arr(meta?.work_dirs)) {
    const path = str(obj(wd)?.path);
    if (path && folderOf(path, str(obj(wd)?.kaos)) === at.workDirKey) return path;
  }
  return str(obj(meta?.session_to_workdir)?.[at.sessionId]) ??
    await promptWorkDir(join(at.root, "sessions", at.workDirKey), at.sessionId);
}

/**
 * The folder name Kimi CLI gives a work dir's sessions (kimi-cli@4a550eff
 * `metadata.py` `WorkDirMeta.sessions_dir`): the md5 of the path, prefixed by
 * `<kaos>_` when the work dir is not on the local KAOS.
 */
function folderOf(path: string, kaos = "local"): string {
  const md5 = createHash("md5").update(path, "utf8").digest("hex");
  return kaos === "local" ? md5 : `${kaos}_${md5}`;
}

/**
 * The work dir the system prompt names: Kimi CLI writes the prompt as the
 * first record of `context.jsonl` (`{"role": "_system_prompt", content}`,
 * kimi-cli@4a550eff `soul/context.py` `write_system_prompt`), and its default
 * agent's prompt says "The current working directory is `<path>`."
 * (`agents/default/system.md`). For a session id, that session's folder (the
 * legacy flat `<id>.jsonl` too); without one (a prompt history), the first of
 * the work dir's sessions that has it.
 */
async function promptWorkDir(dir: string, sessionId: string): Promise<string | undefined> {
  const files = sessionId
    ? [join(dir, sessionId, "context.jsonl"), join(dir, `${sessionId}.jsonl`)]
    : (await subdirs(dir)).slice(0, 8).map((d) => join(dir, d, "context.jsonl"));
  for (const path of files) {
    if (!(await isRegularFile(path))) continue;
    const rec = obj((await headRecords(path, 1).catch(() => []))[0]);
    const prompt = rec?.role === "_system_prompt" ? str(rec.content) : undefined;
    const found = prompt && WORK_DIR_LINE.exec(prompt)?.[1].trim();
    if (found) return found;
  }
  return undefined;
}

/** The system prompt's work dir line (kimi-cli `agents/default/system.md`). */
const WORK_DIR_LINE = /The current working directory is `([^`\n]+)`/;

/** A title the person set (`state.json` `custom_title`, newer builds). */
async function titleOf(
  source: SourceRef,
  at: Place,
  report: Unreadable,
): Promise<string | undefined> {
  const dir = at.file === "context" && basename(source.path) !== "context.jsonl"
    ? join(dirname(source.path), at.sessionId)
    : dirname(source.path);
  return str(obj(await readJsonFile(join(dir, "state.json"), undefined, report))?.custom_title);
}
