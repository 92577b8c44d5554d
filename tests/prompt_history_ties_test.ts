/**
 * A session fed by two stores: a Codex rollout and the prompt history (`history.jsonl`) tied
 * to it by the thread id, or two rollouts of one thread (lib/ingest.ts). Regressions of trial
 * 14: each `deja index --rebuild` appended the session's events again (3 -> 6 -> 9 -> 12), and
 * a fresh index showed the prompt twice (the rollout's, then the history's, out of order),
 * with the history named as the session's source.
 */
import { assert, assertEquals } from "./_assert.ts";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_cli_io.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

const ID = "019da908-0000-7000-8000-00000000a001";
const T0 = Date.parse("2026-04-20T03:56:46.630Z");

const iso = (ms: number) => new Date(ms).toISOString();
const meta = (id: string) => ({
  timestamp: iso(T0 - 1000),
  type: "session_meta",
  payload: { id, timestamp: iso(T0 - 7000), cwd: "/w/vault", cli_version: "0.121.0" },
});
const said = (role: string, text: string, at: number) => ({
  timestamp: iso(at),
  type: "response_item",
  payload: { type: "message", role, content: [{ type: "input_text", text }] },
});
const failed = (message: string, at: number) => ({
  timestamp: iso(at),
  type: "event_msg",
  payload: { type: "error", message },
});
/** A `history.jsonl` line: `ts` in seconds, as Codex writes it. */
const prompt = (id: string, text: string, at: number) => ({
  session_id: id,
  ts: Math.floor(at / 1000),
  text,
});

