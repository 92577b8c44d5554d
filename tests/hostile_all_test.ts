/**
 * The hostile-input table run by EVERY parser: each registry harness's fixture
 * is laid out, discovery finds its stores, and one store of each format
 * (JSONL, JSON document, SQLite, Markdown) is replaced by a hostile version. The
 * agreed meanings (docs/registry/README.md "Hostile input"):
 *
 * - empty (no bytes): no session, skip reason `empty` counted once;
 * - a line of nothing but invalid UTF-8 at the start of a JSONL store: read
 *   with U+FFFD, not JSON, so counted once (`malformed_json`), the rest still
 *   read (bad bytes inside a record's text keep the record: parsers/_jsonl_test.ts);
 * - an unknown first record in a JSONL store: counted (never dropped
 *   silently), the rest still read;
 * - a truncated or corrupt JSON document: counted (`malformed_json` or
 *   `invalid_utf8`) or salvaged, never thrown;
 * - a corrupt or truncated SQLite store: a `StoreError` with reason `corrupt`
 *   (the indexer records it as the source's error and keeps what it had);
 * - oversized: a JSON document over its cap (a sparse 300 MiB file) is counted
 *   `oversized` without being read whole (a Gemini chat, a Cline-family task history are read in pieces: what
 *   they held is kept, the padding counted `malformed_json`), and a JSONL line over the line cap
 *   is counted `oversized` while the records before it are still read;
 * - locked: a SQLite store another process holds in an exclusive transaction
 *   is a source error that classifies as `locked` after the busy timeout;
 * - zstd: a compressed JSONL store cut mid-frame keeps the complete frames
 *   and counts the cut (never thrown).
 *
 * The per-format details (truncated tails left for the next pass, oversized
 * lines and documents) are in tests/_hostile.ts.
 */
import {
  closeSync,
  openSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import type { Session, SourceRef } from "../core/model.ts";
import { classify, StoreError } from "../core/sqlite_read.ts";
import { overrideVar } from "../core/paths.ts";
import { parsers } from "../parsers/mod.ts";
import { loadRegistry, type RegistryEntry } from "./_registry.ts";
import { materialize, parseOne, testEnv } from "./_fixture.ts";
import { assert, assertEquals } from "./_assert.ts";

/** The format of a store, as the table knows it. */
type Format = "jsonl" | "json" | "sqlite" | "markdown" | "zstd";

function formatOf(s: SourceRef): Format {
  if (s.kind === "sqlite") return "sqlite";
  if (s.path.endsWith(".zst")) return "zstd";
  if (s.path.endsWith(".md")) return "markdown";
  return s.kind === "append" || s.path.endsWith(".jsonl") ? "jsonl" : "json";
}
type Outcome = { sessions: Session[]; counts: Record<string, number> } | { error: unknown };

/** Stores whose meaning differs on purpose, with why. */
const EXCEPT: Record<string, string> = {
  // A Hermes JSON config naming a remote session database is `unsupported` whatever it holds.
  "hermes json": "remote",
  // A Cursor agent transcript is also a session from the global database's metadata.
  "cursor jsonl": "metadata",
  // A Gemini chat over its whole-read cap is read in pieces (parsers/gemini.ts): what it held
  // before the padding is kept, the padding counted malformed.
  "gemini json": "streamed",
  // So is a task history of the Cline family (parsers/_task_history.ts).
  "cline json": "streamed",
  "roo json": "streamed",
  "kilocode json": "streamed",
};

const enc = new TextEncoder();
const join2 = (a: Uint8Array, b: Uint8Array) => {
  const x = new Uint8Array(a.length + b.length);
  x.set(a);
  x.set(b, a.length);
  return x;
};
const garbage = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7919 + 13) % 251);

/** Over any document cap deja applies (64 MiB at most); sparse, so no disk is used. */
const HUGE = 300 * 2 ** 20;
/** Over the JSONL line cap (parsers/_jsonl.ts MAX_LINE_BYTES, 32 MiB). */
const LONG_LINE = 33 * 2 ** 20;

/**
 * A hostile case: `make` rewrites the store's bytes, or `apply` changes the
 * store at `path` in place and returns what undoes it after the parse (a lock
 * to release).
 */
interface Case {
  kinds: Format[];
  make?(b: Uint8Array): Uint8Array;
  apply?(path: string, kind: Format): (() => void) | void;
}

/** The hostile versions of a store of each kind, by case name. */
const CASES: Record<string, Case> = {
  empty: { kinds: ["jsonl", "json", "sqlite", "markdown"], make: () => new Uint8Array() },
  invalid_utf8: {
    kinds: ["jsonl"],
    make: (b) => join2(new Uint8Array([0xff, 0xfe, 0xff, 0x0a]), b),
  },
  unknown_first: {
    kinds: ["jsonl"],
    make: (b) => join2(enc.encode('{"type":"future-header","v":9}\n'), b),
  },
  truncated: { kinds: ["json", "sqlite"], make: (b) => b.slice(0, Math.ceil(b.length / 2)) },
  corrupt: { kinds: ["json", "sqlite"], make: (b) => garbage(Math.max(4096, b.length)) },
  oversized: {
    kinds: ["json", "jsonl"],
    apply(path, kind) {
      if (kind === "json") return truncateSync(path, HUGE);
      // One line of NUL bytes over the cap after the store's own lines, then a newline.
      const fd = openSync(path, "r+");
      try {
        writeSync(fd, new Uint8Array([10]), 0, 1, statSync(path).size + LONG_LINE);
      } finally {
        closeSync(fd);
      }
    },
  },
  locked: {
    kinds: ["sqlite"],
    apply(path) {
      const db = new DatabaseSync(path);
      db.exec("BEGIN EXCLUSIVE");
      return () => {
        db.exec("ROLLBACK");
        db.close();
      };
    },
  },
  zstd: { kinds: ["zstd"], make: (b) => b.slice(0, Math.max(1, b.length - 7)) },
};

