/**
 * Kiro (kiro.dev): the `kiro-cli` chat store and the Kiro IDE's stores.
 *
 * Roots: the `.kiro` directory `${DEJA_KIRO_ROOT:-${KIRO_HOME:-~/.kiro}}` and
 * the IDE's VS Code-style user directory: `${XDG_CONFIG_HOME:-~/.config}/Kiro/User`
 * (Linux), `~/Library/Application Support/Kiro/User` (macOS),
 * `%APPDATA%\Kiro\User` (Windows) (getagentseal/codeburn `docs/providers/kiro.md`,
 * read via the search tool). DEJA_KIRO_ROOT stands for both: its `sessions/`
 * and its `globalStorage/`. `KIRO_HOME` is honoured by some readers; Kiro's own
 * use of it is not confirmed (docs/registry/kiro.md).
 *
 * CLI store, `sessions/cli/<sessionId>.jsonl` (append-only) with a
 * `<sessionId>.json` sidecar `{session_id, cwd, title, created_at, updated_at
 * (RFC 3339), parent_session_id, session_state: {model_info | rts_model_state.model_info:
 * {model_id}}}`; `.lock` and `.history` files beside them are not read
 * (docs/registry/kiro.md; Dicklesworthstone/coding_agent_session_search
 * `src/connectors/kiro.rs` and codeburn `src/providers/kiro.ts`, read via the
 * search tool; no real store seen). A line is `{version: "v1", kind, data}`:
 * - `Prompt`: user text in `data.content[] {kind: "text", data}`;
 *   `data.meta.timestamp` is epoch **seconds**, the only time in the file. Other
 *   records take the last Prompt's time, else the sidecar's `created_at`.
 * - `AssistantMessage`: `text` blocks (a streamed reply is several records with
 *   one `data.message_id`, joined back into one turn), `toolUse {toolUseId,
 *   name, input}` blocks -> tool_call, `thinking` dropped.
 * - `ToolResults`: `toolResult {toolUseId, content[], status: success|error}`
 *   -> tool_result (`_kiro_tools.ts`).
 * - `Clear` is bookkeeping; other kinds count as `unknown_record`.
 * Session id = sidecar `session_id`, else the file stem; project = sidecar `cwd`.
 *
 * IDE stores: `_kiro_ide.ts`.
 *
 * @module
 */
import { join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Env,
  Event,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { readJsonl } from "./_jsonl.ts";
import { readJsonFile, walk } from "../core/fs.ts";
import { expandHome, overrideVar, rootFrom, xdgConfig } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { arr, type Obj, obj, str } from "./_util.ts";
import { kiroToolCall, kiroToolResult } from "./_kiro_tools.ts";
import { parseChat, parseIdeJsonl } from "./_kiro_ide.ts";
import { newSession, spanTimes } from "./_session_meta.ts";

const ID = "kiro";

/** The `.kiro` directory (or DEJA_KIRO_ROOT). */
export function kiroHome(env: Env): string {
  return rootFrom(env, ID, [["KIRO_HOME", ""]], "~/.kiro");
}

/** The IDE's `User` directory (or DEJA_KIRO_ROOT). */
export function kiroUserDir(env: Env): string {
  if (env.get(overrideVar(ID))) return kiroHome(env);
  if (env.platform === "win32") {
    const appData = env.get("APPDATA");
    return join(
      appData ? expandHome(env, appData) : join(env.home, "AppData", "Roaming"),
      "Kiro",
      "User",
    );
  }
  if (env.platform === "darwin") {
    return join(env.home, "Library", "Application Support", "Kiro", "User");
  }
  return join(xdgConfig(env), "Kiro", "User");
}

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const sessions = join(kiroHome(env), "sessions");
  const storage = join(kiroUserDir(env), "globalStorage", "kiro.kiroagent");
  const sources: SourceRef[] = [];
  const cli = join(sessions, "cli");
  const cliMatch = (_p: string, name: string) => name.endsWith(".jsonl");
  for await (const path of walk(cli, { match: cliMatch, maxDepth: 0, onError: problem })) {
    const sidecar = path.replace(/\.jsonl$/, ".json");
    sources.push({
      harness: ID,
      path,
      kind: "append",
      companions: [sidecar],
      hint: { layout: "cli" },
    });
  }
  const ideMatch = (p: string, name: string) =>
    name === "messages.jsonl" && /[\\/]sess_[^\\/]+[\\/]messages\.jsonl$/.test(p) &&
    !p.startsWith(cli);
  for await (const path of walk(sessions, { match: ideMatch, maxDepth: 2, onError: problem })) {
    const meta = join(path, "..", "session.json");
    sources.push({
      harness: ID,
      path,
      kind: "append",
      companions: [meta],
      hint: { layout: "ide" },
    });
  }
  const chatMatch = (_p: string, name: string) => name.endsWith(".chat");
  for await (const path of walk(storage, { match: chatMatch, maxDepth: 2, onError: problem })) {
    sources.push({ harness: ID, path, kind: "document", hint: { layout: "chat" } });
  }
  return { roots: [sessions, storage], sources };
}

