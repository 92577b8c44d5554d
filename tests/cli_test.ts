/** Commands run in-process, with a terminal and with a pipe. */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

function fakeIO(args: string[], vars: Record<string, string>, tty: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = {
    args,
    env: testEnv(vars.HOME, vars),
    cwd: "/",
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTTY: tty,
    errTTY: tty,
    readStdin: () => Promise.resolve(""),
  };
  return { io, out, err };
}

function claudeStore(): Record<string, string> {
  const dir = tempDir("deja-cli-");
  const proj = join(dir, "claude", "-w-app");
  mkdirSync(proj, { recursive: true });
  const base = {
    sessionId: "11111111-2222-4333-8444-555555555555",
    cwd: "/w/app",
    timestamp: "2026-11-01T10:00:00Z",
  };
  const lines = [
    {
      ...base,
      type: "user",
      uuid: "u1",
      message: { role: "user", content: "the parser crashes on unicode input" },
    },
    {
      ...base,
      type: "assistant",
      uuid: "a1",
      message: {
        id: "m1",
        role: "assistant",
        content: [{ type: "text", text: "Fixed the unicode handling in the parser." }],
      },
    },
  ];
  writeFileSync(
    join(proj, `${base.sessionId}.jsonl`),
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  return {
    HOME: join(dir, "home"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "claude"),
  };
}

Deno.test("search highlights matches on a terminal and prints plain text into a pipe", async () => {
  const vars = claudeStore();
  assertEquals(await main(fakeIO(["index", "--quiet"], vars, false).io), 0);
  const tty = fakeIO(["unicode", "parser"], vars, true);
  assertEquals(await main(tty.io), 0);
  assertStringIncludes(tty.out.join(""), "\x1b[1;33m");
  const pipe = fakeIO(["unicode", "parser"], vars, false);
  assertEquals(await main(pipe.io), 0);
  const text = pipe.out.join("");
  assertEquals(text.includes("\x1b["), false);
  assertStringIncludes(text, "11111111");
  assertStringIncludes(text, "/w/app");
});

Deno.test("NO_COLOR turns colour off even on a terminal", async () => {
  const vars = claudeStore();
  await main(fakeIO(["index", "--quiet"], vars, false).io);
  const tty = fakeIO(["unicode"], { ...vars, NO_COLOR: "1" }, true);
  assertEquals(await main(tty.io), 0);
  assertEquals(tty.out.join("").includes("\x1b["), false);
});

Deno.test("show accepts an id prefix and a harness-qualified prefix", async () => {
  const vars = claudeStore();
  await main(fakeIO(["index", "--quiet"], vars, false).io);
  for (const ref of ["1111", "claude:11111111"]) {
    const r = fakeIO(["show", ref, "--json"], vars, false);
    assertEquals(await main(r.io), 0);
    const s = JSON.parse(r.out.join(""));
    assertEquals(s.id, "11111111-2222-4333-8444-555555555555");
    assertEquals(s.events.map((e: { kind: string }) => e.kind), ["user", "assistant"]);
  }
  const miss = fakeIO(["show", "9999"], vars, false);
  assertEquals(await main(miss.io), 1);
  assertStringIncludes(miss.err.join(""), "no session matches");
});

Deno.test("an unknown option is one clear line and exit 2", async () => {
  const r = fakeIO(["show", "--nope"], { HOME: "/nonexistent" }, false);
  assertEquals(await main(r.io), 2);
  const msg = r.err.join("");
  assert(msg.startsWith("deja: "), msg);
  assertStringIncludes(msg, "--nope");
  assertEquals(msg.trim().split("\n").length, 2);
});

// Trial 71: show, resume and blame with no argument said what was missing and no way on.
Deno.test("show, resume and blame with nothing to act on say where to find it", async () => {
  const vars = claudeStore();
  for (
    const [cmd, hint] of [
      ["show", "hint: 'deja last' lists sessions with their ids"],
      ["resume", "hint: 'deja last --project .' lists this project's sessions with their ids"],
      ["blame", "hint: e.g. deja blame src/app.ts:42"],
    ]
  ) {
    const r = fakeIO([cmd], vars, false);
    assertEquals(await main(r.io), 2, cmd);
    assertStringIncludes(r.err.join(""), hint);
  }
});

Deno.test("index --json reports per harness what it found and read", async () => {
  const vars = claudeStore();
  const r = fakeIO(["index", "--json", "--harness", "claude"], vars, false);
  assertEquals(await main(r.io), 0);
  const j = JSON.parse(r.out.join(""));
  assertEquals(j.harnesses.length, 1);
  assertEquals(j.harnesses[0].harness, "claude");
  assertEquals(j.harnesses[0].found, 1);
  assertEquals(j.harnesses[0].sessions, 1);
});
