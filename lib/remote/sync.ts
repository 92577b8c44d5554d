/**
 * `deja remote sync`: one remote's stores copied into its mirror with rsync
 * over the user's ssh, incrementally and never read half-written.
 *
 * - Appended JSONL moves only its tail: a first pass over `*.jsonl` uses
 *   `--append-verify` (the tail is sent, then the whole file's checksum is
 *   compared; a file rewritten rather than appended is sent again whole).
 * - Everything else (and any JSONL the first pass could not append to) goes by
 *   rsync's delta transfer: a file is written beside its copy and renamed into
 *   place, so no file is ever seen half-written; interrupted large files are
 *   kept in a partial directory outside the mirror and resumed next time.
 * - SQLite stores are copied with their `-wal` and `-shm` in the same run and
 *   checked (`quick_check`) afterwards; a copy caught mid-write is fetched
 *   again once, else the sync fails and says so.
 * - A file deleted on the remote is deleted from the mirror too (rsync's
 *   `--delete`, under the roots only; rsync skips it after a read error), and
 *   said: its sessions stay in the index as a local store's gone file's do
 *   ("gone, kept", lib/gone.ts; trial 113 F10: it was copied on for ever, and
 *   no sync, list or count said it was gone).
 * - From the first byte until the check passes the mirror is marked incomplete
 *   and `deja index` leaves it unread: what was indexed before stays
 *   searchable, and the next sync resumes.
 *
 * @module
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import type { Env, Parser } from "../../core/model.ts";
import { runCapture } from "../shell.ts";
import { DejaError } from "../../core/errors.ts";
import { openStore } from "../../core/sqlite_read.ts";
import { mirrorDir, type Remote, type SyncState, updateRemote } from "./config.ts";
import {
  childEnv,
  closeShared,
  existingPaths,
  openShared,
  probe,
  rsyncShell,
  type SharedSsh,
} from "./ssh.ts";
import { mirrorWants, remoteRoots } from "./mirror.ts";

/** What one sync did. */
export interface SyncResult {
  remote: string;
  ok: boolean;
  /** Bytes rsync received (file data and protocol). */
  bytes: number;
  /** Files that changed in the mirror. */
  files: number;
  /** Roots mirrored (remote absolute paths). */
  roots: string[];
  /** How the roots were found; null when the remote was never reached. */
  discovery: "deja" | "registry" | null;
  ms: number;
  error?: string;
  hint?: string;
  /**
   * Something rsync could not copy (a file it may not read), no store found on the remote, or
   * stores an earlier sync copied that the remote no longer has.
   */
  warning?: string;
  /** The remote's home (probed; null when never reached): where its stores were looked for. */
  home: string | null;
  /** Every root looked for (remote paths), found or not. */
  looked: string[];
  /** Roots an earlier sync copied that the remote no longer has: their copies stay searchable. */
  stale: string[];
  /** Files the remote no longer has, deleted from the mirror by this sync (remote paths). */
  gone: string[];
}

/**
 * Files under a harness's root that hold credentials or settings, never sessions (rsync
 * patterns): Codex `auth.json`, Crush's `crush.json` provider keys, Gemini's OAuth and Claude's
 * credential files, keys, `.env` files, and the harnesses' config files.
 */
export const NEVER_MIRROR = [
  "auth.json",
  "*credentials*",
  "oauth_creds.json",
  "google_accounts.json",
  "crush.json",
  "config.toml",
  "config.json",
  "config.yaml",
  "config.yml",
  "settings.json",
  "settings.local.json",
  "mcp.json",
  ".env",
  ".env.*",
  "*.pem",
  "*.key",
  "id_rsa*",
  "id_ed25519*",
  "*token*",
  "*secret*",
];

/** rsync exit codes that leave every copied file whole: 23 some files unreadable, 24 some vanished. */
const PARTIAL_OK = new Set([23, 24]);

