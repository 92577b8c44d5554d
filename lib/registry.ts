/**
 * The per-harness facts commands read from registry.json at run time (bundled
 * into the binary as a JSON module): display name, the native resume command
 * and the handoff command templates.
 *
 * @module
 */
import registry from "../registry.json" with { type: "json" };

/** What resume and handoff need of one harness. */
export interface HarnessFacts {
  id: string;
  displayName: string;
  /** `capabilities.resume`: the command that reopens a session, `{id}` for its id; null when none. */
  resume: string | null;
  /** `capabilities.handoff`: `exec` (deja can start it with a prompt) or `paste`. */
  handoff: "exec" | "paste";
  /** `handoff_command`: how to start it with a first prompt, `{prompt}` for the prompt; null when unknown. */
  handoffCommand: string | null;
}

/** Facts of harness `id`, or undefined when registry.json has no such harness. */
export function harnessFacts(id: string): HarnessFacts | undefined {
  const e = (registry as { harnesses: Array<Record<string, unknown>> }).harnesses.find((h) =>
    h.id === id
  );
  if (!e) return undefined;
  const caps = (e.capabilities ?? {}) as Record<string, unknown>;
  return {
    id,
    displayName: String(e.display_name ?? id),
    resume: typeof caps.resume === "string" ? caps.resume : null,
    handoff: caps.handoff === "exec" ? "exec" : "paste",
    handoffCommand: typeof e.handoff_command === "string" ? e.handoff_command : null,
  };
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
