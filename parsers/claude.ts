/**
 * Claude Code transcripts.
 *
 * Store: `${DEJA_CLAUDE_ROOT:-${CLAUDE_CONFIG_DIR:-~/.claude}/projects}`, every
 * `*.jsonl` below it (formats-anchor §3.1; observed in realdata/farm/claude,
 * Claude Code 2.1.332):
 * - `<encoded-cwd>/<sessionId>.jsonl` — one session, append-only JSONL;
 * - `<encoded-cwd>/<sessionId>/subagents/agent-<agentId>.jsonl` — a subagent
 *   run (agent ids like `a897fe51ff61acd8`, `aside_question-<hex>`,
 *   `acompact-<hex>`; public files, Claude Code 2.1.68–2.1.88);
 * - `<encoded-cwd>/agent-<agentId>.jsonl` — the older subagent layout beside
 *   the sessions (public file, Claude Code 2.1.1).
 * `~/.claude/history.jsonl` (prompt history) lives outside `projects/` and is
 * not read.
 *
 * Records: one JSON object per line with `type`. `user` / `assistant` lines
 * carry `message` (Anthropic Messages shape), `uuid`, `sessionId`, `cwd`,
 * `timestamp` (ISO 8601 string -> epoch ms). Everything else is bookkeeping,
 * ignored silently: see {@link BOOKKEEPING}; `custom-title.customTitle` >
 * `ai-title.aiTitle` > `summary.summary` give the title; an `attachment` of
 * type `queued_command` (commandMode `prompt`) is a prompt typed mid-turn.
 * Unknown types are counted as `unknown_record`.
 *
 * Mapping:
 * - Session id = the line's `sessionId`. A subagent (a line in an `agent-*`
 *   file, or with `isSidechain` and `agentId`) gets id
 *   `<parentSessionId>/agent-<agentId>` and `parent` = the parent's
 *   `sessionId` (for `subagents/` files also the directory name).
 * - project = the recorded `cwd` as written (Windows paths kept); only when no
 *   line has one, a lossy decode of the encoded directory name.
 * - One API response is split over several lines, one content block per line,
 *   all with the same `message.id` (observed in every public file and the
 *   farm; 2.1.332 adds `apiBlockIndex`). Event keys are therefore
 *   `a:<message.id>:t:<fnv1a(text)>` for text and `a:<message.id>:c:<tool_use
 *   id>` for tool calls, `u:<uuid>` for user lines and `res:<tool_use_id>` for
 *   results: distinct blocks never collide and a repeated line collapses.
 * - Thinking blocks are dropped; `message.model` gives the model unless it is
 *   `<synthetic>` (harness-made error replies, kept as assistant text).
 * - User lines: `isCompactSummary` -> summary; `isMeta` -> dropped; only
 *   tool_result blocks -> tool_result events (text blocks beside them are
 *   harness notes, dropped); otherwise cleaned prose (see `cleanUserText`).
 *
 * Resume: `ctx.endState` keeps the last sessionId, cwd, title, model and the
 * current session key, so a parse from an offset yields the same ids.
 * Sessions stream out in chunks of {@link CHUNK_EVENTS} events. The reading
 * is `_claude_family.ts`, shared with the harnesses that keep Claude's tree.
 *
 * @module
 */
import type { Parser } from "../lib/model.ts";
import { rootFrom } from "./_roots.ts";
import { claudeRecord, familyParser } from "./_claude_family.ts";

export { BOOKKEEPING, CHUNK_EVENTS } from "./_claude_family.ts";

/** The Claude Code parser: Claude's records read as they are. */
export const claude: Parser = familyParser(
  { harness: "claude", read: claudeRecord },
  (env) => rootFrom(env, "claude", [["CLAUDE_CONFIG_DIR", "projects"]], "~/.claude/projects"),
);
