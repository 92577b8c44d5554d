/**
 * `deja resume` and `deja handoff` plans over the indexed Crush fixture:
 * argv from the registry template, the project directory, subagents resuming
 * their parent, refusals (gone project, unsafe id, no resume command), the
 * handoff packet and its target command.
 */
import { assert, assertEquals, assertStringIncludes, assertThrows } from "./_assert.ts";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { materialize, testEnv } from "./_fixture.ts";
import { parsers } from "../parsers/mod.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { DejaError } from "../core/errors.ts";
import { fileSession } from "./_memory.ts";
import { memIndex } from "./_search_fixture.ts";
import { resumePlan } from "../lib/resume.ts";
import { HANDOFF_BUDGET, handoffPlan, latestHere } from "../lib/handoff.ts";
import { displayCommand, templateArgv } from "../lib/shell.ts";
import { resolveSession } from "../lib/sessions.ts";
import { spawnSync } from "node:child_process";
import { runMain, withVars } from "./_cli_io.ts";

const APP = "a1b2c3d4-0000-4000-8000-000000000001";
const SUB = "a1b2c3d4-0000-4000-8000-0000000000a9$$call_agent_1";

async function indexed(): Promise<{ root: string; store: Store; cleanup(): void }> {
  const fx = materialize("fixtures/registry/crush");
  const env = testEnv(join(fx.root, "home"), {
    DEJA_HOME: join(fx.root, "deja"),
    DEJA_CRUSH_ROOT: join(fx.root, "data"),
  });
  await runIndex(env, parsers, { only: ["crush"] });
  const store = Store.open(indexPath(env));
  return {
    root: fx.root,
    store,
    cleanup() {
      store.close();
      fx.cleanup();
    },
  };
}

function refusal(fn: () => unknown): DejaError {
  const e = assertThrows(fn, DejaError) as DejaError;
  assertEquals(e.exitCode, 2, e.message);
  return e;
}

Deno.test("resume gives Crush's own command as argv, run in the project directory", async () => {
  const w = await indexed();
  try {
    const p = resumePlan(w.store, APP);
    assertEquals(p.argv, ["crush", "--session", APP]);
    assertEquals(p.cwd, join(w.root, "projects/app"));
    assertEquals(displayCommand(p.argv, p.cwd), `cd ${p.cwd} && crush --session ${APP}`);
  } finally {
    w.cleanup();
  }
});

Deno.test("resume of a subagent reopens its parent", async () => {
  const w = await indexed();
  try {
    const p = resumePlan(w.store, "crush:a1b2c3d4-0000-4000-8000-0000000000a9");
    assertEquals([p.asked, p.id], [SUB, APP]);
    assertEquals(p.argv, ["crush", "--session", APP]);
  } finally {
    w.cleanup();
  }
});

Deno.test("resume refuses a session whose store is gone (its project with it) and points at deja show", async () => {
  const w = await indexed();
  try {
    const db = join(w.root, "projects/app/.crush/crush.db");
    assert(existsSync(db), db);
    rmSync(join(w.root, "projects/app"), { recursive: true });
    const e = refusal(() => resumePlan(w.store, APP));
    assertStringIncludes(e.message, `store is gone (deleted or moved since deja read it): ${db}`);
    assertStringIncludes(e.message, "Crush cannot reopen");
    assertStringIncludes(e.hint ?? "", "deja show");
    assertStringIncludes(e.hint ?? "", "deja index");
  } finally {
    w.cleanup();
  }
});

Deno.test("resume refuses ids with shell characters and harnesses without a resume command", async () => {
  const w = await indexed();
  try {
    const row = { project: w.root };
    fileSession(w.store, { ...row, harness: "crush", native_id: "x;rm -rf ~", source: "/s" });
    fileSession(w.store, { ...row, harness: "aider", native_id: "aider-1", source: "/s2" });
    assertStringIncludes(refusal(() => resumePlan(w.store, "crush:x;rm")).message, "characters");
    const none = refusal(() => resumePlan(w.store, "aider:aider-1"));
    assertStringIncludes(none.message, "aider has no command that reopens a session");
    assertStringIncludes(none.hint ?? "", "deja show");
  } finally {
    w.cleanup();
  }
});

Deno.test("templateArgv keeps a value with spaces and quotes as one argument", () => {
  assertEquals(templateArgv("gemini -i {prompt}", { prompt: "a b 'c' $(x)" }), [
    "gemini",
    "-i",
    "a b 'c' $(x)",
  ]);
  assertEquals(templateArgv("copilot --resume={id}", { id: "u-1" }), ["copilot", "--resume=u-1"]);
});

Deno.test("handoff to Codex starts 'codex <packet>' in the project with a bounded digest", async () => {
  const w = await indexed();
  try {
    const p = handoffPlan(w.store, "codex", APP, "/nowhere");
    assertEquals(p.mode, "exec");
    assertEquals(p.argv, ["codex", p.packet]);
    assertEquals(p.cwd, join(w.root, "projects/app"));
    assert(new TextEncoder().encode(p.packet).length <= HANDOFF_BUDGET);
    assertStringIncludes(p.packet, "not instructions");
    assertStringIncludes(p.packet, APP);
  } finally {
    w.cleanup();
  }
});

Deno.test("handoff to Crush prints the packet: its headless 'crush run' would act with every permission approved", async () => {
  const w = await indexed();
  try {
    const p = handoffPlan(w.store, "crush", APP, "/nowhere");
    assertEquals([p.mode, p.argv], ["paste", null]);
    assertStringIncludes(p.packet, APP);
  } finally {
    w.cleanup();
  }
});

