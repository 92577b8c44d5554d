/**
 * The fuzz suite's engine: one generated store per format kind (JSONL, JSON
 * document, Markdown, SQLite, zstd), each record carrying a marker `FZ<n>Q`,
 * damaged by a seeded mutation (tests/_mutate.ts) and parsed in a child
 * process (one per kind) under a time limit. A record is intact when the mutation left its
 * bytes alone; for the kinds in {@link ASSERTED} every intact record must
 * still come out of the parse.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { zstdCompressSync } from "node:zlib";
import { REPO } from "./_fixture.ts";
import {
  mutate,
  type Mutation,
  rng,
  SQLITE_MUTATIONS,
  TEXT_MUTATIONS,
  ZSTD_MUTATIONS,
} from "./_mutate.ts";
import { tempDir } from "./_tmp.ts";

/** A generated store: its file, parser, and each record's marker and byte span. */
interface Store {
  parser: string;
  rel: string;
  kind: "append" | "document" | "sqlite";
  bytes: Uint8Array;
  /** `needs`: other byte spans the record cannot be read without (a SQLite row's session row). */
  records: Array<{ marker: string; start: number; end: number; needs?: Array<[number, number]> }>;
  /** Mutations start at or after this byte (a header the format cannot do without). */
  minAt: number;
}

const enc = new TextEncoder();
const T0 = Date.parse("2026-03-01T10:00:00Z");

/** Records from pieces of text: each piece's span in the joined text. */
function spans(head: string, pieces: string[], sep: string, tail: string, markers: string[]) {
  let at = enc.encode(head).length;
  const records = pieces.map((p, i) => {
    const start = at;
    at += enc.encode(p).length + enc.encode(sep).length;
    return { marker: markers[i], start, end: start + enc.encode(p).length };
  });
  return { text: head + pieces.join(sep) + tail, records };
}

