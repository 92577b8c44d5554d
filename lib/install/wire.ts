/**
 * `deja install` / `deja uninstall` for one target: plans every edit first
 * (reading and checking every config the target touches), and writes only
 * when the whole plan holds; a config that is not valid JSON, or has a value
 * of the wrong type where deja writes, refuses the target and nothing of it
 * is touched.
 *
 * What a target writes: the plain target (`crush`, `claude-code`) the MCP
 * server, the skill and the `/deja` command; the `-auto` target all of that
 * plus the hooks. Every change is reported under the target that owns it: the
 * MCP server, skill and command under the plain target, the hooks under
 * `-auto`. Uninstalling the plain target removes everything deja wrote for the
 * harness; uninstalling `-auto` as such turns automatic recall off (the hooks
 * and plugin files), leaving the plain wiring as it was (run.ts makes it the
 * plain target's whole uninstall when the `-auto` install wrote that wiring). A `.deja.bak` is only
 * ever made of a config that holds none of deja's entries: the user's own
 * bytes.
 *
 * @module
 */
import { dirname } from "node:path";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync } from "node:fs";
import type { Env } from "../../core/model.ts";
import { mcpFile, type OwnedFile, type TargetRef, wirables } from "./facts.ts";
import { expandPath } from "./template.ts";
import {
  backupPath,
  BrokenConfig,
  type FileAction,
  foundBackup,
  type JsonDoc,
  readJsonDoc,
  realTarget,
  removeEmptyDirs,
  removeFile,
  saveJsonDoc,
  writeIfChanged,
  writeProblem,
} from "./files.ts";
import {
  addListItem,
  allHooks,
  dropBase,
  dropMcp,
  type HookOwnership,
  type HookReplaced,
  isLauncher,
  mcpValue,
  removeGrant,
  removeHooks,
  removeListItem,
  removeMcp,
  removeStrayMcp,
  runsLauncher,
  serverProgram,
  setBase,
  setGrant,
  setHooks,
  setMcp,
  ShapeError,
  type TimeoutKept,
  writtenByDeja,
} from "./edits.ts";
import { type InstallState, madeKey, type Replaced } from "./state.ts";
import type { HookSpec, RetiredHook } from "./facts.ts";
import { newContainers, pruneEmptied, pruneEmpty } from "./containers.ts";
import {
  cloneData,
  type ConfigFormat,
  dataKey,
  EditCheckError,
  formatOf,
  oneLineReason,
  renderChecked,
} from "./formats.ts";
import { allListHooks, removeListHooks, setListHooks } from "./list_hooks.ts";
import { TEXTS } from "./texts.ts";
import { readTextSync } from "../../core/fsread.ts";
import { CONFIG_MAX } from "./files.ts";
import { isObj, type Obj } from "../../core/values.ts";
import { tilde } from "../../core/text.ts";
import { DEADLINE_MS } from "../hooks/table.ts";

/** The parts of a target. */
/** `file`: another file deja owns (guidance, instructions); plugin files count as `hooks`. */
export type PartKind = "mcp" | "skill" | "command" | "file" | "hooks";

/** One thing install or uninstall did (or found already done). */
export interface Change {
  target: string;
  kind: PartKind | "launcher";
  /** Absolute path of the file. */
  path: string;
  /**
   * `kept`: a file or entry deja did not write is in the way (install) or was
   * found where deja's would be (uninstall), and was left alone.
   */
  action: FileAction | "kept";
  note?: string;
}

/** What happened to one target. */
export interface TargetOutcome {
  target: string;
  harness: string;
  changes: Change[];
  /** Why nothing was done, when the target was refused. */
  refused?: string;
  /**
   * Install: the `.deja.bak` copies this run made of configs (or would make, in a dry run):
   * the user's file as it was before deja's first edit, tokens and all (trial 102 F9).
   */
  backups?: string[];
}

/** What a wiring run needs. */
export interface WireCtx {
  env: Env;
  /** The program configs run: the launcher (or the binary on Windows). */
  launcher: string;
  /** Replace a skill or command file, or an MCP entry, deja did not write. */
  force?: boolean;
  /** The install state (state.ts): the entries `--force` replaced, the files deja created. */
  state?: InstallState;
  /** Filled by uninstall: the replaced entries it put back (to forget once written). */
  restored?: Replaced[];
  /** Say what would be done, write nothing (`deja install --dry-run`). */
  dryRun?: boolean;
}

