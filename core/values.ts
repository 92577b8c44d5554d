/**
 * Reading loosely-typed JSON values, one definition each: a plain object
 * (`Obj`, {@link isObj}, {@link obj}), a non-empty string, a finite number, an
 * array. Used by every parser on harness records and by lib on configs and
 * protocol messages.
 *
 * @module
 */

/** A plain JSON object. */
export type Obj = Record<string, unknown>;

/** True for a plain object (not null, not an array). */
export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** `v` as a plain object, or undefined. */
export function obj(v: unknown): Obj | undefined {
  return isObj(v) ? v : undefined;
}

/** `v` as a non-empty string, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** `v` as a finite number (numeric strings accepted), or undefined. */
export function num(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

/** `v` as an array (empty when it is not one). */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