/**
 * Parses `entry`'s first store of format `kind` as it is and after `make`
 * rewrote it; undefined when the fixture has no such store.
 */
async function hostile(
  entry: RegistryEntry,
  kind: Format,
  c: Case,
): Promise<{ base: Outcome; o: Outcome } | undefined> {
  const parser = parsers.find((p) => p.id === entry.id)!;
  const fx = materialize(entry.fixtureDir);
  try {
    const rel = entry.fixture_root.replace(`fixtures/registry/${entry.id}`, "").replace(/^\//, "");
    const env = testEnv(join(fx.root, "__home__"), {
      [overrideVar(entry.id)]: join(fx.root, rel),
      TZ: "UTC",
      DEJA_SQLITE_TIMEOUT_MS: "50",
    });
    const d = await parser.discover({ env, knownProjects: [join(fx.root, "known-project")] });
    const src = d.sources.find((s) => {
      if (formatOf(s) !== kind) return false;
      try {
        return statSync(s.path).isFile();
      } catch {
        return false;
      }
    });
    if (!src) return undefined;
    const run = async (): Promise<Outcome> => {
      try {
        const { sessions, ctx } = await parseOne(parser, src, env);
        return { sessions, counts: ctx.counts as Record<string, number> };
      } catch (error) {
        return { error };
      }
    };
    const base = await run();
    if (c.make) writeFileSync(src.path, c.make(readFileSync(src.path)));
    const undo = c.apply?.(src.path, kind);
    try {
      return { base, o: await run() };
    } finally {
      undo?.();
    }
  } finally {
    fx.cleanup();
  }
}

function check(id: string, kind: Format, name: string, base: Outcome, o: Outcome): void {
  const at = `${id} ${kind} ${name}`;
  if (name === "locked") {
    assert("error" in o, `${at}: a locked database is a source error`);
    assertEquals(classify(o.error), "locked", `${at}: ${o.error}`);
    return;
  }
  if (kind === "sqlite" && name !== "empty") {
    assert("error" in o, `${at}: a damaged database is a source error`);
    const e = o.error;
    assert(e instanceof StoreError && e.reason === "corrupt", `${at}: ${e}`);
    return;
  }
  assert(!("error" in o), `${at} threw: ${"error" in o ? o.error : ""}`);
  if (!("sessions" in o)) return;
  const c = o.counts;
  const b = "counts" in base ? base.counts : {};
  const total = (x: Record<string, number>) => Object.values(x).reduce((n, v) => n + v, 0);
  if (name === "empty") {
    if (EXCEPT[`${id} ${kind}`] !== "metadata") assertEquals(o.sessions.length, 0, at);
    if (EXCEPT[`${id} ${kind}`] !== "remote") assertEquals(c.empty, 1, at);
  } else if (name === "invalid_utf8") {
    const bad = (x: Record<string, number>) => (x.malformed_json ?? 0) + (x.invalid_utf8 ?? 0);
    assertEquals(bad(c), bad(b) + 1, `${at}: the bad line is counted once`);
  } else if (name === "oversized" && EXCEPT[`${id} ${kind}`] === "streamed") {
    assertEquals(c.malformed_json, (b.malformed_json ?? 0) + 1, `${at}: the padding is counted`);
    if ("sessions" in base) {
      assertEquals(o.sessions, base.sessions, `${at}: what came before it is read`);
    }
  } else if (name === "oversized" && EXCEPT[`${id} ${kind}`] !== "remote") {
    assert((c.oversized ?? 0) > (b.oversized ?? 0), `${at}: counted oversized`);
    if (kind === "jsonl" && "sessions" in base) {
      assertEquals(o.sessions.length, base.sessions.length, `${at}: the lines before are read`);
    }
  } else if (name === "oversized") {
    // A Hermes remote config is `unsupported` whatever it holds (EXCEPT).
  } else if (name === "zstd") {
    assert(total(c) > total(b), `${at}: the cut frame is counted`);
  } else if (name === "unknown_first") {
    assert(total(c) > total(b), `${at}: the unknown record is counted`);
  } else if (EXCEPT[`${id} ${kind}`] !== "remote") {
    const counted = (c.malformed_json ?? 0) + (c.invalid_utf8 ?? 0) + (c.unknown_record ?? 0);
    assert(counted > 0 || o.sessions.length > 0, `${at}: counted or salvaged`);
  }
}

for (const entry of loadRegistry()) {
  Deno.test(`${entry.id} meets the hostile-input table (empty, invalid UTF-8, unknown first record, truncated, corrupt, oversized, locked, zstd)`, async () => {
    for (const [name, c] of Object.entries(CASES)) {
      for (const kind of c.kinds) {
        const r = await hostile(entry, kind, c);
        if (r) check(entry.id, kind, name, r.base, r.o);
      }
    }
  });
}
