/**
 * Pure edits of a parsed config object: deja's MCP server entry and deja's
 * hook entries, added, updated in place, found and removed. Everything else in
 * the object (unknown keys, the user's own servers and hooks) is left as it
 * was, in its order.
 *
 * An entry is deja's only when it is exactly what deja writes for the target
 * ({@link hookByDeja}, {@link writtenByDeja}): a deja launcher (any path, so a
 * wiring written for an older path is replaced, not duplicated) followed by
 * exactly deja's arguments. Anything else is the user's, even when it runs a
 * deja launcher: install keeps it (unless `--force`), uninstall never removes it.
 *
 * These edits never prune containers left empty: only the ones deja created
 * may go, and wire.ts knows which (containers.ts).
 *
 * @module
 */
import type { HookSpec } from "./facts.ts";
import { shQuote } from "../shell.ts";
import { isObj, type Obj } from "../../core/values.ts";
import { cloneData, dataKey } from "./formats.ts";

/** An edit that met a value of the wrong type where deja has to write (`"mcp": []`). */
export class ShapeError extends Error {}

/** The shell command a hook runs: the quoted launcher, then the deja arguments. */
export function hookCommand(launcher: string, args: string[]): string {
  return [launcher, ...args].map(shQuote).join(" ");
}

/** The `hook-*` subcommand a deja hook command runs, or undefined when the command is not deja's. */
export function dejaSubcommand(command: unknown): string | undefined {
  if (typeof command !== "string") return undefined;
  // Also inside a shell's quoted command (trial 60: `bash -c 'deja hook-tool-after'` was not
  // read as the user's deja hook, and deja's ran beside it).
  const m = /(?:^|[/\s'"])deja(?:-launcher)?['"]?\s+(hook-[a-z-]+)(?=[\s'";]|$)/.exec(command);
  return m?.[1];
}

/**
 * The words of a simple shell command, unquoted (`'…'`, `"…"`, backslashes), up to its first
 * operator (`;`, `|`, `&`, `<`, `>`, `#`): a redirection's file descriptor number goes too.
 */
export function shellWords(command: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (/\s/.test(ch)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      word = (word ?? "") + command.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? command.length : end;
    } else if (ch === '"') {
      let j = i + 1;
      let text = "";
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === "\\" && j + 1 < command.length) j++;
        text += command[j];
      }
      word = (word ?? "") + text;
      i = j;
    } else if (ch === "\\") {
      word = (word ?? "") + (command[i + 1] ?? "");
      i++;
    } else if (/[;|&<>]/.test(ch) || (ch === "#" && word === undefined)) {
      // `2>/dev/null`: the 2 is the redirection's, not a word.
      if (word !== undefined && !(/[<>]/.test(ch) && /^\d+$/.test(word))) out.push(word);
      return out;
    } else word = (word ?? "") + ch;
  }
  if (word !== undefined) out.push(word);
  return out;
}

/**
 * What a hook or server command runs of deja: its program (a deja launcher, or a `deja`
 * binary) and the deja arguments after it; undefined when the command runs another program
 * first (the user's own script, or a shell around deja).
 */
export function dejaCall(command: unknown): { program: string; args: string[] } | undefined {
  if (typeof command !== "string") return undefined;
  const [program, ...args] = shellWords(command);
  if (!program || !/(^|[/\\])deja(-launcher)?(\.exe)?$/.test(program)) return undefined;
  return { program, args };
}

/** The first word of a shell command, unquoted (the program a hook or server runs). */
export function commandProgram(command: string): string {
  const m = /^\s*(?:'((?:[^']|'\\'')*)'|"([^"]*)"|(\S+))/.exec(command);
  if (!m) return "";
  return m[1] !== undefined ? m[1].replaceAll(`'\\''`, "'") : m[2] ?? m[3] ?? "";
}

