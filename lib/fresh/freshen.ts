/**
 * Freshen on use: before a command reads the index, what changed in the
 * stores since the last run is read in, within a small time budget; what does
 * not fit (a rewritten or huge store, a first run, a busy writer) is left to a
 * detached background `deja index`, and the caller is told how far behind the
 * index is so it can say so.
 *
 * `DEJA_NO_REFRESH=1` (or a command's `--no-refresh`) turns it off.
 * `DEJA_REFRESH_BUDGET_MS` sets the inline budget (default
 * {@link DEFAULT_BUDGET_MS}; 0 sends every change to the background).
 *
 * @module
 */
import { existsSync } from "node:fs";
import type { Env, Parser } from "../../core/model.ts";
import {
  type DeletedIndex,
  deletedIndex,
  IndexDiskFull,
  IndexLogLost,
  indexPath,
  indexWritable,
  isCorruption,
  knownDamage,
  lockHolder,
  Store,
} from "../store.ts";
import { dirname } from "node:path";
import { DejaError } from "../../core/errors.ts";
import { duration } from "../../core/text.ts";
import { checkStaleness, compareStamps, isFresh } from "./check.ts";
import { readManifest } from "./manifest.ts";
import { SCHEMA_VERSION } from "../schema.ts";
import { pendingRebuild } from "../rebuild_mark.ts";
import { releasedSources } from "../forget/exclusions.ts";
import { runningBackground, startBackground } from "./background.ts";
import { Q } from "../schema.ts";
import { type Revised, revisedStores, vocabOwed } from "./revised.ts";
import {
  type Reforgotten,
  reforgottenLine,
  TOMBSTONES_KEY,
  tombstonesAgree,
} from "../forget/tombstones.ts";
export { refreshOff } from "./background.ts";

/** Inline budget of a CLI command in milliseconds. */
export const DEFAULT_BUDGET_MS = 1500;
/** A store with more bytes than this to read is left to the background run. */
export const INLINE_MAX_BYTES = 8 * 1024 * 1024;

/** What the freshness step did, for the caller's note (and `--json`). */
export interface Freshness {
  /**
   * `fresh`: nothing had changed; `refreshed`: changes were read in now;
   * `catching_up`: some changes are left to a background run (or another
   * writer holds the index); `no_index`: there is no index yet (a background
   * run builds it); `off`: the check was turned off; `read_only`: the index's
   * folder may not be written, so the index is answered from as it is; `damaged`: a command
   * found the index damaged, so it is answered from as it is and not written to.
   */
  state: "fresh" | "refreshed" | "catching_up" | "no_index" | "off" | "read_only" | "damaged";
  /** Stores read in now. */
  read: number;
  /** Changed stores not yet in the index. */
  pending: number;
  /** Milliseconds since the oldest change not yet in the index (0 when none). */
  behind_ms: number;
  /** True when a background run is going (started now or before). */
  background: boolean;
  /** Milliseconds this step took. */
  ms: number;
  /**
   * The first full run of the index never finished (stopped, killed): the stores it had
   * not read yet are in no changed list; a background run finishes it.
   */
  unfinished?: boolean;
  /**
   * A `deja index --rebuild` was cut short (lib/rebuild_mark.ts): the harnesses whose rebuild
   * the next full run finishes (a background run, started now); until then the index may hold
   * what the rebuild was to drop (trial 124 F1: searches said `fresh` and started no run).
   */
  rebuild_pending?: string[];
  /**
   * With {@link unfinished}: a `deja index` (its pid) is building the index now, so it is
   * not stopped: it is not done yet.
   */
  building?: number;
  /**
   * With {@link building}: the stores that build has written so far (rows of its `sources`
   * table; the total is known to it alone) (trial 122 F8: the line gave no figure).
   */
  built?: number;
  /**
   * Harnesses whose reader changed since the index read their stores (a newer deja): with
   * `catching_up`, the stores left are read again, not changed (trial 33: "1 changed store
   * (0 s behind)" for a store no one had touched).
   */
  reread?: string[];
  /** The index could not be read by this step (busy, damaged): what it holds was not looked at. */
  unchecked?: true;
  /**
   * With {@link reread}: the stores among them whose text an older secrets redaction wrote
   * (lib/version.ts `REDACTION`). Until they are read again, text from them may hold what the
   * rules of now mask: said by the CLI, and hooks and MCP give nothing from the index.
   */
  redaction?: number;
  /**
   * Stores whose last read failed (locked, unreadable): this step's, counted in
   * {@link pending} and read again by the background run it starts, or an earlier one's,
   * read again by a background run a minute after it failed (see {@link retrying}); what
   * changed in them may be missing meanwhile (trial 74: "fresh" while a store read during a
   * lock was not in the index). `deja sources` says why.
   */
  failed?: number;
  /**
   * Stores whose last read failed a while ago (lib/fresh/stamps.ts `RETRY_FAILED_MS`), handed
   * to a background run to be read again (trial 72: a store locked during one search was
   * never read by the searches after it, which said the index was fresh).
   */
  retrying?: number;
  /**
   * Stores whose last read met a lock their harness held (SQLite busy or locked), so what they
   * hold newest may be missing: with `catching_up`, never `fresh` (trial 119 F1: "fresh" and
   * "nothing matched" for a minute after a Crush store was locked past the wait). They are
   * read again by a background run seconds after the failure (lib/fresh/stamps.ts
   * `retryAfterMs`). `harnesses` names theirs, `error` the first one's reason.
   */
  locked?: { stores: number; harnesses: string[]; error: string };
  /** With `damaged`: what the command that found the damage said. */
  damage?: string;
  /**
   * With `no_index`: the index was deleted though the manifest beside it says it held sessions
   * (lib/store.ts `deletedIndex`): what it held, and how many of its stores are gone since.
   */
  deleted?: DeletedIndex;
  /**
   * Forgotten sessions the index held again (it had lost the writes that removed them),
   * removed now (lib/forget/reapply.ts). Absent when none.
   */
  reforgotten?: Reforgotten;
}

