/**
 * GitHub Copilot CLI sessions.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { headRecords, readJsonl } from "./_jsonl.ts";
import {
  isRegularFile,
  readTextOrNone,
  skipUnreadable,
  type Unreadable,
  walk,
} from "../core/fs.ts";
import { rootFrom } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { obj } from "./_util.ts";
import { type CopilotState, EventReader, max, min } from "./_copilot_events.ts";
import { parseLegacyHistory, readSessionStore } from "./_copilot_store.ts";

const ID = "copilot";
const STORE_DB = "session-store.db";
const LEGACY_NAME = /^session_([0-9a-f-]{36})_\d+\.json$/i;

/**
 * GitHub Copilot CLI (`copilot`): three kinds of source under one root,
 * `${DEJA_COPILOT_ROOT:-${COPILOT_HOME:-~/.copilot}}` (`COPILOT_HOME` replaces the whole
 * `~/.copilot`: GitHub's config-dir reference and microsoft/vscode#314917, read via the search
 * tool; older builds kept state under `$XDG_STATE_HOME/.copilot` and the current CLI moves it
 * to `~/.copilot` on start, so that path is not searched).
 *
 * - `session-state/<id>/events.jsonl`, kind "append": one JSON record per line,
 *   `{type, data, id, timestamp (ISO, ms), parentId}`; mapping in `_copilot_events.ts`
 *   (observed in realdata/farm/copilot, Copilot CLI 1.0.102, and realdata/copilot-cli, 1.0.59 /
 *   1.0.60). Session id = `session.start` `data.sessionId`, kept in `ctx.endState` and re-read
 *   from the head of the file when a resumed pass has no state; else `workspace.yaml` `id`; else
 *   the directory name. The sidecar `workspace.yaml` (flat `key: value` lines: `id`, `cwd`,
 *   `name`, `created_at`, `updated_at`, ...) is read again on every pass: `name` -> title, `cwd`
 *   -> project when `session.start` named none, its times widen started/updated. Events of a
 *   sub-agent (top-level `agentId`, or the older `data.parentToolCallId`) form their own session
 *   `<id>/agent-<agentId>` with `parent` = the session id (from the event schema; no real store
 *   here has one).
 * - `session-store.db` (+ `-wal`), kind "sqlite": the CLI's cross-session index (`sessions`,
 *   `turns`, `checkpoints`, `session_files`; schema_version 4 in the public store, 8 in the farm
 *   store, where every row is still in the WAL). It repeats what `events.jsonl` holds, so only
 *   sessions with no events file in `session-state/` (or the legacy folder) are read from it:
 *   see `_copilot_store.ts`.
 * - `history-session-state/session_<uuid>_<ms>.json`, kind "document": the layout of builds
 *   before `session-state/` (one public file, polusiti/sys, read via the search tool): see
 *   `_copilot_store.ts`.
 */
export const copilot: Parser = {
  id: ID,
  async discover(ctx: DiscoverCtx): Promise<Discovery> {
    const root = rootFrom(ctx.env, ID, [["COPILOT_HOME", ""]], "~/.copilot");
    const sources: SourceRef[] = [];
    const hint = { root };
    const layouts: Array<[string, RegExp, number, SourceRef["kind"]]> = [
      ["session-state", /^events\.jsonl$/, 1, "append"],
      ["history-session-state", LEGACY_NAME, 0, "document"],
    ];
    for (const [dir, name, maxDepth, kind] of layouts) {
      const match = (_p: string, n: string) => name.test(n);
      for await (const path of walk(join(root, dir), { match, maxDepth, onError: ctx.problem })) {
        sources.push({ harness: ID, path, kind, hint });
      }
    }
    const db = join(root, STORE_DB);
    if (await isRegularFile(db, ctx.problem)) {
      sources.push({ harness: ID, path: db, kind: "sqlite", companions: [`${db}-wal`], hint });
    }
    return { roots: [root], sources };
  },
  parse(source: SourceRef, ctx: ParseCtx): AsyncIterable<Session> {
    if (source.kind === "sqlite") return readSessionStore(source, ctx);
    if (source.kind === "document") return parseLegacyHistory(source, ctx);
    return parseEvents(source, ctx);
  },
};

