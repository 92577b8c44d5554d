/**
 * Damaged stores lose only the damaged record (issue 14, item 2): one bad
 * byte in a Gemini CLI chat or a Cline task file used to drop the whole
 * session, and one damaged key in a forked Codex rollout's `task_started`
 * dropped the whole fork, and a damaged aider session header its session.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Parser, SourceRef } from "../core/model.ts";
import { gemini } from "../parsers/gemini.ts";
import { cline } from "../parsers/cline.ts";
import { codex } from "../parsers/codex.ts";
import { aider } from "../parsers/aider.ts";
import { parseOne, REPO, testEnv } from "./_fixture.ts";
import { assert, assertEquals } from "./_assert.ts";
import { tempDir } from "./_tmp.ts";

async function parseText(parser: Parser, rel: string, text: string) {
  const dir = tempDir("deja-salvage-");
  try {
    const path = join(dir, rel);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
    const src: SourceRef = { harness: parser.id, path, kind: "document" };
    const { sessions, ctx } = await parseOne(parser, src, testEnv(dir));
    const texts = sessions.flatMap((s) => s.events.map((e) => e.text));
    return { sessions, texts, counts: ctx.counts as Record<string, number> };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `text` with the character `before` places ahead of `marker` replaced by a control byte. */
function damage(text: string, marker: string, before: number): string {
  const at = text.indexOf(marker) - before;
  return text.slice(0, at) + "\u0007x" + text.slice(at + 1);
}

const geminiChat = JSON.stringify(
  {
    sessionId: "0b6a1c52-7a45-4c6e-9a5b-000000000001",
    projectHash: "abc",
    startTime: "2026-02-01T10:00:00.000Z",
    lastUpdated: "2026-02-01T10:05:00.000Z",
    messages: ["alpha", "bravo", "charlie", "delta"].map((w, i) => ({
      id: `m${i}`,
      timestamp: `2026-02-01T10:0${i}:00.000Z`,
      type: i % 2 ? "gemini" : "user",
      content: i % 2 ? `answer ${w}` : [{ text: `question ${w}` }],
    })),
    kind: "main",
  },
  null,
  2,
);

Deno.test("gemini keeps the other messages of a chat when one message has a bad byte", async () => {
  const r = await parseText(gemini, "tmp/p/chats/session-1.json", damage(geminiChat, "m1", 1));
  assertEquals(r.texts, ["question alpha", "question charlie", "answer delta"]);
  assertEquals(r.sessions[0].id, "0b6a1c52-7a45-4c6e-9a5b-000000000001");
  assertEquals(r.counts.malformed_json, 1);
});

Deno.test("gemini keeps a chat whose lines were duplicated and cut off at the end", async () => {
  const lines = geminiChat.split("\n");
  const i = lines.findIndex((l) => l.includes('"m3"'));
  const text = [...lines.slice(0, 3), lines[2], ...lines.slice(3, i + 2)].join("\n");
  const r = await parseText(gemini, "tmp/p/chats/session-1.json", text);
  assertEquals(r.texts, ["question alpha", "answer bravo", "question charlie"]);
});

Deno.test("cline keeps the other messages of a task file when one message is damaged", async () => {
  const items = ["alpha", "bravo", "charlie"].map((w, i) => ({
    role: i % 2 ? "assistant" : "user",
    content: [{ type: "text", text: i ? `said ${w}` : `<task>\nsaid ${w}\n</task>` }],
    ts: 1795000000000 + i * 1000,
  }));
  const text = damage(JSON.stringify(items), "said bravo", 2);
  const r = await parseText(cline, "tasks/1795000000000/api_conversation_history.json", text);
  assertEquals(r.texts.map((t) => t.replace(/\s+/g, " ").trim()), ["said alpha", "said charlie"]);
  assertEquals(r.counts.malformed_json, 1);
});

const FORK = join(
  REPO,
  "fixtures/registry/codex/archived_sessions",
  "rollout-2026-07-31T12-05-00-019fb7a2-60e0-7e11-8e11-0000000000e1.jsonl",
);

for (
  const [what, hurt] of [
    ["its type key", (l: string) => l.replace('"type":"task_started"', '"tyqe":"task_started"')],
    ["the whole line", (l: string) => l.slice(0, 40)],
  ] as const
) {
  Deno.test(`codex keeps a fork's own turns when ${what} of its task_started is damaged`, async () => {
    const lines = readFileSync(FORK, "utf8").split("\n");
    const own = lines.findIndex((l) => l.includes("task_started") && l.includes("000000000003"));
    lines[own] = hurt(lines[own]);
    const r = await parseText(codex, "archived_sessions/rollout-x.jsonl", lines.join("\n"));
    assert(
      r.texts.includes("Find every caller of greet() and report file:line."),
      r.texts.join("|"),
    );
    assert(!r.texts.includes("Inherited summary that belongs to the parent."));
  });
}

Deno.test("aider keeps a session whose header line has a damaged byte", async () => {
  const text = [
    "# aider chxt started at 2026-11-20 09:15:00",
    "",
    "#### first question alpha",
    "",
    "answer alpha",
    "",
    "# aider chat started at 2026-11-21 10:00:00",
    "",
    "#### second question bravo",
    "",
  ].join("\n");
  const r = await parseText(aider, ".aider.chat.history.md", text);
  assertEquals(r.sessions.length, 2);
  assert(r.texts.includes("first question alpha"), r.texts.join("|"));
  assertEquals(r.counts.bad_shape, 1);
});
