import { assertEquals } from "../tests/_assert.ts";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codex } from "./codex.ts";
import { runParser, testEnv } from "../tests/_fixture.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { tempDir } from "../tests/_tmp.ts";

// codex-rs writes `event_msg {type:"thread_rolled_back", num_turns}` when the user takes turns
// back; its history drops the last `num_turns` user turns (`drop_last_n_user_turns`).

const ID = "019fb79d-cd00-7a11-8a11-0000000000bb";
const NAME = `rollout-2026-07-02T09-00-00-${ID}.jsonl`;
const at = (i: number) => `2026-07-02T09:${String(i).padStart(2, "0")}:00.000Z`;
const line = (v: unknown) => JSON.stringify(v) + "\n";

const META = line({
  timestamp: at(0),
  type: "session_meta",
  payload: { id: ID, cwd: "/work/rb" },
});

/** One user turn: the roled items and the event_msg copies Codex also writes. */
function turn(i: number, text: string): string {
  return [
    { type: "event_msg", payload: { type: "user_message", message: text } },
    {
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text }] },
    },
    {
      type: "response_item",
      payload: {
        type: "function_call",
        name: "shell",
        call_id: `c${i}`,
        arguments: `{"command":["ls","${i}"]}`,
      },
    },
    {
      type: "response_item",
      payload: {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: `reply to ${text}` }],
      },
    },
  ].map((r) => line({ timestamp: at(i), ...r })).join("");
}

const rollback = (i: number, n: number) =>
  line({
    timestamp: at(i),
    type: "event_msg",
    payload: { type: "thread_rolled_back", num_turns: n },
  });

function setup() {
  const root = tempDir("deja-codex-rb-");
  const env = testEnv(join(root, "home"), {
    DEJA_CODEX_ROOT: join(root, "codex"),
    DEJA_HOME: join(root, "data"),
  });
  const day = join(root, "codex", "sessions", "2026", "07", "02");
  mkdirSync(day, { recursive: true });
  return {
    env,
    path: join(day, NAME),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

async function speech(env: ReturnType<typeof testEnv>): Promise<string[]> {
  const run = await runParser(codex, env);
  return run.sessions.flatMap((s) => s.events).filter((e) => e.kind !== "tool_call").map((e) =>
    e.text
  );
}

Deno.test("turns the user rolled back are dropped when a rollout has thread_rolled_back", async () => {
  const t = setup();
  try {
    writeFileSync(
      t.path,
      META + turn(1, "first wombat") + turn(2, "second wombat") + turn(3, "third wombat") +
        rollback(4, 2) + turn(5, "retry wombat"),
    );
    assertEquals(await speech(t.env), [
      "first wombat",
      "reply to first wombat",
      "retry wombat",
      "reply to retry wombat",
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a rollback of more turns than exist keeps only what came before the first turn", async () => {
  const t = setup();
  try {
    writeFileSync(t.path, META + turn(1, "only wombat") + rollback(2, 5) + turn(3, "fresh wombat"));
    assertEquals(await speech(t.env), ["fresh wombat", "reply to fresh wombat"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("an incremental index drops turns already indexed when a later rollback takes them back", async () => {
  const t = setup();
  try {
    writeFileSync(
      t.path,
      META + turn(1, "first wombat") + turn(2, "second wombat") + turn(3, "third wombat"),
    );
    await runIndex(t.env, [codex]);
    appendFileSync(t.path, rollback(4, 2) + turn(5, "retry wombat"));
    await runIndex(t.env, [codex]);
    const s = Store.open(indexPath(t.env));
    try {
      const rows = s.db.prepare(
        "SELECT kind, text FROM events WHERE kind IN ('user','assistant') ORDER BY seq",
      ).all() as Array<{ kind: string; text: string }>;
      assertEquals(rows.map((r) => r.text), [
        "first wombat",
        "reply to first wombat",
        "retry wombat",
        "reply to retry wombat",
      ]);
      const cmds = s.db.prepare("SELECT command FROM commands ORDER BY event_id").all() as Array<
        { command: string }
      >;
      assertEquals(cmds.map((c) => c.command), ["ls 1", "ls 5"]);
    } finally {
      s.close();
    }
  } finally {
    t.cleanup();
  }
});