/** The object at `key` in `o`, created when missing. @throws {ShapeError} when something else is there. */
function childObj(o: Obj, key: string, where: string): Obj {
  const v = o[key];
  if (v === undefined || v === null) return (o[key] = {}) as Obj;
  if (!isObj(v)) throw new ShapeError(`${where}${key} is not an object`);
  return v;
}

/**
 * A key-path segment that names one item of a list by a field: `[name=deja]`
 * is the item of the list whose `name` is `deja` (Continue's `mcpServers:`
 * list). Any other segment is an object key.
 */
export function listSelector(seg: string): { field: string; value: string } | undefined {
  const m = /^\[([A-Za-z_][\w-]*)=(.+)\]$/.exec(seg);
  return m ? { field: m[1], value: m[2] } : undefined;
}

/** The index of the item `sel` names in `list`, or -1. */
function itemIndex(list: unknown[], sel: { field: string; value: string }): number {
  return list.findIndex((x) => isObj(x) && x[sel.field] === sel.value);
}

/**
 * The holder of the last key-path segment: walks `key` but its last segment,
 * creating missing objects (and the list a `[field=value]` segment selects
 * from) when `create`. Returns undefined when something on the path is missing.
 *
 * @throws {ShapeError} (with `create`) when a value on the path has the wrong type.
 */
function walk(o: Obj, key: string[], create: boolean): Obj | unknown[] | undefined {
  let at: Obj | unknown[] = o;
  key.slice(0, -1).forEach((k, i) => {
    if (at === undefined) return;
    if (Array.isArray(at)) {
      const sel = listSelector(k);
      const idx = sel ? itemIndex(at, sel) : -1;
      if (idx < 0) {
        if (!create || !sel) return void (at = undefined as never);
        at.push({ [sel.field]: sel.value });
        at = at[at.length - 1] as Obj;
      } else at = at[idx] as Obj;
      return;
    }
    const next = key[i + 1];
    const wantList = listSelector(next) !== undefined;
    const v: unknown = at[k];
    // A key with no value (YAML's `mcp_servers:` alone, trial 58: refused as "not an object")
    // holds nothing yet: the container goes there.
    if (v === undefined || (v === null && create)) {
      if (!create) return void (at = undefined as never);
      at = (at[k] = wantList ? [] : {}) as Obj | unknown[];
    } else if (wantList ? Array.isArray(v) : isObj(v)) at = v as Obj | unknown[];
    else if (create) throw new ShapeError(`${k} is not ${wantList ? "a list" : "an object"}`);
    else at = undefined as never;
  });
  return at;
}

/**
 * Sets deja's MCP server at `key` (e.g. `["mcpServers", "deja"]`, or
 * `["mcpServers", "[name=deja]"]` for a list of servers) to `entry`, keeping
 * any extra fields the user added to it (`disabled`, `env`).
 *
 * @throws {ShapeError} when a parent on the key path has the wrong type.
 */
export function setMcp(o: Obj, key: string[], entry: unknown, replace = false): void {
  const holder = walk(o, key, true)!;
  const last = key[key.length - 1];
  const add = isObj(entry) ? entry : {};
  if (Array.isArray(holder)) {
    const sel = listSelector(last)!;
    const idx = itemIndex(holder, sel);
    const item = replace ? entry : { [sel.field]: sel.value, ...add };
    if (idx < 0) holder.push(item);
    else holder[idx] = replace ? item : { ...(holder[idx] as Obj), ...add };
    return;
  }
  const old = holder[last];
  holder[last] = isObj(old) && !replace ? { ...old, ...add } : entry;
}

/** The value at `key` (a `[field=value]` segment selects a list item), whatever its type, or undefined. */
export function mcpValue(o: Obj, key: string[]): unknown {
  const holder = walk(o, key, false);
  const last = key[key.length - 1];
  if (Array.isArray(holder)) {
    const sel = listSelector(last);
    const idx = sel ? itemIndex(holder, sel) : -1;
    return idx < 0 ? undefined : holder[idx];
  }
  return holder?.[last];
}

