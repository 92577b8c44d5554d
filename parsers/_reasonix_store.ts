/**
 * Private helpers of the Reasonix parser ({@link ../parsers/reasonix.ts}): one
 * stored message into events, and the 1.x `events.frames` log replayed into
 * a message list.
 *
 * Message fields (esengine/DeepSeek-Reasonix
 * `internal/contract/provider/provider.go` `Message`, read via the search
 * tool): `role` (`system|user|assistant|tool`), `content`, `raw_content`
 * (the user's text before injected context; a tool's full result),
 * `reasoning_content` (dropped), `tool_calls [{id, name, arguments (JSON
 * string)}]`, `tool_call_id`, `name`, `createdAt` (Unix **ms**),
 * `host_authored` (a user-role line the host composed), `local_only`
 * (display-only, never sent to a model), `tool_execution`, `tool_failure`.
 * 0.x wrote OpenAI's nested `{id, type, function: {name, arguments}}` calls
 * (docs/registry/reasonix.md; both read). `tool_execution.exitCode` is from the notes
 * (the struct was not found in the source read).
 *
 * `events.frames` (1.x, docs/registry/reasonix.md, third-party; not confirmed in
 * source): frames of the 4-byte magic `RX4F`, compressed and raw length
 * (big-endian uint32), then one zstd frame holding a JSON record `{type,
 * payload (base64 JSON) | payloadRef}`. Records between `batch/begin` and
 * `batch/end` apply together; an unterminated last batch is a write in
 * progress and is ignored. `message/complete` appends, `message/upsert`
 * replaces by id, `message/retract` drops ids, `history/replace` and
 * `legacy/import` replace the list, `session/title` sets the title.
 *
 * @module
 */
import type { Event, ParseCtx, ToolCallInfo, ToolResultInfo } from "../core/model.ts";
import { toMillis } from "./_time.ts";
import { arr, decodeArgs, num, type Obj, obj, str } from "./_util.ts";
import { describeTool, type ToolKind } from "./_tool_args.ts";
import { unzstd } from "./_zstd.ts";

const KINDS: Record<string, ToolKind> = {
  bash: "shell",
  read_file: "read",
  write_file: "write",
  edit_file: "edit",
  multi_edit: "edit",
  move_file: "move",
  notebook_edit: "paths",
  delete_range: "paths",
  delete_symbol: "paths",
};

function callInfo(c: Obj, base: string | undefined): ToolCallInfo | undefined {
  const fn = obj(c.function) ?? c;
  const name = str(fn.name);
  if (!name) return undefined;
  const input = decodeArgs(fn.arguments);
  const tool: ToolCallInfo = { name, id: str(c.id), input };
  const a = obj(input);
  if (a && KINDS[name]) describeTool(tool, KINDS[name], a, base);
  return tool;
}

/** The events of one stored message; keys `<key>` and `<key>#<call index>`. */
export function reasonixMessageEvents(
  m: Obj,
  key: string,
  base: string | undefined,
  skip: ParseCtx["skip"],
): Event[] {
  if (m.local_only === true) return [];
  const time = toMillis(m.createdAt);
  const text = str(m.raw_content) ?? (typeof m.content === "string" ? m.content : "");
  switch (m.role) {
    case "system":
      return [];
    case "user":
      if (m.host_authored === true || m.origin === "host" || !text.trim()) return [];
      return [{ kind: "user", text, time, key }];
    case "assistant": {
      const out: Event[] = [];
      if (text.trim()) out.push({ kind: "assistant", text: text.trim(), time, key });
      for (const [i, c] of arr(m.tool_calls).entries()) {
        const o = obj(c);
        const tool = o ? callInfo(o, base) : undefined;
        if (tool) out.push({ kind: "tool_call", text: "", tool, time, key: `${key}#${i}` });
        else skip("bad_shape", `${key}.tool_calls[${i}]`, "tool call without a name");
      }
      return out;
    }
    case "tool": {
      const exec = obj(m.tool_execution);
      const result: ToolResultInfo = { callId: str(m.tool_call_id), isError: !!m.tool_failure };
      const exit = num(exec?.exitCode ?? exec?.exit_code);
      if (exit !== undefined) result.exit = exit;
      return [{ kind: "tool_result", text, result, time, key }];
    }
    default:
      skip("unknown_record", key, `role ${String(m.role)}`);
      return [];
  }
}

