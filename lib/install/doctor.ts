/**
 * `deja doctor`: for each install target, whether it is wired, and whether
 * the index is fresh.
 *
 * Part states: `wired` (deja's entry is there and what it runs exists),
 * `partly_wired` (some of deja's hooks are there, or run), `will_not_run` (deja's hooks are
 * there, and the harness runs none of them: turned off, or not yet approved), `not_wired`
 * (no deja entry, or a file deja did not write in its place), `stale_path` (deja's entry runs
 * a program that is gone, or the launcher points at a moved binary), `broken_entry` (an entry
 * runs deja with a command that cannot work: an unknown hook, which exits 2, or arguments
 * `deja mcp` refuses), `broken_config` (the config does not parse).
 * A target's state is its worst fault (broken config, broken entry, stale path); without one,
 * `wired` when every part is, `not_wired` when none is, `will_not_run` when every part is
 * wired or will not run, else `partly_wired`. The plain target reports the MCP server, skill
 * and command; the `-auto` target its hooks.
 *
 * @module
 */
import { heldForgotten, tombstonesApplied } from "../forget/reapply.ts";
import { basename, dirname } from "node:path";
import { accessSync, constants, existsSync } from "node:fs";
import type { Env } from "../../core/model.ts";
import { detected, mcpFile, type RetiredHook, type TargetRef } from "./facts.ts";
import { expandPath } from "./template.ts";
import { tilde } from "../../core/text.ts";
import { BrokenConfig, readJsonDoc, realTarget } from "./files.ts";
import {
  allHooks,
  commandProgram,
  dejaCall,
  dejaSubcommand,
  findHooks,
  getMcp,
  hasListItem,
  hookByDeja,
  isDejaServer,
  mcpValue,
  serverProgram,
  writtenByDeja,
} from "./edits.ts";
import { DEADLINE_MS, HOOK_NAMES, unknownHook } from "../hooks/table.ts";
import { dialectFor } from "../hooks/dialect.ts";
import { nearestSaid } from "../hooks/log.ts";
import { COMMANDS } from "../cli/table.ts";
import { type ConfigFormat, oneLineReason } from "./formats.ts";
import { unapprovedHooks } from "./codex_trust.ts";
import { launcherPath, launcherTarget, targetExists } from "./launcher.ts";
import { loadInstallState, madeKey } from "./state.ts";
import { type PartKind, withLauncher } from "./wire.ts";
import { isObj, type Obj } from "../../core/values.ts";
import {
  asIndexError,
  checkIndex,
  IndexDamaged,
  IndexDiskFull,
  IndexLogLost,
  indexPath,
  indexWritable,
  lockHolder,
  notAFolder,
  noteDamage,
  readOnlyPart,
  setAsideIndexes,
  Store,
} from "../store.ts";
import { checkStaleness } from "../fresh/check.ts";
import { lastIndexAt } from "../fresh/manifest.ts";
import { Q } from "../schema.ts";
import { readTextSync } from "../../core/fsread.ts";
import { CONFIG_MAX } from "./files.ts";
import { allListHooks, findListHooks } from "./list_hooks.ts";
import { type HarnessDamage, storeDamage } from "../store_damage.ts";

/** State of one part or target. */
export type WireState =
  | "wired"
  | "partly_wired"
  | "will_not_run"
  | "not_wired"
  | "stale_path"
  | "broken_entry"
  | "broken_config";

/** The states that are faults: doctor counts each target in one as a problem. */
export const FAULTS: readonly WireState[] = ["stale_path", "broken_entry", "broken_config"];

/** One part of a target. */
export interface PartStatus {
  kind: PartKind;
  path: string;
  state: WireState;
  detail?: string;
  /** Wired, but not working (yet): Codex's hooks before the user approved them, a timeout too low. */
  warning?: string;
  /**
   * An entry or file deja did not write holds deja's place (the user's own `deja` MCP server, a
   * skill file of theirs): install keeps it, `--force` replaces it (trial 117 F6: doctor's
   * `deja install codex` changed nothing).
   */
  theirs?: boolean;
}