interface JsonEdit {
  kind: PartKind;
  path: string;
  format?: ConfigFormat;
  /**
   * Applies the edit; `kept` when an entry deja did not write is in the way, or `{kept}`
   * with the note saying why another thing was left; `{note}` says something it did.
   */
  apply(o: Obj): "kept" | { kept: string } | { note: string } | void;
}

const sameKey = (a: string[], b: string[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * deja's MCP entry set at `key` of the config at `path`. An entry already
 * there that deja did not write is the user's: kept, unless `force`, which
 * records it in the install state first so that uninstall puts it back.
 */
function installMcp(
  ctx: WireCtx,
  path: string,
  key: string[],
  entry: Obj,
  o: Obj,
): "kept" | { kept: string } | void {
  const old = mcpValue(o, key);
  // Deja's entry turned off by the user stays off (trial 40: `install --auto`, run again to
  // wire a new agent, turned goose's back on and said "updated").
  if (
    !ctx.force && isObj(old) && (old.enabled === false || old.disabled === true) &&
    writtenByDeja(old, entry, ctx.launcher)
  ) return { kept: "turned off by you; --force turns it back on" };
  if (old === undefined || writtenByDeja(old, entry, ctx.launcher)) return setMcp(o, key, entry);
  // A null is no server (trial 121 L3: "kept … not written by deja"): deja's takes its place,
  // recorded as a value `--force` replaced, so that uninstall puts the null back.
  if (old === null) {
    remember(ctx, path, key, old);
    return setMcp(o, key, entry, true);
  }
  if (!ctx.force) return editedEntry(ctx, path, key, old) ? { kept: EDITED_MCP } : "kept";
  remember(ctx, path, key, old);
  setMcp(o, key, entry, true);
}

/**
 * Records the user's value `--force` replaces at `key` of the config at
 * `path`; a record kept from an earlier `--force` gives way to it (the value
 * deja replaced most recently is the one uninstall puts back).
 */
function remember(ctx: WireCtx, path: string, key: string[], value: unknown): void {
  const state = ctx.state;
  if (!state) return;
  const file = realTarget(path);
  state.replaced = state.replaced.filter((r) => !(r.file === file && sameKey(r.key, key)));
  state.replaced.push({ file, key, value: cloneData(value) });
}

/**
 * Removes deja's MCP entry at `key`, putting back the user's entry `--force`
 * replaced. An entry that is not deja's any more (the user changed it) stays,
 * and the record of the older one is dropped.
 */
function uninstallMcp(
  ctx: WireCtx,
  path: string,
  key: string[],
  entry: Obj,
  o: Obj,
  target: string,
): "kept" | { kept: string } | void {
  const file = realTarget(path);
  const r = ctx.state?.replaced.find((x) => x.file === file && sameKey(x.key, key));
  const now = mcpValue(o, key);
  // `uninstall --force`: deja's entry as the user edited it goes too, as does any entry there
  // that runs deja's launcher, which uninstall takes away (trial 102 F4: no way to remove it).
  const edited = ctx.force && isObj(now) && isLauncher(serverProgram(now), ctx.launcher);
  if (!removeMcp(o, key, entry, ctx.launcher) && !(edited && dropMcp(o, key))) {
    if (now === undefined) return;
    if (r) ctx.restored?.push(r);
    // Deja's entry the user edited (an `env` added): theirs now, said as such (trial 82 F4:
    // "not deja's" of the entry deja wrote), with how to remove it (trial 102 F4); the user's
    // own `deja` entry: found, not removed.
    return editedEntry(ctx, path, key, now) ? { kept: editedMcpKept(target, key) } : "kept";
  }
  if (!r) return;
  setMcp(o, key, cloneData(r.value), true);
  ctx.restored?.push(r);
}

/**
 * True for the MCP entry at `key` of the config at `path` that deja's install wrote (the
 * install state records it made that key) and that now runs a deja launcher with something
 * deja does not write (an `env`, other args): deja's entry as the user edited it, kept as
 * theirs. An entry the user wrote naming a launcher is no such entry.
 */
function editedEntry(ctx: WireCtx, path: string, key: string[], v: unknown): boolean {
  return madeKey(ctx.state, realTarget(path), key) && isObj(v) &&
    isLauncher(serverProgram(v), ctx.launcher);
}

const EDITED_MCP = "deja's entry as you edited it, kept as yours; --force replaces it";
const EDITED_MCP_KEPT = "deja's entry as you edited it, kept as yours";

/** What uninstall says of deja's MCP entry the user edited, which it keeps: why, and how it goes. */
function editedMcpKept(target: string, key: string[]): string {
  return `${EDITED_MCP_KEPT}: 'deja uninstall ${target} --force' removes it, or take ` +
    `${key.join(".")} out of this file yourself`;
}

/** The state key of a hook entry `--force` replaced. */
const hookKey = (r: HookReplaced) => ["#hook", r.event, r.sub];

/** Hook ownership for install: `--force` replaces the user's entries, recorded for uninstall. */
function hookOwnership(ctx: WireCtx, path: string): HookOwnership {
  return {
    force: ctx.force,
    replaced: (r) => remember(ctx, path, hookKey(r), r),
  };
}

/** The user's hook entries `--force` replaced in the config at `path`. */
function hookRecords(ctx: WireCtx, path: string): Replaced[] {
  const file = realTarget(path);
  return (ctx.state?.replaced ?? []).filter((r) => r.file === file && r.key[0] === "#hook");
}

/** Removes deja's hooks at `path`, putting back the user's entries `--force` replaced. */
function uninstallHooks(
  ctx: WireCtx,
  path: string,
  style: string,
  specs: readonly (Pick<HookSpec, "args"> & Partial<Pick<HookSpec, "timeout">>)[],
  o: Obj,
): void {
  const recs = hookRecords(ctx, path);
  const back = recs.map((r) => r.value as HookReplaced);
  const done: HookReplaced[] = [];
  const force = ctx.force === true;
  if (style === "list") removeListHooks(o, specs, ctx.launcher, back, done, force);
  else removeHooks(o, style as "flat" | "nested", specs, ctx.launcher, back, done, force);
  ctx.restored?.push(...recs.filter((r) => done.includes(r.value as HookReplaced)));
}

/**
 * Takes deja's entries of the hooks it no longer wires (`auto.retired`) out of
 * `o`, and the event lists that leaves empty; the user's entries stay. Returns the ones taken.
 */
function dropRetired(
  o: Obj,
  style: string,
  retired: readonly RetiredHook[],
  launcher: string,
): RetiredHook[] {
  const before = cloneData(o);
  const gone = retired.filter((r) =>
    (style === "list"
      ? removeListHooks(o, [r], launcher)
      : removeHooks(o, style as "flat" | "nested", [r], launcher)) > 0
  );
  if (gone.length) pruneEmptied(before, o);
  return gone;
}

/** What install says of the entries of retired hooks it took out (trial 136 F7: only "updated"). */
function retiredNote(gone: readonly RetiredHook[]): string | undefined {
  if (!gone.length) return undefined;
  const what = gone.map((r) => `${r.event} ${r.args[0]}`).join(", ");
  return `took out deja's ${what} ${gone.length === 1 ? "hook" : "hooks"}, which deja no ` +
    "longer wires";
}

/** The note of the user's hooks that run deja's commands, kept by install. */
const KEPT_HOOKS = "yours that run the same deja commands kept, not written by deja: --force " +
  "replaces them";

/** What install says of the timeouts of the user's it kept on deja's own hook entries. */
function timeoutNote(kept: readonly TimeoutKept[], unit: "s" | "ms" = "s"): string {
  const u = unit === "ms" ? " ms" : " s";
  const one = kept.length === 1;
  const each = kept.map((t) => `${one ? "" : `${t.event} `}${t.timeout}${u}`).join(", ");
  const deja = [...new Set(kept.map((t) => t.deja))].map((d) => `${d}${u}`).join(", ");
  const low = kept.some((t) => (unit === "ms" ? t.timeout : t.timeout * 1000) < DEADLINE_MS);
  return `your timeout${one ? "" : "s"} on deja's ${one ? `${kept[0].event} hook` : "hooks"} (` +
    `${each}; deja writes ${deja}) ${one ? "is" : "are"} kept as yours${
      low
        ? `; below ${
          DEADLINE_MS / 1000
        } s the harness may stop a slow answer, which then says nothing`
        : ""
    }; --force sets deja's`;
}

/**
 * The note of timeouts of the user's on deja's hooks above the longest the harness accepts,
 * set back to deja's: the harness refuses such an entry (trial 121 M3).
 */
function refusedNote(reset: readonly TimeoutKept[], unit: "s" | "ms" = "s"): string {
  const u = unit === "ms" ? " ms" : " s";
  const one = reset.length === 1;
  const each = reset.map((t) => `${one ? "" : `${t.event} `}${t.timeout}${u}`).join(", ");
  return `your timeout${one ? "" : "s"} on deja's ${one ? `${reset[0].event} hook` : "hooks"} (` +
    `${each}) ${one ? "is" : "are"} above the ${reset[0].refused}${u} the harness accepts, ` +
    `which refuses such an entry: set to deja's ${reset[0].deja}${u}`;
}

/** The note of what uninstall found but did not remove: deja did not write it. */
export const NOT_DEJAS = "not deja's";

/** The note of a hook of deja's the user edited, which uninstall leaves (theirs now). */
export const EDITED_HOOK =
  "a hook of deja's you edited is kept as yours; deja's others were removed";

/** {@link EDITED_HOOK}, with how it goes too. */
function editedHookKept(target: string): string {
  return `${EDITED_HOOK}; 'deja uninstall ${target} --force' removes it too`;
}

/** Text that marks a file as deja's (see texts.ts). */
const MARK = "deja:managed";

/** Replaces every `{launcher}` string inside `v` (objects and arrays too). */
export function withLauncher(v: unknown, launcher: string): unknown {
  if (v === "{launcher}") return launcher;
  if (Array.isArray(v)) return v.map((x) => withLauncher(x, launcher));
  if (typeof v === "object" && v !== null) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withLauncher(x, launcher)]));
  }
  return v;
}

