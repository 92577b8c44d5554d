import { assertEquals } from "../tests/_assert.ts";
import { mergeChunks } from "./merge.ts";
import type { Session } from "../core/model.ts";

const T = Date.parse("2026-04-20T03:56:46.630Z");

Deno.test("a prompt history's chunk adds to a session a transcript began only the prompts it lacks", () => {
  const rollout: Session = {
    harness: "codex",
    id: "t1",
    path: "/c/rollout.jsonl",
    title: "Vault",
    events: [
      { kind: "user", text: "Hello?", time: T },
      { kind: "notice", text: "Error: no model", time: T + 1295 },
    ],
  };
  const history: Session = {
    harness: "codex",
    id: "t1",
    path: "/c/history.jsonl",
    prompts: true,
    started: T - 630,
    updated: T + 60_000,
    events: [
      { kind: "user", text: "Hello?", time: T - 630 },
      { kind: "user", text: "Hello?", time: T + 60_000 },
    ],
  };
  const [s] = mergeChunks([rollout, history]);
  assertEquals(s.path, "/c/rollout.jsonl");
  assertEquals(s.started, undefined);
  assertEquals(s.events.map((e) => [e.text, e.time]), [
    ["Hello?", T],
    ["Error: no model", T + 1295],
    ["Hello?", T + 60_000],
  ]);
});