/** Syncs `r` and records the outcome in remotes.json. Never throws for a failed transfer. */
export async function syncRemote(
  env: Env,
  r: Remote,
  parsers: readonly Parser[],
): Promise<SyncResult> {
  const t0 = performance.now();
  const out: SyncResult = {
    remote: r.name,
    ok: false,
    bytes: 0,
    files: 0,
    roots: [],
    discovery: null,
    ms: 0,
    home: null,
    looked: [],
    stale: [],
    gone: [],
  };
  // One ssh login for the whole sync: the probe opens it, the rsync passes run over it.
  const shared = openShared(env);
  try {
    const p = probe(env, r, shared);
    const found = await remoteRoots(p, parsers);
    const { discovery } = found;
    out.home = p.home;
    out.looked = found.looked;
    out.discovery = discovery;
    // Only the roots the remote has now are copied and listed (trial 101 F2).
    const roots = existingPaths(env, r, found.roots, shared);
    out.roots = roots;
    const mirror = mirrorDir(env, r.name);
    const before = r.sync?.roots ?? [];
    mkdirSync(mirror, { recursive: true, mode: 0o700 });
    updateRemote(env, r.name, (x) => {
      x.sync = {
        ...(x.sync ?? { at: 0 }),
        complete: false,
        home: p.home,
        vars: p.vars,
        roots,
        discovery,
      };
    });
    if (roots.length) {
      // What discovery reads outside the roots (a registry's stores, a companion file) is
      // known from the registries the mirror holds: those of the last sync go with the roots;
      // ones the new registries name besides follow in a second transfer.
      const state = { home: p.home, vars: p.vars };
      const known = await mirrorWants(mirror, state, roots, parsers);
      const changed = transfer(env, r, [...roots, ...known], mirror, out, shared);
      const wants = await mirrorWants(mirror, state, roots, parsers);
      const more = wants.filter((x) => !known.includes(x));
      if (more.length) changed.push(...transfer(env, r, more, mirror, out, shared));
      const all = [...roots, ...wants];
      if (badCopies(env, mirror, changed).length) {
        const again = transfer(env, r, all, mirror, out, shared, false);
        const bad = badCopies(env, mirror, [...changed, ...again]);
        if (bad.length) {
          throw new DejaError(
            `the copy of ${bad[0]} is not a consistent database (it was being written)`,
            "run 'deja remote sync' again; the previous copy stays searchable meanwhile",
          );
        }
      }
    }
    // A root an earlier sync copied and the remote no longer has: its copy stays (and stays
    // searchable), said as such rather than listed as current (trial 101 F2).
    out.stale = [...new Set([...before, ...found.roots])]
      .filter((root) => !roots.includes(root) && existsSync(join(mirror, root))).sort();
    updateRemote(env, r.name, (x) => {
      if (!x.sync) return;
      x.sync.roots = out.roots;
      if (out.stale.length) x.sync.stale = out.stale;
      else delete x.sync.stale;
    });
    out.warning = missingStores(r, out) ?? out.warning;
    if (!roots.length) {
      out.hint = "stores are looked for under the home ssh logs in to and the store variables " +
        "set there (CODEX_HOME, XDG_DATA_HOME, …), or where the remote's own deja finds them; " +
        "'deja help remote' says more";
    }
    out.ok = true;
  } catch (e) {
    out.error = (e as Error).message;
    if (e instanceof DejaError && e.hint) out.hint = e.hint;
  } finally {
    closeShared(env, r, shared);
  }
  out.ms = Math.round(performance.now() - t0);
  updateRemote(env, r.name, (x) => {
    const prev: SyncState = x.sync ?? { at: 0, complete: false };
    x.sync = {
      ...prev,
      at: Date.now(),
      bytes: out.bytes,
      files: out.files,
      ms: out.ms,
      complete: out.ok ? true : prev.complete,
      ...(out.ok ? { okAt: Date.now() } : {}),
    };
    if (out.ok && !out.warning) delete x.sync.error;
    else x.sync.error = out.error ?? out.warning;
  });
  return out;
}

/** At most this many roots are named in a warning (`--json`'s `looked` lists them all). */
const NAMED_ROOTS = 4;

/**
 * The warning for a sync that found no store on the remote, or lost some an earlier sync
 * copied: what was looked for and under which home, so a wrong HOME or a moved store is
 * seen (trial 101 F2: "0 files changed … 0 sessions indexed", exit 0, no word of it).
 */
export function missingStores(
  r: Pick<Remote, "host">,
  res: Pick<SyncResult, "roots" | "looked" | "home" | "stale" | "discovery">,
): string | undefined {
  const home = res.home ?? "";
  const short = (p: string) =>
    home && (p === home || p.startsWith(`${home}/`)) ? `~${p.slice(home.length)}` : p;
  const named = (list: string[]) =>
    list.slice(0, NAMED_ROOTS).map(short).join(", ") +
    (list.length > NAMED_ROOTS ? `, … ${list.length - NAMED_ROOTS} more` : "");
  const gone = res.stale.length
    ? `; ${named(res.stale)} ${
      res.stale.length === 1 ? "is" : "are"
    } gone from it since an earlier sync (the copy made then stays searchable)`
    : "";
  if (res.roots.length) {
    return gone ? `${r.host} no longer has some stores${gone}` : undefined;
  }
  const how = res.discovery === "deja" ? "its deja's 'sources'" : "the registry's default paths";
  return `no harness store found on ${r.host} (HOME=${home}; looked for ${
    res.looked.length ? named(res.looked) : "nothing"
  }, by ${how})${gone}`;
}

