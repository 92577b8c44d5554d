/**
 * CodeWhale (Hmbown/CodeWhale, a Rust TUI; `deepseek-tui` until v0.8.41). Not
 * the DeepSeek Harness read as `deepseek`.
 *
 * Store: `<home>/sessions/<id>.json`, home = `$CODEWHALE_HOME`, else
 * `~/.codewhale`; each a pretty-printed JSON document rewritten whole (a
 * `document` source). The legacy `~/.deepseek/sessions/` is copied into the new
 * directory on first use, so it is read only while `~/.codewhale/sessions` does
 * not exist, and never when `CODEWHALE_HOME` is set. `DEJA_CODEWHALE_ROOT`
 * names the sessions directory itself. Beside the sessions, `offline_queue.json`,
 * `owners.json` and `session_boot_owners.json` are bookkeeping (ignored) and
 * dot-directories (`.goals`, `.late-usage`) are not entered. From the notes in
 * docs/registry/codewhale.md and CodeWhale's `crates/tui/src/session_manager.rs` (read via the search
 * tool); no real store was available.
 *
 * Document (`SavedSession`): `{schema_version, metadata{id, title, created_at,
 * updated_at (RFC 3339), model, workspace, parent_session_id?, spawn_depth, …},
 * messages[], journal?, system_prompt, …}`. A message is `{role, content:[blocks]}`
 * with Anthropic-shaped blocks (`text`, `thinking`, `tool_use{id, name, input}`,
 * `tool_result{tool_use_id, content, is_error}`). Since v0.9.5 `journal{entries[],
 * leaf_id}` is the canonical history: each entry is flattened with a `kind`
 * tag — `message{message}`, `user{text}`, `assistant{text}`,
 * `compaction{summary}`, `branch_summary{summary}`, `system{content}` — plus
 * `id`, `parent_id?`, `created_at` (RFC 3339). `crates/tui/src/session_tree.rs`
 * confirms the tagging and that the active branch is the walk from `leaf_id`
 * through `parent_id`.
 *
 * Mapping: the journal's active branch when there is one (entry times in ms),
 * else `messages[]` (no per-message time; the session's `created_at` /
 * `updated_at` bound it). `system` / `developer` roles, `system` entries,
 * `system_prompt` and thinking blocks are dropped; compaction and branch
 * summaries -> summary. project = `metadata.workspace`; a fork's
 * `parent_session_id` -> parent. Tools (`crates/tui/src/tools/file.rs`):
 * `exec_shell {command}`, `read_file {path}`, `write_file {path, content}`,
 * `edit_file {path, search, replace}`, `list_dir {path}` (a directory listed, not
 * a file read: no `paths`), `apply_patch`.
 * No exit status is recorded apart from `is_error`.
 *
 * @module
 */
import { basename, join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Event,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { isDir, listFiles } from "../core/fs.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { expandHome, overrideVar } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { arr, blockText, type Obj, obj, str } from "./_util.ts";
import { newSession, spanTimes } from "./_session_meta.ts";
import { callInfo, type CallKind } from "./_call_info.ts";
import { hasToolResult, toolResultEvent } from "./_message_blocks.ts";

const ID = "codewhale";
/** Files beside the sessions that are not sessions. */
const BOOKKEEPING = new Set(["offline_queue.json", "owners.json", "session_boot_owners.json"]);
/** CodeWhale's tools by what they do. */
const KINDS: Readonly<Record<string, CallKind>> = {
  exec_shell: "shell",
  read_file: "read",
  list_dir: "list",
  write_file: "write",
  edit_file: "edit",
  apply_patch: "patch",
};

/** The sessions directories to read, in order. */
async function roots(env: DiscoverCtx["env"]): Promise<string[]> {
  const o = env.get(overrideVar(ID));
  if (o) return [expandHome(env, o)];
  const home = env.get("CODEWHALE_HOME");
  if (home) return [join(expandHome(env, home), "sessions")];
  const main = expandHome(env, "~/.codewhale/sessions");
  return (await isDir(main)) ? [main] : [main, expandHome(env, "~/.deepseek/sessions")];
}

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const dirs = await roots(env);
  const match = (_p: string, name: string) => name.endsWith(".json") && !BOOKKEEPING.has(name);
  const sources: SourceRef[] = [];
  for (const dir of dirs) {
    for (const path of await listFiles(dir, { match, maxDepth: 0, onError: problem })) {
      sources.push({ harness: ID, path, kind: "document" });
    }
  }
  return { roots: dirs, sources };
}