/** What a CLI pass hands to the next (JSON). */
interface CliState {
  /** Time of the last Prompt (epoch ms). */
  last?: number;
  /** The assistant turn still open for joining: its message id, event key and text. */
  open?: { mid: string; key: string; text: string };
}

async function* parseCli(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const side: Obj = obj(await readJsonFile(source.path.replace(/\.jsonl$/, ".json"))) ?? {};
  const st: CliState = { ...(obj(ctx.state) as CliState | undefined) };
  const cwd = str(side.cwd);
  const created = toMillis(side.created_at);
  const stem = source.path.replace(/^.*[\\/]/, "").replace(/\.jsonl$/, "");
  const parent = str(side.parent_session_id);
  let id = str(side.session_id) ?? stem;
  if (parent && id === parent) id = `${parent}/${stem}`;
  const state = obj(side.session_state);
  const model = str(obj(state?.model_info)?.model_id) ??
    str(obj(obj(state?.rts_model_state)?.model_info)?.model_id);
  const s = newSession(ID, id, source.path, [], {
    project: cwd,
    title: str(side.title),
    model,
    parent,
  });
  /** The open turn's event when it was made in this pass (so it can grow in place). */
  let openEvent: Event | undefined;
  for await (const line of readJsonl(source.path, ctx)) {
    const where = `${source.path}@${line.start}`;
    const r = obj(line.value);
    const kind = str(r?.kind);
    const data = obj(r?.data);
    if (!kind || !data) {
      ctx.skip("unknown_record", where, "no kind/data");
      continue;
    }
    if (kind === "Clear") continue;
    if (kind === "Prompt") {
      st.last = toMillis(obj(data.meta)?.timestamp) ?? st.last;
      st.open = undefined;
      const text = blockTexts(data.content, "\n");
      if (text) {
        s.events.push(
          at({ kind: "user", text, key: `p:${str(data.message_id) ?? line.start}` }, st.last),
        );
      }
      continue;
    }
    const time = st.last ?? created;
    if (kind === "AssistantMessage") {
      const mid = str(data.message_id);
      const text = blockTexts(data.content, "");
      if (text && mid && st.open?.mid === mid) {
        st.open.text += text;
        if (openEvent) openEvent.text = st.open.text;
        else {s.events.push(
            openEvent = at({ kind: "assistant", text: st.open.text, key: st.open.key }, time),
          );}
      } else if (text) {
        const key = mid ? `a:${mid}:${line.start}` : `a:${line.start}`;
        st.open = mid ? { mid, key, text } : undefined;
        s.events.push(openEvent = at({ kind: "assistant", text, key }, time));
        if (!mid) openEvent = undefined;
      }
      for (const b of blocks(data.content, "toolUse")) {
        const tool = kiroToolCall(b, cwd);
        s.events.push(
          at({ kind: "tool_call", text: "", key: `call:${tool.id ?? line.start}`, tool }, time),
        );
      }
      continue;
    }
    if (kind === "ToolResults") {
      st.open = undefined;
      for (const b of blocks(data.content, "toolResult")) s.events.push(kiroToolResult(b, time));
      continue;
    }
    ctx.skip("unknown_record", where, `kind ${kind}`);
  }
  ctx.endState = st;
  if (s.events.length) yield spanTimes(s, created, toMillis(side.updated_at));
}

/** Sets `time` on `e` when known. */
function at(e: Event, time: number | undefined): Event {
  if (time !== undefined) e.time = time;
  return e;
}

/** The `data` of each content block of `kind`. */
function blocks(content: unknown, kind: string): Obj[] {
  return arr(content).map(obj).filter((b) => b?.kind === kind).map((b) => obj(b!.data))
    .filter((d): d is Obj => d !== undefined);
}

/** The text blocks of a content list joined by `sep` (thinking and tool blocks contribute nothing). */
function blockTexts(content: unknown, sep: string): string {
  if (typeof content === "string") return content;
  return arr(content).map(obj).filter((b) => b?.kind === "text")
    .map((b) => (typeof b!.data === "string" ? b!.data : str(obj(b!.data)?.data) ?? ""))
    .join(sep);
}

/** The Kiro parser. */
export const kiro: Parser = {
  id: ID,
  discover,
  parse(source, ctx) {
    const layout = source.hint?.layout ??
      (source.path.endsWith(".chat")
        ? "chat"
        : source.path.endsWith("messages.jsonl")
        ? "ide"
        : "cli");
    if (layout === "chat") return parseChat(source, ctx);
    if (layout === "ide") return parseIdeJsonl(source, ctx);
    return parseCli(source, ctx);
  },
};
