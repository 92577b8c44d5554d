/**
 * Codex rollout files as sources: discovery (plain and compressed rollouts)
 * and one file's read with {@link RolloutReader}, resumed from an offset,
 * started again when a rollback takes back turns an earlier pass indexed.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { Env, ParseCtx, Parser, Session, SourceRef } from "../core/model.ts";
import { headRecords, readJsonl } from "./_jsonl.ts";
import { isRegularFile, listFiles, subdirs, type Unreadable } from "../core/fs.ts";
import { historySessions } from "./_prompt_history.ts";
import { zstdJsonl, type ZstRecord } from "./_jsonl_zst.ts";
import { obj } from "./_util.ts";
import { titleFor } from "./_codex_titles.ts";
import {
  dropTime,
  fileId,
  keptEvents,
  type RolloutDialect,
  RolloutReader,
  type RolloutState,
} from "./_codex_reader.ts";

/**
 * A rollout parser: discovery finds `sessions/YYYY/MM/DD/rollout-*.jsonl` and
 * the flat `archived_sessions/` under `home(env)`, each an append source with
 * the title index beside, and their compressed form `rollout-*.jsonl.zst`
 * (a document source). Codex reads the plain file when both exist, and so
 * does this: the `.zst` sibling of a plain file is not listed. Each names the
 * other as `supersedes`: when one replaces the other on disk (compressed
 * after a week, decompressed again to append a turn) the session is read
 * again from the new file, not added to.
 */
/** The year, month and day folders under `dir` (`2026`, `2026/12`, `2026/12/05`). */
async function dateFolders(dir: string, onError?: Unreadable): Promise<string[]> {
  const out: string[] = [];
  let level = [dir];
  for (let depth = 0; depth < 3; depth++) {
    const next: string[] = [];
    for (const d of level) {
      for (const name of await subdirs(d, onError)) next.push(join(d, name));
    }
    out.push(...next);
    level = next;
  }
  return out;
}

export function rolloutParser(dialect: RolloutDialect, home: (env: Env) => string): Parser {
  const harness = dialect.harness;
  const match = (_p: string, name: string) =>
    name.startsWith("rollout-") && (name.endsWith(".jsonl") || name.endsWith(ZST));
  return {
    id: harness,
    async discover(ctx) {
      const root = home(ctx.env);
      const hint = { index: join(root, "session_index.jsonl") };
      const sources: SourceRef[] = [];
      const watch: string[] = [];
      // The date folders are watched too, an empty one as well: a rollout written into a day
      // folder made before the last index changes only that folder (trial 14 found the same
      // gap in Claude Code's project folders).
      watch.push(...await dateFolders(join(root, "sessions"), ctx.problem));
      for (const [dir, maxDepth] of [["sessions", 6], ["archived_sessions", 0]] as const) {
        watch.push(join(root, dir));
        const opts = { match, maxDepth, onError: ctx.problem };
        const paths = await listFiles(join(root, dir), opts);
        const plain = new Set(paths.filter((p) => !p.endsWith(ZST)));
        for (const path of paths) {
          const zst = path.endsWith(ZST);
          const other = zst ? path.slice(0, -ZST.length) : path + ZST;
          if (zst && plain.has(other)) continue;
          const kind = zst ? "document" : "append";
          sources.push({ harness, path, kind, hint, supersedes: [other] });
        }
      }
      if (dialect.history) {
        const path = join(root, "history.jsonl");
        if (await isRegularFile(path, ctx.problem)) {
          sources.push({ harness, path, kind: "append", hint: { history: root } });
        }
      }
      return { roots: [root], sources, watch };
    },
    parse: (source, ctx) =>
      source.hint?.history
        ? readHistory(source, ctx, harness, source.hint.history)
        : readRollout(source, ctx, dialect),
  };
}

/**
 * `history.jsonl` `{session_id, ts (seconds), text}` (realdata/codex): the prompts of
 * threads with no rollout file under `root` (the file names carry the thread id).
 */
async function* readHistory(
  source: SourceRef,
  ctx: ParseCtx,
  harness: string,
  root: string,
): AsyncGenerator<Session> {
  const ids = await rolloutIds(root);
  const fields = { id: "session_id", time: "ts", text: "text" };
  yield* historySessions(harness, source.path, ctx, fields, (id) => ids.has(id));
}

/** The suffix of a compressed rollout (codex-rs `rollout/src/compression.rs`). */
const ZST = ".zst";

/** Records of a rollout: the compressed form whole, the plain one from `ctx.offset`. */
async function* rolloutRecords(path: string, ctx: ParseCtx): AsyncGenerator<ZstRecord> {
  if (path.endsWith(ZST)) {
    yield* zstdJsonl(path, ctx);
    return;
  }
  for await (const line of readJsonl(path, ctx)) {
    yield { value: line.value, where: `${path}@${line.start}` };
  }
}

