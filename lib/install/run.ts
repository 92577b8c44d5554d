/**
 * One `deja install` or `deja uninstall` run over several targets. Install
 * first checks every config of every target (a target with a broken or
 * read-only config is refused whole, and the others go on; nothing is written
 * when every target is refused), then writes the launcher (so no config
 * ever names a launcher that is not there), then each target. Install
 * records the directories and files it made and the user's entries `--force`
 * replaced (state.ts); uninstall removes only what deja made (directories once
 * they are empty), puts the replaced entries back, and the `.deja.bak` backup
 * of a config that holds nothing of deja's any more. A file system error while writing becomes one
 * clean line naming the path (a DejaError), never a stack trace.
 *
 * @module
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import type { Env } from "../../core/model.ts";
import type { TargetRef } from "./facts.ts";
import { mcpFile, wirables } from "./facts.ts";
import type { FileAction } from "./files.ts";
import {
  foundBackup,
  keepingMadeDirs,
  realTarget,
  removeFile,
  removeMadeDirs,
  writeIfChanged,
  writeProblem,
} from "./files.ts";
import { loadInstallState, saveInstallState, withInstallLock } from "./state.ts";
import { DejaError } from "../../core/errors.ts";
import { launcherPath, launcherTarget, writeLauncher } from "./launcher.ts";
import { anyServiceWritten } from "../fresh/service.ts";
import { expandPath } from "./template.ts";
import { readTextSync } from "../../core/fsread.ts";
import { CONFIG_MAX } from "./files.ts";
import {
  type Change,
  holdsDeja,
  planTarget,
  type TargetOutcome,
  textHash,
  wireTarget,
} from "./wire.ts";
import { targetStatus } from "./doctor.ts";
import { dataKey, formatOf, jsonComments, parseConfig } from "./formats.ts";
import { isObj } from "../../core/values.ts";

/** What a run did. */
export interface WireReport {
  launcher: {
    /** What configs run: the launcher path (the binary itself on Windows). */
    path: string;
    /**
     * `kept`: uninstall found a file there that deja did not write, and left it; or
     * (with {@link keptFor}) a config still runs it.
     */
    action: FileAction | "kept";
    /**
     * The config that still runs the launcher: an entry of deja's the user edited, or (with
     * {@link keptElsewhere}) a config deja wired under other settings.
     */
    keptFor?: string;
    /** {@link keptFor} is a config deja wired under other settings (another `CLAUDE_CONFIG_DIR`). */
    keptElsewhere?: boolean;
    /** The argv the launcher starts. */
    target: string[];
  };
  outcomes: TargetOutcome[];
  /**
   * Uninstall that found nothing of deja's: the configs deja's install state records that are
   * none of this environment's harnesses' and still name the launcher, wired under other
   * settings (another `CLAUDE_CONFIG_DIR`).
   */
  wiredElsewhere?: string[];
  /** A dry run: every action is what would be done; nothing was written. */
  dryRun?: boolean;
  /** True when every target was refused: nothing at all was written, not even the launcher. */
  aborted?: boolean;
}

/**
 * Installs `refs`. `self` is the argv that starts this deja (runtime.ts
 * `selfCommand()`); it is recorded in the launcher. A target whose config
 * cannot be read or edited is refused and left alone (its `refused` says why);
 * the others are installed. When every target is refused, nothing at all is
 * written, not even the launcher (`aborted`).
 */
export function installTargets(
  env: Env,
  self: string[],
  refs: TargetRef[],
  opts: { force?: boolean; dryRun?: boolean } = {},
): WireReport {
  // A dry run writes nothing, the lock included.
  if (opts.dryRun) return installLocked(env, self, refs, opts);
  return withInstallLock(env, () => installLocked(env, self, refs, opts));
}