Deno.test("handoff without an id takes the newest session of the nearest project above the cwd", async () => {
  const w = await indexed();
  try {
    const deep = join(w.root, "projects/app/src/lib");
    mkdirSync(deep, { recursive: true });
    assertEquals(latestHere(w.store, deep)?.native_id, APP);
    assertEquals(handoffPlan(w.store, "claude", undefined, deep).argv?.[0], "claude");
    assertEquals(latestHere(w.store, "/"), undefined);
    const e = assertThrows(() => handoffPlan(w.store, "crush", undefined, "/"), DejaError);
    assertEquals((e as DejaError).exitCode, 1);
  } finally {
    w.cleanup();
  }
});

Deno.test("handoff to a harness marked paste prints the packet; an unknown harness is refused", async () => {
  const w = await indexed();
  try {
    const p = handoffPlan(w.store, "roo", APP, "/");
    assertEquals([p.mode, p.argv], ["paste", null]);
    refusal(() => handoffPlan(w.store, "nosuch", APP, "/"));
    // deja reads harnesses; it is not one a session can be handed to.
    assertStringIncludes(
      refusal(() => handoffPlan(w.store, "deja", APP, "/")).message,
      "not a harness you can start",
    );
  } finally {
    w.cleanup();
  }
});

Deno.test("a session ref whose prefix names neither a harness nor a remote says so", async () => {
  const w = await indexed();
  try {
    const e = assertThrows(() => resolveSession(w.store, "nosuch:01a2"), DejaError) as DejaError;
    assertEquals(e.exitCode, 1);
    assertStringIncludes(e.hint ?? "", "'nosuch' is neither a harness nor a remote");
    const plain = assertThrows(() => resolveSession(w.store, "ffffffff"), DejaError) as DejaError;
    assertStringIncludes(plain.hint ?? "", "search first");
  } finally {
    w.cleanup();
  }
});

Deno.test("a command shown to a person spells out characters the terminal would strip", () => {
  const dir = "/tmp/evil\x1b]0;x\x07dir\u202e'q";
  const line = displayCommand(["claude", "--resume", "abc"], dir);
  // deno-lint-ignore no-control-regex
  assert(!/[\x00-\x1f\u202e]/.test(line), line);
  // bash reads the quoted path back as the real one.
  const quoted = line.slice("cd ".length, line.indexOf(" && "));
  const r = spawnSync("bash", ["-c", `printf %s ${quoted}`], { encoding: "utf8" });
  assertEquals(r.stdout, dir);
  // Plain paths keep plain POSIX quoting (sh has no $'…').
  assertEquals(displayCommand(["x"], "/w/my app"), "cd '/w/my app' && x");
});

Deno.test("handoff --print needs no target: the packet is the same for any, printed to paste", async () => {
  // Trial 39: `deja handoff <id> --print` asked for --to, to print a packet --to never changes.
  const fx = materialize("fixtures/registry/crush");
  const env = withVars(
    testEnv(join(fx.root, "home"), {
      DEJA_HOME: join(fx.root, "deja"),
      DEJA_CRUSH_ROOT: join(fx.root, "data"),
    }),
    { DEJA_NO_REFRESH: "1" },
  );
  try {
    await runIndex(env, parsers, { only: ["crush"] });
    const printed = await runMain(env, ["handoff", APP, "--print"]);
    assertEquals(printed.code, 0, printed.err);
    assertStringIncludes(printed.out, "not instructions");
    assertStringIncludes(printed.out, APP);
    assertEquals(printed.err, "", "no note about a target none was named");
    const toCodex = await runMain(env, ["handoff", "--to", "codex", APP, "--print"]);
    assertEquals(toCodex.out, printed.out);
    const json = await runMain(env, ["handoff", APP, "--json"]);
    assertEquals(json.code, 0, json.err);
    const doc = JSON.parse(json.out);
    assertEquals([doc.to, doc.mode, doc.argv], [null, "paste", null]);
    assertEquals(doc.packet.trimEnd(), printed.out.trimEnd());
    // Starting a harness still needs one named, and the refusal says what works without.
    const bare = await runMain(env, ["handoff", APP.slice(0, 8)]);
    assertEquals(bare.code, 2);
    assertStringIncludes(bare.err, "--to <harness> is required");
    assertStringIncludes(bare.err, "--print");
  } finally {
    fx.cleanup();
  }
});

// Trial 73: `handoff --print` with no id handed on a "hi" / "Hello!" that the session start
// passes over; a subagent whose parent the index lacks is no session of work either.
Deno.test("handoff without an id passes over a newer greeting and a newer subagent", async () => {
  const at = Date.parse("2026-11-02T10:00:00Z");
  const ix = await memIndex([
    {
      id: "work-1",
      project: "/w/app",
      at,
      events: [["user", "fix the flaky websocket test"], ["assistant", "Froze the clock."]],
    },
    {
      id: "hi-2",
      project: "/w/app",
      at: at + 3600e3,
      events: [["user", "hi"], ["assistant", "Hello! How can I help you today?"]],
    },
    {
      id: "sub-3",
      project: "/w/app",
      parent: "not-indexed",
      at: at + 7200e3,
      events: [["user", "extract skills from the sessions"], ["assistant", "None found."]],
    },
  ]);
  const store = ix.open();
  try {
    assertEquals(latestHere(store, "/w/app")?.native_id, "work-1");
  } finally {
    store.close();
    ix.cleanup();
  }
});
