/**
 * The Kiro IDE's two stores. Private to `parsers/kiro.ts`. Neither is
 * confirmed on a real store; both come from third-party readers and are
 * treated as unstable (docs/registry/kiro.md, "IDE: inferred / low").
 *
 * - `sessions/<workspace>/sess_<uuid>/messages.jsonl` with `session.json`
 *   (`id`, `modelId`, `workspacePaths[]`, `createdAt`) beside it; a line is
 *   `{timestamp (RFC 3339), payload: {type, content}}` or, in older builds,
 *   flat `{role, content}`. `session_metadata`, `usage_summary`, `turn_end`
 *   and `tool_call` lines are bookkeeping (vshulcz/deja-vu
 *   `internal/sources/kiro.go`, read via the search tool).
 * - `globalStorage/kiro.kiroagent/<workspace>/<executionId>.chat`: one JSON
 *   document `{executionId, actionId, chat: [{role: human|bot|tool, content}],
 *   metadata: {modelId, workflowId, startTime, endTime}}`; a `human` turn that
 *   opens with `<identity>` is the IDE's own preamble; a `bot` turn names its
 *   tools inline as `<tool_use><name>X</name>...</tool_use>` (kept as tool
 *   calls with only a name, cut from the prose); the workspace folder
 *   name is a base64-encoded path (getagentseal/codeburn
 *   `src/providers/kiro.ts` and `docs/providers/kiro.md`, read via the search
 *   tool). Extensionless execution files written since about 2026-02 are not
 *   read: no reader agrees on their shape.
 *
 * @module
 */
import { readStoreText } from "../core/fsread.ts";
import { basename, dirname, join } from "node:path";
import type { Event, EventKind, ParseCtx, Session, SourceRef } from "../core/model.ts";
import { readJsonl } from "./_jsonl.ts";
import { readJsonFile } from "../core/fs.ts";
import { toMillis } from "./_time.ts";
import { arr, blockText, type Obj, obj, str } from "./_util.ts";
import { newSession, spanTimes } from "./_session_meta.ts";
import { isWindowsDrivePath } from "../core/paths.ts";

const IDE_KINDS: Record<string, EventKind> = {
  user: "user",
  human: "user",
  prompt: "user",
  assistant: "assistant",
  bot: "assistant",
  response: "assistant",
  tool_result: "tool_result",
};
const TOOL_USE_RE = /<tool_use>[\s\S]*?<\/tool_use>/g;
const IDE_BOOKKEEPING = new Set(["session_metadata", "usage_summary", "turn_end", "tool_call"]);

/** An IDE `messages.jsonl`, from `ctx.offset`. */
export async function* parseIdeJsonl(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const dir = dirname(source.path);
  const meta = obj(await readJsonFile(join(dir, "session.json"))) ?? {};
  const s = newSession("kiro", str(meta.id) ?? basename(dir), source.path, [], {
    project: str(arr(meta.workspacePaths)[0]),
    model: str(meta.modelId),
    title: str(meta.title),
  });
  const created = toMillis(meta.createdAt);
  for await (const line of readJsonl(source.path, ctx)) {
    const where = `${source.path}@${line.start}`;
    const r = obj(line.value);
    const p = obj(r?.payload) ?? r;
    const type = str(p?.type) ?? str(p?.role);
    if (!r || !p || !type) {
      ctx.skip("unknown_record", where, "no payload.type or role");
      continue;
    }
    if (IDE_BOOKKEEPING.has(type)) continue;
    const kind = IDE_KINDS[type];
    if (!kind) {
      ctx.skip("unknown_record", where, `type ${type}`);
      continue;
    }
    const text = blockText(p.content).trim();
    if (!text) continue;
    const e: Event = { kind, text, key: `l:${line.start}` };
    if (kind === "tool_result") e.result = { isError: false };
    const time = toMillis(r.timestamp);
    if (time !== undefined) e.time = time;
    s.events.push(e);
  }
  if (s.events.length) yield spanTimes(s, created);
}

/** A path from a base64-encoded workspace folder name, when it decodes to one. */
export function decodeWorkspace(name: string): string | undefined {
  try {
    const b64 = name.replaceAll("-", "+").replaceAll("_", "/");
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const p = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if ([...p].some((c) => c.charCodeAt(0) < 0x20)) return undefined;
    return p.startsWith("/") || isWindowsDrivePath(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

/** A legacy `.chat` document, re-read whole. */
export async function* parseChat(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  let doc: Obj | undefined;
  try {
    const text = await readStoreText(source.path, ctx);
    if (text.trim() === "") {
      ctx.skip("empty", source.path);
      return;
    }
    doc = obj(JSON.parse(text));
  } catch (e) {
    if ((e as { code?: string }).code === "EFBIG") {
      ctx.skip("oversized", source.path, (e as Error).message);
      return;
    }
    ctx.skip("malformed_json", source.path);
    return;
  }
  if (!doc || !Array.isArray(doc.chat)) {
    if (!Array.isArray(doc?.executions)) ctx.skip("bad_shape", source.path, "no chat list");
    return;
  }
  const meta = obj(doc.metadata) ?? {};
  const start = toMillis(meta.startTime);
  const end = toMillis(meta.endTime);
  const events: Event[] = [];
  doc.chat.forEach((m, i) => {
    const o = obj(m);
    const role = str(o?.role) ?? "";
    const text = blockText(o?.content).trim();
    const kind = role === "human"
      ? "user"
      : role === "bot"
      ? "assistant"
      : role === "tool"
      ? "tool_result"
      : undefined;
    if (!kind) {
      ctx.skip("unknown_record", `${source.path}#${i}`, `role ${role || "missing"}`);
      return;
    }
    if (!text || (kind === "user" && text.startsWith("<identity>"))) return;
    const at = (e: Event): Event => (start === undefined ? e : { ...e, time: start });
    if (kind !== "assistant") {
      events.push(
        at({
          kind,
          text,
          key: `c:${i}`,
          ...(kind === "tool_result" ? { result: { isError: false } } : {}),
        }),
      );
      return;
    }
    // A bot turn names the tools it used inline: `<tool_use><name>fsWrite</name>...</tool_use>`.
    const prose = text.replace(TOOL_USE_RE, "").trim();
    if (prose) events.push(at({ kind, text: prose, key: `c:${i}` }));
    let n = 0;
    for (const m of text.matchAll(TOOL_USE_RE)) {
      const name = /<name>\s*([^<]+?)\s*<\/name>/.exec(m[0])?.[1] ?? "unknown";
      events.push(at({ kind: "tool_call", text: "", key: `c:${i}:${n++}`, tool: { name } }));
    }
  });
  if (!events.length) return;
  const id = str(doc.executionId) ?? basename(source.path).replace(/\.chat$/, "");
  yield newSession("kiro", id, source.path, events, {
    project: decodeWorkspace(basename(dirname(source.path))),
    model: str(meta.modelId),
    started: start,
    updated: end ?? start,
  });
}