/** deja's MCP server entry at `key`, or undefined. */
export function getMcp(o: Obj, key: string[]): Obj | undefined {
  const holder = walk(o, key, false);
  const last = key[key.length - 1];
  if (Array.isArray(holder)) {
    const sel = listSelector(last);
    const idx = sel ? itemIndex(holder, sel) : -1;
    return idx < 0 ? undefined : holder[idx] as Obj;
  }
  const v = holder?.[last];
  return isObj(v) ? v : undefined;
}

/**
 * The program an MCP server entry runs: `command` as a string (most harnesses),
 * `command[0]` (opencode, Kilo), `cmd` (Goose) or `command.path` (older Zed).
 */
export function serverProgram(entry: Obj): string {
  const c = entry.command ?? entry.cmd;
  if (typeof c === "string") return c;
  if (Array.isArray(c) && typeof c[0] === "string") return c[0];
  if (isObj(c) && typeof c.path === "string") return c.path;
  return "";
}

/** True when an MCP entry runs deja (the launcher or a `deja` binary). */
export function isDejaServer(entry: Obj | undefined): boolean {
  return entry !== undefined && /(^|[/\\])deja(-launcher)?(\.exe)?$/.test(serverProgram(entry));
}

/** True when `prog` is a deja launcher: `launcher` (the binary itself on Windows) or any `deja-launcher`. */
export function isLauncher(prog: string, launcher?: string): boolean {
  return (launcher !== undefined && launcher !== "" && prog === launcher) ||
    /(^|[/\\])deja-launcher$/.test(prog);
}

/** The keys of an MCP entry that say what runs: any deja does not write makes the entry the user's. */
const RUNS = ["command", "cmd", "args", "env", "cwd", "url", "type", "transport"];

/**
 * True when deja wrote this MCP entry: it is exactly `want` (deja's entry for
 * the target, launcher filled in), but that the program may be any deja
 * launcher (or the program `launcher` names, the binary itself on Windows), and
 * that fields which do not say what runs (`disabled`, `timeout`, goose's `enabled`) may be
 * added or changed (trial 39: deja's goose entry turned off by hand was "not deja's", and
 * uninstall left it).
 * An entry with other args, an `env`, or a `deja` binary the user named by
 * hand is the user's: deja neither takes it over (unless `--force`) nor removes it.
 */
export function writtenByDeja(entry: unknown, want: Obj, launcher?: string): boolean {
  if (!isObj(entry) || !isLauncher(serverProgram(entry), launcher)) return false;
  const prog = serverProgram(want);
  const swap = (v: unknown): unknown =>
    v === prog
      ? serverProgram(entry)
      : Array.isArray(v)
      ? v.map(swap)
      : isObj(v) && typeof v.path === "string"
      ? { ...v, path: serverProgram(entry) }
      : v;
  for (const k of RUNS) {
    const mine = k in want ? JSON.stringify(swap(want[k])) : undefined;
    if ((k in entry ? JSON.stringify(entry[k]) : undefined) !== mine) {
      if (k in want || k in entry) return false;
    }
  }
  return true;
}

/**
 * Removes the MCP entry at `key`, whoever wrote it (`uninstall --force`: deja's entry as the
 * user edited it). Returns true when one was there.
 */
export function dropMcp(o: Obj, key: string[]): boolean {
  if (mcpValue(o, key) === undefined) return false;
  const holder = walk(o, key, false)!;
  const last = key[key.length - 1];
  if (Array.isArray(holder)) holder.splice(itemIndex(holder, listSelector(last)!), 1);
  else delete holder[last];
  return true;
}

/**
 * Removes deja's MCP entry (only one deja wrote, {@link writtenByDeja}); the
 * containers it leaves empty stay (wire.ts prunes the ones deja created).
 * Returns true when removed.
 */
