/**
 * Cline (cline/cline): the VS Code extension and the `cline` CLI.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { listFiles, skipUnreadable } from "../core/fs.ts";
import { expandHome } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { arr, obj, str } from "./_util.ts";
import { extensionStorageDirs, rootsOrOverride } from "./_vscode.ts";
import {
  buildTaskSession,
  clineTaskHistory,
  hintToMeta,
  metaToHint,
  readJsonDocument,
  readObject,
  taskFiles,
  taskMetadataModel,
  taskSessions,
  titleOf,
} from "./_task_history.ts";

const ID = "cline";
/** The extension's id, lower-cased as VS Code names its storage folder. */
const EXTENSION = "saoudrizwan.claude-dev";
const MESSAGES_SUFFIX = ".messages.json";

/**
 * The Cline parser. Two store generations, both `document` sources:
 *
 * 1. Task directories `<root>/tasks/<taskId>/api_conversation_history.json`
 *    (+ `task_metadata.json`; the task list in `<root>/state/taskHistory.json`
 *    gives title, working directory and start time), read by the shared
 *    Cline-family reader (`_task_history.ts`, `_task_events.ts`). Roots: the
 *    extension's `globalStorage/saoudrizwan.claude-dev` in every VS Code-style
 *    editor (`_vscode.ts`), and the CLI data dir, where Cline builds before
 *    3.x kept the same tree. Layout from cline/cline `src/core/storage/disk.ts`
 *    (search tool); content observed in realdata/cline (a 2026 extension task:
 *    every message has `ts` in epoch ms and `modelInfo.modelId`; tool results
 *    come back as `[tool for 'x'] Result:` text blocks). The project is the
 *    folder the task worked in: the last `# Current Working Directory (…)`
 *    of its environment details when that differs from the first (a task
 *    resumed in a moved or copied repository; realdata/cline names
 *    `…/MRA022626 - Copy/…` once, then `c:/Apps/MRA04242026`, where all its
 *    edits are), else `cwdOnTaskInitialization`, else the first one.
 * 2. CLI sessions `<data>/sessions/<id>/<id>.messages.json` `{version,
 *    updated_at, agent, sessionId, messages: [{id, role, content, ts}]}` with
 *    the manifest `<id>.json` beside it `{session_id, started_at, ended_at,
 *    cwd, workspace_root, model, prompt, metadata.title,
 *    parent_session_id?}` (ISO times). Observed in realdata/farm/cline (CLI
 *    3.0.65): `tool_use` `run_commands {commands}`, `apply_patch {input}`,
 *    `tool_result` content `[{query, result, error?, success}]`, first user
 *    text wrapped in `<user_input mode="act">`. The CLI's `db/*.db` files
 *    (sessions index, search, hub) repeat the manifest and are not read.
 *    A messages file whose `agent` is not `lead` is a subagent: its own
 *    session (`<sessionId>:<agent>` when it shares the lead's id) with
 *    `parent` set.
 *
 * Data dir: `${CLINE_DATA_DIR:-${CLINE_DIR:-~/.cline}/data}`; sessions may be
 * moved by `CLINE_SESSION_DATA_DIR`. `DEJA_CLINE_ROOT` replaces every root
 * with one directory that may hold `tasks/`, `state/` and `sessions/`.
 */
export const cline: Parser = {
  id: ID,
  discover,
  parse(source: SourceRef, ctx: ParseCtx): AsyncIterable<Session> {
    return source.path.endsWith(MESSAGES_SUFFIX) ? cliSession(source, ctx) : task(source, ctx);
  },
};

function dataDir(env: DiscoverCtx["env"]): string {
  const d = env.get("CLINE_DATA_DIR");
  if (d) return expandHome(env, d);
  return join(expandHome(env, env.get("CLINE_DIR") ?? "~/.cline"), "data");
}

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const override = env.get("DEJA_CLINE_ROOT") !== undefined;
  const roots = rootsOrOverride(
    env,
    ID,
    () => [dataDir(env), ...extensionStorageDirs(env, EXTENSION)],
  );
  const sessionDirs = roots.map((r) => join(r, "sessions"));
  const named = env.get("CLINE_SESSION_DATA_DIR");
  if (named && !override) sessionDirs.push(expandHome(env, named));
  const sources: SourceRef[] = [];
  for (const root of roots) {
    const files = await taskFiles(root, problem);
    if (!files.length) continue;
    const history = await clineTaskHistory(root);
    for (const path of files) {
      const meta = history.get(basename(dirname(path))) ?? {};
      sources.push({ harness: ID, path, kind: "document", hint: metaToHint(meta) });
    }
  }
  for (const dir of [...new Set(sessionDirs)]) {
    const files = await listFiles(dir, {
      match: (_p, name) => name.endsWith(MESSAGES_SUFFIX),
      maxDepth: 1,
      onError: problem,
    });
    for (const path of files) sources.push({ harness: ID, path, kind: "document" });
  }
  return { roots: [...new Set([...roots, ...sessionDirs])], sources };
}

async function* task(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const meta = hintToMeta(source.hint);
  meta.model ??= await taskMetadataModel(dirname(source.path), skipUnreadable(ctx));
  yield* taskSessions(ID, source.path, meta, ctx);
}

/** One CLI session: `<id>.messages.json` plus its manifest `<id>.json`. */
async function* cliSession(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const doc = obj(await readJsonDocument(source.path, source.path, ctx));
  if (!doc) return;
  if (!Array.isArray(doc.messages)) {
    ctx.skip("bad_shape", source.path, "no messages array");
    return;
  }
  const stem = basename(source.path).slice(0, -MESSAGES_SUFFIX.length);
  const manifest =
    await readObject(join(dirname(source.path), `${stem}.json`), skipUnreadable(ctx)) ??
      {};
  let id = str(doc.sessionId) ?? str(manifest.session_id) ?? stem;
  let parent = str(manifest.parent_session_id);
  const agent = str(doc.agent);
  if (agent && agent !== "lead" && (!parent || parent === id)) {
    parent = id;
    id = `${id}:${agent}`;
  }
  const meta = obj(manifest.metadata);
  yield await buildTaskSession(ID, id, source.path, arr(doc.messages), {
    title: str(meta?.title) ?? titleOf(manifest.prompt),
    cwd: str(manifest.cwd) ?? str(manifest.workspace_root),
    started: toMillis(manifest.started_at) ?? toMillis(manifest.created_at),
    parent,
    model: str(manifest.model),
  }, ctx);
}
