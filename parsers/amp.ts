/**
 * Amp (Sourcegraph / ampcode.com), CLI and editor extension.
 *
 * Store: Amp's data directory `${XDG_DATA_HOME:-~/.local/share}/amp` (the same
 * default on every OS); `DEJA_AMP_ROOT` names that directory instead. Older
 * builds keep one JSON document per thread in `<data>/threads/T-<uuid>.json`,
 * and the legacy editor extension in `<editor>/User/globalStorage/sourcegraph.amp/
 * threads3/<id>.json` (Code, Code - Insiders, VSCodium, Cursor, Windsurf); each
 * is a `document` source. Builds from about 2026-03-31 keep threads only on
 * ampcode.com and write no thread files (the data directory holds `bin`,
 * `logs`, `pids`). `secrets.json` there is never read. From docs/registry/amp.md
 * (third-party readers: cross_agent_session_resumer `src/providers/amp.rs`
 * and deja-vu's notes, both read via the search tool); no real store was
 * available and Amp is closed source.
 *
 * Remote threads: when the data directory exists but no thread file is found
 * anywhere, discovery yields one marker source for the data directory (see
 * `markerSource` in `_call_info.ts`): `deja sources` then lists amp with one
 * store, no sessions and `skipped: 1 unsupported`, and the skip's example says
 * that threads are kept on ampcode.com (`amp threads export` reads them).
 *
 * Thread document: `{id (T-…), created (ms), title, messages[], env{initial{trees
 * [{uri}], cwd?}}}`. Messages: `{role: user|assistant|info, content:[blocks],
 * meta{sentAt (ms)}?, usage{model, timestamp (ISO)}?}`; blocks `text`,
 * `thinking` (dropped), `tool_use{id, name, input (object)}`, `tool_result
 * {toolUseID, run{status, result{output, exitCode}|error}}` (in a later user
 * message); an `info` message's `summary{type:"message", summary}` block is a
 * summary (a `thread` summary points at another thread and is ignored).
 * Times: user `meta.sentAt`, assistant `usage.timestamp`, else the previous
 * message's, the first one the thread's `created`. project = the first
 * `env.initial.trees[].uri` (`file://`), else `env.initial.cwd`.
 * Tools: `Bash{cmd, cwd}`, `shell_command{command, workdir}` -> command;
 * `Read{path}` -> paths; `edit_file{path, old_str, new_str}` -> edits;
 * `create_file{path, content}` -> writes; `apply_patch{patchText}` -> edits.
 * `run.status` other than `done`, or a non-zero `exitCode`, -> isError;
 * `exitCode` -> exit (`-1`, no code from the process, is left out).
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
import { expandHome, overrideVar, xdgData } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { arr, blockText, num, type Obj, obj, str, withModel } from "./_util.ts";
import { newSession, spanTimes } from "./_session_meta.ts";
import { callInfo, type CallKind, isMarker, markerParse, markerSource } from "./_call_info.ts";
import { extensionStorageDirs, uriToPath } from "./_vscode.ts";

const ID = "amp";
/** What the marker source's skip says. */
export const REMOTE_NOTE =
  "no local thread files: Amp builds since 2026-03-31 keep threads on ampcode.com (read them with `amp threads export`)";

/** Amp's tools by what they do. */
const KINDS: Readonly<Record<string, CallKind>> = {
  Bash: "shell",
  shell_command: "shell",
  Read: "read",
  edit_file: "edit",
  create_file: "write",
  apply_patch: "patch",
};

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const o = env.get(overrideVar(ID));
  const data = o ? expandHome(env, o) : join(xdgData(env), "amp");
  const dirs = [join(data, "threads")];
  if (!o) {
    dirs.push(...extensionStorageDirs(env, "sourcegraph.amp").map((d) => join(d, "threads3")));
  }
  const match = (_p: string, name: string) => name.endsWith(".json");
  const sources: SourceRef[] = [];
  for (const dir of dirs) {
    for (const path of await listFiles(dir, { match, maxDepth: 0, onError: problem })) {
      sources.push({ harness: ID, path, kind: "document" });
    }
  }
  if (!sources.length && (await isDir(data))) sources.push(markerSource(ID, data, REMOTE_NOTE));
  return { roots: [data, ...dirs], sources };
}

