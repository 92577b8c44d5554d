/**
 * Roo Code (RooCodeInc/Roo-Code, extension id `rooveterinaryinc.roo-cline`).
 *
 * @module
 */
import { dirname } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { expandHome, overrideVar } from "../core/paths.ts";
import {
  extensionStorageDirs,
  rootsOrOverride,
  userSettingsFiles,
  userSettingValues,
} from "./_vscode.ts";
import { skipUnreadable } from "../core/fs.ts";
import { historyItemMeta, taskFiles, taskMetadataModel, taskSessions } from "./_task_history.ts";

const ID = "roo";
/** The extension's storage folder name (VS Code lower-cases the publisher). */
const EXTENSION = "rooveterinaryinc.roo-cline";
/** The VS Code setting that moves Roo's task storage elsewhere. */
const CUSTOM_STORAGE = "roo-cline.customStoragePath";

/**
 * The Roo Code parser. Each task is a `document` source
 * `<root>/tasks/<taskId>/api_conversation_history.json`, read by the shared
 * Cline-family reader (`_task_history.ts`, `_task_events.ts`); metadata from
 * `history_item.json` beside it (`{id, ts (epoch ms), task, title?,
 * workspace, parentTaskId?}`: title, project, start time, parent task).
 * `tasks/_index.json` is a cache of those items and is not read.
 *
 * Roots: `globalStorage/rooveterinaryinc.roo-cline` in every VS Code-style
 * editor (`_vscode.ts`), every `roo-cline.customStoragePath` found in those
 * editors' `User/settings.json` (JSONC), and the Roo CLI's
 * `~/.vscode-mock/global-storage` (from docs/registry/roo.md). With
 * `DEJA_ROO_ROOT` set, that one directory is the only root.
 *
 * Format facts (read in RooCodeInc/Roo-Code via the search tool; no real Roo
 * store was available): `src/core/task-persistence/apiMessages.ts` (the
 * history file is a legacy Anthropic message array or `{version: 2,
 * messages}`), `rooMessage.ts` (v2 AI SDK parts `tool-call`, `tool-result`,
 * role `tool`, `isSummary` condense summaries), `TaskHistoryStore.ts`
 * (`history_item.json` per task), `packages/types/src/history.ts`
 * (`parentTaskId`, `toolProtocol: "xml" | "native"`: XML-protocol tasks carry
 * their tool calls as XML inside assistant text). Subtasks (`new_task`) are
 * their own task directories; `parentTaskId` makes them subagent sessions.
 */
export const roo: Parser = {
  id: ID,
  discover,
  async *parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
    const dir = dirname(source.path);
    const meta = await historyItemMeta(dir, skipUnreadable(ctx));
    meta.model ??= await taskMetadataModel(dir, skipUnreadable(ctx));
    yield* taskSessions(ID, source.path, meta, ctx);
  },
};

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const own = Boolean(env.get(overrideVar(ID)));
  const custom = own ? [] : await userSettingValues(env, CUSTOM_STORAGE);
  const roots = [
    ...new Set(rootsOrOverride(env, ID, () => [
      ...extensionStorageDirs(env, EXTENSION),
      ...custom,
      expandHome(env, "~/.vscode-mock/global-storage"),
    ])),
  ];
  const sources: SourceRef[] = [];
  for (const root of roots) {
    for (const path of await taskFiles(root, problem)) {
      sources.push({ harness: ID, path, kind: "document" });
    }
  }
  // A custom storage path set in an editor's settings is a place to look again.
  return { roots, sources, ...(own ? {} : { reads: userSettingsFiles(env) }) };
}
