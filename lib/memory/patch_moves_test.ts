/**
 * Codex `apply_patch` renames (`*** Move to:`) and deletions (`*** Delete File:`) as blame and
 * the digest tell them (trial 94 F2, F3: blame of the new name found nothing, of the deleted
 * file "no session touched", and the digest listed the old name as changed).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { showCmd } from "../cli/cmd_show.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { rowId } from "../../tests/_memory.ts";
import { tempDir } from "../../tests/_tmp.ts";
import { runIndex } from "../indexer.ts";
import { indexPath, Store } from "../store.ts";
import { parsers } from "../../parsers/mod.ts";
import { blame } from "./blame.ts";
import { sessionDigest } from "./digest.ts";
import { patchMoves } from "./moves.ts";

const ID = "019fc000-0000-7000-8000-0000000000f2";

/** A Codex rollout in `/w/p` whose patches rename, delete and fail to delete a file. */
function rollout(): string[] {
  let n = 0;
  const at = () => `2026-08-01T09:${String(n++).padStart(2, "0")}:00.000Z`;
  const line = (type: string, payload: unknown) =>
    JSON.stringify({ timestamp: at(), type, payload });
  const patch = (id: string, body: string, output: string) => [
    line("response_item", {
      type: "custom_tool_call",
      call_id: id,
      name: "apply_patch",
      input: `*** Begin Patch\n${body}\n*** End Patch\n`,
    }),
    line("response_item", { type: "custom_tool_call_output", call_id: id, output }),
  ];
  const ok = (files: string) =>
    `Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\n${files}\n`;
  return [
    line("session_meta", { id: ID, cwd: "/w/p" }),
    line("response_item", {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "rename the module and drop the old one" }],
    }),
    ...patch(
      "c1",
      "*** Update File: lib/old.js\n*** Move to: lib/new.js\n@@\n-oldcontent\n+newcontent",
      ok("M lib/new.js"),
    ),
    ...patch("c2", "*** Delete File: lib/gone.js", ok("D lib/gone.js")),
    ...patch(
      "c3",
      "*** Delete File: lib/kept.js",
      "apply_patch verification failed: Failed to delete file lib/kept.js",
    ),
    line("response_item", {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "Renamed it." }],
    }),
  ];
}

async function indexed() {
  const root = tempDir("deja-patch-moves-");
  const dir = join(root, "codex/sessions/2026/08/01");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `rollout-2026-08-01T09-00-00-${ID}.jsonl`), rollout().join("\n") + "\n");
  const env = testEnv(join(root, "home"), {
    DEJA_HOME: join(root, "deja"),
    DEJA_CODEX_ROOT: join(root, "codex"),
    TZ: "UTC",
  });
  await runIndex(env, parsers, { only: ["codex"] });
  const store = Store.open(indexPath(env));
  return {
    env,
    store,
    cleanup() {
      store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

Deno.test("patchMoves reads a patch's renames and deletions, and nothing else", () => {
  assertEquals(
    patchMoves(
      "*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-x\n+y\n" +
        "*** Delete File: c.ts\n*** Update File: d.ts\n@@\n-*** Move to: e.ts\n*** End Patch",
    ),
    { removed: ["c.ts"], moved: [["a.ts", "b.ts"]] },
  );
});

Deno.test("blame finds a Codex patch under the name it moved the file to, and says it moved the old one", async () => {
  const ix = await indexed();
  try {
    const neu = blame(ix.store, "lib/new.js", { cwd: "/w/p" });
    assertEquals(neu.sessions.map((s) => [s.session.native_id, s.edits, s.failed]), [[ID, 1, 0]]);
    const old = blame(ix.store, "lib/old.js", { cwd: "/w/p" });
    // The rename is no read (trial 97 F8: "1 read" of a file no call read).
    assertEquals(old.sessions.map((s) => [s.edits, s.reads, s.moved_to]), [[0, 0, "lib/new.js"]]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame says a Codex patch removed a file, and not when the deletion failed", async () => {
  const ix = await indexed();
  try {
    const gone = blame(ix.store, "lib/gone.js", { cwd: "/w/p" });
    assertEquals(gone.sessions.map((s) => [s.removed, s.reads]), [[true, 0]]);
    const kept = blame(ix.store, "lib/kept.js", { cwd: "/w/p" });
    assertEquals(kept.sessions.map((s) => [s.failed, s.removed]), [[1, undefined]]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("the digest lists a Codex patch's edit under the new name and the old name as moved", async () => {
  const ix = await indexed();
  try {
    const d = sessionDigest(ix.store, rowId(ix.store, ID), {});
    assertEquals(
      d.files.map((f) => [f.path, f.edits, f.moved_to]),
      [["/w/p/lib/new.js", 1, undefined], ["/w/p/lib/old.js", 0, "lib/new.js"]],
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("show says a patch deleted and renamed files, not that it read them (trial 97 F8)", async () => {
  const ix = await indexed();
  try {
    const c = captureIO(ix.env, false);
    assertEquals(await showCmd.run({ values: {}, positionals: [ID] }, c.io), 0);
    assertStringIncludes(c.out(), "rename /w/p/lib/old.js → /w/p/lib/new.js");
    assertStringIncludes(c.out(), "delete /w/p/lib/gone.js");
    assert(!/read \/w\/p\/lib\/(?:old|gone)\.js/.test(c.out()), c.out());
  } finally {
    ix.cleanup();
  }
});
