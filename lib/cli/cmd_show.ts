/** `deja show <id-prefix>`: one whole session, event by event. */
import type { Args, Command } from "./common.ts";
import { colors, fmtTime, isoTime, oneLine, printJson, shortId, tildify } from "./common.ts";
import type { IO } from "../runtime.ts";
import { DejaError, indexPath, Store } from "../store.ts";
import { Q } from "../schema.ts";
import { sanitizeForTerminal } from "../redact.ts";

interface SessionRow {
  id: number;
  harness: string;
  native_id: string;
  project: string | null;
  title: string | null;
  started: number | null;
  updated: number | null;
  model: string | null;
  parent: string | null;
  source: string;
  events: number;
}

interface EventRow {
  id: number;
  seq: number;
  kind: string;
  text: string;
  time: number | null;
  tool: string | null;
  call_id: string | null;
  data: string | null;
}

/**
 * Finds the one session whose native id starts with `prefix` (optionally
 * `harness:prefix`).
 *
 * @throws {DejaError} exit 1 when none matches; exit 2 when several do (the
 *   hint lists them).
 */
export function resolveSession(store: Store, ref: string): SessionRow {
  let harness: string | null = null;
  let prefix = ref;
  const m = /^([a-z][a-z0-9_]*):(.+)$/.exec(ref);
  if (m) {
    harness = m[1];
    prefix = m[2];
  }
  const like = prefix.replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
  const rows = store.stmt(Q.sessionsByPrefix).all(
    like,
    harness,
    harness,
  ) as unknown as SessionRow[];
  const exact = rows.filter((r) => r.native_id === prefix);
  if (exact.length === 1) return exact[0];
  if (!rows.length) {
    throw new DejaError(`no session matches '${ref}'`, "search first: deja <words>", 1);
  }
  if (rows.length > 1) {
    const list = rows.slice(0, 5).map((r) => `${r.harness}:${r.native_id}`).join(", ");
    throw new DejaError(`'${ref}' matches ${rows.length} sessions`, `be more specific: ${list}`, 2);
  }
  return rows[0];
}

export const showCmd: Command = {
  name: "show",
  summary: "Print one session: what was said, the commands run with their exit status, the edits.",
  usage: "show <id-prefix | harness:id-prefix> [--json]",
  options: {
    json: { type: "boolean", description: "print the session as JSON (docs/json-output.md)" },
    full: { type: "boolean", description: "do not shorten long texts" },
  },
  run: (a, io) => Promise.resolve(runShow(a, io)),
};

function runShow(a: Args, io: IO): number {
  const ref = a.positionals[0];
  if (!ref) throw new DejaError("which session? give an id or its first characters", undefined, 2);
  const store = Store.open(indexPath(io.env));
  try {
    const s = resolveSession(store, ref);
    const events = store.stmt(Q.eventsOfSession).all(s.id) as unknown as EventRow[];
    const commands = new Map<number, { exit: number | null; is_error: number }>();
    for (const c of store.stmt(Q.commandsOfSession).all(s.id) as Array<Record<string, number>>) {
      commands.set(c.event_id, { exit: c.exit ?? null, is_error: c.is_error });
    }
    const files = store.stmt(Q.filesOfSession).all(s.id) as Array<Record<string, unknown>>;
    const children = store.stmt(Q.childrenOf).all(
      s.harness,
      s.native_id,
    ) as unknown as SessionRow[];
    if (a.values.json) {
      printJson(io, {
        harness: s.harness,
        id: s.native_id,
        project: s.project,
        title: s.title,
        started: isoTime(s.started),
        updated: isoTime(s.updated),
        model: s.model,
        parent: s.parent,
        source: s.source,
        subagents: children.map((c) => c.native_id),
        events: events.map((e) => {
          const cmd = commands.get(e.id);
          return {
            seq: e.seq,
            kind: e.kind,
            time: isoTime(e.time),
            text: e.text,
            tool: e.tool,
            call_id: e.call_id,
            ...(cmd ? { exit: cmd.exit, is_error: cmd.is_error === 1 } : {}),
          };
        }),
        files: files.map((f) => ({
          path: f.path,
          op: f.op,
          old: f.old,
          new: f.new,
          failed: f.failed === 1,
          call_id: f.call_id,
        })),
      });
      return 0;
    }
    const c = colors(io);
    const full = Boolean(a.values.full);
    const out: string[] = [
      `${c.bold(s.title ? oneLine(s.title, 100) : "(untitled)")}`,
      `${c.cyan(shortId(s.native_id))} ${s.harness}  ${tildify(s.project, io.env.home)}  ${
        fmtTime(s.started)
      } → ${fmtTime(s.updated)}${s.model ? `  ${s.model}` : ""}`,
      c.dim(`id ${s.native_id}  source ${tildify(s.source, io.env.home)}`),
    ];
    if (s.parent) out.push(c.dim(`subagent of ${s.parent}`));
    if (children.length) {
      out.push(c.dim(`subagents: ${children.map((x) => shortId(x.native_id)).join(", ")}`));
    }
    out.push("");
    for (const e of events) {
      const text = sanitizeForTerminal(full ? e.text : clip(e.text, e.kind));
      const label = e.kind === "tool_call" || e.kind === "tool_result"
        ? `${e.kind} ${e.tool ?? ""}`.trim()
        : e.kind;
      const cmd = commands.get(e.id);
      const status = cmd
        ? cmd.exit !== null
          ? cmd.exit === 0 ? c.green(" exit 0") : c.red(` exit ${cmd.exit}`)
          : cmd.is_error
          ? c.red(" failed")
          : ""
        : "";
      out.push(`${c.dim(fmtTime(e.time))} ${c.bold(label)}${status}`);
      out.push(text.split("\n").map((l) => `  ${l}`).join("\n"));
    }
    io.out(out.join("\n") + "\n");
    return 0;
  } finally {
    store.close();
  }
}

function clip(text: string, kind: string): string {
  const max = kind === "tool_result" ? 600 : 4000;
  return text.length > max
    ? `${text.slice(0, max)}\n… (${text.length - max} more characters; --full)`
    : text;
}
