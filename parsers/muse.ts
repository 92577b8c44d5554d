/**
 * Muse Code (Meta) session logs: event-sourced JSONL, one directory per
 * session under the day it started; run events are folded into messages.
 *
 * @module
 */
import { join, relative, sep } from "node:path";
import type { Event, ParseCtx, Parser, Session, SourceRef, ToolCallInfo } from "../core/model.ts";
import { headRecords, readJsonl } from "./_jsonl.ts";
import { walk } from "../core/fs.ts";
import { absolutePath, rootFrom, xdgData } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { arr, decodeArgs, num, type Obj, obj, str, withModel } from "./_util.ts";

/** Events held before a chunk is yielded. */
const CHUNK_EVENTS = 256;

/** `YYYY/MM/DD/<id>/session.jsonl`, optionally through `subagent/<child>/` levels. */
const LAYOUT = /^\d{4}\/\d{2}\/\d{2}\/[^/]+\/(subagent\/[^/]+\/)*session\.jsonl$/;

/**
 * Payload-type families Muse writes besides the ones read here (lifecycle,
 * permissions, usage, cron, workflow children): ignored without counting.
 * Anything outside them is counted as `unknown_record`.
 */
const KNOWN_FAMILIES =
  /^(runtime|session|run|task|tool_batch|approval|command|workflow|cron|goal)[._]/;

/** What a pass hands to the next one (JSON). */
interface MuseState {
  /** The session's own stream id; records of other streams are subagent task streams. */
  stream?: string;
  title?: string;
  /** Workspace from `runtime.session.metadata`, route facts, workspace branch (that order). */
  meta?: string;
  route?: string;
  branch?: string;
  model?: string;
}

/** A session's id and its parent's, from its directory chain. */
function museIds(path: string): { id: string; parent?: string; dir: string } {
  const segs = path.split(/[\\/]/);
  let i = segs.length - 2;
  const chain = [segs[i]];
  while (i >= 2 && segs[i - 1] === "subagent") {
    i -= 2;
    chain.unshift(segs[i]);
  }
  const id = chain.join("/subagent/");
  const parent = chain.length > 1 ? chain.slice(0, -1).join("/subagent/") : undefined;
  return { id, ...(parent ? { parent } : {}), dir: chain[chain.length - 1] };
}

/** The records a line holds: itself, a `record_json` string, or a frame's children. */
function unwrap(v: unknown, skip: (reason: "malformed_json" | "bad_shape") => void): Obj[] {
  const o = obj(v);
  if (!o) {
    skip("bad_shape");
    return [];
  }
  const inner = o.retained_frame !== undefined || Array.isArray(o.children)
    ? arr(o.children).map((c) => obj(c)?.record_json)
    : typeof o.record_json === "string"
    ? [o.record_json]
    : undefined;
  if (!inner) return [o];
  const out: Obj[] = [];
  for (const j of inner) {
    const rec = typeof j === "string" ? obj(decodeArgs(j)) : undefined;
    if (rec) out.push(rec);
    else skip("malformed_json");
  }
  return out;
}

/** A committed tool call -> what it means; relative paths resolve against the workspace. */
function toolCall(call: Obj, base: string | undefined): ToolCallInfo {
  const name = str(call.name) ?? str(call.tool_name) ?? "unknown";
  const input = decodeArgs(call.args ?? call.input);
  const info: ToolCallInfo = { name, input };
  const id = str(call.call_id) ?? str(call.id);
  if (id) info.id = id;
  const a = obj(input) ?? {};
  const path = str(a.path) ?? str(a.file_path);
  const abs = path ? absolutePath(path, base) : undefined;
  if (name === "bash") {
    const cmd = str(a.command);
    if (cmd) info.command = cmd;
  } else if (name === "read_file" && abs) {
    info.paths = [abs];
  } else if (name === "write_file" && abs) {
    info.writes = [{ path: abs, content: typeof a.content === "string" ? a.content : "" }];
  } else if (name === "edit_file" && abs) {
    const [old, neu] = [a.find ?? a.old_string, a.replace ?? a.new_string];
    info.edits = [{
      path: abs,
      old: typeof old === "string" ? old : "",
      new: typeof neu === "string" ? neu : "",
    }];
  }
  return info;
}

