/**
 * Minimal assertions (JSR's @std/assert is unreachable from these machines;
 * node:assert does the work).
 */
import nodeAssert from "node:assert/strict";

export function assert(cond: unknown, msg?: string): asserts cond {
  nodeAssert.ok(cond, msg);
}

/** Copies values so that SQLite's null-prototype rows compare equal to object literals. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === null) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  }
  if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  nodeAssert.deepStrictEqual(plain(actual), plain(expected), msg);
}

export function assertNotEquals<T>(actual: T, expected: T, msg?: string): void {
  nodeAssert.notDeepStrictEqual(actual, expected, msg);
}

export function assertMatch(actual: string, re: RegExp, msg?: string): void {
  nodeAssert.match(actual, re, msg);
}

export function assertStringIncludes(actual: string, part: string, msg?: string): void {
  nodeAssert.ok(
    actual.includes(part),
    msg ?? `expected ${JSON.stringify(actual.slice(0, 400))} to include ${JSON.stringify(part)}`,
  );
}

export function assertThrows(fn: () => unknown, cls?: new (...a: never[]) => Error): Error {
  try {
    fn();
  } catch (e) {
    if (cls && !(e instanceof cls)) throw new Error(`expected ${cls.name}, got ${e}`);
    return e as Error;
  }
  throw new Error("expected the function to throw");
}

export async function assertRejects(
  fn: () => Promise<unknown>,
  cls?: new (...a: never[]) => Error,
): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    if (cls && !(e instanceof cls)) throw new Error(`expected ${cls.name}, got ${e}`);
    return e as Error;
  }
  throw new Error("expected the promise to reject");
}
