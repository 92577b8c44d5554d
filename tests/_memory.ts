/**
 * Test support for the work-memory modules: hand-written Claude Code stores
 * (the real record shapes: `Bash` results starting `Exit code N`, `Edit`,
 * `MultiEdit`, `Write`, `Read`) indexed through runIndex into a temporary
 * index.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../core/model.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { parsers } from "../parsers/mod.ts";
import { Q } from "../lib/schema.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

/** One step of a hand-written session. */
export type Turn =
  | { user: string }
  | { say: string }
  /** `out: null`: the call has no result (the session ended before it finished). */
  /**
   * `clean`: the result carries Claude Code's `toolUseResult` of a run that ended by itself
   * (`{stdout, stderr, interrupted: false}`), which records a run without `Exit code N` as exit
   * 0; without it such a run's exit is unknown.
   */
  /**
   * `stopped`: the person stopped the run while it ran, as Claude Code 2.1.332 records it (read
   * in its bundled source): `marker`, an error result `[Request interrupted by user for tool
   * use]`; `aborted`, its output so far ending `<error>Command was aborted before
   * completion</error>`; either with `toolUseResult.interrupted` true.
   */
  | {
    bash: string;
    out: string | null;
    exit?: number;
    clean?: boolean;
    refused?: boolean;
    stopped?: "marker" | "aborted";
  }
  /** `out`: the result's text (default `ok`, or Claude Code's own words when it failed). */
  | { edit: string; old: string; new: string; fail?: boolean; out?: string; all?: boolean }
  | { multi: string; edits: Array<{ old: string; new: string; all?: boolean }> }
  /**
   * `original`: the file the write replaced, as Claude Code's Write result of `type: "update"`
   * records it (`originalFile`); `created`: the write made the file, as its result of `type:
   * "create"` records it (`originalFile: null`); without either the result is a plain "File
   * created" with no `toolUseResult`.
   */
  | { write: string; content: string; fail?: boolean; original?: string; created?: boolean }
  /** `with`: more fields of the Read call's input (`{ limit: 20 }`); `out: null`: no result. */
  | { read: string; fail?: boolean; out?: string | null; with?: Record<string, unknown> };

/** A hand-written session. */
export interface SessionSpec {
  id: string;
  cwd: string;
  /** ISO time of the first turn; each turn is one minute later (`step` ms, when given). */
  start: string;
  step?: number;
  turns: Turn[];
  /**
   * Written as a subagent of session `id` (`<id>/subagents/agent-<agent>.jsonl`,
   * records `isSidechain`, `agentId`), as Claude Code files a `Task` agent.
   */
  agent?: string;
  /** The model each reply names (`message.model`). */
  model?: string;
  /** The session's title, as Claude Code records one it generated (an `ai-title` line). */
  title?: string;
}

/** Claude Code JSONL lines for one session. */
export function claudeLines(s: SessionSpec): string[] {
  const lines: string[] = [];
  let t = Date.parse(s.start);
  let n = 0;
  const base = () => ({
    sessionId: s.id,
    cwd: s.cwd,
    uuid: `${s.agent ?? s.id}-${n}`,
    timestamp: new Date(t).toISOString(),
    ...(s.agent ? { isSidechain: true, agentId: s.agent } : {}),
  });
  const call = (name: string, input: unknown) => {
    // Unique to the session (and subagent), as a harness's random ids are: two sessions
    // holding one call id replay one call (lib/replays.ts).
    const id = `toolu_${(s.id + (s.agent ?? "")).replace(/[^0-9A-Za-z]/g, "")}_${n}`;
    lines.push(JSON.stringify({
      ...base(),
      type: "assistant",
      message: {
        id: `msg_${n}`,
        role: "assistant",
        content: [{ type: "tool_use", id, name, input }],
      },
    }));
    return id;
  };
  const result = (id: string, content: string, isError: boolean, extra?: object) => {
    lines.push(JSON.stringify({
      ...base(),
      type: "user",
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }],
      },
      ...(extra ? { toolUseResult: extra } : {}),
    }));
  };
  if (s.title !== undefined) {
    lines.push(JSON.stringify({ type: "ai-title", aiTitle: s.title, sessionId: s.id }));
  }
  for (const turn of s.turns) {
    n++;
    t += s.step ?? 60_000;
    if ("user" in turn) {
      lines.push(
        JSON.stringify({ ...base(), type: "user", message: { role: "user", content: turn.user } }),
      );
    } else if ("say" in turn) {
      lines.push(JSON.stringify({
        ...base(),
        type: "assistant",
        message: {
          id: `msg_${n}`,
          role: "assistant",
          content: [{ type: "text", text: turn.say }],
          ...(s.model ? { model: s.model } : {}),
        },
      }));
    } else if ("bash" in turn) {
      const id = call("Bash", { command: turn.bash });
      const failed = (turn.exit ?? 0) !== 0;
      if (turn.out === null) continue;
      const clean = turn.clean && !failed
        ? { stdout: turn.out, stderr: "", interrupted: false, isImage: false }
        : undefined;
      const partial = { stdout: turn.out, stderr: "", interrupted: true, isImage: false };
      // Refused (`refused`): an error result of the harness's words alone, no exit code.
      if (turn.refused) result(id, turn.out, true);
      else if (turn.stopped === "marker") {
        result(id, "[Request interrupted by user for tool use]", true, partial);
      } else if (turn.stopped === "aborted") {
        const text = `${turn.out}\n<error>Command was aborted before completion</error>`;
        result(id, text, false, partial);
      } else result(id, failed ? `Exit code ${turn.exit}\n${turn.out}` : turn.out, failed, clean);
    } else if ("edit" in turn) {
      const id = call("Edit", {
        file_path: turn.edit,
        old_string: turn.old,
        new_string: turn.new,
        ...(turn.all ? { replace_all: true } : {}),
      });
      const out = turn.out ?? (turn.fail ? "String to replace not found in file." : "ok");
      result(id, out, Boolean(turn.fail));
    } else if ("multi" in turn) {
      const edits = turn.edits.map((e) => ({
        old_string: e.old,
        new_string: e.new,
        ...(e.all ? { replace_all: true } : {}),
      }));
      result(call("MultiEdit", { file_path: turn.multi, edits }), "ok", false);
    } else if ("write" in turn) {
      const id = call("Write", { file_path: turn.write, content: turn.content });
      const record = turn.fail || (turn.original === undefined && !turn.created) ? undefined : {
        type: turn.original === undefined ? "create" : "update",
        filePath: turn.write,
        content: turn.content,
        structuredPatch: [],
        originalFile: turn.original ?? null,
      };
      result(
        id,
        turn.fail
          ? "EACCES"
          : turn.original !== undefined
          ? `The file ${turn.write} has been updated.`
          : "File created",
        Boolean(turn.fail),
        record,
      );
    } else {
      const id = call("Read", { file_path: turn.read, ...turn.with });
      if (turn.out === null) continue;
      const out = turn.out ?? (turn.fail ? "File does not exist." : "1\tcontent");
      result(id, out, Boolean(turn.fail));
    }
  }
  return lines;
}