/** A `tool_result` block -> a tool_result event. */
function resultEvent(b: Obj): Event {
  const run = obj(b.run);
  const status = str(run?.status);
  const res = run?.result;
  const r = obj(res);
  const err = run?.error;
  const text = typeof res === "string"
    ? res
    : str(r?.output) ?? (typeof err === "string" ? err : str(obj(err)?.message)) ?? "";
  const exit = num(r?.exitCode);
  const failed = (status !== undefined && status !== "done") || (exit !== undefined && exit > 0);
  const result: Event["result"] = { isError: failed };
  const callId = str(b.toolUseID);
  if (callId) result.callId = callId;
  if (exit !== undefined && exit >= 0) result.exit = exit;
  return { kind: "tool_result", text: text.trimEnd(), result };
}

/** One message -> events. */
function messageEvents(m: Obj, base: string | undefined): Event[] {
  const out: Event[] = [];
  const role = m.role;
  for (const b of arr(m.content).map(obj)) {
    if (!b) continue;
    if (b.type === "text" && role !== "info") {
      const text = blockText([b]).trim();
      if (text) out.push({ kind: role === "assistant" ? "assistant" : "user", text });
    } else if (b.type === "tool_use") {
      const a = obj(b.input);
      const cwd = str(a?.cwd) ?? str(a?.workdir) ?? base;
      const tool = callInfo(str(b.name) ?? "unknown", str(b.id), b.input, KINDS, cwd);
      out.push({ kind: "tool_call", text: "", tool });
    } else if (b.type === "tool_result") {
      out.push(resultEvent(b));
    } else if (b.type === "summary") {
      const s = obj(b.summary);
      const text = s?.type === "message" ? str(s.summary)?.trim() : undefined;
      if (text) out.push({ kind: "summary", text });
    }
  }
  return out;
}

/** The thread's project: the first `file://` tree, else the initial cwd. */
function projectOf(doc: Obj): string | undefined {
  const initial = obj(obj(doc.env)?.initial);
  for (const t of arr(initial?.trees).map(obj)) {
    const uri = str(t?.uri);
    const p = uri?.startsWith("file:") ? uriToPath(uri) : undefined;
    if (p) return p;
  }
  return str(initial?.cwd);
}

async function* parseThread(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const doc = obj(await readJsonDocument(source.path, source.path, ctx));
  if (!doc) return;
  if (!Array.isArray(doc.messages)) {
    ctx.skip("unknown_record", source.path, "not an Amp thread (no messages list)");
    return;
  }
  const project = projectOf(doc);
  const created = toMillis(doc.created);
  let last = created;
  const events: Event[] = [];
  let model: string | undefined;
  doc.messages.forEach((it, i) => {
    const m = obj(it);
    const role = str(m?.role);
    if (!m || (role !== "user" && role !== "assistant" && role !== "info")) {
      ctx.skip("unknown_record", `${source.path}#messages[${i}]`, `role ${role ?? "(none)"}`);
      return;
    }
    const usage = obj(m.usage);
    model = str(usage?.model) ?? model;
    const time = toMillis(obj(m.meta)?.sentAt) ?? toMillis(usage?.timestamp) ?? last;
    last = time;
    const evs = messageEvents(m, project);
    // The reply's model (`usage.model` of an assistant message).
    if (role === "assistant") withModel(evs, usage?.model);
    for (const e of evs) events.push(time ? { ...e, time } : e);
  });
  if (!events.length) return;
  const s = newSession(ID, str(doc.id) ?? basename(source.path, ".json"), source.path, events, {
    project,
    title: str(doc.title),
    model,
  });
  yield spanTimes(s, created);
}

/** The Amp parser. */
export const amp: Parser = {
  id: ID,
  discover,
  parse: (source, ctx) => (isMarker(source) ? markerParse(source, ctx) : parseThread(source, ctx)),
};
