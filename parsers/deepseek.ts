/**
 * DeepSeek Harness (`dsh`, deepseek-harness): session logs.
 *
 * Layout: `${DEJA_DEEPSEEK_ROOT:-${DSH_HOME:-~/.dsh}/sessions}/<project
 * key>/<session dir>/<log>` (docs/registry/deepseek.md; confirmed in
 * deepseek-harness `session-persistence-jsonl/src/format.ts` via the search
 * tool: the project key is `--<cwd with separators as ->--`, or `_no-cwd`;
 * the session dir is the id with unsafe characters escaped as `~XXXX`).
 * `<log>` is `session.jsonl` for format v0 and `session.v<N>.jsonl` for
 * later formats, each with `.zstd` when compressed (the default). A
 * migration writes the new generation beside the old one and keeps the old
 * file, so only the highest generation of a directory is read (compressed
 * preferred over plain at equal generation).
 *
 * Encoding: the compressed log is a chain of zstd frames, one per flush;
 * the first frame holds exactly the header line (`format.ts`,
 * `assertZstdHeaderFrame`). All complete frames are decoded (see
 * `_zstd.ts`: node:zlib alone would stop after the header); an incomplete
 * last frame is a write in progress and is left for the next read. A
 * compressed log is a `document` source (re-read whole); a plain one is an
 * `append` source read from the last offset, its header re-read from the
 * top of the file on every pass so a resumed parse keeps the session id.
 *
 * Header (first record): `{type: "session", version, id, createdAt (epoch
 * ms), cwd?, parentSession?, origin?: "subagent", delegationDepth}`
 * (`format.ts`). Session id is the header `id` (the directory name when the
 * header is missing); `project` `cwd`; `parent` `parentSession`; `started`
 * `createdAt`; `updated` the newest record `time` (epoch ms). Records:
 * `_deepseek_events.ts`.
 *
 * @module
 */
import { basename, dirname } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { listFiles, statOrNull } from "../core/fs.ts";
import { headRecords, readJsonl } from "./_jsonl.ts";
import { rootFrom } from "../core/paths.ts";
import { num, type Obj, obj, str } from "./_util.ts";
import { zstdJsonl } from "./_jsonl_zst.ts";
import { DshFolder } from "./_deepseek_events.ts";

const ID = "deepseek";
const LOG = /^session(?:\.v(\d+))?\.jsonl(\.zstd)?$/;

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const root = rootFrom(env, ID, [["DSH_HOME", "sessions"]], "~/.dsh/sessions");
  const files = await listFiles(root, {
    match: (_p, n) => LOG.test(n),
    maxDepth: 2,
    onError: problem,
  });
  const best = new Map<string, { path: string; rank: number }>();
  for (const path of files) {
    const m = LOG.exec(basename(path));
    if (!m) continue;
    const rank = Number(m[1] ?? 0) * 2 + (m[2] ? 1 : 0);
    const dir = dirname(path);
    if ((best.get(dir)?.rank ?? -1) < rank) best.set(dir, { path, rank });
  }
  const sources: SourceRef[] = [...best.values()].map(({ path }) => ({
    harness: ID,
    path,
    kind: path.endsWith(".zstd") ? "document" : "append",
  }));
  return { roots: [root], sources };
}

interface Rec {
  value: unknown;
  where: string;
}

/** Records of a plain log from `ctx.offset`. */
async function* plainRecords(path: string, ctx: ParseCtx): AsyncGenerator<Rec> {
  let any = false;
  for await (const line of readJsonl(path, ctx)) {
    any = true;
    yield { value: line.value, where: `${path}@${line.start}` };
  }
  if (!any && ctx.offset === 0 && ((await statOrNull(path))?.size ?? 0) === 0) {
    ctx.skip("empty", path);
  }
}

/** Header fields, from the current header or a legacy `{type, data: {...}}` one. */
function headerOf(rec: Obj): Obj {
  return obj(rec.data) && rec.id === undefined ? { ...obj(rec.data) } : rec;
}

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const zstd = source.path.endsWith(".zstd");
  const records = zstd ? zstdJsonl(source.path, ctx) : plainRecords(source.path, ctx);
  let header: Obj | undefined;
  if (!zstd && ctx.offset > 0) {
    const head = obj((await headRecords(source.path, 1))[0]);
    if (head?.type === "session") header = headerOf(head);
  }
  let folder: DshFolder | undefined;
  let first = zstd || ctx.offset === 0;
  for await (const { value, where } of records) {
    const rec = obj(value);
    if (first) {
      first = false;
      if (rec?.type === "session") {
        header = headerOf(rec);
        continue;
      }
      ctx.skip("unknown_record", where, "first record is not a session header");
      continue;
    }
    if (!rec) {
      ctx.skip("bad_shape", where, "not a JSON object");
      continue;
    }
    folder ??= new DshFolder(str(header?.cwd), ctx.skip.bind(ctx));
    folder.add(rec, where);
  }
  if (!folder) return;
  folder.flush();
  if (!folder.events.length) return;
  yield {
    harness: ID,
    id: str(header?.id) ?? basename(dirname(source.path)),
    project: str(header?.cwd),
    title: folder.title,
    started: num(header?.createdAt) || undefined,
    updated: folder.last ?? (num(header?.createdAt) || undefined),
    model: folder.model,
    parent: str(header?.parentSession),
    path: source.path,
    events: folder.events,
  };
}

/** The DeepSeek Harness parser: one source per session directory, its newest log. */
export const deepseek: Parser = { id: ID, discover, parse };