async function* parseEvents(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const path = source.path;
  const prior = obj(ctx.state) as CopilotState | undefined;
  const st: CopilotState = prior ? { ...prior } : {};
  if (!prior && ctx.offset > 0) {
    const head = new EventReader(st, () => {});
    for (const v of await headRecords(path, 8)) head.record(v, path);
  }
  const reader = new EventReader(st, (reason, where) => ctx.skip(reason, where));
  let records = 0;
  for await (const line of readJsonl(path, ctx)) {
    records++;
    reader.record(line.value, `${path}@${line.start}`);
  }
  if (records === 0 && ctx.offset === 0) ctx.skip("empty", path, "no records");
  ctx.endState = st;
  if (reader.byAgent.size === 0) return;
  const ws = await readWorkspace(join(dirname(path), "workspace.yaml"), skipUnreadable(ctx));
  const id = st.id ?? ws.id ?? basename(dirname(path));
  const project = st.cwd ?? ws.cwd;
  const started = min(st.started, reader.earliest, toMillis(ws.created_at));
  const updated = max(reader.updated, toMillis(ws.updated_at));
  for (const [agent, events] of reader.byAgent) {
    const own = events.map((e) => e.time);
    const [from, to] = agent ? [min(...own), max(...own)] : [started, updated];
    yield {
      harness: ID,
      id: agent ? `${id}/agent-${agent}` : id,
      ...(project ? { project } : {}),
      ...(!agent && ws.name ? { title: ws.name } : {}),
      ...(from !== undefined ? { started: from } : {}),
      ...(to !== undefined ? { updated: to } : {}),
      ...(st.model ? { model: st.model } : {}),
      ...(agent ? { parent: id } : {}),
      path,
      events,
    };
  }
}

/**
 * Reads the flat top-level `key: value` lines of a `workspace.yaml` (what the
 * CLI writes: scalars only). Quoted values are unquoted; a `|` or `>` block
 * scalar takes the indented lines after it. Nested keys, lists and comments
 * are ignored. A missing or unreadable file gives `{}`; one that exists but
 * cannot be read (a FIFO, EACCES, over 1 MiB) is also handed to `report`.
 */
export async function readWorkspace(
  path: string,
  report?: Unreadable,
): Promise<Record<string, string>> {
  const text = await readTextOrNone(path, 1 << 20, report);
  return text === undefined ? {} : parseFlatYaml(text);
}

/** The flat `key: value` subset of YAML; see {@link readWorkspace}. */
export function parseFlatYaml(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^([A-Za-z_][\w.-]*):(?:\s+(.*))?$/.exec(lines[i]);
    if (!m) continue;
    const raw = (m[2] ?? "").trim();
    if (/^[|>][+-]?$/.test(raw)) {
      const block: string[] = [];
      while (i + 1 < lines.length && (/^\s+\S/.test(lines[i + 1]) || lines[i + 1] === "")) {
        block.push(lines[++i].trim());
      }
      while (block.length && block[block.length - 1] === "") block.pop();
      out[m[1]] = block.join(raw[0] === "|" ? "\n" : " ");
      continue;
    }
    const value = /^["']/.test(raw) ? unquote(raw) : raw.replace(/\s+#.*$/, "");
    if (value !== "") out[m[1]] = value;
  }
  return out;
}

function unquote(v: string): string {
  if (v.length >= 2 && v[0] === '"' && v.endsWith('"')) {
    try {
      return String(JSON.parse(v));
    } catch {
      return v.slice(1, -1);
    }
  }
  if (v.length >= 2 && v[0] === "'" && v.endsWith("'")) return v.slice(1, -1).replaceAll("''", "'");
  return v;
}