/** Reads one rollout from `ctx.offset` and yields its session (one per file). */
async function* readRollout(
  source: SourceRef,
  ctx: ParseCtx,
  dialect: RolloutDialect,
): AsyncGenerator<Session> {
  const path = source.path;
  const prior = obj(ctx.state) as RolloutState | undefined;
  const st: RolloutState = prior ? { ...prior } : {};
  if (!prior && ctx.offset > 0) await recoverHead(path, st, dialect);
  let r = new RolloutReader(
    path,
    st,
    dialect,
    (reason, where, detail) => ctx.skip(reason, where, detail),
    ctx,
  );
  let records = 0;
  for await (const { value, where } of rolloutRecords(path, ctx)) {
    records++;
    r.record(value, where);
  }
  let whole = false;
  if (r.overran && ctx.offset > 0) {
    // A rollback took back turns an earlier pass indexed: read the file again from the start.
    for (const k of Object.keys(st)) delete st[k as keyof RolloutState];
    r = new RolloutReader(path, st, dialect, () => {}, {});
    const from0: ParseCtx = { env: ctx.env, offset: 0, state: undefined, since: 0, skip() {} };
    for await (const { value, where } of rolloutRecords(path, from0)) r.record(value, where);
    ctx.endOffset = from0.endOffset;
    whole = true;
  }
  // (`zstdJsonl` reports an empty compressed file itself.)
  // A file whose only line is still being written is not empty (readJsonl counts that line).
  if (records === 0 && ctx.offset === 0 && (ctx.endOffset ?? 0) > 0 && !path.endsWith(ZST)) {
    ctx.skip("empty", path, "no records");
  }
  ctx.endState = st;
  // A parent's copy is read once it has ended; a pass that resumed inside it reads the head again.
  const fromStart = ctx.offset === 0 || whole;
  if (!st.inherited && (fromStart ? r.copy : prior?.inherited) && source.hint?.index) {
    yield* orphanCopies(
      source,
      fromStart ? r : await headCopy(path, dialect, ctx.env),
      dialect.harness,
    );
  }
  const events = keptEvents(r);
  if (events.length === 0 && !whole) return;
  const title = await titleFor(source, st.id ?? fileId(path));
  yield {
    harness: dialect.harness,
    id: st.id ?? fileId(path),
    ...(st.cwd ? { project: st.cwd } : {}),
    ...(title ? { title } : {}),
    ...(st.started !== undefined ? { started: st.started } : {}),
    ...(r.updated !== undefined ? { updated: r.updated } : {}),
    ...(st.model ? { model: st.model } : {}),
    ...(st.parent ? { parent: st.parent } : {}),
    path,
    events,
    ...(whole ? { whole } : {}),
  };
}

/**
 * The parents' histories a forked rollout copies (realdata Codex Desktop 0.119: thread
 * 019d924b holds its parent 019d9249's turns, and no other file holds them), each yielded as
 * the parent's session when no rollout of the store is named with the parent's id; a parent
 * with a rollout of its own is read from it, and the copy is dropped. Read once the copy has
 * ended (the fork's first own turn); a fork that never had a turn of its own keeps it unread.
 */
async function* orphanCopies(
  source: SourceRef,
  r: RolloutReader,
  harness: string,
): AsyncGenerator<Session> {
  let ids: Set<string> | undefined;
  for (let c = r.copy; c; c = c.copy) {
    const id = c.st.id;
    // The copy's lines carry the time the fork wrote them, not when the parent's turns ran
    // (trial 105 F8: every event of 019d9249 read 17:58, the copy's minute, where the session
    // began at 17:56): its events are undated; the session keeps its start and the copy's time.
    const events = keptEvents(c, true).map(dropTime);
    if (!id || id === r.st.id || !events.length) continue;
    ids ??= await rolloutIds(dirname(source.hint!.index));
    if (ids.has(id)) continue;
    const title = await titleFor(source, id);
    yield {
      harness,
      id,
      ...(c.st.cwd ? { project: c.st.cwd } : {}),
      ...(title ? { title } : {}),
      ...(c.st.started !== undefined ? { started: c.st.started } : {}),
      ...(c.updated !== undefined ? { updated: c.updated } : {}),
      ...(c.st.model ? { model: c.st.model } : {}),
      ...(c.st.parent ? { parent: c.st.parent } : {}),
      path: source.path,
      events,
    };
  }
}

/** A reader that read `path` from its start, quietly, for the parent copy it holds. */
async function headCopy(path: string, dialect: RolloutDialect, env: Env): Promise<RolloutReader> {
  const r = new RolloutReader(path, {}, dialect, () => {}, {});
  const from0: ParseCtx = { env, offset: 0, state: undefined, since: 0, skip() {} };
  for await (const { value, where } of rolloutRecords(path, from0)) {
    r.record(value, where);
    if (r.copy && !r.st.inherited) break;
  }
  return r;
}

/** The thread ids the rollout file names under a Codex home carry. */
async function rolloutIds(root: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const dir of ["sessions", "archived_sessions"]) {
    const opts = { match: (_p: string, n: string) => n.startsWith("rollout-"), maxDepth: 6 };
    for (const p of await listFiles(join(root, dir), opts)) ids.add(fileId(p));
  }
  return ids;
}

/** Rebuilds the state from the first records when a resumed pass has none saved. */
async function recoverHead(path: string, st: RolloutState, dialect: RolloutDialect) {
  const r = new RolloutReader(path, st, dialect, () => {});
  for (const v of await headRecords(path, 64)) r.record(v, path);
  st.inherited = false;
  delete st.ext;
}