function jsonEdits(ctx: WireCtx, ref: TargetRef, install: boolean): JsonEdit[] {
  const f = ref.harness.facts;
  const out: JsonEdit[] = [];
  const mcp = f.mcp;
  const auto = f.auto;
  const hooks = auto?.file && auto.hooks && auto.style
    ? { ...auto, file: auto.file, hooks: auto.hooks, style: auto.style }
    : undefined;
  // `uninstall <h>-auto` as such takes back the hooks only (see the module doc).
  const hooksOnly = !install && ref.auto;
  if (mcp && !hooksOnly) {
    const entry = withLauncher(mcp.entry, ctx.launcher) as Obj;
    const path = mcpFile(ctx.env, mcp);
    // TOML: deja's entry a table took in (an older deja's dotted key) goes first.
    const strays = (o: Obj) =>
      (mcp.format ?? formatOf(path)) === "toml" &&
      removeStrayMcp(o, mcp.key, entry, ctx.launcher);
    out.push({
      kind: "mcp",
      path,
      format: mcp.format,
      apply: install
        ? (o) => (strays(o), installMcp(ctx, path, mcp.key, entry, o))
        : (o) => (strays(o), uninstallMcp(ctx, path, mcp.key, entry, o, ref.harness.facts.target)),
    });
  }
  const read = f.read;
  if (read && !hooksOnly) {
    const item = expandPath(ctx.env, read.item);
    out.push({
      kind: "file",
      path: expandPath(ctx.env, read.file),
      format: read.format,
      apply: install
        ? (o) => addListItem(o, read.key, item)
        : (o) => void removeListItem(o, read.key, item),
    });
  }
  if (hooks && (ref.auto || !install)) {
    const hookPath = expandPath(ctx.env, hooks.file);
    const retired = hooks.retired ?? [];
    out.push({
      kind: "hooks",
      path: hookPath,
      format: hooks.format,
      apply: install
        ? (o) => {
          const timeouts: TimeoutKept[] = [];
          const own = {
            ...hookOwnership(ctx, hookPath),
            timeoutKept: (t: TimeoutKept) => void timeouts.push(t),
            timeoutMax: hooks.timeout_max,
          };
          const kept = hooks.style === "list"
            ? setListHooks(o, hooks.hooks, ctx.launcher, own)
            : setHooks(o, hooks.hooks, ctx.launcher, hooks.style, own);
          const gone = retiredNote(dropRetired(o, hooks.style, retired, ctx.launcher));
          // A switch the hooks need, set where the file lacked it, is said (trials 38, 40, 41:
          // Gemini's `hooksConfig.enabled`, which turns on the user's own hooks there too).
          const set = setBase(o, hooks.base);
          // The user's timeout on deja's own entry stays theirs, and is said (trial 102 F2: 3 s
          // went back to 10 with only "updated").
          const yours = timeouts.filter((t) => t.refused === undefined);
          const timed = yours.length ? timeoutNote(yours, hooks.timeout_unit) : undefined;
          // One above what the harness accepts was set back to deja's (trial 121 M3).
          const refused = timeouts.filter((t) => t.refused !== undefined);
          const reset = refused.length ? refusedNote(refused, hooks.timeout_unit) : undefined;
          const said = [timed, reset, gone].filter(Boolean).join("; ");
          if (kept) return said ? { kept: `${KEPT_HOOKS}; ${said}` } : kept;
          if (timed) return { kept: said };
          const base = set.length
            ? `set ${set.join(", ")}: the hooks run only with it, any of yours in this ` +
              "file too; uninstall takes it back"
            : undefined;
          const note = [reset, gone, base].filter(Boolean).join("; ");
          return note ? { note } : undefined;
        }
        : (o) => {
          uninstallHooks(ctx, hookPath, hooks.style, [...hooks.hooks, ...retired], o);
          const real = realTarget(hookPath);
          dropBase(o, hooks.base, ctx.state?.made?.find((m) => m.file === real)?.keys);
          // A switch left on beside the user's own hooks, with no record that deja set it (trial
          // 58: after deja's data folder was reset, Gemini's `hooksConfig.enabled` stayed on and
          // kept the user's own hooks running): said, not silently left.
          const stayed = Object.keys(hooks.base ?? {}).filter((k) =>
            k in o && JSON.stringify(o[k]) === JSON.stringify(hooks.base![k])
          );
          // A hook of deja's the user edited (a flag added, another command) stays, theirs
          // now: said (trial 40: "removed" was all uninstall printed of a hook it left running
          // deja), with how it goes too (trial 102 F4).
          const left = (hooks.style === "list" ? allListHooks(o) : allHooks(o, hooks.style!))
            .some((h) => runsLauncher(h.command, ctx.launcher));
          if (left) return { kept: editedHookKept(auto!.target) };
          return stayed.length
            ? {
              note: `left ${
                stayed.flatMap((k) => dotted(k, hooks.base![k])).join(", ")
              }: your own hooks here need it, and no record says deja set it; change it ` +
                "yourself if they should not run",
            }
            : undefined;
        },
    });
  }
  const grant = auto?.grant;
  if (grant && (ref.auto || !install)) {
    out.push({
      kind: "hooks",
      path: expandPath(ctx.env, grant.file),
      format: grant.format,
      apply: install
        ? (o) => setGrant(o, grant.key, grant.value)
        : (o) => void removeGrant(o, grant.key, grant.value),
    });
  }
  return out;
}

