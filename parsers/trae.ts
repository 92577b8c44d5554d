/**
 * TRAE CLI rollouts, read with the shared Codex reader and a dialect.
 *
 * @module
 */
import type { Event, Parser } from "../core/model.ts";
import { rootFrom } from "../core/paths.ts";
import { arr, type Obj, obj, str } from "./_util.ts";
import { fnv1a } from "./_message_blocks.ts";
import type { RolloutDialect, RolloutReader } from "./_codex_reader.ts";
import { rolloutParser } from "./_codex_rollout.ts";

/** A prompt already kept, for the dedupe of its mirror. */
interface Prompt {
  text: string;
  turn?: string;
  time?: number;
}

/** TRAE's part of the rollout state (JSON, kept across passes). */
interface TraeState {
  /** The turn id last named by a record. */
  turn?: string;
  /** Prompts kept so far. */
  n?: number;
  /** The latest prompts, for the dedupe of mirrors. */
  recent?: Prompt[];
}

/** How far apart (ms) two copies of a prompt without a common turn id may be. */
const MIRROR_WINDOW_MS = 5000;
/** How many recent prompts are kept for the dedupe. */
const RECENT = 8;

function ext(r: RolloutReader): TraeState {
  const o = obj(r.st.ext) as TraeState | undefined;
  if (o) return o;
  const fresh: TraeState = {};
  r.st.ext = fresh;
  return fresh;
}

/** True when `b` is a copy of prompt `a`: same text, and the same turn or close in time. */
function mirrors(a: Prompt, b: Prompt): boolean {
  if (a.text !== b.text) return false;
  if (a.turn && b.turn) return a.turn === b.turn;
  return a.time !== undefined && b.time !== undefined &&
    Math.abs(a.time - b.time) <= MIRROR_WINDOW_MS;
}

/** Keeps a typed prompt unless it mirrors one already kept. */
function prompt(r: RolloutReader, raw: string | undefined, turn?: string, time?: number) {
  const text = raw?.trim();
  if (!text) return;
  const x = ext(r);
  const p: Prompt = { text, ...(turn ? { turn } : {}), ...(time !== undefined ? { time } : {}) };
  const seen = x.recent?.find((m) => mirrors(m, p));
  if (seen) {
    if (!seen.turn && turn) seen.turn = turn;
    return;
  }
  x.recent = [...(x.recent ?? []), p].slice(-RECENT);
  x.n = (x.n ?? 0) + 1;
  r.push({ kind: "user", text, time });
}

/** The text of an `item_completed` item's blocks (`Text`, `text` or `output_text`). */
function itemText(item: Obj): string {
  return arr(item.content)
    .map(obj)
    .filter((b) => b?.type === "Text" || b?.type === "text" || b?.type === "output_text")
    .map((b) => (typeof b?.text === "string" ? b.text : ""))
    .join("")
    .trim();
}

function say(r: RolloutReader, raw: unknown, time: number | undefined): void {
  const text = typeof raw === "string" ? raw.trim() : "";
  if (text) r.push({ kind: "assistant", text, time });
}

/**
 * TRAE's differences from Codex rollouts (docs/registry/trae.md; confirmed in the
 * readers named on the parser):
 * - user-role `response_item`s are TRAE's own injections; prompts come from
 *   `event_msg` `user_message` and `item_completed` `UserMessage` only;
 * - tool calls ride in `history_mutation` (`operation:"append"`, `items[]`
 *   are response items); `replace` / `rollback` re-send history and are skipped;
 * - the shell tool is `exec {command: argv, workdir}`;
 * - the same call, result or reply may appear in several of these streams:
 *   keys fold them (`c:<call id>`, `r:<call id>`, `a:<turn>:<fnv1a(text)>`).
 */
const TRAE_DIALECT: RolloutDialect = {
  harness: "trae",
  userItems: false,
  shells: new Set(["exec"]),
  event(r, p, time) {
    const turn = str(p.turn_id);
    if (turn) ext(r).turn = turn;
    switch (str(p.type)) {
      case "user_message":
        prompt(r, str(p.message), turn, time);
        return true;
      case "agent_message":
        say(r, p.message, time);
        return true;
      case "item_completed": {
        const item = obj(p.item);
        if (item?.type === "UserMessage") prompt(r, itemText(item), turn, time);
        else if (item?.type === "AgentMessage") say(r, itemText(item), time);
        return true;
      }
    }
    return false;
  },
  record(r, type, p, time, where) {
    if (type !== "history_mutation") return false;
    if (r.st.inherited || p.operation !== "append") return true;
    const x = ext(r);
    const outer = x.turn;
    const turn = str(p.turn_id);
    if (turn) x.turn = turn;
    for (const it of arr(p.items)) {
      const o = obj(it);
      if (o) r.item(o, time, where);
    }
    x.turn = outer ?? x.turn;
    return true;
  },
  // Calls, results and the rest are keyed as every rollout's are (parsers/_codex_reader.ts
  // recordKey); a reply by its turn.
  key(r, ev: Event) {
    if (ev.kind !== "assistant") return undefined;
    const x = ext(r);
    return `a:${x.turn ?? `#${x.n ?? 0}`}:${fnv1a(ev.text)}`;
  },
};

/**
 * TRAE CLI (`traex`, reports itself as `traecli 0.200+`) — Codex rollout JSONL, kind "append".
 *
 * Store: `${DEJA_TRAE_ROOT:-${TRAECLI_HOME:-${TRAE_HOME:-~/.trae}/cli}}/sessions/YYYY/MM/DD/
 * rollout-<time>-<uuid>.jsonl` and `archived_sessions/` (docs/registry/trae.md; the layout and
 * `TRAECLI_HOME` / `TRAE_HOME` confirmed in a public reader's TRAE adapter via the search tool).
 * Times: ISO strings with ms, `turn` and `started_at` as in Codex; all become epoch ms.
 *
 * Everything Codex writes is read by `_codex_reader.ts` as for Codex (session id, cwd,
 * model, forks, apply_patch, exit codes). The dialect above adds TRAE's records; their
 * shapes (`item_completed` `{turn_id, item:{type, content[{type, text}]}}`,
 * `history_mutation` `{turn_id, operation, items[], display_completions[]}`, `exec`
 * arguments `{command: ["bash","-lc",…], workdir}`) were confirmed in botmux's
 * `traex-transcript.ts` and in other public TRAE readers and their tests, via the search
 * tool; no TRAE store was available to read. zstd-compressed rollouts are not read.
 */
export const trae: Parser = rolloutParser(
  TRAE_DIALECT,
  (env) => rootFrom(env, "trae", [["TRAECLI_HOME", ""], ["TRAE_HOME", "cli"]], "~/.trae/cli"),
);
