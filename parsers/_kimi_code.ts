/**
 * Kimi Code's newer TypeScript layout (private to `kimi.ts`): discovery of
 * `sessions/<bucket>/<session id>/agents/<agent id>/wire.jsonl` and one wire
 * file's records -> deja events.
 *
 * Facts from MoonshotAI/kimi-code, read via the fetch tool (2026-12):
 * `packages/agent-core-v2/src/wire/record.ts` (records `{type, time (epoch
 * ms), ...}`, a first `metadata {protocol_version, created_at}`),
 * `agent/contextMemory/loopEventFold.ts` (loop events), `agent/loop/
 * loopService.ts` (what a tool call and result record hold),
 * `packages/kap-server/src/search/wireExtract.ts` (which user messages a
 * person typed), `apps/vis/server/src/lib/session-store.ts`
 * (`session_index.jsonl`, `state.json`), `agent/tools/os/bash/bashTool.ts`
 * (the exit status line).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { Event, ParseCtx, Session, SourceRef } from "../core/model.ts";
import { listFiles, readJsonFile, readText, skipUnreadable } from "../core/fs.ts";
import { readJsonl } from "./_jsonl.ts";
import { toMillis } from "./_time.ts";
import { blockText, decodeArgs, type Obj, obj, str } from "./_util.ts";
import { toolResultFrom } from "./_gemini_events.ts";
import { kimiTool, statusExit } from "./_kimi_records.ts";

/** The wire file of one agent. */
const WIRE = "wire.jsonl";

/**
 * The wire files under a Kimi Code home: one append source per agent, with
 * the session and agent ids and the home in the hint.
 */
export async function kimiCodeSources(
  harness: string,
  home: string,
  problem?: (path: string, err: Error) => void,
): Promise<SourceRef[]> {
  const sessions = join(home, "sessions");
  const files = await listFiles(sessions, {
    match: (p, n) => n === WIRE && basename(dirname(dirname(p))) === "agents",
    maxDepth: 4,
    onError: problem,
  });
  return files.flatMap((path) => {
    const at = wirePlace(path);
    // sessions/<bucket>/<session>/agents/<agent>/wire.jsonl, nothing deeper or shallower.
    if (!at || dirname(dirname(dirname(dirname(dirname(path))))) !== sessions) return [];
    return [{ harness, path, kind: "append", hint: { code: home, ...at } }];
  });
}

/** Session and agent ids of a wire path `<session>/agents/<agent>/wire.jsonl`. */
function wirePlace(path: string): { session: string; agent: string } | undefined {
  const agentDir = dirname(path);
  if (basename(path) !== WIRE || basename(dirname(agentDir)) !== "agents") return undefined;
  return { session: basename(dirname(dirname(agentDir))), agent: basename(agentDir) };
}

/** True when a source is a Kimi Code wire file (by its hint, else by its place). */
export function isKimiCode(source: SourceRef): boolean {
  return source.hint?.code !== undefined || wirePlace(source.path) !== undefined;
}

/** User messages whose origin is not the person (wireExtract.ts). */
const HIDDEN_ORIGINS = new Set(["injection", "system_trigger", "retry"]);

/** Record types that carry nothing to index. */
const BOOKKEEPING = new Set(["metadata", "turn.prompt", "context.undo", "context.clear"]);

/**
 * Reads one Kimi Code wire file from `ctx.offset` (see `kimi.ts` for the
 * mapping). A sub-agent's file is its own session `<session>/<agent>`
 * filed under the parent agent's session.
 */
export async function* readKimiCode(
  harness: string,
  source: SourceRef,
  ctx: ParseCtx,
): AsyncGenerator<Session> {
  const place = source.hint?.session && source.hint.agent
    ? { session: source.hint.session, agent: source.hint.agent }
    : wirePlace(source.path);
  if (!place) {
    ctx.skip("unsupported", source.path, "not a Kimi Code wire file");
    return;
  }
  const sessionDir = dirname(dirname(dirname(source.path)));
  const home = source.hint?.code ?? dirname(dirname(dirname(sessionDir)));
  const state = obj(
    await readJsonFile(join(sessionDir, "state.json"), undefined, skipUnreadable(ctx)),
  );
  const agents = obj(state?.agents);
  const isMain = place.agent === "main" || obj(agents?.[place.agent])?.type === "main";
  const parentAgent = str(obj(agents?.[place.agent])?.parentAgentId);
  const parentIsMain = !parentAgent || parentAgent === "main" ||
    obj(agents?.[parentAgent])?.type === "main";
  const project = await workDirOf(home, place.session);
  const session: Session = {
    harness,
    id: isMain ? place.session : `${place.session}/${place.agent}`,
    parent: isMain ? undefined : parentIsMain ? place.session : `${place.session}/${parentAgent}`,
    project,
    title: isMain ? str(state?.title) : undefined,
    path: source.path,
    events: [],
  };
  const names = new Map<string, string>(Object.entries(obj(ctx.state) ?? {}) as [string, string][]);
  // An empty wire is a session being created: nothing to count.
  for await (const { value, start } of readJsonl(source.path, ctx)) {
    const rec = obj(value);
    const where = `${source.path}@${start}`;
    const time = toMillis(rec?.time);
    if (time !== undefined) {
      if (session.started === undefined || time < session.started) session.started = time;
      if (session.updated === undefined || time > session.updated) session.updated = time;
    }
    const events = rec ? recordEvents(rec, time, String(start), project, names) : undefined;
    if (events) session.events.push(...events);
    else {ctx.skip(
        "unknown_record",
        where,
        rec ? `type ${JSON.stringify(rec.type)}` : "not an object",
      );}
  }
  ctx.endState = Object.fromEntries(names);
  if (session.events.length || ctx.offset > 0) yield session;
}