export function removeMcp(o: Obj, key: string[], want: Obj, launcher?: string): boolean {
  if (!writtenByDeja(mcpValue(o, key), want, launcher)) return false;
  const holder = walk(o, key, false)!;
  const last = key[key.length - 1];
  if (Array.isArray(holder)) holder.splice(itemIndex(holder, listSelector(last)!), 1);
  else delete holder[last];
  return true;
}

/**
 * Removes deja's MCP entries at `key` below another table of a TOML config: an older deja wrote
 * its Codex entry as a dotted key (`mcp_servers.deja = {…}`) among the top-level keys, and a
 * table the user put above it took it in (trial 136 F4: `[mcp_servers.later]` held
 * `mcp_servers.later.mcp_servers.deja`, which install duplicated and uninstall left). Only an
 * entry exactly as deja writes it goes, and the container its dotted key made when that leaves
 * it empty. Returns how many went.
 */
export function removeStrayMcp(o: Obj, key: string[], want: Obj, launcher?: string): number {
  let n = 0;
  const visit = (t: Obj, depth: number) => {
    for (const v of Object.values(t)) {
      if (!isObj(v)) continue;
      if (removeMcp(v, key, want, launcher)) {
        n++;
        const head = v[key[0]];
        if (key.length > 1 && isObj(head) && !Object.keys(head).length) delete v[key[0]];
      }
      if (depth < 4) visit(v, depth + 1);
    }
  };
  visit(o, 1);
  return n;
}

/**
 * Sets the value at `key` (an `-auto` grant, OpenClaw's
 * `plugins.entries.deja.hooks.allowConversationAccess`) when it is missing.
 *
 * @throws {ShapeError} when a parent has the wrong type, or the user set another value there
 *   (deja does not overrule the user's own choice).
 */
export function setGrant(o: Obj, key: string[], value: unknown): void {
  const holder = walk(o, key, true);
  const last = key[key.length - 1];
  if (!isObj(holder)) throw new ShapeError(`${key.slice(0, -1).join(".")} is not an object`);
  if (holder[last] === undefined) holder[last] = value;
  else if (holder[last] !== value) {
    throw new ShapeError(
      `${key.join(".")} is ${JSON.stringify(holder[last])}, and deja's plugin needs ${
        JSON.stringify(value)
      }; change or remove it yourself`,
    );
  }
}

/** Removes the value at `key` while it is still `value` (the objects left empty stay). */
export function removeGrant(o: Obj, key: string[], value: unknown): boolean {
  const holder = walk(o, key, false);
  const last = key[key.length - 1];
  if (!isObj(holder) || holder[last] !== value) return false;
  delete holder[last];
  return true;
}

/**
 * Adds `item` to the list at `key` (aider's `read:`), turning a single string
 * there into a list; leaves it when already there.
 *
 * @throws {ShapeError} when the value at `key` is neither a list nor a string.
 */
export function addListItem(o: Obj, key: string[], item: string): void {
  const holder = walk(o, key, true) as Obj;
  const last = key[key.length - 1];
  const v = holder[last];
  if (v === undefined) holder[last] = [item];
  else if (typeof v === "string") holder[last] = v === item ? v : [v, item];
  else if (Array.isArray(v)) {
    if (!v.includes(item)) v.push(item);
  } else throw new ShapeError(`${last} is not a list`);
}

/** Removes `item` from the list at `key` (a list left empty stays). */
export function removeListItem(o: Obj, key: string[], item: string): boolean {
  const holder = walk(o, key, false);
  if (!holder || Array.isArray(holder)) return false;
  const last = key[key.length - 1];
  const v = holder[last];
  if (v === item) return delete holder[last];
  if (!Array.isArray(v) || !v.includes(item)) return false;
  v.splice(v.indexOf(item), 1);
  return true;
}

