/**
 * The install facts of registry.json: for each harness deja can wire, where
 * its MCP server, skill, command and hooks go (field `install`, documented in
 * docs/registry/README.md). A new harness is a new entry, not new code.
 *
 * Paths are templates (`${VAR:-default}`, `~`; see template.ts). Strings in
 * `mcp.entry` equal to `{launcher}` become the launcher path; a hook runs
 * `<launcher> <args...>`.
 *
 * @module
 */
import registry from "../../registry.json" with { type: "json" };
import type { Env } from "../../core/model.ts";
import { dirname } from "node:path";
import { expandPath, TemplateError } from "./template.ts";
import { existsSync } from "node:fs";
import { TEXTS } from "./texts.ts";
import { CONFIG_FORMATS, type ConfigFormat } from "./formats.ts";
import { HOOK_NAMES } from "../hooks/table.ts";
import { isObj } from "../../core/values.ts";

/** One hook deja adds for an `-auto` target. */
export interface HookSpec {
  /** Event name exactly as the harness spells it (`PreToolUse`, `SessionStart`). */
  event: string;
  /** Tool-name matcher (a regex for Crush, `A|B` for Claude Code); absent for events without tools. */
  matcher?: string;
  /** deja arguments after the launcher (`["hook-tool", "--crush"]`). */
  args: string[];
  /** How long the harness waits for the hook, in the unit of `auto.timeout_unit` (seconds by default). */
  timeout: number;
}

/**
 * A hook deja once wrote into an `-auto` target's config and no longer does
 * (its answer never reached the model): install and uninstall both take deja's
 * own entry of it out ({@link HookSpec} `args` name it; `event` says where it was).
 */
export type RetiredHook = Pick<HookSpec, "event" | "args">;

/**
 * A file deja owns whole (a skill, a slash command, a plugin), with the id of
 * its text in texts.ts; `{launcher}` in the text becomes the launcher path and
 * `{launcher_json}` that path as a JSON string.
 */
export interface OwnedFile {
  file: string;
  text: string;
}

/** The `install` field of one registry entry. */
export interface InstallFacts {
  /** Plain target name (MCP server, skill, command). */
  target: string;
  /** Other names the plain target answers to. */
  aliases?: string[];
  /** Path templates; the harness counts as present when any exists. */
  detect: string[];
  /** Absent for a harness without MCP (pi). */
  mcp?: {
    /** The config file holding MCP servers (created when no file of `also` exists). */
    file: string;
    /**
     * Other files the harness reads its MCP servers from (opencode's
     * `opencode.jsonc`, kimi-cli's `~/.kimi/mcp.json`); see {@link mcpFile}.
     */
    also?: string[];
    /** `json`, `jsonc`, `json-comments`, `toml` or `yaml`; by default what the file name says (formats.ts). */
    format?: ConfigFormat;
    /** Key path of deja's server object in that file (`["mcp", "deja"]`). */
    key: string[];
    /** The server object; `{launcher}` strings are replaced by the launcher path. */
    entry: Record<string, unknown>;
  };
  skill?: OwnedFile;
  command?: OwnedFile;
  /** More files deja owns on the plain target (guidance files, instructions). */
  files?: OwnedFile[];
  /**
   * A list in a config that gets the path of one of deja's files (aider's
   * `read:` in `.aider.conf.yml`); a single string there becomes a list.
   */
  read?: {
    file: string;
    format?: ConfigFormat;
    /** Key path of the list (`["read"]`). */
    key: string[];
    /** Path template of the file the list names (one of `files`). */
    item: string;
  };
  /**
   * Why the harness gets no `-auto` target although it has hooks (their output
   * reaches no model): `deja install <target>-auto` says so instead of "unknown target".
   */
  no_auto?: string;
  /** The `-auto` target: hooks that recall without being asked. */
  auto?: {
    target: string;
    /** The config file holding the top-level `hooks` map (absent when the hooks live in `files`). */
    file?: string;
    format?: ConfigFormat;
    /**
     * `flat`: `{matcher, command, timeout}` per entry (Crush, Cursor); `nested`:
     * `{matcher, hooks: [{type, command, timeout}]}` (Claude Code); `list`: one
     * top-level `hooks` list of `{event, matcher, command, timeout}` (Kimi Code's `[[hooks]]`).
     */
    style?: "flat" | "nested" | "list";
    /** `s` (default) or `ms` (Gemini CLI, Qwen Code). */
    timeout_unit?: "s" | "ms";
    /**
     * The longest timeout the harness accepts, in `timeout_unit`, where its schema bounds it
     * (Kimi Code: 1-600 s): a longer one is refused, so install never writes nor keeps one and
     * `deja doctor` calls it a broken entry (trial 121 M3: 900 s was "wired").
     */
    timeout_max?: number;
    /**
     * Top-level values the hooks need (Cursor's `{"version": 1}`, Gemini CLI's
     * `hooksConfig.enabled`): set when missing, removed again by uninstall once no
     * hook is left beside them.
     */
    base?: Record<string, unknown>;
    /**
     * Top-level keys of the hook file that, holding this value, stop the harness running any
     * hook (Claude Code's `disableAllHooks: true`): never written; `deja doctor` warns.
     */
    off?: Record<string, unknown>;
    /**
     * Settings in another file of the harness that, holding `off`, stop every hook it runs
     * (Codex's `[features] hooks = false` in config.toml, or its older name `codex_hooks`):
     * never written; `deja doctor` and install warn.
     */
    off_in?: { file: string; keys: string[][]; off: unknown };
    hooks?: HookSpec[];
    /**
     * Hooks earlier versions of deja wired and this one does not: `deja install`
     * removes deja's entries of them (the user's stay), and so does uninstall.
     */
    retired?: RetiredHook[];
    /** Plugin or extension files the `-auto` target writes (opencode, pi). */
    files?: OwnedFile[];
    /**
     * A value the harness's config must hold for the plugin's hooks to run
     * (OpenClaw drops a non-bundled plugin's `before_prompt_build` unless
     * `plugins.entries.deja.hooks.allowConversationAccess` is true): set by
     * `-auto`, taken back by uninstall while it still holds that value.
     */
    grant?: Grant;
    /** What the person still has to do once the hooks are written (Codex: approve them once). */
    note?: string;
    /**
     * The program the hooks run in, when `detect` also matches a sibling that
     * would not bring their output to the model (Kimi Code beside the Python
     * Kimi CLI): `deja install <target>-auto` is refused while none of its
     * paths exists, and `--auto` takes the plain target instead ({@link autoPresent}).
     */
    needs?: AutoNeeds;
    /**
     * The config where the harness pins the hooks the user approved (Codex's
     * `[hooks.state]` in config.toml, codex_trust.ts): doctor warns while deja's
     * hooks have no pin there.
     */
    trust_file?: string;
  };
}

