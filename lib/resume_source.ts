/**
 * Sessions no resume command reaches, told by the store deja read them from:
 * one table, {@link NOT_REOPENED}, of a harness and a source-path pattern, and
 * what lives there.
 *
 * - `prompts`: a prompt history (Claude Code and Codex `history.jsonl`, Gemini
 *   CLI `tmp/<project>/logs.json`; parsers/_prompt_history.ts). deja makes a
 *   session of it only when the session's transcript is gone, so the harness
 *   has nothing to reopen: only the prompts remain. `deja handoff` still
 *   carries them on (its digest is built from the index, not the store).
 *
 * The id-named prompt histories (`prompt-history-*`: opencode, Kimi CLI,
 * Cursor's workspace prompts) are told by id instead (core/prompt_history.ts).
 *
 * @module
 */
import { basename } from "node:path";

/** What lives in a store no resume command reads. */
export type Lives = { kind: "prompts" };

/** One row: sessions of `harness` whose source path matches `source`. */
export interface NotReopened {
  harness: string;
  source: RegExp;
  lives: Lives;
}

/** Separator of either OS, so a store read from a Windows path matches too. */
const SEP = String.raw`[\\/]`;

/** The stores whose sessions no resume command reopens. */
export const NOT_REOPENED: readonly NotReopened[] = [
  // The transcripts are `projects/<folder>/<uuid>.jsonl`; the history sits beside `projects`.
  { harness: "claude", source: re(`${SEP}history\\.jsonl$`), lives: { kind: "prompts" } },
  // The transcripts are `rollout-*.jsonl[.zst]`.
  { harness: "codex", source: re(`${SEP}history\\.jsonl$`), lives: { kind: "prompts" } },
  // gemini.ts never reads a `logs.json` as a chat.
  { harness: "gemini", source: re(`${SEP}logs\\.json$`), lives: { kind: "prompts" } },
];

function re(s: string): RegExp {
  return new RegExp(s, "i");
}

/** The row for a session of `harness` read from `source`, or undefined when a command may reach it. */
export function notReopened(harness: string, source: string): NotReopened | undefined {
  return NOT_REOPENED.find((r) => r.harness === harness && r.source.test(source));
}

/** Why a session of `display` (the harness's name) read from `source` (matching `row`) is not reopened. */
export function notReopenedReason(row: NotReopened, display: string, source: string): string {
  switch (row.lives.kind) {
    case "prompts":
      return `this session is known only from ${display}'s prompt history (${
        basename(source)
      }): only its prompts remain; its transcript is gone, so no command reopens it`;
  }
}
