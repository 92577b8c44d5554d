import { assert, assertEquals } from "./_assert.ts";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { parsers } from "../parsers/mod.ts";
import { REPO, testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

/** Every row the index holds for the indexed sessions, ids and paths left out. */
function dump(home: string, root: string): unknown {
  const store = Store.open(indexPath(testEnv(home, { DEJA_HOME: join(home, "deja") })));
  try {
    const q = (sql: string) =>
      JSON.parse(JSON.stringify(store.db.prepare(sql).all()).replaceAll(root, "<root>"));
    return {
      sessions: q(
        "SELECT harness, native_id, project, title, started, updated, model, parent, events FROM sessions ORDER BY harness, native_id",
      ),
      events: q(
        "SELECT s.native_id, e.seq, e.kind, e.text, e.time, e.key, e.tool, e.call_id, e.data, e.flags FROM events e JOIN sessions s ON s.id = e.session_id ORDER BY s.native_id, e.seq",
      ),
      commands: q("SELECT command, exit, is_error FROM commands ORDER BY command"),
      files: q("SELECT path, op, old, new, failed FROM files ORDER BY path, op, id"),
      // Prepared in the worker: redaction counts, the vocabulary and the full-text index agree too.
      redactions: q("SELECT kind, count FROM redactions ORDER BY source, kind"),
      vocab: q("SELECT term FROM vocab ORDER BY term"),
      fts: q(
        "SELECT term, doc, cnt FROM events_vocab ORDER BY term",
      ),
      sources: q(
        "SELECT path, kind, size, offset, state, skipped, drift, error FROM sources ORDER BY path",
      ),
    };
  } finally {
    store.close();
  }
}

async function indexWith(worker: string, fixtureRoot: string): Promise<unknown> {
  const home = tempDir("deja-worker-");
  try {
    const root = join(home, "claude");
    cpSync(fixtureRoot, root, { recursive: true });
    // A secret the worker must redact and count as the writer would.
    const secretDir = join(root, "projects", "-tmp-secret");
    mkdirSync(secretDir, { recursive: true });
    const line = (uuid: string, content: string) =>
      JSON.stringify({
        type: "user",
        message: { role: "user", content },
        uuid,
        sessionId: "secret-1",
        cwd: "/tmp/secret",
        timestamp: "2025-01-01T00:00:00Z",
      });
    writeFileSync(
      join(secretDir, "secret-1.jsonl"),
      [
        line("u1", "deploy with key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789 now"),
        line("u2", "and password=Hunter2hunter2 for the box"),
      ].join("\n") + "\n",
    );
    const env = testEnv(home, {
      DEJA_HOME: join(home, "deja"),
      XDG_DATA_HOME: join(home, "xdg"),
      DEJA_CLAUDE_ROOT: join(root, "projects"),
      DEJA_PARSE_WORKER: worker,
    });
    const r = await runIndex(env, parsers, { only: ["claude"] });
    assert(r.harnesses[0].read > 0, "the fixture stores were read");
    assertEquals(r.harnesses[0].errors, []);
    return dump(home, root);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

Deno.test("index writes the same rows when sources are parsed in the worker thread as in process", async () => {
  const fixture = join(REPO, "fixtures/registry/claude");
  const inProcess = await indexWith("0", fixture);
  const inWorker = await indexWith("1", fixture);
  assertEquals(inWorker, inProcess);
  const redactions = (inWorker as { redactions: unknown[] }).redactions;
  assert(redactions.length >= 1, "the planted secrets were counted");
  assert(!JSON.stringify(inWorker).includes("abcdefghijklmnopqrstuvwxyz0123456789"), "redacted");
});

Deno.test("a worker leaves out only tokens the writer kept: words first seen in a session left out still reach the vocabulary", async () => {
  const vocabOf = async (worker: string) => {
    const home = tempDir("deja-worker-kept-");
    try {
      const root = join(home, "claude", "projects");
      // Excluded and kept projects sharing one word, the excluded ones read first (in path order);
      // each session has a word of its own too.
      for (let i = 0; i < 24; i++) {
        const project = i % 2 ? `/work/b-kept${i}` : `/work/a-secret${i}`;
        const dir = join(root, project.replaceAll("/", "-"));
        mkdirSync(dir, { recursive: true });
        const line = (uuid: string, content: string) =>
          JSON.stringify({
            type: "user",
            message: { role: "user", content },
            uuid,
            sessionId: `s-${i}`,
            cwd: project,
            timestamp: `2025-01-01T00:${String(i).padStart(2, "0")}:00Z`,
          });
        writeFileSync(
          join(dir, `s-${i}.jsonl`),
          [line(`u${i}a`, `the quokkaword appears here`), line(`u${i}b`, `only mine${i}x`)]
            .join("\n") + "\n",
        );
      }
      const env = testEnv(home, {
        DEJA_HOME: join(home, "deja"),
        XDG_DATA_HOME: join(home, "xdg"),
        XDG_CONFIG_HOME: join(home, "config"),
        DEJA_CLAUDE_ROOT: root,
        DEJA_PARSE_WORKER: worker,
        DEJA_EXCLUDE_PROJECTS: "/work/a-secret*",
      });
      const r = await runIndex(env, parsers, { only: ["claude"] });
      assertEquals(r.harnesses[0].errors, []);
      const store = Store.open(indexPath(env));
      try {
        return (store.db.prepare("SELECT term FROM vocab ORDER BY term").all() as {
          term: string;
        }[])
          .map((r) => r.term);
      } finally {
        store.close();
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  };
  const inWorker = await vocabOf("1");
  assert(inWorker.includes("quokkaword"), "the shared word is in the vocabulary");
  for (let i = 0; i < 24; i++) {
    assertEquals(inWorker.includes(`mine${i}x`), i % 2 === 1, `mine${i}x`);
  }
  assertEquals(inWorker, await vocabOf("0"));
});