function codexWorld() {
  const dir = tempDir("deja-ph-ties-");
  const root = join(dir, "codex");
  const day = join(root, "sessions", "2026", "04", "20");
  mkdirSync(root, { recursive: true });
  const vars = {
    HOME: join(dir, "home"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CODEX_ROOT: root,
    XDG_DATA_HOME: join(dir, "xdg"),
    XDG_CONFIG_HOME: join(dir, "xdg"),
    XDG_STATE_HOME: join(dir, "xdg"),
    DEJA_NO_REFRESH: "1",
    TZ: "UTC",
  };
  const write = (path: string, lines: unknown[]) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, lines.map((l) => JSON.stringify(l) + "\n").join(""));
  };
  const index = async (...extra: string[]) => {
    const r = await runMain(testEnv(vars.HOME, vars), ["index", ...extra], "", vars.HOME);
    assert(r.code === 0 || r.code === 3, r.err);
  };
  /** The session's source (relative to the Codex root) and its events' kinds and texts, in order. */
  const session = (id = ID) => {
    const idx = new DatabaseSync(join(vars.DEJA_HOME, "index.db"), { readOnly: true });
    try {
      const s = idx.prepare("SELECT id, source, events FROM sessions WHERE native_id = ?").get(
        id,
      ) as { id: number; source: string; events: number } | undefined;
      if (!s) return undefined;
      const events = idx.prepare("SELECT kind, text FROM events WHERE session_id = ? ORDER BY seq")
        .all(s.id) as { kind: string; text: string }[];
      const total = idx.prepare("SELECT count(*) AS n FROM events").get() as { n: number };
      return {
        source: s.source.slice(root.length + 1),
        counted: s.events,
        events: events.map((e) => `${e.kind}: ${e.text}`),
        total: total.n,
      };
    } finally {
      idx.close();
    }
  };
  return {
    root,
    day,
    history: join(root, "history.jsonl"),
    write,
    index,
    session,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const ERROR = "developer is not one of ['system', 'assistant', 'user']";

Deno.test("a rebuild of a rollout and the prompt history tied to it makes what the first index made", async () => {
  const w = codexWorld();
  try {
    // Named without the thread id (as a copied or renamed file is): the history's prompts of
    // the thread are read, and tie to the session the rollout holds. One of them the rollout
    // lacks (typed, then the rollout was cut off).
    w.write(join(w.day, "rollout-tui-ollama-error.jsonl"), [
      meta(ID),
      said("user", "Hello?", T0),
      failed(ERROR, T0 + 1295),
    ]);
    w.write(w.history, [
      prompt(ID, "Hello?", T0),
      prompt(ID, "are you there?", T0 + 60_000),
    ]);
    await w.index();
    const first = w.session()!;
    assertEquals(first.events, [
      "user: Hello?",
      `notice: Error: ${ERROR}`,
      "user: are you there?",
    ]);
    assertEquals(first.counted, 3);
    assertEquals(first.source, "sessions/2026/04/20/rollout-tui-ollama-error.jsonl");
    for (let i = 0; i < 3; i++) {
      await w.index("--rebuild");
      assertEquals(w.session(), first, `rebuild ${i + 1}`);
    }
    await w.index();
    assertEquals(w.session(), first, "a plain run after the rebuilds");
  } finally {
    w.cleanup();
  }
});

Deno.test("a prompt-history entry its session's rollout already holds adds nothing, within seconds of it", async () => {
  const w = codexWorld();
  try {
    w.write(join(w.day, "rollout-tui-ollama-error.jsonl"), [
      meta(ID),
      said("user", "Hello?", T0),
      failed(ERROR, T0 + 1295),
      said("user", "Hello?", T0 + 120_000),
    ]);
    // The history keeps whole seconds (03:56:46.000 for a prompt of 03:56:46.630); the same
    // text typed again two minutes later is another prompt, held by the rollout too.
    w.write(w.history, [prompt(ID, "Hello?", T0), prompt(ID, "  Hello?\n", T0 + 120_000)]);
    await w.index();
    const s = w.session()!;
    assertEquals(s.events, ["user: Hello?", `notice: Error: ${ERROR}`, "user: Hello?"]);
    assertEquals(s.source, "sessions/2026/04/20/rollout-tui-ollama-error.jsonl");
  } finally {
    w.cleanup();
  }
});

Deno.test("a rollout that appears after its prompt history was read takes the session, its prompt once", async () => {
  const w = codexWorld();
  try {
    w.write(w.history, [prompt(ID, "Hello?", T0)]);
    await w.index();
    assertEquals(w.session()!.source, "history.jsonl");
    assertEquals(w.session()!.events, ["user: Hello?"]);
    w.write(join(w.day, `rollout-2026-04-20T03-56-39-${ID}.jsonl`), [
      meta(ID),
      said("user", "Hello?", T0),
      said("assistant", "Hi, here.", T0 + 2000),
    ]);
    await w.index();
    const s = w.session()!;
    assertEquals(s.source, `sessions/2026/04/20/rollout-2026-04-20T03-56-39-${ID}.jsonl`);
    assertEquals(s.events, ["user: Hello?", "assistant: Hi, here."]);
    await w.index("--rebuild");
    assertEquals(w.session(), s);
  } finally {
    w.cleanup();
  }
});

Deno.test("a rebuild of two rollouts of one thread makes what the first index made", async () => {
  const w = codexWorld();
  try {
    // A thread continued in a second file (keyless events, so appended to the first's).
    w.write(join(w.day, "rollout-a.jsonl"), [
      meta(ID),
      said("user", "first question", T0),
      said("assistant", "first answer", T0 + 1000),
    ]);
    w.write(join(w.day, "rollout-b.jsonl"), [
      meta(ID),
      said("user", "second question", T0 + 60_000),
      said("assistant", "second answer", T0 + 61_000),
    ]);
    await w.index();
    const first = w.session()!;
    assertEquals(first.counted, 4);
    for (let i = 0; i < 2; i++) {
      await w.index("--rebuild");
      assertEquals(w.session(), first, `rebuild ${i + 1}`);
    }
  } finally {
    w.cleanup();
  }
});

Deno.test("a rollout moved (archived) is read again under its new path, not added to itself", async () => {
  const w = codexWorld();
  try {
    const name = "rollout-tui-ollama-error.jsonl";
    w.write(join(w.day, name), [meta(ID), said("user", "Hello?", T0), failed(ERROR, T0 + 1295)]);
    await w.index();
    const first = w.session()!;
    assertEquals(first.counted, 2);
    // Codex's archive moves the file into archived_sessions/ and keeps its name.
    const archived = join(w.root, "archived_sessions", name);
    mkdirSync(dirname(archived), { recursive: true });
    renameSync(join(w.day, name), archived);
    await w.index();
    const after = w.session()!;
    assertEquals(after.events, first.events);
    assertEquals(after.total, first.total);
    assertEquals(after.source, `archived_sessions/${name}`);
    await w.index("--rebuild");
    assertEquals(w.session(), after);
  } finally {
    w.cleanup();
  }
});

Deno.test("a second rollout of a thread whose first is deleted still adds to the session", async () => {
  const w = codexWorld();
  try {
    w.write(join(w.day, "rollout-a.jsonl"), [meta(ID), said("user", "first question", T0)]);
    await w.index();
    rmSync(join(w.day, "rollout-a.jsonl"));
    w.write(join(w.day, "rollout-b.jsonl"), [meta(ID), said("user", "second", T0 + 60_000)]);
    await w.index();
    // Not the same file moved (another name): the gone file's events are kept, as for any gone store.
    assertEquals(w.session()!.events, ["user: first question", "user: second"]);
  } finally {
    w.cleanup();
  }
});
