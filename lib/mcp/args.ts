/**
 * The `deja` tool's arguments checked against its schema before anything
 * runs: each argument has the type the schema gives it, `limit` is in range,
 * and no text argument is longer than the tool needs. A problem comes back as
 * one sentence naming the argument and what it accepts (sent to the model as
 * an error result, lib/mcp/call.ts); unknown arguments are ignored.
 *
 * Lengths, in characters (Unicode code points: an emoji is one, trial 109 F6): `query`, `path`,
 * `what`, `project` and `harness` at most {@link MAX_QUERY}; `text` (a note)
 * at most {@link MAX_NOTE}; longer is an error, never cut silently. `error`
 * (a pasted error, often a command's whole output) is the exception: it is read
 * as `deja fix` reads one ({@link errorArg}).
 *
 * Every text of the arguments, names included, is made whole UTF-16 first ({@link wellFormedArgs}):
 * a lone surrogate (JSON allows `"\ud83d"` alone) becomes U+FFFD, so no answer, note or log
 * line deja writes holds one (trial 131 F3: a query's was echoed back in the answer).
 *
 * @module
 */
import { MAX_LIMIT } from "./tool.ts";
import { errorTextWithin } from "../memory/signature.ts";
import { characters } from "../../core/text.ts";

/** Longest `query`, `path`, `what`, `project` or `harness`. */
export const MAX_QUERY = 2000;
/** Longest note (`text` of mode remember). */
export const MAX_NOTE = 8000;

const TEXT: Record<string, number> = {
  mode: 40,
  query: MAX_QUERY,
  path: MAX_QUERY,
  what: MAX_QUERY,
  project: MAX_QUERY,
  text: MAX_NOTE,
};

function kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** The first problem with `args`, as a sentence for the model; undefined when they are fine. */
export function argProblem(args: Record<string, unknown>): string | undefined {
  for (const [name, max] of Object.entries(TEXT)) {
    const v = args[name];
    if (v === undefined || v === null) continue;
    if (typeof v !== "string") return `${name} must be a string, not ${kind(v)}`;
    const n = characters(v);
    if (n > max) return `${name} is ${n} characters long: at most ${max} are accepted`;
  }
  const e = args.error;
  if (e !== undefined && e !== null && typeof e !== "string") {
    return `error must be a string, not ${kind(e)}`;
  }
  const h = args.harness;
  if (h !== undefined && h !== null) {
    const list = Array.isArray(h) ? h : [h];
    if (!list.every((x) => typeof x === "string")) {
      return "harness must be a harness id or a list of them (strings)";
    }
    if (characters(list.join(",")) > MAX_QUERY) {
      return `harness is over ${MAX_QUERY} characters long`;
    }
  }
  const t = args.tags;
  if (t !== undefined && t !== null) {
    const list = typeof t === "string" ? [t] : t;
    if (!Array.isArray(list) || !list.every((x) => typeof x === "string")) {
      return "tags must be a list of strings or one comma-separated string";
    }
    if (characters(list.join(",")) > MAX_QUERY) return `tags are over ${MAX_QUERY} characters long`;
  }
  const l = args.limit;
  if (l !== undefined && l !== null && l !== "") {
    const n = typeof l === "number"
      ? l
      : typeof l === "string" && /^\s*\d+\s*$/.test(l)
      ? Number(l)
      : NaN;
    if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) {
      const got = typeof l === "number" || typeof l === "string" ? String(l).slice(0, 40) : kind(l);
      return `limit takes a whole number from 1 to ${MAX_LIMIT} (got ${got})`;
    }
  }
  return undefined;
}

/**
 * The `error` argument as used: whole up to 1 MiB, else its start and its end, as `deja fix`
 * reads one (trial 38: cut to its first 2,000 characters, a command's output that ended in
 * the error was answered "no line of that text reports an error").
 */
export function errorArg(v: string): string {
  return errorTextWithin(v) ?? v;
}

/** `v` with every string in it, object keys too, whole UTF-16: a lone surrogate is U+FFFD. */
function wellFormed(v: unknown): unknown {
  if (typeof v === "string") return v.toWellFormed();
  if (Array.isArray(v)) return v.map(wellFormed);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k.toWellFormed(), wellFormed(x)]),
    );
  }
  return v;
}

/** The tool's arguments as read: each text with any lone surrogate made U+FFFD. */
export function wellFormedArgs(args: Record<string, unknown>): Record<string, unknown> {
  return wellFormed(args) as Record<string, unknown>;
}
