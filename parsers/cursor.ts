/**
 * Cursor: the IDE's chat store and the `cursor-agent` CLI's transcripts.
 *
 * @module
 */
import { statSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Event,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
  ToolCallInfo,
} from "../core/model.ts";
import { isRegularFile, listFiles, subdirs } from "../core/fs.ts";
import { readJsonl } from "./_jsonl.ts";
import { absolutePath, expandHome } from "../core/paths.ts";
import { arr, type Obj, obj, str } from "./_util.ts";

import { appUserDir, rootsOrOverride } from "./_vscode.ts";
import { readCursorDb } from "./_cursor_db.ts";
import { readCursorPrompts } from "./_cursor_prompts.ts";

const ID = "cursor";

/**
 * The Cursor parser.
 *
 * 1. IDE: `<User>/globalStorage/state.vscdb` (`sqlite` source, companion
 *    `-wal`), where `<User>` is Cursor's VS Code-style user directory
 *    (`_vscode.ts`: `~/.config/Cursor/User`, `~/Library/Application
 *    Support/Cursor/User`, `%APPDATA%\Cursor\User`). Composers and bubbles
 *    from `cursorDiskKV` (`_cursor_db.ts`, `_cursor_bubbles.ts`; observed in
 *    realdata/cursor, Cursor 1.1.6); projects from the workspace DBs in
 *    `<User>/workspaceStorage/*`. Watermark: `lastUpdatedAt`, epoch ms.
 *    Each workspace DB is also a `sqlite` source of its own (no watermark: read
 *    whole when it changes): the prompts of its `aiService.prompts` history
 *    that no composer holds (`_cursor_prompts.ts`).
 * 2. CLI: `${CURSOR_CONFIG_DIR:-~/.cursor}/projects/<encoded>/agent-transcripts/`
 *    `<chatId>.jsonl` (or `<chatId>/<chatId>.jsonl`), append-only JSONL
 *    `{role: "user" | "assistant", message: {content}}` with Anthropic-style
 *    content; role-less `{type: "turn_ended"}` lines are bookkeeping. Tools `Shell {command}`, `Read {path}`, `Write {path,
 *    contents}`, `StrReplace {path, old_string, new_string}`, `Delete
 *    {path}`; no tool results are written. The session and its events carry
 *    no time (the store records none). `<encoded>` is the project path
 *    with `/` written as `-` and no leading dash: it is decoded against the
 *    file system, else naively (lossy). A transcript under `<chatId>/subagents/`
 *    is a subagent of `<chatId>`. All from docs/registry/cursor.md (no real
 *    transcript was available).
 *
 * `DEJA_CURSOR_ROOT` replaces both roots with one directory that may hold
 * `globalStorage/`, `workspaceStorage/` and `projects/`.
 */
export const cursor: Parser = {
  id: ID,
  discover,
  parse(source: SourceRef, ctx: ParseCtx): AsyncIterable<Session> {
    if (source.hint?.prompts) return readCursorPrompts(ID, source.path, ctx);
    return source.kind === "sqlite" ? readCursorDb(ID, source.path, ctx) : transcript(source, ctx);
  },
};

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const cli = expandHome(env, env.get("CURSOR_CONFIG_DIR") ?? "~/.cursor");
  const roots = rootsOrOverride(env, ID, () => [appUserDir(env, "Cursor"), cli]);
  const sources: SourceRef[] = [];
  for (const root of roots) {
    const db = join(root, "globalStorage", "state.vscdb");
    if (await isRegularFile(db, problem)) {
      sources.push({ harness: ID, path: db, kind: "sqlite", companions: [`${db}-wal`] });
    }
    for (const name of await subdirs(join(root, "workspaceStorage"), problem)) {
      const ws = join(root, "workspaceStorage", name, "state.vscdb");
      if (!(await isRegularFile(ws, problem))) continue;
      sources.push({
        harness: ID,
        path: ws,
        kind: "sqlite",
        companions: [`${ws}-wal`],
        hint: { prompts: "1" },
      });
    }
    const files = await listFiles(join(root, "projects"), {
      match: (p, name) =>
        name.toLowerCase().endsWith(".jsonl") && /[\\/]agent-transcripts[\\/]/i.test(p),
      maxDepth: 5,
      onError: problem,
    });
    for (const path of files) sources.push({ harness: ID, path, kind: "append" });
  }
  return { roots, sources };
}