/** One result -> a tool_result; a bash result is `{command, exit_code, output, ...}` as JSON text. */
function toolResult(res: Obj, time: number | undefined): Event {
  const raw = typeof res.text === "string" ? res.text : "";
  const callId = str(res.tool_call_id);
  const env = obj(decodeArgs(raw));
  const exit = num(env?.exit_code);
  let text = raw;
  if (env && (exit !== undefined || typeof env.output === "string")) {
    text = typeof env.output === "string"
      ? env.output
      : [str(env.stdout), str(env.stderr)].filter((s) => s).join("\n");
  }
  const result: Event["result"] = { isError: res.is_error === true || (!!exit && exit !== 0) };
  if (callId) result.callId = callId;
  if (exit !== undefined) result.exit = exit;
  return { kind: "tool_result", text: text.trimEnd(), ...(time ? { time } : {}), result };
}

/** Folds one pass's records into events and metadata. */
class Fold {
  readonly events: Event[] = [];
  /** This pass's reply events by `response_id`, for the `model_completed` that names their model. */
  private replies = new Map<string, Event[]>();
  /** Metadata changed in this pass. */
  dirty = false;
  constructor(
    readonly st: MuseState,
    private readonly dir: string,
    private readonly skip: (reason: "unknown_record" | "bad_shape", detail?: string) => void,
  ) {}

  get project(): string | undefined {
    return this.st.meta ?? this.st.route ?? this.st.branch;
  }

  private set(key: "title" | "meta" | "route" | "branch" | "model", v: string | undefined) {
    if (!v || this.st[key] === v) return;
    this.st[key] = v;
    this.dirty = true;
  }

  record(rec: Obj): void {
    const ptype = str(rec.payload_type);
    const p = obj(rec.payload);
    if (!ptype || !p) return this.skip("unknown_record", "record without payload_type");
    const stream = obj(rec.stream);
    const sid = str(stream?.id);
    if (!this.st.stream && sid && (stream?.kind === "session" || sid === this.dir)) {
      this.st.stream = sid;
    }
    if (this.st.stream && sid && sid !== this.st.stream) return; // a subagent's task stream
    const time = toMillis(rec.recorded_at);
    const inner = obj(p.record) ?? p;
    switch (ptype) {
      case "runtime.session":
        if (p.kind === "run") return this.run(obj(p.event), time);
        if (p.kind === "metadata") return this.meta(inner);
        if (p.kind === "route_facts") return this.set("route", str(inner.cwd));
        return;
      case "runtime.session.metadata":
        return this.meta(inner);
      case "runtime.session.route_facts":
        return this.set("route", str(inner.cwd));
      case "session.workspace_branch.observed":
        return this.set("branch", str(inner.workspace_root) ?? str(inner.cwd));
      case "session.name.changed":
        return this.set("title", str(p.new_name)?.trim());
      case "run.model.configured":
        return this.set("model", str(inner.model_id));
      default:
        if (!KNOWN_FAMILIES.test(ptype)) this.skip("unknown_record", `payload_type ${ptype}`);
    }
  }

  private meta(r: Obj): void {
    this.set("meta", str(r.workspace_root));
    this.set("model", str(r.model_id));
  }

  private run(ev: Obj | undefined, time: number | undefined): void {
    if (!ev) return this.skip("bad_shape", "run record without event");
    const from = this.events.length;
    this.runEvent(ev, time);
    const added = this.events.slice(from);
    if (!added.length) return;
    // A reply's model: the configured one, until its response's `model_completed` names it.
    withModel(added, this.st.model);
    const rid = str(ev.response_id);
    if (rid) this.replies.set(rid, [...(this.replies.get(rid) ?? []), ...added]);
  }