/** `host` as rsync reads it before `:path`: an IPv6 address in brackets (`me@[::1]`). */
export function rsyncHost(host: string): string {
  const at = host.lastIndexOf("@");
  const addr = host.slice(at + 1);
  return addr.includes(":") ? `${host.slice(0, at + 1)}[${addr}]` : host;
}

/**
 * The two rsync passes; returns the mirror-relative paths that changed.
 * @throws {DejaError} when rsync cannot run or the transfer fails.
 */
function transfer(
  env: Env,
  r: Remote,
  roots: string[],
  mirror: string,
  out: SyncResult,
  shared: SharedSsh | undefined,
  appendPass = true,
): string[] {
  const partial = join(mirror, "..", `.${r.name}.partial`);
  const sources = roots.map((root, i) => (i === 0 ? `${rsyncHost(r.host)}:${root}` : `:${root}`));
  const common = [
    "rsync",
    "-a",
    "--relative",
    "--ignore-missing-args",
    "--stats",
    "--out-format=>%n",
    // A harness keeps its credentials and config beside its sessions: none of it is history,
    // and none of it may land on this machine.
    ...NEVER_MIRROR.map((p) => `--exclude=${p}`),
    "-e",
    rsyncShell(env, r, shared),
  ];
  const passes = [
    ...(appendPass
      ? [["--append-verify", "-m", "--include=*/", "--include=*.jsonl", "--exclude=*"]]
      : []),
    [`--partial-dir=${partial}`, "--delete"],
  ];
  const changed: string[] = [];
  for (const extra of passes) {
    const argv = [...common, ...extra, ...sources, `${mirror}/`];
    const c = runCapture(argv, { env: childEnv(env), timeoutMs: 6 * 3600_000 });
    if (c.error === "ENOENT") {
      throw new DejaError(
        "rsync is not installed or not on PATH",
        "install rsync (e.g. 'sudo apt-get install rsync')",
      );
    }
    // The probe reached the host before any pass: a connection lost now broke the copy, it
    // was no login that failed (trial 79 F3: "could not reach", and a hint to check ssh).
    if (c.code === 255 || (c.code === 12 && /connection|ssh/i.test(c.stderr))) {
      const last = c.stderr.trim().split("\n").filter(Boolean).pop();
      throw new DejaError(
        `the connection to ${r.host} broke during the copy${last ? `: ${last}` : ""}`,
        "run 'deja remote sync' again: it resumes where this one stopped; the previous copy stays searchable",
      );
    }
    if (c.code !== 0 && !(c.code !== null && PARTIAL_OK.has(c.code))) {
      const last = c.stderr.trim().split("\n").filter(Boolean).pop() ?? `exit ${c.code}`;
      throw new DejaError(
        `rsync from ${r.host} failed: ${last}`,
        "run 'deja remote sync' again: it resumes where this one stopped; the previous copy stays searchable",
      );
    }
    if (c.code !== 0) out.warning = c.stderr.trim().split("\n").filter(Boolean).pop();
    const got = /Total bytes received: ([\d,.]+)/.exec(c.stdout);
    if (got) out.bytes += Number(got[1].replace(/[,.]/g, ""));
    for (const line of c.stdout.split("\n")) {
      if (line.startsWith(">") && !line.endsWith("/")) changed.push(line.slice(1));
      // `--delete`'s own line, the path relative to the mirror (`--relative`: the remote's).
      else if (line.startsWith("deleting ") && !line.endsWith("/")) {
        const gone = `/${line.slice("deleting ".length)}`;
        if (!out.gone.includes(gone)) out.gone.push(gone);
      }
    }
  }
  out.files += new Set(changed).size;
  return changed;
}

/** SQLite files among `changed` (a `-wal`/`-shm` stands for its database) whose copy fails `quick_check`. */
function badCopies(env: Env, mirror: string, changed: string[]): string[] {
  const dbs = new Set<string>();
  for (const rel of changed) {
    const base = rel.replace(/-(wal|shm|journal)$/, "");
    const path = join(mirror, base);
    if (existsSync(path) && isSqlite(path)) dbs.add(path);
  }
  const bad: string[] = [];
  for (const path of dbs) {
    try {
      const h = openStore(path, env);
      try {
        const row = h.db.prepare("PRAGMA quick_check").get() as Record<string, unknown>;
        if (Object.values(row ?? {})[0] !== "ok") bad.push(path.slice(mirror.length));
      } finally {
        h.close();
      }
    } catch {
      bad.push(path.slice(mirror.length));
    }
  }
  return bad;
}

/** True when `path` starts with SQLite's file header. */
function isSqlite(path: string): boolean {
  try {
    const fd = openSync(path, "r");
    try {
      const b = new Uint8Array(16);
      return readSync(fd, b, 0, 16, 0) === 16 &&
        new TextDecoder().decode(b) === "SQLite format 3\0";
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
