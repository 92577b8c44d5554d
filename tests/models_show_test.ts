/**
 * A session that switched model mid-way, through index and show: the header
 * names every model in order (`a → b → c`), the transcript marks where each
 * switch happened, `--json` of `show` and `last` carry `models`, the view's
 * session page says the same. Claude Code writes the model per reply
 * (`message.model`); its `<synthetic>` API-error replies name no model.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { parsers } from "../parsers/mod.ts";
import { sessionPage } from "../lib/view/session.ts";
import { REPO, testEnv } from "./_fixture.ts";
import { runMain } from "./_cli_io.ts";
import { tempDir } from "./_tmp.ts";
import type { Env } from "../core/model.ts";

const SID = "3a0de1a5-0000-4000-8000-00000000c0de";

/** Claude Code records of session `sid`: a prompt, then a reply by each of `models` in turn. */
function switching(sid: string, models: string[]): string[] {
  let n = 0;
  const at = () => new Date(Date.UTC(2026, 10, 21, 9, n)).toISOString();
  const base = () => ({ sessionId: sid, cwd: "/w/models", uuid: `u${++n}`, timestamp: at() });
  return models.flatMap((model, i) => [
    { ...base(), type: "user", message: { role: "user", content: `step ${i} please` } },
    {
      ...base(),
      type: "assistant",
      message: {
        id: `msg_${n}`,
        role: "assistant",
        model,
        content: [{ type: "text", text: `done ${i}` }],
      },
    },
  ]).map((r) => JSON.stringify(r));
}

/** Claude Code records: prompt, reply per model, a `<synthetic>` API error between. */
function lines(): string[] {
  let n = 0;
  const at = () => new Date(Date.UTC(2026, 10, 20, 9, n)).toISOString();
  const base = () => ({ sessionId: SID, cwd: "/w/models", uuid: `u${++n}`, timestamp: at() });
  const user = (text: string) => ({
    ...base(),
    type: "user",
    message: { role: "user", content: text },
  });
  const reply = (model: string, text: string, extra: Record<string, unknown> = {}) => ({
    ...base(),
    ...extra,
    type: "assistant",
    message: { id: `msg_${n}`, role: "assistant", model, content: [{ type: "text", text }] },
  });
  return [
    user("plan the zebrafinch migration"),
    reply("claude-opus-4-6", "Plan: three steps."),
    user("now do step one quickly"),
    reply("<synthetic>", "Prompt is too long", { isApiErrorMessage: true }),
    reply("claude-sonnet-4-6", "Step one done."),
    {
      ...base(),
      type: "assistant",
      message: {
        id: `msg_${n}`,
        role: "assistant",
        model: "claude-sonnet-4-6",
        content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "make" } }],
      },
    },
    user("summarise it"),
    reply("claude-haiku-4-5", "Summary: migrated."),
  ].map((r) => JSON.stringify(r));
}

async function indexed(
  files: Record<string, string[]> = { [SID]: lines() },
): Promise<{ env: Env; root: string }> {
  const root = tempDir("deja-models-");
  const dir = join(root, "claude", "-w-models");
  mkdirSync(dir, { recursive: true });
  for (const [sid, ls] of Object.entries(files)) {
    writeFileSync(join(dir, `${sid}.jsonl`), ls.join("\n") + "\n");
  }
  const env = testEnv(join(root, "home"), {
    DEJA_HOME: join(root, "deja"),
    DEJA_CLAUDE_ROOT: join(root, "claude"),
    TZ: "UTC",
  });
  await runIndex(env, parsers, { only: ["claude"] });
  return { env, root };
}

