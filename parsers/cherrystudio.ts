/**
 * Cherry Studio (CherryHQ/cherry-studio), the desktop AI client.
 *
 * App data directory (Electron `userData`): `~/Library/Application Support/
 * CherryStudio` (macOS), `%APPDATA%\CherryStudio` (Windows),
 * `${XDG_CONFIG_HOME:-~/.config}/CherryStudio` (elsewhere);
 * `DEJA_CHERRYSTUDIO_ROOT` names it instead. Three stores there (docs/registry/cherrystudio.md):
 *
 * 1. Agent sessions: Cherry runs Claude Code from the app, which writes Claude
 *    Code's own JSONL under `Data/Agents/.claude/projects/<encoded-cwd>/
 *    <session>.jsonl` (builds before `Data/Agents` existed: `.claude/projects/…`).
 *    `append` sources read by the shared Claude reader (`_claude_family.ts`,
 *    `claudeRecord`) with one difference: while a response streams, Cherry
 *    appends it 3–4 times, each copy with a new `uuid` but the same `requestId` /
 *    `message.id` and a longer text (third-party: deja-vu's notes, checked by
 *    them on Cherry Studio 2.0.14; no real store here). The copies are one turn:
 *    the message id (else `requestId`, else `uuid`) names it, and a text that
 *    extends an earlier text of the same message takes that text's key, so it
 *    replaces it in place; a shorter copy is dropped (see {@link collapse}).
 * 2. Chats (v2 data layer): the drizzle SQLite `cherrystudio.sqlite` (some
 *    builds `Data/cherrystudio.sqlite`), a `sqlite` source with its `-wal`,
 *    read by `_cherrystudio_db.ts` (schema confirmed in Cherry's source).
 *    Agent-session rows in `agent_session_message` repeat the JSONL transcripts
 *    and are not read.
 * 3. v1 chats live in Chromium's IndexedDB (`IndexedDB/`), which deja cannot
 *    read: when that directory exists and no v2 database does, a marker source
 *    reports it once as `unsupported` (`markerSource` in `_call_info.ts`).
 *
 * @module
 */
import { join } from "node:path";
import type { DiscoverCtx, Discovery, Event, Parser, SourceRef } from "../core/model.ts";
import { isDir, isRegularFile, walk } from "../core/fs.ts";
import { expandHome, overrideVar, xdgConfig } from "../core/paths.ts";
import { type Obj, obj, str } from "./_util.ts";
import {
  claudeRecord,
  type FamilyDialect,
  familyParser,
  type FamilyState,
} from "./_claude_family.ts";
import { isMarker, markerParse, markerSource } from "./_call_info.ts";
import { readCherryDb } from "./_cherrystudio_db.ts";

const ID = "cherrystudio";
const V1_NOTE = "Cherry Studio v1 chats are kept in Chromium IndexedDB, which deja cannot read";

/** Cherry Studio's app data directory. */
function appData(env: DiscoverCtx["env"]): string {
  const o = env.get(overrideVar(ID));
  if (o) return expandHome(env, o);
  if (env.platform === "darwin") {
    return join(env.home, "Library", "Application Support", "CherryStudio");
  }
  if (env.platform === "win32") {
    return join(expandHome(env, env.get("APPDATA") ?? "~/AppData/Roaming"), "CherryStudio");
  }
  return join(xdgConfig(env), "CherryStudio");
}

/** The family state plus the texts of the last streamed message. */
interface CherryState extends FamilyState {
  /** Message id, then `[event key, text]` of each of its text blocks so far. */
  stream?: { mid: string; texts: Array<[string, string]> };
}

/**
 * Folds streamed copies of one message: a text that extends (or repeats) an
 * earlier text of message `mid` takes that text's key so it replaces it in
 * place; a text that an earlier one already extends is dropped.
 */
export function collapse(events: Event[], mid: string, st: CherryState): Event[] {
  if (st.stream?.mid !== mid) st.stream = { mid, texts: [] };
  const texts = st.stream.texts;
  return events.filter((e) => {
    if (e.kind !== "assistant" || !e.key) return true;
    const hit = texts.find(([, t]) => e.text.startsWith(t) || t.startsWith(e.text));
    if (!hit) {
      texts.push([e.key, e.text]);
      return true;
    }
    if (e.text.length < hit[1].length) return false;
    e.key = hit[0];
    hit[1] = e.text;
    return true;
  });
}

const DIALECT: FamilyDialect = {
  harness: ID,
  read(r, time, st, f, skip) {
    if (r.type !== "assistant") return claudeRecord(r, time, st, f, skip);
    const msg = obj(r.message);
    const mid = str(msg?.id) ?? str(r.requestId) ?? str(r.uuid);
    const rec: Obj = msg && mid ? { ...r, message: { ...msg, id: mid } } : r;
    const reading = claudeRecord(rec, time, st, f, skip);
    if (mid && reading && "events" in reading) {
      reading.events = collapse(reading.events, mid, st as CherryState);
    }
    return reading;
  },
};

const agents = familyParser(DIALECT, () => "");

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const app = appData(env);
  const agentRoots = [
    join(app, "Data", "Agents", ".claude", "projects"),
    join(app, ".claude", "projects"),
  ];
  const sources: SourceRef[] = [];
  const match = (_p: string, name: string) => name.endsWith(".jsonl");
  for (const root of agentRoots) {
    for await (const path of walk(root, { match, maxDepth: 6, onError: problem })) {
      sources.push({ harness: ID, path, kind: "append" });
    }
  }
  let dbs = 0;
  for (const path of [join(app, "cherrystudio.sqlite"), join(app, "Data", "cherrystudio.sqlite")]) {
    if (!(await isRegularFile(path, problem))) continue;
    sources.push({ harness: ID, path, kind: "sqlite", companions: [`${path}-wal`] });
    dbs++;
  }
  const idb = join(app, "IndexedDB");
  if (!dbs && (await isDir(idb))) sources.push(markerSource(ID, idb, V1_NOTE));
  return { roots: [app, ...agentRoots], sources };
}

/** The Cherry Studio parser. */
export const cherrystudio: Parser = {
  id: ID,
  discover,
  parse(source, ctx) {
    if (isMarker(source)) return markerParse(source, ctx);
    if (source.kind === "sqlite") return readCherryDb(ID, source.path, ctx);
    return agents.parse(source, ctx);
  },
};
