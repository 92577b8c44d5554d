/**
 * Files a shell command read: `cat f`, `sed -n 1,200p f`, `head`, `tail`, `nl`, `less`,
 * `more`, `bat`, PowerShell's `Get-Content` (`gc`, and `type` in a Windows project), so that
 * `blame` counts the reads of harnesses that read files only through their shell (Codex), or
 * sometimes do (Claude's Bash, Crush's bash, Gemini's run_shell_command; trial 130 F2).
 *
 * Rule: a command line is split as lib/memory/moves.ts splits it (`commands`: at `;`, `&&`,
 * `||`, `|` and line breaks, redirections left out). Each command whose program is a read verb
 * read the files it names: its words that are not options or an option's value (`head -n 50
 * f`), nor `sed`'s script; a `sed` with `-i` edits and reads nothing here. Any other command
 * reads nothing, whatever it names (`git add f`, `rm f`, `echo f`). A word that may stand for
 * other text (a glob, a variable, `~`) names nothing. A `cd` (`Set-Location`, `pushd`) to a
 * folder named plainly is followed; after any other the reading stops. Relative names resolve
 * against the session's project, the folder the harness ran commands in unless a `cd` or a
 * work directory the store does not keep in the commands table said otherwise; in a Windows
 * project a backslash is a separator, not an escape. The programs that run the command after
 * their options (`sudo`, `env X=1`, `timeout 5`, `nice`, `time`, `command`, `nohup`) are left
 * aside. The command line a shell wrapper runs (`bash -c '…'`, `sh -lc "…"`, `pwsh -c '…'`,
 * `powershell.exe -Command "…"`, `cmd /c …`) is read as a command line of its own, two wrappers
 * deep at most, its `cd`s kept inside it; a PowerShell or cmd one keeps its backslashes as
 * separators wherever it runs, a bash one follows bash's quoting. A wrapper given a script file
 * or an option not known here reads nothing.
 *
 * Read at query time from the `commands` table: no index is read again for it.
 *
 * @module
 */
import { join } from "node:path";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import type { FileAtRow } from "../rows.ts";
import { isAbsoluteAny, isWindowsDrivePath } from "../../core/paths.ts";
import { absoluteTarget } from "./paths.ts";
import { commands } from "./moves.ts";
import { outcomeOf, runFacts } from "./outcome.ts";

