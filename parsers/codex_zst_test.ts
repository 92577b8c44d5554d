import { assert, assertEquals } from "../tests/_assert.ts";
import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { zstdCompressSync } from "node:zlib";
import { join } from "node:path";
import { codex } from "./codex.ts";
import { runParser, testEnv } from "../tests/_fixture.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { tempDir } from "../tests/_tmp.ts";

// Codex (codex-rs `rollout/src/compression.rs`) compresses rollouts older than seven days to
// `rollout-*.jsonl.zst` beside where the plain file was, and decompresses one back to plain
// `.jsonl` to append a turn; readers prefer the plain file when both exist.

const ID = "019fb79d-cd00-7a11-8a11-00000000c0de";
const NAME = `rollout-2026-07-01T09-00-00-${ID}.jsonl`;

function records(turns: number, id = ID): string[] {
  const out = [
    {
      timestamp: "2026-07-01T09:00:00.000Z",
      type: "session_meta",
      payload: { id, cwd: "/work/zst", cli_version: "0.180.0" },
    },
  ];
  for (let i = 1; i <= turns; i++) {
    const timestamp = `2026-07-01T09:0${i}:00.000Z`;
    out.push({
      timestamp,
      type: "response_item",
      payload: {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: `ask ${i} quokka` }],
      },
    } as never);
    out.push({
      timestamp,
      type: "response_item",
      payload: {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: `answer ${i}` }],
      },
    } as never);
  }
  return out.map((r) => JSON.stringify(r) + "\n");
}

/** Compresses `lines` as one zstd frame per chunk of `perFrame` lines (multi-frame like an appender). */
function zst(lines: string[], perFrame = 2): Uint8Array {
  const frames: Uint8Array[] = [];
  for (let i = 0; i < lines.length; i += perFrame) {
    frames.push(zstdCompressSync(new TextEncoder().encode(lines.slice(i, i + perFrame).join(""))));
  }
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    out.set(f, at);
    at += f.length;
  }
  return out;
}

function setup() {
  const root = tempDir("deja-codex-zst-");
  const env = testEnv(join(root, "home"), {
    DEJA_CODEX_ROOT: join(root, "codex"),
    DEJA_HOME: join(root, "data"),
  });
  const day = join(root, "codex", "sessions", "2026", "07", "01");
  mkdirSync(day, { recursive: true });
  mkdirSync(join(root, "codex", "archived_sessions"), { recursive: true });
  return { root, env, day, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

function indexed(env: ReturnType<typeof testEnv>) {
  const s = Store.open(indexPath(env));
  try {
    const sessions = s.db.prepare("SELECT native_id, source FROM sessions").all() as Array<
      { native_id: string; source: string }
    >;
    const texts = (s.db.prepare("SELECT text FROM events ORDER BY session_id, seq").all() as Array<
      { text: string }
    >).map((r) => r.text);
    return { sessions, texts };
  } finally {
    s.close();
  }
}

Deno.test("a compressed rollout is found and read whole when Codex wrote it in several zstd frames", async () => {
  const t = setup();
  try {
    writeFileSync(join(t.day, NAME + ".zst"), zst(records(3)));
    const archived = `rollout-2026-06-01T09-00-00-019fb79d-cd00-7a11-8a11-00000000beef.jsonl.zst`;
    writeFileSync(
      join(t.root, "codex", "archived_sessions", archived),
      zst(records(1, "019fb79d-cd00-7a11-8a11-00000000beef"), 5),
    );
    const run = await runParser(codex, t.env);
    assertEquals(run.discovery.sources.map((s) => s.kind), ["document", "document"]);
    const s = run.sessions.find((x) => x.id === ID)!;
    assertEquals(s.project, "/work/zst");
    assertEquals(s.events.map((e) => e.text), [
      "ask 1 quokka",
      "answer 1",
      "ask 2 quokka",
      "answer 2",
      "ask 3 quokka",
      "answer 3",
    ]);
    assertEquals(run.errors, {});
  } finally {
    t.cleanup();
  }
});

Deno.test("the .zst sibling is not listed when the plain rollout exists beside it", async () => {
  const t = setup();
  try {
    writeFileSync(join(t.day, NAME), records(2).join(""));
    writeFileSync(join(t.day, NAME + ".zst"), zst(records(2)));
    const run = await runParser(codex, t.env);
    assertEquals(run.discovery.sources.map((s) => s.path), [join(t.day, NAME)]);
    assertEquals(run.sessions.length, 1);
  } finally {
    t.cleanup();
  }
});

Deno.test("a session is not doubled when its rollout is compressed, then decompressed to append a turn", async () => {
  const t = setup();
  try {
    const plain = join(t.day, NAME);
    writeFileSync(plain, records(2).join(""));
    await runIndex(t.env, [codex]);
    assertEquals(indexed(t.env).texts.length, 4);

    // Codex compresses the cold rollout and removes the plain file.
    writeFileSync(plain + ".zst", zst(records(2)));
    unlinkSync(plain);
    await runIndex(t.env, [codex]);
    let got = indexed(t.env);
    assertEquals(got.sessions, [{ native_id: ID, source: plain + ".zst" }]);
    assertEquals(got.texts.length, 4);

    // Resumed: Codex decompresses it back to plain and appends a turn.
    writeFileSync(plain, records(3).join(""));
    unlinkSync(plain + ".zst");
    await runIndex(t.env, [codex]);
    got = indexed(t.env);
    assertEquals(got.sessions, [{ native_id: ID, source: plain }]);
    assertEquals(got.texts.filter((x) => x.startsWith("ask")), [
      "ask 1 quokka",
      "ask 2 quokka",
      "ask 3 quokka",
    ]);
    const s = Store.open(indexPath(t.env));
    try {
      const rows = s.db.prepare("SELECT path FROM sources").all() as Array<{ path: string }>;
      assertEquals(rows.map((r) => r.path), [plain]);
    } finally {
      s.close();
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("a compressed rollout is re-read whole when it changes", async () => {
  const t = setup();
  try {
    const path = join(t.day, NAME + ".zst");
    writeFileSync(path, zst(records(1)));
    await runIndex(t.env, [codex]);
    writeFileSync(path, zst(records(2)));
    await runIndex(t.env, [codex]);
    assertEquals(indexed(t.env).texts, ["ask 1 quokka", "answer 1", "ask 2 quokka", "answer 2"]);
    assert(readFileSync(path).length > 0);
  } finally {
    t.cleanup();
  }
});
