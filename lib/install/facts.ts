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
import { expandPath, TemplateError } from "./template.ts";
import { existsSync } from "node:fs";
import { TEXTS } from "./texts.ts";

/** One hook deja adds for an `-auto` target. */
export interface HookSpec {
  /** Event name exactly as the harness spells it (`PreToolUse`, `SessionStart`). */
  event: string;
  /** Tool-name matcher (a regex for Crush, `A|B` for Claude Code); absent for events without tools. */
  matcher?: string;
  /** deja arguments after the launcher (`["hook-tool", "--crush"]`). */
  args: string[];
  /** Seconds the harness waits before giving up on the hook (both Crush and Claude Code read seconds). */
  timeout: number;
}

/** A file deja owns whole (a skill or a slash command), with the id of its text in texts.ts. */
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
  mcp: {
    /** The JSON config file holding MCP servers. */
    file: string;
    /** Key path of deja's server object in that file (`["mcp", "deja"]`). */
    key: string[];
    /** The server object; `{launcher}` strings are replaced by the launcher path. */
    entry: Record<string, unknown>;
  };
  skill?: OwnedFile;
  command?: OwnedFile;
  /** The `-auto` target: hooks that recall without being asked. */
  auto?: {
    target: string;
    /** The JSON file holding the top-level `hooks` map. */
    file: string;
    /** `flat`: `{matcher, command, timeout}` per entry (Crush); `nested`: `{matcher, hooks: [{type, command, timeout}]}` (Claude Code). */
    style: "flat" | "nested";
    hooks: HookSpec[];
  };
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
}

const isStr = (v: unknown): v is string => typeof v === "string" && v !== "";
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

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
  if (!isObj(mcp)) out.push(`${id}: install.mcp must be {file, key, entry}`);
  else {
    checkTemplate(`${id}: install.mcp.file`, mcp.file, out);
    if (!Array.isArray(mcp.key) || mcp.key.length < 2 || !mcp.key.every(isStr)) {
      out.push(`${id}: install.mcp.key must be a key path of at least two names`);
    }
    if (!isObj(mcp.entry) || !Object.values(mcp.entry).some((x) => x === "{launcher}")) {
      out.push(`${id}: install.mcp.entry must be an object with a "{launcher}" value`);
    }
  }
  checkOwned(`${id}: install.skill`, v.skill, out);
  checkOwned(`${id}: install.command`, v.command, out);
  const auto = v.auto;
  if (auto !== undefined) {
    if (!isObj(auto)) return [...out, `${id}: install.auto must be an object`];
    if (!isStr(auto.target) || !name.test(auto.target)) {
      out.push(`${id}: install.auto.target must match ${name}`);
    }
    checkTemplate(`${id}: install.auto.file`, auto.file, out);
    if (auto.style !== "flat" && auto.style !== "nested") {
      out.push(`${id}: install.auto.style must be "flat" or "nested"`);
    }
    if (!Array.isArray(auto.hooks) || !auto.hooks.length) {
      out.push(`${id}: install.auto.hooks is empty`);
    } else {
      auto.hooks.forEach((h, i) => {
        const w = `${id}: install.auto.hooks[${i}]`;
        if (!isObj(h)) return void out.push(`${w} must be an object`);
        if (!isStr(h.event)) out.push(`${w}.event is missing`);
        if (h.matcher !== undefined && !isStr(h.matcher)) out.push(`${w}.matcher must be a string`);
        if (!Array.isArray(h.args) || !h.args.length || !h.args.every(isStr)) {
          out.push(`${w}.args must be deja arguments`);
        } else if (!/^hook-/.test(h.args[0] as string)) {
          out.push(`${w}.args must start with a hook command (hook-...)`);
        }
        if (typeof h.timeout !== "number" || !Number.isInteger(h.timeout) || h.timeout < 1) {
          out.push(`${w}.timeout must be a whole number of seconds >= 1`);
        }
      });
    }
  }
  return out;
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

/** The target a name (or alias) stands for, or undefined. */
export function findTarget(name: string): TargetRef | undefined {
  for (const w of wirables()) {
    if (name === w.facts.target || w.facts.aliases?.includes(name)) {
      return { name: w.facts.target, harness: w, auto: false };
    }
    if (w.facts.auto && name === w.facts.auto.target) {
      return { name: w.facts.auto.target, harness: w, auto: true };
    }
  }
  return undefined;
}

/** True when any of the harness's detect paths exists. */
export function detected(env: Env, w: Wirable): boolean {
  return w.facts.detect.some((d) => existsSync(expandPath(env, d)));
}
