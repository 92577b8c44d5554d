/**
 * Lays the real stores of ../shared/realdata out as harness stores under a
 * directory (copies: the real files are test inputs, never edited) and returns
 * the variables that point deja at them: one `DEJA_<H>_ROOT` per harness with
 * a real store, and HOME, DEJA_HOME and XDG_* inside the directory. Used by
 * bench/recall_real.ts; the public stores and the farm's stores both go in,
 * as a user with several harnesses would have them.
 *
 * @module
 */
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { basename, join } from "node:path";
import { REPO } from "../tests/_fixture.ts";

/** Where the real stores live (absent on a machine without them). */
export const REAL = join(REPO, "..", "shared", "realdata");

/** Copies the folder `from` to `to`, whole. */
function copyTree(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
}

function copyInto(from: string, dir: string, name = basename(from)): void {
  mkdirSync(dir, { recursive: true });
  copyFileSync(from, join(dir, name));
}

/** Copies the real stores under `root`; returns the environment that points deja at them. */
export function realHome(root: string): Record<string, string> {
  if (!existsSync(REAL)) throw new Error(`no real stores at ${REAL}`);
  const farm = join(REAL, "farm");
  const v: Record<string, string> = {};
  // Claude Code: the farm's projects, the public transcripts (subagents under a parent folder)
  // and the public prompt history.
  const claude = join(root, "claude");
  copyTree(join(farm, "claude/home/.claude/projects"), join(claude, "projects"));
  for (const name of readdirSync(join(REAL, "claude-code"))) {
    const from = join(REAL, "claude-code", name);
    if (name === "win-history.jsonl") copyInto(from, claude, "history.jsonl");
    else if (name.includes("subagent")) {
      copyInto(from, join(claude, "projects/-public/parent-session/subagents"), `agent-${name}`);
    } else copyInto(from, join(claude, "projects/-public"));
  }
  v.DEJA_CLAUDE_ROOT = join(claude, "projects");
  // Codex: the farm's home, public rollouts, the prompt history and the title index.
  const codex = join(root, "codex");
  copyTree(join(farm, "codex/home/.codex"), codex);
  for (const name of readdirSync(join(REAL, "codex"))) {
    const from = join(REAL, "codex", name);
    if (!name.startsWith("rollout-")) copyInto(from, codex);
    else if (name.includes("vscode")) copyInto(from, join(codex, "archived_sessions"));
    else copyInto(from, join(codex, "sessions/2026/04/19"));
  }
  v.DEJA_CODEX_ROOT = codex;
  // Gemini CLI: the farm's home, public chats (the subagent chat under its parent's folder)
  // and the prompt log.
  const gemini = join(root, "gemini");
  copyTree(join(farm, "gemini/home/.gemini"), gemini);
  const proj = join(gemini, "tmp/public-proj");
  for (const name of readdirSync(join(REAL, "gemini-cli"))) {
    const from = join(REAL, "gemini-cli", name);
    if (name === "logs.json") copyInto(from, proj);
    else if (name.startsWith("chat-subagent-kind")) {
      copyInto(from, join(proj, "chats/f328310d-05ea-45ce-b9cb-fe2717bebe12"));
    } else if (name.startsWith("chat-")) copyInto(from, join(proj, "chats"));
  }
  v.DEJA_GEMINI_ROOT = gemini;
  // opencode: the public database (the farm's is a scripted session).
  copyInto(join(REAL, "opencode/opencode.db"), join(root, "opencode"));
  v.DEJA_OPENCODE_ROOT = join(root, "opencode");
  // Crush: a registry naming one project per public database.
  const crush = join(root, "crush-data");
  const projects: Array<Record<string, string>> = [];
  for (const name of readdirSync(join(REAL, "crush")).filter((n) => n.endsWith(".db"))) {
    const dir = join(root, "crush-projects", basename(name, ".db"));
    copyInto(join(REAL, "crush", name), join(dir, ".crush"), "crush.db");
    projects.push({
      path: dir,
      data_dir: join(dir, ".crush"),
      last_accessed: "2026-11-01T00:00:00Z",
    });
  }
  mkdirSync(crush, { recursive: true });
  writeFileSync(join(crush, "projects.json"), JSON.stringify({ projects }));
  v.DEJA_CRUSH_ROOT = crush;
  // aider: the chat and input histories in a project folder.
  const aider = join(root, "aider");
  copyInto(
    join(REAL, "aider/metadata-aider.aider.chat.history.md"),
    aider,
    ".aider.chat.history.md",
  );
  copyInto(join(REAL, "aider/metadata-aider.aider.input.history"), aider, ".aider.input.history");
  v.DEJA_AIDER_ROOT = aider;
  // Cline: the farm's data folder and the public task (its folder named by a fixed task id).
  const cline = join(root, "cline");
  copyTree(join(farm, "cline/home/.cline/data"), cline);
  copyInto(
    join(REAL, "cline/api_conversation_history.cut.json"),
    join(cline, "tasks/1760000000000"),
    "api_conversation_history.json",
  );
  v.DEJA_CLINE_ROOT = cline;
  // Continue: each public session under its own id, and the index of titles.
  const cont = join(root, "continue");
  for (const name of readdirSync(join(REAL, "continue")).filter((n) => n.startsWith("session-"))) {
    const from = join(REAL, "continue", name);
    copyInto(from, cont, `${JSON.parse(readFileSync(from, "utf8")).sessionId}.json`);
  }
  copyInto(join(REAL, "continue/sessions-index.json"), cont, "sessions.json");
  v.DEJA_CONTINUE_ROOT = cont;
  // Copilot CLI, Kimi: their folders as they are.
  copyTree(join(REAL, "copilot-cli"), join(root, "copilot"));
  v.DEJA_COPILOT_ROOT = join(root, "copilot");
  copyTree(join(REAL, "kimi"), join(root, "kimi"));
  v.DEJA_KIMI_ROOT = join(root, "kimi");
  // Cursor: the global database and one workspace.
  const cursor = join(root, "cursor");
  const ws = join(cursor, "workspaceStorage", "d379ebb9138b3d8303a66581e3c1f1ba");
  copyInto(
    join(REAL, "cursor/globalStorage-state.vscdb"),
    join(cursor, "globalStorage"),
    "state.vscdb",
  );
  copyInto(join(REAL, "cursor/workspaceStorage-state.vscdb"), ws, "state.vscdb");
  copyInto(join(REAL, "cursor/workspace.json"), ws);
  v.DEJA_CURSOR_ROOT = cursor;
  // Hermes: the public state database.
  copyInto(join(REAL, "hermes/state-telegram-cron.db"), join(root, "hermes"), "state.db");
  v.DEJA_HERMES_ROOT = join(root, "hermes");
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  return {
    ...v,
    HOME: home,
    DEJA_HOME: join(root, "deja"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
    XDG_STATE_HOME: join(home, ".local/state"),
    XDG_CACHE_HOME: join(home, ".cache"),
    NO_COLOR: "1",
  };
}