/** A temporary index built from hand-written sessions. */
export interface MemoryIndex {
  env: Env;
  /** The temp directory (a place to write files). */
  root: string;
  store: Store;
  cleanup(): void;
}

/**
 * Writes the sessions as a Claude Code store of project `/w/app` under `dir` (not indexed), and
 * the variables that point deja at it with its own HOME and DEJA_HOME there: for tests that run
 * `deja` itself (tests/_cli_io.ts `runWith`) and do things to its index between runs.
 */
export function claudeStore(
  dir: string,
  sessions: SessionSpec[],
): { vars: Record<string, string>; files: string[] } {
  const proj = join(dir, "claude", "-w-app");
  mkdirSync(proj, { recursive: true });
  const files = sessions.map((s) => join(proj, `${s.id}.jsonl`));
  sessions.forEach((s, i) => writeFileSync(files[i], claudeLines(s).join("\n") + "\n"));
  const vars = {
    HOME: join(dir, "home"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "claude"),
    TZ: "UTC",
  };
  return { vars, files };
}

/**
 * Writes the sessions as a Claude Code store and indexes it (the `deja`
 * notes harness too, when `notes` lines are given). The store is `<root>/claude`, a folder
 * Claude Code's own command does not read (`deja resume` refuses its sessions); with `atHome`,
 * `<root>/home/.claude/projects`, where it does.
 */
export async function indexSessions(
  sessions: SessionSpec[],
  notes: string[] = [],
  opts: { atHome?: boolean } = {},
): Promise<MemoryIndex> {
  const root = tempDir("deja-mem-");
  const claudeRoot = opts.atHome ? join(root, "home", ".claude", "projects") : join(root, "claude");
  for (const s of sessions) {
    const dir = join(claudeRoot, s.cwd.replace(/[^A-Za-z0-9]/g, "-"));
    const file = s.agent
      ? join(dir, s.id, "subagents", `agent-${s.agent}.jsonl`)
      : join(dir, `${s.id}.jsonl`);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, claudeLines(s).join("\n") + "\n");
  }
  const notesDir = join(root, "notes");
  mkdirSync(notesDir, { recursive: true });
  if (notes.length) writeFileSync(join(notesDir, "notes.jsonl"), notes.join("\n") + "\n");
  const env = testEnv(join(root, "home"), {
    DEJA_HOME: join(root, "deja"),
    DEJA_CLAUDE_ROOT: claudeRoot,
    DEJA_DEJA_ROOT: notesDir,
    TZ: "UTC",
  });
  await runIndex(env, parsers, { only: ["claude", "deja"] });
  const store = Store.open(indexPath(env));
  return {
    env,
    root,
    store,
    cleanup() {
      store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * A session row filed by hand as a parser would file it (no events): what resume's rules read.
 * `parent` makes it a subagent of that session.
 */
export function fileSession(
  store: Store,
  row: {
    harness: string;
    native_id: string;
    source: string;
    project: string | null;
    parent?: string | null;
  },
): void {
  Q.insertSession.run(store, {
    title: "t",
    started: 1,
    updated: 2,
    model: null,
    time_from_file: 0,
    ...row,
    parent: row.parent ?? null,
  });
}

/** The index row id of a session by native id. */
export function rowId(store: Store, nativeId: string): number {
  const r = store.db.prepare("SELECT id FROM sessions WHERE native_id = ?").get(nativeId) as
    | { id: number }
    | undefined;
  if (!r) throw new Error(`session ${nativeId} is not indexed`);
  return r.id;
}

/**
 * Line `i` of a Claude Code session `sid` (even: user, odd: assistant), for tests that append to a
 * store record by record.
 */
export function claudeLine(i: number, text: string, sid: string): string {
  return JSON.stringify({
    type: i % 2 ? "assistant" : "user",
    sessionId: sid,
    uuid: `${sid}-${i}`,
    cwd: "/w/app",
    timestamp: `2026-11-01T10:00:${String(i % 60).padStart(2, "0")}Z`,
    message: i % 2
      ? { id: `m${i}`, role: "assistant", content: [{ type: "text", text }] }
      : { role: "user", content: text },
  }) + "\n";
}
