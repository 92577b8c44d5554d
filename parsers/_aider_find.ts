/**
 * Where aider's chat histories are when nothing names them: a bounded search
 * of the folders people keep projects in. aider writes `.aider.chat.history.md`
 * in the git root of the repository it runs in, or in the folder it runs in
 * outside one (aider's `args.py`, `--chat-history-file` default), and keeps no
 * list of the folders it ran in (`~/.aider/` holds `analytics.json`,
 * `installs.json`, `caches/`, `oauth-keys.env`: no paths of repositories).
 * Read-only: it lists folders and never opens a file.
 *
 * @module
 */
import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";

/** The folders under the home directory searched besides the home itself, when present. */
export const PROJECT_ROOTS: readonly string[] = [
  "src",
  "code",
  "projects",
  "work",
  "dev",
  "repos",
  "git",
  "Documents",
  "Desktop",
];

/** How many levels below each root the search descends (the root is level 0). */
export const MAX_DEPTH = 3;

/** How many folders the search visits at most, over every root (nearest levels first). */
export const MAX_DIRS = 2000;

/** How many of the folders visited the stat pass watches at most ({@link HistorySearch.dirs}). */
export const MAX_WATCH = 128;

/**
 * Folder names never entered: hidden ones (a `.` first) too. Dependencies
 * (`node_modules`, `vendor`), and the trees of application data an OS keeps in
 * the home (`Library`, `AppData`, `snap`), and `Downloads`, which changes with
 * every download and would make the stat pass rediscover aider all the time.
 */
const SKIP: ReadonlySet<string> = new Set([
  "node_modules",
  "vendor",
  "Library",
  "AppData",
  "snap",
  "Downloads",
  "__pycache__",
]);

/** What {@link findHistories} found. */
export interface HistorySearch {
  /** Absolute paths of the files named `name` found (not checked to be regular files). */
  files: string[];
  /**
   * The folders visited that the stat pass should watch (a new file changes
   * its folder's mtime): those above the last level, where new projects appear,
   * and every repository's root, where aider writes. A plain folder on the last
   * level is not watched: there are many, and aider seldom runs outside a
   * repository (it offers to make one). At most {@link MAX_WATCH}: the roots
   * first (a new project changes its parent's mtime), then the repositories'
   * roots, then the nearest levels; each costs the no-op `deja index` a stat. A history new in a folder not watched is found by the
   * next `deja index` that reads anything.
   */
  dirs: string[];
  /** True when the search stopped at {@link MAX_DIRS} folders. */
  capped: boolean;
}

/**
 * Searches `roots` (absolute folders; missing ones are passed over) breadth
 * first for files called `name`, down to {@link MAX_DEPTH} levels, visiting at
 * most `maxDirs` folders ({@link MAX_DIRS}). A folder holding `.git` is a repository's
 * root: the file is looked for there and its inside is not entered (aider
 * writes the file in the git root, wherever in the tree it ran). Hidden
 * folders and {@link SKIP} are not entered; links to folders are followed,
 * each real folder visited once (a link back up the tree is no loop).
 * Folders that cannot be read are passed over silently: a guess at where
 * projects are is no store deja failed to read. Nor are the folders of `avoid`
 * entered (links to them neither): deja's own data folder, whose mtime changes each time a search opens the
 * index (its `-wal` made and removed), so that watched it made every search after
 * discover aider again and never settle (`DEJA_HOME=~/deja`).
 */
export function findHistories(
  roots: readonly string[],
  name: string,
  maxDirs = MAX_DIRS,
  avoid: readonly string[] = [],
): HistorySearch {
  const shun = new Set(avoid.map(realDir).filter((d) => d !== undefined));
  const files: string[] = [];
  const top: string[] = [];
  const repos: string[] = [];
  const upper: string[] = [];
  const seen = new Set<string>();
  // [path, its real path, level]
  let level: Array<[string, string, number]> = [];
  for (const r of roots) {
    const real = realDir(r);
    if (real) level.push([r, real, 0]);
  }
  let capped = false;
  while (level.length) {
    const next: Array<[string, string, number]> = [];
    for (const [dir, real, depth] of level) {
      if (seen.has(real) || shun.has(real)) continue;
      if (seen.size >= maxDirs) {
        capped = true;
        break;
      }
      seen.add(real);
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      const names = new Set(entries.map((e) => e.name));
      if (names.has(name)) files.push(join(dir, name));
      if (depth === 0) top.push(dir);
      else if (names.has(".git")) repos.push(dir);
      else if (depth < MAX_DEPTH) upper.push(dir);
      if (depth >= MAX_DEPTH || names.has(".git")) continue;
      for (const e of entries) {
        if (e.name.startsWith(".") || SKIP.has(e.name)) continue;
        const p = join(dir, e.name);
        if (e.isDirectory()) next.push([p, join(real, e.name), depth + 1]);
        else if (e.isSymbolicLink()) {
          const target = realDir(p);
          if (target) next.push([p, target, depth + 1]);
        }
      }
    }
    if (capped) break;
    next.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    level = next;
  }
  return { files, dirs: [...top, ...repos, ...upper].slice(0, MAX_WATCH), capped };
}

/** The real path of `path` when it is a folder (links followed); undefined otherwise. */
function realDir(path: string): string | undefined {
  try {
    return statSync(path).isDirectory() ? realpathSync(path) : undefined;
  } catch {
    return undefined;
  }
}
