/** `deja show <id-prefix>`: one whole session, event by event. */
import type { Args, Command } from "./common.ts";
import { colors, fmtTime, isoTime, printJson } from "./common.ts";
import { oneLine, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { resolveSession, shortRef } from "../sessions.ts";
import { Q } from "../schema.ts";
import { describeSession } from "../memory/last.ts";

export const showCmd: Command = {
  name: "show",
  refresh: true,
  summary: "Print one session: what was said, the commands run with their exit status, the edits.",
  usage: "show <id-prefix | harness:id-prefix> [--json]",
  maxPositionals: 1,
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
    const events = Q.eventsOfSession.all(store, { session: s.id });
    const commands = new Map<number, { exit: number | null; is_error: number }>();
    for (const c of store.stmt(Q.commandsOfSession).all(s.id) as Array<Record<string, number>>) {
      commands.set(c.event_id, { exit: c.exit ?? null, is_error: c.is_error });
    }
    const files = store.stmt(Q.filesOfSession).all(s.id) as Array<Record<string, unknown>>;
    const children = Q.childrenOf.all(store, { harness: s.harness, parent: s.native_id });
    if (a.values.json) {
      printJson(io, {
        harness: s.harness,
        id: s.native_id,
        origin: s.origin ?? null,
        project: s.project,
        title: s.title,
        description: describeSession(store, s),
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
      `${c.bold(oneLine(describeSession(store, s) ?? "(no title, no prompt)", 100))}`,
      `${c.cyan(shortRef(store, s.harness, s.native_id))} ${s.harness}  ${
        tilde(s.project, io.env.home)
      }  ${fmtTime(s.started)} → ${fmtTime(s.updated)}${s.model ? `  ${s.model}` : ""}`,
      c.dim(`id ${s.native_id}  source ${tilde(s.source, io.env.home)}`),
    ];
    if (s.parent) out.push(c.dim(`subagent of ${s.parent}`));
    if (children.length) {
      out.push(
        c.dim(
          `subagents: ${children.map((x) => shortRef(store, x.harness, x.native_id)).join(", ")}`,
        ),
      );
    }
    out.push("");
    for (const e of events) {
      const text = full ? e.text : clip(e.text, e.kind);
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
