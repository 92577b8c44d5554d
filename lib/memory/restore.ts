/**
 * `restore`: the text agents replaced in a file (the old side of each edit)
 * and the content they wrote, newest first, so an earlier version of a span
 * can be got back.
 *
 * Rules: failed edits and writes are left out (nothing changed); an edit
 * whose old side is empty (text inserted, a new file) has nothing to give
 * back; the same text recorded twice for the same path is listed once, at its
 * newest place. Spans are numbered from 1, newest first.
 *
 * Only an edit's span is restorable: it is the text the file held before. A
 * write's span is the content the agent put in the file; what the file held
 * before it is unknown, so such a span is listed (`restorable: false`,
 * `unrestorable: "write"`) for reference and {@link writeSpan} refuses to
 * write it out as if it were the original. So is a span that is not the text
 * the file held because the index changed it: a secret replaced by
 * `[redacted:<kind>]` (`"redacted"`; written back, the placeholder would
 * stand where the key was) or a middle cut past the 1 MiB cap (`"cut"`).
 * Such a span can still be printed, to restore the rest by hand.
 *
 * @module
 */
import { existsSync, realpathSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { Q } from "../schema.ts";
import type { SessionRow } from "../rows.ts";
import { findTouches, type PathMatch } from "./paths.ts";
import { countsAsHidden } from "../search/sessions.ts";

/** One restorable span. */
export interface RestoreSpan {
  /** 1-based number, newest first (what `--span` takes). */
  n: number;
  /** `edit`: text an edit replaced; `write`: content a write put in the file. */
  op: "edit" | "write";
  /**
   * True when `text` is what the file held before (an edit's old side, as
   * indexed, unchanged); false otherwise, `unrestorable` says why.
   */
  restorable: boolean;
  /**
   * Why the span cannot be written back: `write` (what the file held before
   * the write is unknown), `redacted` (a secret in it was replaced at index
   * time), `cut` (its middle was cut at index time); null when restorable.
   */
  unrestorable: Unrestorable | null;
  /** Path as recorded. */
  path: string;
  /** The span's text, exactly as indexed. */
  text: string;
  /** Lines in `text`. */
  lines: number;
  /** UTF-8 bytes in `text`. */
  bytes: number;
  /** True when a secret in it was replaced by `[redacted:<kind>]` at index time. */
  redacted: boolean;
  /** True when the span was over the 1 MiB cap and its middle was cut at index time. */
  cut: boolean;
  /** Epoch ms, when known. */
  time: number | null;
  harness: string;
  /** Native id of the session. */
  session: string;
  /** Index row id of the session. */
  sessionRowId: number;
  /** Position of the call in its session. */
  seq: number;
}

/** Why a span cannot be written back (see {@link RestoreSpan.unrestorable}). */
export type Unrestorable = "write" | "redacted" | "cut";

/** What {@link listSpans} returns. */
export interface RestoreList {
  /** The path made absolute. */
  target: string;
  match: PathMatch | null;
  spans: RestoreSpan[];
  /** Sessions with spans of the file that were left out as `hidden`. */
  hidden: number;
}

const enc = new TextEncoder();

/** The restorable spans of the file `typed` names (matching: {@link findTouches}). */
export function listSpans(
  store: Store,
  typed: string,
  opts: {
    cwd: string;
    harness?: string[];
    project?: string;
    /** Row ids left out (the commands' rule: `defaultHidden`, lib/search/sessions.ts). */
    hidden?: Set<number>;
  },
): RestoreList {
  const m = findTouches(store, typed, opts.cwd);
  const ids = [...new Set(m.touches.map((t) => t.sessionId))];
  const sessions = new Map<number, SessionRow>();
  for (const s of Q.sessionsByIds.all(store, { ids: JSON.stringify(ids) })) {
    sessions.set(s.id, s);
  }
  const seen = new Set<string>();
  const spans: RestoreSpan[] = [];
  const hidden = new Set<number>();
  for (const t of m.touches) {
    if (t.failed || t.op === "read") continue;
    const s = sessions.get(t.sessionId);
    if (!s) continue;
    if (opts.hidden?.has(s.id)) {
      if (countsAsHidden(opts.hidden, s.id)) hidden.add(s.id);
      continue;
    }
    if (opts.harness?.length && !opts.harness.includes(s.harness)) continue;
    if (opts.project && !(s.project ?? "").includes(opts.project)) continue;
    const text = (t.op === "edit" ? t.old : t.new) ?? "";
    if (text === "") continue;
    const key = `${t.path}\u0000${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const redacted = /\[redacted:[a-z_]+\]/.test(text);
    const cut = /\n… \[\d+ characters cut\] …\n/.test(text);
    const unrestorable = t.op === "write" ? "write" : redacted ? "redacted" : cut ? "cut" : null;
    spans.push({
      n: spans.length + 1,
      op: t.op,
      restorable: unrestorable === null,
      unrestorable,
      path: t.path,
      text,
      lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0),
      bytes: enc.encode(text).length,
      redacted,
      cut,
      time: t.time,
      harness: s.harness,
      session: s.native_id,
      sessionRowId: s.id,
      seq: t.seq,
    });
  }
  return { target: m.target, match: m.match, spans, hidden: hidden.size };
}

/** Why a span cannot be written back, in words (`restorable: false`). */
export function unrestorableReason(why: Unrestorable): string {
  return why === "write"
    ? "it is the content a write put in the file; what the file held before that write is unknown"
    : why === "redacted"
    ? "a secret in it was replaced by [redacted:…] when it was indexed; written back, the " +
      "placeholder would stand where the secret was"
    : "its middle was cut when it was indexed (over 1 MiB); written back, the file would lose it";
}

/** The refusal to write a span that is not restorable. */
export function notRestorable(span: RestoreSpan): DejaError {
  const why = span.unrestorable ?? "write";
  return new DejaError(
    `span ${span.n} is not restorable: ${unrestorableReason(why)}`,
    why === "write"
      ? "only 'edit' spans hold the text a file had before; --span N without -o prints this one"
      : `--span ${span.n} without -o prints it to see; restore that part by hand`,
  );
}

function same(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * Writes `span.text` to `out` (relative to `cwd`), exactly.
 *
 * @param guard paths that must not be overwritten without `force` besides
 *   `out` itself when it exists: the file the span came from and the target
 *   the person typed.
 * @returns the absolute path written.
 * @throws {DejaError} (exit 2) when the span is not restorable (a write: the
 *   file's previous content is unknown; redacted or cut: the text is not what
 *   the file held), `force` or not; when `out` is the
 *   file the span came from, or exists, and `force` is not set; or when the
 *   write fails.
 */
export function writeSpan(
  span: RestoreSpan,
  out: string,
  opts: { cwd: string; force?: boolean; guard?: string[] },
): string {
  const path = resolve(opts.cwd, out);
  if (span.unrestorable) throw notRestorable(span);
  if (!opts.force) {
    for (const g of [span.path, ...(opts.guard ?? [])]) {
      if (same(path, g)) {
        throw new DejaError(
          `${path} is the file span ${span.n} came from`,
          "write it elsewhere and compare, or add --force to overwrite it",
        );
      }
    }
    if (existsSync(path)) {
      throw new DejaError(`${path} exists`, "choose another name, or add --force to overwrite it");
    }
  }
  try {
    writeFileSync(path, span.text, { flag: opts.force ? "w" : "wx" });
  } catch (e) {
    const code = (e as { code?: string }).code ?? (e as Error).message;
    throw new DejaError(
      `cannot write ${path}: ${code}`,
      code === "EEXIST" ? "add --force to overwrite it" : undefined,
    );
  }
  return path;
}