function installLocked(
  env: Env,
  self: string[],
  refs: TargetRef[],
  opts: { force?: boolean; dryRun?: boolean },
): WireReport {
  const windows = env.platform === "win32";
  const path = windows ? self[0] : launcherPath(env);
  const state = loadInstallState(env);
  const ctx = { env, launcher: path, force: opts.force, state, dryRun: opts.dryRun };
  const launcherProblem = windows ? undefined : writeProblem(path);
  if (launcherProblem) {
    throw new DejaError(
      `cannot write deja's launcher: ${launcherProblem}`,
      "nothing was written; make that place writable, or set DEJA_HOME to one that is",
    );
  }
  const refusedOf = (r: TargetRef) => {
    const plan = planTarget(ctx, r, true);
    return "refused" in plan ? plan.refused : undefined;
  };
  // Every target asked for gets its row (trial 102 F1: with `install claude-code claude-auto`
  // and a broken ~/.claude.json, only claude-auto's refusal was said, text and JSON). A refused
  // `-auto` target's plain one is wired on its own when it was asked for and its files allow;
  // else it is refused, with its own reason or the `-auto` target's.
  const asked = refs;
  refs = [];
  const refusals: Array<string | undefined> = [];
  for (const r of asked) {
    const refused = refusedOf(r);
    if (refused && r.auto) {
      const plain: TargetRef = {
        name: r.harness.facts.target,
        harness: r.harness,
        auto: false,
        ...(r.plainAsked === "swept" ? { swept: true } : {}),
      };
      const own = refusedOf(plain);
      refs.push(plain);
      refusals.push(
        own ??
          (r.plainAsked ? undefined : `not written without ${r.name}, which writes it too and ` +
            `was refused; 'deja install ${plain.name}' wires it alone`),
      );
    }
    refs.push(r);
    refusals.push(refused);
  }
  const refusedOutcome = (r: TargetRef, refused: string): TargetOutcome => ({
    target: r.name,
    harness: r.harness.harness,
    changes: [],
    refused,
  });
  if (refusals.every(Boolean)) {
    // Nothing to wire: not even the launcher is written (no config would name it).
    const action: FileAction = windows || existsSync(path) ? "unchanged" : "absent";
    return {
      launcher: { path, action, target: self },
      outcomes: refs.map((r, i) => refusedOutcome(r, refusals[i] as string)),
      aborted: true,
    };
  }
  // An -auto target writes the plain wiring too; when that was not there before, uninstalling
  // the -auto target takes it back (state.ts `withAuto`). A plain target asked for keeps it.
  // So does `--auto`'s plain wiring of a harness it could not give an -auto target (goose, zed).
  const wired = refs.filter((_, i) => !refusals[i]);
  const brought = wired.filter((r) => (r.auto || r.swept) && !plainWired(env, r))
    .map((r) => r.harness.harness);
  const plainAsked = new Set(
    wired.filter((r) => !r.auto && !r.swept).map((r) => r.harness.harness),
  );
  const wireAll = () =>
    refs.flatMap((r, i) => {
      const refused = refusals[i];
      return refused ? [refusedOutcome(r, refused)] : splitByOwner(wireTarget(ctx, r, true));
    });
  if (opts.dryRun) {
    const action: FileAction = windows ? "unchanged" : writeLauncher(env, self, true);
    return { launcher: { path, action, target: self }, outcomes: wireAll(), dryRun: true };
  }
  const result = cleanFsErrors(() =>
    keepingMadeDirs(env, () => {
      try {
        let action: FileAction = windows ? "unchanged" : writeLauncher(env, self);
        const outcomes = wireAll();
        // A launcher no config runs is not left made (trial 84 F7: aider reads a guidance
        // file only, and `deja-launcher` stayed for nothing).
        if (action === "created" && !launcherInUse(env, path)) {
          rmSync(path, { force: true });
          action = "absent";
        }
        return { action, outcomes };
      } finally {
        const now = loadInstallState(env);
        const withAuto = [...state.withAuto ?? [], ...brought].filter((h) => !plainAsked.has(h));
        saveInstallState(env, {
          ...now,
          replaced: state.replaced,
          made: state.made,
          withAuto,
          owned: state.owned,
          configs: state.configs,
        });
      }
    })
  );
  return { launcher: { path, action: result.action, target: self }, outcomes: result.outcomes };
}

/**
 * Why `deja install` of `ref` would be refused now (a config that does not parse, or cannot be
 * written; the launcher's place not writable), or undefined when it would go ahead. Reads;
 * writes nothing. `self` is the argv that starts this deja.
 */
export function installRefusal(env: Env, self: string[], ref: TargetRef): string | undefined {
  const windows = env.platform === "win32";
  const launcher = windows ? self[0] : launcherPath(env);
  const problem = windows ? undefined : writeProblem(launcher);
  if (problem) return `cannot write deja's launcher: ${problem}`;
  const plan = planTarget({ env, launcher, state: loadInstallState(env), dryRun: true }, ref, true);
  return "refused" in plan ? plan.refused : undefined;
}