  private runEvent(ev: Obj, time: number | undefined): void {
    const at = time !== undefined ? { time } : {};
    switch (str(ev.kind)) {
      case "started": {
        const text = typeof ev.prompt === "string" ? ev.prompt.trim() : "";
        if (text) this.events.push({ kind: "user", text, ...at });
        return;
      }
      case "assistant_message_committed": {
        const text = typeof ev.text === "string" ? ev.text.trim() : "";
        if (text) this.events.push({ kind: "assistant", text, ...at });
        return;
      }
      case "assistant_tool_calls_committed":
        for (const c of arr(ev.tool_calls)) {
          const call = obj(c);
          if (call) {
            this.events.push({
              kind: "tool_call",
              text: "",
              ...at,
              tool: toolCall(call, this.project),
            });
          }
        }
        return;
      case "tool_result_batch_committed":
        for (const r of arr(ev.results)) {
          const res = obj(r);
          if (res) this.events.push(toolResult(res, time));
        }
        return;
      case "model_completed": {
        const rid = str(ev.response_id);
        if (rid) withModel(this.replies.get(rid) ?? [], ev.model);
        return this.set("model", str(ev.model));
      }
    }
    // Every other run event (reasoning, usage, terminal, task lifecycle) carries nothing to index.
  }
}

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const { id, parent, dir } = museIds(source.path);
  const prior = obj(ctx.state) as MuseState | undefined;
  const st: MuseState = { ...prior };
  const where0 = source.path;
  if (!prior && ctx.offset > 0) {
    const head = new Fold(st, dir, () => {});
    for (const v of await headRecords(source.path, 64)) {
      unwrap(v, () => {}).forEach((r) => head.record(r));
    }
  }
  let where = where0;
  const fold = new Fold(st, dir, (reason, detail) => ctx.skip(reason, where, detail));
  const chunk = (events: Event[]): Session => {
    const times = events.map((e) => e.time).filter((t): t is number => t !== undefined);
    const project = fold.project;
    return {
      harness: "muse",
      id,
      ...(parent ? { parent } : {}),
      ...(project ? { project } : {}),
      ...(st.title ? { title: st.title } : {}),
      ...(st.model ? { model: st.model } : {}),
      ...(times.length ? { started: Math.min(...times), updated: Math.max(...times) } : {}),
      path: source.path,
      events,
    };
  };
  let records = 0;
  let yielded = false;
  for await (const line of readJsonl(source.path, ctx)) {
    where = `${source.path}@${line.start}`;
    records++;
    for (const rec of unwrap(line.value, (reason) => ctx.skip(reason, where))) fold.record(rec);
    if (fold.events.length >= CHUNK_EVENTS) {
      yield chunk(fold.events.splice(0));
      yielded = true;
    }
  }
  if (records === 0 && ctx.offset === 0) ctx.skip("empty", where0, "no records");
  ctx.endState = st;
  const metaOnly = (yielded || fold.dirty) && !!(st.title || fold.project || st.model);
  if (fold.events.length > 0 || metaOnly) {
    yield chunk(fold.events.splice(0));
  }
}

/**
 * Muse Code (`muse`, Meta) — event-sourced JSONL, kind "append".
 *
 * Store: `${DEJA_MUSE_ROOT:-${XDG_DATA_HOME:-~/.local/share}/muse/sessions}/YYYY/MM/DD/<id>/
 * session.jsonl`, a directory per session under the day it started (sharded by day);
 * subagents in `<id>/subagent/<child>/session.jsonl` get id `<id>/subagent/<child>` and
 * `parent` = `<id>`. Beside the logs: `tool-outputs/`, `cron.db`, `goals.db`, locks and a
 * hidden `.msp-view-v1/` — not read (docs/registry/muse.md; layout confirmed in several public
 * Muse readers via the search tool; no Muse store was available to read).
 *
 * Records `{schema_version, id, stream{kind, id}, sequence, recorded_at (epoch **µs** -> ms),
 * record_type, payload_type, payload}`; a `retained_frame` line holds whole records as JSON
 * strings in `children[].record_json` (a bare `{record_json}` line too) and is unwrapped.
 * Read (field names confirmed in public readers and their Muse 1.4.0 fixtures):
 * - `runtime.session` `{kind:"run", event}`: `started{prompt}` -> user (task starts have no
 *   prompt), `assistant_message_committed{text}` -> assistant,
 *   `assistant_tool_calls_committed{tool_calls[{call_id, name, args: JSON string}]}` ->
 *   tool_call (`bash{command}`, `read_file{path}`, `write_file{path, content}`,
 *   `edit_file{path, find, replace}`), `tool_result_batch_committed{results[{tool_call_id,
 *   text}]}` -> tool_result (bash text is JSON `{command, exit_code, output}`: output and
 *   exit), `model_completed{model}` -> model;
 * - `runtime.session.metadata {record{workspace_root, model_id}}`, route facts `cwd`,
 *   `session.workspace_branch.observed` -> project (that order); `session.name.changed
 *   {new_name}` -> title (latest); `run.model.configured {record{model_id}}` -> model.
 * `runtime.user_intent.accepted` repeats the `started` prompt and is not read. Records of
 * another stream id than the session's own are subagent task streams, skipped.
 */
export const muse: Parser = {
  id: "muse",
  async discover({ env, problem }) {
    const root = rootFrom(env, "muse", [], join(xdgData(env), "muse", "sessions"));
    const match = (p: string, name: string) =>
      name === "session.jsonl" && LAYOUT.test(relative(root, p).split(sep).join("/"));
    const sources: SourceRef[] = [];
    const skipDirs = new Set(["tool-outputs"]);
    for await (const path of walk(root, { match, maxDepth: 12, skipDirs, onError: problem })) {
      sources.push({ harness: "muse", path, kind: "append" });
    }
    return { roots: [root], sources };
  },
  parse,
};