/** One target as doctor sees it. */
export interface TargetStatus {
  target: string;
  harness: string;
  auto: boolean;
  /** The harness looks installed on this machine (a detect path exists). */
  detected: boolean;
  state: WireState;
  parts: PartStatus[];
  /** Why `deja install <target>`, which doctor would suggest, is refused now (a broken or read-only config). */
  blocked?: string;
}

/** The index as doctor sees it. */
export interface IndexStatus {
  path: string;
  exists: boolean;
  /** Epoch ms of the last `deja index`, or null. */
  lastIndex: number | null;
  /** Stores in the index. */
  sources: number;
  /** Indexed stores whose size or mtime changed since they were read. */
  changed: number;
  /** Indexed stores gone since (deleted or moved): their sessions stay until a rebuild. */
  gone: number;
  /**
   * Damaged indexes a rebuild set aside (`index.db.corrupt-<time>`, with their `-wal`): they
   * hold all the old index held, forgotten sessions and scrubbed words included (trial 77).
   */
  setAside: string[];
  /**
   * Stores whose last read failed (locked, unreadable): what changed in them may be missing
   * until a run reads them (trial 74: "fresh … 0 changed" above "1 store failed").
   */
  failed: number;
  /**
   * Harnesses whose store folders changed since they were looked in (new stores may be
   * there; trial 30: counted as stores, "41 changed or new" for one new store).
   */
  lookAgain: number;
  /**
   * The index's folder is a file (or under one), where deja needs a folder: what to do about it
   * (trial 127 F8: said "its folder is read-only").
   */
  notFolder?: { message: string; hint: string };
  /** The index's folder may not be written: no run can bring the index up to date. */
  readOnly?: boolean;
  /** Which of the two is read-only (lib/store.ts `readOnlyPart`). */
  readOnlyPart?: "file" | "folder";
  /** A `deja index` holds the index now (its pid). */
  building?: number;
  /**
   * Forgotten sessions the index holds again: it lost the writes that removed them (its `-wal`
   * removed, an older copy put back; trial 111 F3, doctor said "fresh"). The next search or
   * `deja index` removes them (lib/forget/reapply.ts). 0 when none.
   */
  forgottenHeld: number;
  /** {@link error} is the index's disk being full (lib/store.ts `IndexDiskFull`): no damage. */
  diskFull?: boolean;
  /** {@link error} is the index's `-wal` removed under another process (`IndexLogLost`): no damage. */
  logLost?: boolean;
  /** The index exists, opens, and no indexed store changed since. */
  fresh: boolean;
  /** `harness: error` for each error the last `deja index` reported, each once (a failed store, a damaged registry). */
  harnessErrors: string[];
  /** Per harness, the stores whose last read failed or was damaged (lib/store_damage.ts). */
  damage: HarnessDamage[];
  error?: string;
}

const RANK: Record<WireState, number> = {
  wired: 0,
  will_not_run: 1,
  partly_wired: 2,
  not_wired: 3,
  stale_path: 4,
  broken_entry: 5,
  broken_config: 6,
};

/** A target's state from its parts' (see the module doc). */
export function targetState(parts: readonly PartStatus[]): WireState {
  const faults = parts.filter((p) => FAULTS.includes(p.state));
  if (faults.length) {
    return faults.reduce<WireState>((w, p) => (RANK[p.state] > RANK[w] ? p.state : w), "wired");
  }
  if (parts.every((p) => p.state === "wired")) return "wired";
  if (parts.every((p) => p.state === "not_wired")) return "not_wired";
  if (parts.every((p) => p.state === "wired" || p.state === "will_not_run")) return "will_not_run";
  return "partly_wired";
}

