/**
 * What a shell command did to files it names: removed them (`rm`, `git rm`) or moved them
 * (`mv`, `git mv`). A digest's "Files changed" says so of a file the session wrote and then
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
import { basename, isAbsolute, join } from "node:path";
import { absoluteTarget } from "./paths.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { outcomeOf, runFacts } from "./outcome.ts";

/** Files a command removed and moved, their paths as typed. */
export interface FileMoves {
  removed: string[];
  /** `[from, to]`, `to` the file's new path (a folder given as the target is joined with its name). */
  moved: Array<[string, string]>;
}

/** The commands of `line`, each as its words. */
function commands(line: string): string[][] {
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
      else if (ch === "\\" && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      open = true;
    } else if (ch === "\\" && i + 1 < line.length) {
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
    if (!gone && verb !== "mv") continue;
    const args = words.slice(git ? 2 : 1);
    const names = args.filter((w) => !w.startsWith("-") && w !== "");
    // A removal's `*` and `?` globs are told against the files the session changed.
    if (names.some((w) => NOT_LITERAL.test(w) && !(gone && STAR_GLOB.test(w)))) continue;
    if (gone) out.removed.push(...names.map(at));
    else if (names.length === 2) {
      const [from, to] = names;
      out.moved.push([at(from), at(to.endsWith("/") ? join(to, basename(from)) : to)]);
    } else if (names.length > 2) {
      const to = names.at(-1)!;
      for (const from of names.slice(0, -1)) {
        out.moved.push([at(from), at(join(to, basename(from)))]);
      }
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
 * The commands of session `sid` that did not fail and may remove or move files (`rm`, `mv`,
 * `unlink`), and its patches that did not fail and renamed or deleted files, in order: one read
 * of the session's commands for every question asked of them.
 */
export function moveCommands(store: Store, sid: number): MoveCommand[] {
  const out: MoveCommand[] = [];
  for (const r of Q.moveCommandsInOrder.iterate(store, { session: sid })) {
    if (!/\b(?:rm|mv|unlink)\b/.test(r.command) || outcomeOf(runFacts(r)) === "failed") continue;
    out.push({ seq: r.seq, command: r.command, moves: fileMoves(r.command) });
  }
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
  for (const r of rows) {
    const { removed, moved } = r.moves;
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
      }
    }
  }
  for (const [k, now] of at) {
    if (now === null) out.set(k, { removed: true });
    else if (now !== from.get(k)) out.set(k, { moved_to: typed.get(k)! });
  }
  return out;
}