/** True when any part of `r`'s plain wiring (MCP server, skill, command, files) is in place. */
function plainWired(env: Env, r: TargetRef): boolean {
  const st = targetStatus(env, { name: r.harness.facts.target, harness: r.harness, auto: false });
  return st.parts.some((p) => p.state !== "not_wired");
}

/**
 * Runs `fn`; a file system error it throws (a write that failed after the
 * checks passed) becomes a DejaError naming the path, without a stack trace.
 */
function cleanFsErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const x = e as { code?: unknown; path?: unknown; dest?: unknown; message?: unknown };
    if (typeof x?.code !== "string" || !/^E[A-Z]+$/.test(x.code)) throw e;
    const where = typeof x.dest === "string"
      ? x.dest
      : typeof x.path === "string"
      ? x.path
      : String(x.message ?? "").split("\n")[0];
    throw new DejaError(
      `cannot write ${where} (${x.code})`,
      "fix that file's place or permissions, then run this again (files written so far are kept)",
    );
  }
}

/**
 * Uninstalls `refs`; the launcher goes too once no target is wired any more.
 * A target takes out what it is, whatever the order things were installed in (trial 102 F3):
 * `<h>-auto` the hooks and plugin files (automatic recall), the plain target all of deja in
 * that harness (its MCP server, skill, command, and the `-auto` hooks, which are the plain
 * wiring plus hooks: reported under `-auto`, with a note). Only `uninstall --auto` (refs
 * marked `undoAuto`) undoes what `install --auto` did, the plain wiring it wrote included
 * (state.ts `withAuto`). `force`: deja's entries and files as the user edited them go too
 * (any entry running deja's launcher), which are otherwise kept and named.
 */
export function uninstallTargets(
  env: Env,
  refs: TargetRef[],
  opts: { force?: boolean } = {},
): WireReport {
  return withInstallLock(env, () => cleanFsErrors(() => uninstallAll(env, refs, opts)));
}