/**
 * True when `value`, the content of the config at `path`, holds any of deja's
 * entries (an MCP server, a list item, hooks) of any harness: such a text is
 * not the user's own and must never become, or be restored from, a backup.
 */
export function holdsDeja(env: Env, path: string, value: Obj): boolean {
  const ctx = { env, launcher: "" };
  const real = realTarget(path);
  const copy = cloneData(value);
  for (const w of wirables()) {
    for (const e of jsonEdits(ctx, { name: "", harness: w, auto: false }, false)) {
      if (realTarget(e.path) === real) e.apply(copy);
    }
  }
  return dataKey(copy) !== dataKey(value);
}

/** The files deja owns whole that `ref` writes (install) or that go with it (uninstall). */
function ownedFiles(ref: TargetRef, install: boolean): Array<{ kind: PartKind; file: OwnedFile }> {
  const f = ref.harness.facts;
  const plain = [
    ...(f.skill ? [{ kind: "skill" as const, file: f.skill }] : []),
    ...(f.command ? [{ kind: "command" as const, file: f.command }] : []),
    ...(f.files ?? []).map((file) => ({ kind: "file" as const, file })),
  ];
  const plugin = (f.auto?.files ?? []).map((file) => ({ kind: "hooks" as const, file }));
  if (!install && ref.auto) return plugin; // `uninstall <h>-auto`: automatic recall only
  return install && !ref.auto ? plain : [...plain, ...plugin];
}