/**
 * The events of one record; `undefined` for an unknown record. `names` maps
 * tool call ids to tool names (a result needs its call's name for the exit).
 */
function recordEvents(
  rec: Obj,
  time: number | undefined,
  key: string,
  project: string | undefined,
  names: Map<string, string>,
): Event[] | undefined {
  const type = str(rec.type);
  if (!type) return undefined;
  if (type === "context.append_message") return messageEvents(obj(rec.message), time, key);
  if (type === "context.append_loop_event") {
    return loopEvents(obj(rec.event), time, key, project, names);
  }
  // Turn, step, hook and context bookkeeping: every such type is namespaced `a.b`.
  if (BOOKKEEPING.has(type) || type.includes(".")) return [];
  return undefined;
}

/** `context.append_message {message: {role, content, origin?}}`: typed prompts and summaries. */
function messageEvents(m: Obj | undefined, time: number | undefined, key: string): Event[] {
  if (!m || m.role !== "user") return [];
  const origin = obj(m.origin);
  const kind = str(origin?.kind);
  const text = blockText(m.content).trim();
  if (!text) return [];
  if (kind === "compaction_summary") return [{ kind: "summary", text, time, key: `m:${key}` }];
  // A sub-agent's task arrives as a system trigger: it is what the sub-agent was asked.
  const task = kind === "system_trigger" && origin?.name === "subagent";
  if (kind && HIDDEN_ORIGINS.has(kind) && !task) return [];
  // A skill or plugin command counts only when the person typed it as a slash command.
  if (
    (kind === "skill_activation" || kind === "plugin_command") && origin?.trigger !== "user-slash"
  ) {
    return [];
  }
  return [{ kind: "user", text, time, key: `m:${key}` }];
}

/** `context.append_loop_event {event}`: assistant text, tool calls, tool results. */
function loopEvents(
  e: Obj | undefined,
  time: number | undefined,
  key: string,
  project: string | undefined,
  names: Map<string, string>,
): Event[] {
  if (!e) return [];
  if (e.type === "content.part") {
    const part = obj(e.part);
    const text = part?.type === "text" ? str(part.text)?.trim() : undefined;
    return text ? [{ kind: "assistant", text, time, key: `a:${key}` }] : [];
  }
  if (e.type === "tool.call") {
    const id = str(e.toolCallId);
    const name = str(e.name);
    if (!id || !name) return [];
    names.set(id, name);
    const tool = kimiTool(name, id, decodeArgs(e.args), project);
    return [{ kind: "tool_call", text: "", time, key: `c:${id}`, tool }];
  }
  if (e.type === "tool.result") {
    const id = str(e.toolCallId);
    const result = obj(e.result);
    if (!id || !result) return [];
    const text = blockText(result.output).trimEnd();
    const isError = result.isError === true;
    return [toolResultFrom(id, text, time, exitOf(names.get(id), text, isError), isError)];
  }
  return [];
}

/**
 * A shell result's exit status: Kimi Code's Bash ends a failed run's output
 * with `Command failed with exit code: N.`; a run that is not an error exited 0.
 */
function exitOf(name: string | undefined, output: string, isError: boolean): number | undefined {
  if (name !== "Bash") return undefined;
  if (!isError) return 0;
  const last = output.slice(output.lastIndexOf("\n") + 1);
  return /exit code/i.test(last) ? statusExit(last) : undefined;
}

/** `session_index.jsonl` `{sessionId, sessionDir, workDir}`: the last line naming the session. */
async function workDirOf(home: string, session: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readText(join(home, "session_index.jsonl"));
  } catch {
    return undefined;
  }
  let found: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (!line.includes(session)) continue;
    try {
      const e = obj(JSON.parse(line));
      if (e?.sessionId === session && str(e.workDir)) found = str(e.workDir);
    } catch { /* a torn line: the next one may name it */ }
  }
  return found;
}