Deno.test("show names every model of a session that switched model, and marks each switch", async () => {
  const { env, root } = await indexed();
  try {
    const text = await runMain(env, ["show", SID.slice(0, 8)]);
    assertEquals(text.code, 0, text.err);
    const head = text.out.split("\n")[1];
    assertStringIncludes(head, "claude-opus-4-6 → claude-sonnet-4-6 → claude-haiku-4-5");
    assert(!text.out.includes("synthetic"), text.out);
    // The first model is the header's; each later switch is marked once, before its reply.
    const marks = text.out.split("\n").filter((l) => l.startsWith("— model"));
    assertEquals(marks, [
      "— model claude-sonnet-4-6 from here",
      "— model claude-haiku-4-5 from here",
    ]);
    const at = text.out.indexOf("— model claude-sonnet-4-6 from here");
    assert(at < text.out.indexOf("Step one done.") && at > text.out.indexOf("Prompt is too long"));

    const json = JSON.parse((await runMain(env, ["show", SID.slice(0, 8), "--json"])).out);
    assertEquals(json.models, ["claude-opus-4-6", "claude-sonnet-4-6", "claude-haiku-4-5"]);
    // Events carry `model` only where it changes (the tool call continues sonnet's turn).
    const changes = json.events.filter((e: { model?: string }) => e.model)
      .map((e: { kind: string; model: string }) => `${e.kind} ${e.model}`);
    assertEquals(changes, [
      "assistant claude-opus-4-6",
      "assistant claude-sonnet-4-6",
      "assistant claude-haiku-4-5",
    ]);

    const last = JSON.parse((await runMain(env, ["last", "--json"])).out);
    assertEquals(last.sessions[0].models, json.models);

    const store = Store.open(indexPath(env), { readOnly: true });
    try {
      const page = sessionPage({ base: "/t", store, env, now: 0 }, "claude", SID) ?? "";
      assertStringIncludes(page, "claude-opus-4-6 → claude-sonnet-4-6 → claude-haiku-4-5");
      assertStringIncludes(page, "— model claude-haiku-4-5 from here");
    } finally {
      store.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

const LARGE = join(
  REPO,
  "..",
  "shared",
  "realdata",
  "claude-code",
  "win2-2.1.68-session-large.jsonl",
);

Deno.test({
  name: "a real Claude Code 2.1.68 session that used three models shows all three (realdata)",
  ignore: !existsSync(LARGE),
  fn: async () => {
    const root = tempDir("deja-models-real-");
    try {
      const dir = join(root, "claude", "-w-large");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "large.jsonl"), readFileSync(LARGE));
      const env = testEnv(join(root, "home"), {
        DEJA_HOME: join(root, "deja"),
        DEJA_CLAUDE_ROOT: join(root, "claude"),
        TZ: "UTC",
      });
      await runIndex(env, parsers, { only: ["claude"] });
      const last = JSON.parse((await runMain(env, ["last", "--json"])).out);
      const s = last.sessions.find((x: { models: string[] }) => x.models.length > 1);
      assert(s, JSON.stringify(last.sessions.map((x: { models: string[] }) => x.models)));
      assertEquals([...s.models].sort(), [
        "claude-haiku-4-5-20251001",
        "claude-opus-4-6",
        "claude-sonnet-4-6",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
});

// User trial (2026-12): sonnet → opus → sonnet read `claude-sonnet-4-6 → claude-opus-4-6` in the
// header of show and the view (the distinct list), as if the session ended on opus.
Deno.test("show and the view name the models in the order of the switches, a model gone back to again", async () => {
  const BACK = "5e550001-0000-4000-8000-00000000c0de";
  const MANY = "5e550002-0000-4000-8000-00000000c0de";
  const [s, o, h] = ["claude-sonnet-4-6", "claude-opus-4-6", "claude-haiku-4-5"];
  const { env, root } = await indexed({
    [BACK]: switching(BACK, [s, o, o, s]),
    [MANY]: switching(MANY, [s, o, s, h, s, o, s, o]),
  });
  try {
    const text = await runMain(env, ["show", BACK.slice(0, 8)]);
    assertEquals(text.code, 0, text.err);
    const head = text.out.split("\n")[1];
    assert(head.endsWith(`  ${s} → ${o} → ${s}`), head);
    const json = JSON.parse((await runMain(env, ["show", BACK.slice(0, 8), "--json"])).out);
    // `models` stays the distinct list, in order of first use; `model_switches` counts changes.
    assertEquals([json.models, json.model_switches], [[s, o], 2]);

    // Seven switches: the first two, the last, and how many.
    const many = await runMain(env, ["show", MANY.slice(0, 8)]);
    assert(many.out.split("\n")[1].endsWith(`  ${s} → ${o} → … → ${o} (7 switches)`), many.out);
    const manyJson = JSON.parse((await runMain(env, ["show", MANY.slice(0, 8), "--json"])).out);
    assertEquals([manyJson.models, manyJson.model_switches], [[s, o, h], 7]);

    const store = Store.open(indexPath(env), { readOnly: true });
    try {
      const ctx = { base: "/t", store, env, now: 0 };
      assertStringIncludes(sessionPage(ctx, "claude", BACK) ?? "", ` · ${s} → ${o} → ${s}</div>`);
      assertStringIncludes(
        sessionPage(ctx, "claude", MANY) ?? "",
        ` · ${s} → ${o} → … → ${o} (7 switches)</div>`,
      );
    } finally {
      store.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