/** What replaying an `events.frames` log gave. */
export interface Replay {
  messages: Array<{ key: string; msg: Obj }>;
  title?: string;
}

const be32 = (b: Uint8Array, at: number) =>
  ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

/** The records of an `events.frames` file, in order (a torn tail is dropped). */
function frameRecords(bytes: Uint8Array, where: string, skip: ParseCtx["skip"]): Obj[] {
  const out: Obj[] = [];
  const magic = [0x52, 0x58, 0x34, 0x46]; // "RX4F"
  let at = 0;
  while (at + 12 <= bytes.length) {
    if (!magic.every((b, i) => bytes[at + i] === b)) {
      skip("corrupt", `${where}@${at}`, "frame without the RX4F magic; the rest is not read");
      break;
    }
    const end = at + 12 + be32(bytes, at + 4);
    if (end > bytes.length) break; // a frame still being written
    try {
      const rec = obj(
        JSON.parse(new TextDecoder().decode(unzstd(bytes.subarray(at + 12, end)).data)),
      );
      if (rec) out.push(rec);
      else skip("bad_shape", `${where}@${at}`, "record is not a JSON object");
    } catch (e) {
      skip("corrupt", `${where}@${at}`, (e as Error).message);
    }
    at = end;
  }
  return out;
}

function payloadOf(rec: Obj, where: string, skip: ParseCtx["skip"]): unknown {
  if (rec.payload === undefined && rec.payloadRef !== undefined) {
    skip("unsupported", where, "payload stored as a content-addressed object (payloadRef)");
    return undefined;
  }
  if (typeof rec.payload !== "string") return rec.payload;
  try {
    return JSON.parse(
      new TextDecoder().decode(Uint8Array.from(atob(rec.payload), (c) => c.charCodeAt(0))),
    );
  } catch (e) {
    skip("malformed_json", where, `payload: ${(e as Error).message}`);
    return undefined;
  }
}

/** Replays the records of an `events.frames` file into the session's messages. */
export function replayFrames(bytes: Uint8Array, where: string, skip: ParseCtx["skip"]): Replay {
  const replay: Replay = { messages: [] };
  let batch: Array<[Obj, number]> | undefined;
  const apply = (rec: Obj, n: number) => {
    const type = str(rec.type) ?? str(rec.kind) ?? "";
    const at = `${where}#${n}`;
    const p = payloadOf(rec, at, skip);
    const po = obj(p);
    const keyed = (m: Obj) => ({ key: str(m.id) ?? `f${n}`, msg: m });
    switch (type) {
      case "message/complete":
        if (po) replay.messages.push(keyed(po));
        break;
      case "message/upsert": {
        if (!po) break;
        const i = replay.messages.findIndex((x) => x.key === str(po.id));
        if (i >= 0) replay.messages[i] = keyed(po);
        else replay.messages.push(keyed(po));
        break;
      }
      case "message/retract": {
        const ids = new Set([...arr(po?.ids), po?.id].filter((x) => typeof x === "string"));
        replay.messages = replay.messages.filter((x) => !ids.has(x.key));
        break;
      }
      case "history/replace":
      case "legacy/import":
        replay.messages = arr(po?.messages ?? p).map(obj).filter((m): m is Obj => !!m)
          .map((m, i) => ({ key: str(m.id) ?? `f${n}.${i}`, msg: m }));
        break;
      case "session/title":
        replay.title = str(po?.title) ?? replay.title;
        break;
      default:
        skip("unknown_record", at, `type ${type || "(none)"}`);
    }
  };
  for (const [n, rec] of frameRecords(bytes, where, skip).entries()) {
    if (rec.type === "batch/begin") batch = [];
    else if (rec.type === "batch/end") {
      for (const [r, i] of batch ?? []) apply(r, i);
      batch = undefined;
    } else if (batch) batch.push([rec, n]);
    else apply(rec, n);
  }
  return replay;
}
