import { assertEquals } from "../tests/_assert.ts";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claude } from "./claude.ts";
import { parseOne, testEnv } from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";

const SID = "a44b0000-0000-4000-8000-000000000001";

/** The shape Claude Code 2.1.87 writes when the API refuses a prompt (real store, fields only). */
function lines(): string[] {
  const base = { sessionId: SID, cwd: "/w/vault", version: "2.1.87", isSidechain: false };
  return [
    {
      ...base,
      type: "user",
      uuid: "u1",
      parentUuid: null,
      timestamp: "2026-04-04T19:31:19.534Z",
      message: { role: "user", content: "summarise the whole vault" },
    },
    {
      ...base,
      type: "assistant",
      uuid: "a1",
      parentUuid: "u1",
      timestamp: "2026-04-04T19:31:21.242Z",
      message: {
        id: "ef454b9f-d1b1-40fb-8702-b60fab0372cf",
        model: "<synthetic>",
        role: "assistant",
        type: "message",
        content: [{ type: "text", text: "Prompt is too long" }],
      },
      error: "invalid_request",
      isApiErrorMessage: true,
    },
  ].map((r) => JSON.stringify(r));
}

// Regression (2026-12, fresh-user trial on Claude Code 2.1.87's real store): `ctx` gave the
// harness's own "Prompt is too long" reply as the session's Outcome, as if the model said it.
// Session 15: it is the harness speaking, so a notice (as Codex's error events are), not the
// model's words with a mark.
Deno.test("a reply Claude Code wrote for a failed API call is a notice marked as an API error", async () => {
  const root = tempDir("deja-claude-apierr-");
  try {
    const file = join(root, "-w-vault", `${SID}.jsonl`);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, lines().join("\n") + "\n");
    const { sessions } = await parseOne(
      claude,
      { harness: "claude", path: file, kind: "append" },
      testEnv(join(root, "__home__")),
    );
    const said = sessions[0].events.map((e) => [e.kind, e.text]);
    assertEquals(said, [["user", "summarise the whole vault"], [
      "notice",
      "API error: Prompt is too long",
    ]]);
    assertEquals(sessions[0].model, undefined);
  } finally {
    rmSync(root, { recursive: true });
  }
});

Deno.test("a <synthetic> placeholder with no error flag is a notice as written; a usage limit names its reset", async () => {
  const root = tempDir("deja-claude-apierr-");
  try {
    const file = join(root, "-w-vault", `${SID}.jsonl`);
    mkdirSync(join(file, ".."), { recursive: true });
    const [user, reply] = lines().map((l) => JSON.parse(l));
    const say = (uuid: string, text: string, flagged: boolean) =>
      JSON.stringify({
        ...reply,
        uuid,
        message: { ...reply.message, id: `m-${uuid}`, content: [{ type: "text", text }] },
        ...(flagged ? {} : { isApiErrorMessage: undefined, error: undefined }),
      });
    writeFileSync(
      file,
      [
        JSON.stringify(user),
        say("a2", "No response requested.", false),
        say("a3", "Claude AI usage limit reached|1760000000", true),
      ].join("\n") + "\n",
    );
    const { sessions } = await parseOne(
      claude,
      { harness: "claude", path: file, kind: "append" },
      testEnv(join(root, "__home__")),
    );
    assertEquals(sessions[0].events.slice(1).map((e) => [e.kind, e.text]), [
      ["notice", "No response requested."],
      ["notice", "API error: Claude AI usage limit reached (resets 2025-10-09T08:53:20.000Z)"],
    ]);
  } finally {
    rmSync(root, { recursive: true });
  }
});

// Trial 118 F6: `errorDetails` (2.1.87, real store) held what the API answered, the token counts
// and the request's id, and none of it was searchable: `show` said "API error: Prompt is too
// long" alone. It is kept in the notice, read from its JSON, or as written when it is none.
Deno.test("an API error's errorDetails are kept in its notice, capped", async () => {
  const root = tempDir("deja-claude-apierr-");
  try {
    const file = join(root, "-w-vault", `${SID}.jsonl`);
    mkdirSync(join(file, ".."), { recursive: true });
    const [user, reply] = lines().map((l) => JSON.parse(l));
    const body = {
      type: "error",
      error: {
        type: "invalid_request_error",
        message: "prompt is too long: 204569 tokens > 200000 maximum",
      },
      request_id: "req_011CZjHc3FjLNWZD3hatwdev",
    };
    const say = (uuid: string, errorDetails: string) =>
      JSON.stringify({
        ...reply,
        uuid,
        message: { ...reply.message, id: `m-${uuid}` },
        errorDetails,
      });
    writeFileSync(
      file,
      [
        JSON.stringify(user),
        say("a1", `400 ${JSON.stringify(body)}`),
        say("a2", "socket hang up\n  while  reading"),
        say("a3", "x".repeat(5000)),
      ].join("\n") + "\n",
    );
    const { sessions } = await parseOne(
      claude,
      { harness: "claude", path: file, kind: "append" },
      testEnv(join(root, "__home__")),
    );
    const texts = sessions[0].events.slice(1).map((e) => [e.kind, e.text]);
    assertEquals(texts.slice(0, 2), [
      [
        "notice",
        "API error: Prompt is too long\n400 invalid_request_error: prompt is too long: 204569 " +
        "tokens > 200000 maximum (request req_011CZjHc3FjLNWZD3hatwdev)",
      ],
      ["notice", "API error: Prompt is too long\nsocket hang up while reading"],
    ]);
    assertEquals(texts[2][1].length, "API error: Prompt is too long\n".length + 2000);
  } finally {
    rmSync(root, { recursive: true });
  }
});
