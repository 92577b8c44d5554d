/**
 * Antigravity (Google's agent IDE and its `agy` CLI) conversation transcripts.
 *
 * @module
 */
import { readdir } from "node:fs/promises";
import { basename, dirname, join, posix, win32 } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { readJsonl } from "./_jsonl.ts";
import { isDir, readJsonFile, statOrNull, walk } from "../core/fs.ts";
import { expandHome, isAbsoluteAny, overrideVar } from "../core/paths.ts";
import { arr, obj, str } from "./_util.ts";
import { fileUriPath, StepReader } from "./_antigravity_steps.ts";

const ID = "antigravity";
const TRANSCRIPT = join(".system_generated", "logs", "transcript.jsonl");

/**
 * Antigravity (`antigravity`) — one JSONL transcript per conversation, kind "document"
 * (re-read whole when it changes). Every format fact is from docs/registry/antigravity.md (a read of
 * another reader, vshulcz/deja-vu) or that reader's later tests (read via the search tool);
 * no real store was available, so field names are unconfirmed against the harness itself.
 *
 * Store: `DEJA_ANTIGRAVITY_ROOT` (one root), else every directory `~/.gemini/antigravity*`
 * (the IDE's `antigravity`, the CLI's `antigravity-cli`, profile variants). Per root:
 * `brain/<conversationId>/.system_generated/logs/transcript.jsonl`, plus the caches
 * `cache/conversation_metadata.json` (IDE) and `cache/last_conversations.json` (CLI), read
 * again on every pass.
 *
 * Mapping: id = the `<conversationId>` directory name; steps as in `_antigravity_steps.ts`
 * (times: `created_at` RFC 3339 -> epoch ms). Project (an absolute directory), first hit:
 * 1. `conversation_metadata.json` `conversations.<key>.summary.WorkspaceURIs[]`, `<key>` a
 *    prefix of the id or the id a prefix of it: the first `file://` URI's path;
 * 2. `last_conversations.json` `{<workspace path>: <conversationId>}`, same prefix match (it
 *    keeps only the newest conversation of each workspace);
 * 3. the `Cwd` of the first `run_command` planner call (later reader);
 * 4. the deepest directory shared by every absolute path the steps touched, when it has at
 *    least four segments (a bare home directory names nothing), raised to the nearest ancestor
 *    holding `.git` on this machine.
 */
export const antigravity: Parser = {
  id: ID,
  async discover(ctx: DiscoverCtx): Promise<Discovery> {
    const roots = await rootsOf(ctx);
    const sources: SourceRef[] = [];
    const match = (p: string, name: string) =>
      name === "transcript.jsonl" && p.endsWith(TRANSCRIPT);
    for (const root of roots) {
      for await (
        const path of walk(join(root, "brain"), { match, maxDepth: 3, onError: ctx.problem })
      ) {
        sources.push({ harness: ID, path, kind: "document", hint: { root } });
      }
    }
    return { roots, sources };
  },
  parse: parseTranscript,
};

/** `DEJA_ANTIGRAVITY_ROOT`, else the `~/.gemini/antigravity*` directories (or the default one). */
async function rootsOf(ctx: DiscoverCtx): Promise<string[]> {
  const override = ctx.env.get(overrideVar(ID));
  if (override) return [expandHome(ctx.env, override)];
  const gemini = join(ctx.env.home, ".gemini");
  let names: string[] = [];
  try {
    names = await readdir(gemini);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") ctx.problem?.(gemini, e as Error);
  }
  const roots: string[] = [];
  for (const name of names.sort()) {
    if (name.startsWith("antigravity") && (await isDir(join(gemini, name)))) {
      roots.push(join(gemini, name));
    }
  }
  return roots.length ? roots : [join(gemini, "antigravity")];
}

async function* parseTranscript(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const path = source.path;
  const id = basename(dirname(dirname(dirname(path))));
  const root = source.hint?.root ?? dirname(dirname(dirname(dirname(dirname(path)))));
  const reader = new StepReader((reason, where) => ctx.skip(reason, where));
  let records = 0;
  for await (const line of readJsonl(path, ctx)) {
    records++;
    reader.step(line.value, `${path}@${line.start}`);
  }
  if (records === 0) ctx.skip("empty", path, "no records");
  if (reader.events.length === 0) return;
  const project = (await fromCaches(root, id)) ?? reader.cwd ??
    (await fromPaths(reader.paths));
  yield {
    harness: ID,
    id,
    ...(project ? { project } : {}),
    ...(reader.started !== undefined ? { started: reader.started } : {}),
    ...(reader.updated !== undefined ? { updated: reader.updated } : {}),
    path,
    events: reader.events,
  };
}

/** True when one id is a prefix of the other (the caches may shorten either). */
function sameConversation(key: string, id: string): boolean {
  return key !== "" && (key.startsWith(id) || id.startsWith(key));
}

/** The workspace the IDE or CLI cache records for conversation `id`. */
async function fromCaches(root: string, id: string): Promise<string | undefined> {
  const meta = obj(
    obj(await readJsonFile(join(root, "cache", "conversation_metadata.json")))
      ?.conversations,
  );
  for (const [key, conv] of Object.entries(meta ?? {})) {
    if (!sameConversation(key, id)) continue;
    for (const uri of arr(obj(obj(conv)?.summary)?.WorkspaceURIs)) {
      const p = typeof uri === "string" ? fileUriPath(uri) : undefined;
      if (p) return p;
    }
  }
  const last = obj(await readJsonFile(join(root, "cache", "last_conversations.json")));
  for (const [workspace, conv] of Object.entries(last ?? {})) {
    const c = str(conv);
    if (workspace && c && sameConversation(c, id)) return fileUriPath(workspace) ?? workspace;
  }
  return undefined;
}

/**
 * The deepest directory shared by every absolute path (POSIX or Windows, either separator),
 * when it has at least four segments, raised to the nearest ancestor that holds `.git`.
 */
async function fromPaths(paths: string[]): Promise<string | undefined> {
  let common: string[] | undefined;
  let windows = false;
  for (const p of paths) {
    if (!isAbsoluteAny(p)) continue;
    windows ||= !p.startsWith("/");
    const parts = p.replaceAll("\\", "/").split("/").slice(0, -1);
    if (!common) {
      common = parts;
      continue;
    }
    let n = 0;
    while (n < common.length && n < parts.length && common[n] === parts[n]) n++;
    common = common.slice(0, n);
  }
  if (!common || common.length < 4) return undefined;
  const join2 = (segs: string[]) => {
    const s = segs.join("/");
    return windows ? win32.normalize(s) : posix.normalize(s);
  };
  for (let depth = common.length; depth >= 4; depth--) {
    const dir = join2(common.slice(0, depth));
    if (await statOrNull(join(dir, ".git"))) return dir;
  }
  return join2(common);
}