/** One CLI transcript, from `ctx.offset` on. */
async function* transcript(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const path = source.path;
  const parts = path.split(/[\\/]/);
  const at = parts.findIndex((p) => p.toLowerCase() === "agent-transcripts");
  const project = at > 0 ? decodeProject(parts[at - 1]) : undefined;
  let id = basename(path).replace(/\.jsonl$/i, "");
  let parent: string | undefined;
  if (basename(dirname(path)).toLowerCase() === "subagents") {
    parent = basename(dirname(dirname(path)));
    if (parent === id) id = `${parent}:${id}`;
  }
  const events: Event[] = [];
  for await (const line of readJsonl(path, ctx)) {
    const where = `${path}@${line.start}`;
    const r = obj(line.value);
    if (!r) {
      ctx.skip("bad_shape", where, "not a JSON object");
      continue;
    }
    const role = r.role;
    if (role === undefined) {
      if (r.type !== "turn_ended") ctx.skip("unknown_record", where, `type ${String(r.type)}`);
      continue;
    }
    const content = obj(r.message)?.content ?? r.content;
    if (role === "user" || role === "assistant") {
      events.push(...lineEvents(role, content, project));
    } else {
      ctx.skip("unknown_record", where, `role ${String(role)}`);
    }
  }
  const s: Session = { harness: ID, id, path, events };
  if (project) s.project = project;
  if (parent) s.parent = parent;
  yield s;
}

function lineEvents(role: "user" | "assistant", content: unknown, project?: string): Event[] {
  const out: Event[] = [];
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : arr(content);
  for (const b of blocks) {
    const o = obj(b);
    if (!o) continue;
    if (o.type === "text" && typeof o.text === "string" && o.text.trim() !== "") {
      out.push({ kind: role, text: o.text.trim() });
    } else if (o.type === "tool_use" && role === "assistant") {
      out.push({ kind: "tool_call", text: "", tool: cliTool(o, project) });
    }
  }
  return out;
}

/** A CLI `tool_use` block -> what it means (paths relative to the project are made absolute). */
function cliTool(o: Obj, project: string | undefined): ToolCallInfo {
  const name = str(o.name) ?? "unknown";
  const info: ToolCallInfo = { name };
  if (str(o.id)) info.id = str(o.id);
  if (o.input !== undefined) info.input = o.input;
  const i = obj(o.input) ?? {};
  const file = str(i.path) ?? str(i.file_path);
  const abs = (p: string) => absolutePath(p, project);
  if (name === "Shell" && str(i.command)) info.command = str(i.command);
  else if ((name === "Read" || name === "Delete") && file) info.paths = [abs(file)];
  else if (name === "Write" && file) {
    info.writes = [{ path: abs(file), content: str(i.contents) ?? str(i.content) ?? "" }];
  } else if (name === "StrReplace" && file) {
    info.edits = [{
      path: abs(file),
      old: typeof i.old_string === "string" ? i.old_string : "",
      new: typeof i.new_string === "string" ? i.new_string : "",
    }];
  }
  return info;
}

/**
 * `Users-x-work-my-app` -> `/Users/x/work/my-app`, decoded against the file
 * system: at each level the longest run of `-`-joined parts that names an
 * existing directory is taken (so `my-app` survives when it exists); when
 * nothing on disk matches, every `-` becomes a separator (lossy).
 */
export function decodeProject(encoded: string): string | undefined {
  const parts = encoded.split("-").filter((p) => p !== "");
  if (parts.length === 0) return undefined;
  let cur: string = sep;
  let i = 0;
  while (i < parts.length) {
    let next = -1;
    for (let j = parts.length; j > i; j--) {
      const cand = join(cur, parts.slice(i, j).join("-"));
      if (isDirSync(cand)) {
        next = j;
        break;
      }
    }
    if (next === -1) return sep + parts.join(sep);
    cur = join(cur, parts.slice(i, next).join("-"));
    i = next;
  }
  return cur;
}

function isDirSync(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}
