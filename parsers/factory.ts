/**
 * Factory Droid sessions: Claude Code's project tree with Factory's own
 * envelope around Anthropic messages, adapted record by record to Claude's
 * shape and read by the shared Claude reader.
 *
 * @module
 */
import type { Event, Parser } from "../core/model.ts";
import { readJsonFile } from "../core/fs.ts";
import { headRecords } from "./_jsonl.ts";
import { rootFrom } from "../core/paths.ts";
import { type Obj, obj, str } from "./_util.ts";
import type { ToolVocabulary } from "./_message_blocks.ts";
import {
  claudeRecord,
  type FamilyDialect,
  familyParser,
  type FamilyReading,
} from "./_claude_family.ts";

/** Factory's tools by what they do (farm run, droid 0.225.2; the rest from Factory's tool list). */
const FACTORY_TOOLS: ToolVocabulary = {
  shell: new Set(["Execute"]),
  read: new Set(["Read"]),
  edit: new Set(["Edit"]),
  multiEdit: new Set(["MultiEdit"]),
  write: new Set(["Create"]),
  old: ["old_str", "old_string"],
  new: ["new_str", "new_string"],
};

/** Record types Factory writes that carry nothing to index. */
const QUIET = new Set(["todo_state", "agent_turn_outcome"]);
/** `Error: Command failed (exit code: N)` opening a failed command's output. */
const FAILED_HEAD = /^Error: Command failed \(exit code: (-?\d+)\)\r?\n/;
/** `[Process exited with code N]` closing a command's output. */
const EXIT_TAIL = /\s*\[Process exited with code (-?\d+)\]\s*$/;

/** Reads the exit status off a command result and strips Factory's framing around the output. */
function unframe(e: Event): Event {
  if (e.kind !== "tool_result" || !e.result) return e;
  const tail = EXIT_TAIL.exec(e.text);
  let text = tail ? e.text.slice(0, tail.index) : e.text;
  const head = FAILED_HEAD.exec(text);
  if (head) text = text.slice(head[0].length);
  const code = tail?.[1] ?? head?.[1];
  if (code !== undefined) e.result.exit = Number(code);
  e.text = text;
  return e;
}

/** A `message` record as a Claude `user` / `assistant` record. */
function message(r: Obj): Obj | undefined {
  const msg = obj(r.message);
  const role = str(msg?.role);
  if (!msg || (role !== "user" && role !== "assistant")) return undefined;
  return {
    type: role,
    uuid: str(r.id),
    // `visibility:"llm_only"` marks the context Factory sends the model (system reminders).
    ...(msg.visibility === "llm_only" ? { isMeta: true } : {}),
    message: { ...msg, id: str(r.id), model: str(msg.modelId) },
  };
}
/** Factory's differences from Claude Code's records. */
const FACTORY_DIALECT: FamilyDialect = {
  harness: "factory",
  read(r, time, st, f, skip): FamilyReading {
    const type = str(r.type);
    if (type === "session_start") {
      return { title: str(r.title), rank: r.isSessionTitleManuallySet === true ? 3 : 1 };
    }
    if (type === "message") {
      const rec = message(r);
      if (!rec) {
        skip("bad_shape", "message without a user or assistant message");
        return null;
      }
      const reading = claudeRecord(rec, time, st, f, skip, FACTORY_TOOLS);
      if (reading && "events" in reading) reading.events.forEach(unframe);
      return reading;
    }
    return type !== undefined && QUIET.has(type) ? null : undefined;
  },
  ids: (r) => (r.type === "session_start" ? { sid: str(r.id), cwd: str(r.cwd) } : {}),
  async init(source, st) {
    // A pass resumed without saved state finds the session_start again at the head.
    if (!st.sid) {
      const head = (await headRecords(source.path, 4)).map(obj).find((r) =>
        r?.type === "session_start"
      );
      if (head) Object.assign(st, { sid: str(head.id), cwd: str(head.cwd) });
    }
    if (st.model) return;
    const settings = obj(await readJsonFile(source.path.replace(/\.jsonl$/, ".settings.json")));
    const model = str(settings?.model);
    if (model) st.model = model;
  },
};

/**
 * Factory Droid (`droid`) — JSONL per session plus a `.settings.json` beside it, kind "append".
 *
 * Store: `${DEJA_FACTORY_ROOT:-~/.factory/sessions}/<encoded-cwd>/<sessionId>.jsonl` (observed
 * in realdata/farm/factory, droid 0.225.2; the encoded name is the cwd with `/` as `-`). Beside
 * it `<sessionId>.settings.json` (model, autonomy, token usage; no title or cwd in 0.225) and a
 * `.bak` of it; only `model` is read, as the model when no message names one.
 *
 * Records (observed in the farm store unless noted):
 * - `session_start` `{id, title, owner, version:2, cwd, hostId, isSessionTitleManuallySet}`:
 *   session id, project, title (the first prompt unless set by hand);
 * - `message` `{id, parentId, timestamp (ISO), message{role, content, modelId, visibility}}`
 *   with Anthropic blocks (`text`, `tool_use{id, name, input}`, `tool_result{tool_use_id,
 *   is_error, content}`); the first user message (`visibility:"llm_only"`, `id:"context-…"`)
 *   is harness context of system reminders, dropped;
 * - `agent_turn_outcome`, and `todo_state` (docs/registry/factory.md), carry nothing.
 * Tools: `Execute{command}`, `Read{file_path}`, `Edit{file_path, old_str, new_str}` seen in the
 * farm; `LS`, `Grep`, `Glob`, `Create`, `MultiEdit` by Factory's tool list (not seen). A command
 * result reads `[Error: Command failed (exit code: N)\n]<output>\n\n\n[Process exited with code
 * N]`: N becomes `exit` and the framing is cut. Times: ISO strings -> epoch ms.
 */
export const factory: Parser = familyParser(
  FACTORY_DIALECT,
  (env) => rootFrom(env, "factory", [], "~/.factory/sessions"),
);