/** Whether the program a config runs is there: the launcher and the binary it names, or a plain path. */
function liveness(env: Env, prog: string): { ok: boolean; detail?: string } {
  if (!prog.includes("/") && !prog.includes("\\")) return { ok: true };
  if (prog === launcherPath(env) || prog.endsWith("/deja-launcher")) {
    const t = launcherTarget(prog);
    if (!t) return { ok: false, detail: `launcher ${prog} is missing` };
    // A launcher that may not be run (its mode changed) fails as a missing one does.
    if (env.platform !== "win32") {
      try {
        accessSync(prog, constants.X_OK);
      } catch {
        return { ok: false, detail: `launcher ${prog} may not be run (not executable)` };
      }
    }
    if (!targetExists(t)) return { ok: false, detail: `deja is no longer at ${t[0]}` };
    return { ok: true };
  }
  return existsSync(prog) ? { ok: true } : { ok: false, detail: `${prog} does not exist` };
}

function ownedPart(env: Env, kind: PartKind, tpl: string): PartStatus {
  const path = expandPath(env, tpl);
  if (!existsSync(path)) return { kind, path, state: "not_wired" };
  try {
    const text = readTextSync(realTarget(path), CONFIG_MAX);
    if (text.includes("deja:managed")) {
      // A file that runs the launcher (opencode's and Kilo Code's plugins) is as live as it
      // (trial 58: both plugins were "wired" with the launcher gone, their recall dead).
      const launcher = launcherPath(env);
      const l = text.includes(launcher) ? liveness(env, launcher) : { ok: true };
      if (!l.ok) return { kind, path, state: "stale_path", detail: l.detail };
      return { kind, path, state: "wired" };
    }
  } catch { /* unreadable */ }
  return {
    kind,
    path,
    state: "not_wired",
    detail: "a file deja did not write is there",
    theirs: true,
  };
}

