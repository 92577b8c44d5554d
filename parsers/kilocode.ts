/**
 * Kilo Code (Kilo-Org/kilocode): the Kilo CLI and the VS Code extension.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { xdgData } from "../core/paths.ts";
import { extensionStorageDirs, rootsOrOverride } from "./_vscode.ts";
import { opencodeDatabases, readOpencodeDb } from "./_opencode_db.ts";
import { skipUnreadable } from "../core/fs.ts";
import { historyItemMeta, taskFiles, taskMetadataModel, taskSessions } from "./_task_history.ts";

const ID = "kilocode";
/** The extension's storage folder name. */
const EXTENSION = "kilocode.kilo-code";

/**
 * The Kilo Code parser. Two stores:
 *
 * 1. The Kilo CLI (and the newer extension backend) vendors opencode, so its
 *    `kilo.db` (+ `-wal`) has opencode's schema and is read by the shared
 *    `readOpencodeDb` (`sqlite` source, watermark `max(session.time_updated)`
 *    in ms). Data dir `${XDG_DATA_HOME:-~/.local/share}/kilo` on every OS;
 *    channel builds write `kilo-<channel>.db`; `KILO_DB` names another file
 *    (absolute or relative to the data dir). Observed in realdata/farm/kilo
 *    (`@kilocode/cli` 7.7.7: every row only in the `-wal`; tools `bash` with
 *    `metadata.exit`, `read`, `edit`); paths from docs/registry/kilocode.md
 * 2. The extension's Roo-style task directories
 *    `globalStorage/kilocode.kilo-code/tasks/<taskId>/api_conversation_history.json`
 *    in every VS Code-style editor (`_vscode.ts`), with `history_item.json` /
 *    `task_metadata.json` beside them; `document` sources read by the shared
 *    Cline-family reader (`_task_history.ts`). From docs/registry/kilocode.md (no real
 *    extension store was available).
 *
 * `DEJA_KILOCODE_ROOT` replaces both roots with one directory that may hold
 * `kilo.db` and `tasks/`. The extension's migration copies tasks into the
 * database without deleting them, so one conversation can appear in both
 * stores under two ids; they are not merged.
 */
export const kilocode: Parser = {
  id: ID,
  discover,
  parse(source: SourceRef, ctx: ParseCtx): AsyncIterable<Session> {
    return source.kind === "sqlite" ? readOpencodeDb(ID, source.path, ctx) : task(source, ctx);
  },
};

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const dataDir = join(xdgData(env), "kilo");
  const roots = rootsOrOverride(env, ID, () => [dataDir, ...extensionStorageDirs(env, EXTENSION)]);
  const sources: SourceRef[] = [];
  const dbRoots = env.get("DEJA_KILOCODE_ROOT") ? roots : [dataDir];
  for (const root of dbRoots) {
    for (const path of await opencodeDatabases(env, root, "kilo", "KILO_DB", problem)) {
      sources.push({ harness: ID, path, kind: "sqlite", companions: [`${path}-wal`] });
    }
  }
  for (const root of roots) {
    for (const path of await taskFiles(root, problem)) {
      sources.push({ harness: ID, path, kind: "document" });
    }
  }
  return { roots, sources };
}

async function* task(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const dir = dirname(source.path);
  const meta = await historyItemMeta(dir, skipUnreadable(ctx));
  meta.model ??= await taskMetadataModel(dir, skipUnreadable(ctx));
  yield* taskSessions(ID, source.path, meta, ctx);
}