/** The program an `-auto` target's hooks need (see `InstallFacts.auto.needs`). */
export interface AutoNeeds {
  /** Its name as people know it (`Kimi Code`). */
  name: string;
  /** Path templates; the program counts as present when any exists. */
  detect: string[];
  /** Why the sibling the harness's own `detect` also matches is not enough (one clause). */
  why: string;
}

/** One config value an `-auto` target sets (see `InstallFacts.auto.grant`). */
export interface Grant {
  file: string;
  format?: ConfigFormat;
  /** Key path of the value (at least two names). */
  key: string[];
  value: string | number | boolean;
}

/** A harness deja can wire, with its facts. */
export interface Wirable {
  harness: string;
  displayName: string;
  facts: InstallFacts;
}

/** What a target name means. */
export interface TargetRef {
  /** The target's canonical name (`crush`, `crush-auto`). */
  name: string;
  harness: Wirable;
  auto: boolean;
  /**
   * Not named, picked: install, by `--auto` for a harness at its plain target (it has no
   * `-auto` one, or the program its hooks need is not here): `uninstall --auto` takes that
   * wiring back when this install wrote it (lib/install/state.ts `withAuto`); uninstall, by
   * `--all` or `--auto`.
   */
  swept?: boolean;
  /**
   * Uninstall: picked by `uninstall --auto`, which undoes what `install --auto` did: the plain
   * wiring that install wrote goes with the `-auto` target (lib/install/run.ts).
   */
  undoAuto?: boolean;
  /**
   * Install: the plain target of this `-auto` one was asked for too (`named`, or `swept` by
   * `--auto`): when the `-auto` target is refused, the plain one is still wired when it can be.
   */
  plainAsked?: "named" | "swept";
}

const isStr = (v: unknown): v is string => typeof v === "string" && v !== "";

