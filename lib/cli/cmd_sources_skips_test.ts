import { assert, assertEquals } from "../../tests/_assert.ts";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testEnv } from "../../tests/_fixture.ts";
import { claudeLine } from "../../tests/_memory.ts";
import { removeTemp, tempDir } from "../../tests/_tmp.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import { MAX_SKIPPED_AT, sourcesData, sourcesText } from "./cmd_sources.ts";

const claude = parsers.filter((p) => p.id === "claude");
const enc = new TextEncoder();

/** A user line (even numbers are user lines in claudeLine). */
const rec = (sid: string, i: number, text: string) => claudeLine(2 * i, text, sid);

Deno.test("sources names where records were skipped or repaired, and keeps them on the next index", async () => {
  const dir = tempDir("deja-skipsat-");
  try {
    const proj = join(dir, "projects", "-w-app");
    mkdirSync(proj, { recursive: true });
    const env = testEnv(join(dir, "home"), {
      DEJA_HOME: join(dir, "deja"),
      DEJA_CLAUDE_ROOT: join(dir, "projects"),
      DEJA_NO_REFRESH: "1",
    });
    const sid = "aaaaaaaa-0000-4000-8000-000000000001";
    const first = rec(sid, 1, "alpha");
    const [head, tail] = rec(sid, 3, "x MARK y").split("MARK");
    const path = join(proj, `${sid}.jsonl`);
    const badAt = enc.encode(first).length;
    const repairedAt = badAt + "{not json\n".length;
    writeFileSync(
      path,
      new Uint8Array([
        ...enc.encode(first + "{not json\n" + head),
        0xff,
        ...enc.encode(`zebra${tail}`),
      ]),
    );
    // Many bad stores: the harness lists a bounded number of places.
    for (let i = 0; i < 30; i++) {
      const id = `bbbbbbbb-0000-4000-8000-${String(i).padStart(12, "0")}`;
      // A record first: a file of nothing but a bad line is not JSONL at all (one not_jsonl).
      writeFileSync(join(proj, `${id}.jsonl`), rec(id, 1, "ok") + "{x\n");
    }
    await runIndex(env, claude);
    // Another store is added: the next run re-reads it, and the unchanged ones keep their places.
    writeFileSync(join(proj, "cccccccc-0000-4000-8000-000000000001.jsonl"), rec("c", 1, "new"));
    utimesSync(path, new Date(), new Date(Date.now() + 5000)); // touched, not changed
    await runIndex(env, claude);
    const d = await sourcesData(env);
    const h = d.harnesses.find((x) => x.harness === "claude")!;
    assertEquals(h.skipped_at.length, MAX_SKIPPED_AT);
    assert(h.skipped_at.includes(`malformed_json at ${path}@${badAt}`), h.skipped_at.join("\n"));
    assert(
      h.skipped_at.includes(
        `invalid_utf8 at ${path}@${repairedAt}: kept with replacement characters`,
      ),
      h.skipped_at.join("\n"),
    );
    const text = sourcesText(d, { isTTY: false, env }, true);
    assert(text.includes(`skipped malformed_json at ${path}@${badAt}\n`), text);
    assert(text.includes(`repaired invalid_utf8 at ${path}@${repairedAt}`), text);
    assert(/skipped: 31 malformed_json, repaired: 1 invalid_utf8/.test(text), text);
  } finally {
    removeTemp(dir);
  }
});

// Regression (2026-12, user trial): a Gemini checkpoint and a Claude Code "Warmup" agent file
// were left out with no word in `sources --verbose`.
Deno.test("sources says what it leaves out as not sessions, per kind, counted", async () => {
  const dir = tempDir("deja-notsess-");
  try {
    const proj = join(dir, "projects", "-w-app");
    mkdirSync(proj, { recursive: true });
    const sid = "dddddddd-0000-4000-8000-000000000001";
    writeFileSync(
      join(proj, "agent-a227a46.jsonl"),
      JSON.stringify({
        parentUuid: null,
        isSidechain: true,
        sessionId: sid,
        agentId: "a227a46",
        cwd: "/w/app",
        type: "user",
        message: { role: "user", content: "Warmup" },
        uuid: "w1",
        timestamp: "2026-01-12T19:39:59.649Z",
      }) + "\n",
    );
    const ckpt = join(dir, "gemini", "tmp", "p1", "checkpoints");
    mkdirSync(ckpt, { recursive: true });
    for (const n of ["a-DECISIONS.md-write_file.json", "b-x.ts-replace.json"]) {
      writeFileSync(join(ckpt, n), JSON.stringify({ clientHistory: [], toolCall: {} }));
    }
    const env = testEnv(join(dir, "home"), {
      DEJA_HOME: join(dir, "deja"),
      DEJA_CLAUDE_ROOT: join(dir, "projects"),
      DEJA_GEMINI_ROOT: join(dir, "gemini"),
      DEJA_NO_REFRESH: "1",
    });
    await runIndex(env, parsers.filter((p) => p.id === "claude" || p.id === "gemini"));
    const d = await sourcesData(env);
    const claudeH = d.harnesses.find((x) => x.harness === "claude")!;
    const geminiH = d.harnesses.find((x) => x.harness === "gemini")!;
    assertEquals(claudeH.skipped, { not_session: 1 });
    assertEquals(Object.values(geminiH.not_sessions), [2]);
    const text = sourcesText(d, { isTTY: false, env }, true);
    assert(text.includes("left out (not sessions): 1 not_session"), text);
    assert(text.includes("left out not_session at ") && text.includes("cache warm-up"), text);
    assert(/left out \(not sessions\): 2 checkpoint \(/.test(text), text);
    assert(!/skipped: .*not_session/.test(text), "not counted as lost records");
  } finally {
    removeTemp(dir);
  }
});
