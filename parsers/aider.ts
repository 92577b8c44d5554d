/**
 * aider (`aider-chat`).
 *
 * @module
 */
import { decodeUtf8, REPAIRED } from "../core/text.ts";
import { createHash } from "node:crypto";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Event,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { isRegularFile, readTextOrNone, reportUnstatable, skipUnreadable } from "../core/fs.ts";
import { readLines } from "./_jsonl.ts";
import { dataDir, expandHome, rootFrom } from "../core/paths.ts";
import { withModel } from "./_util.ts";
import { findHistories, PROJECT_ROOTS } from "./_aider_find.ts";
import {
  aiderEditBlocks,
  bannerModel,
  createdFiles,
  damagedHeaderMillis,
  datePrompts,
  headerMillis,
  inputHistory,
  isDamagedHeader,
  isHeader,
  isReplaceEnd,
  isSearchHead,
  repoLine,
  toolOutputText,
} from "./_aider_markdown.ts";

const ID = "aider";
const NAME = ".aider.chat.history.md";
const INPUT = ".aider.input.history";

/**
 * The aider parser.
 *
 * Store: one Markdown file per launch directory, appended to by every aider
 * run started there; many sessions per file (docs/registry/aider.md; observed in
 * realdata/aider, aider 0.86.1). Looked for in four places:
 * `${DEJA_AIDER_ROOT:-~}/.aider.chat.history.md`, the file named by
 * `AIDER_CHAT_HISTORY_FILE` (any name), `<p>/.aider.chat.history.md` for
 * each project directory deja already knows from other harnesses, and a
 * bounded search of the home directory and its usual project folders
 * (parsers/_aider_find.ts: 3 levels, 2,000 folders at most, repositories not
 * entered below their root). Each file is a `document` source, re-read whole
 * when it changes.
 *
 * Grammar (line by line; aider's `io.py`, read via the search tool):
 * - `# aider chat started at YYYY-MM-DD HH:MM:SS` starts a session. The time
 *   is the writing machine's local wall-clock time (`datetime.now()`); it is
 *   read in the zone named by `TZ`, else the runtime's zone. Text before the
 *   first header is counted as `unknown_record`. A header with a byte or two
 *   damaged still starts a session (counted `bad_shape`).
 * - `#### <line>` is typed input; consecutive lines join into one user event
 *   (`#### <blank>` alone is an empty input and is dropped).
 * - `> <line>` is aider's own output. The block before the session's first
 *   prompt is the startup banner (its `Model:` line names the session model)
 *   and is dropped; later blocks become one tool_result each, without the
 *   token/cost lines, y/n questions and hints (what remains: `Applied edit to
 *   x`, `Commit <sha> <msg>`, command output, warnings).
 * - Any other line is assistant text. Inside a code fence (``` or ````, or
 *   inside a SEARCH/REPLACE block, whose own fences are not tracked) `####`
 *   and `>` lines are assistant text too, unless they end with the two spaces
 *   aider appends to every line it writes itself, which ends the fence (an
 *   unclosed fence in a cut-off reply then cannot swallow the turns after it).
 * - SEARCH/REPLACE blocks in an assistant reply (file name on the line above
 *   the fence) become one `search_replace` tool_call each, with an edit
 *   `{path, old, new}`; the path resolves against the history file's
 *   directory, `old`/`new` keep their line ends, and an empty SEARCH (a new
 *   file, or text appended) gives `old` "".
 *
 * Session id: `aider-<first 12 hex of sha1(p)>-<n>`, p the file's path
 * relative to the home directory (`.aider.chat.history.md`,
 * `../../srv/app/.aider.chat.history.md`) and n the 1-based ordinal of the
 * session in the file: ids stay put as the file grows and under another home
 * with the same layout, and change if the file moves. Project: the git working
 * directory the session's startup banner names (`Git repository created in
 * <root>`, `Git working dir: <root>`; {@link repoLine}), else the directory
 * holding the file (aider writes it in the git root by default, or where it
 * runs outside a repository). Edit paths resolve against the same directory:
 * aider's file names are relative to the git working dir.
 *
 * Times (epoch ms): every event gets the session start, unless the input
 * history (`.aider.input.history` beside the chat file, or
 * `AIDER_INPUT_HISTORY_FILE`; `# <local time with µs>` then `+` lines per
 * prompt, realdata aider 0.86.1) has an entry with the prompt's text: the
 * prompt and the events after it take that entry's time (`datePrompts`).
 * Both stamps are local wall-clock time without a zone (aider's `io.py`
 * formats `datetime.now()`, naive; prompt_toolkit's `FileHistory` does the
 * same), read in the zone of the machine running deja when it reads the file
 * (`TZ`, else the runtime's). A history written on another machine, or read
 * under another `TZ` than the one it was written in, shifts by the zones'
 * difference; the index keeps the times as read, so `TZ` set for `show` alone
 * moves the rendering, not the reading (an index built with `TZ` unset on a
 * UTC machine shows a 14:43 header as 09:43 under `TZ=America/New_York`).
 */
