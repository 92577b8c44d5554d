/**
 * `deja resume`: the harness's own command that reopens a session, and the
 * directory to run it in.
 *
 * The command comes from registry.json (`capabilities.resume`, `{id}` for the
 * native session id), split into argv so the id is one argument and never
 * passes through a shell. A subagent resumes its parent; when the parent is
 * refused, the message first says the session asked for is a subagent resumed
 * through that parent, then gives the parent's reason (not the subagent's: a
 * Gemini CLI subagent has its own chat file even when its parent is known only
 * from `logs.json`). The command runs in
 * the session's project directory. Whether the harness needs it is
 * registry.json `capabilities.resume_cwd` (decided from each harness's store
 * layout and reference page): Claude Code, Gemini CLI, Kimi CLI, Crush (only
 * in `<project>/.crush`), opencode, Grok Build, Reasonix and others look
 * sessions up from the directory they run in (elsewhere they fail or silently
 * start a new session; pi, prime-agent, Senpi, gajae-code and Kimchi offer to
 * fork the session into the current directory instead), so for them a project
 * directory not on this machine (removed, moved, or another machine's), or
 * another system's (a Windows path here), is refused, and one deja does not know is said on stderr and refused by
 * `--exec`. A harness that finds sessions by id from anywhere (Codex,
 * Copilot CLI, Oh My Pi, Factory Droid, Kilo CLI) runs without it, with a
 * note. Each harness's page (docs/registry/<id>.md) says what its value was
 * read from; tests/resume_commands_test.ts checks the commands printed. A
 * session from a remote (`deja remote`) reopens on that machine, over ssh
 * (lib/remote/resume.ts).
 * Claude Code looks a session up under the projects folder named for the
 * directory it runs in, which is not always the recorded cwd: `claudePlace`
 * runs it from the directory the session's folder names when one exists, and
 * warns when none does (docs/registry/claude.md, "Resume from a folder").
 * A session read from a store the command does not read (a prompt history, an
 * editor's chat history) is refused by the table in lib/resume_source.ts, and one whose store
 * lies where no variable can make the command look (lib/resume_home.ts) is refused too.
 * A store whose path names something the command must be told (an Oh My Pi
 * profile) adds it, by the table in lib/resume_args.ts.
 *
 * @module
 */
import { dirname, isAbsolute } from "node:path";
import { storeState } from "./gone.ts";
import { isDirSync } from "../core/fs.ts";
import { isWindowsAbsolute } from "../core/paths.ts";
import type { Store } from "./store.ts";
import { DejaError } from "../core/errors.ts";
import { Q } from "./schema.ts";
import { resolveSession, shortRef } from "./sessions.ts";
import { type SessionRow } from "./rows.ts";
import { type HarnessFacts, harnessFacts } from "../core/registry.ts";
import { displayCommand, templateArgv } from "./shell.ts";
import type { Env } from "../core/model.ts";
import { remoteResume } from "./remote/resume.ts";
import { ownId } from "./remote/label.ts";
import { isPromptHistoryId } from "../core/prompt_history.ts";
import { notReopened, notReopenedReason } from "./resume_source.ts";
import { withSourceArgs } from "./resume_args.ts";
import { homeNeeds } from "./resume_home.ts";

/** Session ids deja passes to a command: no shell metacharacters, no leading dash. */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** What to run to reopen a session. */
export interface ResumePlan {
  harness: string;
  /** The session asked for (native id). */
  asked: string;
  /** The session reopened: `asked`, or its parent for a subagent. */
  id: string;
  /** Directory to run in, or null when the store does not say. */
  cwd: string | null;
  argv: string[];
  /** The machine the session ran on (a remote's name), null for this one. */
  origin: string | null;
  /** What stderr says about the directory (not known, gone, another system's), or null. */
  note?: string | null;
  /**
   * The harness finds sessions only from their directory and deja does not know it: the command
   * is printed to run from there, and `--exec` refuses.
   */
  needsCwd?: boolean;
  /**
   * Variables the command must run with: the harness's home, where the session's store is not
   * the one the command reads (lib/resume_home.ts).
   */
  env?: Record<string, string>;
  /** For a remote's session: its host, its project there, and the clone here (`argv` is ssh's). */
  remote?: { host: string; port: number | null; cwd: string | null; clone: string | null };
}

/** The parent session of a subagent (the row when indexed, else a stand-in with the same project). */
function topSession(store: Store, s: SessionRow): SessionRow {
  let cur = s;
  for (let i = 0; i < 8 && cur.parent; i++) {
    const p = Q.sessionByKey.get(store, { harness: cur.harness, native_id: cur.parent });
    cur = p ?? { ...cur, native_id: cur.parent, parent: null };
  }
  return cur;
}

/** True when `source` is a store the index read whose file is gone since (lib/gone.ts). */
function storeGone(store: Store, source: string): boolean {
  return Q.sourceByPath.get(store, { path: source }) !== undefined &&
    storeState(source) === "gone";
}

/** Harnesses whose resume command fetches the session from a server, not from the file deja read. */
const SERVER_THREADS = new Set(["amp"]);

