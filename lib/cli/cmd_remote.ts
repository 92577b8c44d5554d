/**
 * `deja remote`: other machines' history over the user's own ssh and rsync.
 * `add`, `list`, `remove [--purge]`, `sync [name…]`, `policy <name> --no-auto|--auto`.
 */
import { existsSync, rmSync } from "node:fs";
import type { Args, CommandSpec } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import { colors, fmtBytes, printJson } from "./common.ts";
import { acquireWriterLock, indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { dataDir } from "../../core/paths.ts";
import { duration } from "../../core/text.ts";
import { Q } from "../schema.ts";
import { parsers } from "../../parsers/mod.ts";
import { runIndex } from "../indexer.ts";
import {
  checkName,
  loadRemotes,
  mirrorDir,
  parsePathMap,
  parseTarget,
  type Remote,
  saveRemotes,
  unknownRemote,
  updateRemote,
} from "../remote/config.ts";
import { syncRemote, type SyncResult } from "../remote/sync.ts";
import { remoteStatus } from "../remote/status.ts";
import { indexedOrigin } from "./_memory.ts";

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
  async run(a, io) {
    const [sub, ...rest] = a.positionals;
    switch (sub) {
      case "add":
        return add(a, rest, io);
      case "list":
      case undefined:
        return list(a, io);
      case "remove":
      case "rm":
        return remove(a, rest, io);
      case "sync":
        return await sync(a, rest, io);
      case "policy":
        return policy(a, rest, io);
      default:
        throw new DejaError(`no 'remote ${sub}'`, `usage: deja ${USAGE}`);
    }
  },
};

function add(a: Args, rest: string[], io: IO): number {
  const [name, target, ...more] = rest;
  if (!name || !target || more.length) {
    throw new DejaError(
      "remote add takes a name and a target",
      "e.g. deja remote add devbox me@devbox.example:22",
    );
  }
  checkName(name);
  const { host, port } = parseTarget(target);
  const maps = ((a.values["path-map"] as string[] | undefined) ?? []).map(parsePathMap);
  const all = loadRemotes(io.env);
  if (all.some((r) => r.name === name)) {
    throw new DejaError(
      `a remote named '${name}' exists`,
      `'deja remote remove ${name}' first, or pick another name`,
    );
  }
  const r: Remote = { name, host, ...(port ? { port } : {}), pathMaps: maps };
  all.push(r);
  saveRemotes(io.env, all);
  if (a.values.json) printJson(io, { added: r });
  else {io.out(
      `added ${name} (${host}${
        port ? `:${port}` : ""
      }); run 'deja remote sync ${name}' to copy its history\n`,
    );}
  return 0;
}

function list(a: Args, io: IO): number {
  const rows = remoteStatus(io.env);
  if (a.values.json) {
    printJson(io, { remotes: rows });
    return 0;
  }
  if (!rows.length) {
    io.out("no remotes; add one with 'deja remote add <name> <user@host>[:port]'\n");
    return 0;
  }
  const c = colors(io);
  for (const r of rows) {
    const last = r.last_sync ? `synced ${duration(r.lag_ms ?? 0)} ago` : "never synced";
    io.out(
      `${c.bold(r.name.padEnd(12))} ${r.host}${
        r.port ? `:${r.port}` : ""
      }  ${r.sessions} sessions, ${last}` +
        `${r.no_auto ? ", not in hooks/MCP" : ""}\n`,
    );
    for (const m of r.path_maps) io.out(`  ${m.remote} -> ${m.local}\n`);
    if (r.last_error) io.out(`  ${c.red("last error:")} ${r.last_error}\n`);
  }
  return 0;
}

