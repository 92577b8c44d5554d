/**
 * Pieces of aider's chat-history Markdown (private to `aider.ts`): the
 * SEARCH/REPLACE edit blocks inside an assistant reply, the tool-output lines
 * worth keeping, and the local-time session header.
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import type { EditSpan } from "../core/model.ts";

/** `<<<<<<< SEARCH`, `=======`, `>>>>>>> REPLACE` (aider's `editblock_coder.py`; 5-9 marker characters accepted). */
const HEAD = /^<{5,9} SEARCH>?\s*$/;
const DIVIDER = /^={5,9}\s*$/;
const UPDATED = /^>{5,9} REPLACE\s*$/;

/** True for the line that opens a SEARCH/REPLACE block. */
export function isSearchHead(line: string): boolean {
  return HEAD.test(line.trim());
}

/** True for the line that closes a SEARCH/REPLACE block. */
export function isReplaceEnd(line: string): boolean {
  return UPDATED.test(line.trim());
}

/** One SEARCH/REPLACE block: the file name as written, and the spans. */
export interface SearchReplace {
  /** File name exactly as the reply wrote it (relative to the repo root, usually). */
  file: string;
  edit: EditSpan;
}

/**
 * Finds the SEARCH/REPLACE blocks of one assistant reply, the way aider reads
 * them: the file name is on one of the three lines before `<<<<<<< SEARCH`
 * (walking back over fence lines), or the previous block's file when none is
 * there. `old`/`new` keep each line's newline, as aider applies them.
 *
 * @param lines the reply's lines, without line ends.
 * @param base directory relative file names resolve against.
 * @param onBad called for a block with no file name or no closing marker.
 */
export function aiderEditBlocks(
  lines: string[],
  base: string,
  onBad: (why: string) => void,
): SearchReplace[] {
  const out: SearchReplace[] = [];
  let current: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (!isSearchHead(lines[i])) continue;
    const file = fileBefore(lines.slice(Math.max(0, i - 3), i)) ?? current;
    const old: string[] = [];
    const neu: string[] = [];
    let j = i + 1;
    while (j < lines.length && !DIVIDER.test(lines[j].trim())) old.push(lines[j++]);
    if (j >= lines.length) {
      onBad("SEARCH block without =======");
      break;
    }
    j++;
    while (j < lines.length && !UPDATED.test(lines[j].trim())) neu.push(lines[j++]);
    if (j >= lines.length) {
      onBad("SEARCH block without >>>>>>> REPLACE");
      break;
    }
    i = j;
    if (!file) {
      onBad("SEARCH/REPLACE block without a file name");
      continue;
    }
    current = file;
    const path = isAbsolute(file) ? file : resolve(base, file);
    out.push({ file, edit: { path, old: joinLines(old), new: joinLines(neu) } });
  }
  return out;
}

function joinLines(lines: string[]): string {
  return lines.map((l) => `${l}\n`).join("");
}

