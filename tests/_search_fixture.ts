/**
 * Test support for search: sessions written as JSON documents and indexed by
 * the real indexer through a small parser (`mem`), so ingest, redaction, the
 * vocabulary and the forget gate all run as they do for a harness.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Env, Event, Parser, Session, SourceRef } from "../core/model.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { listFiles } from "../core/fs.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

/** A session to write: events as `[kind, text]` pairs (or whole events). */
export interface MemSession {
  id: string;
  harness?: string;
  project?: string;
  parent?: string;
  /** The session's title (a session field, not an event). */
  title?: string;
  /**
   * Epoch ms of the first event (default 2026-11-01); events follow a minute apart.
   * `null`: an undated session (no time on it or its events).
   */
  at?: number | null;
  /**
   * Epoch ms of a store file's mtime that dates the session (`timeFromFile`: the store records
   * no time, lib/session_time.ts); its events have no time. Overrides `at`. The file is the
   * session's own unless `sharedFile`.
   */
  fileTime?: number;
  /** The file `fileTime` is of holds many sessions (a prompt history): the session is undated. */
  sharedFile?: boolean;
  /** Epoch ms of its last activity, when not a minute after its last event (a long session). */
  updated?: number;
  events: Array<[Event["kind"], string] | Event>;
}

/** Reads `<root>/*.json`, one session per file. */
export function memParser(root: string, id = "mem"): Parser {
  return {
    id,
    async discover() {
      const files = await listFiles(root, { match: (_p, n) => n.endsWith(".json") });
      return {
        roots: [root],
        sources: files.map((path): SourceRef => ({ harness: id, path, kind: "document" })),
      };
    },
    async *parse(src: SourceRef): AsyncGenerator<Session> {
      const s = JSON.parse(readFileSync(src.path, "utf8")) as Session;
      yield { ...s, path: src.path };
    },
  };
}

/** A temporary index holding `sessions`, and a way to add more and re-index. */
export async function memIndex(sessions: MemSession[], vars: Record<string, string> = {}) {
  const dir = tempDir("deja-search-");
  const root = join(dir, "store");
  mkdirSync(root);
  const env: Env = testEnv(join(dir, "home"), { DEJA_HOME: join(dir, "deja"), ...vars });
  const parsers = [memParser(root), memParser(root, "deja")];
  const write = (list: MemSession[]) => {
    for (const m of list) {
      const harness = m.harness ?? "mem";
      const at = m.at === null || m.fileTime !== undefined
        ? undefined
        : m.at ?? Date.parse("2026-11-01T10:00:00Z");
      const events = m.events.map((e, i): Event =>
        Array.isArray(e)
          ? { kind: e[0], text: e[1], ...(at === undefined ? {} : { time: at + i * 60e3 }) }
          : e
      );
      const s: Session = {
        harness,
        id: m.id,
        project: m.project ?? "/home/dev/work/app",
        ...(m.parent ? { parent: m.parent } : {}),
        ...(m.title ? { title: m.title } : {}),
        started: at ?? m.fileTime,
        updated: m.updated ?? (at === undefined ? m.fileTime : at + events.length * 60e3),
        ...(m.fileTime !== undefined
          ? { timeFromFile: m.sharedFile ? "shared" as const : true }
          : {}),
        path: "",
        events,
      };
      // One parser per harness reads its own files: `deja` sessions are notes.
      writeFileSync(join(root, `${harness}--${m.id}.json`), JSON.stringify(s));
    }
  };
  const both: Parser[] = [
    { ...parsers[0], discover: filtered(parsers[0], "mem--") },
    { ...parsers[1], discover: filtered(parsers[1], "deja--") },
  ];
  const index = async () => {
    await runIndex(env, both);
  };
  write(sessions);
  await index();
  return {
    dir,
    env,
    root,
    open: () => Store.open(indexPath(env)),
    /** Writes more (or changed) sessions and runs the indexer again. */
    async add(more: MemSession[]) {
      write(more);
      await index();
    },
    reindex: index,
    /** The parsers the index was built with (for freshen). */
    parsers: both,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function filtered(p: Parser, prefix: string): Parser["discover"] {
  return async (ctx) => {
    const d = await p.discover(ctx);
    return { ...d, sources: d.sources.filter((s) => s.path.split("/").pop()!.startsWith(prefix)) };
  };
}

/** The store of a {@link memIndex}, opened. */
export type MemStore = ReturnType<Awaited<ReturnType<typeof memIndex>>["open"]>;

/** Runs `fn` on an opened temporary index of `sessions`, then closes and removes it. */
export async function withMemIndex(sessions: MemSession[], fn: (s: MemStore) => void) {
  const ix = await memIndex(sessions);
  const s = ix.open();
  try {
    fn(s);
  } finally {
    s.close();
    ix.cleanup();
  }
}