export const aider: Parser = { id: ID, discover, parse };

async function discover({ env, knownProjects, problem }: DiscoverCtx): Promise<Discovery> {
  const home = rootFrom(env, ID, [], "~");
  const primary = [join(home, NAME)];
  const named = env.get("AIDER_CHAT_HISTORY_FILE");
  if (named) primary.push(expandHome(env, named));
  // Project directories other harnesses recorded; one from another system (a Windows
  // path seen on Linux) is not a place on this machine.
  const projectFiles = knownProjects.filter((p) => isAbsolute(p)).map((p) => join(p, NAME));
  // And the folders people keep projects in, searched a few levels down (parsers/_aider_find.ts).
  const projectRoots = PROJECT_ROOTS.map((d) => join(home, d));
  const search = findHistories([home, ...projectRoots], NAME, undefined, [dataDir(env)]);
  const roots = [...new Set(primary.map((p) => resolve(p)))];
  const sources: SourceRef[] = [];
  const candidates = [...projectFiles, ...search.files].map((p) => resolve(p));
  for (const path of new Set([...roots, ...candidates])) {
    if (await isRegularFile(path, problem)) {
      const companions = [inputHistoryPath(env, path)];
      sources.push({ harness: ID, path, kind: "document", companions });
    } else if (roots.includes(path)) await reportUnstatable(path, problem);
  }
  // Roots shown by `deja sources`: the fixed places, and the project files that exist.
  for (const s of sources) if (!roots.includes(s.path)) roots.push(s.path);
  // The folders searched are watched by the stat pass (a new history changes its folder's
  // mtime), all but the home directory itself, which changes all the time (lib/fresh/map.ts);
  // so are the project folders absent now, which a first project may make. A folder
  // DEJA_AIDER_ROOT names is aider's alone, and watched (trial 64: a history in a new folder
  // under it was "up to date" until a rebuild).
  const watch = [...new Set([...projectRoots, ...search.dirs, home])]
    .filter((d) => resolve(d) !== resolve(env.home));
  // The history a known project may hold, absent now: stamped by the stat pass as a file
  // looked for, so the next `deja index` reads one made since (trial 22: a history made in the
  // folder a Claude Code session ran in was "up to date" until --rebuild). Not the folders
  // themselves: a project's folder changes with every build.
  const found = new Set(sources.map((s) => s.path));
  const reads = [...new Set(projectFiles.map((p) => resolve(p)))].filter((p) => !found.has(p));
  return { roots, sources, watch, reads };
}

/**
 * The input history that goes with a chat file: `AIDER_INPUT_HISTORY_FILE` when set (aider's
 * own variable), else `.aider.input.history` beside it (aider's default: both files are written
 * in the directory aider runs in).
 */