/** The wiring state of one target. Reads configs; writes nothing. */
export function targetStatus(env: Env, ref: TargetRef): TargetStatus {
  const f = ref.harness.facts;
  const parts: PartStatus[] = [];
  if (!ref.auto) {
    const mcp = f.mcp;
    if (mcp) {
      const path = mcpFile(env, mcp);
      parts.push(jsonPart(path, mcp.format, "mcp", (o) => {
        const e = getMcp(o, mcp.key);
        if (!e || !isDejaServer(e)) {
          // The user's own entry under deja's name, which install keeps (wire.ts `installMcp`).
          // A null is no entry (trial 121 L3: "the MCP entry there is yours"); install replaces it.
          if ((mcpValue(o, mcp.key) ?? null) === null) return { state: "not_wired" };
          return {
            state: "not_wired",
            detail: `an entry deja did not write is there (${mcp.key.join(".")})`,
            theirs: true,
          };
        }
        const want = withLauncher(mcp.entry, serverProgram(e)) as Obj;
        // Turned off in the harness's config (trial 39: goose's `enabled: false` was "wired").
        if (e.enabled === false || e.disabled === true) {
          return {
            state: "not_wired",
            detail: `deja's entry is there, turned off (${
              e.enabled === false ? "enabled: false" : "disabled: true"
            })`,
          };
        }
        const l = liveness(env, serverProgram(e));
        if (!l.ok) return { state: "stale_path", detail: l.detail };
        if (!writtenByDeja(e, want, env.platform === "win32" ? serverProgram(e) : undefined)) {
          // Other arguments start no server (trial 41: `mcp --bogus` was "wired"): deja's
          // program run so fails, which the harness shows as a server that did not start.
          const args = serverArgs(e);
          if (JSON.stringify(args) !== JSON.stringify(serverArgs(want))) {
            return {
              state: "broken_entry",
              detail: `${mcpCallProblem(serverProgram(e), args)}; 'deja install ${ref.name} ` +
                "--force' puts deja's entry in its place",
            };
          }
          // Deja's server all the same, with settings of the user's (trial 38: an `env` added
          // to deja's entry was "not wired"): it works; install and uninstall leave it be.
          // One deja's install wrote, edited since (trial 84 F4: "an entry deja did not write").
          const made = madeKey(loadInstallState(env), realTarget(path), mcp.key);
          return {
            state: "wired",
            warning: `${
              made ? "deja's entry as you edited it" : "an entry deja did not write"
            } runs deja's server: install and uninstall keep it as it is ('deja install ${ref.name} --force' puts deja's in its place; 'deja uninstall ${ref.name} --force' removes it)`,
          };
        }
        return { state: "wired" };
      }));
    }
    if (f.skill) parts.push(ownedPart(env, "skill", f.skill.file));
    if (f.command) parts.push(ownedPart(env, "command", f.command.file));
    for (const x of f.files ?? []) parts.push(ownedPart(env, "file", x.file));
    const read = f.read;
    if (read) {
      const item = expandPath(env, read.item);
      parts.push(jsonPart(expandPath(env, read.file), read.format, "file", (o) => ({
        state: hasListItem(o, read.key, item) ? "wired" : "not_wired",
      })));
    }
  } else if (f.auto) {
    const auto = f.auto;
    for (const x of auto.files ?? []) parts.push(ownedPart(env, "hooks", x.file));
    const grant = auto.grant;
    if (grant) {
      const at = grant.key.join(".");
      parts.push(jsonPart(expandPath(env, grant.file), grant.format, "hooks", (o) => {
        const v = grant.key.reduce<unknown>(
          (x, k) => (x && typeof x === "object" ? (x as Record<string, unknown>)[k] : undefined),
          o,
        );
        if (v === grant.value) return { state: "wired" };
        return { state: "not_wired", detail: `${at} is not ${JSON.stringify(grant.value)}` };
      }));
    }
  }
  if (ref.auto && f.auto?.file && f.auto.hooks && f.auto.style) {
    const auto = { ...f.auto, file: f.auto.file, hooks: f.auto.hooks, style: f.auto.style };
    const shownFile = tilde(expandPath(env, auto.file), env.home);
    parts.push(jsonPart(expandPath(env, auto.file), auto.format, "hooks", (o) => {
      const missing: string[] = [];
      const stale: string[] = [];
      const there: string[] = [];
      const low: string[] = [];
      for (const spec of auto.hooks) {
        const found = (auto.style === "list"
          ? findListHooks(o, spec.event)
          : findHooks(o, spec.event, auto.style)).filter((h) =>
            h.sub === spec.args[0]
          );
        if (!found.length) missing.push(`${spec.event} ${spec.args[0]}`);
        else there.push(`${spec.event} ${spec.args[0]}`);
        for (const h of found) {
          const l = liveness(env, commandProgram(h.command));
          if (!l.ok) stale.push(l.detail ?? h.command);
        }
      }
      // Every entry that runs deja, whatever its command: one edited into a command deja does
      // not have fails on every event (trial 101 F1: `hook-NOPE` exited 2, and Claude Code
      // refused every prompt, while doctor said "not wired", exit 0).
      const every = auto.style === "list" ? allListHooks(o) : allHooks(o, auto.style);
      const broken: string[] = [];
      for (const h of every) {
        const call = dejaCall(h.command);
        const why = call && hookCallProblem(call.args);
        if (why) {
          broken.push(
            `${h.event} runs '${[basename(call.program), ...call.args].join(" ")}': ${why}`,
          );
        } else if (call && HOOK_NAMES.has(call.args[0])) {
          // A `--harness` no harness has (trial 133 F9: `claude-cod`, `crushh` were "wired",
          // exit 0, while hooks.log said each run answered in Claude Code's envelope).
          const d = dialectFor(call.args.slice(1));
          if (d.nearest) {
            broken.push(
              `${h.event} ${call.args[0]} has ${
                d.id ? `--harness '${d.id}', no harness deja knows` : "--harness and no id"
              }: it answers in Claude Code's envelope${
                nearestSaid(d.nearest)
              }; 'deja install ${auto.target} --force' rewrites it`,
            );
          }
        }
        // A timeout below what a hook may take (trial 102 F2: 10 s lowered to 3, 10000 ms to
        // 500): the harness stops a slow answer, which then says nothing.
        const sub = dejaSubcommand(h.command);
        const u = auto.timeout_unit === "ms" ? " ms" : " s";
        // One out of the range the harness's schema accepts (Kimi Code: 1-600 s) makes it refuse
        // the entry (trial 121 M3: 900 s was "wired"); install never writes nor keeps one.
        if (
          sub && typeof h.timeout === "number" && auto.timeout_max !== undefined &&
          (h.timeout < 1 || h.timeout > auto.timeout_max)
        ) {
          broken.push(
            `${h.event} ${sub} has timeout ${h.timeout}${u}, outside the 1-${auto.timeout_max}${u} ` +
              `the harness accepts, which refuses it (deja install ${auto.target} sets deja's)`,
          );
        } else if (sub && HOOK_NAMES.has(sub) && typeof h.timeout === "number") {
          const ms = auto.timeout_unit === "ms" ? h.timeout : h.timeout * 1000;
          if (ms < DEADLINE_MS) {
            low.push(`${h.event} ${h.timeout}${auto.timeout_unit === "ms" ? " ms" : " s"}`);
          }
        }
      }
      if (stale.length) return { state: "stale_path", detail: [...new Set(stale)].join("; ") };
      if (broken.length) {
        return {
          state: "broken_entry",
          detail: `${broken.join("; ")}; fix or remove ${
            broken.length === 1 ? "that entry" : "those entries"
          } in ${shownFile}`,
        };
      }
      // Retired entries are warned of while they are there, whether or not the current hooks
      // are (trial 131 F2: with only the retired Gemini ones, doctor said "not wired" alone).
      const retired = retiredLeft(o, auto.style, auto.retired ?? [], auto.target);
      if (missing.length === auto.hooks.length) {
        return { state: "not_wired", ...(retired ? { warning: retired } : {}) };
      }
      const warnings = [
        retired,
        low.length
          ? `deja's ${low.length === 1 ? "hook has a timeout" : "hooks have timeouts"} below ` +
            `the ${DEADLINE_MS / 1000} s a hook may take (${low.join(", ")}): the harness ` +
            "stops a slow answer (a store to read first), which then says nothing"
          : undefined,
      ].filter((w): w is string => w !== undefined);
      // What is left runs deja all the same (trial 41: a hook the user edited, kept by
      // uninstall, went unmentioned under "not wired").
      if (missing.length) {
        return {
          state: "partly_wired",
          detail: `missing: ${missing.join(", ")}; still there: ${there.join(", ")}`,
          ...(warnings.length ? { warning: warnings.join("; ") } : {}),
        };
      }
      // Hooks the harness runs none of are no wiring that works (trial 102 F6: "wired", exit
      // 0, under a warning that Codex had approved none of them).
      const off = baseOff(o, auto.base, shownFile) ??
        allOff(o, auto.off, shownFile) ??
        offIn(env, auto.off_in) ??
        (auto.trust_file ? approval(env, auto.file, o, auto.trust_file) : undefined);
      if (off) {
        const state: WireState = typeof off === "string" || off.all
          ? "will_not_run"
          : "partly_wired";
        const text = typeof off === "string" ? off : off.warning;
        return { state, warning: [text, ...warnings].join("; ") };
      }
      if (warnings.length) return { state: "wired", warning: warnings.join("; ") };
      return auto.note ? { state: "wired", detail: auto.note } : { state: "wired" };
    }));
  }
  const state = targetState(parts);
  return {
    target: ref.name,
    harness: ref.harness.harness,
    auto: ref.auto,
    detected: detected(env, ref.harness),
    state,
    parts,
  };
}