function checkTemplate(where: string, v: unknown, out: string[]): void {
  if (!isStr(v)) {
    out.push(`${where} must be a non-empty path template`);
    return;
  }
  try {
    expandPath({ home: "/h", platform: "linux", get: () => undefined }, v);
  } catch (e) {
    if (e instanceof TemplateError) out.push(`${where}: ${e.message}`);
    else throw e;
  }
  if (/\/home\/|\/Users\//.test(v)) out.push(`${where} must use ~ or variables, not ${v}`);
}

function checkOwned(where: string, v: unknown, out: string[]): void {
  if (v === undefined) return;
  if (!isObj(v)) return void out.push(`${where} must be an object {file, text}`);
  checkTemplate(`${where}.file`, v.file, out);
  if (!isStr(v.text) || !(v.text in TEXTS)) {
    out.push(`${where}.text must name a text of lib/install/texts.ts (${Object.keys(TEXTS)})`);
  }
}

function checkFiles(where: string, v: unknown, out: string[]): void {
  if (v === undefined) return;
  if (!Array.isArray(v)) return void out.push(`${where} must be a list of {file, text}`);
  v.forEach((f, i) => checkOwned(`${where}[${i}]`, f, out));
}

function checkGrant(where: string, v: unknown, out: string[]): void {
  if (v === undefined) return;
  if (!isObj(v)) return void out.push(`${where} must be an object {file, key, value}`);
  checkTemplate(`${where}.file`, v.file, out);
  if (!Array.isArray(v.key) || v.key.length < 2 || !v.key.every(isStr)) {
    out.push(`${where}.key must be a key path of at least two names`);
  }
  if (!["string", "number", "boolean"].includes(typeof v.value)) {
    out.push(`${where}.value must be a string, number or boolean`);
  }
}

function checkNeeds(where: string, v: unknown, out: string[]): void {
  if (v === undefined) return;
  if (!isObj(v) || !isStr(v.name) || !isStr(v.why)) {
    return void out.push(`${where} must be an object {name, detect, why}`);
  }
  if (!Array.isArray(v.detect) || !v.detect.length) out.push(`${where}.detect is empty`);
  else v.detect.forEach((d, i) => checkTemplate(`${where}.detect[${i}]`, d, out));
}

/**
 * Problems with one entry's `install` field (empty when it is well formed
 * or absent). Used by the registry test; each line says what to fix.
 */
export function checkInstallFacts(id: string, v: unknown): string[] {
  const out: string[] = [];
  if (v === undefined) return out;
  if (!isObj(v)) return [`${id}: install must be an object`];
  const name = /^[a-z][a-z0-9-]*$/;
  if (!isStr(v.target) || !name.test(v.target)) {
    out.push(`${id}: install.target must match ${name}`);
  }
  if (v.aliases !== undefined) {
    if (!Array.isArray(v.aliases) || !v.aliases.every((a) => isStr(a) && name.test(a))) {
      out.push(`${id}: install.aliases must be target names`);
    }
  }
  if (!Array.isArray(v.detect) || !v.detect.length) out.push(`${id}: install.detect is empty`);
  else v.detect.forEach((d, i) => checkTemplate(`${id}: install.detect[${i}]`, d, out));
  const mcp = v.mcp;
  const formats: readonly string[] = CONFIG_FORMATS;
  if (mcp !== undefined && !isObj(mcp)) out.push(`${id}: install.mcp must be {file, key, entry}`);
  else if (isObj(mcp)) {
    if (mcp.format !== undefined && !formats.includes(String(mcp.format))) {
      out.push(`${id}: install.mcp.format must be one of ${formats}`);
    }
    checkTemplate(`${id}: install.mcp.file`, mcp.file, out);
    if (mcp.also !== undefined && !Array.isArray(mcp.also)) {
      out.push(`${id}: install.mcp.also must be a list of path templates`);
    } else {(mcp.also ?? []).forEach((a, i) =>
        checkTemplate(`${id}: install.mcp.also[${i}]`, a, out)
      );}
    if (!Array.isArray(mcp.key) || mcp.key.length < 2 || !mcp.key.every(isStr)) {
      out.push(`${id}: install.mcp.key must be a key path of at least two names`);
    }
    const runs = (x: unknown): boolean =>
      x === "{launcher}" || (Array.isArray(x) && x[0] === "{launcher}");
    if (!isObj(mcp.entry) || !Object.values(mcp.entry).some(runs)) {
      out.push(`${id}: install.mcp.entry must be an object with a "{launcher}" value`);
    }
  }
  checkOwned(`${id}: install.skill`, v.skill, out);
  checkOwned(`${id}: install.command`, v.command, out);
  checkFiles(`${id}: install.files`, v.files, out);
  const read = v.read;
  if (read !== undefined) {
    if (!isObj(read)) out.push(`${id}: install.read must be {file, key, item}`);
    else {
      checkTemplate(`${id}: install.read.file`, read.file, out);
      checkTemplate(`${id}: install.read.item`, read.item, out);
      if (!Array.isArray(read.key) || !read.key.length || !read.key.every(isStr)) {
        out.push(`${id}: install.read.key must be a key path`);
      }
    }
  }
  if (v.no_auto !== undefined && (!isStr(v.no_auto) || v.auto !== undefined)) {
    out.push(`${id}: install.no_auto must be a sentence, and only where there is no install.auto`);
  }
  const auto = v.auto;
  if (auto !== undefined) {
    if (!isObj(auto)) return [...out, `${id}: install.auto must be an object`];
    if (!isStr(auto.target) || !name.test(auto.target)) {
      out.push(`${id}: install.auto.target must match ${name}`);
    }
    checkFiles(`${id}: install.auto.files`, auto.files, out);
    if (
      auto.timeout_unit !== undefined && auto.timeout_unit !== "s" && auto.timeout_unit !== "ms"
    ) {
      out.push(`${id}: install.auto.timeout_unit must be "s" or "ms"`);
    }
    if (
      auto.timeout_max !== undefined &&
      (typeof auto.timeout_max !== "number" || !Number.isInteger(auto.timeout_max) ||
        auto.timeout_max < 1)
    ) {
      out.push(`${id}: install.auto.timeout_max must be a whole number >= 1 (in timeout_unit)`);
    }
    if (auto.trust_file !== undefined) {
      checkTemplate(`${id}: install.auto.trust_file`, auto.trust_file, out);
    }
    checkGrant(`${id}: install.auto.grant`, auto.grant, out);
    checkNeeds(`${id}: install.auto.needs`, auto.needs, out);
    if (auto.base !== undefined && !isObj(auto.base)) {
      out.push(`${id}: install.auto.base must be an object`);
    }
    if (auto.file === undefined) {
      if (!Array.isArray(auto.files) || !auto.files.length) {
        out.push(`${id}: install.auto needs a hooks file or plugin files`);
      }
    } else if (!Array.isArray(auto.hooks) || !auto.hooks.length) {
      out.push(`${id}: install.auto.hooks is empty`);
    } else {
      checkTemplate(`${id}: install.auto.file`, auto.file, out);
      if (auto.style !== "flat" && auto.style !== "nested" && auto.style !== "list") {
        out.push(`${id}: install.auto.style must be "flat", "nested" or "list"`);
      }
      auto.hooks.forEach((h, i) => {
        const w = `${id}: install.auto.hooks[${i}]`;
        if (!isObj(h)) return void out.push(`${w} must be an object`);
        if (!isStr(h.event)) out.push(`${w}.event is missing`);
        if (h.matcher !== undefined && !isStr(h.matcher)) out.push(`${w}.matcher must be a string`);
        if (!Array.isArray(h.args) || !h.args.length || !h.args.every(isStr)) {
          out.push(`${w}.args must be deja arguments`);
        } else if (!HOOK_NAMES.has(h.args[0] as string)) {
          out.push(`${w}.args must start with a hook of lib/hooks/table.ts (${[...HOOK_NAMES]})`);
        }
        if (typeof h.timeout !== "number" || !Number.isInteger(h.timeout) || h.timeout < 1) {
          out.push(`${w}.timeout must be a whole number >= 1 (in timeout_unit)`);
        } else if (typeof auto.timeout_max === "number" && h.timeout > auto.timeout_max) {
          out.push(`${w}.timeout is above install.auto.timeout_max`);
        }
      });
      checkRetired(id, auto.retired, auto.hooks, out);
    }
  }
  return out;
}

/**
 * Problems with `install.auto.retired`: each a `{event, args}` whose args start
 * with a hook of table.ts and differ from every hook still wired (an entry both
 * wired and retired would be written, then taken out again).
 */
function checkRetired(id: string, retired: unknown, hooks: unknown[], out: string[]): void {
  if (retired === undefined) return;
  if (!Array.isArray(retired)) return void out.push(`${id}: install.auto.retired must be a list`);
  const wired = new Set(hooks.map((h) => JSON.stringify(isObj(h) ? h.args : undefined)));
  retired.forEach((r, i) => {
    const w = `${id}: install.auto.retired[${i}]`;
    if (!isObj(r)) return void out.push(`${w} must be an object`);
    if (!isStr(r.event)) out.push(`${w}.event is missing`);
    if (!Array.isArray(r.args) || !r.args.length || !r.args.every(isStr)) {
      out.push(`${w}.args must be deja arguments`);
    } else if (!HOOK_NAMES.has(r.args[0] as string)) {
      out.push(`${w}.args must start with a hook of lib/hooks/table.ts (${[...HOOK_NAMES]})`);
    } else if (wired.has(JSON.stringify(r.args))) {
      out.push(`${w}.args are still wired in install.auto.hooks`);
    }
  });
}

let cache: Wirable[] | undefined;

/**
 * Every harness registry.json gives install facts for, in registry order.
 *
 * @throws {Error} when an entry's install field is malformed (the registry test catches it first).
 */
export function wirables(): Wirable[] {
  if (cache) return cache;
  const out: Wirable[] = [];
  for (const e of (registry as { harnesses: Array<Record<string, unknown>> }).harnesses) {
    if (e.install === undefined) continue;
    const problems = checkInstallFacts(String(e.id), e.install);
    if (problems.length) throw new Error(`registry.json: ${problems.join("; ")}`);
    out.push({
      harness: String(e.id),
      displayName: String(e.display_name),
      facts: e.install as InstallFacts,
    });
  }
  cache = out;
  return out;
}

/** Every target name (plain, then `-auto`) in registry order. */
export function targetNames(): string[] {
  return wirables().flatMap((
    w,
  ) => [w.facts.target, ...(w.facts.auto ? [w.facts.auto.target] : [])]);
}

/** The plain names of a harness: its target and aliases. */
const plainNames = (w: Wirable) => [w.facts.target, ...(w.facts.aliases ?? [])];

/**
 * The target a name stands for, or undefined: a target, an alias, or
 * `<target or alias>-auto` (`claude-code-auto` is `claude-auto`).
 */
export function findTarget(name: string): TargetRef | undefined {
  for (const w of wirables()) {
    if (plainNames(w).includes(name)) return { name: w.facts.target, harness: w, auto: false };
    const auto = w.facts.auto?.target;
    if (auto && (name === auto || plainNames(w).some((n) => `${n}-auto` === name))) {
      return { name: auto, harness: w, auto: true };
    }
  }
  return undefined;
}

/** Every name a target answers to (targets, aliases, `<alias>-auto`), for did-you-mean. */
export function allTargetNames(): string[] {
  return wirables().flatMap((w) => [
    ...plainNames(w),
    ...(w.facts.auto ? [w.facts.auto.target, ...plainNames(w).map((n) => `${n}-auto`)] : []),
  ]);
}

/**
 * The harness `name` (`<target or alias>-auto`) names when that harness has no
 * `-auto` target and gives no reason (`no_auto`): it fires no hooks deja uses.
 */
export function hooklessHarness(name: string): Wirable | undefined {
  return wirables().find((w) =>
    !w.facts.auto && !w.facts.no_auto && plainNames(w).some((n) => `${n}-auto` === name)
  );
}

/**
 * Why `name` (`<target>-auto`) is no target, for a harness whose hooks bring
 * no text to the model (`no_auto`); undefined for any other name.
 */
export function noAutoReason(name: string): { harness: Wirable; reason: string } | undefined {
  for (const w of wirables()) {
    const names = [w.facts.target, ...(w.facts.aliases ?? [])].map((n) => `${n}-auto`);
    if (w.facts.no_auto && names.includes(name)) return { harness: w, reason: w.facts.no_auto };
  }
  return undefined;
}

/** True when any of the harness's detect paths exists. */
export function detected(env: Env, w: Wirable): boolean {
  return w.facts.detect.some((d) => existsSync(expandPath(env, d)));
}

/**
 * True unless the harness's `-auto` target needs a program (`auto.needs`)
 * none of whose paths exists: `kimi-auto` wires Kimi Code, not Kimi CLI.
 */
export function autoPresent(env: Env, w: Wirable): boolean {
  const needs = w.facts.auto?.needs;
  return !needs || needs.detect.some((d) => existsSync(expandPath(env, d)));
}

/**
 * The config file deja edits for a harness's MCP server: of `file` and its
 * `also` names, the first that exists (the user's file, whatever its name);
 * when none does, the first whose directory exists (the harness that is
 * installed, for kimi-cli and Kimi Code); else `file`, which is created.
 */
export function mcpFile(env: Env, mcp: { file: string; also?: string[] }): string {
  const all = [mcp.file, ...(mcp.also ?? [])].map((f) => expandPath(env, f));
  return all.find((p) => existsSync(p)) ?? all.find((p) => existsSync(dirname(p))) ?? all[0];
}