/**
 * Plans the resume of the session `ref` names (an id prefix, `harness:prefix`).
 *
 * @throws {DejaError} exit 1 when no session matches; exit 2 when several do,
 *   when the harness has no resume command, when the id has unsafe characters,
 *   when the store it was read from is gone, when the project directory is gone, or when the
 *   command would not find the store (lib/resume_home.ts).
 */
export function resumePlan(store: Store, ref: string, env?: Env): ResumePlan {
  const asked = resolveSession(store, ref);
  const s = topSession(store, asked);
  const facts = harnessFacts(s.harness);
  const ref8 = shortRef(store, asked.harness, asked.native_id);
  const show = `read it with 'deja show ${ref8}'`;
  // A subagent's refusal is its parent's: say so first, and name the parent in the reason.
  const sub = s.native_id !== asked.native_id;
  const lead = sub
    ? `${asked.native_id} is a subagent, resumed through its parent ${s.native_id}; `
    : "";
  // The store names the session by the harness's id, not a remote's `<origin>:<id>` (trial 112
  // F2: every Codex session of a remote was taken for a copy inside another one's rollout).
  const own = ownId(s);
  if (isPromptHistoryId(own)) {
    throw new DejaError(
      `${lead}${s.native_id} is ${
        facts?.displayName ?? s.harness
      }'s prompt history (prompts typed, kept apart from its sessions): no command reopens it`,
      show,
      2,
    );
  }
  const elsewhere = notReopened(s.harness, s.source, own);
  if (elsewhere) {
    throw new DejaError(
      lead + notReopenedReason(
        elsewhere,
        {
          display: facts?.displayName ?? s.harness,
          program: facts?.resume?.split(" ")[0] ?? null,
        },
        s.source,
        sub ? "the parent" : "this session",
      ),
      `${show}, or carry it on with 'deja handoff --to <harness> ${ref8}'`,
      2,
    );
  }
  if (!facts?.resume) {
    throw new DejaError(
      `${lead}${facts?.displayName ?? s.harness} has no command that reopens a session`,
      show,
      2,
    );
  }
  if (s.origin && env) {
    const safe = (id: string) => {
      if (!SAFE_ID.test(id)) throw unsafe(id, show);
      return templateArgv(facts.resume!, { id });
    };
    const r = remoteResume(env, { ...s, origin: s.origin, id: s.native_id }, safe, isDirSync);
    return {
      harness: s.harness,
      asked: asked.native_id.slice(s.origin.length + 1),
      id: r.id,
      cwd: null,
      argv: r.argv,
      origin: r.origin,
      remote: { host: r.host, port: r.port, cwd: r.remoteCwd, clone: r.clone },
    };
  }
  if (!SAFE_ID.test(s.native_id)) throw unsafe(s.native_id, show);
  // The file the harness would reopen is gone: its command would find nothing (the index kept
  // what it read). Amp keeps threads on its server; the local file is a copy.
  if (!SERVER_THREADS.has(s.harness) && storeGone(store, s.source)) {
    throw new DejaError(
      `${lead}${sub ? "the parent's" : "this session's"} store is gone (deleted or moved since ` +
        `deja read it): ${s.source}; ${facts.displayName} cannot reopen what it no longer holds`,
      `${show} (the index kept it), or carry it on with 'deja handoff --to <harness> ${ref8}'; ` +
        `if the store moved, 'deja index' finds it again`,
      2,
    );
  }
  let place = placeOf(
    s.project,
    facts,
    `${show}, or carry it on with 'deja handoff --to <harness> ${ref8}'`,
  );
  if (s.harness === "claude") place = claudePlace(place, s.source);
  const home = env ? homeNeeds(s.harness, s.source, env) : undefined;
  const vars = home?.vars;
  const argv = withSourceArgs(
    s.harness,
    s.source,
    templateArgv(facts.resume, { id: s.native_id }),
    (v) => {
      if (!SAFE_ID.test(v)) throw unsafe(v, show, "value its store's path gives");
      return v;
    },
  );
  // Where no variable can make the command look in the store, the command would not find the
  // session: refused like every other session deja cannot reopen (trial 130 F1: it was printed
  // with a warning and exit 0, so `eval "$(deja resume …)"` ran a command that failed).
  if (home?.warning) {
    const from = place.needsCwd ? " from its project directory" : "";
    throw new DejaError(
      `${lead}${facts.displayName} would not find ${sub ? "the parent" : "this session"}: ` +
        home.warning,
      `once the store is back under ${home.reads}, '${
        displayCommand(argv, place.cwd)
      }'${from} reopens it; until then ${show}, or carry it on with ` +
        `'deja handoff --to <harness> ${ref8}'`,
      2,
    );
  }
  return {
    ...(vars ? { env: vars } : {}),
    harness: s.harness,
    asked: asked.native_id,
    id: s.native_id,
    cwd: place.cwd,
    argv,
    origin: null,
    note: place.note,
    needsCwd: place.needsCwd,
  };
}

/** Where a session's command runs, and what stderr says about it. */
interface Place {
  cwd: string | null;
  note: string | null;
  needsCwd: boolean;
}

