/**
 * A Codex parent known only from the copy of its history in its fork's rollout (trial 103
 * F11: `ctx 019d9249` gave a mid-task line as the Outcome, and `show` never said the parent's
 * own rollout is not in the store).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { parsers } from "../parsers/mod.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { showSession, showText } from "../lib/cli/cmd_show.ts";
import { sessionDigest } from "../lib/memory/digest.ts";
import { rowId } from "./_memory.ts";

const FIXTURE = join(import.meta.dirname!, "..", "fixtures/registry/codex");
const A = "019fb79d-cd00-7a11-8a11-0000000000a1";
const E = "019fb7a2-60e0-7e11-8e11-0000000000e1";
const E_FILE = `archived_sessions/rollout-2026-07-31T12-05-00-${E}.jsonl`;

Deno.test("a parent read from its fork's copy is said to be known only from that copy", async () => {
  const root = tempDir("deja-copied-");
  const codex = join(root, "codex");
  mkdirSync(dirname(join(codex, E_FILE)), { recursive: true });
  copyFileSync(join(FIXTURE, E_FILE), join(codex, E_FILE));
  const env = testEnv(join(root, "home"), {
    DEJA_HOME: join(root, "deja"),
    DEJA_CODEX_ROOT: codex,
  });
  await runIndex(env, parsers, { only: ["codex"] });
  const store = Store.open(indexPath(env));
  try {
    const parent = showSession(store, A);
    assertEquals(parent.copiedIn?.id, E);
    const text = showText(parent, { isTTY: false, env }, false);
    assertStringIncludes(text, "known only from the copy of its history in session");
    // The fork is read from its own rollout.
    assertEquals(showSession(store, E).copiedIn, undefined);
    const d = sessionDigest(store, rowId(store, A));
    assert(d.outcome?.startsWith("Known only from the copy of its history"), d.outcome ?? "");
    assertEquals(sessionDigest(store, rowId(store, E)).outcome?.startsWith("Known"), false);
  } finally {
    store.close();
  }
});