/** A word that may stand for other text than itself (a glob, a variable, a `~`). */
const NOT_LITERAL = /[*?[\]$`~{}]/;

/** The read verbs and the options of each that take a value (the next word, when apart). */
const READERS: Record<string, ReadonlySet<string>> = {
  cat: new Set(),
  head: new Set(["-n", "-c", "--lines", "--bytes"]),
  tail: new Set(["-n", "-c", "--lines", "--bytes", "-s", "--sleep-interval", "--pid"]),
  nl: new Set(["-b", "-d", "-f", "-h", "-i", "-l", "-n", "-s", "-v", "-w"]),
  less: new Set(["-b", "-h", "-j", "-k", "-o", "-O", "-p", "-P", "-t", "-T", "-x", "-y", "-z"]),
  more: new Set(["-n"]),
  bat: new Set([
    "-l",
    "--language",
    "-r",
    "--line-range",
    "-H",
    "--highlight-line",
    "-m",
    "--map-syntax",
    "--style",
    "--theme",
    "--paging",
    "--color",
    "--decorations",
    "--tabs",
    "--wrap",
    "--terminal-width",
    "--file-name",
    "--pager",
  ]),
  sed: new Set(["-e", "--expression", "-f", "--file", "-l", "--line-length"]),
};
READERS.batcat = READERS.bat;

/** PowerShell's `Get-Content` options that take a value (named lower-case: they ignore case). */
const GET_CONTENT = new Set([
  "-totalcount",
  "-head",
  "-first",
  "-tail",
  "-last",
  "-readcount",
  "-encoding",
  "-delimiter",
  "-filter",
  "-include",
  "-exclude",
  "-stream",
  "-credential",
]);
/** PowerShell's options whose value is the file. */
const PATH_OPTIONS = new Set(["-path", "-literalpath", "-lp", "-pspath"]);

/** The folder changers whose one plain argument is followed. */
const CD = new Set(["cd", "pushd", "chdir", "set-location", "sl", "push-location"]);

/** The files `words` (one command) read, as written; empty when its program reads none. */
function readNames(words: readonly string[], windows: boolean): string[] {
  const verb = words[0];
  const lower = verb.toLowerCase();
  const args = words.slice(1);
  const names: string[] = [];
  if (lower === "get-content" || lower === "gc" || (windows && lower === "type")) {
    for (let i = 0; i < args.length; i++) {
      const w = args[i].toLowerCase();
      if (PATH_OPTIONS.has(w)) names.push(args[++i] ?? "");
      else if (GET_CONTENT.has(w)) i++;
      else if (!w.startsWith("-") || w === "-") names.push(args[i]);
    }
    return names;
  }
  // In a Windows project `cat` may be PowerShell's `Get-Content`, whose `-Path` names the file.
  const takes = READERS[verb];
  if (!takes) return names;
  const sed = verb === "sed";
  let script = !sed;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w === "--") {
      names.push(...args.slice(i + 1));
      break;
    }
    if (w.startsWith("-") && w !== "-") {
      // In place: it changed the file, which the edit tools' rows say when they do.
      if (sed && (w === "--in-place" || w.startsWith("--in-place=") || /^-[^-]*i/.test(w))) {
        return [];
      }
      if (sed && /^(-e|--expression|-f|--file)/.test(w)) script = true;
      if (takes.has(w) || (windows && PATH_OPTIONS.has(w.toLowerCase()))) i++;
      continue;
    }
    if (!script) {
      script = true;
      continue;
    }
    names.push(w);
  }
  return names;
}

/** PowerShell's options that take a value, before its `-Command` (lower-case). */
const PS_VALUE = new Set(["-executionpolicy", "-ep", "-ex", "-windowstyle", "-w"]);
/** PowerShell's options without a value, before its `-Command` (lower-case). */
const PS_FLAG = new Set([
  "-noprofile",
  "-nop",
  "-noninteractive",
  "-noni",
  "-nologo",
  "-mta",
  "-sta",
]);
/** Shell options without a value, before a `-c` (`bash -l -c …`). */
const SH_FLAG = /^(?:-[eilx]+|--login|--noprofile|--norc)$/;

/** A program's name without its folder and `.exe`, lower-case (`C:\…\powershell.exe`). */
function programOf(word: string): string {
  return word.replace(/^.*[\\/]/, "").toLowerCase().replace(/\.exe$/, "");
}

/** The wrappers whose command line is Windows': a backslash in it is a separator (F8). */
const WINDOWS_SHELLS = new Set(["pwsh", "powershell", "cmd"]);

/**
 * The command line a shell wrapper runs (`bash -c '…'`, `sh -lc "…"`, `pwsh -c '…'`,
 * `powershell.exe -NoProfile -Command "…"`, `cmd /c …`), and whether it is Windows' (PowerShell's
 * or cmd's: backslashes are separators, `type` reads); undefined for any other command, and for a
 * wrapper given options this does not know (narrowly: trial 132 F6).
 */
function wrapped(words: readonly string[]): { line: string; windows: boolean } | undefined {
  const prog = programOf(words[0]);
  if (prog === "bash" || prog === "sh" || prog === "zsh") {
    for (let i = 1; i < words.length - 1; i++) {
      if (/^-[eilx]*c[eilx]*$/.test(words[i])) {
        return { line: words[i + 1], windows: false };
      }
      if (!SH_FLAG.test(words[i])) return undefined;
    }
    return undefined;
  }
  if (prog === "cmd") {
    // `cmd /c type f` (trial 133 F11): what follows `/c` (`/k`) is the command, its words joined.
    for (let i = 1; i < words.length - 1; i++) {
      const w = words[i].toLowerCase();
      if (w === "/c" || w === "/k") return { line: words.slice(i + 1).join(" "), windows: true };
      if (!/^\/(?:[sqd]|[aueftv](?::\w+)?)$/.test(w)) return undefined;
    }
    return undefined;
  }
  if (prog !== "pwsh" && prog !== "powershell") return undefined;
  for (let i = 1; i < words.length - 1; i++) {
    const w = words[i].toLowerCase();
    // What follows `-Command` is the command, its words joined as PowerShell joins them.
    if (w === "-c" || w === "-command") {
      return { line: words.slice(i + 1).join(" "), windows: true };
    }
    if (PS_VALUE.has(w)) i++;
    else if (!PS_FLAG.has(w)) return undefined;
  }
  return undefined;
}

/**
 * The programs run another command given after their options (`timeout 5 cat f`, `sudo -u u
 * cat f`: trial 133 F11): of each, the options that take a value, the words it takes before the
 * command (`timeout`'s duration), and the options after which it runs none (`command -v`).
 */
const PREFIXES: Record<string, { value: ReadonlySet<string>; args?: number; none?: RegExp }> = {
  sudo: {
    value: new Set(["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"]),
    none: /^-[^-]*[elvVK]|^--(?:edit|list|validate|version|help)/,
  },
  env: { value: new Set(["-u", "--unset", "-S"]), none: /^-[^-]*[CS]|^--(?:chdir|split)/ },
  timeout: { value: new Set(["-s", "--signal", "-k", "--kill-after"]), args: 1 },
  nice: { value: new Set(["-n", "--adjustment"]) },
  nohup: { value: new Set() },
  command: { value: new Set(), none: /^-[^-]*[vV]/ },
  time: { value: new Set(["-f", "--format", "-o", "--output"]) },
};

/**
 * `words` without the programs before the one that runs (`env X=1`, `sudo`, `timeout 5`, `nice
 * -n 5`, `command`, `time`, `nohup`, and `X=1` assignments): empty when one of them runs none.
 */
function unprefixed(words: string[]): string[] {
  for (;;) {
    if (words.length && /^[A-Za-z_]\w*=/.test(words[0])) {
      words = words.slice(1);
      continue;
    }
    const p = words.length ? PREFIXES[words[0]] : undefined;
    if (!p) return words;
    let i = 1;
    for (; i < words.length && words[i].startsWith("-"); i++) {
      const w = words[i];
      if (w === "--") {
        i++;
        break;
      }
      if (p.none?.test(w)) return [];
      if (p.value.has(w)) i++;
    }
    words = words.slice(i + (p.args ?? 0));
  }
}

/**
 * The files command line `line` read (see the module rule), whole when `project` (the folder
 * it ran in) is absolute, else as written (joined to a `cd`'s folder). The command line a shell
 * wrapper runs (`bash -c '…'`, `powershell.exe -Command "…"`: {@link wrapped}) is read as a
 * command line of its own, in the folder the wrapper ran in (trial 132 F6).
 *
 * @example shellReadPaths("cd src && sed -n 1,80p app.py | nl", "/w/p") // ["/w/p/src/app.py"]
 */
export function shellReadPaths(line: string, project: string | null): string[] {
  const windows = project !== null && isWindowsDrivePath(project);
  const out: string[] = [];
  readsOf(
    line,
    windows,
    {
      base: project && isAbsoluteAny(project) ? project : undefined,
      dir: "",
    },
    out,
    0,
  );
  return out;
}

/** Where relative names resolve: `base` when the project is absolute, else a `cd`'s `dir`. */
interface Place {
  base: string | undefined;
  dir: string;
}

/** How many wrappers deep a command line is read: one inside another, no more (F11). */
const WRAPPERS_DEEP = 2;

/**
 * Adds the files `line` read to `out` ({@link shellReadPaths}); `place` moves with its `cd`s.
 * `windows`: the line is PowerShell's or cmd's (a Windows project's, or such a wrapper's), where
 * a backslash is a separator; `depth`: how many wrappers it is inside.
 */
function readsOf(line: string, windows: boolean, place: Place, out: string[], depth: number) {
  const at = (p: string) =>
    place.base
      ? absoluteTarget(p, place.base)
      : place.dir && !isAbsoluteAny(p)
      ? join(place.dir, p)
      : p;
  const split = commands(line, windows);
  // A PowerShell or cmd command run from another shell keeps its backslashes (trial 133 F8:
  // `powershell -Command Get-Content C:\Users\me\a.txt`): it is split again, them kept.
  const kept = windows ? split : commands(line, true);
  for (let [n, words] of split.entries()) {
    if (kept !== split && kept.length === split.length) {
      const w = unprefixed(kept[n]);
      if (w.length && WINDOWS_SHELLS.has(programOf(w[0]))) words = kept[n];
    }
    words = unprefixed(words);
    if (!words.length) continue;
    // A wrapper's own `cd`s stay inside it.
    const inner = depth < WRAPPERS_DEEP ? wrapped(words) : undefined;
    if (inner) {
      readsOf(inner.line, inner.windows, { ...place }, out, depth + 1);
      continue;
    }
    if (CD.has(words[0].toLowerCase())) {
      const to = words.slice(1).filter((w) => w !== "--" && !PATH_OPTIONS.has(w.toLowerCase()));
      if (to.length !== 1 || to[0] === "-" || to[0].startsWith("-") || NOT_LITERAL.test(to[0])) {
        return;
      }
      if (place.base) place.base = absoluteTarget(to[0], place.base);
      else place.dir = at(to[0]);
      continue;
    }
    for (const name of readNames(words, windows)) {
      if (name && name !== "-" && !NOT_LITERAL.test(name)) out.push(at(name));
    }
  }
}

/**
 * `files` rows for the reads of shell commands of any session that name `name` (a file name),
 * marked `shell`: the command's event and place, those of runs that failed left out
 * (lib/memory/outcome.ts), row ids below zero (no `files` row holds them).
 */
export function shellReadRows(store: Store, name: string): Array<FileAtRow & { shell: true }> {
  const like = "%" + name.replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
  const out: Array<FileAtRow & { shell: true }> = [];
  const wanted = name.toLowerCase();
  for (const r of Q.commandsNaming.all(store, { like })) {
    const paths = shellReadPaths(r.command, r.project).filter((p) =>
      (p.split(/[\\/]/).at(-1) ?? "").toLowerCase() === wanted
    );
    if (!paths.length) continue;
    // A shell read that failed read nothing: no file of that name, or a folder (trial 135 F3:
    // after a failed `cat src/util`, `blame src/util` listed it as a file and named none of the
    // files under the folder).
    if (outcomeOf(runFacts(r)) === "failed") continue;
    const failed = 0;
    for (const path of new Set(paths)) {
      out.push({
        id: -r.event_id,
        event_id: r.event_id,
        session_id: r.session_id,
        call_id: r.call_id,
        path,
        op: "read",
        old: null,
        new: null,
        failed,
        time: r.time,
        seq: r.seq,
        shell: true,
      });
    }
  }
  return out;
}

/**
 * The files shell commands read ({@link shellReadPaths}) that may lie under a folder named
 * `name` (its last part): of the commands whose text or whose session's project holds the
 * name, with their session's row id (`blame` of a folder, lib/memory/paths.ts `filesUnder`:
 * trial 132 F5).
 */
export function shellReadsIn(store: Store, name: string): Array<{ path: string; session: number }> {
  const like = "%" + name.replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
  const out: Array<{ path: string; session: number }> = [];
  for (const r of Q.commandsNamingOrIn.all(store, { like })) {
    for (const path of new Set(shellReadPaths(r.command, r.project))) {
      out.push({ path, session: r.session });
    }
  }
  return out;
}
