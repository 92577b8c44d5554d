/**
 * The per-harness facts commands read from registry.json at run time (bundled
 * into the binary as a JSON module): display name, the native resume command
 * and the handoff command templates, and how each format was last verified
 * (for `deja sources`). The one reader of registry.json for run-time facts.
 *
 * @module
 */
import registry from "../registry.json" with { type: "json" };

/** The raw registry.json entry of harness `id`; undefined when there is none. */
export function entry(id: string): Record<string, unknown> | undefined {
  return (registry as { harnesses: Array<Record<string, unknown>> }).harnesses.find((h) =>
    h.id === id
  );
}

/** What resume and handoff need of one harness. */
export interface HarnessFacts {
  id: string;
  displayName: string;
  /** `capabilities.resume`: the command that reopens a session, `{id}` for its id; null when none. */
  resume: string | null;
  /**
   * `capabilities.resume_cwd`: true when the harness finds a session only from the directory it
   * runs in (its store is filed by working directory), false when from anywhere, null when not known.
   */
  resumeCwd: boolean | null;
  /** `capabilities.handoff`: `exec` (deja can start it with a prompt) or `paste`. */
  handoff: "exec" | "paste";
  /** `handoff_command`: how to start it with a first prompt, `{prompt}` for the prompt; null when unknown. */
  handoffCommand: string | null;
}

/** Facts of harness `id`, or undefined when registry.json has no such harness. */
export function harnessFacts(id: string): HarnessFacts | undefined {
  const e = entry(id);
  if (!e) return undefined;
  const caps = (e.capabilities ?? {}) as Record<string, unknown>;
  return {
    id,
    displayName: String(e.display_name ?? id),
    resume: typeof caps.resume === "string" ? caps.resume : null,
    resumeCwd: typeof caps.resume_cwd === "boolean" ? caps.resume_cwd : null,
    handoff: caps.handoff === "exec" ? "exec" : "paste",
    handoffCommand: typeof e.handoff_command === "string" ? e.handoff_command : null,
  };
}

/** A name as typed names are compared: lower case, runs of spaces, `_` and `-` as one `-`. */
const spelt = (s: string) => s.trim().toLowerCase().replace(/[\s_-]+/g, "-");

/**
 * The names a person may type for harness `h`, spelt as {@link spelt} spells them: its id,
 * its display name (without a parenthesis: `GitHub Copilot Chat (VS Code)`; and without a
 * last word `CLI`: `GitHub Copilot CLI` is also `github-copilot`), its install target and
 * aliases, the command that runs it (`cursor-agent`, `droid`, `kiro-cli`), and each of the id, target and aliases with `-cli` (`copilot-cli`, `crush-cli`):
 * the product names people type (new-user report, 2026-12: `--harness copilot-cli` was refused).
 */
function typedNames(h: Record<string, unknown>): string[] {
  const inst = (h.install ?? {}) as { target?: unknown; aliases?: unknown };
  const str = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";
  // The command that runs it (`cursor-agent`, `droid`, `agy`): the first word of its resume line.
  const caps = (h.capabilities ?? {}) as { resume?: unknown };
  const command = str(caps.resume) ? caps.resume.trim().split(/\s+/)[0] : undefined;
  const own = [h.id, inst.target, ...(Array.isArray(inst.aliases) ? inst.aliases : []), command]
    .filter(str).map(spelt);
  const display = str(h.display_name) ? h.display_name.replace(/\s*\([^)]*\)/g, "") : "";
  const shown = [h.display_name, display, display.replace(/\s+cli$/i, "")].filter(str).map(spelt);
  return [...new Set([...own, ...own.map((n) => `${n}-cli`), ...shown])];
}

/**
 * The harness id a person typed names, or undefined: the id in any case
 * (`Claude`), or one of its {@link typedNames} in any case, with spaces,
 * dashes or underscores alike (`claude-code`, `Gemini CLI`, `copilot-cli`,
 * `github-copilot`, `copilot-chat`). The one reader of a `--harness` value
 * (CLI, MCP, hooks, handoff).
 */
export function harnessId(typed: string): string | undefined {
  const t = spelt(typed);
  if (!t) return undefined;
  const all = (registry as { harnesses: Array<Record<string, unknown>> }).harnesses;
  for (const h of all) if (h.id === typed.trim().toLowerCase()) return h.id as string;
  for (const h of all) if (typedNames(h).includes(t)) return h.id as string;
  return undefined;
}

/** Every name {@link harnessId} takes, with the harness it names (for a test of their overlap). */
export function harnessNames(): Array<{ name: string; id: string }> {
  const all = (registry as { harnesses: Array<Record<string, unknown>> }).harnesses;
  return all.flatMap((h) => typedNames(h).map((name) => ({ name, id: h.id as string })));
}

/** Every harness id in registry order. */
export function harnessIds(): string[] {
  return (registry as { harnesses: Array<{ id: string }> }).harnesses.map((h) => h.id);
}

/**
 * Every environment variable registry.json's `store_paths` name (`CLAUDE_CONFIG_DIR`,
 * `XDG_DATA_HOME`, `DEJA_CLAUDE_ROOT`, ...): what places a harness's stores on a machine.
 */
export function storeVariables(): string[] {
  const names = new Set<string>(["XDG_DATA_HOME", "XDG_CONFIG_HOME", "DEJA_HOME"]);
  for (const h of (registry as { harnesses: Array<{ store_paths?: string[] }> }).harnesses) {
    for (const p of h.store_paths ?? []) {
      for (const m of p.matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)) names.add(m[1]);
    }
  }
  return [...names].sort();
}

/** How a format was verified: a farm run of the real harness, a real store, source reading, or notes only. */
export type VerifiedBy = "farm" | "real_store" | "source" | "notes";

/** One harness's last verification. */
export interface Verification {
  /** The harness version it was verified on; null when the method names none (source reading). */
  version: string | null;
  /** How; null when registry.json does not say. */
  by: VerifiedBy | null;
  /** `YYYY-MM-DD`; null when registry.json does not say. */
  date: string | null;
}

const BY: readonly string[] = ["farm", "real_store", "source", "notes"];

/** The last verification of harness `id` (all null for an id registry.json lacks). */
export function verification(id: string): Verification {
  const e = entry(id);
  const s = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  const by = s(e?.verified_by);
  return {
    version: s(e?.verified_version),
    by: by && BY.includes(by) ? by as VerifiedBy : null,
    date: s(e?.last_verified),
  };
}

/** One line for people: `2.1.332 (farm run, 2026-11-29)`, `source reading, 2026-11-29`. */
export function describeVerification(v: Verification): string {
  const how = {
    farm: "farm run",
    real_store: "real store",
    source: "source reading",
    notes: "notes only",
  };
  const parts = [v.by ? how[v.by] : "", v.date ?? ""].filter(Boolean).join(", ");
  if (!v.version) return parts || "not recorded";
  return parts ? `${v.version} (${parts})` : v.version;
}