function remove(a: Args, rest: string[], io: IO): number {
  const [name] = rest;
  const all = loadRemotes(io.env);
  const configured = Boolean(name) && all.some((r) => r.name === name);
  // A remote removed earlier without --purge: --purge still clears what it left behind.
  const leftBehind = Boolean(name) && !configured && Boolean(a.values.purge) &&
    (existsSync(mirrorDir(io.env, name)) || indexedOrigin(io, name));
  if (!configured && !leftBehind) throw unknownRemote(name ?? "", all);
  let sessions = 0;
  if (a.values.purge) sessions = purge(io, name);
  saveRemotes(io.env, all.filter((r) => r.name !== name));
  if (a.values.json) printJson(io, { removed: name, purged: Boolean(a.values.purge), sessions });
  else {
    io.out(
      a.values.purge
        ? `removed ${name}, its mirror and ${sessions} sessions\n`
        : `removed ${name}; its sessions stay searchable (--purge deletes them and the mirror)\n`,
    );
  }
  return 0;
}

/** Deletes a remote's mirror and what the index holds from it; returns the sessions removed. */
function purge(io: IO, name: string): number {
  const dir = mirrorDir(io.env, name);
  let n = 0;
  const path = indexPath(io.env);
  if (existsSync(path)) {
    const lock = acquireWriterLock(dataDir(io.env), 10_000);
    try {
      const store = Store.open(path);
      try {
        store.tx(() => {
          const ids = Q.sessionsOfOrigin.all(store, { origin: name }).map((r) => r.id);
          n = ids.length;
          Q.deleteSessions.run(store, { ids: JSON.stringify(ids) });
          const like = `${dir.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
          for (
            const { path } of Q.sourcesUnder.all(store, { like })
          ) {
            Q.forgetSource.run(store, { path });
            Q.clearRedactions.run(store, { source: path });
          }
        });
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

async function sync(a: Args, names: string[], io: IO): Promise<number> {
  const all = loadRemotes(io.env);
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
    if (!a.values.json && io.errTTY) io.err(`syncing ${r.name} (${r.host})…\n`);
    results.push(await syncRemote(io.env, r, parsers));
  }
  // What was copied is indexed at once (only what changed is read); a failed remote keeps its
  // previous mirror, which the index leaves as it was.
  const idx = await runIndex(io.env, parsers, { remotes: true, waitMs: 30_000 });
  const indexed = idx.harnesses.filter((h) => h.origin).reduce(
    (m, h) => m.set(h.origin!, (m.get(h.origin!) ?? 0) + h.sessions),
    new Map<string, number>(),
  );
  const code = results.every((r) => r.ok) ? 0 : 2;
  if (a.values.json) {
    printJson(io, {
      remotes: results.map((r) => ({ ...r, sessions: indexed.get(r.remote) ?? 0 })),
    });
    return code;
  }
  for (const r of results) {
    if (r.ok) {
      io.out(
        `${r.remote}: ${r.files} files changed, ${fmtBytes(r.bytes)} received in ${
          (r.ms / 1000).toFixed(1)
        } s; ${indexed.get(r.remote) ?? 0} sessions indexed\n`,
      );
      if (r.warning) io.err(`deja: ${r.remote}: ${r.warning}\n`);
    } else {
      io.err(`deja: ${r.remote}: ${r.error}\n${r.hint ? `hint: ${r.hint}\n` : ""}`);
    }
  }
  return code;
}

function policy(a: Args, rest: string[], io: IO): number {
  const [name] = rest;
  if (!name || a.values["no-auto"] === a.values.auto) {
    throw new DejaError(
      "remote policy takes a name and --no-auto or --auto",
      "e.g. deja remote policy devbox --no-auto",
    );
  }
  const r = updateRemote(io.env, name, (x) => {
    if (a.values["no-auto"]) x.noAuto = true;
    else delete x.noAuto;
  });
  if (a.values.json) printJson(io, { remote: r.name, no_auto: Boolean(r.noAuto) });
  else io.out(`${name}: ${r.noAuto ? "hooks and MCP leave it out" : "hooks and MCP include it"}\n`);
  return 0;
}