export const GEN: Record<string, (n: number, base: number) => Store> = {
  jsonl(n, base) {
    const meta = JSON.stringify({
      timestamp: new Date(T0).toISOString(),
      type: "session_meta",
      payload: {
        id: "0a0a0a0a-1111-4222-8333-44444444fz01",
        timestamp: new Date(T0).toISOString(),
        cwd: "/w",
      },
    });
    const markers = Array.from({ length: n }, (_, i) => `FZ${base + i}Q`);
    const lines = markers.map((m, i) =>
      JSON.stringify({
        timestamp: new Date(T0 + i * 1000).toISOString(),
        type: "response_item",
        payload: {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: `ask ${m}` }],
        },
      })
    );
    const { text, records } = spans(meta + "\n", lines, "\n", "\n", markers);
    return {
      parser: "codex",
      rel:
        "sessions/2026/03/01/rollout-2026-03-01T10-00-00-0a0a0a0a-1111-4222-8333-44444444fz01.jsonl",
      kind: "append",
      bytes: enc.encode(text),
      records,
      minAt: meta.length + 1,
    };
  },
  json_doc(n, base) {
    const markers = Array.from({ length: n }, (_, i) => `FZ${base + i}Q`);
    const msgs = markers.map((m, i) =>
      "    " + JSON.stringify(
        {
          id: `m${i}`,
          timestamp: new Date(T0 + i * 1000).toISOString(),
          type: "user",
          content: [{ text: `ask ${m}` }],
        },
        null,
        2,
      ).replaceAll("\n", "\n    ")
    );
    const head =
      `{\n  "sessionId": "5e5e5e5e-0000-4000-8000-0000000000f1",\n  "projectHash": "p",\n` +
      `  "startTime": "${new Date(T0).toISOString()}",\n  "messages": [\n`;
    const { text, records } = spans(head, msgs, ",\n", '\n  ],\n  "kind": "main"\n}\n', markers);
    return {
      parser: "gemini",
      rel: "tmp/p/chats/session-fz.json",
      kind: "document",
      bytes: enc.encode(text),
      records,
      minAt: head.length,
    };
  },
  json_array(n, base) {
    const markers = Array.from({ length: n }, (_, i) => `FZ${base + i}Q`);
    const items = markers.map((m, i) =>
      JSON.stringify({
        role: i % 2 ? "assistant" : "user",
        content: [{ type: "text", text: `say ${m}` }],
        ts: T0 + i,
      })
    );
    const { text, records } = spans("[", items, ",", "]", markers);
    return {
      parser: "cline",
      rel: "tasks/1795000000000/api_conversation_history.json",
      kind: "document",
      bytes: enc.encode(text),
      records,
      minAt: 1,
    };
  },
  markdown(n, base) {
    const markers = Array.from({ length: n }, (_, i) => `FZ${base + i}Q`);
    const blocks = markers.map((m, i) =>
      (i % 4 === 0 ? `# aider chat started at 2026-03-0${1 + (i % 8)} 10:00:00\n\n` : "") +
      `#### ask ${m}\n\nanswer for ${m}\n`
    );
    const { text, records } = spans("", blocks, "\n", "", markers);
    return {
      parser: "aider",
      rel: ".aider.chat.history.md",
      kind: "document",
      bytes: enc.encode(text),
      records,
      minAt: 0,
    };
  },
  sqlite(n, base) {
    const dir = tempDir("deja-fz-");
    try {
      const path = join(dir, "crush.db");
      const db = new DatabaseSync(path);
      const sql = readFileSync(
        join(REPO, "fixtures/registry/crush/projects/app/.crush/crush.db.sql"),
        "utf8",
      );
      db.exec(sql.replaceAll("@ROOT@", dir));
      const sid = `fzsession-${base}`;
      db.exec(
        `INSERT INTO sessions (id, title, updated_at, created_at) VALUES ('${sid}', 'fztitle-${base}', 1772355600, 1772355600)`,
      );
      const ins = db.prepare(
        "INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) VALUES (?, ?, 'user', ?, ?, ?)",
      );
      const markers = Array.from({ length: n }, (_, i) => `FZ${base + i}Q`);
      const parts = markers.map((m) =>
        JSON.stringify([{ type: "text", data: { text: `ask ${m} ${"pad ".repeat(60)}` } }])
      );
      markers.forEach((_m, i) =>
        ins.run(`fzmsg-${base}-${i}`, sid, parts[i], 1772355600 + i, 1772355600 + i)
      );
      db.close();
      const bytes = new Uint8Array(readFileSync(path));
      // A row's cell: its header just before the first value, through the last value after parts.
      const at = (t: string) => new TextDecoder("latin1").decode(bytes).indexOf(t);
      const cell = `${sid}fztitle-${base}`;
      const session: [number, number] = [at(cell) - 12, at(cell) + cell.length + 12];
      const records = markers.map((marker, i) => {
        const start = at(`fzmsg-${base}-${i}${sid}user`) - 12;
        return { marker, start, end: at(parts[i]) + parts[i].length + 20, needs: [session] };
      });
      return {
        parser: "crush",
        rel: "p/.crush/crush.db",
        kind: "sqlite",
        bytes,
        records,
        minAt: 4096,
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  zstd(n, base) {
    const markers = Array.from({ length: n }, (_, i) => `FZ${base + i}Q`);
    const id = "session-5e5e5e5e-0000-4000-8000-0000000000f2";
    const lines = [
      JSON.stringify({ type: "session", version: 0, id, createdAt: T0, cwd: "/w" }),
      ...markers.map((m, i) =>
        JSON.stringify({
          type: "user/message",
          seq: i,
          time: T0 + i,
          data: { content: [{ type: "text", text: `ask ${m}` }], source: { kind: "user" } },
        })
      ),
    ];
    // One frame per appended line, as DeepSeek Harness writes its log.
    const frames = lines.map((l) => new Uint8Array(zstdCompressSync(enc.encode(l + "\n"))));
    const bytes = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
    const ends: number[] = [];
    frames.reduce((at, f) => {
      bytes.set(f, at);
      ends.push(at + f.length);
      return at + f.length;
    }, 0);
    const head: [number, number] = [0, ends[0]];
    return {
      parser: "deepseek",
      rel: `--w--/${id}/session.jsonl.zstd`,
      kind: "document",
      bytes,
      records: markers.map((marker, i) => ({
        marker,
        start: ends[i],
        end: ends[i + 1],
        needs: [head],
      })),
      minAt: 4,
    };
  },
};

/** Format kinds whose intact records must all be read (the others are measured only). */
export const ASSERTED = new Set(["jsonl", "json_doc", "json_array", "markdown", "zstd"]);

const MUTATIONS: Record<string, readonly Mutation[]> = {
  jsonl: TEXT_MUTATIONS,
  json_doc: TEXT_MUTATIONS,
  json_array: TEXT_MUTATIONS,
  markdown: TEXT_MUTATIONS,
  sqlite: SQLITE_MUTATIONS,
  zstd: ZSTD_MUTATIONS,
};

/** What one fuzz run found. */
export interface FuzzFigures {
  stores: number;
  /** Intact records (marker bytes untouched) that were not read, per format kind. */
  lost: Record<string, number>;
  intact: Record<string, number>;
  /** zstd stores: markers read out of those written (compressed bytes have no record spans). */
  zstdRead: [number, number];
  /** Stores the parser gave up whole (reported by the indexer as an error of the store). */
  unreadable: number;
  hangs: number;
  crashes: number;
  /** Peak RSS of the worst parse, KiB (-1 when not measurable). */
  peakKiB: number;
  /** `kind/mutation seed: marker` for each loss, hang or crash (at most 20). */
  failures: string[];
}

/** Runs `perKind` mutated stores of every kind, seeded, each parse limited to `timeoutMs`. */
export function runFuzz(seed: number, perKind: number, timeoutMs = 20_000): FuzzFigures {
  const fig: FuzzFigures = {
    stores: 0,
    lost: {},
    intact: {},
    zstdRead: [0, 0],
    unreadable: 0,
    hangs: 0,
    crashes: 0,
    peakKiB: -1,
    failures: [],
  };
  const root = tempDir("deja-fuzz-");
  try {
    for (const [kind, gen] of Object.entries(GEN)) {
      // One child process per kind: a hang costs that batch, never the run.
      const batch: Array<{ store: Store; mut: ReturnType<typeof mutate>; tag: string }> = [];
      const args: string[] = [];
      for (let k = 0; k < perKind; k++) {
        const s = seed * 1000 + k;
        const rand = rng(s);
        const store = gen(8, s * 10);
        const list = MUTATIONS[kind];
        const m = list[k % list.length];
        const mut = mutate(store.bytes, m, rand, store.minAt);
        const path = join(root, `${kind}-${k}`, store.rel);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, mut.bytes);
        batch.push({ store, mut, tag: `${kind}/${m} seed ${s}` });
        args.push(store.parser, path, store.kind);
      }
      fig.stores += batch.length;
      const r = spawnSync(
        Deno.execPath(),
        ["run", "-A", "--quiet", join(REPO, "tests/_fuzz_worker.ts"), ...args],
        {
          timeout: timeoutMs * batch.length,
          encoding: "utf8",
          maxBuffer: 64 << 20,
          env: { ...Deno.env.toObject(), HOME: root, DEJA_HOME: root },
        },
      );
      const lines = String(r.stdout ?? "").trim().split("\n").filter((l) => l.startsWith("{"));
      batch.forEach(({ store, mut, tag }, i) => {
        if (i >= lines.length) {
          const hung = r.error || r.signal;
          if (hung) fig.hangs++;
          else fig.crashes++;
          if (i === lines.length) {
            fig.failures.push(
              `${tag}: ${hung ? "no answer in time" : String(r.stderr).split("\n")[0]}`,
            );
          }
          return;
        }
        const out = JSON.parse(lines[i]) as { found: string[]; hwm: number; error?: string };
        fig.peakKiB = Math.max(fig.peakKiB, out.hwm);
        if (out.error) fig.unreadable++;
        const found = new Set(out.found);
        if (kind === "zstd") fig.zstdRead = [fig.zstdRead[0] + found.size, fig.zstdRead[1] + 8];
        const clear = (start: number, end: number) =>
          end <= mut.from || start >= Math.max(mut.to, mut.from + 1);
        const intact = store.records.filter((rec) =>
          clear(rec.start, rec.end) && (rec.needs ?? []).every(([a, b]) => clear(a, b))
        );
        // SQLite refuses a store cut short whose header still counts the lost pages
        // (core/sqlite_salvage.ts): reported whole, measured apart.
        const refused = kind === "sqlite" && !!out.error;
        const as = refused ? "sqlite_refused" : kind;
        fig.intact[as] = (fig.intact[as] ?? 0) + intact.length;
        for (const rec of intact) {
          if (found.has(rec.marker)) continue;
          fig.lost[as] = (fig.lost[as] ?? 0) + 1;
          if (fig.failures.length < 20) fig.failures.push(`${tag}: ${rec.marker} lost`);
        }
      });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return fig;
}