/** True when the list (or single string) at `key` holds `item`. */
export function hasListItem(o: Obj, key: string[], item: string): boolean {
  const holder = walk(o, key, false);
  if (!holder || Array.isArray(holder)) return false;
  const v = holder[key[key.length - 1]];
  return v === item || (Array.isArray(v) && v.includes(item));
}

/** Event keys of a hooks map that mean `event` (Crush accepts `pre_tool_use`, `pretooluse`). */
function sameEvent(hooks: Obj, event: string): string[] {
  const norm = (s: string) => s.toLowerCase().replaceAll("_", "");
  return Object.keys(hooks).filter((k) => norm(k) === norm(event));
}

function eventList(hooks: Obj, key: string): unknown[] {
  const v = hooks[key];
  if (v === undefined) return (hooks[key] = []) as unknown[];
  if (!Array.isArray(v)) throw new ShapeError(`hooks.${key} is not a list`);
  return v;
}

/** The hook items of one event entry: the entry itself (flat) or its `hooks` list (nested). */
function items(entry: unknown, style: "flat" | "nested"): Obj[] {
  if (!isObj(entry)) return [];
  if (style === "flat") return [entry];
  return Array.isArray(entry.hooks) ? entry.hooks.filter(isObj) : [];
}

/**
 * True when deja wrote this hook command: exactly what deja writes for one of
 * `specs` (the target's hooks), `hookCommand(launcher, spec.args)`, where the
 * launcher may be any deja launcher ({@link isLauncher}). A command with other
 * arguments, a pipe, or a `deja` binary the user named is the user's: deja
 * neither takes it over (unless `--force`) nor removes it.
 */
export function hookByDeja(
  command: unknown,
  specs: readonly Pick<HookSpec, "args">[],
  launcher?: string,
): boolean {
  if (typeof command !== "string") return false;
  const prog = commandProgram(command);
  return isLauncher(prog, launcher) && specs.some((s) => command === hookCommand(prog, s.args));
}

/**
 * True when deja's hook item `h` ({@link hookByDeja}) holds a timeout of the user's: another
 * number than every spec whose command it runs writes. Install keeps such a timeout as the
 * user's ({@link keptTimeout}), so uninstall keeps the item as theirs too, unless `--force`
 * (trial 117 F4: it was removed silently). A spec with no timeout (a retired hook) says
 * nothing.
 */
export function timeoutEdited(
  h: Obj,
  specs: readonly (Pick<HookSpec, "args"> & Partial<Pick<HookSpec, "timeout">>)[],
): boolean {
  const t = h.timeout;
  if (typeof t !== "number" || !Number.isFinite(t) || t <= 0 || typeof h.command !== "string") {
    return false;
  }
  const prog = commandProgram(h.command);
  const wrote = specs.filter((s) => h.command === hookCommand(prog, s.args))
    .map((s) => s.timeout).filter((x) => typeof x === "number");
  return wrote.length > 0 && !wrote.includes(t);
}

/**
 * True when a hook command runs a deja launcher (`launcher`, or any `deja-launcher`) first,
 * whatever its arguments: deja's entry, as written or as the user edited it since
 * (`uninstall --force` takes these out too).
 */
export function runsLauncher(command: unknown, launcher?: string): boolean {
  return typeof command === "string" && isLauncher(commandProgram(command), launcher);
}

/**
 * A user's hook entry `--force` replaced: the event key, the subcommand, its
 * index in the event's list, the entry as it was, and (when the entry stayed
 * with the user's other items in it) what was left of it at that index.
 */
export interface HookReplaced {
  event: string;
  sub: string;
  index: number;
  entry: unknown;
  left?: unknown;
}

/**
 * deja's hook entry `item` with the timeout its earlier entry had, when that was another
 * number: the timeout of deja's own entry is the user's to set (trial 66: 10 -> 30 went back
 * to 10 on reinstall; trial 102 F2: 10 -> 3 did too, and nothing said so). deja has never
 * written another timeout than the one it writes now (registry.json history), so a different
 * one is the user's. `own.force` sets deja's again; `own.timeoutKept` hears of each one kept.
 */
