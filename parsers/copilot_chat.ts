/**
 * GitHub Copilot Chat in VS Code (the editor's chat sessions).
 *
 * @module
 */
import { basename, join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { listFiles, statOrNull } from "../core/fs.ts";
import { readJsonl } from "./_jsonl.ts";
import { obj, str } from "./_util.ts";
import { toMillis } from "./_time.ts";
import { rootsOrOverride, userDirs, workspaceDirs } from "./_vscode.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { applyEntry, chatEvents } from "./_copilot_chat_log.ts";

const ID = "copilot_chat";

/**
 * The Copilot Chat parser. Sessions live in the editor's `User` directory
 * (`_vscode.ts`; VS Code, Insiders, VSCodium, Cursor, Windsurf):
 * - `workspaceStorage/<hash>/chatSessions/<sessionId>.jsonl`: the mutation
 *   log (current), or `<sessionId>.json`: the whole session (older builds).
 *   The project is the folder that `workspaceStorage/<hash>/workspace.json`
 *   names.
 * - `globalStorage/emptyWindowChatSessions/` (chats of a window with no
 *   folder) and the older `workspaceStorage/no-workspace/chatSessions/`: no
 *   project. `globalStorage/transferredChatSessions/` holds short-lived copies
 *   and is not read.
 * Layout confirmed in microsoft/vscode `chatSessionStore.ts` (search tool).
 * Both file kinds are `document` sources: the log is rewritten as one initial
 * entry after 1024 entries, so a byte offset is never a safe resume point.
 * When a `.json` and a `.jsonl` of the same session sit side by side, only the
 * `.jsonl` is read.
 *
 * Mapping (`_copilot_chat_log.ts`): each request's `message.text` is a user
 * event; its markdown response parts become one assistant event per run of
 * prose; each `toolInvocationSerialized` part is a tool_call plus, when
 * complete, a tool_result (terminal exit status from
 * `terminalCommandState.exitCode`). Parts with a `subAgentInvocationId` (or
 * the older `fromSubAgent: true`) go to a subagent session
 * `<sessionId>:sub:<invocationId>` whose parent is the session. Times are
 * epoch ms (`creationDate`, `requests[].timestamp`). No real store was
 * available: the fixture is shaped from the vscode source and docs/registry/copilot_chat.md
 *
 * `DEJA_COPILOT_CHAT_ROOT` names one `User`-style directory instead.
 */
export const copilot_chat: Parser = {
  id: ID,
  discover,
  parse,
};

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const roots = rootsOrOverride(env, ID, () => userDirs(env));
  const sources: SourceRef[] = [];
  const dirs: string[] = [];
  for (const user of roots) {
    const chatDirs: Array<{ dir: string; project?: string }> = [
      { dir: join(user, "globalStorage", "emptyWindowChatSessions") },
    ];
    for (const ws of await workspaceDirs(user, problem)) {
      chatDirs.push({ dir: join(ws.dir, "chatSessions"), project: ws.folder });
    }
    for (const { dir, project } of chatDirs) {
      dirs.push(dir);
      const files = await listFiles(dir, {
        match: (_p, n) => n.endsWith(".jsonl") || n.endsWith(".json"),
        maxDepth: 0,
        onError: problem,
      });
      const logs = new Set(files.filter((f) => f.endsWith(".jsonl")).map((f) => f.slice(0, -6)));
      for (const path of files) {
        if (path.endsWith(".json") && logs.has(path.slice(0, -5))) continue;
        sources.push({
          harness: ID,
          path,
          kind: "document",
          ...(project ? { hint: { project } } : {}),
        });
      }
    }
  }
  return { roots, sources };
}

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const path = source.path;
  let state: unknown;
  if (path.endsWith(".jsonl")) {
    let n = 0;
    for await (const line of readJsonl(path, ctx)) {
      state = applyEntry(state, line.value, `${path}@${line.start}`, ctx);
      n++;
    }
    if (n === 0 && state === undefined) {
      const st = await statOrNull(path);
      if (st && st.size === 0) ctx.skip("empty", path);
    }
  } else {
    state = await readJsonDocument(path, path, ctx);
  }
  if (state === undefined) return;
  const s = obj(state);
  if (!s) {
    ctx.skip("bad_shape", path, "session state is not an object");
    return;
  }
  const id = str(s.sessionId) ?? basename(path).replace(/\.jsonl?$/, "");
  const project = source.hint?.project;
  const ev = chatEvents(s, project, path, ctx);
  if ([...ev.byOwner.values()].every((list) => list.length === 0)) return;
  const started = toMillis(s.creationDate);
  const main: Session = { harness: ID, id, path, events: ev.byOwner.get("") ?? [] };
  if (project) main.project = project;
  const title = str(s.customTitle);
  if (title) main.title = title;
  if (started !== undefined) main.started = started;
  const updated = Math.max(ev.last ?? 0, started ?? 0);
  if (updated > 0) main.updated = updated;
  if (ev.model) main.model = ev.model;
  yield main;
  for (const [owner, events] of ev.byOwner) {
    if (owner === "" || events.length === 0) continue;
    const sub: Session = { ...main, id: `${id}:sub:${owner}`, parent: id, events };
    delete sub.title;
    const subTitle = ev.subTitles.get(owner);
    if (subTitle) sub.title = subTitle;
    yield sub;
  }
}