/**
 * The target a change is reported under: hooks under the `-auto` target, the
 * rest (MCP server, skill, command, files) under the plain one.
 */
function owner(ref: TargetRef, kind: PartKind): string {
  const auto = ref.harness.facts.auto?.target;
  if (kind === "hooks") return auto ?? ref.name;
  return ref.auto ? ref.harness.facts.target : ref.name;
}

/** The directories uninstall never removes for `ref`: the home and the harness's detect paths. */
function harnessDirs(env: Env, ref: TargetRef): string[] {
  return [env.home, ...ref.harness.facts.detect.map((d) => expandPath(env, d))];
}

/** The text of an owned file with the launcher filled in. */
function ownedText(file: OwnedFile, launcher: string): string {
  return TEXTS[file.text].replaceAll("{launcher_json}", JSON.stringify(launcher))
    .replaceAll("{launcher}", launcher);
}

function isMine(path: string): boolean {
  try {
    return readTextSync(realTarget(path), CONFIG_MAX).includes(MARK);
  } catch {
    return false;
  }
}

/** What install or uninstall does with an owned file: write it, remove it, keep it, nothing. */
type OwnedStep =
  | {
    do: "write";
    text: string;
    backup: boolean;
    /** A copy of the user's edited file to keep first, where deja's one backup is taken. */
    keepAs?: string;
  }
  | { do: "remove" }
  | {
    do: "keep";
    note: string;
  }
  | { do: "none" };

