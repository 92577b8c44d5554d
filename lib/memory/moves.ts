/**
 * What a shell command did to files it names: removed them (`rm`, `git rm`) or moved them
 * (`mv`, `git mv`), or copied them (`cp`: ./renames.ts follows a copy's history back). A digest's "Files changed" says so of a file the session wrote and then
 * removed or moved (trial 46: Crush a4217d5a listed `backend-image-update-automation.yaml
 * (1 write)` that the session then deleted with `rm`).
 *
 * Read as a person reads the command line, not run: words split as a POSIX shell splits
 * them (quotes, backslashes), commands apart at `;`, `&&`, `||`, `|` and line breaks. A word
 * with a variable or a brace in it names no file that can be told, nor does a glob but a
 * removal's `*` and `?` ({@link globNames}); a `cd` to a folder named plainly is followed,
 * and after any other (`cd`, `cd -`, `cd $X`) the relative paths that follow are in a folder
 * not known, so the reading stops there. `unlink` removes as `rm` does.
 *
 * @module
 */
import { statSync } from "node:fs";
import { basename, isAbsolute, join } from "node:path";
import { absoluteTarget } from "./paths.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { failureLine, outcomeOf, runFacts } from "./outcome.ts";

/** Files a command removed and moved, their paths as typed. */
export interface FileMoves {
  removed: string[];
  /** `[from, to]`, `to` the file's new path (a folder given as the target is joined with its name). */
  moved: Array<[string, string]>;
  /**
   * `[from, to]` of a two-name `mv` whose `to` the line does not say is a folder (`mv x.py
   * lib`): the file's new name, or a folder it went into keeping its name, as the disk had it
   * then ({@link movesAfter} asks the disk as it is now). Absent when there is none.
   */
  unsure?: Array<[string, string]>;
  /**
   * The files a `cp` copied, `to` read as `moved`'s is (`unsure` as above), and `after`, how
   * many of `moved` came before it in the line: the copy's content is the file `from` had
   * then, and `from` stays (a file made by `cp src dst` was "no session touched" for blame).
   * Absent when there is none.
   */
  copied?: Array<{ from: string; to: string; after: number; unsure?: true }>;
}

/** A target the line itself says is a folder: `.`, `..`, or ending in `/`, `/.` or `/..`. */
function saysFolder(to: string): boolean {
  return to === "." || to === ".." || /\/(?:\.\.?)?$/.test(to);
}

/**
 * The names of an `mv` or `git mv` and its target folder (`-t DIR`, `--target-directory`),
 * options aside; `file` when `-T` says the target is a file, `dryRun` for `git mv -n`
 * (trial 97 F2: `mv -t lib q8.py` was read as renaming `lib` to `q8.py`).
 */
function moveArgs(args: readonly string[], git: boolean) {
  const names: string[] = [];
  let into: string | undefined;
  let file = false;
  let dryRun = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w === "--") {
      names.push(...args.slice(i + 1));
      break;
    }
    if (!w.startsWith("-") || w === "-") names.push(w);
    else if (w === "-t" || w === "--target-directory") into = args[++i];
    else if (w.startsWith("--target-directory=")) into = w.slice(19);
    else if (w === "-S" || w === "--suffix") i++;
    else if (w === "-T" || w === "--no-target-directory") file = true;
    else if (git && (w === "-n" || w === "--dry-run")) dryRun = true;
    else if (!w.startsWith("--") && w.includes("t")) {
      into = w.slice(w.indexOf("t") + 1) || args[++i];
    } else if (!w.startsWith("--") && w.includes("T")) file = true;
  }
  return { names: names.filter((w) => w !== ""), into, file, dryRun };
}

/**
 * The commands of `line`, each as its words. `literalBackslash`: a backslash is a character
 * of the word, as PowerShell and cmd read it (`src\app\crew.py`), not an escape.
 */
