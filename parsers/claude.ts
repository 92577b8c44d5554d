/**
 * Claude Code transcripts.
 *
 * Store: `${DEJA_CLAUDE_ROOT:-${CLAUDE_CONFIG_DIR:-~/.claude}/projects}`, every
 * `*.jsonl` below it (docs/registry/claude.md; observed in realdata/farm/claude,
 * Claude Code 2.1.332):
 * - `<encoded-cwd>/<sessionId>.jsonl` — one session, append-only JSONL;
 * - `<encoded-cwd>/<sessionId>/subagents/agent-<agentId>.jsonl` — a subagent
 *   run (agent ids like `a897fe51ff61acd8`, `aside_question-<hex>`,
 *   `acompact-<hex>`; public files, Claude Code 2.1.68–2.1.88);
 * - `<encoded-cwd>/agent-<agentId>.jsonl` — the older subagent layout beside
 *   the sessions (public file, Claude Code 2.1.1).
 * `history.jsonl` beside `projects/` (prompt history `{display, pastedContents,
 * timestamp (ms), project, sessionId}`; realdata win-history.jsonl) is read
 * when the root is a folder named `projects`: the prompts of sessions with no
 * transcript under the root become a session of user events (pasted text
 * kept inline is put back in place of its `[Pasted text #n ...]` mark);
 * prompts of sessions that have a transcript are not read twice
 * (`_prompt_history.ts`).
 *
 * Records: one JSON object per line with `type`. `user` / `assistant` lines
 * carry `message` (Anthropic Messages shape), `uuid`, `sessionId`, `cwd`,
 * `timestamp` (ISO 8601 string -> epoch ms). Everything else is bookkeeping,
 * ignored silently: see {@link BOOKKEEPING} (a file of nothing else is counted
 * `not_session`); `custom-title.customTitle` >
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
 *   `<synthetic>` (harness-made error replies, `isApiErrorMessage`: notices marked
 *   `API error: …`).
 * - User lines: `isCompactSummary` -> summary; `isMeta` -> dropped; only
 *   tool_result blocks -> tool_result events (text blocks beside them are
 *   harness notes, dropped); otherwise cleaned prose (see `cleanUserText`).
 *
 * Resume: `ctx.endState` keeps the last sessionId, cwd, title, model and the
 * current session key, so a parse from an offset yields the same ids.
 * Sessions stream out in chunks of {@link CHUNK_EVENTS} events or
 * {@link CHUNK_BYTES} of lines (smaller at first when `ctx.firstChunkEvents` asks). The reading
 * is `_claude_family.ts`, shared with the harnesses that keep Claude's tree.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { Env, Parser } from "../core/model.ts";
import { rootFrom } from "../core/paths.ts";
import { claudeRecord, familyParser } from "./_claude_family.ts";
import { isRegularFile, listFiles } from "../core/fs.ts";
import { historySessions } from "./_prompt_history.ts";
import { type Obj, obj, str } from "./_util.ts";

export { BOOKKEEPING, CHUNK_BYTES, CHUNK_EVENTS } from "./_claude_family.ts";

const root = (env: Env) =>
  rootFrom(env, "claude", [["CLAUDE_CONFIG_DIR", "projects"]], "~/.claude/projects");
const family = familyParser({ harness: "claude", read: claudeRecord }, root);

/** The Claude Code parser: Claude's records read as they are, and the prompt history. */
export const claude: Parser = {
  id: "claude",
  async discover(ctx) {
    const d = await family.discover(ctx);
    const dir = root(ctx.env);
    const path = join(dirname(dir), "history.jsonl");
    if (basename(dir) !== "projects") return d;
    if (await isRegularFile(path, ctx.problem)) {
      d.sources.push({ harness: "claude", path, kind: "append", hint: { history: dir } });
    }
    return { ...d, wants: [...(d.wants ?? []), path] };
  },
  async *parse(source, ctx) {
    const projects = source.hint?.history;
    if (!projects) return yield* family.parse(source, ctx);
    const ids = new Set<string>();
    const match = (_p: string, n: string) => n.endsWith(".jsonl");
    for (const p of await listFiles(projects, { match, maxDepth: 6 })) {
      ids.add(basename(p, ".jsonl"));
    }
    const fields = {
      id: "sessionId",
      time: "timestamp",
      text: "display",
      project: "project",
      expand: pasted,
    };
    yield* historySessions("claude", source.path, ctx, fields, (id) => ids.has(id));
  },
};

/** `[Pasted text #n +k lines]` replaced by `pastedContents[n].content` when kept inline. */
function pasted(rec: Obj, text: string): string {
  const parts = obj(rec.pastedContents);
  if (!parts) return text;
  return text.replace(/\[Pasted text #(\d+)[^\]]*\]/g, (m, n: string) => {
    return str(obj(parts[n])?.content) ?? m;
  });
}