export function keptTimeout(
  item: Obj,
  before: unknown,
  own: HookOwnership = {},
  at?: { event: string; sub: string },
): Obj {
  const t = item.timeout;
  if (
    own.force || typeof before !== "number" || !Number.isFinite(before) || before <= 0 ||
    typeof t !== "number" || before === t
  ) return item;
  // One the harness refuses is not kept (trial 121 M3): deja's goes in its place, and is said.
  if (own.timeoutMax !== undefined && before > own.timeoutMax) {
    if (at) own.timeoutKept?.({ ...at, timeout: before, deja: t, refused: own.timeoutMax });
    return item;
  }
  if (at) own.timeoutKept?.({ ...at, timeout: before, deja: t });
  return { ...item, timeout: before };
}

/** A timeout of the user's on deja's own hook entry that install kept. */
export interface TimeoutKept {
  event: string;
  sub: string;
  /** The user's timeout, kept. */
  timeout: number;
  /** The timeout deja writes. */
  deja: number;
  /** Not kept: above this, the longest the harness accepts (`install.auto.timeout_max`). */
  refused?: number;
}

/** How install treats hook entries that run deja but that deja did not write. */
export interface HookOwnership {
  force?: boolean;
  /** Told of each user's entry `force` replaced (uninstall puts it back). */
  replaced?: (r: HookReplaced) => void;
  /** Told of each timeout of the user's on deja's own entry that was kept ({@link keptTimeout}). */
  timeoutKept?: (t: TimeoutKept) => void;
  /** The longest timeout the harness accepts: a longer one of the user's is not kept. */
  timeoutMax?: number;
}

/**
 * Adds or updates deja's hook for each spec. An existing deja entry for the
 * same subcommand is updated where it stands (extra fields kept); duplicates
 * of it are removed; a missing one is appended. An entry the user wrote that
 * runs the same deja subcommand ({@link hookByDeja} false) is kept, and deja
 * adds none beside it (returns `kept`), unless `own.force`: then it is
 * replaced and reported to `own.replaced`.
 *
 * @param style `flat` (`{matcher, command, timeout}`, Crush) or `nested`
 *   (`{matcher, hooks: [{type, command, timeout}]}`, Claude Code).
 * @throws {ShapeError} when `hooks` or an event's value has the wrong type.
 */
export function setHooks(
  o: Obj,
  specs: HookSpec[],
  launcher: string,
  style: "flat" | "nested",
  own: HookOwnership = {},
): "kept" | void {
  const hooks = childObj(o, "hooks", "");
  const had = new Set(Object.keys(hooks));
  let keptAny = false;
  for (const spec of specs) {
    const command = hookCommand(launcher, spec.args);
    const item: Obj = style === "flat"
      ? { ...(spec.matcher ? { matcher: spec.matcher } : {}), command, timeout: spec.timeout }
      : { type: "command", command, timeout: spec.timeout };
    const entry: Obj = style === "flat"
      ? item
      : { ...(spec.matcher ? { matcher: spec.matcher } : {}), hooks: [item] };
    const keys = sameEvent(hooks, spec.event);
    if (!keys.includes(spec.event)) keys.unshift(spec.event);
    let placed = false;
    let kept = false;
    for (const k of keys) {
      const list = eventList(hooks, k);
      for (let i = 0; i < list.length; i++) {
        const calls = items(list[i], style).filter((h) =>
          dejaSubcommand(h.command) === spec.args[0]
        );
        const theirs = calls.some((h) => !hookByDeja(h.command, specs, launcher));
        if (theirs && !own.force) kept = true;
        const mine = theirs && !own.force
          ? calls.filter((h) => hookByDeja(h.command, specs, launcher))
          : calls;
        if (!mine.length) continue;
        const e = list[i] as Obj;
        const was = theirs ? cloneData(e) : undefined;
        const others = items(e, style).filter((h) => !mine.includes(h));
        const index = i;
        let left: unknown;
        if (!placed && (style === "flat" || others.length === 0)) {
          const timed = keptTimeout(
            item,
            style === "flat" ? e.timeout : mine[0].timeout,
            own,
            { event: k, sub: spec.args[0] },
          );
          list[i] = style === "flat"
            ? { ...e, ...timed }
            : { ...e, ...entry, hooks: [{ ...mine[0], ...timed }] };
          // A matcher where deja writes none is the user's (trial 84: `startup` on
          // SessionStart was deleted by the next install); deja's own are set again.
          if (!spec.matcher && (own.force || !("matcher" in e))) delete (list[i] as Obj).matcher;
          placed = true;
        } else if (style === "flat" || others.length === 0) {
          list.splice(i--, 1);
        } else {
          e.hooks = others;
          left = cloneData(e);
        }
        if (was) {
          own.replaced?.({ event: k, sub: spec.args[0], index, entry: was, left });
        }
      }
    }
    if (kept) keptAny = true;
    if (!placed && !kept) eventList(hooks, spec.event).push(entry);
    for (const k of keys) {
      if (!had.has(k) && Array.isArray(hooks[k]) && !(hooks[k] as unknown[]).length) {
        delete hooks[k];
      }
    }
  }
  return keptAny ? "kept" : undefined;
}

