/**
 * Continue (continue.dev): the VS Code / JetBrains extension and the `cn` CLI.
 *
 * Store: `${DEJA_CONTINUE_ROOT:-${CONTINUE_GLOBAL_DIR:-~/.continue}/sessions}`,
 * shared by the IDE extensions and the CLI (docs/registry/continue.md; continuedev/continue
 * `core/util/paths.ts`, `core/util/history.ts`, read via the search tool):
 * - `<sessionId>.json` — one session, a JSON document rewritten whole on every
 *   save (a `document` source);
 * - `sessions.json` — the list `[{sessionId, title, dateCreated, workspaceDirectory,
 *   messageCount}]`; `dateCreated` is epoch **milliseconds as a string**
 *   (`String(Date.now())`). Entries with a snake_case `session_id` are an old
 *   format and are ignored (docs/registry/continue.md). It is read beside each session,
 *   not indexed itself.
 *
 * Session document: `{sessionId, title, workspaceDirectory, history[], mode?,
 * chatModelTitle?, usage?}` (observed in realdata/farm/continue, `cn` 1.5.47,
 * and the public files in realdata/continue, IDE builds of 2026-03).
 * `workspaceDirectory` is a plain path (CLI: its cwd), a `file:///` URI, or a
 * `vscode-remote://` URI; a `dev-container+<hex>` authority is the hex of a JSON
 * `{hostPath, …}` (older builds: of the host path itself) and the project is
 * that host path (see `_continue_history.ts`).
 *
 * Mapping, item by item (`_continue_history.ts`): `user` -> user; `assistant`
 * content -> assistant, `toolCalls[]` (arguments a JSON string) -> tool_call,
 * `toolCallStates[].output[].content` -> tool_result unless a `tool` message
 * answers the same `toolCallId`; `tool` -> tool_result (its state's status
 * `errored` -> isError); a call whose state is `canceled` (or never approved)
 * -> a tool_call with no command or file change and the result `Cancelled:
 * not run.`; `conversationSummary` -> summary; `system` and
 * `thinking` messages, `promptLogs`, `editorState` and attached `contextItems`
 * are dropped. No message carries a time: `started` is the list's
 * `dateCreated`, `updated` the latest `reasoning.endAt` (ms) seen, or the file's
 * mtime (its last save) when later, marked `timeFromFile` ({@link sessionTimes});
 * a session missing from the list starts at its earliest reasoning time. One with
 * no time at all (no list entry, no reasoning) is dated by the file's mtime and
 * marked `timeFromFile` (the session's own file: its last write; shown as the
 * file's time).
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
import { listFiles, readJsonFile, statOrNull } from "../core/fs.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { rootFrom } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { arr, obj, str } from "./_util.ts";
import { newSession } from "./_session_meta.ts";
import { historyEvents, workspacePath } from "./_continue_history.ts";

const ID = "continue";
/** The session list beside the session files. */
const LIST = "sessions.json";
/** The title Continue gives a session before it names one. */
const UNTITLED = "Untitled Session";

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const root = rootFrom(env, ID, [["CONTINUE_GLOBAL_DIR", "sessions"]], "~/.continue/sessions");
  const match = (_p: string, name: string) => name.endsWith(".json") && name !== LIST;
  const files = await listFiles(root, { match, maxDepth: 0, onError: problem });
  return {
    roots: [root],
    // The list dates and titles the sessions: a change to it is a change to each of them.
    sources: files.map((path) => ({
      harness: ID,
      path,
      kind: "document" as const,
      companions: [join(root, LIST)],
    })),
  };
}

/** One entry of `sessions.json`. */
interface ListEntry {
  title?: string;
  /** Epoch ms. */
  created?: number;
  workspace?: string;
}

/** `sessions.json` beside `path`, by session id; old snake_case entries left out. */
async function readList(path: string): Promise<Map<string, ListEntry>> {
  const out = new Map<string, ListEntry>();
  for (const e of arr(await readJsonFile(join(dirname(path), LIST)))) {
    const o = obj(e);
    const id = str(o?.sessionId);
    if (!o || !id || "session_id" in o) continue;
    out.set(id, {
      title: str(o.title),
      created: toMillis(o.dateCreated),
      workspace: str(o.workspaceDirectory),
    });
  }
  return out;
}

/** The first title that is not Continue's placeholder, else the first one at all. */
function pickTitle(...titles: Array<string | undefined>): string | undefined {
  const set = titles.filter((t): t is string => !!t?.trim());
  return set.find((t) => t !== UNTITLED) ?? set[0];
}

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const doc = obj(await readJsonDocument(source.path, source.path, ctx));
  if (!doc) return;
  if (!Array.isArray(doc.history)) {
    ctx.skip("unknown_record", source.path, "not a Continue session (no history list)");
    return;
  }
  const id = str(doc.sessionId) ?? basename(source.path, ".json");
  const entry = (await readList(source.path)).get(id);
  const project = workspacePath(str(doc.workspaceDirectory) ?? entry?.workspace);
  const read = historyEvents(doc.history as unknown[], project, source.path, ctx);
  if (read.events.length === 0) return;
  const mtime = Math.floor((await statOrNull(source.path))?.mtimeMs ?? 0) || undefined;
  const times = sessionTimes(entry?.created ?? read.earliest, read.latest, mtime);
  const s = newSession(ID, id, source.path, read.events, {
    project,
    title: pickTitle(entry?.title, str(doc.title)),
    model: read.model ?? str(doc.chatModelTitle),
    started: times.started,
    updated: times.updated,
  });
  if (times.timeFromFile) s.timeFromFile = true;
  yield s;
}

/**
 * A session's times (epoch ms) from its recorded start (`sessions.json`'s `dateCreated`, else
 * the earliest reasoning time), its latest reasoning time and its file's mtime. The file is
 * rewritten whole on every save, so its mtime is the session's last save: the end, when later
 * than any time recorded, marked as the file's (trial 104 F4: a session of 9 turns whose store
 * records only its creation read "22:56 → 22:56", an end no one recorded). A copied store's
 * files carry the copy's time; the mark says whose time it is. No recorded time at all: the
 * file's time for both.
 */
function sessionTimes(
  created: number | undefined,
  latest: number | undefined,
  mtime: number | undefined,
): { started?: number; updated?: number; timeFromFile?: true } {
  if (created === undefined) {
    return mtime === undefined ? {} : { started: mtime, updated: mtime, timeFromFile: true };
  }
  const recorded = Math.max(created, latest ?? 0);
  if (mtime !== undefined && mtime > recorded) {
    return { started: created, updated: mtime, timeFromFile: true };
  }
  return { started: created, updated: recorded };
}

/** The Continue parser (exported as `continue_`: `continue` is a reserved word). */
export const continue_: Parser = { id: ID, discover, parse };
