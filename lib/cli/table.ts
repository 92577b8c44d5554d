/**
 * The command table: `deja help` and dispatch both come from it. Each entry holds
 * what the command list shows and a `lazy` import of the command's module, so a
 * run loads only the command it runs. The imports are string literals: `bun build
 * --compile` bundles them.
 *
 * @module
 */
import type { CommandEntry } from "./common.ts";

/** Every command, in the order `deja help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "search",
    summary: 'Search past sessions: words are ANDed, "quoted phrases" must be contiguous.',
    lazy: async () => (await import("./cmd_search.ts")).searchCmd,
  },
  {
    name: "show",
    summary:
      "Print one session: what was said, the commands run with their exit status, the edits.",
    lazy: async () => (await import("./cmd_show.ts")).showCmd,
  },
  {
    name: "last",
    summary: "The most recent sessions (default 10), newest first.",
    lazy: async () => (await import("./cmd_last.ts")).lastCmd,
  },
  {
    name: "ctx",
    summary: "A Markdown digest of the best matching session (or of an id), ready for a prompt.",
    lazy: async () => (await import("./cmd_ctx.ts")).ctxCmd,
  },
  {
    name: "blame",
    summary:
      "Sessions that read, edited or wrote a file (newest first), with the reasoning around each edit.",
    lazy: async () => (await import("./cmd_blame.ts")).blameCmd,
  },
  {
    name: "restore",
    summary: "List the spans agents replaced in a file (newest first); print or write one back.",
    lazy: async () => (await import("./cmd_restore.ts")).restoreCmd,
  },
  {
    name: "fix",
    summary: "What ran after the same error before, in sessions where it did not come back.",
    lazy: async () => (await import("./cmd_fix.ts")).fixCmd,
  },
  {
    name: "how",
    summary:
      "The real commands that hold every word given: this project's first, then elsewhere, by sessions.",
    lazy: async () => (await import("./cmd_how.ts")).howCmd,
  },
  {
    name: "remember",
    summary: "Keep a durable note (a decision, a gotcha) and index it so searches find it.",
    lazy: async () => (await import("./cmd_remember.ts")).rememberCmd,
  },
  {
    name: "resume",
    summary: "Print (or run) the harness's own command that reopens a session, in its project.",
    lazy: async () => (await import("./cmd_resume.ts")).resumeCmd,
  },
  {
    name: "handoff",
    summary:
      "Start another harness with a session's digest as its first prompt (or print it to paste).",
    lazy: async () => (await import("./cmd_handoff.ts")).handoffCmd,
  },
  {
    name: "view",
    summary: "Browse, search and read your agents' history in the browser (local, private).",
    lazy: async () => (await import("./cmd_view.ts")).viewCmd,
  },
  {
    name: "index",
    summary: "Read the session stores of every harness into the index (only what changed).",
    lazy: async () => (await import("./cmd_index.ts")).indexCmd,
  },
  {
    name: "sources",
    summary:
      "List every harness: the roots looked at, stores found, sessions, bytes, skips, errors.",
    lazy: async () => (await import("./cmd_sources.ts")).sourcesCmd,
  },
  {
    name: "remote",
    summary: "Other machines' history: add a remote (ssh), sync its stores (rsync), list, remove.",
    lazy: async () => (await import("./cmd_remote.ts")).remoteCmd,
  },
  {
    name: "stats",
    summary:
      "What the index holds: sessions per harness, projects, secrets redacted per kind, size.",
    lazy: async () => (await import("./cmd_stats.ts")).statsCmd,
  },
  {
    name: "forget",
    summary: "Remove sessions from the index for good; a later index does not bring them back.",
    lazy: async () => (await import("./cmd_forget.ts")).forgetCmd,
  },
  {
    name: "drift",
    summary: "Show what the stores hold that deja does not know, with a redacted sample to report.",
    lazy: async () => (await import("./cmd_drift.ts")).driftCmd,
  },
  {
    name: "install",
    summary: "Wire deja into your coding agents: MCP server, skill, /deja command, hooks (-auto).",
    lazy: async () => (await import("./cmd_install.ts")).installCmd,
  },
  {
    name: "uninstall",
    summary: "Remove what 'deja install' added (and nothing else) from the harnesses' configs.",
    lazy: async () => (await import("./cmd_uninstall.ts")).uninstallCmd,
  },
  {
    name: "doctor",
    summary:
      "Check the wiring of every target (wired, not wired, stale path, broken config) and the index.",
    lazy: async () => (await import("./cmd_doctor.ts")).doctorCmd,
  },
  {
    name: "mcp",
    summary: "Serve the deja tool to a coding agent over stdio (MCP); harnesses start it.",
    protocol: true,
    lazy: async () => (await import("./cmd_mcp.ts")).mcpCmd,
  },
  {
    name: "demo",
    summary: "Index the bundled sample stores into a temporary index and search them.",
    lazy: async () => (await import("./cmd_demo.ts")).demoCmd,
  },
  {
    name: "version",
    summary: "Print deja's version (also --version, -V); --json adds the runtime and platform.",
    lazy: async () => (await import("./cmd_version.ts")).versionCmd,
  },
  {
    name: "hook-context",
    summary:
      "hook: session start (Claude Code SessionStart): where the last session in this project left off",
    lazy: async () => (await import("./cmd_hook_context.ts")).hookContextCmd,
  },
  {
    name: "hook-prompt",
    summary: "hook: per user prompt (UserPromptSubmit): past sessions about what was asked",
    lazy: async () => (await import("./cmd_hook_prompt.ts")).hookPromptCmd,
  },
  {
    name: "hook-tool",
    summary:
      "hook: before a shell or edit call (PreToolUse): what this command or file already has",
    lazy: async () => (await import("./cmd_hook_tool.ts")).hookToolCmd,
  },
  {
    name: "hook-tool-after",
    summary:
      "hook: after a failed shell command (PostToolUse/PostToolUseFailure): what fixed that error before",
    lazy: async () => (await import("./cmd_hook_tool_after.ts")).hookToolAfterCmd,
  },
  {
    name: "hook-precompact",
    summary: "hook: before compaction (PreCompact): what this session did, so it survives",
    lazy: async () => (await import("./cmd_hook_precompact.ts")).hookPrecompactCmd,
  },
];