/** aider's file-name search: nearest of the 3 lines above, skipping only fence lines. */
function fileBefore(before: string[]): string | undefined {
  for (const line of before.reverse()) {
    const name = stripName(line);
    if (name) return name;
    if (!/^\s*(`{3,}|~{3,})/.test(line)) return undefined;
  }
  return undefined;
}

function stripName(line: string): string | undefined {
  let s = line.trim();
  if (s === "..." || /^(`{3,}|~{3,})/.test(s)) return undefined;
  s = s.replace(/:+$/, "").replace(/^#+/, "").trim();
  s = s.replace(/^`+|`+$/g, "").replace(/^\*+|\*+$/g, "").replaceAll("\\_", "_");
  return s || undefined;
}

/**
 * aider's own bookkeeping lines in `> ` blocks: token/cost reports, y/n
 * questions with their answers, the startup banner's facts, hints. Observed
 * in realdata/aider (aider 0.86.1).
 */
const NOISE: RegExp[] = [
  /^Tokens: .*\bsent\b/,
  /\(Y\)es\/\(N\)o/,
  /^Aider v\d/,
  /^(Main |Weak |Editor )?[Mm]odel: /,
  /^Git repo: /,
  /^Repo-map: /,
  /^https?:\/\/\S+$/,
  /^You can use \/undo /,
  /^Use \/help /,
  /^Cost estimates may be inaccurate/,
];

/**
 * A y/n question aider asked and its answer: `Run shell command? (Y)es/(N)o/(S)kip all/(D)on't
 * ask again [Yes]: n` gives the question and `n`.
 */
const QUESTION = /^(.*?\?)\s*\(Y\)es\/\(N\)o.*\]:\s*(\S*)\s*$/;

/**
 * The text worth indexing from one block of `> ` lines (prefix and aider's
 * trailing line-break spaces already removed): noise lines dropped, blank
 * lines collapsed. Empty when nothing remains. A question answered no (`n`; `s`, skip all;
 * `d`, don't ask again, which aider's `io.py` answers as no) stays, as the question and its
 * answer (`Run shell command? n`): the command it follows did not run (trial 63: three
 * declined `mkdir` read as if they had run; trial 64: `d`).
 */
export function toolOutputText(lines: string[]): string {
  const out: string[] = [];
  for (const l of lines) {
    const t = l.trim();
    const q = QUESTION.exec(t);
    if (q && /^[nsd]/i.test(q[2])) out.push(`${q[1]} ${q[2]}`);
    else if (t !== "" && !NOISE.some((re) => re.test(t))) out.push(l);
  }
  return out.join("\n").trim();
}

/**
 * The files aider asked to create and was told yes, as it names them: the line before each
 * `Create new file? (Y)es/(N)o [Yes]: y` (aider 0.86.1, realdata/aider: `> src/model.py`, then
 * the question). Lines as {@link toolOutputText} takes them.
 */
export function createdFiles(lines: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < lines.length; i++) {
    const q = QUESTION.exec(lines[i].trim());
    if (q && q[1] === "Create new file?" && /^y/i.test(q[2])) out.add(lines[i - 1].trim());
  }
  return out;
}

/**
 * The git working directory one of aider's own output lines names, or
 * undefined. Only the lines that name it whole and absolute are read
 * (aider's `main.py`, read via the search tool): `Git repository created in
 * <root>` (aider made the repository at start), `Git working dir: <root>`
 * (printed when aider runs below the root), and `Git repo: <dir>/.git with
 * N files` when `<dir>` is absolute (aider writes the `.git` directory
 * relative to where it runs, absolute only when no relative path exists). Any
 * other path in the transcript (the command line aider echoes, a file in an
 * error) says nothing certain about the repository and is not read.
 */
export function repoLine(line: string): string | undefined {
  const s = line.trim();
  const named = /^(?:Git repository created in|Git working dir:) (.+)$/.exec(s)?.[1];
  if (named && isAbsolute(named)) return resolve(named);
  const git = /^Git repo: (.+)[/\\]\.git with [\d,]+ files?$/.exec(s)?.[1];
  return git && isAbsolute(git) ? resolve(git) : undefined;
}

/** The model named in aider's startup banner (`Model: <name> with <format> edit format`). */
export function bannerModel(line: string): string | undefined {
  return /^(?:Main )?[Mm]odel: (\S+)/.exec(line.trim())?.[1];
}

/** `# aider chat started at YYYY-MM-DD HH:MM:SS` (aider's `io.py`: `datetime.now()`, local time). */
const HEADER = /^# aider chat started at (\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\s*$/;

/** True for a session header line. */
export function isHeader(line: string): boolean {
  return HEADER.test(line);
}

