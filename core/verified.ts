/**
 * How each harness's format was last verified, from registry.json (bundled
 * into the binary as a JSON module): the harness version it was verified on,
 * how, and when. The farm's green runs write these fields
 * (`deno task verify:record`); see docs/registry/README.md.
 *
 * @module
 */
import registry from "../registry.json" with { type: "json" };

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
  const e = (registry as { harnesses: Array<Record<string, unknown>> }).harnesses.find((h) =>
    h.id === id
  );
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