/** `key = value` for each leaf under `key` (`hooksConfig.enabled = true`). */
function dotted(key: string, v: unknown): string[] {
  return isObj(v)
    ? Object.entries(v).flatMap(([k, x]) => dotted(`${key}.${k}`, x))
    : [`${key} = ${JSON.stringify(v)}`];
}

/** `<stem>.bak`, or `<stem>-2.bak`, `-3` … when taken (trial 62: two runs in one second shared one). */
function freeName(stem: string): string {
  let name = `${stem}.bak`;
  for (let i = 2; existsSync(name); i++) name = `${stem}-${i}.bak`;
  return name;
}

/** The SHA-256 of the text of the file at `real`; undefined when it cannot be read. */
export function textHash(real: string): string | undefined {
  try {
    return sha256(readTextSync(real, CONFIG_MAX));
  } catch {
    return undefined;
  }
}

/** The SHA-256 of `text`, hex: how deja tells a file it wrote from one edited since. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The step for one owned file at `path` (reads it; writes nothing). */
function ownedStep(ctx: WireCtx, path: string, file: OwnedFile, install: boolean): OwnedStep {
  const there = existsSync(realTarget(path));
  const mine = there && isMine(path);
  if (install) {
    if (there && !mine && !ctx.force) {
      return { do: "keep", note: "not written by deja; --force replaces it" };
    }
    const text = ownedText(file, ctx.launcher);
    const now = there ? readTextSync(realTarget(path), CONFIG_MAX) : undefined;
    if (now === text) return { do: "none" };
    // Deja's file as the user changed it since deja wrote it: theirs now (trial 58).
    const wrote = ctx.state?.owned?.[realTarget(path)];
    const edited = now !== undefined && wrote !== undefined && sha256(now) !== wrote;
    if (edited && !ctx.force) {
      return {
        do: "keep",
        note: "edited since deja wrote it; --force replaces it (a backup is kept)",
      };
    }
    // deja keeps one backup, the first; a later forced write over the user's next edit keeps
    // that edit beside it (trial 61: a second --force lost it, said "updated").
    const keepAs = there && (edited || !mine) && foundBackup(path)
      ? freeName(
        `${realTarget(path)}.edited-${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}`,
      )
      : undefined;
    return { do: "write", text, backup: !mine || edited, ...(keepAs ? { keepAs } : {}) };
  }
  if (there && !mine) return { do: "keep", note: NOT_DEJAS };
  // Edited since deja wrote it: the user's words are in it (trial 60: uninstall deleted a
  // SKILL.md the user had added to, and said "removed"); kept, as install keeps it.
  const wrote = there ? ctx.state?.owned?.[realTarget(path)] : undefined;
  if (
    !ctx.force && wrote !== undefined &&
    sha256(readTextSync(realTarget(path), CONFIG_MAX)) !== wrote
  ) {
    return {
      do: "keep",
      note: "edited since deja wrote it: kept as yours; delete it yourself if you no longer " +
        "want it, or uninstall with --force",
    };
  }
  return there ? { do: "remove" } : { do: "none" };
}

/**
 * Prunes the containers uninstall left empty in `next`, the new content of
 * `doc`: only those install recorded as deja's (state `made`); for a config
 * install recorded nothing of (an older deja), the ones uninstall emptied.
 */
function pruneMade(ctx: WireCtx, doc: JsonDoc, next: Obj): void {
  const rec = ctx.state?.made?.find((m) => m.file === doc.real);
  if (rec) pruneEmpty(next, rec.keys);
  else pruneEmptied(doc.value, next);
}

/** Records the containers install created in `doc` (its new content `next`) in the state. */
function recordMade(ctx: WireCtx, doc: JsonDoc, next: Obj): void {
  const state = ctx.state;
  if (!state) return;
  const made = (state.made ??= []);
  const keys = newContainers(doc.value, next);
  const rec = made.find((m) => m.file === doc.real);
  if (rec) {
    const ids = new Set(rec.keys.map((k) => JSON.stringify(k)));
    rec.keys.push(...keys.filter((k) => !ids.has(JSON.stringify(k))));
  } else made.push({ file: doc.real, keys });
}

interface Plan {
  docs: Map<string, { doc: JsonDoc; next: Obj }>;
  changed: Array<{ edit: JsonEdit; did: boolean; kept?: boolean; why?: string; said?: string }>;
}