/** One message `{role, content}` -> events; `where` names it for skips. */
function messageEvents(
  m: Obj,
  key: string,
  base: string | undefined,
  skip: (detail: string) => void,
): Event[] {
  const role = str(m.role);
  const content = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
  if (role === "user") {
    if (hasToolResult(content)) {
      return arr(content).map(obj).filter((b): b is Obj => b?.type === "tool_result")
        .map((b) => toolResultEvent(b, undefined));
    }
    const text = blockText(content).trim();
    return text ? [{ kind: "user", text }] : [];
  }
  if (role === "assistant" || role === "assistant_interrupted") {
    const out: Event[] = [];
    for (const b of arr(content).map(obj)) {
      if (b?.type === "text" && str(b.text)?.trim()) {
        out.push({ kind: "assistant", text: (b.text as string).trim() });
      } else if (b?.type === "tool_use" || b?.type === "server_tool_use") {
        const tool = callInfo(str(b.name) ?? "unknown", str(b.id), b.input, KINDS, base);
        out.push({ kind: "tool_call", text: "", tool });
      }
    }
    return out;
  }
  if (role !== "system" && role !== "developer") skip(`${key}: role ${role ?? "(none)"}`);
  return [];
}

/** The active branch of a journal: from `leaf_id` up through `parent_id`, root first. */
function activeBranch(journal: Obj, leaf: string | undefined): Obj[] {
  const entries = arr(journal.entries).map(obj).filter((e): e is Obj => !!e);
  const byId = new Map(entries.map((e) => [str(e.id) ?? "", e]));
  const path: Obj[] = [];
  const seen = new Set<string>();
  let cur = leaf ?? str(entries.at(-1)?.id);
  while (cur && !seen.has(cur) && byId.has(cur)) {
    seen.add(cur);
    const e = byId.get(cur)!;
    path.push(e);
    cur = str(e.parent_id);
  }
  return path.reverse();
}

/** Journal entries -> events (with their times). */
function journalEvents(
  entries: Obj[],
  base: string | undefined,
  skip: (detail: string) => void,
): Event[] {
  const out: Event[] = [];
  for (const e of entries) {
    const time = toMillis(e.created_at);
    const kind = str(e.kind);
    const key = `journal entry ${str(e.id) ?? "?"}`;
    let evs: Event[] = [];
    if (kind === "message") evs = messageEvents(obj(e.message) ?? {}, key, base, skip);
    else if (kind === "user" || kind === "assistant") {
      const text = str(e.text)?.trim();
      if (text) evs = [{ kind, text }];
    } else if (kind === "compaction" || kind === "branch_summary") {
      const text = str(e.summary)?.trim();
      if (text) evs = [{ kind: "summary", text }];
    } else if (kind !== "system") skip(`${key}: kind ${kind ?? "(none)"}`);
    for (const ev of evs) out.push(time === undefined ? ev : { ...ev, time });
  }
  return out;
}

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const doc = obj(await readJsonDocument(source.path, source.path, ctx));
  if (!doc) return;
  const meta = obj(doc.metadata);
  if (!meta || (!Array.isArray(doc.messages) && !obj(doc.journal))) {
    ctx.skip("unknown_record", source.path, "not a CodeWhale session (no metadata/messages)");
    return;
  }
  const base = str(meta.workspace);
  const skip = (detail: string) => ctx.skip("unknown_record", source.path, detail);
  const journal = obj(doc.journal);
  const branch = journal ? activeBranch(journal, str(journal.leaf_id) ?? str(doc.leaf_id)) : [];
  const events = branch.length ? journalEvents(branch, base, skip) : arr(doc.messages).flatMap(
    (m, i) => messageEvents(obj(m) ?? {}, `messages[${i}]`, base, skip),
  );
  if (!events.length) return;
  const s = newSession(ID, str(meta.id) ?? basename(source.path, ".json"), source.path, events, {
    project: base,
    title: str(meta.title),
    model: str(meta.model),
    parent: str(meta.parent_session_id),
  });
  yield spanTimes(s, toMillis(meta.created_at), toMillis(meta.updated_at));
}

/** The CodeWhale parser. */
export const codewhale: Parser = { id: ID, discover, parse };