/** Why an MCP entry that runs deja with `args` (not deja's `["mcp"]`) starts no server. */
function mcpCallProblem(program: string, args: unknown): string {
  const words = Array.isArray(args) ? args.map(String) : [];
  const shown = [basename(program), ...words].join(" ");
  if (words[0] === "mcp") {
    return `runs '${shown}': 'deja mcp' takes no arguments, and with these it starts no server`;
  }
  return `runs '${shown}', which is not deja's MCP server ('deja mcp'): no server starts`;
}

/**
 * Why a hook that runs deja with `args` cannot work, or undefined when it can: an unknown
 * hook exits 2, which harnesses read as "block" (trial 101 F1: Claude Code refused every
 * prompt, and doctor said "not wired", exit 0); a word that is no command is searched for,
 * and the search's text would be the hook's answer. Another deja command is the user's own use
 * of deja, and runs.
 */
export function hookCallProblem(args: readonly string[]): string | undefined {
  const [first] = args;
  if (first === undefined) return "deja with no command prints its usage and exits 2";
  if (unknownHook(first)) {
    return `no such deja hook: it exits 2, which harnesses read as 'block' (a prompt or ` +
      "tool call refused)";
  }
  if (HOOK_NAMES.has(first)) {
    return args.includes("--help") || args.includes("-h")
      ? "asks the hook for its help, which it prints instead of an answer"
      : undefined;
  }
  if (first.startsWith("-") || first === "help" || COMMANDS.some((c) => c.name === first)) {
    return undefined;
  }
  return `'${first}' is no deja command: deja searches for it, and the search's text would ` +
    "be the hook's answer";
}