/** Options of {@link freshen}. */
export interface FreshenOptions {
  /** Inline budget in ms (default: `DEJA_REFRESH_BUDGET_MS`, else {@link DEFAULT_BUDGET_MS}). */
  budgetMs?: number;
  /** Start a background run for what is left (default true). */
  background?: boolean;
  now?: number;
  /** Set on the second look after waiting for a background run (it is not waited for twice). */
  waited?: boolean;
}

/**
 * Waits until the background run ends, or `deadline` (a `performance.now()` time) passes;
 * true when it ended.
 */
async function backgroundEnds(env: Env, deadline: number): Promise<boolean> {
  while (runningBackground(env)) {
    if (performance.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/**
 * Brings the index up to date as far as the budget allows (see the module doc).
 * Without `parsers`, the registered ones are loaded when something changed:
 * a fresh index costs the stat pass alone, no parser module (issue 18).
 */
export async function freshen(
  env: Env,
  parsers?: readonly Parser[],
  opts: FreshenOptions = {},
): Promise<Freshness> {
  const t0 = performance.now();
  const now = opts.now ?? Date.now();
  let reforgotten: Reforgotten | undefined;
  /** Of the stores an older reader read, those an older secrets redaction read (set below). */
  let olderRules = 0;
  const out = (f: Omit<Freshness, "ms">): Freshness => {
    // Whatever else is said, stores older redaction rules read and still to be read again are
    // said (trial 133 F1, F5: two commands at once, or a read-only index folder, answered with
    // what those rules let through and said nothing of it).
    const left = olderRules && f.redaction === undefined ? olderLeft(path)?.redaction ?? 0 : 0;
    return {
      ...f,
      ...(left ? { redaction: left } : {}),
      ...(reforgotten ? { reforgotten } : {}),
      ms: performance.now() - t0,
    };
  };
  const bgOk = opts.background ?? true;
  const path = indexPath(env);
  if (!existsSync(path)) {
    // Read before the background run makes the new index, which drops the manifest.
    const deleted = deletedIndex(path);
    const pid = bgOk ? startBackground(env) : undefined;
    return out({
      state: "no_index",
      read: 0,
      pending: 0,
      behind_ms: 0,
      background: Boolean(pid),
      ...(deleted ? { deleted } : {}),
    });
  }
  // Found damaged by an earlier command (trial 74: searches whose reads missed the damaged
  // pages said "fresh" and wrote into the file 'deja index' refused): said, not written to.
  const damage = knownDamage(path);
  if (damage) {
    return out({ state: "damaged", read: 0, pending: 0, behind_ms: 0, background: false, damage });
  }
  let stale;
  // Stores an exclusion since lifted had dropped sessions from: read again now.
  let released: string[] = [];
  // Harnesses an older reader read (lib/version.ts REVISIONS): their stores are read again.
  let revised: string[] = [];
  /** Stores of the `revised` harnesses an older reader read. */
  let revisedCount = 0;
  /** A refresh on use read such stores: the vocabulary is owed a remake by a full run. */
  let owedVocab = false;
  // While the index is as the last writer left it, the stat manifest says what it holds
  // (./manifest.ts); an exclusion recorded there needs the index itself.
  const m = readManifest(path, SCHEMA_VERSION);
  if (m && !m.excluded) {
    stale = compareStamps({ rows: m.rows, map: m.map, lastIndex: 0 }, { env });
  } else {
    let unfinished = false;
    /** With `unfinished`: the stores the index holds (a build at work commits them as it goes). */
    let built = 0;
    // The index disagrees with the tombstones file: it may hold forgotten sessions again.
    let unapplied = false;
    /** Harnesses whose interrupted rebuild the next full run finishes. */
    let rebuild: string[] = [];
    try {
      const store = Store.open(path, { readOnly: true, busyMs: 200 });
      try {
        rebuild = pendingRebuild(store);
        unapplied = !tombstonesAgree(Q.getMeta.get(store, { key: TOMBSTONES_KEY })?.value, path);
        // No full run ever finished (trial 26: a first `deja index` killed at a third of
        // the stores; every search then answered from that third and said nothing).
        unfinished = !Q.getMeta.get(store, { key: "last_index" });
        if (unfinished) {
          built = (store.db.prepare("SELECT count(*) AS n FROM sources").get() as { n: number }).n;
        }
        stale = checkStaleness(store, { env });
        released = releasedSources(store, env).map((r) => r.harness);
        ({ harnesses: revised, stores: revisedCount, redaction: olderRules } = revisedStores(
          store,
        ));
        owedVocab = vocabOwed(store);
      } finally {
        store.close();
      }
    } catch {
      // An index this step cannot read is the command's to report, not this step's; what it
      // holds was not looked at (lib/cli/refresh.ts then asks of older redaction rules itself).
      return out({
        state: "fresh",
        read: 0,
        pending: 0,
        behind_ms: 0,
        background: false,
        unchecked: true,
      });
    }
    // Removed now, whatever the budget: a forgotten session is never answered from (trial 111
    // F3). A writer holding the index past the wait removes them itself (lib/indexer.ts).
    if (unapplied) {
      const waitMs = Math.min(opts.budgetMs ?? budgetOf(env), DEFAULT_BUDGET_MS);
      reforgotten = (await import("../forget/reapply.ts")).reapplyNow(env, waitMs);
      // Stores it marked to be read again (what a lost undo of a forget brought back, trial
      // 114 F6) are stale now: looked at again.
      try {
        const store = Store.open(path, { readOnly: true, busyMs: 200 });
        try {
          stale = checkStaleness(store, { env });
        } finally {
          store.close();
        }
      } catch { /* the staleness as it was found */ }
    }
    // A full run the index is owed (a first build, a rebuild cut short): started in the
    // background unless one is at it; true when one runs or was started.
    const owed = (atIt: boolean) => {
      const running = atIt ? undefined : runningBackground(env, now);
      return Boolean(running) || (!atIt && bgOk && Boolean(startBackground(env)));
    };
    const owing = { state: "catching_up", read: 0, behind_ms: 0 } as const;
    const pending = Math.max(1, stale.changed.length);
    if (rebuild.length && !unfinished) {
      // A rebuild cut short is finished by the next full run: started now, unless a writer is at
      // it (trial 124 F1: every search said `fresh` and the rebuild waited for some other run).
      const writer = Boolean(lockHolder(dirname(path)));
      return out({
        ...owing,
        pending,
        background: owed(writer) || writer,
        rebuild_pending: rebuild,
      });
    }
    if (unfinished) {
      // A first `deja index` still at work is no run that stopped (trial 28: a search while
      // it ran said the first run "stopped early"): it is said, and no other run started.
      const writer = lockHolder(dirname(path));
      const building = writer && !writer.brief ? writer.pid : undefined;
      return out({
        ...owing,
        pending,
        background: owed(Boolean(building)),
        unfinished: true,
        ...(building ? { building, built } : {}),
      });
    }
  }
  /**
   * The answer while stores an older reader or redaction read are owed a read again by the
   * background run (started or running): text an older redaction wrote is waited for, within
   * the budget, rather than given back (trial 129 F3: the first answers after an upgrade
   * showed what the new rules mask); the run's end makes the index fresh, and it is looked at
   * again. `read`: stores this step read in already.
   */
  const rereadOwed = async (read: number): Promise<Freshness> => {
    const budget = opts.budgetMs ?? budgetOf(env);
    if (olderRules && !opts.waited && await backgroundEnds(env, t0 + budget)) {
      const left = Math.max(0, budget - (performance.now() - t0));
      return await freshen(env, parsers, { ...opts, budgetMs: left, waited: true });
    }
    return out({
      state: "catching_up",
      read,
      pending: Math.max(1, revisedCount),
      behind_ms: 0,
      background: true,
      reread: revised,
      ...(olderRules ? { redaction: olderRules } : {}),
    });
  };
  const bgRunning = Boolean(runningBackground(env, now));
  const locked = lockedOf(stale.locked);
  if (isFresh(stale) && !released.length) {
    // Stores an older reader or redaction read are owed a read again, by a background run (all
    // of a harness's stores: never inline), and it is said (trial 128 F1: after an upgrade a
    // search said `fresh`, started nothing, and showed what the older redaction let through).
    if (revised.length && (bgRunning || (bgOk && startBackground(env)))) {
      return await rereadOwed(0);
    }
    // A refresh on use read stores an older redaction read: the vocabulary is made again by a
    // full run, started now (trial 132 F3).
    if (owedVocab && bgOk && !bgRunning) startBackground(env);
    // Stores that failed a while ago are read again by a background run (a full run retries
    // them), never inline: a store locked for good would cost every search its wait.
    if (stale.retry && bgOk && !bgRunning) {
      const pid = startBackground(env);
      if (pid) {
        return out({
          state: "catching_up",
          read: 0,
          pending: Math.max(stale.retry, locked?.stores ?? 0),
          behind_ms: stale.failedSince ? Math.max(0, now - stale.failedSince) : 0,
          background: true,
          retrying: stale.retry,
          failed: stale.failed,
          ...(locked ? { locked } : {}),
        });
      }
    }
    // A store met locked a moment ago is not up to date: said, and read again in seconds.
    if (locked) {
      return out({
        state: "catching_up",
        read: 0,
        pending: locked.stores,
        behind_ms: stale.failedSince ? Math.max(0, now - stale.failedSince) : 0,
        background: bgRunning,
        failed: stale.failed,
        locked,
      });
    }
    return out({
      state: "fresh",
      read: 0,
      pending: 0,
      behind_ms: 0,
      background: bgRunning,
      ...(stale.failed ? { failed: stale.failed } : {}),
    });
  }
  // A store there but unreadable has no mtime to tell (0): not "20794 d behind" (trial 76).
  const oldest = stale.changed.reduce(
    (m, c) => (c.mtime > 0 ? Math.min(m, c.mtime) : m),
    stale.dirsChangedAt ? Math.min(now, stale.dirsChangedAt) : now,
  );
  const behind = Math.max(0, now - oldest);
  const budget = opts.budgetMs ?? budgetOf(env);
  const harnesses = [
    ...new Set([...stale.changed.map((c) => c.harness), ...stale.discover, ...released]),
  ];
  let pending = stale.changed.length + released.length;
  let read = 0;
  let failed = 0;
  let inline = false;
  if (budget > 0 && !bgRunning) {
    try {
      const { runIndex } = await import("../indexer.ts");
      const list = parsers ?? (await import("../../parsers/mod.ts")).parsers;
      const end = performance.now() + budget;
      // A harness store locked by its harness is waited for within the budget, not for the
      // 3 s of a plain run (trial 91 F7: a hook's first prompt after a store locked took 3.1 s
      // of its 500 ms): what it could not read goes to the background run.
      const waiting = waitingAtMost(env, budget);
      const run = (waitMs?: number) =>
        runIndex(waiting, list, {
          only: harnesses,
          deadline: end,
          inlineMaxBytes: INLINE_MAX_BYTES,
          ...(waitMs ? { waitMs } : {}),
        });
      let res;
      try {
        res = await run();
      } catch (e) {
        // Another command's refresh on use holds the index, reading what this one would: it
        // is waited for, within this one's budget, and what it left is read then (trial 45:
        // two searches started together after an agent wrote; the one that lost the lock
        // answered from the index as it was, "nothing matched", exit 1).
        // A holder gone already (it let go between the two reads) is waited for as well: only a
        // full run (no brief hold) is left to finish on its own (trial 47: 4 of 35 rounds lost).
        const left = end - performance.now();
        const holder = lockHolder(dirname(path));
        if (!(e instanceof DejaError) || (holder && !holder.brief) || left < 50) throw e;
        res = await run(Math.floor(left));
      }
      reforgotten ??= res.reforgotten;
      read = res.harnesses.reduce((n, h) => n + h.read, 0);
      failed = res.harnesses.reduce((n, h) => n + h.failed, 0);
      // A store this step could not read is a change not in the index: the background run
      // started below tries it again (trial 74: "refreshed", pending 0, nothing read).
      pending = res.pending + failed;
      inline = true;
    } catch (e) {
      // A damaged index is the command's to report (with its hint), not a run to wait for:
      // no background run would get further.
      if (isCorruption(e)) {
        return out({ state: "fresh", read: 0, pending: 0, behind_ms: 0, background: false });
      }
      // Nor is a full disk: said as such now (trial 111 F4: "catching up", and a background run
      // started that could not write either).
      if (e instanceof IndexDiskFull || e instanceof IndexLogLost) throw e;
      if (!(e instanceof DejaError)) throw e;
      // A folder deja may not write to (a read-only mount): no run could bring the index up
      // to date (trial 29: every search failed). Answered from as it is, and said.
      if (!indexWritable(path)) {
        // What it could not read in is still pending (trial 72: `pending: 0` where doctor said
        // 1 changed).
        return out({
          state: "read_only",
          read: 0,
          pending: Math.max(pending, 1),
          behind_ms: behind,
          background: false,
        });
      }
      // Another writer holds the index: it is catching up already.
    }
  }
  // Stores an older redaction read, some maybe read again by this step: those left are owed
  // the background run's read, waited for within the budget, and their text is not answered
  // from as if fresh (trial 132 F1: after an upgrade, a changed store read in now, the first
  // search said `refreshed` and showed a secret of a store still as the older rules left it).
  if (inline && olderRules) {
    const left = olderLeft(path);
    if (left) {
      ({ harnesses: revised, stores: revisedCount, redaction: olderRules } = left);
      if (olderRules && (runningBackground(env) || (bgOk && startBackground(env)))) {
        return await rereadOwed(read);
      }
    }
    // Read again whole: the vocabulary is made again by a full run, started now.
    if (bgOk && !runningBackground(env)) startBackground(env);
  }
  // Locked stores of harnesses this step did not read are still as their failure left them.
  const lockedLeft = lockedOf(
    stale.locked.filter((l) => !inline || !harnesses.includes(l.harness)),
  );
  if (inline && !pending && !lockedLeft) {
    return out({
      state: "refreshed",
      read,
      pending: 0,
      behind_ms: 0,
      background: false,
      ...(failed ? { failed } : {}),
    });
  }
  // Read in but for stores met locked before: they are read again when their wait is over
  // (no background run now, which would meet the lock at once).
  if (inline && !pending && lockedLeft) {
    return out({
      state: "catching_up",
      read,
      pending: lockedLeft.stores,
      behind_ms: stale.failedSince ? Math.max(0, now - stale.failedSince) : 0,
      background: bgRunning,
      failed: stale.failed,
      locked: lockedLeft,
    });
  }
  const pid = bgOk ? startBackground(env) : undefined;
  if (lockedLeft) pending += lockedLeft.stores;
  // More left than changed, with a reader changed: those are stores read again.
  const reread = pending > stale.changed.length && revised.length ? revised : undefined;
  return out({
    state: "catching_up",
    read,
    pending: Math.max(pending, 1),
    behind_ms: reread && !stale.changed.length ? 0 : behind,
    background: Boolean(pid) || bgRunning,
    ...(reread ? { reread } : {}),
    ...(failed ? { failed } : {}),
    ...(lockedLeft ? { locked: lockedLeft } : {}),
  });
}

/** {@link Freshness.locked} of the stores the stat pass found failed on a lock, or undefined. */
function lockedOf(list: readonly { harness: string; error: string }[]): Freshness["locked"] {
  if (!list.length) return undefined;
  return {
    stores: list.length,
    harnesses: [...new Set(list.map((l) => l.harness))],
    error: list[0].error.replace(/ \(\d+ tries in a row\)$/, ""),
  };
}

/**
 * The line saying that stores met locked could not be read just now (trial 119 F1), for the
 * CLI's stderr and the MCP server's answers alike.
 */
export function lockedLine(l: NonNullable<Freshness["locked"]>): string {
  const which = l.harnesses.length === 1 ? `${l.harnesses[0]} ` : "";
  return `${l.stores === 1 ? `1 ${which}store` : `${l.stores} ${which}stores`} could not be ` +
    `read just now (${l.error}): results may miss ${
      l.stores === 1 ? "its" : "their"
    } newest sessions; ${l.stores === 1 ? "it is" : "they are"} tried again shortly`;
}

/** `env` with its harness stores' busy wait (`DEJA_SQLITE_TIMEOUT_MS`) at most `ms`. */
export function waitingAtMost(env: Env, ms: number): Env {
  const own = Number(env.get("DEJA_SQLITE_TIMEOUT_MS") ?? 3000);
  const cap = String(Math.max(0, Math.min(Number.isFinite(own) ? own : 3000, Math.floor(ms))));
  return {
    home: env.home,
    platform: env.platform,
    get: (name) => name === "DEJA_SQLITE_TIMEOUT_MS" ? cap : env.get(name),
    ...(env.vars ? { vars: () => ({ ...env.vars!(), DEJA_SQLITE_TIMEOUT_MS: cap }) } : {}),
  };
}

function budgetOf(env: Env): number {
  return msVar(env, "DEJA_REFRESH_BUDGET_MS", DEFAULT_BUDGET_MS);
}

/** Milliseconds from variable `name` (0 or more), else `fallback` (unset, empty or no number). */
export function msVar(env: Env, name: string, fallback: number): number {
  const raw = env.get(name);
  const v = Number(raw);
  return raw !== undefined && raw.trim() !== "" && Number.isFinite(v) && v >= 0 ? v : fallback;
}

/**
 * The line said on stderr by a command that reads no freshness (`stats`, `sources`) when a
 * command before it found the index damaged (trial 86 F2: they said nothing, exit 0); '' else.
 */
export function damageNote(env: Env): string {
  const damage = knownDamage(indexPath(env));
  return damage ? freshnessNote({ ...NONE, state: "damaged", damage }) + "\n" : "";
}

const NONE = { read: 0, pending: 0, behind_ms: 0, background: false, ms: 0 } as const;

/**
 * The one line a person is told on stderr (two when forgotten sessions were removed again), or
 * '' when there is nothing to say.
 */
export function freshnessNote(f: Freshness): string {
  const said = stateNote(f);
  // Stores older redaction rules read, said whatever else the state says (trial 133 F1, F5).
  const state = f.redaction && !said.includes("secret")
    ? [said, olderRulesLine(f.redaction, f.background)].filter(Boolean).join("\n")
    : said;
  if (!f.reforgotten) return state;
  return state ? `${reforgottenLine(f.reforgotten)}\n${state}` : reforgottenLine(f.reforgotten);
}

/** What {@link freshnessNote} says of the index's state. */
function stateNote(f: Freshness): string {
  if (f.state === "read_only") {
    return "deja: the index is read-only here: answering from it as it is " +
      "(not brought up to date)";
  }
  if (f.state === "damaged") {
    return `deja: the index was found damaged (${f.damage}): answers may miss sessions, and it ` +
      "is not brought up to date; 'deja index --rebuild' builds a new one";
  }
  if (f.state === "no_index") {
    return f.background ? "deja: no index yet: building it in the background now (first run)" : "";
  }
  // Stores an earlier run could not read, with nothing else to catch up: `failed` in JSON and
  // `deja sources`, not a line on every search (a store broken for good would say it always).
  if (f.state !== "catching_up") return "";
  const failed = f.failed
    ? `deja: ${f.failed === 1 ? "1 changed store" : `${f.failed} changed stores`} could not be ` +
      "read now ('deja sources' says why)"
    : "";
  // Stores met locked a moment ago (trial 119 F1): said first, whatever else is said.
  const locked = f.locked ? `deja: ${lockedLine(f.locked)}` : "";
  if (f.retrying) {
    if (locked) return locked;
    return `deja: ${
      f.retrying === 1 ? "1 store that" : `${f.retrying} stores that`
    } could not be read before ${f.retrying === 1 ? "is" : "are"} being read again in the ` +
      "background; results may miss what changed in them";
  }
  if (f.rebuild_pending) {
    return `deja: the last 'deja index --rebuild' was cut short: ${
      f.background ? "it is finished in the background now" : "'deja index' finishes it"
    }; until then results may hold what it drops (sessions of stores gone)`;
  }
  if (f.unfinished && f.building) {
    const done = f.built === undefined
      ? ""
      : `; ${f.built === 1 ? "1 store" : `${f.built} stores`} done so far`;
    return `deja: the index is still being built ('deja index', pid ${f.building}${done}): ` +
      "results may miss much of the history until it ends";
  }
  if (f.unfinished) {
    return `deja: the index was never built in full (a first run stopped early): ${
      f.background ? "reading the rest in the background now" : "run 'deja index' to finish it"
    }; results may miss much of the history`;
  }
  if (f.reread && f.redaction) {
    return (locked ? `${locked}\n` : "") +
      `deja: the index is catching up: new secret-redaction rules, so ${
        f.redaction === 1 ? "1 store is" : `${f.redaction} stores are`
      } read again ${
        f.background ? "in the background" : "at the next 'deja index'"
      }; until then results may show secrets the older rules let through ('deja index' ` +
      "finishes it now)";
  }
  if (f.reread) {
    return (locked ? `${locked}\n` : "") +
      `deja: the index is catching up: deja reads ${f.reread.join(", ")} better now, so ${
        f.pending === 1 ? "1 store is" : `${f.pending} stores are`
      } read again ${
        f.background ? "in the background" : "at the next 'deja index'"
      }; results may miss what the new reader finds`;
  }
  // The changes left besides the locked stores.
  const left = f.pending - (f.locked?.stores ?? 0);
  if (locked && left <= 0) return locked;
  const catching = `deja: the index is catching up: ${left} changed ${
    left === 1 ? "store" : "stores"
  } (${duration(f.behind_ms)} behind) ${
    f.background ? "being read in the background" : "not read yet"
  }; results may miss the newest work`;
  return [locked, failed, catching].filter(Boolean).join("\n");
}

/**
 * After deja wrote its own files (`deja install`, `uninstall`) into folders the
 * index watches for new stores (a harness's config directory is often its store
 * root): those folders are looked at again now, so their new mtimes are no
 * change `deja doctor` or a later command reports. Nothing without an index;
 * a failure leaves it to the next command.
 */
export async function restampAfterOwnWrites(env: Env): Promise<void> {
  if (!existsSync(indexPath(env))) return;
  try {
    await freshen(env, undefined, { background: false, budgetMs: DEFAULT_BUDGET_MS });
  } catch { /* the next reading command catches up */ }
}

/** What {@link revisedStores} says of the index at `path` now (undefined when it cannot be read). */
function olderLeft(path: string): Revised | undefined {
  try {
    const store = Store.open(path, { readOnly: true, busyMs: 200 });
    try {
      return revisedStores(store);
    } finally {
      store.close();
    }
  } catch {
    return undefined;
  }
}

/** Said while `n` stores older secret-redaction rules read are still to be read again. */
export function olderRulesLine(n: number, background: boolean): string {
  return `deja: ${n === 1 ? "1 store was" : `${n} stores were`} read under older ` +
    `secret-redaction rules and ${
      background ? "are being read again in the background" : "are not read again yet"
    }: results may show secrets those rules let through ('deja index' reads them now)`;
}
