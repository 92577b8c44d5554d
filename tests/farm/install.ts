/**
 * Pinned installs of harness packages into a cache outside the repository,
 * reused between runs: `${DEJA_FARM_CACHE:-${XDG_CACHE_HOME:-~/.cache}/deja-farm}/<pkg>@<version>/`
 * holds `node_modules/` for the package and its extras. A prefix counts as
 * installed when every package in it has the pinned version in its
 * package.json; otherwise it is installed again with `npm install --prefix`.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

/** The cache directory for environment `env` (a plain variable map). */
export function farmCache(env: Record<string, string | undefined>): string {
  if (env.DEJA_FARM_CACHE) return env.DEJA_FARM_CACHE;
  const base = env.XDG_CACHE_HOME || join(env.HOME || "/tmp", ".cache");
  return join(base, "deja-farm");
}

/** Splits `name@version` (the name may be scoped). */
export function splitSpec(spec: string): { name: string; version: string } {
  const at = spec.lastIndexOf("@");
  if (at <= 0) throw new Error(`not an exact spec: ${spec}`);
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

/** The version of `name` installed under `prefix`, or undefined. */
export function installedVersion(prefix: string, name: string): string | undefined {
  try {
    const pj = JSON.parse(readFileSync(join(prefix, "node_modules", name, "package.json"), "utf8"));
    return typeof pj.version === "string" ? pj.version : undefined;
  } catch {
    return undefined;
  }
}

/** Result of {@link ensureInstalled}. */
export interface InstallResult {
  ok: boolean;
  prefix: string;
  /** True when the cache already held it. */
  cached: boolean;
  /** Wall time in milliseconds. */
  ms: number;
  /** Why it failed: the last lines npm printed. */
  error?: string;
}

/**
 * Makes sure `specs` (exact `name@version`, the first one names the prefix)
 * are installed in the cache. npm runs with the caller's HOME, so its own
 * download cache is shared; `pathPrefix` goes first on PATH (a Node build).
 */
export function ensureInstalled(
  cache: string,
  specs: string[],
  pathPrefix: string[] = [],
  timeoutMs = 15 * 60_000,
): InstallResult {
  const t0 = performance.now();
  const prefix = join(cache, specs[0]);
  const complete = () =>
    specs.every((s) => {
      const { name, version } = splitSpec(s);
      return installedVersion(prefix, name) === version;
    });
  if (complete()) return { ok: true, prefix, cached: true, ms: performance.now() - t0 };
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  const env = { ...process.env, PATH: [...pathPrefix, process.env.PATH ?? ""].join(":") };
  const r = spawnSync(
    "npm",
    ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", ...specs],
    { env, encoding: "utf8", timeout: timeoutMs, maxBuffer: 1 << 26 },
  );
  const out = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  writeFileSync(join(prefix, "install.log"), out);
  if (r.status === 0 && complete()) {
    return { ok: true, prefix, cached: false, ms: performance.now() - t0 };
  }
  const why = r.error ? String(r.error.message) : npmReason(out);
  rmSync(join(prefix, "node_modules"), { recursive: true, force: true });
  return {
    ok: false,
    prefix,
    cached: false,
    ms: performance.now() - t0,
    error: why || `npm exited ${r.status}`,
  };
}

/** The line of npm's output that says why an install failed. */
export function npmReason(out: string): string {
  const lines = out.split("\n").map((l) => l.replace(/^npm (error|ERR!)\s*/, "").trim())
    .filter((l) => l && !/^at /.test(l));
  return lines.findLast((l) => /\bError: /.test(l)) ?? lines.find((l) => /^code /.test(l)) ??
    lines.slice(-2).join(" | ");
}

/** The bin directory of a Node.js build installed from npm (`node-<os>-<arch>@<version>`). */
export function nodeSpec(version: string): { spec: string; bin: (prefix: string) => string } {
  const name = `node-${process.platform}-${process.arch}`;
  return { spec: `${name}@${version}`, bin: (prefix) => join(prefix, "node_modules", name, "bin") };
}