/**
 * Reads every config `ref` touches and applies its edits to copies; writes
 * nothing. Refused (`refused` says why, naming the path): a config that is
 * not valid in its format (`path:line:column`), a value of the wrong type
 * where deja writes, or a file deja would change but cannot write (read-only,
 * a directory, in a directory it may not write in; files.ts `writeProblem`), or any other
 * error reading or editing them (named in the refusal; never thrown).
 */
export function planTarget(
  ctx: WireCtx,
  ref: TargetRef,
  install: boolean,
): Plan | { refused: string } {
  try {
    return planOf(ctx, ref, install);
  } catch (err) {
    // Anything else that fails reading or editing a target's configs refuses that target only,
    // named with the error (trial 117 F1: toml-patch's "Node not found at hooks" stopped
    // `install --auto` and `doctor` whole, with a stack trace).
    const why = oneLineReason(String((err as Error)?.message ?? err));
    return {
      refused: `deja could not read or edit its configs (${why}); nothing of it was changed: ` +
        "if the file is fine, please report this, and add deja's entry by hand meanwhile " +
        "(docs/wiring.md)",
    };
  }
}

function planOf(ctx: WireCtx, ref: TargetRef, install: boolean): Plan | { refused: string } {
  const edits = jsonEdits(ctx, ref, install);
  const docs = new Map<string, { doc: JsonDoc; next: Obj }>();
  const changed: Plan["changed"] = [];
  try {
    for (const e of edits) {
      if (!docs.has(e.path)) {
        const doc = readJsonDoc(e.path, e.format);
        docs.set(e.path, { doc, next: cloneData(doc.value) });
      }
      const d = docs.get(e.path)!;
      const before = dataKey(d.next);
      const r = e.apply(d.next);
      const why = typeof r === "object" && "kept" in r ? r.kept : undefined;
      const said = typeof r === "object" && "note" in r ? r.note : undefined;
      const kept = r === "kept" || why !== undefined;
      changed.push({ edit: e, did: dataKey(d.next) !== before, kept, why, said });
    }
  } catch (err) {
    if (err instanceof BrokenConfig) return { refused: err.message };
    if (err instanceof ShapeError) {
      const path = edits[changed.length]?.path ?? "";
      return {
        refused: `${path}: ${err.message}`,
      };
    }
    throw err;
  }
  if (!install) { for (const d of docs.values()) pruneMade(ctx, d.doc, d.next); }
  for (const d of docs.values()) {
    if (dataKey(d.doc.value) === dataKey(d.next)) continue;
    try {
      renderChecked(d.doc.format, d.doc.text, d.doc.value, d.next);
    } catch (err) {
      if (!(err instanceof EditCheckError)) throw err;
      return {
        refused: `${d.doc.path}: deja's edit went wrong: ${err.message}; nothing was changed ` +
          `(please report this; add deja's entry by hand meanwhile)`,
      };
    }
  }
  const touched = [
    ...[...docs.values()].filter((d) => dataKey(d.doc.value) !== dataKey(d.next))
      .map((d) => d.doc.path),
    ...ownedFiles(ref, install).map(({ file }) => ({ file, path: expandPath(ctx.env, file.file) }))
      .filter(({ file, path }) => /write|remove/.test(ownedStep(ctx, path, file, install).do))
      .map(({ path }) => path),
  ];
  for (const path of touched) {
    // Uninstalling, the hand's work is to remove (trial 58: "add deja's entry by hand").
    const problem = writeProblem(path, !install);
    if (problem) return { refused: problem };
  }
  return { docs, changed };
}

/**
 * Installs (`install` true) or uninstalls one target.
 *
 * Never throws for a broken config: the outcome carries `refused` and no
 * file of the target was written.
 */
