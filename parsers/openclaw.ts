/**
 * OpenClaw (`openclaw`): pi-lineage transcripts, as append-only JSONL (older builds) and
 * as rows of a per-agent SQLite store (2026.9.x builds). Both are read.
 *
 * Store, under the state directory `${DEJA_OPENCLAW_ROOT:-${OPENCLAW_STATE_DIR:-~/.openclaw}}`:
 * - `agents/<agentId>/sessions/<sessionId>.jsonl` (kind "append"; docs/registry/openclaw.md):
 *   pi session files. Not read: `sessions.json` (the key -> session map), compaction
 *   checkpoints `<id>.checkpoint.<uuid>.jsonl`, archived `*.jsonl.deleted.<time>` /
 *   `.reset` / `.bak` copies (their names do not end in `.jsonl`).
 * - `agents/<agentId>/agent/openclaw-agent.sqlite` with its `-wal` (kind "sqlite"):
 *   `transcript_events` rows holding the same pi entries, read by `_openclaw_db.ts`
 *   (schema generations and the watermark are described there). Observed in
 *   realdata/farm/openclaw (OpenClaw 2026.9.6): no JSONL at all, every row in the main
 *   file, an empty `-wal`; `state/openclaw.sqlite` lists the agent databases
 *   (`agent_databases`) and holds no transcript.
 *
 * Mapping: the shared pi reader (`_pi_events.ts`). OpenClaw's shell tool is `exec
 * {command}`; its results carry `details.exitCode` (a failed `cat` has `isError:false`
 * and exit 1) and end with `(Command exited with code N)`; user content may be a plain
 * string. `custom` entries (`model-snapshot`, `openclaw.cache-ttl`) are bookkeeping. The
 * project is the header `cwd`, else the session entry's `systemPromptReport.workspaceDir`.
 * A session spawned by another (`parent_session_key` / `spawned_by`) gets that session's
 * current id as `parent`.
 *
 * @module
 */
import { join } from "node:path";
import type { DiscoverCtx, Discovery, Parser, SourceRef } from "../core/model.ts";
import { isRegularFile, walk } from "../core/fs.ts";
import { rootFrom } from "../core/paths.ts";
import { eachSubdir, parsePiJsonl } from "./_pi.ts";
import { parseAgentDb } from "./_openclaw_db.ts";

const CHECKPOINT =
  /\.checkpoint\.[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;

async function discover(ctx: DiscoverCtx): Promise<Discovery> {
  const state = rootFrom(ctx.env, "openclaw", [["OPENCLAW_STATE_DIR", ""]], "~/.openclaw");
  const sources: SourceRef[] = [];
  const match = (_p: string, name: string) => name.endsWith(".jsonl") && !CHECKPOINT.test(name);
  for (const agent of await eachSubdir(join(state, "agents"))) {
    const db = join(agent, "agent", "openclaw-agent.sqlite");
    if (await isRegularFile(db, ctx.problem)) {
      sources.push({ harness: "openclaw", path: db, kind: "sqlite", companions: [`${db}-wal`] });
    }
    const opts = { match, maxDepth: 0, onError: ctx.problem };
    for await (const path of walk(join(agent, "sessions"), opts)) {
      sources.push({ harness: "openclaw", path, kind: "append" });
    }
  }
  return { roots: [state], sources };
}

/** The OpenClaw parser. */
export const openclaw: Parser = {
  id: "openclaw",
  discover,
  async *parse(source, ctx) {
    if (source.kind === "sqlite") yield* parseAgentDb(source, ctx);
    else yield* parsePiJsonl(source, ctx);
  },
};
