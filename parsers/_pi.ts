/**
 * The one pi-family JSONL reader: pi and its forks (omp, prime-agent, Senpi,
 * gajae-code, Kimchi) and OpenClaw's older transcripts all write pi session
 * files. Each harness's parser only says where its files live
 * ({@link piJsonlParser}); this module reads them.
 *
 * - One session per file, append-only (kind "append"). The `session` header is the
 *   first line (pi, prime, senpi, gjc, kimchi, openclaw) or follows omp's fixed-width
 *   `title` slot (realdata/farm omp 18.2.3). Every pass re-reads the head of the file
 *   ({@link headRecords}) so a pass resumed past the header keeps the header's id and
 *   cwd; the header fields also travel in `ctx.endState`.
 * - Without a header the id is the file name's stem (the same on every pass).
 * - A child run filed one level down, `<dir>/<session>/<n>-<name>.jsonl` beside
 *   `<dir>/<session>.jsonl` (gjc sub-agent passes, docs/registry/gjc.md; omp task children),
 *   gets `parent` = that session's header id; its own id is its header id, or
 *   `<parent>/<stem>` when that would equal the parent's.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { DiscoverCtx, Env, ParseCtx, Parser, Session, SourceRef } from "../core/model.ts";
import { headRecords, readJsonl } from "./_jsonl.ts";
import { statOrNull, subdirs, walk } from "../core/fs.ts";
import { obj } from "./_util.ts";
import { applyHeader, type PiMeta, PiReader } from "./_pi_events.ts";

/** How many leading records may precede the header (omp's title slot comes first). */
const HEAD_RECORDS = 4;

/** Where one pi-family harness keeps its session files. */
export interface PiLayout {
  /** Harness id. */
  id: string;
  /** Directories to walk for `*.jsonl`, in priority order (missing ones yield nothing). */
  roots(env: Env, knownProjects: string[]): string[] | Promise<string[]>;
  /**
   * Directories walked after the roots that are only places a store may be (in the projects
   * other harnesses know): one a folder above may not be opened is passed over in silence
   * (core/fs.ts, `walk`'s `probe`).
   */
  probes?(knownProjects: string[]): string[];
  /** Keeps a found file (default: every `*.jsonl`). */
  accept?(path: string, name: string): boolean;
  /** How deep below a root to look (default 3: `<project dir>/<session>/<child>.jsonl`). */
  maxDepth?: number;
  /** The parent session id a file's place implies, beyond the shared `<session>/` rule. */
  parentOf?(path: string): string | undefined;
}

/** Finds the `*.jsonl` files of a layout. */
export async function discoverPi(layout: PiLayout, ctx: DiscoverCtx) {
  const told = new Set(await layout.roots(ctx.env, ctx.knownProjects));
  const roots = [...new Set([...told, ...layout.probes?.(ctx.knownProjects) ?? []])];
  const sources: SourceRef[] = [];
  const seen = new Set<string>();
  const match = (p: string, name: string) =>
    name.endsWith(".jsonl") && (layout.accept?.(p, name) ?? true);
  for (const root of roots) {
    const opts = {
      match,
      maxDepth: layout.maxDepth ?? 3,
      onError: ctx.problem,
      probe: !told.has(root),
    };
    for await (const path of walk(root, opts)) {
      if (seen.has(path)) continue;
      seen.add(path);
      sources.push({ harness: layout.id, path, kind: "append" });
    }
  }
  return { roots, sources };
}

/** A Parser for a pi-family layout. */
export function piJsonlParser(layout: PiLayout): Parser {
  return {
    id: layout.id,
    discover: (ctx) => discoverPi(layout, ctx),
    parse: (source, ctx) => parsePiJsonl(source, ctx, layout.parentOf),
  };
}

/** The file name without `.jsonl`. */
export function fileStem(path: string): string {
  return basename(path).replace(/\.jsonl$/, "");
}

/** Reads the header (and omp title slot) among the first records of a file into `meta`. */
export async function readHead(path: string, meta: PiMeta): Promise<void> {
  let head: unknown[] = [];
  try {
    head = await headRecords(path, HEAD_RECORDS);
  } catch { /* unreadable head: the saved state stands */ }
  for (const r of head) {
    const o = obj(r);
    if (o?.type === "session") applyHeader(meta, o);
    else if (o?.type === "title" && typeof o.title === "string" && o.title.trim()) {
      meta.title ??= o.title.trim();
    }
  }
}

/** The header id of `<dir>.jsonl` for a file inside `<dir>/`, when that file exists. */
async function parentFromSibling(path: string): Promise<string | undefined> {
  const dir = dirname(path);
  const sibling = `${dir}.jsonl`;
  if (!(await statOrNull(sibling))?.isFile()) return undefined;
  const meta: PiMeta = {};
  await readHead(sibling, meta);
  return meta.id ?? basename(dir);
}

/** Reads one pi-family session file from `ctx.offset`. */
export async function* parsePiJsonl(
  source: SourceRef,
  ctx: ParseCtx,
  parentOf?: (path: string) => string | undefined,
): AsyncGenerator<Session> {
  const path = source.path;
  const meta: PiMeta = { ...(obj(ctx.state) as PiMeta | undefined) };
  await readHead(path, meta);
  meta.parent ??= parentOf?.(path) ?? await parentFromSibling(path);
  const reader = new PiReader(meta, (reason, where, detail) => ctx.skip(reason, where, detail));
  let records = 0;
  for await (const line of readJsonl(path, ctx)) {
    records++;
    reader.record(line.value, `${path}@${line.start}`);
  }
  if (records === 0 && ctx.offset === 0) ctx.skip("empty", path, "no records");
  let id = meta.id ?? fileStem(path);
  if (meta.parent && id === meta.parent) id = `${meta.parent}/${fileStem(path)}`;
  ctx.endState = { ...meta };
  if (reader.events.length === 0) return;
  yield {
    harness: source.harness,
    id,
    ...(meta.cwd ? { project: meta.cwd } : {}),
    ...(meta.title ? { title: meta.title } : {}),
    ...(meta.started !== undefined ? { started: meta.started } : {}),
    ...(reader.updated !== undefined ? { updated: reader.updated } : {}),
    ...(meta.model ? { model: meta.model } : {}),
    ...(meta.parent ? { parent: meta.parent } : {}),
    path,
    events: reader.events,
  };
}

/** `<dir>/<sub>/<parts...>` for each subdirectory of `dir` (none when `dir` is missing). */
export async function eachSubdir(dir: string, ...parts: string[]): Promise<string[]> {
  return (await subdirs(dir)).map((name) => join(dir, name, ...parts));
}