function uninstallAll(env: Env, refs: TargetRef[], opts: { force?: boolean }): WireReport {
  const path = launcherPath(env);
  const state = loadInstallState(env);
  // The configs that still hold the text deja last wrote (before anything is taken out): only
  // their backups' bytes may come back; one deja kept no record of (an older deja's install)
  // is judged by its data alone, as before.
  const wrote = { ...state.configs };
  const now = new Map(Object.keys(wrote).map((real) => [real, textHash(real)]));
  const untouched = (real: string): boolean =>
    wrote[real] === undefined || wrote[real] === now.get(real);
  const ctx = {
    env,
    launcher: path,
    state,
    restored: [] as typeof state.replaced,
    force: opts.force,
  };
  // `uninstall --auto` undoes `install --auto`: the plain wiring goes too when that install wrote it.
  const withAuto = new Set(state.withAuto ?? []);
  const whole = (r: TargetRef): TargetRef =>
    r.auto && r.undoAuto && withAuto.has(r.harness.harness)
      ? { name: r.harness.facts.target, harness: r.harness, auto: false, undoAuto: true }
      : r;
  const outcomes = refs.flatMap((r) => {
    const w = whole(r);
    const o = wireTarget(ctx, w, false);
    // A refusal is said under the target typed (trial 84 F5: `uninstall claude-auto` said
    // "claude-code refused" where settings.json held claude-auto's hooks), and under the
    // `-auto` target a plain one takes out too (trial 102 F1: it vanished from the report).
    if (o.refused) {
      const auto = !w.auto && r.harness.facts.auto?.target;
      const names = [...new Set([r.name, w.name, ...(auto ? [auto] : [])])];
      return names.map((target) => ({ ...o, target }));
    }
    return splitByOwner(o).map((x) => ({ ...x, changes: x.changes.map((c) => why(r, w, c)) }));
  });
  // The harnesses whose plain wiring went: `install --auto` wrote none of it any more.
  const done = new Set(
    refs.filter((r) => !whole(r).auto).map((r) => r.harness.harness).filter((h) =>
      outcomes.some((o) => o.harness === h && !o.refused)
    ),
  );
  saveInstallState(env, {
    ...loadInstallState(env),
    replaced: state.replaced.filter((r) => !ctx.restored.includes(r)),
    made: state.made,
    withAuto: [...withAuto].filter((h) => !done.has(h)),
    owned: state.owned,
    configs: state.configs,
  });
  const still = launcherInUse(env, path);
  // An entry of deja's the user edited (a flag added to a hook, an `env` to the MCP entry) is
  // kept as theirs, and runs the launcher still: it stays, and is said to (trial 39: it was
  // removed, and the agent's hook failed on every prompt; trial 102 F4: the launcher stayed
  // for a kept MCP entry, and nothing said so).
  const keptHere = outcomes.flatMap((o) => o.changes).filter((c) =>
    c.action === "kept" && c.kind !== "skill" && c.kind !== "command" && c.kind !== "file"
  ).map((c) => c.path).find((p) => namesLauncher(p, path));
  const edited = !existsSync(path) ? undefined : still ? keptHere : configRunning(env, path);
  // A config deja wired under other settings (trial 58: `CLAUDE_CONFIG_DIR=~/.claude-work
  // deja install claude-auto`, then a plain `uninstall --all` took the launcher its hooks run,
  // and they failed on every prompt): the launcher stays, and where it is run is said.
  const elsewhere = still || edited || !existsSync(path)
    ? undefined
    : recordedRunning(env, state, path);
  const keptFor = edited ?? elsewhere;
  // The launcher is deja's own: never restored from a backup (an older deja made those).
  if (!still && !keptFor) rmSync(`${path}.deja.bak`, { force: true });
  const action: FileAction | "kept" = still && !keptFor
    ? "unchanged"
    : keptFor || (existsSync(path) && launcherTarget(path) === null)
    ? "kept" // a file at the launcher's place that deja did not write, or one a config runs
    : removeFile(path, dirname(path));
  const dropped = dropBackups(env, outcomes, path, untouched);
  // A config whose backup went, or that is gone (deja made it and took it out), needs no record.
  const after = loadInstallState(env);
  const stale = Object.keys(after.configs ?? {}).filter((f) =>
    dropped.includes(f) || !existsSync(f)
  );
  if (stale.length) {
    for (const f of stale) delete after.configs?.[f];
    saveInstallState(env, after);
  }
  removeMadeDirs(env);
  // Nothing found here, deja's entries wired under other settings (trial 136 F6: "nothing of
  // deja's was there" under another CLAUDE_CONFIG_DIR, of a ~/.claude.json holding deja's entry).
  const none = outcomes.every((o) =>
    !o.refused && o.changes.every((c) => c.action === "absent" || c.action === "unchanged")
  );
  const wiredElsewhere = none && existsSync(path) ? recordedElsewhere(env, state, path) : [];
  return {
    launcher: {
      path,
      action,
      target: [],
      ...(keptFor ? { keptFor } : {}),
      ...(elsewhere ? { keptElsewhere: true } : {}),
    },
    outcomes,
    ...(wiredElsewhere.length ? { wiredElsewhere } : {}),
  };
}

/**
 * A change of `uninstall r` (run as `w`) with why it went where the target named is not the
 * one that owns it: the `-auto` hooks a plain target takes out with it, the plain wiring
 * `uninstall --auto` takes back because `install --auto` wrote it (trial 102 F3).
 */
function why(r: TargetRef, w: TargetRef, c: Change): Change {
  if (c.action !== "removed" || c.note) return c;
  const plain = r.harness.facts.target;
  if (w.undoAuto && !w.auto && c.target === plain) {
    return { ...c, note: "'install --auto' wrote it, and 'uninstall --auto' takes it back" };
  }
  if (!r.auto && !r.swept && c.target !== plain) {
    return {
      ...c,
      note: `with ${plain}, which takes all of deja out of ${r.harness.displayName}; ` +
        `'deja uninstall ${c.target}' takes the hooks alone`,
    };
  }
  return c;
}

/** True when the file at `file` names the launcher at `path` (in a JSON string or as is). */
function namesLauncher(file: string, path: string): boolean {
  try {
    const text = readTextSync(realTarget(file), CONFIG_MAX);
    return text.includes(path) || text.includes(JSON.stringify(path).slice(1, -1));
  } catch {
    return false;
  }
}

/** The first of {@link recordedElsewhere}, or undefined when there is none. */
function recordedRunning(
  env: Env,
  state: ReturnType<typeof loadInstallState>,
  path: string,
): string | undefined {
  return recordedElsewhere(env, state, path)[0];
}

/**
 * The files deja's install state records (created, or a config deja added containers to) that
 * are no config of this environment's harnesses and still name the launcher at `path`: wired
 * under other settings (another `CLAUDE_CONFIG_DIR`).
 */
