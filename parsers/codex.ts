/**
 * Codex CLI rollouts. The reading itself is `_codex_reader.ts`, shared with
 * the harnesses that write Codex rollouts too (TRAE CLI).
 *
 * @module
 */
import type { Parser } from "../core/model.ts";
import { rootFrom } from "../core/paths.ts";
import { rolloutParser } from "./_codex_rollout.ts";

/**
 * Codex CLI (`codex`) — rollout JSONL, kind "append".
 *
 * Store: `${DEJA_CODEX_ROOT:-${CODEX_HOME:-~/.codex}}/sessions/YYYY/MM/DD/rollout-<local
 * time>-<thread uuid>.jsonl` and, once archived, the flat `archived_sessions/` (observed in
 * realdata/codex, Codex Desktop/VS Code 0.116–0.121, and realdata/farm/codex, Codex 0.171.0).
 * One file per thread; each line `{timestamp (ISO, ms), type, payload}`. Titles come from
 * `session_index.jsonl` `{id, thread_name, updated_at}` beside them (last line per id wins)
 * when that file exists. `history.jsonl` (prompt history `{session_id, ts (s), text}`) is read
 * for the threads that have no rollout file (deleted, pruned, another machine's): their
 * prompts become a session of user events with the thread's id; the prompts of threads
 * with a rollout repeat it and are left out (`_prompt_history.ts`). The `*.sqlite` files
 * are Codex state, not transcripts.
 *
 * Mapping (docs/registry/codex.md; confirmed on the real files unless noted):
 * - id: the first `session_meta`'s `payload.id` (thread id) when a string; `session_id` when
 *   `id` is absent (legacy); else the uuid ending the file name. cwd -> project; model from the
 *   latest `turn_context.model`.
 * - A forked or spawned thread's file holds its own meta, then a copy of the parent's rollout
 *   (starting with the parent's meta), then its own turns (realdata Codex Desktop 0.119; codex-rs
 *   writes `InitialHistory::Forked` items as is, read via the search tool). The copy is not the
 *   thread's: it becomes the parent's session when no rollout file carries the parent's id, and
 *   is dropped otherwise (`_codex_rollout.ts` `orphanCopies`). It ends at the first `task_started` whose `started_at` (s) or UUIDv7 `turn_id` is not older
 *   than the thread's creation. A spawned subagent gets `parent` =
 *   `source.subagent.thread_spawn.parent_thread_id` (or `forked_from_id`).
 * - Roled `response_item` messages are the speech; `event_msg` user/agent messages only count
 *   when the file (or the parent's copy in a fork) has no roled message of their kind: a copy
 *   holds the parent's prompts as roled items but its replies only as `agent_message` events. developer/system roles and injected user-role
 *   preambles (`<environment_context>`, AGENTS.md, ...) are dropped. Reasoning is dropped.
 * - The harness speaking is a `notice`: an `event_msg` `error` (`Error: <message>`) and a
 *   `turn_aborted` (`[Turn aborted: <reason>]`, reason `interrupted` when the user stopped the
 *   turn; codex-rs `TurnAbortReason`, read via the search tool; no real store holds one yet).
 * - Tools: see `_responses_items.ts`. `compacted.payload.message` -> summary.
 * - Bare 2025 records (`{id, timestamp, instructions}` header, `{record_type:"state"}`, items
 *   without an envelope) read the same way (other readers' fixtures, via the search tool).
 */
export const codex: Parser = rolloutParser(
  { harness: "codex", history: true },
  (env) => rootFrom(env, "codex", [["CODEX_HOME", ""]], "~/.codex"),
);
