/**
 * What the hooks already told one agent session, so nothing is said twice:
 * a small JSON file per agent session id under `<data>/hooks/` (mode 0600),
 * holding the keys of what was shown (newest last, at most
 * {@link MAX_KEYS}) and, for Crush, which of the session's messages were
 * already followed up. At most {@link MAX_FILES} such files are kept; the
 * least recently used go first. Files are replaced atomically; two hooks of
 * one session racing can at worst repeat one item, never corrupt the file.
 *
 * @module
 */
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { readTextSync } from "../../core/fsread.ts";

/** Keys remembered per agent session. */
export const MAX_KEYS = 400;
/** Agent sessions remembered. */
export const MAX_FILES = 256;

/** Where the Crush hook is in one Crush session (message and call ids already followed up). */
export interface CrushCursor {
  /** The newest user message whose recall was delivered (or found empty). */
  user?: string;
  /** The call id of the newest failed command whose fix pair was delivered (or found empty). */
  fail?: string;
  /** The id of the newest summary message whose packet was delivered. */
  summary?: string;
}

/** The state of one agent session. */
export interface HookState {
  v: 1;
  /** Keys of what was shown, oldest first. */
  seen: string[];
  /** Crush only: present once the session's first call was handled. */
  crush?: CrushCursor;
}

/** A tiny 64-bit FNV-1a of `s` as 16 hex digits (file names; no crypto needed). */
export function fnv64(s: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  return h1.toString(16).padStart(8, "0") + h2.toString(16).padStart(8, "0");
}

/** The state file of agent session `sessionId` under the data directory `dir`. */
export function statePath(dir: string, sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 40);
  return join(dir, "hooks", `${safe}-${fnv64(sessionId)}.json`);
}

/** The session's state, or a fresh one when there is none or it is unreadable. */
export function loadState(path: string): HookState {
  try {
    const v = JSON.parse(readTextSync(path)) as Partial<HookState>;
    if (v && v.v === 1 && Array.isArray(v.seen)) {
      return {
        v: 1,
        seen: v.seen.filter((k) => typeof k === "string"),
        ...(v.crush && typeof v.crush === "object" ? { crush: v.crush } : {}),
      };
    }
  } catch { /* none yet, or damaged: start over */ }
  return { v: 1, seen: [] };
}

/**
 * Writes the state (keys beyond {@link MAX_KEYS} dropped, oldest first) and,
 * when the file is new, prunes the directory to {@link MAX_FILES} files.
 * Failures are swallowed: a hook that cannot remember still must not fail.
 */
export function saveState(path: string, state: HookState): void {
  try {
    const dir = join(path, "..");
    let fresh = false;
    try {
      statSync(path);
    } catch {
      fresh = true;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    }
    const seen = state.seen.slice(-MAX_KEYS);
    const tmp = `${path}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.tmp`;
    writeFileSync(tmp, JSON.stringify({ ...state, seen }), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
    if (fresh) prune(dir);
  } catch { /* best effort */ }
}

function prune(dir: string): void {
  const names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  if (names.length <= MAX_FILES) return;
  const aged = names.map((n) => {
    try {
      return { n, t: statSync(join(dir, n)).mtimeMs };
    } catch {
      return { n, t: 0 };
    }
  }).sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, names.length - MAX_FILES)) {
    rmSync(join(dir, n), { force: true });
  }
}