function recordedElsewhere(
  env: Env,
  state: ReturnType<typeof loadInstallState>,
  path: string,
): string[] {
  const here = new Set<string>();
  for (const w of wirables()) {
    const f = w.facts;
    if (f.mcp) here.add(realTarget(mcpFile(env, f.mcp)));
    for (
      const file of [
        f.auto?.file,
        f.auto?.grant?.file,
        ...(f.auto?.files ?? []).map((x) => x.file),
      ]
    ) {
      if (file) here.add(realTarget(expandPath(env, file)));
    }
  }
  const recorded = [...state.created, ...(state.made ?? []).map((m) => m.file)];
  return [...new Set(recorded)].filter((file) => {
    if (here.has(file) || !existsSync(file)) return false;
    try {
      return readTextSync(file, CONFIG_MAX).includes(path);
    } catch {
      return false; // unreadable: not this one
    }
  });
}

/**
 * True while anything deja wrote still runs the launcher at `path`: an MCP
 * server or hooks of any harness, a file deja owns whose text names it (pi's
 * extension, a plugin), or a user service (`--watch-service`, `remote-sync`).
 * Skills, commands and guidance files only name deja's tool: they do not count.
 */
function launcherInUse(env: Env, path: string): boolean {
  // Wired, and by the launcher: the user's own entry running another deja (trial 82 F5:
  // `/opt/deja/bin/deja`) keeps no launcher.
  const names = (file: string) => namesLauncher(file, path);
  const wired = wirables().some((w) =>
    [false, true].some((auto) => {
      const st = targetStatus(env, { name: "", harness: w, auto });
      return st.parts.some((p) =>
        (p.kind === "mcp" || p.kind === "hooks") && p.state !== "not_wired" && names(p.path)
      );
    })
  );
  if (wired || anyServiceWritten(env)) return true;
  return wirables().some((w) => {
    const f = w.facts;
    return [f.skill, f.command, ...(f.files ?? []), ...(f.auto?.files ?? [])].some((o) => {
      const file = o && realTarget(expandPath(env, o.file));
      if (!file || !existsSync(file)) return false;
      try {
        return readTextSync(file, CONFIG_MAX).includes(path);
      } catch {
        return false;
      }
    });
  });
}

/**
 * The first config of any harness (an MCP server's, the hooks') whose text still names the
 * launcher at `path` once deja's own entries are gone: an entry the user edited. Undefined
 * when none does.
 */
function configRunning(env: Env, path: string): string | undefined {
  const files = new Set<string>();
  for (const w of wirables()) {
    const f = w.facts;
    if (f.mcp) files.add(mcpFile(env, f.mcp));
    if (f.auto?.file) files.add(expandPath(env, f.auto.file));
    if (f.auto?.grant) files.add(expandPath(env, f.auto.grant.file));
  }
  for (const file of files) {
    try {
      if (existsSync(file) && readTextSync(file, CONFIG_MAX).includes(path)) return file;
    } catch { /* unreadable: not this one */ }
  }
  return undefined;
}

/**
 * One outcome per target that owns a change (lib/install/wire.ts `owner`): the
 * hooks under `-auto`, the MCP server, skill and command under the plain
 * target, whichever of the two was named.
 */
function splitByOwner(o: TargetOutcome): TargetOutcome[] {
  if (o.refused) return [o];
  const owners = [...new Set(o.changes.map((c) => c.target))];
  if (owners.length <= 1) return [{ ...o, target: owners[0] ?? o.target }];
  return owners.map((t) => ({ ...o, target: t, changes: o.changes.filter((c) => c.target === t) }));
}

/**
 * For every config no part of deja is wired in any more: its `.deja.bak` goes,
 * and when the config now holds the same data as the backup, unedited since deja wrote it,
 * the backup's bytes are put back first, so the user's formatting returns too
 * (never a backup that holds deja's own entries: an older deja made those).
 */