export function commands(line: string, literalBackslash = false): string[][] {
  const out: string[][] = [];
  let words: string[] = [];
  let word = "";
  let open = false;
  let quote: string | null = null;
  const endWord = () => {
    if (open) words.push(word);
    word = "";
    open = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length) out.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = null;
      // In double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and a line break; it is
      // itself elsewhere (trial 133 F8: `"Get-Content 'C:\Users\me\a.txt'"` lost its separators).
      else if (
        ch === "\\" && quote === '"' && !literalBackslash && /[$`"\\\n]/.test(line[i + 1] ?? "")
      ) {
        word += line[++i];
      } else word += ch;
      continue;
    }
    if (ch === ">" || ch === "<" || (ch === "&" && line[i + 1] === ">")) {
      // A redirection is no word of the command (trial 110 F1: `mv a.py b.py 2>&1` moved
      // a.py into a folder `2>`, its `&` read as the end of the command): its file descriptor
      // (`2>`), the operator (`>`, `>>`, `&>`, `>&1`, `<`) and its target are left out.
      if (/^\d+$/.test(word)) {
        word = "";
        open = false;
      } else endWord();
      if (ch === "&") i++;
      while (line[i + 1] === ">" || line[i + 1] === "<") i++;
      if (line[i + 1] === "&") {
        i++;
        while (/[\d-]/.test(line[i + 1] ?? "")) i++;
        continue;
      }
      while (line[i + 1] === " " || line[i + 1] === "\t") i++;
      let q: string | null = null;
      for (; i + 1 < line.length; i++) {
        const c = line[i + 1];
        if (q) {
          if (c === q) q = null;
        } else if (c === "'" || c === '"') q = c;
        else if (/[\s;&|<>]/.test(c)) break;
      }
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      open = true;
    } else if (ch === "\\" && !literalBackslash && i + 1 < line.length) {
      word += line[++i];
      open = true;
    } else if (ch === "\n" || ch === ";" || ch === "&" || ch === "|") endCommand();
    else if (/\s/.test(ch)) endWord();
    else {
      word += ch;
      open = true;
    }
  }
  endCommand();
  return out;
}

/** Whether a word may stand for other text than itself (a glob, a variable, a `~`). */
const NOT_LITERAL = /[*?[\]$`~{}]/;
/** A word whose only other text is a `*` or `?` glob (`rm *.log`): told against known files. */
const STAR_GLOB = /^[^[\]$`~{}]*[*?][^[\]$`~{}]*$/;

/**
 * Whether the whole path `path` is named by `pattern` (made whole the same way), a glob of
 * `*` and `?` within one folder level, or lies inside a folder it names.
 */
export function globNames(pattern: string, path: string): boolean {
  const re = pattern.replace(/[.+^()|\\]/g, "\\$&").replaceAll("*", "[^/]*").replaceAll(
    "?",
    "[^/]",
  );
  return new RegExp(`^${re}(?:/.*)?$`).test(path);
}

/**
 * The files `command` removes and moves (see the module doc); empty lists for any other
 * command.
 *
 * @example fileMoves("git rm -q old.ts && mv a.txt docs/") // removed [old.ts], moved [[a.txt, docs/a.txt]]
 */
export function fileMoves(command: string): FileMoves {
  const out: FileMoves = { removed: [], moved: [] };
  /** The folder a `cd` went to, relative to where the command started ("" for there). */
  let dir = "";
  const at = (p: string) => (dir && !isAbsolute(p) ? join(dir, p) : p);
  for (let words of commands(command)) {
    while (words.length && (words[0] === "sudo" || /^[A-Za-z_]\w*=/.test(words[0]))) {
      words = words.slice(1);
    }
    if (words[0] === "cd" || words[0] === "pushd") {
      // Followed to a folder it names plainly (trial 49: `cd sub && rm inner.txt`); `cd`, `cd -`
      // and `cd ~` go where the line does not say.
      const to = words.slice(1).filter((w) => w !== "--");
      if (to.length !== 1 || to[0] === "-" || to[0].startsWith("-") || NOT_LITERAL.test(to[0])) {
        break;
      }
      dir = at(to[0]);
      continue;
    }
    const git = words[0] === "git";
    const verb = git ? words[1] : words[0];
    const gone = verb === "rm" || (!git && verb === "unlink");
    const copy = !git && verb === "cp";
    if (!gone && !copy && verb !== "mv") continue;
    const args = words.slice(git ? 2 : 1);
    // `git rm --cached` only untracks: the file stays on disk (trial 97 F3).
    if (gone && git && args.includes("--cached")) continue;
    const move = gone ? undefined : moveArgs(args, git);
    if (move?.dryRun) continue;
    const names = move ? move.names : args.filter((w) => !w.startsWith("-") && w !== "");
    // A removal's `*` and `?` globs are told against the files the session changed.
    const told = move?.into === undefined ? names : [...names, move.into];
    if (told.some((w) => NOT_LITERAL.test(w) && !(gone && STAR_GLOB.test(w)))) continue;
    if (gone) {
      out.removed.push(...names.map(at));
      continue;
    }
    // A copy is read as a move is, its pairs kept apart: its source stays where it was.
    const after = out.moved.length;
    const sure = (from: string, to: string) =>
      copy ? (out.copied ??= []).push({ from, to, after }) : out.moved.push([from, to]);
    if (move?.into !== undefined) {
      for (const from of names) sure(at(from), at(join(move.into, basename(from))));
    } else if (names.length === 2) {
      // A target named as a folder keeps the file's name inside it (trial 97 F2: `cd lib && mv
      // ../r6.py .` was "moved later to lib"); a bare word may be either (`mv x.py lib`).
      const [from, to] = names;
      // A name with an extension (`mv b.py c.py`) is read as the file's new name.
      if (move?.file || /[^.]\.[^./]+$/.test(basename(to))) sure(at(from), at(to));
      else if (saysFolder(to)) sure(at(from), at(join(to, basename(from))));
      else if (copy) (out.copied ??= []).push({ from: at(from), to: at(to), after, unsure: true });
      else (out.unsure ??= []).push([at(from), at(to)]);
    } else if (names.length > 2) {
      const to = names.at(-1)!;
      for (const from of names.slice(0, -1)) sure(at(from), at(join(to, basename(from))));
    }
  }
  return out;
}

/**
 * `path` made absolute against `project` as `blame` makes a typed path (./paths.ts
 * `absoluteTarget`); undefined for a relative path without a POSIX project to read it in.
 */
export function resolvedIn(path: string, project: string | null): string | undefined {
  if (!isAbsolute(path) && !project?.startsWith("/")) return undefined;
  return absoluteTarget(path, project ?? "/");
}

/**
 * The files an `apply_patch` text removes (`*** Delete File: p`) and moves (`*** Update File:
 * a` then `*** Move to: b`), their paths as written (Codex's patch format, parsers/_patch.ts).
 */
export function patchMoves(patch: string): FileMoves {
  const out: FileMoves = { removed: [], moved: [] };
  let updated: string | null = null;
  for (const raw of patch.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const head = /^\*\*\* (Update|Delete|Add) File: (.+)$/.exec(line);
    if (head) {
      updated = head[1] === "Update" ? head[2].trim() : null;
      if (head[1] === "Delete") out.removed.push(head[2].trim());
      continue;
    }
    const to = /^\*\*\* Move to: (.+)$/.exec(line);
    if (to && updated !== null) out.moved.push([updated, to[1].trim()]);
  }
  return out;
}

/** The patch text a call's stored input holds (the input itself, or a string field of it). */
function patchIn(data: string): string | undefined {
  let input: unknown;
  try {
    input = JSON.parse(data);
  } catch {
    return undefined;
  }
  const texts = typeof input === "string"
    ? [input]
    : Object.values(input ?? {}).flatMap((v) => Array.isArray(v) ? v : [v]);
  return texts.find((t): t is string => typeof t === "string" && t.includes("*** Begin Patch"));
}

/**
 * The files the patches of session `sid` that did not fail deleted or renamed, each as
 * `seq path` (whole against `project`): the call recorded them as paths it read, which they
 * are not (trial 97 F8: a `*** Delete File:` and a `*** Move to:` counted as reads in blame).
 */
export function patchGone(store: Store, sid: number, project: string | null): Set<string> {
  const out = new Set<string>();
  for (const r of moveCommands(store, sid)) {
    if (!r.inCall) continue;
    for (const p of [...r.moves.removed, ...r.moves.moved.map(([from]) => from)]) {
      const whole = resolvedIn(p, project);
      if (whole) out.add(`${r.seq} ${whole}`);
    }
  }
  return out;
}

/**
 * A call's rendered text (lib/render.ts) with the paths its patch deleted or renamed said as
 * such, not as read: `delete /w/p/d.py`, `rename /w/p/a.py → /w/p/b.py` (trial 97 F8: `show`
 * printed a `*** Delete File:` as `read`). `text` itself for any other call.
 */
export function patchLabels(text: string, data: string | null, project: string | null): string {
  if (!data?.includes("*** Begin Patch") || !text.includes("read ")) return text;
  const patch = patchIn(data);
  if (!patch) return text;
  const m = patchMoves(patch);
  const whole = (p: string) => resolvedIn(p, project) ?? p;
  const gone = new Set(m.removed.map(whole));
  const renamed = new Map(m.moved.map(([from, to]) => [whole(from), whole(to)]));
  if (!gone.size && !renamed.size) return text;
  return text.split("\n").map((line) => {
    if (!line.startsWith("read ")) return line;
    const said: string[] = [];
    const read: string[] = [];
    for (const p of line.slice(5).split(" ")) {
      const to = renamed.get(whole(p));
      if (gone.has(whole(p))) said.push(`delete ${p}`);
      else if (to !== undefined) said.push(`rename ${p} → ${to}`);
      else read.push(p);
    }
    return [...said, ...(read.length ? [`read ${read.join(" ")}`] : [])].join("\n");
  }).join("\n");
}

/**
 * A call of a session that may remove or move files, its place in the session and what it
 * removes and moves: a command (`rm`, `mv`), or a patch (`inCall`: the call that moved a file
 * also read or edited it, so its move comes after its own change).
 */
export interface MoveCommand {
  seq: number;
  command: string;
  moves: FileMoves;
  inCall?: true;
}

/**
 * The commands of session `sid` that did not fail and may remove, move or copy files (`rm`,
 * `mv`, `unlink`, `cp`), and its patches that did not fail and renamed or deleted files, in order: one read
 * of the session's commands for every question asked of them.
 */
export function moveCommands(store: Store, sid: number): MoveCommand[] {
  const out: MoveCommand[] = [];
  for (const r of Q.moveCommandsInOrder.iterate(store, { session: sid })) {
    if (!/\b(?:rm|mv|unlink|cp)\b/.test(r.command) || outcomeOf(runFacts(r)) === "failed") {
      continue;
    }
    const moves = fileMoves(r.command);
    const none = !moves.removed.length && !moves.moved.length && !moves.unsure && !moves.copied;
    // Its output, where the store's status leaves it out (read only for a line that moves
    // something): a line that went on after the move exited 0 whatever the move did.
    const output = none ? null : r.output ??
      (r.call_id === null
        ? null
        : Q.resultTextForCall.get(store, { session: sid, call: r.call_id })?.text);
    out.push({ seq: r.seq, command: r.command, moves: notRefused(moves, output) });
  }
  // The person's own `!` commands (trial 106 F2): no exit recorded; one whose output reports
  // a failure (`mv: cannot move …`, the program's own prefix, or an error line) moved nothing.
  for (const r of Q.personMovesInOrder.iterate(store, { session: sid })) {
    if (!/\b(?:rm|mv|unlink|cp)\b/.test(r.command)) continue;
    if (/^(?:mv|rm|unlink|cp|git): /m.test(r.output ?? "") || failureLine(r.output) !== null) {
      continue;
    }
    out.push({ seq: r.seq, command: r.command, moves: fileMoves(r.command) });
  }
  if (out.some((o, i) => i && out[i - 1].seq > o.seq)) out.sort((a, b) => a.seq - b.seq);
  // A patch's `*** Move to:` and `*** Delete File:` (trial 94 F2, F3: Codex renamed and deleted
  // files that blame and the digest never heard of). Its input is stored up to MAX_DATA
  // (lib/prepare.ts): a longer patch's moves are not seen.
  const patches: MoveCommand[] = [];
  for (const r of Q.patchMovesInOrder.iterate(store, { session: sid })) {
    const patch = patchIn(r.data);
    if (patch) patches.push({ seq: r.seq, command: "", moves: patchMoves(patch), inCall: true });
  }
  if (!patches.length) return out;
  return [...out, ...patches].sort((a, b) => a.seq - b.seq);
}

/** What became of a file after a session's last change to it ({@link movesAfter}). */
export interface LaterMove {
  removed?: true;
  /** Its new path, as the last move typed it. */
  moved_to?: string;
  /**
   * `moved_to` is the target of an `mv` that may have been a folder the file went into
   * (`mv x.py lib` where nothing is at `lib` here now): its new name or the folder holding it,
   * which cannot be told (trial 97 F2).
   */
  unsure?: true;
}

/**
 * Where the file an `mv` of a bare target (`mv x.py lib`) moved is: inside `target` when it
 * is a folder here now, `target` itself when it is a file, undefined when nothing is there
 * (trial 97 F2: `mv q9.py lib` into a folder was "moved later to lib"). A folder moved or
 * copied (`source`, whole: a folder here now, or a name with no extension) to a folder that
 * holds nothing of its name became that folder (trial 108 F4: `cp -r lib lib2` was read as
 * making lib2/lib).
 */
export function unsureTarget(target: string, from: string, source?: string): string | undefined {
  try {
    const st = statSync(target, { throwIfNoEntry: false });
    if (st === undefined) return undefined;
    if (!st.isDirectory()) return target;
    const inside = join(target, basename(from));
    if (statSync(inside, { throwIfNoEntry: false }) !== undefined) return inside;
    const folder = source !== undefined &&
      (statSync(source, { throwIfNoEntry: false })?.isDirectory() ||
        !/[^.]\.[^./]+$/.test(basename(from)));
    return folder ? target : inside;
  } catch {
    return undefined;
  }
}

/** How a listing says where a file went: `to lib`, and where that may be a folder, so. */
export function movedWords(m: { moved_to?: string; unsure?: true }): string {
  return m.unsure
    ? `to ${m.moved_to}, or into a folder ${m.moved_to} (cannot tell which)`
    : `to ${m.moved_to}`;
}

/**
 * `moves` less what the command's output says a program of it refused (`mv: cannot move …`,
 * `cp: cannot stat …`, `rm: cannot remove …`): a line that went on after it (`mv a lib/; echo
 * done`) exits 0, and its move was read as made (trial 110 F2).
 */
function notRefused(moves: FileMoves, output: string | null | undefined): FileMoves {
  if (!output) return moves;
  const said = new Set([...output.matchAll(/^(mv|cp|rm|unlink): /gm)].map((m) => m[1]));
  if (!said.size) return moves;
  const out: FileMoves = {
    removed: said.has("rm") || said.has("unlink") ? [] : moves.removed,
    moved: said.has("mv") ? [] : moves.moved,
  };
  if (moves.unsure && !said.has("mv")) out.unsure = moves.unsure;
  if (moves.copied && !said.has("cp")) out.copied = moves.copied;
  return out;
}

/** {@link FileMoves} with its `unsure` moves told by the disk here ({@link unsureTarget}). */
export function toldMoves(moves: FileMoves, project: string | null): FileMoves {
  if (!moves.unsure && !moves.copied?.some((c) => c.unsure)) return moves;
  const out: FileMoves = { removed: moves.removed, moved: [...moves.moved] };
  /** The target as the disk tells it, or undefined when nothing is there. */
  const told = (from: string, to: string) => {
    const abs = resolvedIn(to, project);
    const now = abs === undefined ? undefined : unsureTarget(abs, from, resolvedIn(from, project));
    return now === undefined ? undefined : now === abs ? to : join(to, basename(from));
  };
  for (const [from, to] of moves.unsure ?? []) {
    const now = told(from, to);
    if (now === undefined) (out.unsure ??= []).push([from, to]);
    else out.moved.push([from, now]);
  }
  if (moves.copied) {
    out.copied = moves.copied.map((c) => {
      const now = c.unsure ? told(c.from, c.to) : c.to;
      return now === undefined ? c : { from: c.from, to: now, after: c.after };
    });
  }
  return out;
}

/**
 * The files of `lastChange` (path as recorded -> seq of the session's last change to it) that
 * a command of session `sid` that did not fail removed or moved after that change, followed
 * command by command (paths made whole against `project`): a file moved aside and back is
 * where it was (trial 47: `mv q.txt q.txt.old`, then back, was "moved later to q.txt.old").
 */
export function movesAfter(
  store: Store,
  sid: number,
  project: string | null,
  lastChange: ReadonlyMap<string, number>,
  rows: readonly MoveCommand[] = moveCommands(store, sid),
): Map<string, LaterMove> {
  const out = new Map<string, LaterMove>();
  /** Where each file is now: a whole path, or null once removed. */
  const at = new Map<string, string | null>();
  for (const path of lastChange.keys()) {
    const abs = resolvedIn(path, project);
    if (abs) at.set(path, abs);
  }
  if (!at.size) return out;
  const from = new Map(at);
  /** The last target a file was moved to, as typed. */
  const typed = new Map<string, string>();
  /** Files last moved where it cannot be told whether the target was a folder. */
  const unsure = new Set<string>();
  for (const r of rows) {
    const { removed, moved, unsure: either = [] } = toldMoves(r.moves, project);
    /** The files now at `p`, or inside a folder there, that changed last before this command. */
    const named = (p: string) => {
      const abs = resolvedIn(p, project);
      if (!abs) return [];
      const after = (k: string) =>
        r.seq > lastChange.get(k)! || (r.inCall === true && r.seq === lastChange.get(k));
      return [...at].filter(([k, now]) => now !== null && globNames(abs, now) && after(k))
        .map(([k, now]) => ({ k, rest: now!.slice(abs.length) }));
    };
    for (const p of removed) for (const { k } of named(p)) at.set(k, null);
    for (const [source, to] of moved) {
      const target = resolvedIn(to, project);
      if (!target) continue;
      for (const { k, rest } of named(source)) {
        at.set(k, target + rest);
        typed.set(k, rest ? join(to, rest) : to);
        unsure.delete(k);
      }
    }
    // Not followed further: where the file went is one of two places.
    for (const [source, to] of either) {
      for (const { k, rest } of named(source)) {
        at.set(k, `\0${to}`);
        typed.set(k, rest ? join(to, rest) : to);
        unsure.add(k);
      }
    }
  }
  for (const [k, now] of at) {
    if (now === null) out.set(k, { removed: true });
    else if (now !== from.get(k)) {
      out.set(k, { moved_to: typed.get(k)!, ...(unsure.has(k) ? { unsure: true as const } : {}) });
    }
  }
  return out;
}