/** The arguments an MCP entry runs its program with (`args`, or a command list's rest). */
function serverArgs(e: Obj): unknown {
  return Array.isArray(e.command) ? e.command.slice(1) : e.args ?? null;
}

/**
 * The warning for a value the hooks need (`auto.base`) that the config holds otherwise
 * (trial 38: Gemini CLI's `"hooksConfig": {"enabled": false}`, which install does not
 * overwrite, and doctor said "wired" of hooks that never run); undefined when none is.
 */
function baseOff(
  o: Obj,
  base: Obj | undefined,
  file: string,
  at: string[] = [],
): string | undefined {
  for (const [k, v] of Object.entries(base ?? {})) {
    const here = o[k];
    if (here === undefined) continue;
    if (isObj(v)) {
      const off = isObj(here) ? baseOff(here, v, file, [...at, k]) : undefined;
      if (off) return off;
    } else if (JSON.stringify(here) !== JSON.stringify(v)) {
      return `hooks present, but ${[...at, k].join(".")} is ${JSON.stringify(here)} in ${file}: ` +
        `the harness runs no hook until it is ${JSON.stringify(v)}`;
    }
  }
  return undefined;
}

/**
 * What in an `-auto` target's hook file stops every hook of the harness now (Claude Code's
 * `disableAllHooks: true`), whether deja's hooks are there yet or not: install's dry run
 * says it (trial 61). Undefined when nothing does, or the file cannot be read.
 */
export function hooksOff(env: Env, ref: TargetRef): string | undefined {
  const auto = ref.harness.facts.auto;
  if (!ref.auto || !auto?.file) return undefined;
  const elsewhere = offIn(env, auto.off_in);
  if (elsewhere || !auto.off) return elsewhere;
  const path = expandPath(env, auto.file);
  try {
    return allOff(readJsonDoc(path, auto.format).value, auto.off, tilde(path, env.home));
  } catch {
    return undefined;
  }
}

/**
 * The warning when a setting of another file holds the value that stops every hook of the
 * harness (trial 82: Codex's `[features] hooks = false` left deja's hooks "wired", and
 * install said to approve them); undefined when none does or the file cannot be read.
 */
function offIn(env: Env, sw: { file: string; keys: string[][]; off: unknown } | undefined) {
  if (!sw) return undefined;
  const path = expandPath(env, sw.file);
  let v: unknown;
  try {
    v = readJsonDoc(path).value;
  } catch {
    return undefined;
  }
  for (const keys of sw.keys) {
    let here: unknown = v;
    for (const k of keys) here = isObj(here) ? here[k] : undefined;
    if (JSON.stringify(here) === JSON.stringify(sw.off)) {
      return `hooks present, but ${keys.join(".")} is ${JSON.stringify(sw.off)} in ${
        tilde(path, env.home)
      }: the harness runs no hook`;
    }
  }
  return undefined;
}