/**
 * Puts back the user's entries `--force` replaced (`back`), for the events and
 * subcommands where `gone` says deja's entry was just removed (an entry the
 * user has changed since is left alone). Returns the ones put back.
 */
export function putBackHooks(
  list: (event: string) => unknown[],
  back: HookReplaced[],
  gone: Set<string>,
): HookReplaced[] {
  const done: HookReplaced[] = [];
  for (const r of [...back].sort((a, b) => a.index - b.index)) {
    if (!gone.has(`${r.event}\0${r.sub}`)) continue;
    const l = list(r.event);
    if (r.left !== undefined && dataKey(l[r.index]) === dataKey(r.left)) {
      l[r.index] = cloneData(r.entry);
    } else l.splice(Math.min(r.index, l.length), 0, cloneData(r.entry));
    done.push(r);
  }
  return done;
}

/** deja's hook items for `event` (any spelling), with the matcher of their entry. */
export function findHooks(
  o: Obj,
  event: string,
  style: "flat" | "nested",
): Array<{ matcher?: string; command: string; sub: string }> {
  const hooks = isObj(o.hooks) ? o.hooks : {};
  const out: Array<{ matcher?: string; command: string; sub: string }> = [];
  for (const k of sameEvent(hooks, event)) {
    const list = hooks[k];
    if (!Array.isArray(list)) continue;
    for (const e of list) {
      for (const h of items(e, style)) {
        const sub = dejaSubcommand(h.command);
        if (!sub) continue;
        const matcher = isObj(e) && typeof e.matcher === "string" ? e.matcher : undefined;
        out.push({ matcher, command: h.command as string, sub });
      }
    }
  }
  return out;
}

/** Every hook item of a hooks map (`o.hooks`), whatever it runs, with its event key and matcher. */
export function allHooks(
  o: Obj,
  style: "flat" | "nested",
): Array<{ event: string; matcher?: string; command: unknown; timeout: unknown }> {
  const hooks = isObj(o.hooks) ? o.hooks : {};
  const out: Array<{ event: string; matcher?: string; command: unknown; timeout: unknown }> = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    for (const e of list) {
      const matcher = isObj(e) && typeof e.matcher === "string" ? e.matcher : undefined;
      for (const h of items(e, style)) {
        out.push({ event, matcher, command: h.command, timeout: h.timeout });
      }
    }
  }
  return out;
}

