/**
 * `deja forget --unforget` brings a session back whole and leaves every other session as it
 * was, including those whose events come from two stores (a Codex rollout and history.jsonl).
 */
import { assertEquals } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { runMain, withVars } from "./_cli_io.ts";

const A = "019d4024-0000-7000-8000-0000000000a1";
const B = "019da908-0000-7000-8000-0000000000b2";

/** A rollout of thread `id` in `cwd` with `model`: a prompt and a reply. */
function rollout(id: string, cwd: string, model: string, prompt: string, t: string): string {
  const at = (s: number) => new Date(Date.parse(t) + s * 1000).toISOString();
  return [
    { timestamp: at(0), type: "session_meta", payload: { id, timestamp: at(0), cwd } },
    { timestamp: at(1), type: "turn_context", payload: { cwd, model } },
    {
      timestamp: at(2),
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text: prompt }] },
    },
    {
      timestamp: at(3),
      type: "response_item",
      payload: {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: `reply to ${prompt}` }],
      },
    },
  ].map((r) => JSON.stringify(r) + "\n").join("");
}

interface Shown {
  project: string | null;
  model: string | null;
  events: Array<{ kind: string; text: string }>;
}

// Regression (2026-12, user trial): `forget --session codex:019d4024` then `--unforget` re-read
// history.jsonl whole, which replaced the sessions last written from it: 019da908 (rollout +
// history prompt, 3 events, project, model) came back as its history prompt alone (1 event, no
// project, no model), and `deja index` did not restore it.
Deno.test("unforget brings the session back whole and leaves the other sessions of its store whole", async () => {
  const root = tempDir("deja-unforget-");
  const codex = join(root, "codex");
  // Rollouts named without their thread id (as renamed copies are): history.jsonl's prompts
  // of both threads are read too and tie to the rollouts' sessions, which hold them already.
  const day = join(codex, "sessions", "2026", "08", "01");
  mkdirSync(day, { recursive: true });
  writeFileSync(
    join(day, "rollout-a.jsonl"),
    rollout(A, "/w/alpha", "gpt-a", "alpha plan", "2026-08-01T09:00:00Z"),
  );
  writeFileSync(
    join(day, "rollout-b.jsonl"),
    rollout(B, "/w/beta", "gpt-b", "beta plan", "2026-08-01T10:00:00Z"),
  );
  writeFileSync(
    join(codex, "history.jsonl"),
    [
      { session_id: A, ts: Date.parse("2026-08-01T09:00:02Z") / 1000, text: "alpha plan" },
      { session_id: B, ts: Date.parse("2026-08-01T10:00:02Z") / 1000, text: "beta plan" },
    ].map((r) => JSON.stringify(r) + "\n").join(""),
  );
  const env = withVars(
    testEnv(join(root, "home"), {
      DEJA_HOME: join(root, "deja"),
      DEJA_CODEX_ROOT: codex,
      TZ: "UTC",
    }),
    { DEJA_NO_REFRESH: "1" },
  );
  const show = async (id: string): Promise<Shown> => {
    const r = await runMain(env, ["show", `codex:${id}`, "--json"]);
    assertEquals(r.code, 0, r.err);
    const s = JSON.parse(r.out);
    return {
      project: s.project,
      model: s.model,
      events: s.events.map((e: { kind: string; text: string }) => ({ kind: e.kind, text: e.text })),
    };
  };
  const ix = await runMain(env, ["index", "--harness", "codex"]);
  assertEquals(ix.code, 0, ix.err);
  const a0 = await show(A), b0 = await show(B);
  assertEquals([b0.project, b0.model], ["/w/beta", "gpt-b"]);
  // The history's prompt is the rollout's (session 14): not held twice.
  assertEquals(b0.events, [
    { kind: "user", text: "beta plan" },
    { kind: "assistant", text: "reply to beta plan" },
  ]);

  const f = await runMain(env, ["forget", "--session", `codex:${A.slice(0, 8)}`]);
  assertEquals(f.code, 0, f.err);
  const u = await runMain(env, ["forget", "--unforget", `codex:${A.slice(0, 8)}`]);
  assertEquals(u.code, 0, u.err);

  assertEquals(await show(B), b0, "the other session keeps its rollout events, project and model");
  assertEquals(await show(A), a0, "the unforgotten session is back whole");
  // A later index leaves both as they are.
  assertEquals((await runMain(env, ["index", "--harness", "codex"])).code, 0);
  assertEquals(await show(B), b0);
  assertEquals(await show(A), a0);
});