/**
 * The warning when `o` holds a key of `off` with its value, which stops every hook of the
 * harness (trial 58: Claude Code's `disableAllHooks: true` left deja's hooks "wired").
 */
function allOff(o: Obj, off: Obj | undefined, file: string): string | undefined {
  for (const [k, v] of Object.entries(off ?? {})) {
    if (JSON.stringify(o[k]) === JSON.stringify(v)) {
      return `hooks present, but ${k} is ${JSON.stringify(v)} in ${file}: the harness runs no hook`;
    }
  }
  return undefined;
}

/**
 * The warning for deja's entries of hooks it no longer wires (`auto.retired`)
 * still in `o`, or undefined when none is left.
 */
function retiredLeft(
  o: Obj,
  style: "flat" | "nested" | "list",
  retired: readonly RetiredHook[],
  target: string,
): string | undefined {
  const found = (r: RetiredHook) =>
    (style === "list" ? findListHooks(o, r.event) : findHooks(o, r.event, style))
      .map((h) => h.command);
  const left = retired.filter((r) => found(r).some((c) => hookByDeja(c, [r])));
  // The same commands run by a `deja` the user named (`deja hook-tool --harness gemini`, an old
  // path): theirs, so kept by install, but said too (trial 136 F7: no word of them).
  const runs = (c: unknown, r: RetiredHook) => {
    const call = dejaCall(c);
    return call !== undefined && JSON.stringify(call.args) === JSON.stringify(r.args);
  };
  const yours = retired.filter((r) => found(r).some((c) => !hookByDeja(c, [r]) && runs(c, r)));
  if (!left.length && !yours.length) return undefined;
  const what = (l: RetiredHook[]) => l.map((r) => `${r.event} ${r.args[0]}`).join(", ");
  return [
    left.length
      ? `deja no longer wires ${what(left)} (the harness never showed their text to the ` +
        `model); \`deja install ${target}\` takes them out`
      : undefined,
    yours.length
      ? `hooks of yours run ${what(yours)}, which deja no longer wires (the harness never ` +
        "showed their text to the model): take them out yourself"
      : undefined,
  ].filter(Boolean).join("; ");
}

/**
 * The warning for deja's hooks in `hooks` (the parsed `file`) that the
 * harness has not approved yet (no pin in `trustFile`), or undefined when every
 * one is approved or the pins cannot be read (doctor reports the hooks file only).
 */
function approval(
  env: Env,
  file: string,
  hooks: Record<string, unknown>,
  trustFile: string,
): { warning: string; all: boolean } | undefined {
  let config: Record<string, unknown> = {};
  try {
    config = readJsonDoc(expandPath(env, trustFile)).value;
  } catch (e) {
    if (e instanceof BrokenConfig) return undefined;
    throw e;
  }
  const open = unapprovedHooks(expandPath(env, file), hooks, config);
  if (!open.length) return undefined;
  const changed = open.filter((u) => u.why === "changed").length;
  const all = allHooks(hooks, "nested").filter((h) => dejaSubcommand(h.command)).length;
  return {
    all: open.length >= all,
    warning: `hooks present, not yet approved — run /hooks in Codex (${open.length} of deja's ` +
      `${all} hooks${changed ? `, ${changed} changed since approved` : ""})`,
  };
}

function jsonPart(
  path: string,
  format: ConfigFormat | undefined,
  kind: PartKind,
  judge: (o: Record<string, unknown>) => Omit<PartStatus, "kind" | "path">,
): PartStatus {
  try {
    return { kind, path, ...judge(readJsonDoc(path, format).value) };
  } catch (e) {
    if (e instanceof BrokenConfig) {
      const at = e.at ? `line ${e.at.line}, column ${e.at.column}: ` : "";
      return { kind, path, state: "broken_config", detail: e.what ?? at + e.reason };
    }
    // Any other error reading it is this part's, said as such: doctor goes on to the other
    // parts and targets (trial 117 F1: one config stopped the whole report, with a stack trace).
    const why = oneLineReason(String((e as Error)?.message ?? e));
    return { kind, path, state: "broken_config", detail: `deja could not read it: ${why}` };
  }
}