/**
 * Removes every hook item deja wrote for `specs` ({@link hookByDeja}; any
 * event; one with a timeout of the user's, {@link timeoutEdited}, only with
 * `force`) and puts back the user's entries `--force` replaced (`back`); an
 * entry left without items goes too, but event lists and a `hooks` map left
 * empty stay (wire.ts prunes the ones deja created). Returns the number of
 * items removed; the ones put back are added to `restored`.
 */
export function removeHooks(
  o: Obj,
  style: "flat" | "nested",
  specs: readonly (Pick<HookSpec, "args"> & Partial<Pick<HookSpec, "timeout">>)[],
  launcher?: string,
  back: HookReplaced[] = [],
  restored: HookReplaced[] = [],
  force = false,
): number {
  if (!isObj(o.hooks)) return 0;
  const hooks = o.hooks;
  let n = 0;
  const gone = new Set<string>();
  for (const k of Object.keys(hooks)) {
    const list = hooks[k];
    if (!Array.isArray(list)) continue;
    let here = 0;
    const kept = list.flatMap((e) => {
      const all = items(e, style);
      const mine = all.filter((h) =>
        (hookByDeja(h.command, specs, launcher) && !timeoutEdited(h, specs)) ||
        (force && runsLauncher(h.command, launcher))
      );
      if (!mine.length) return [e];
      here += mine.length;
      for (const h of mine) gone.add(`${k}\0${dejaSubcommand(h.command)}`);
      if (style === "flat" || mine.length === all.length) return [];
      return [{ ...(e as Obj), hooks: all.filter((h) => !mine.includes(h)) }];
    });
    if (!here) continue;
    n += here;
    hooks[k] = kept;
  }
  restored.push(...putBackHooks(
    (k) => {
      if (!Array.isArray(hooks[k])) hooks[k] = [];
      return hooks[k] as unknown[];
    },
    back,
    gone,
  ));
  return n;
}

/**
 * Sets each top-level value of `base` that `o` lacks (deep, objects merged; nothing
 * overwritten). Returns what it set, as `key.path = value`.
 */
export function setBase(o: Obj, base: Obj | undefined, at: string[] = []): string[] {
  const set: string[] = [];
  for (const [k, v] of Object.entries(base ?? {})) {
    if (o[k] === undefined) {
      o[k] = cloneData(v);
      set.push(...leaves(v, [...at, k]));
    } else if (isObj(o[k]) && isObj(v)) set.push(...setBase(o[k] as Obj, v, [...at, k]));
  }
  return set;
}

/** `v`'s values as `key.path = value`, objects walked. */
function leaves(v: unknown, at: string[]): string[] {
  if (!isObj(v)) return [`${at.join(".")} = ${JSON.stringify(v)}`];
  return Object.entries(v).flatMap(([k, x]) => leaves(x, [...at, k]));
}

/**
 * Takes the values of `base` out of `o` again: only values still equal to what install
 * set go, and objects left empty too. While hooks of the user's are left in `o`, only
 * those under a top-level object install created (`made`, state.ts): one the user had
 * stays, as their hooks may need it; one deja made goes, so the user's hooks are as off
 * as before (trial 38: Gemini CLI's `hooksConfig.enabled`, added by install, stayed on).
 */
export function dropBase(o: Obj, base: Obj | undefined, made: readonly string[][] = []): void {
  const left = isObj(o.hooks) &&
    Object.values(o.hooks).some((v) => !Array.isArray(v) || v.length > 0);
  for (const [k, v] of Object.entries(base ?? {})) {
    if (left && !made.some((p) => p.length === 1 && p[0] === k)) continue;
    dropValue(o, k, v);
  }
}

/** Removes `o[k]` where it equals `v`, deep: objects left empty go too. */
function dropValue(o: Obj, k: string, v: unknown): void {
  const here = o[k];
  if (isObj(here) && isObj(v)) {
    for (const [k2, v2] of Object.entries(v)) dropValue(here, k2, v2);
    if (!Object.keys(here).length) delete o[k];
  } else if (dataKey(here) === dataKey(v)) delete o[k];
}
