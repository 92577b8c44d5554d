/**
 * The real stores of ../shared/realdata laid out as each core harness keeps them, for tests
 * (tests/realdata_test.ts) and for trying deja by hand on real history
 * (`deno run -A tests/realdata_home.ts <dir>`). Reads realdata, writes only under `root`.
 *
 * @module
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { REPO } from "./_fixture.ts";

/** Where the real stores are (absent on a machine without them: their tests are skipped). */
export const REAL = join(REPO, "..", "shared", "realdata");

/** True when ../shared/realdata is here. */
export const realPresent = existsSync(REAL);

export function copyTree(from: string, to: string): void {
  for (const ent of readdirSync(from, { withFileTypes: true })) {
    const a = join(from, ent.name);
    const b = join(to, ent.name);
    if (ent.isDirectory()) {
      mkdirSync(b, { recursive: true });
      copyTree(a, b);
    } else if (ent.isFile()) {
      mkdirSync(dirname(b), { recursive: true });
      copyFileSync(a, b);
    }
  }
}

/** Lays the real stores out as each harness keeps them; returns the env pointing at them. */
export function realdataLayout(root: string): Record<string, string> {
  const f = join(REAL, "farm");
  // Claude Code: farm home plus the public transcripts (not history.jsonl) under projects/.
  const claude = join(root, "claude", "projects");
  copyTree(join(f, "claude/home/.claude/projects"), claude);
  for (const name of readdirSync(join(REAL, "claude-code"))) {
    if (name === "win-history.jsonl") continue;
    const dir = join(
      claude,
      "-public",
      name.includes("subagent") ? "parent-session/subagents" : "",
    );
    mkdirSync(dir, { recursive: true });
    copyFileSync(
      join(REAL, "claude-code", name),
      join(dir, name.includes("subagent") ? `agent-${name}` : name),
    );
  }
  // Codex: farm home, public rollouts in sessions/ and archived_sessions/.
  const codex = join(root, "codex");
  copyTree(join(f, "codex/home/.codex"), codex);
  mkdirSync(join(codex, "sessions/2026/04/19"), { recursive: true });
  mkdirSync(join(codex, "archived_sessions"), { recursive: true });
  for (const name of readdirSync(join(REAL, "codex"))) {
    if (!name.startsWith("rollout-")) continue;
    const to = name.includes("vscode")
      ? join(codex, "archived_sessions", name)
      : join(codex, "sessions/2026/04/19", name);
    copyFileSync(join(REAL, "codex", name), to);
  }
  // Gemini CLI: farm home, public chats under a named project folder.
  const gemini = join(root, "gemini");
  copyTree(join(f, "gemini/home/.gemini"), gemini);
  const chats = join(gemini, "tmp/public-proj/chats");
  mkdirSync(join(chats, "f328310d-05ea-45ce-b9cb-fe2717bebe12"), { recursive: true });
  for (const name of readdirSync(join(REAL, "gemini-cli"))) {
    if (!name.startsWith("chat-")) continue;
    const sub = name.includes("subagent-kind") ? "f328310d-05ea-45ce-b9cb-fe2717bebe12" : "";
    copyFileSync(join(REAL, "gemini-cli", name), join(chats, sub, name));
  }
  // opencode: the farm data directory (db with -wal and -shm).
  const opencode = join(root, "opencode");
  copyTree(join(f, "opencode/home/.local/share/opencode"), opencode);
  // Crush: a registry naming one project per real store.
  const crushData = join(root, "crush-data");
  mkdirSync(crushData, { recursive: true });
  const projects: Array<Record<string, string>> = [];
  for (const name of readdirSync(join(REAL, "crush"))) {
    if (!name.endsWith(".db")) continue;
    const proj = join(root, "crush-projects", basename(name, ".db"));
    mkdirSync(join(proj, ".crush"), { recursive: true });
    copyFileSync(join(REAL, "crush", name), join(proj, ".crush", "crush.db"));
    projects.push({
      path: proj,
      data_dir: join(proj, ".crush"),
      last_accessed: "2026-11-01T00:00:00Z",
    });
  }
  writeFileSync(join(crushData, "projects.json"), JSON.stringify({ projects }));
  // aider: the public history file in a directory of its own.
  const aider = join(root, "aider");
  mkdirSync(aider, { recursive: true });
  copyFileSync(
    join(REAL, "aider/metadata-aider.aider.chat.history.md"),
    join(aider, ".aider.chat.history.md"),
  );
  return {
    DEJA_CLAUDE_ROOT: claude,
    DEJA_CODEX_ROOT: codex,
    DEJA_GEMINI_ROOT: gemini,
    DEJA_OPENCODE_ROOT: opencode,
    DEJA_CRUSH_ROOT: crushData,
    DEJA_AIDER_ROOT: aider,
  };
}