export function wireTarget(ctx: WireCtx, ref: TargetRef, install: boolean): TargetOutcome {
  const outcome: TargetOutcome = { target: ref.name, harness: ref.harness.harness, changes: [] };
  // 1. Read every config and apply the edits to copies; refuse on any problem.
  const plan = planTarget(ctx, ref, install);
  if ("refused" in plan) return { ...outcome, refused: plan.refused };
  const { docs, changed } = plan;
  // 2. Write each file once; only a file deja created may be removed.
  const created = new Set(ctx.state?.created ?? []);
  const backups: string[] = [];
  for (const [path, d] of docs) {
    const changes = dataKey(d.doc.value) !== dataKey(d.next);
    const bak = foundBackup(path) ?? backupPath(path);
    const had = existsSync(bak);
    const backup = changes && !holdsDeja(ctx.env, path, d.doc.value);
    if (ctx.dryRun) {
      if (install && backup && d.doc.exists && !had) backups.push(bak);
      continue;
    }
    if (install && changes) recordMade(ctx, d.doc, d.next);
    const before = d.doc.exists ? textHash(d.doc.real) : undefined;
    const wrote = saveJsonDoc(d.doc, d.next, { backup, created: created.has(d.doc.real) });
    if (install && !had && existsSync(bak)) backups.push(bak);
    // The text deja left there, to tell at uninstall whether the user has edited it since
    // (install-state `configs`): recorded when deja wrote a file the user had not edited since
    // it last wrote it; a record that no longer matches stays, the edit not forgotten.
    if (ctx.state && (wrote === "updated" || wrote === "created")) {
      const rec = ctx.state.configs?.[d.doc.real];
      if (rec === undefined ? install : rec === before) {
        // A file too large to read whole keeps no record: judged by its data alone, as before.
        const now = textHash(d.doc.real);
        if (now) (ctx.state.configs ??= {})[d.doc.real] = now;
        else if (ctx.state.configs) delete ctx.state.configs[d.doc.real];
      }
    }
    // Kept while deja's entry as the user edited it stays (trial 84 F4: a second uninstall
    // called it "not deja's").
    const editedKept = changed.some((c) =>
      c.edit.path === path && c.why?.startsWith(EDITED_MCP_KEPT)
    );
    if (!install && ctx.state?.made && !holdsDeja(ctx.env, path, d.next) && !editedKept) {
      ctx.state.made = ctx.state.made.filter((m) => m.file !== d.doc.real);
    }
  }
  for (const { edit, did, kept, why, said } of changed) {
    const exists = docs.get(edit.path)!.doc.exists;
    // Some kept, others written (trial 58: "kept … (not written by deja)" of a file deja had
    // just added three hooks to, beside the user's own two): written, and the kept ones said.
    const partly = install && kept && did;
    const action: FileAction | "kept" = partly
      ? (exists ? "updated" : "created")
      : kept
      ? "kept"
      : !did
      ? install ? (exists ? "unchanged" : "absent") : "absent"
      : install
      ? (exists ? "updated" : "created")
      : "removed";
    outcome.changes.push({
      target: owner(ref, edit.kind),
      kind: edit.kind,
      path: edit.path,
      action,
      ...(partly ? { note: why ?? `deja's other entries added; ${KEPT_HOOKS}` } : kept
        ? {
          note: why ?? (install
            ? "not written by deja; --force replaces it"
            : edit.kind === "hooks"
            ? EDITED_HOOK
            : NOT_DEJAS),
        }
        : said && did && exists // a file deja created holds nothing of the user's to say it of
        ? { note: said }
        : {}),
    });
  }
  if (backups.length) outcome.backups = backups;
  // 3. The files deja owns whole.
  for (const { kind, file } of ownedFiles(ref, install)) {
    const path = expandPath(ctx.env, file.file);
    const c: Change = { target: owner(ref, kind), kind, path, action: "unchanged" };
    const step = ownedStep(ctx, path, file, install);
    if (step.do === "keep") {
      c.action = "kept";
      c.note = step.note;
    } else if (step.do === "write") {
      if (step.keepAs) {
        if (!ctx.dryRun) copyFileSync(realTarget(path), step.keepAs);
        c.note = `your edited copy kept as ${tilde(step.keepAs, ctx.env.home)}`;
      } else if (step.backup && !ctx.dryRun && existsSync(realTarget(path))) {
        c.note = `the file before it kept as ${
          tilde(foundBackup(path) ?? backupPath(path), ctx.env.home)
        }`;
      }
      c.action = writeIfChanged(path, step.text, 0o600, step.backup, ctx.dryRun);
      if (ctx.state && !ctx.dryRun) (ctx.state.owned ??= {})[realTarget(path)] = sha256(step.text);
    } else if (step.do === "remove") {
      if (ctx.state?.owned) delete ctx.state.owned[realTarget(path)];
      c.action = removeFile(path, kind === "skill" || kind === "hooks" ? dirname(path) : undefined);
      // No record of the directories install made (the data directory went): take
      // the empty ones up to the harness's own directory.
      if (ctx.state?.missing) removeEmptyDirs(dirname(path), harnessDirs(ctx.env, ref));
    } else c.action = install ? "unchanged" : "absent";
    outcome.changes.push(c);
  }
  return outcome;
}