function dropBackups(
  env: Env,
  outcomes: TargetOutcome[],
  launcher: string,
  untouched: (real: string) => boolean,
): string[] {
  const dropped: string[] = [];
  for (const c of outcomes.flatMap((o) => o.changes)) {
    if (c.kind === "skill" || c.kind === "command") continue;
    const real = realTarget(c.path);
    const bak = foundBackup(c.path);
    if (!bak) continue;
    const now = existsSync(real) ? readFileSync(real, "utf8") : undefined;
    if (now !== undefined && heldByDeja(env, real, now)) continue; // deja is still wired there
    // An entry of deja's the user edited, kept, still runs the launcher there: the backup
    // stays for the uninstall that takes it (`--force`, trial 102 F4), as the launcher does.
    if (c.action === "kept" && now !== undefined && namesLauncher(real, launcher)) continue;
    const original = readFileSync(bak, "utf8");
    const mine = heldByDeja(env, real, original);
    // A config gone since install is not brought back: the user deleted it (trial 141 M2: the
    // backup's bytes came back as a file the user had removed, said "absent").
    if (
      !mine && now !== undefined && untouched(real) && sameData(real, now, original) &&
      noneLost(real, now, original)
    ) {
      writeIfChanged(real, original, 0o600, false); // the backup itself: no backup of deja's edit
    }
    rmSync(bak, { force: true });
    dropped.push(real);
  }
  return dropped;
}

/**
 * True when putting `original` back over `now` (the config at `path`, the same data) loses
 * nothing its data does not show: every comment `now` holds and every integer too long for a
 * double to tell apart is in `original` too (trial 82: comments a user added after install,
 * and a 20-digit id changed since, were replaced by the backup's bytes). JSON's comments are
 * read by jsonc-parser's visitor (formats.ts jsonComments), so a URL's `//` is none (trial 117
 * F2: a config holding one never got its bytes back); a `#` inside a TOML or YAML string
 * counts as a comment here: such a config keeps deja's removal as it is, its formatting aside,
 * which loses nothing.
 */
function noneLost(path: string, now: string, original: string): boolean {
  const hashes = formatOf(path) === "toml" || formatOf(path) === "yaml";
  const marks = (t: string) => [
    ...(hashes ? t.match(/#[^\n]*/g) ?? [] : jsonComments(t)).map((c) => c.trim()),
    ...(t.match(/\d{16,}/g) ?? []),
  ];
  const had = new Set(marks(original));
  return marks(now).every((m) => had.has(m));
}

/** True when `text` (a backup of the config at `path`) holds deja's own entries (an old deja made it). */
function heldByDeja(env: Env, path: string, text: string): boolean {
  try {
    const v = parseConfig(text, formatOf(path) === "json" ? "jsonc" : formatOf(path));
    return typeof v === "object" && v !== null &&
      holdsDeja(env, path, v as Record<string, unknown>);
  } catch {
    return false;
  }
}

/**
 * True when `now` and `original`, two texts of the config at `path`, hold the same data (read
 * in the file's format), empty objects and lists aside: taking deja's entry out of
 * `{"mcpServers": {"deja": …}}` leaves `{}`, which is the user's `{"mcpServers": {}}` again.
 * A key `original` set to null that `now` lacks counts as the same too: install put deja's
 * entry in place of the user's `"mcpServers": null` (YAML `mcp_servers: ~`), and uninstall
 * took the container it made out whole (trial 117 F3: the null never came back). Not the
 * other way: a null the user set since install stays.
 */
function sameData(path: string, now: string, original: string): boolean {
  try {
    const f = formatOf(path) === "json" ? "jsonc" : formatOf(path);
    const a = parseConfig(now, f);
    const b = withoutNulls(parseConfig(original, f), a);
    return dataKey(pruned(a)) === dataKey(pruned(b));
  } catch {
    return false;
  }
}

/** `v` without the keys (objects walked, lists not) whose value is null and that `now` lacks. */
function withoutNulls(v: unknown, now: unknown): unknown {
  if (!isObj(v)) return v;
  const there = isObj(now) ? now : {};
  return Object.fromEntries(
    Object.entries(v).flatMap(([k, x]) =>
      x === null && !(k in there) ? [] : [[k, withoutNulls(x, there[k])]]
    ),
  );
}

/**
 * `v` without empty objects and lists (recursively), a list of one read as its item;
 * undefined when nothing is left.
 */
function pruned(v: unknown): unknown {
  if (Array.isArray(v)) {
    const out = v.map(pruned).filter((x) => x !== undefined);
    // A list of one is its item: install made aider's `read: X` a list to add deja's beside
    // it, and taking deja's out leaves `[X]` (trial 82: the original never came back).
    return out.length > 1 ? out : out[0];
  }
  if (typeof v === "object" && v !== null) {
    const out = Object.entries(v).map(([k, x]) => [k, pruned(x)] as const)
      .filter(([, x]) => x !== undefined);
    return out.length ? Object.fromEntries(out) : undefined;
  }
  return v;
}
