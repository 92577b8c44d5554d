/**
 * `deja sources`: every harness deja reads, where it looked, and what it found.
 *
 * Parse ({@link parseSources}) → run ({@link sourcesData}) → render
 * ({@link sourcesText}; `--json` prints the data as it is).
 *
 * @module
 */
import { existsSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import type { Args, CommandSpec } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import type { Env } from "../../core/model.ts";
import { colors, fmtBytes, printJson } from "./common.ts";
import { plural, tilde } from "../../core/text.ts";
import { isNotAStore, isPermissionDenied, problemLine, withPermissionHint } from "../../core/fs.ts";
import { parsers } from "../../parsers/mod.ts";
import { indexPath, Store } from "../store.ts";
import { Q } from "../schema.ts";
import { describeVerification, type Verification, verification } from "../../core/registry.ts";
import { wiringMatrix } from "../install/matrix.ts";
import { dataDir, isAbsoluteAny } from "../../core/paths.ts";
import { damageNote } from "../fresh/freshen.ts";
import {
  BY_DESIGN_REASONS,
  isDamage,
  PENDING_REASONS,
  REPAIRED_REASONS,
  SHORTENED_REASONS,
  skipsText,
} from "../skips.ts";
import { storeState, unreadableNow } from "../gone.ts";
import { damageLine, storeProblem, storeSkips } from "../store_damage.ts";

/** The wiring matrix for a terminal: one block per harness. */
export function wiringText(): string {
  return wiringMatrix().map((r) => {
    const lines = [
      `${r.display_name}: deja install ${r.target}${r.auto_target ? ` | ${r.auto_target}` : ""}`,
      `  mcp      ${r.mcp ? `${[r.mcp.file, ...r.mcp.also].join(" or ")} (${r.mcp.key})` : "-"}`,
      `  skill    ${r.skill ?? "-"}`,
      `  command  ${r.command ?? "-"}`,
      `  hooks    ${r.hooks.length ? `${r.hooks.join(", ")} [${r.envelope}]` : "-"}`,
    ];
    return lines.join("\n") + "\n";
  }).join("\n");
}

/** Skip locations listed per harness by `deja sources --verbose` and `--json`. */
export const MAX_SKIPPED_AT = 20;

/** One harness as `deja sources --json` prints it. */
export interface HarnessSources {
  harness: string;
  /** `unreadable` when deja may not tell whether it is there (permission denied on its folder). */
  roots: Array<{ path: string; exists: boolean; unreadable?: true }>;
  /** Stores discovery finds now. */
  stores: number;
  /**
   * Stores in the index that are still in place and whose last read succeeded
   * (failed ones count in `errors`, vanished ones in `gone`).
   */
  indexed: number;
  /**
   * Stores (not sessions) in the index whose file is gone since (deleted or
   * moved): their sessions stay in the index ({@link gone_sessions}) and count
   * in `sessions`, `events` and `bytes`.
   */
  gone: number;
  /** Sessions the index keeps whose store is gone ({@link gone}). */
  gone_sessions: number;
  /**
   * Stores in the index deja may not read: a stat fails now, or the last read
   * was denied permission; and folders discovery cannot open (permission
   * denied) that hold no store the index knows, one each.
   */
  unreadable: number;
  /** Distinct sessions the index holds of this harness's stores (as `deja stats` counts them). */
  sessions: number;
  /**
   * Sessions stores hold that another store also holds (copies of one file
   * under other names): the stores' own session counts add up to
   * `sessions + copies`.
   */
  copies: number;
  events: number;
  /** Bytes of the indexed stores. */
  bytes: number;
  /** Records the last reads of its stores still in place skipped, by reason (gone ones left out). */
  skipped: Record<string, number>;
  /**
   * Where records were skipped or repaired, `<reason> at <where>[: detail]`
   * (`where` is `<path>@<byte offset>` for a JSONL line): the first few of
   * each store, at most {@link MAX_SKIPPED_AT} for the harness, spread over
   * the stores ({@link spreadExamples}: every store with skips is named first).
   */
  skipped_at: string[];
  redacted: Record<string, number>;
  /**
   * Sessions the stores' last reads returned damaged, shorter or not at all,
   * kept as indexed (the same as {@link kept_damaged}; a gone store's sessions
   * are not in it, see {@link gone_sessions}).
   */
  kept: number;
  /** {@link kept} under a name that says which sessions it counts. */
  kept_damaged: number;
  /**
   * Stores whose last read found damaged bytes or kept sessions as indexed
   * (lib/skips.ts isDamage; records the harness wrote in a shape deja skips are
   * information, counted in `skipped` only).
   */
  damaged: number;
  /** Per damaged store, what could not be read: `<path>: damaged, could not read … (2 corrupt)`. */
  damaged_stores: string[];
  /** The most recent error of any of its stores, with the store path. */
  last_error: string | null;
  /** Stores whose last read failed for another reason than permission, and folders discovery could not open for another reason. */
  errors: number;
  /**
   * What discovery passed over, one `path: why` each: a link to nothing, a
   * FIFO or device where a store would be, a directory it could not read.
   */
  not_read: string[];
  /** Files in the roots left out on purpose because they hold no session, per kind (discovery). */
  not_sessions: Record<string, number>;
  /** The harness version its format was verified on, how and when (registry.json). */
  verified: Verification;
}

export const sourcesCmd: CommandSpec = {
  usage: "sources [--verbose] [--wiring] [--json]",
  maxPositionals: 0,
  options: {
    verbose: {
      type: "boolean",
      short: "v",
      description: "every root looked at, skips, redactions and verification per harness",
    },
    wiring: {
      type: "boolean",
      description:
        "what 'deja install' writes per harness: MCP, skill, command, hooks (docs/wiring.md)",
    },
    json: { type: "boolean", description: "print as JSON with every detail (docs/json-output.md)" },
  },
  run: (a, io) => runSources(a, io),
};

/** What `deja sources` was asked. */
export interface SourcesArgs {
  /** Every root, skip, redaction and verification per harness. */
  verbose: boolean;
  /** The wiring matrix instead of the stores. */
  wiring: boolean;
  json: boolean;
}

/** What the index holds of one remote machine's mirror (`deja remote`), per harness. */
export interface RemoteSources {
  /** The remote's name (its sessions' origin). */
  remote: string;
  harnesses: Array<{ harness: string; indexed: number; sessions: number; bytes: number }>;
  /** Its stores in the index whose copy is there (not {@link gone}). */
  indexed: number;
  sessions: number;
  bytes: number;
  /**
   * Its stores in the index a sync found deleted on the remote (and so from the mirror): their
   * sessions stay, {@link gone_sessions} of them, as a local gone store's (trial 113 F10).
   */
  gone: number;
  gone_sessions: number;
}

/** Every harness as `deja sources` shows it. */
export interface SourcesData {
  /** The index file, or null when there is none yet. */
  index: string | null;
  /** This machine's stores, per harness. */
  harnesses: HarnessSources[];
  /** Stores read from remote machines' mirrors, per remote (not counted in `harnesses`). */
  remotes: RemoteSources[];
}

/** Reads `deja sources`' arguments. */
export function parseSources(a: Args): SourcesArgs {
  return {
    verbose: Boolean(a.values.verbose),
    wiring: Boolean(a.values.wiring),
    json: Boolean(a.values.json),
  };
}

/**
 * Per harness: the roots discovery looks at now, the stores it finds, and
 * what the index (when there is one) holds of them.
 */
export async function sourcesData(env: Env): Promise<SourcesData> {
  const path = indexPath(env);
  const store = existsSync(path) ? Store.open(path) : undefined;
  const all = store ? Q.sourcesReport.all(store, {}) : [];
  // A remote's stores are read from its mirror under deja's data dir: counted per remote.
  const mirrors = join(dataDir(env), "remotes") + sep;
  const rows = all.filter((r) => !r.path.startsWith(mirrors));
  const red = store ? Q.redactionsByHarness.all(store, {}) : [];
  // This machine's folders: a remote's projects (`box:/Users/x`) are none (trial 79 F6).
  const known = (store ? Q.projects.all(store, {}) : []).map((r) => r.project)
    .filter(isAbsoluteAny);
  const held = new Map(
    (store ? Q.sessionsPerHarness.all(store, { mirrors }) : []).map((r) => [r.harness, r]),
  );
  // One stat per store: present, gone (its sessions kept, counted here) or unreadable.
  const state = new Map(rows.map((r) => [r.path, storeState(r.path)]));
  // A remote's too: a sync deletes from its mirror what the remote deleted (trial 113 F10).
  for (const r of all) if (!state.has(r.path)) state.set(r.path, storeState(r.path));
  const goneSessions = new Map(
    all.filter((r) => state.get(r.path) === "gone")
      // With the sessions held from another store it gave events to (lib/ingest.ts): what
      // only it held stays (trial 137 M3: "0 sessions kept" beside its events still shown).
      .map((r) => [
        r.path,
        store
          ? Q.sessionsOfSource.all(store, { source: r.path }).length +
            Q.copyCount.get(store, { source: r.path })!.n
          : 0,
      ]),
  );
  store?.close();
  const out: HarnessSources[] = [];
  for (const p of parsers) {
    let roots: string[] = [];
    let stores = 0;
    let found: string[] = [];
    let notSessions: Record<string, number> = {};
    const problems: string[] = [];
    // What discovery could not open (a folder): failures, unlike a link to nothing or a FIFO.
    const failures: Array<{ path: string; line: string }> = [];
    try {
      const d = await p.discover({
        env,
        knownProjects: known,
        problem: (path, e) => {
          const line = problemLine(path, e); // once: two layouts may walk one folder
          if (problems.includes(line)) return;
          problems.push(line);
          if (!isNotAStore(e)) failures.push({ path, line });
        },
      });
      roots = d.roots;
      stores = d.sources.length;
      found = d.sources.map((x) => x.path);
      notSessions = d.notSessions ?? {};
    } catch { /* reported through the index errors */ }
    const mine = rows.filter((r) => r.harness === p.id);
    const indexedPaths = new Set(mine.map((r) => r.path));
    const skipped: Record<string, number> = {};
    const skippedAt: string[] = [];
    let kept = 0;
    let damaged = 0;
    const damagedStores: string[] = [];
    // A gone store's last read is no damage of what the harness holds now: its sessions stay
    // (counted below), its skips are not carried.
    const present = new Set(mine.filter((r) => state.get(r.path) === "present").map((r) => r.path));
    const perStore: string[][] = [];
    for (const r of mine) {
      if (!present.has(r.path)) continue;
      const s = storeSkips(r.skipped, r.mtime);
      perStore.push(s.examples);
      for (const [k, v] of Object.entries(s.counts)) skipped[k] = (skipped[k] ?? 0) + v;
      kept += s.kept;
      // A failed store is counted failed, once, as doctor counts it (lib/store_damage.ts).
      if (!s.damaged || r.error) continue;
      damaged++;
      const line = damageLine(r.path, s.counts, s.examples, s.kept);
      if (line) damagedStores.push(line);
    }
    skippedAt.push(...spreadExamples(perStore, MAX_SKIPPED_AT));
    const gone = mine.filter((r) => state.get(r.path) === "gone");
    // One rule for every command (lib/store_damage.ts storeProblem): permission denied now
    // or on the last read is unreadable, another failed read is failed.
    const problemOf = (r: (typeof mine)[number]) =>
      state.get(r.path) === "gone" ? null : storeProblem(r.error, state.get(r.path)!);
    const unreadable = mine.filter((r) => problemOf(r) === "unreadable").map((r) => r.path);
    // A folder discovery could not read that holds stores the index has is one problem, said
    // once: as those stores, unreadable (not also as a failure); one that holds none the
    // index knows counts once itself, unreadable when permission was denied.
    // A store's own path among them (an unreadable folder above it) is that store, once (trial
    // 127 F6: "(2 unreadable)" for aider's one history).
    const open = failures.filter((f) =>
      !unreadable.some((u) => u === f.path || u.startsWith(f.path + sep))
    );
    const deniedDirs = open.filter((f) => isPermissionDenied(f.line)).length;
    const perStoreSessions = mine.reduce((n, r) => n + r.sessions, 0);
    const sessions = held.get(p.id)?.sessions ?? 0;
    const errs = mine.filter((r) => problemOf(r)).sort((x, y) =>
      (y.indexed_at ?? 0) - (x.indexed_at ?? 0)
    );
    const failedStores = errs.filter((r) => problemOf(r) === "failed").length;
    out.push({
      harness: p.id,
      roots: roots.map(rootState),
      stores,
      indexed: mine.filter((r) => !problemOf(r) && present.has(r.path)).length,
      gone: gone.length,
      gone_sessions: gone.reduce((n, r) => n + (goneSessions.get(r.path) ?? 0), 0),
      unreadable: unreadable.length + deniedDirs,
      sessions,
      copies: Math.max(0, perStoreSessions - sessions),
      events: held.get(p.id)?.events ?? 0,
      // Stores found and not read yet count their size too (trial 79 F7: `0 B` before the
      // first index, for 1.2 MiB of stores).
      bytes: mine.reduce((n, r) => n + storeBytes(r), 0) +
        found.filter((f) => !indexedPaths.has(f)).reduce(
          (n, path) => n + storeBytes({ path, size: null }),
          0,
        ),
      skipped,
      skipped_at: skippedAt,
      redacted: Object.fromEntries(
        red.filter((x) => x.harness === p.id).map((x) => [x.kind, x.count]),
      ),
      kept,
      kept_damaged: kept,
      damaged,
      damaged_stores: damagedStores,
      last_error: errs.length
        ? withPermissionHint(
          `${errs[0].path}: ${
            state.get(errs[0].path) === "unreadable"
              ? unreadableNow(errs[0].path)
              : errs[0].error ?? "cannot be read now"
          }`,
        )
        : open[0]?.line ?? null,
      errors: failedStores + open.length - deniedDirs,
      not_read: problems,
      not_sessions: notSessions,
      verified: verification(p.id),
    });
  }
  return {
    index: existsSync(path) ? path : null,
    harnesses: out,
    remotes: remoteSources(
      all.filter((r) => r.path.startsWith(mirrors)),
      mirrors,
      (path) => state.get(path) === "gone" ? goneSessions.get(path) ?? 0 : undefined,
    ),
  };
}

/**
 * The mirrored stores grouped by remote (the path's first part under the mirrors dir);
 * `gone(path)`: the sessions kept of a store gone from the mirror, undefined for one there.
 */
function remoteSources(
  rows: Array<{ path: string; harness: string; sessions: number; size: number | null }>,
  mirrors: string,
  gone: (path: string) => number | undefined,
): RemoteSources[] {
  const by = new Map<string, RemoteSources>();
  for (const r of rows) {
    const name = r.path.slice(mirrors.length).split(sep)[0];
    const rem = by.get(name) ??
      { remote: name, harnesses: [], indexed: 0, sessions: 0, bytes: 0, gone: 0, gone_sessions: 0 };
    by.set(name, rem);
    let h = rem.harnesses.find((x) => x.harness === r.harness);
    if (!h) rem.harnesses.push(h = { harness: r.harness, indexed: 0, sessions: 0, bytes: 0 });
    // A gone store's sessions are still held (counted, as a local one's), its file is not.
    const kept = gone(r.path);
    h.sessions += r.sessions, rem.sessions += r.sessions;
    if (kept !== undefined) {
      rem.gone++, rem.gone_sessions += kept;
      continue;
    }
    const bytes = Math.max(0, r.size ?? 0);
    h.indexed++, h.bytes += bytes;
    rem.indexed++, rem.bytes += bytes;
  }
  return [...by.values()].sort((a, b) => a.remote.localeCompare(b.remote));
}

/** A harness's problem notes (`(1 failed)  `), coloured, and their width as printed. */
function problemNotes(
  h: HarnessSources,
  c: ReturnType<typeof colors>,
): { text: string; plain: string } {
  const parts: Array<[string, (s: string) => string]> = [];
  if (h.errors) parts.push([`(${h.errors} failed)  `, c.red]);
  if (h.gone) parts.push([`(${h.gone} gone, ${plural(h.gone_sessions, "session")} kept)  `, c.dim]);
  if (h.unreadable) parts.push([`(${h.unreadable} unreadable)  `, c.red]);
  return {
    text: parts.map(([t, f]) => f(t)).join(""),
    plain: parts.map(([t]) => t).join(""),
  };
}

/** A remote's note of its stores gone (`(1 gone, 1 session kept)  `), as {@link problemNotes}. */
function goneNote(r: RemoteSources, c: ReturnType<typeof colors>): { text: string; plain: string } {
  const t = r.gone ? `(${r.gone} gone, ${plural(r.gone_sessions, "session")} kept)  ` : "";
  return { text: t && c.dim(t), plain: t };
}

/** The harnesses as text: one line each, more with `verbose` (colour on a terminal). */
export function sourcesText(
  d: SourcesData,
  io: Pick<IO, "isTTY" | "env">,
  verbose: boolean,
): string {
  const c = colors(io);
  const lines: string[] = [];
  if (d.index === null) lines.push(c.yellow("no index yet: run 'deja index'"));
  // The problem notes are a column of their own, padded: a harness with one no longer shifts
  // the columns after it (trial 101 F7: "0 stores  (1 failed)      28 sessions" out of line).
  const notes = d.harnesses.map((h) => problemNotes(h, c));
  const remoteNotes = d.remotes.map((r) => goneNote(r, c));
  const width = Math.max(
    0,
    ...notes.map((n) => n.plain.length),
    ...remoteNotes.map((n) => n.plain.length),
  );
  // The first column fits a remote's label too (trial 112 F10: `alice (remote)`, 14 characters,
  // pushed its row's columns out of line), and a remote's row keeps the notes' column.
  const label = (r: RemoteSources) => `${r.remote} (remote)`;
  const first = Math.max(
    13,
    ...d.harnesses.map((h) => h.harness.length),
    ...d.remotes.map((r) => label(r).length),
  );
  for (const [i, h] of d.harnesses.entries()) {
    const found = h.stores > 0;
    const note = notes[i];
    // Sessions the index holds of no store found now (a registry file that could not be read,
    // stores moved): kept from an earlier read, said so (trial 101 F7: "0 stores … 28 sessions").
    const kept = !found && h.sessions > 0 && !h.gone;
    // One line per harness: a harness that looks in every known project (senpi) has a root
    // per project, listed only with --verbose.
    lines.push(
      `${(found ? c.bold : c.dim)(h.harness.padEnd(first))} ${
        plural(h.stores, "store ", "stores").padStart(11)
      }  ${note.text}${" ".repeat(width - note.plain.length)}${
        plural(h.sessions, "session ", "sessions").padStart(15)
      }${h.copies ? c.dim(` (${plural(h.copies, "copy", "copies")})`) : ""}  ${
        fmtBytes(h.bytes).padStart(9)
      }  ${c.dim(rootSummary(h.roots, io.env.home))}${
        kept ? c.dim("  (sessions kept from an earlier read)") : ""
      }`,
    );
    if (h.last_error) {
      // Of the problems the line above counts: failed, and unreadable (a folder's stores).
      lines.push(c.red(`              last error (${h.errors + h.unreadable}): ${h.last_error}`));
    }
    if (h.damaged && !verbose) lines.push(c.yellow(`              ${damageMark(h)}`));
    const pending = Object.entries(h.skipped).filter(([k, v]) => v && PENDING_REASONS.has(k))
      .reduce((n, [, v]) => n + v, 0);
    if (pending && !verbose) {
      lines.push(c.dim(`              ${unfinishedMark(pending)}`));
    }
    if (!verbose) continue;
    lines.push(c.dim(`              verified: ${describeVerification(h.verified)}`));
    for (const r of h.roots) {
      lines.push(
        c.dim(
          `              ${r.exists ? "found  " : r.unreadable ? "unreadable" : "absent "} ${
            tilde(r.path, io.env.home)
          }`,
        ),
      );
    }
    // Each once: the entry the "last error" line already names is not listed again.
    const notRead = h.not_read.filter((p) => p !== h.last_error);
    for (const p of notRead.slice(0, 20)) lines.push(c.yellow(`              not read: ${p}`));
    if (notRead.length > 20) {
      lines.push(
        c.yellow(`              not read: ${notRead.length - 20} more (--json lists all)`),
      );
    }
    const sk = skipsText(h.skipped);
    if (sk) lines.push(c.yellow(`              ${sk}`));
    for (const [what, n] of Object.entries(h.not_sessions)) {
      lines.push(c.dim(`              left out (not sessions): ${n} ${what}`));
    }
    for (const x of h.skipped_at) {
      const reason = x.slice(0, x.indexOf(" "));
      // A damaged store's read that kept indexed sessions says so itself (lib/ingest.ts
      // keptNote), and so does one the index followed as it shrank (lib/index_source.ts).
      const verb = x.startsWith("read partly ") || x.startsWith("shrunk at ")
        ? ""
        : REPAIRED_REASONS.has(reason)
        ? "repaired "
        : PENDING_REASONS.has(reason)
        ? "unfinished "
        : BY_DESIGN_REASONS.has(reason)
        ? "left out "
        : SHORTENED_REASONS.has(reason)
        ? "shortened "
        : "skipped ";
      lines.push(c.yellow(`              ${verb}${x}`));
    }
    const red = Object.entries(h.redacted).map(([k, v]) => `${v} ${k}`).join(", ");
    if (red) lines.push(c.dim(`              redacted: ${red}`));
  }
  for (const [i, r] of d.remotes.entries()) {
    const via = r.harnesses.map((h) => `${h.harness} ${h.sessions}`).join(", ");
    const note = remoteNotes[i];
    lines.push(
      `${c.bold(label(r).padEnd(first))} ${plural(r.indexed, "store ", "stores").padStart(11)}  ${
        note.text + " ".repeat(width - note.plain.length)
      }${plural(r.sessions, "session ", "sessions").padStart(15)}  ${
        fmtBytes(r.bytes).padStart(9)
      }  ${c.dim(via)}`,
    );
  }
  return lines.join("\n") + "\n";
}

async function runSources(a: Args, io: IO): Promise<number> {
  const args = parseSources(a);
  if (args.wiring) {
    if (args.json) printJson(io, wiringMatrix());
    else io.out(wiringText());
    return 0;
  }
  const d = await sourcesData(io.env);
  // A damaged index, found by a command before (trial 86 F2: sources said nothing of it).
  io.err(damageNote(io.env));
  if (args.json) printJson(io, d);
  else {
    io.out(sourcesText(d, io, args.verbose));
    // A hint, on stderr: stdout is the table alone (trial 59).
    if (!args.verbose) {
      io.err(
        `${
          colors(io).dim("deja sources --verbose: every root, skips, redactions, verified versions")
        }\n`,
      );
    }
  }
  return 0;
}

/**
 * At most `max` of the skip examples of a harness's stores (`perStore`, each
 * in its own order): first each store's first example of each reason, in store
 * order, then the others taken in turn from each store. Every store with skips
 * is named before any store's second example of a reason.
 */
export function spreadExamples(perStore: readonly string[][], max: number): string[] {
  const out: string[] = [];
  const rest: string[][] = [];
  for (const xs of perStore) {
    const seen = new Set<string>();
    const later: string[] = [];
    for (const x of xs) {
      const reason = x.slice(0, x.indexOf(" "));
      if (seen.has(reason)) later.push(x);
      else if (out.length < max) out.push(x);
      seen.add(reason);
    }
    rest.push(later);
  }
  for (let i = 0; out.length < max && rest.some((x) => i < x.length); i++) {
    for (const x of rest) if (i < x.length && out.length < max) out.push(x[i]);
  }
  return out;
}

/**
 * The short mark plain `deja sources` shows for a harness whose stores' last
 * reads were damaged: `damaged: kept 1 session as indexed, skipped 2 corrupt
 * — deja sources --verbose` (the notes themselves are listed with --verbose).
 */
export function damageMark(
  h:
    & Pick<HarnessSources, "kept" | "damaged" | "skipped">
    & Partial<Pick<HarnessSources, "damaged_stores">>,
): string {
  const lost = Object.entries(h.skipped).filter(([k, v]) => v && isDamage(k))
    .map(([k, v]) => `${v} ${k}`);
  const parts = [
    h.kept ? `kept ${plural(h.kept, "session")} as indexed` : "",
    lost.length ? `skipped ${lost.join(", ")}` : "",
  ].filter(Boolean);
  const stores = h.damaged > 1 ? ` (${h.damaged} stores)` : "";
  // The store by name (the first; --verbose names each, with what could not be read).
  const first = h.damaged_stores?.[0];
  // Its line (lib/store_damage.ts damageLine): `<path>: damaged, …`, `<path>: now empty, …`.
  const path = first && /^(.*?): (?:damaged|now empty|holds less than before)\b/.exec(first)?.[1];
  const where = path ? ` (${path}${h.damaged > 1 ? ", …" : ""})` : "";
  return `damaged${stores}: ${parts.join(", ")}${where} — deja sources --verbose`;
}

/**
 * The bytes of one indexed store: as recorded, or, for a store whose reads
 * all failed (no size recorded), its size on disk now (0 when a stat fails);
 * with a SQLite store's write-ahead log beside it, which holds what was written
 * since its last checkpoint (trial 56: opencode's 2.5 MB of sessions in its WAL
 * were listed as the 4 KiB of its main file).
 */
export function storeBytes(r: { path: string; size: number | null }): number {
  const size = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  const own = (r.size ?? -1) >= 0 ? r.size! : size(r.path);
  return own + (/\.(?:db|sqlite3?|vscdb)$/i.test(r.path) ? size(`${r.path}-wal`) : 0);
}

/**
 * What plain `deja sources` says of last lines still being written:
 * `unfinished: 1 last line still being written, read once complete`.
 */
export function unfinishedMark(lines: number): string {
  return `unfinished: ${plural(lines, "last line")} still being written, read once complete`;
}

/**
 * A root as `deja sources` lists it: there or not, or `unreadable` when its folder may not be
 * opened (trial 127 F6: a history in a folder deja may not read was "absent" and "unreadable"
 * at once).
 */
function rootState(path: string): HarnessSources["roots"][number] {
  try {
    return { path, exists: statSync(path, { throwIfNoEntry: false }) !== undefined };
  } catch (e) {
    const code = (e as { code?: string }).code;
    return code === "EACCES" || code === "EPERM"
      ? { path, exists: false, unreadable: true }
      : { path, exists: false };
  }
}

/** The roots of a harness in a few words: the one found (or looked at), and how many more. */
function rootSummary(roots: HarnessSources["roots"], home: string): string {
  const found = roots.filter((r) => r.exists);
  if (!roots.length) return "";
  if (!found.length) {
    return roots.length === 1
      ? `${roots[0].unreadable ? "unreadable" : "absent"} ${tilde(roots[0].path, home)}`
      : `none of ${roots.length} roots found`;
  }
  const more = roots.length - 1;
  return `${tilde(found[0].path, home)}${
    more ? ` (+${more} more root${more === 1 ? "" : "s"})` : ""
  }`;
}
