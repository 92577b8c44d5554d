/**
 * `deja remote`: other machines' history over the user's own ssh and rsync.
 * `add`, `list`, `remove [--purge]`, `sync [name…]`, `policy <name> --no-auto|--auto`.
 *
 * Parse ({@link parseRemote}: one typed request per subcommand) → run ({@link addRemote},
 * `remoteStatus`, {@link removeRemote}, {@link syncRemotes}, {@link setPolicy}) → render
 * ({@link remoteJson}, {@link remoteText}; a failed sync's message goes to stderr).
 *
 * @module
 */
import { existsSync, rmSync } from "node:fs";
import type { Args, CommandSpec } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import type { Env } from "../../core/model.ts";
import { colors, fmtBytes, printJson } from "./common.ts";
import { acquireWriterLock, indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { dataDir } from "../../core/paths.ts";
import { harnessId } from "../../core/registry.ts";
import { duration, plural } from "../../core/text.ts";
import { Q } from "../schema.ts";
import { parsers } from "../../parsers/mod.ts";
import { runIndex } from "../indexer.ts";
import {
  checkName,
  loadRemotes,
  mirrorDir,
  parsePathMap,
  parseTarget,
  type PathMap,
  type Remote,
  saveRemotes,
  unknownRemote,
  updateRemote,
} from "../remote/config.ts";
import { syncRemote, type SyncResult } from "../remote/sync.ts";
import { type RemoteStatus, remoteStatus } from "../remote/status.ts";
import { indexedOrigin, originSessions } from "./_memory.ts";
import { removeSessions } from "../forget/forget.ts";

const USAGE = "remote add <name> <user@host>[:port] [--path-map remote=local]… | remote list | " +
  "remote remove <name> [--purge] | remote sync [name…] | remote policy <name> --no-auto|--auto";

export const remoteCmd: CommandSpec = {
  usage: USAGE,
  options: {
    "path-map": {
      type: "string",
      value: "<remote=local>",
      description: "add: a remote directory and where it is cloned here (repeatable)",
      multiple: true,
    },
    purge: { type: "boolean", description: "remove: also delete the mirror and its sessions" },
    "no-auto": { type: "boolean", description: "policy: hooks and MCP leave this remote out" },
    auto: { type: "boolean", description: "policy: hooks and MCP include this remote again" },
    json: { type: "boolean", description: "print as JSON (docs/json-output.md)" },
  },
  dashed: dashedArg,
  // trial 101 F2: where a remote's stores are looked for, and DEJA_SSH, were in no help.
  details: [
    "Where a remote's stores are looked for: when deja is installed there, where its own",
    "'deja sources --json' finds them; else at the registry's default paths under the home the",
    "ssh login has there ($HOME of that login, not this shell's) and the store variables set in",
    "that login's environment (CODEX_HOME, XDG_DATA_HOME, …). A sync that finds none warns",
    "with what it looked for, and exits 1; 'remote list' names stores gone since an earlier sync.",
    "A session file deleted on the remote is deleted from the mirror too, and said: its sessions",
    "stay in the index ('remote list' and 'deja sources' count them gone, kept).",
    "",
    "ssh is the command DEJA_SSH names (split on spaces; e.g. 'ssh -F /path/to/ssh_config'), else",
    "'ssh' on PATH, with your ssh config, keys and agent. rsync must be on both machines.",
    "Exit status: 0 synced, 1 a remote had no store, 2 a remote could not be synced.",
  ].join("\n"),
  run: runRemote,
};

/**
 * The error for an argument starting with a dash, read as an unknown option: no host
 * (ssh would read it as an option: `-oProxyCommand=…`) nor remote name may start with one,
 * so `deja remote -- …` would be refused too and is not hinted (user trial, 2026-12).
 */
function dashedArg(arg: string, before: string[]): DejaError | undefined {
  if (arg.startsWith("--")) return undefined; // a long option it does not take
  try {
    const [sub, n] = [before[0], before.length];
    if (sub === "add" && n === 2) parseTarget(arg);
    else if (sub === "add" || sub === "remove" || sub === "policy" ? n === 1 : sub === "sync") {
      checkName(arg);
    }
  } catch (e) {
    if (e instanceof DejaError) return e;
    throw e;
  }
  return undefined;
}

/** What `deja remote` was asked: one request per subcommand. */
export type RemoteArgs =
  & { json: boolean }
  & (
    | { sub: "add"; name: string; host: string; port?: number; pathMaps: PathMap[] }
    | { sub: "list" }
    /** `name` as typed ("" when none was): an unknown one is refused when it runs. */
    | { sub: "remove"; name: string; purge: boolean }
    /** No names: every remote. */
    | { sub: "sync"; names: string[] }
    | { sub: "policy"; name: string; noAuto: boolean }
  );

/** What a subcommand did, for the render step. */
export type RemoteResult =
  | { sub: "add"; added: Remote }
  | { sub: "list"; remotes: RemoteStatus[] }
  | { sub: "remove"; removed: string; purged: boolean; sessions: number }
  | { sub: "sync"; remotes: Array<SyncResult & { sessions: number }> }
  | { sub: "policy"; remote: Remote };

/**
 * Reads `deja remote`'s arguments: the subcommand, its name and target checked.
 *
 * @throws {DejaError} on an unknown subcommand, a missing or bad name, target or path map.
 */
export function parseRemote(a: Args): RemoteArgs {
  const [sub, ...rest] = a.positionals;
  const json = Boolean(a.values.json);
  switch (sub) {
    case "add": {
      const [name, target, ...more] = rest;
      if (!name || !target || more.length) {
        throw new DejaError(
          "remote add takes a name and a target",
          "e.g. deja remote add devbox me@devbox.example:22",
        );
      }
      checkName(name);
      // `<name>:<id>` names a remote's session, `<harness>:<id>` a harness's: one name cannot
      // be both (trial 63: sessions of a remote named claude were reached only as
      // claude:claude:<id>).
      const harness = harnessId(name);
      if (harness) {
        throw new DejaError(
          `'${name}' names a harness (${harness}), so it cannot name a remote`,
          `pick another name, e.g. ${name}-box: its sessions are then ${name}-box:<id>`,
        );
      }
      const { host, port } = parseTarget(target);
      const pathMaps = ((a.values["path-map"] as string[] | undefined) ?? []).map(parsePathMap);
      return { sub, json, name, host, ...(port ? { port } : {}), pathMaps };
    }
    case "list":
    case undefined:
      return { sub: "list", json };
    case "remove":
    case "rm":
      return { sub: "remove", json, name: rest[0] ?? "", purge: Boolean(a.values.purge) };
    case "sync":
      return { sub, json, names: rest };
    case "policy": {
      const [name] = rest;
      if (!name || a.values["no-auto"] === a.values.auto) {
        throw new DejaError(
          "remote policy takes a name and --no-auto or --auto",
          "e.g. deja remote policy devbox --no-auto",
        );
      }
      return { sub, json, name, noAuto: Boolean(a.values["no-auto"]) };
    }
    default:
      throw new DejaError(`no 'remote ${sub}'`, `usage: deja ${USAGE}`);
  }
}

/**
 * Adds a remote to remotes.json.
 *
 * @throws {DejaError} when one of that name exists, or one of that target (`user@host` as typed,
 *   and port, 22 the same as none): its sessions would be indexed twice, once under each name
 *   (trial 112 F9).
 */
export function addRemote(env: Env, args: Extract<RemoteArgs, { sub: "add" }>): Remote {
  const all = loadRemotes(env);
  if (all.some((r) => r.name === args.name)) {
    throw new DejaError(
      `a remote named '${args.name}' exists`,
      `'deja remote remove ${args.name}' first, or pick another name`,
    );
  }
  // ssh's default port written out is the same target (trial 113 F5: `me@host` and `me@host:22`
  // were both added); an ssh config alias is not followed (it may set another port).
  const port = (p?: number) => p === 22 ? undefined : p;
  const same = all.find((r) => r.host === args.host && port(r.port) === port(args.port));
  if (same) {
    const target = `${same.host}${same.port ? `:${same.port}` : ""}`;
    throw new DejaError(
      `${target} is already the remote '${same.name}': under a second name each of its ` +
        "sessions would be indexed twice",
      `'deja remote sync ${same.name}' syncs it; to give it another name, 'deja remote remove ` +
        `${same.name} --purge' first (its mirror and sessions go; the next sync copies them again)`,
    );
  }
  const r: Remote = {
    name: args.name,
    host: args.host,
    ...(args.port ? { port: args.port } : {}),
    pathMaps: args.pathMaps,
  };
  all.push(r);
  saveRemotes(env, all);
  return r;
}

/**
 * Removes a remote; with `purge`, its mirror and the sessions the index holds
 * from it too (also of a remote removed earlier without `--purge`).
 *
 * @throws {DejaError} when the name is neither configured nor left behind.
 */
export function removeRemote(
  env: Env,
  args: Extract<RemoteArgs, { sub: "remove" }>,
): Extract<RemoteResult, { sub: "remove" }> {
  const { name } = args;
  const all = loadRemotes(env);
  const configured = Boolean(name) && all.some((r) => r.name === name);
  // A remote removed earlier without --purge: --purge still clears what it left behind.
  const leftBehind = Boolean(name) && !configured && args.purge &&
    (existsSync(mirrorDir(env, name)) || indexedOrigin({ env }, name));
  if (!configured && !leftBehind) throw unknownRemote(name, all);
  // Kept sessions are counted too (trial 63: "its sessions stay searchable" of a remote that
  // never had any).
  const sessions = args.purge ? purge(env, name) : originSessions({ env }, name);
  saveRemotes(env, all.filter((r) => r.name !== name));
  return { sub: "remove", removed: name, purged: args.purge, sessions };
}

/**
 * Deletes a remote's mirror and what the index holds from it; returns the sessions removed.
 * The sessions go as `deja forget` removes them (lib/forget/forget.ts `removeSessions`): the
 * words only they held leave the vocabulary, the FTS segments are merged and the file rewritten
 * (trial 101 F3: a purged remote's words stayed in `vocab` and in `stats`' word count).
 */
function purge(env: Env, name: string): number {
  const dir = mirrorDir(env, name);
  let n = 0;
  const path = indexPath(env);
  if (existsSync(path)) {
    const lock = acquireWriterLock(dataDir(env), 10_000);
    try {
      const store = Store.open(path);
      try {
        const ids = Q.sessionsOfOrigin.all(store, { origin: name }).map((r) => r.id);
        const rows = Q.sessionsByIds.all(store, { ids: JSON.stringify(ids) });
        n = rows.length;
        // The mirror's sources first: removeSessions' rewrite of the file then leaves nothing
        // of them either.
        store.tx(() => {
          const like = `${dir.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
          for (const { path } of Q.sourcesUnder.all(store, { like })) {
            Q.forgetSource.run(store, { path });
            Q.clearRedactions.run(store, { source: path });
          }
        });
        removeSessions(store, rows);
      } finally {
        store.close();
      }
    } finally {
      lock.release();
    }
  }
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${dir}/../.${name}.partial`, { recursive: true, force: true });
  return n;
}

/**
 * Syncs the named remotes (every one when none is named), then indexes what
 * was copied; `progress` hears each remote as it starts.
 *
 * @throws {DejaError} on an unknown name, or when there is no remote at all.
 */
export async function syncRemotes(
  env: Env,
  names: string[],
  progress: (r: Remote) => void = () => {},
): Promise<Extract<RemoteResult, { sub: "sync" }>> {
  const all = loadRemotes(env);
  for (const n of names) if (!all.some((r) => r.name === n)) throw unknownRemote(n, all);
  const chosen = names.length ? all.filter((r) => names.includes(r.name)) : all;
  if (!chosen.length) {
    throw new DejaError(
      "no remotes to sync",
      "add one with 'deja remote add <name> <user@host>[:port]'",
    );
  }
  const results: SyncResult[] = [];
  for (const r of chosen) {
    progress(r);
    results.push(await syncRemote(env, r, parsers));
  }
  // What was copied is indexed at once (only what changed is read); a failed remote keeps its
  // previous mirror, which the index leaves as it was.
  const idx = await runIndex(env, parsers, { remotes: true, waitMs: 30_000 });
  const indexed = idx.harnesses.filter((h) => h.origin).reduce(
    (m, h) => m.set(h.origin!, (m.get(h.origin!) ?? 0) + h.sessions),
    new Map<string, number>(),
  );
  return {
    sub: "sync",
    remotes: results.map((r) => ({ ...r, sessions: indexed.get(r.remote) ?? 0 })),
  };
}

/** Sets whether hooks and MCP leave the remote out. @throws {DejaError} on an unknown name */
export function setPolicy(env: Env, args: Extract<RemoteArgs, { sub: "policy" }>): Remote {
  return updateRemote(env, args.name, (x) => {
    if (args.noAuto) x.noAuto = true;
    else delete x.noAuto;
  });
}

/**
 * The exit code: 2 when a sync failed; else 1 when a remote synced had no store (nothing
 * found, as a search that finds nothing: trial 101 F2, a wrong HOME synced as a silent 0);
 * else 0.
 */
export function remoteExit(r: RemoteResult): number {
  if (r.sub !== "sync") return 0;
  if (!r.remotes.every((x) => x.ok)) return 2;
  return r.remotes.some((x) => !x.roots.length) ? 1 : 0;
}

/** The `--json` document (docs/json-output.md, `remote`). */
export function remoteJson(r: RemoteResult): Record<string, unknown> {
  switch (r.sub) {
    case "add":
      return { added: r.added };
    case "list":
      return { remotes: r.remotes };
    case "remove":
      return { removed: r.removed, purged: r.purged, sessions: r.sessions };
    case "sync":
      return { remotes: r.remotes };
    case "policy":
      return { remote: r.remote.name, no_auto: Boolean(r.remote.noAuto) };
  }
}

/** One write of the text output: to stdout, or to stderr (a sync's warnings and failures). */
export interface RemoteWrite {
  to: "out" | "err";
  text: string;
}

/** What a subcommand prints, in order. */
export function remoteText(r: RemoteResult, io: Pick<IO, "isTTY" | "env">): RemoteWrite[] {
  const out = (text: string): RemoteWrite[] => [{ to: "out", text }];
  switch (r.sub) {
    case "add": {
      const a = r.added;
      return out(
        `added ${a.name} (${a.host}${
          a.port ? `:${a.port}` : ""
        }); run 'deja remote sync ${a.name}' to copy its history\n`,
      );
    }
    case "list":
      return out(listText(r.remotes, io));
    case "remove":
      return out(
        r.purged
          ? `removed ${r.removed}, its mirror and ${plural(r.sessions, "session")}\n`
          : r.sessions
          ? `removed ${r.removed}; its ${r.sessions} ${
            r.sessions === 1 ? "session stays" : "sessions stay"
          } searchable (--purge deletes them and the mirror)\n`
          : `removed ${r.removed} (no session of it was indexed)\n`,
      );
    case "sync":
      return syncText(r.remotes);
    case "policy":
      return out(
        `${r.remote.name}: ${
          r.remote.noAuto ? "hooks and MCP leave it out" : "hooks and MCP include it"
        }\n`,
      );
  }
}

function listText(rows: RemoteStatus[], io: Pick<IO, "isTTY" | "env">): string {
  if (!rows.length) return "no remotes; add one with 'deja remote add <name> <user@host>[:port]'\n";
  const c = colors(io);
  let out = "";
  for (const r of rows) {
    const last = r.last_sync ? `synced ${duration(r.lag_ms ?? 0)} ago` : "never synced";
    out +=
      `${c.bold(r.name.padEnd(12))} ${r.host}${r.port ? `:${r.port}` : ""}  ${
        plural(r.sessions, "session")
      }, ${last}` +
      `${r.no_auto ? ", not in hooks/MCP" : ""}\n`;
    for (const m of r.path_maps) out += `  ${m.remote} -> ${m.local}\n`;
    // Copies of stores the remote no longer had: their sessions are not current (trial 101 F2).
    if (r.stale_roots.length) {
      out += `  ${c.red("not on the remote at the last sync:")} ${
        r.stale_roots.join(", ")
      } (its sessions are from an earlier sync)\n`;
    }
    // Session files deleted on the remote, and so from the mirror: kept (trial 113 F10).
    if (r.gone_stores.length) {
      const shown = r.gone_stores.slice(0, 4).join(", ") +
        (r.gone_stores.length > 4 ? `, … ${r.gone_stores.length - 4} more` : "");
      out += `  ${
        c.dim("gone from the remote since an earlier sync:")
      } ${shown} (${r.gone_stores.length} gone, ${plural(r.gone_sessions, "session")} kept)\n`;
    }
    if (r.last_error) out += `  ${c.red("last error:")} ${r.last_error}\n`;
  }
  return out;
}

function syncText(results: Array<SyncResult & { sessions: number }>): RemoteWrite[] {
  const w: RemoteWrite[] = [];
  for (const r of results) {
    if (r.ok) {
      w.push({
        to: "out",
        text: `${r.remote}: ${plural(r.files, "file")} changed, ${
          r.gone.length ? `${r.gone.length} gone (its sessions kept), ` : ""
        }${fmtBytes(r.bytes)} received in ${(r.ms / 1000).toFixed(1)} s; ${
          plural(r.sessions, "session")
        } indexed\n`,
      });
      if (r.warning) {
        w.push({
          to: "err",
          text: `deja: ${r.remote}: ${r.warning}\n${r.hint ? `hint: ${r.hint}\n` : ""}`,
        });
      }
    } else {
      w.push({
        to: "err",
        text: `deja: ${r.remote}: ${r.error}\n${r.hint ? `hint: ${r.hint}\n` : ""}`,
      });
    }
  }
  return w;
}

async function runRemote(a: Args, io: IO): Promise<number> {
  const args = parseRemote(a);
  let r: RemoteResult;
  switch (args.sub) {
    case "add":
      r = { sub: "add", added: addRemote(io.env, args) };
      break;
    case "list":
      r = { sub: "list", remotes: remoteStatus(io.env) };
      break;
    case "remove":
      r = removeRemote(io.env, args);
      break;
    case "sync":
      r = await syncRemotes(io.env, args.names, (x) => {
        if (!args.json && io.errTTY) io.err(`syncing ${x.name} (${x.host})…\n`);
      });
      break;
    case "policy":
      r = { sub: "policy", remote: setPolicy(io.env, args) };
      break;
  }
  if (args.json) printJson(io, remoteJson(r));
  else {
    for (const w of remoteText(r, io)) io[w.to](w.text);
  }
  return remoteExit(r);
}