/**
 * The directory of `project` to run in, by what the harness needs
 * (`capabilities.resume_cwd`): a harness that finds sessions only from their
 * directory refuses a project gone or another system's; one that finds
 * them anywhere runs without it, with a note. A project that is not an
 * absolute path here (`C:/Apps/x` on Linux) is never looked up relative to
 * the current directory.
 *
 * @throws {DejaError} exit 2 when the harness needs a directory deja cannot give.
 */
function placeOf(project: string | null, facts: HarnessFacts, hint: string): Place {
  const name = facts.displayName;
  const byDir = facts.resumeCwd;
  if (project && !isAbsolute(project)) {
    const what = isWindowsAbsolute(project)
      ? "a Windows path"
      : "not an absolute path on this system";
    const why = `this session ran on another system (its project ${project} is ${what}): ` +
      `resume cannot cd there`;
    if (byDir) {
      throw new DejaError(`${why}, and ${name} looks for this session from there`, hint, 2);
    }
    return { cwd: null, note: why, needsCwd: false };
  }
  if (project && !isDirSync(project)) {
    if (byDir !== false) {
      throw new DejaError(
        `the project directory ${project} is not on this machine (removed, moved, or ` +
          `another machine's), and ${name} looks for ` +
          `this session from there`,
        hint,
        2,
      );
    }
    return {
      cwd: null,
      note: `the project directory ${project} is not on this machine (removed, moved, or another ` +
        `machine's); ${name} finds the session from anywhere`,
      needsCwd: false,
    };
  }
  if (project) return { cwd: project, note: null, needsCwd: false };
  if (byDir === false) return { cwd: null, note: null, needsCwd: false };
  const looks = byDir ? "looks sessions up" : "may look sessions up";
  return {
    cwd: null,
    note: `this session's project directory is not known, and ${name} ${looks} from the ` +
      `directory it runs in: run it from there`,
    needsCwd: byDir === true,
  };
}

/** Claude Code's folder name for the directory `dir`: every character not a letter or digit is `-`. */
export function claudeFolderName(dir: string): string {
  return dir.replace(/[^A-Za-z0-9]/g, "-");
}

/** Claude Code cuts a folder name longer than this and appends a hash of the whole path. */
const CLAUDE_FOLDER_MAX = 200;

/** Whether Claude Code files the sessions started in `dir` under the folder `folder`. */
function claudeFiles(folder: string, dir: string): boolean {
  const name = claudeFolderName(dir);
  return name === folder ||
    (name.length > CLAUDE_FOLDER_MAX && folder.startsWith(`${name.slice(0, CLAUDE_FOLDER_MAX)}-`));
}

/**
 * The folder a Claude Code session file lies in: `<folder>/<id>.jsonl`, or
 * `<folder>/<id>/subagents/agent-*.jsonl` (a subagent standing in for a parent not indexed).
 */
function claudeFolderOf(source: string): string | null {
  const parts = source.split(/[\\/]/);
  const i = parts.at(-2) === "subagents" ? parts.length - 4 : parts.length - 2;
  return i >= 0 && parts[i] ? parts[i] : null;
}

/**
 * Claude Code looks a session up under its projects folder named for the directory it runs in
 * (`claudeFolderName`), and the session's file lies in the folder named for the directory it
 * started in. The recorded cwd (deja's project) can differ: the session moved into a
 * subdirectory, the project was moved or renamed, or the store was copied from elsewhere. Then
 * `cd <project> && claude --resume <id>` fails with no such session. So, when the file's folder
 * does not name the project: run from the nearest directory that exists and that the folder
 * names (an ancestor of the project, else the folder's own lossy decoding, `-` read as `/`),
 * with a note; when none exists, keep the project and say on stderr (and in `--json` `note`)
 * that Claude Code will look under another folder. `--exec` still runs: the note is a warning.
 */
function claudePlace(place: Place, source: string): Place {
  const cwd = place.cwd;
  const folder = claudeFolderOf(source);
  if (!cwd || !folder || claudeFiles(folder, cwd)) return place;
  const candidates: string[] = [];
  for (let d = dirname(cwd); d !== dirname(d); d = dirname(d)) candidates.push(d);
  if (folder.startsWith("-")) candidates.push(folder.replace(/-/g, "/"));
  const found = candidates.find((d) => claudeFiles(folder, d) && isDirSync(d));
  if (found) {
    return {
      cwd: found,
      note: `Claude Code filed this session under ${found} (its folder ${folder}), not its ` +
        `recorded directory ${cwd}: resuming from there`,
      needsCwd: false,
    };
  }
  return {
    ...place,
    note: `Claude Code filed this session under the folder ${folder}, but run from ${cwd} it ` +
      `looks under ${claudeFolderName(cwd)} and may not find it (the project moved or was ` +
      `renamed, or the store was copied); run it from the directory ${folder} names, or move ` +
      `the session file into ${claudeFolderName(cwd)}`,
  };
}

function unsafe(id: string, show: string, what = "session id"): DejaError {
  return new DejaError(
    `the ${what} '${id}' has characters deja will not pass to a command`,
    show,
    2,
  );
}