/** The index: present, openable, when last indexed, and how many indexed stores changed since. */
export function indexStatus(env: Env): IndexStatus {
  const path = indexPath(env);
  const out: IndexStatus = {
    path,
    exists: existsSync(path),
    lastIndex: null,
    sources: 0,
    changed: 0,
    gone: 0,
    setAside: [],
    failed: 0,
    lookAgain: 0,
    fresh: false,
    harnessErrors: [],
    damage: [],
    forgottenHeld: 0,
  };
  const file = notAFolder(dirname(path));
  if (file) {
    out.notFolder = { message: file.message, hint: file.hint ?? "" };
    return out;
  }
  // Said with or without an index: none can be built or brought up to date there (trial 31).
  if (existsSync(dirname(path)) && !indexWritable(path)) {
    out.readOnly = true;
    out.readOnlyPart = readOnlyPart(path);
  }
  if (!out.exists) return out;
  const writer = lockHolder(dirname(path));
  if (writer && !writer.brief) out.building = writer.pid;
  let store: Store | undefined;
  const indexErrors: Record<string, string[]> = {};
  try {
    store = Store.open(path);
    const meta = Q.getMeta.get(store, { key: "last_index" });
    if (meta) {
      const last = JSON.parse(meta.value) as { at?: unknown; harnesses?: unknown };
      out.lastIndex = lastIndexAt(store) || null;
      for (const h of Array.isArray(last.harnesses) ? last.harnesses : []) {
        const list = Array.isArray(h?.errors) ? h.errors as string[] : [];
        const errors = [...new Set(list)];
        if (errors.length) indexErrors[h.harness] = errors;
        for (const e of errors) out.harnessErrors.push(`${h.harness}: ${e}`);
      }
    }
    // The same stat pass every reading command runs first (lib/fresh/check.ts).
    const stale = checkStaleness(store, { env });
    const rows = Q.allSources.all(store, {});
    out.sources = rows.length;
    out.damage = storeDamage(env, rows, indexErrors);
    out.changed = stale.changed.length;
    out.gone = stale.gone;
    out.setAside = setAsideIndexes(path);
    out.failed = stale.failed;
    out.lookAgain = stale.discover.length;
    // Looked up only when the index's record of the tombstones differs from the file.
    out.forgottenHeld = tombstonesApplied(store) ? 0 : heldForgotten(store).length;
    out.fresh = out.changed === 0 && out.lookAgain === 0 && out.failed === 0 &&
      out.lastIndex !== null && out.forgottenHeld === 0;
  } catch (e) {
    // Damage a read of the stat pass ran into reads as damage, with the way out.
    const err = asIndexError(e, path);
    out.error = err instanceof IndexDamaged || err instanceof IndexDiskFull ||
        err instanceof IndexLogLost
      ? `${err.message}: ${err.hint}`
      : (e as Error).message;
    if (err instanceof IndexDiskFull) out.diskFull = true;
    if (err instanceof IndexLogLost) out.logLost = true;
  } finally {
    store?.close();
  }
  // Damage in pages no query has read yet shows only to a full read: doctor is where a
  // person asks for one (it costs about a read of the file).
  if (!out.error) {
    let damage: string | null = null;
    try {
      damage = checkIndex(path);
    } catch (e) {
      // A full disk stopped the check: no damage (trial 111 F4: doctor called the index damaged).
      if (!(e instanceof IndexDiskFull || e instanceof IndexLogLost)) throw e;
      out.error = `${e.message}: ${e.hint}`;
      if (e instanceof IndexDiskFull) out.diskFull = true;
      else out.logLost = true;
    }
    if (damage) {
      out.error = `damaged (${damage}): run 'deja index --rebuild'`;
      // Recorded, so the commands after it say so too (trial 76: searches said "fresh").
      noteDamage(path, damage);
    }
  }
  // A damaged index is not fresh, whatever its stores' stamps say (trial 76).
  if (out.error) out.fresh = false;
  return out;
}