const HEADER_TEXT = "# aider chat started at ";
const STAMP = /(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\s*$/;

/**
 * True for a session header with a byte or two damaged (a flipped byte, an
 * invalid UTF-8 sequence read as U+FFFD): its first 24 characters differ from
 * `# aider chat started at ` in at most two places, or it is a `#` line
 * ending in the header's time stamp. Such a line still starts a session.
 */
export function isDamagedHeader(line: string): boolean {
  if (isHeader(line)) return false;
  let diff = 0;
  for (let i = 0; i < HEADER_TEXT.length; i++) if (line[i] !== HEADER_TEXT[i]) diff++;
  if (diff <= 2 && line.length <= HEADER_TEXT.length + 24) return true;
  return line.startsWith("#") && line.length <= HEADER_TEXT.length + 24 && STAMP.test(line);
}

/** The time of a damaged header, when its time stamp survived ({@link headerMillis}). */
export function damagedHeaderMillis(line: string, tz?: string): number | undefined {
  const m = STAMP.exec(line);
  return m ? headerMillis(`${HEADER_TEXT}${m[0].trim()}`, tz) : undefined;
}

/**
 * Reads a session header's wall-clock time as local time and returns epoch
 * ms. The zone is `tz` (an IANA name, from the `TZ` variable) when it is one
 * the runtime knows, else the runtime's own zone.
 */
export function headerMillis(line: string, tz?: string): number | undefined {
  const m = HEADER.exec(line);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const zoned = tz ? zonedMillis(tz, y, mo, d, h, mi, s) : undefined;
  if (zoned !== undefined) return zoned;
  const ms = new Date(y, mo - 1, d, h, mi, s).getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

/** Wall-clock time in zone `tz` -> epoch ms, or undefined when `tz` is not a zone name. */
function zonedMillis(
  tz: string,
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
): number | undefined {
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat("en-US", {
      timeZone: tz.replace(/^:/, ""),
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  } catch {
    return undefined;
  }
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const offset = (t: number) => {
    const p = Object.fromEntries(fmt.formatToParts(t).map((x) => [x.type, x.value]));
    const asUtc = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
    return asUtc - Math.floor(t / 1000) * 1000;
  };
  let t = wall - offset(wall);
  t = wall - offset(t); // second pass settles times next to a DST change
  return t;
}

/** One prompt of `.aider.input.history`: its local-time stamp read as epoch ms, and its text. */
export interface InputEntry {
  time?: number;
  text: string;
}

/** `# YYYY-MM-DD HH:MM:SS[.ffffff]`: an input-history entry's stamp (prompt_toolkit's `FileHistory`). */
const INPUT_STAMP = /^# (\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?\s*$/;

/**
 * Reads `.aider.input.history`: entries `# <local time>` followed by the
 * prompt's lines, each prefixed `+` (realdata/aider, aider 0.86.1; the file
 * prompt_toolkit's `FileHistory` writes). Times are local wall-clock time,
 * read in zone `tz` like the chat header ({@link headerMillis}). Lines trimmed
 * at the end; the text trimmed.
 */
export function inputHistory(text: string, tz?: string): InputEntry[] {
  const out: InputEntry[] = [];
  let cur: { time?: number; lines: string[] } | undefined;
  const done = () => {
    if (cur) out.push({ time: cur.time, text: cur.lines.join("\n").trim() });
  };
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const m = INPUT_STAMP.exec(line);
    if (m) {
      done();
      const [y, mo, d, h, mi, s] = m.slice(1, 7);
      const sec = headerMillis(`${HEADER_TEXT}${y}-${mo}-${d} ${h}:${mi}:${s}`, tz);
      const frac = m[7] ? Math.floor(Number(m[7].padEnd(6, "0")) / 1000) : 0;
      cur = { time: sec === undefined ? undefined : sec + frac, lines: [] };
    } else if (cur && line.startsWith("+")) cur.lines.push(line.slice(1).trimEnd());
  }
  done();
  return out;
}

/**
 * Dates the typed prompts of one session from the input history: each user
 * event takes the time of the next entry (from `from`, not older than the
 * session's start) with the same text, and the events after it, up to the
 * next dated prompt, take that time too (an unmatched prompt among them
 * included); events before the first dated prompt keep the session start, or
 * `carried`, the time in force where an earlier part of the session ended.
 * Returns the index of the entry after the last one used, and the time in force.
 */
export function datePrompts(
  events: { kind: string; text: string; time?: number }[],
  entries: InputEntry[],
  from: number,
  started: number | undefined,
  carried?: number,
): { at: number; now: number | undefined } {
  let at = from;
  let now: number | undefined = carried;
  for (const ev of events) {
    if (ev.kind === "user") {
      const text = ev.text.split("\n").map((l) => l.trimEnd()).join("\n").trim();
      const i = entries.findIndex((e, k) =>
        k >= at && e.text === text && e.time !== undefined &&
        (started === undefined || e.time >= started - 1000)
      );
      if (i >= 0) {
        now = entries[i].time;
        at = i + 1;
      }
    }
    if (now !== undefined) ev.time = now;
  }
  return { at, now };
}
