/**
 * What a shell command did to files it names: removed them (`rm`, `git rm`) or moved them
 * (`mv`, `git mv`). A digest's "Files changed" says so of a file the session wrote and then
 * removed or moved (trial 46: Crush a4217d5a listed `backend-image-update-automation.yaml
 * (1 write)` that the session then deleted with `rm`).
 *
 * Read as a person reads the command line, not run: words split as a POSIX shell splits
 * them (quotes, backslashes), commands apart at `;`, `&&`, `||`, `|` and line breaks. A word
 * with a glob or a variable in it names no file that can be told; after a `cd` the relative
 * paths that follow are in a folder not known, so the reading stops there.
 *
 * @module
 */
import { basename, isAbsolute, join } from "node:path";
import { absoluteTarget } from "./paths.ts";

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

/**
 * The files `command` removes and moves (see the module doc); empty lists for any other
 * command.
 *
 * @example fileMoves("git rm -q old.ts && mv a.txt docs/") // removed [old.ts], moved [[a.txt, docs/a.txt]]
 */
export function fileMoves(command: string): FileMoves {
  const out: FileMoves = { removed: [], moved: [] };
  for (let words of commands(command)) {
    while (words.length && (words[0] === "sudo" || /^[A-Za-z_]\w*=/.test(words[0]))) {
      words = words.slice(1);
    }
    if (words[0] === "cd" || words[0] === "pushd") break;
    const git = words[0] === "git";
    const verb = git ? words[1] : words[0];
    if (verb !== "rm" && verb !== "mv") continue;
    const args = words.slice(git ? 2 : 1);
    const names = args.filter((w) => !w.startsWith("-") && w !== "");
    if (names.some((w) => NOT_LITERAL.test(w))) continue;
    if (verb === "rm") out.removed.push(...names);
    else if (names.length === 2) {
      const [from, to] = names;
      out.moved.push([from, to.endsWith("/") ? join(to, basename(from)) : to]);
    } else if (names.length > 2) {
      const to = names.at(-1)!;
      for (const from of names.slice(0, -1)) out.moved.push([from, join(to, basename(from))]);
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