function inputHistoryPath(env: DiscoverCtx["env"], chat: string): string {
  const named = env.get("AIDER_INPUT_HISTORY_FILE");
  return named ? resolve(expandHome(env, named)) : join(dirname(chat), INPUT);
}

type Role = "user" | "assistant" | "tool";

/** The session being read. */
interface Open {
  ordinal: number;
  started?: number;
  model?: string;
  /** The git working directory the banner names ({@link repoLine}). */
  repo?: string;
  events: Event[];
  /** True once the session has a typed prompt (earlier `>` lines are the banner). */
  prompted: boolean;
  /** The prompt time in force where the last part given ended ({@link datePrompts}). */
  dated?: number;
  /** The latest time of the parts given so far. */
  last?: number;
}

/**
 * Events of a session given at a time: a long session (a history of one aider run with
 * 200,000 turns, trial 29: 265 MB held 1.3 GB) is given in parts the writer joins.
 */
const PART_EVENTS = 256;

const USER = /^####(?: |$)/;
const TOOL = /^>(?: |$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const path = source.path;
  const base = dirname(path);
  const idPrefix = `aider-${
    createHash("sha1").update(relative(ctx.env.home, path)).digest("hex").slice(0, 12)
  }`;
  const tz = ctx.env.get("TZ");
  const inputText = await readTextOrNone(
    inputHistoryPath(ctx.env, path),
    16 << 20,
    skipUnreadable(ctx),
  );
  const entries = inputText ? inputHistory(inputText, tz) : [];
  let nextEntry = 0;
  let ordinal = 0;
  let session: Open | undefined;
  let block: { role: Role; lines: string[] } | undefined;
  let fence: { ch: string; len: number } | undefined;
  let inBlock = false; // inside a SEARCH/REPLACE block
  let preamble = false;
  let lineNo = 0;
  let bytes = 0;

  const flush = () => {
    if (!block || !session) {
      block = undefined;
      return;
    }
    const s = session;
    const time = s.started;
    const text = block.lines.join("\n").trim();
    if (block.role === "user") {
      if (text && text !== "<blank>") {
        s.events.push({ kind: "user", text, time });
        s.prompted = true;
      }
    } else if (block.role === "assistant") {
      const from = s.events.length;
      if (text) s.events.push({ kind: "assistant", text, time });
      const where = `${path}:${lineNo}`;
      for (
        const sr of aiderEditBlocks(
          block.lines,
          s.repo ?? base,
          (why) => ctx.skip("bad_shape", where, why),
        )
      ) {
        s.events.push({
          kind: "tool_call",
          text: "",
          time,
          tool: { name: "search_replace", input: { file: sr.file }, edits: [sr.edit] },
        });
      }
      // The model the last banner named (a `/model` switch prints one again).
      withModel(s.events.slice(from), s.model);
    } else {
      for (const l of block.lines) {
        s.model = bannerModel(l) ?? s.model;
        if (!s.prompted) s.repo ??= repoLine(l);
      }
      // A block with an empty SEARCH that created the file aider asked about is a write, not
      // an edit (trial 94 F11: two new READMEs were "2 edits", and restore did not list them).
      if (s.prompted) asWrites(s.events, createdFiles(block.lines));
      const out = s.prompted ? toolOutputText(block.lines) : "";
      if (out) s.events.push({ kind: "tool_result", text: out, time, result: {} });
    }
    block = undefined;
  };

  /** The events of `s` read so far, dated, as a part of it; `s` then holds none. */
  const part = (s: Open): Session => {
    const d = datePrompts(s.events, entries, nextEntry, s.started, s.dated);
    nextEntry = d.at;
    s.dated = d.now;
    const last = s.events.reduce(
      (t, e) => Math.max(t, e.time ?? t),
      s.last ?? s.started ?? -Infinity,
    );
    s.last = last;
    const events = s.events;
    s.events = [];
    return {
      harness: ID,
      id: `${idPrefix}-${s.ordinal}`,
      project: s.repo ?? base,
      started: s.started,
      updated: Number.isFinite(last) ? last : s.started,
      model: s.model,
      path,
      events,
    };
  };

  const close = (): Session | undefined => {
    flush();
    const s = session;
    session = undefined;
    if (!s || !s.events.length) return undefined;
    return part(s);
  };

  const add = (role: Role, text: string) => {
    if (block?.role !== role) {
      flush();
      block = { role, lines: [] };
    }
    block.lines.push(text);
  };

  for await (const raw of readLines(path, 0)) {
    // The blocks ended so far go as a part (the one being read stays).
    if (session && session.events.length >= PART_EVENTS) yield part(session);
    lineNo++;
    bytes = raw.end;
    const where = `${path}:${lineNo}`;
    if (raw.oversized) {
      ctx.skip("oversized", where);
      continue;
    }
    const got = decodeUtf8(raw.bytes);
    if (got.repaired) ctx.skip("invalid_utf8", where, REPAIRED);
    let line = got.text.replace(/\r$/, "");
    if (lineNo === 1) line = line.replace(/^\uFEFF/, "");

    const damaged = isDamagedHeader(line);
    if (isHeader(line) || damaged) {
      const done = close();
      if (done) yield done;
      ordinal++;
      if (damaged) ctx.skip("bad_shape", where, "damaged session header, session kept");
      const started = damaged ? damagedHeaderMillis(line, tz) : headerMillis(line, tz);
      session = { ordinal, started, events: [], prompted: false };
      fence = undefined;
      inBlock = false;
      continue;
    }
    if (!session) {
      if (line.trim() && !preamble) {
        preamble = true;
        ctx.skip("unknown_record", where, "text before the first session header");
      }
      continue;
    }
    const marker = USER.test(line) || TOOL.test(line);
    const signed = marker && / {2}$/.test(line);
    if ((fence || inBlock) && !signed) {
      add("assistant", line);
      track(line);
      continue;
    }
    if (marker) {
      fence = undefined;
      inBlock = false;
      if (USER.test(line)) add("user", line.replace(USER, "").trimEnd());
      else add("tool", line.replace(TOOL, "").trimEnd());
      continue;
    }
    if (line.trim() === "") {
      block?.lines.push("");
      continue;
    }
    add("assistant", line);
    track(line);
  }
  const last = close();
  if (last) yield last;
  if (bytes === 0) ctx.skip("empty", path);

  /** Follows fences and SEARCH/REPLACE blocks through assistant lines. */
  function track(line: string) {
    if (inBlock) {
      if (isReplaceEnd(line)) inBlock = false;
      return;
    }
    if (isSearchHead(line)) {
      inBlock = true;
      return;
    }
    const m = FENCE.exec(line);
    if (!m) return;
    if (!fence) fence = { ch: m[1][0], len: m[1].length };
    else if (m[1][0] === fence.ch && m[1].length >= fence.len && !m[2].trim()) fence = undefined;
  }
}

/**
 * The `search_replace` calls since the last prompt whose SEARCH was empty and whose file is
 * one of `created` (as aider named it) made as writes of their text: the file did not exist
 * before, so what they put there is all it held (an empty SEARCH on a file that exists appends,
 * and stays an edit).
 */
function asWrites(events: Event[], created: ReadonlySet<string>): void {
  if (!created.size) return;
  for (let i = events.length - 1; i >= 0 && events[i].kind !== "user"; i--) {
    const t = events[i].tool;
    const file = (t?.input as { file?: unknown } | undefined)?.file;
    const edit = t?.edits?.length === 1 ? t.edits[0] : undefined;
    if (t?.name !== "search_replace" || typeof file !== "string" || edit?.old !== "") continue;
    if (!created.has(file)) continue;
    t.writes = [{ path: edit.path, content: edit.new }];
    delete t.edits;
  }
}
