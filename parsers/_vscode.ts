/**
 * Where VS Code and its forks keep per-user state, shared by every harness
 * that lives inside an editor (Cline, Roo Code, the Kilo Code extension,
 * Copilot Chat, Cursor).
 *
 * Each editor has one `User` directory:
 * - Linux and other Unix: `${XDG_CONFIG_HOME:-~/.config}/<App>/User`
 * - macOS: `~/Library/Application Support/<App>/User`
 * - Windows: `%APPDATA%\<App>\User` (`~/AppData/Roaming` when `APPDATA` is unset)
 *
 * Inside it, `globalStorage/<extension-id>/` is an extension's private
 * directory, `globalStorage/state.vscdb` the editor's global key-value store,
 * and `workspaceStorage/<hash>/` one directory per opened folder or workspace
 * with a `workspace.json` (`{"folder": "file:///…"}` or `{"workspace": …}`)
 * naming it. Facts from VS Code's `environmentService` layout as documented in
 * docs/registry/cursor.md and copilot_chat.md and observed in realdata/cursor (Cursor 1.1.6:
 * `workspace.json` is `{"folder": "file:///home/user/.config/hypr/conf"}`).
 *
 * @module
 */
import { join, win32 } from "node:path";
import type { Env } from "../core/model.ts";
import { expandHome, isWindowsDrivePath, overrideVar, xdgConfig } from "../core/paths.ts";
import { readJsonFile, readText, subdirs, type Unreadable } from "../core/fs.ts";
import { obj, str } from "./_util.ts";

/** Editors that share the VS Code storage layout, by their data-folder name. */
export const VSCODE_APPS: readonly string[] = [
  "Code",
  "Code - Insiders",
  "VSCodium",
  "Cursor",
  "Windsurf",
];

/** The `User` directory of editor `app` on `env.platform`. */
export function appUserDir(env: Env, app: string): string {
  if (env.platform === "darwin") {
    return join(env.home, "Library", "Application Support", app, "User");
  }
  if (env.platform === "win32") {
    const appData = env.get("APPDATA") ?? join(env.home, "AppData", "Roaming");
    return join(expandHome(env, appData), app, "User");
  }
  return join(xdgConfig(env), app, "User");
}

/** The `User` directories of `apps` (default: every known editor), existing or not. */
export function userDirs(env: Env, apps: readonly string[] = VSCODE_APPS): string[] {
  return apps.map((app) => appUserDir(env, app));
}

/**
 * The storage roots of harness `id`: `[DEJA_<ID>_ROOT]` when that is set,
 * else `defaults()`. Every editor harness treats its override as one
 * directory standing in for all of its usual roots.
 */
export function rootsOrOverride(env: Env, id: string, defaults: () => string[]): string[] {
  const o = env.get(overrideVar(id));
  return o ? [expandHome(env, o)] : defaults();
}

/** `globalStorage/<extensionId>` under every editor's `User` directory. */
export function extensionStorageDirs(
  env: Env,
  extensionId: string,
  apps: readonly string[] = VSCODE_APPS,
): string[] {
  return userDirs(env, apps).map((u) => join(u, "globalStorage", extensionId));
}

/** One `workspaceStorage/<hash>` directory and the folder it stands for. */
export interface WorkspaceDir {
  /** Absolute path of `workspaceStorage/<hash>`. */
  dir: string;
  /** The `<hash>` directory name. */
  hash: string;
  /** Absolute project directory from `workspace.json`, when it names a folder. */
  folder?: string;
}

/**
 * Lists `<userDir>/workspaceStorage/*` with the folder each names. A missing
 * directory yields nothing; an unreadable one is reported through `onError`,
 * and a `workspace.json` that exists but cannot be read (a FIFO, EACCES)
 * through `unreadable` (default: `onError`).
 */
export async function workspaceDirs(
  userDir: string,
  onError?: Unreadable,
  unreadable: Unreadable | undefined = onError,
): Promise<WorkspaceDir[]> {
  const base = join(userDir, "workspaceStorage");
  const names = await subdirs(base, onError);
  const out: WorkspaceDir[] = [];
  for (const hash of names) {
    const dir = join(base, hash);
    out.push({ dir, hash, folder: await workspaceFolder(dir, unreadable) });
  }
  return out;
}

/**
 * The project directory a `workspaceStorage/<hash>` stands for, read from its
 * `workspace.json`: `folder` is a folder URI; `workspace` (a `.code-workspace`
 * file URI, or an object with `configPath`) gives the directory holding it.
 * A `workspace.json` that exists but cannot be read goes to `report`.
 */
export async function workspaceFolder(
  dir: string,
  report?: Unreadable,
): Promise<string | undefined> {
  const ws = obj(await readJsonFile(join(dir, "workspace.json"), 1 << 20, report));
  if (!ws) return undefined;
  const folder = str(ws.folder);
  if (folder) return uriToPath(folder);
  const wsFile = str(ws.workspace) ?? str(obj(ws.workspace)?.configPath);
  const p = wsFile ? uriToPath(wsFile) : undefined;
  if (!p) return undefined;
  const cut = Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\"));
  return cut > 0 ? p.slice(0, cut) : p;
}

/**
 * A `file://` (or `vscode-remote://`) URI as an absolute path:
 * `file:///home/x/a%20b` -> `/home/x/a b`, `file:///c%3A/Users/x` ->
 * `c:\Users\x`. A remote URI gives the path on the remote machine. A plain
 * absolute path is returned as is; anything else is undefined.
 */
export function uriToPath(uri: string): string | undefined {
  if (uri.startsWith("/")) return uri;
  if (isWindowsDrivePath(uri)) return uri;
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return undefined;
  }
  let p: string;
  try {
    p = decodeURIComponent(u.pathname);
  } catch {
    p = u.pathname;
  }
  if (p === "") return undefined;
  if (/^\/[A-Za-z]:/.test(p)) return win32.normalize(p.slice(1));
  if (u.protocol === "file:" && u.host) return `\\\\${u.host}${p.replaceAll("/", "\\")}`;
  return p;
}

/**
 * Parses VS Code's JSONC `settings.json`: comments (`//`, `/* *\/`) outside
 * strings and trailing commas are removed first. Undefined when it still
 * does not parse.
 */
export function parseJsonc(text: string): unknown {
  let out = "";
  let i = 0;
  let inStr = false;
  while (i < text.length) {
    const c = text[i];
    if (inStr) {
      out += c;
      if (c === "\\" && i + 1 < text.length) {
        out += text[i + 1];
        i += 2;
        continue;
      }
      if (c === '"') inStr = false;
      i++;
    } else if (c === '"') {
      inStr = true;
      out += c;
      i++;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
  } catch {
    return undefined;
  }
}

/** Each editor's `User/settings.json` (what {@link userSettingValues} reads), present or not. */
export function userSettingsFiles(env: Env, apps: readonly string[] = VSCODE_APPS): string[] {
  return userDirs(env, apps).map((u) => join(u, "settings.json"));
}

/** The string values of setting `key` in each editor's `User/settings.json`, `~` expanded. */
export async function userSettingValues(
  env: Env,
  key: string,
  apps: readonly string[] = VSCODE_APPS,
): Promise<string[]> {
  const out: string[] = [];
  for (const file of userSettingsFiles(env, apps)) {
    let text: string;
    try {
      text = await readText(file, 4 << 20);
    } catch {
      continue;
    }
    const v = str(obj(parseJsonc(text))?.[key]);
    if (v) out.push(expandHome(env, v.trim()));
  }
  return out;
}
