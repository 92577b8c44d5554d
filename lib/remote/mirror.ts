/**
 * Where a remote's stores are and where their copies live: the roots to
 * mirror (the remote's own `deja sources --json`, else every parser's roots
 * resolved with the remote's home and variables), and the world the parsers
 * see when they read a mirror (the remote's home and variables, each absolute
 * path moved under the mirror directory).
 *
 * @module
 */
import { join } from "node:path";
import type { Env, Parser } from "../../core/model.ts";
import type { Remote, SyncState } from "./config.ts";
import { mirrorDir } from "./config.ts";
import type { Probe } from "./ssh.ts";

/** An {@link Env} of another machine: its home, platform and variables, nothing of this process. */
export function foreignEnv(home: string, platform: string, vars: Record<string, string>): Env {
  return {
    home,
    platform,
    get: (name) => (vars[name] === "" ? undefined : vars[name]),
    vars: () => ({ ...vars, HOME: home }),
  };
}

/** A remote absolute path -> where its copy is in `mirror` (other text unchanged). */
export function rebaser(mirror: string): (path: string) => string {
  return (p) => (p.startsWith("/") && !p.startsWith(`${mirror}/`) ? join(mirror, p) : p);
}

/** The env parsers read a mirror with: remote paths re-rooted under `mirror`. */
export function mirrorEnv(mirror: string, state: Pick<SyncState, "home" | "vars">): Env {
  const under = rebaser(mirror);
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(state.vars ?? {})) vars[k] = under(v);
  return foreignEnv(under(state.home ?? "/"), "linux", vars);
}

/** The env of `r`'s mirror in deja's data dir. */
export function remoteMirrorEnv(env: Env, r: Remote): Env {
  return mirrorEnv(mirrorDir(env, r.name), r.sync ?? {});
}

/**
 * The remote absolute paths to mirror, outermost only (a root inside another is
 * copied with it) and sorted. With the remote's deja, the roots it says exist;
 * otherwise every parser's roots for the remote's home and variables (those that
 * do not exist there are skipped by rsync). `looked`: every root looked at, found
 * or not (the remote deja's too: trial 112 F8, a sync that found none said it
 * "looked for nothing"), sorted.
 */
export async function remoteRoots(p: Probe, parsers: readonly Parser[]): Promise<{
  roots: string[];
  looked: string[];
  discovery: "deja" | "registry";
}> {
  let roots: string[] = [];
  const all: string[] = [];
  let discovery: "deja" | "registry" = "registry";
  const hs = p.dejaSources?.harnesses;
  if (Array.isArray(hs) && hs.length) {
    discovery = "deja";
    for (const h of hs) {
      for (const r of h.roots ?? []) {
        if (typeof r?.path !== "string") continue;
        all.push(r.path);
        if (r.exists) roots.push(r.path);
      }
    }
  } else {
    const env = foreignEnv(p.home, p.platform, p.vars);
    for (const parser of parsers) {
      try {
        const d = await parser.discover({ env, knownProjects: [] });
        roots.push(...d.roots);
      } catch { /* a root this parser cannot name is not mirrored */ }
    }
  }
  const clean = (list: string[]) =>
    [...new Set(list.filter((r) => r.startsWith("/") && !r.includes("\n")))].sort();
  roots = outermost(clean(roots));
  return { roots, looked: discovery === "deja" ? outermost(clean(all)) : roots, discovery };
}

/** Drops every path inside another one of `sorted`. */
export function outermost(sorted: string[]): string[] {
  const out: string[] = [];
  for (const r of sorted) {
    const prev = out[out.length - 1];
    if (prev && (r === prev || r.startsWith(prev.endsWith("/") ? prev : `${prev}/`))) continue;
    out.push(r);
  }
  return out;
}

/**
 * The remote files outside `roots` that discovery reads or looks for
 * (Discovery.wants: Claude Code's `history.jsonl` beside `projects/`, the
 * `crush.db` of each project Crush's `projects.json` names), found by running
 * every parser's discovery over the mirror as it is; sorted remote paths.
 */
export async function mirrorWants(
  mirror: string,
  state: Pick<SyncState, "home" | "vars">,
  roots: readonly string[],
  parsers: readonly Parser[],
): Promise<string[]> {
  const env = mirrorEnv(mirror, state);
  const out = new Set<string>();
  const inRoot = (p: string) => roots.some((r) => p === r || p.startsWith(`${r}/`));
  for (const parser of parsers) {
    try {
      const d = await parser.discover({ env, knownProjects: [], rebase: rebaser(mirror) });
      for (const w of d.wants ?? []) {
        if (!w.startsWith(`${mirror}/`)) continue; // only what the mirror stands for
        const remote = w.slice(mirror.length);
        if (!inRoot(remote) && !remote.includes("\n")) out.add(remote);
      }
    } catch { /* a discovery that fails over the mirror asks for nothing more */ }
  }
  return [...out].sort();
}
