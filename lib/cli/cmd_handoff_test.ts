import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../tests/_assert.ts";
import { tmpdir } from "node:os";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { handoffCmd, handoffData, parseHandoff, startingNote } from "./cmd_handoff.ts";

const ID = "4a0d0000-1111-4222-8333-444455556666";
const CWD = tmpdir();

function fixture() {
  return indexSessions([{
    id: ID,
    cwd: CWD,
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "port the parser to streams" },
      { say: "Started: the reader now yields lines." },
    ],
  }]);
}

Deno.test("handoff parses --to (an install target names its harness) and refuses none with exit 2", () => {
  const h = parseHandoff({ values: { to: "crush", print: true }, positionals: ["4a0"] });
  assertEquals(h, { to: "crush", ref: "4a0", print: true, json: false });
  assertEquals(parseHandoff({ values: { to: "claude-code" }, positionals: [] }).to, "claude");
  assertEquals(parseHandoff({ values: { to: "nope" }, positionals: [] }).to, "nope");
  const e = assertThrows(() => parseHandoff({ values: {}, positionals: [] }), DejaError);
  assertEquals((e as DejaError).exitCode, 2);
});

Deno.test("handoff's run packs the session's digest and the target's argv", async () => {
  const ix = await fixture();
  try {
    const io = captureIO(ix.env, false).io;
    const plan = handoffData(parseHandoff({ values: { to: "codex" }, positionals: ["4a0"] }), io);
    assertEquals([plan.from.native_id, plan.to, plan.mode, plan.cwd], [ID, "codex", "exec", CWD]);
    assertEquals(plan.argv, ["codex", plan.packet]);
    assertStringIncludes(plan.packet, "port the parser to streams");
    assertEquals(
      startingNote(plan, plan.argv!),
      `deja: starting cd ${CWD} && codex '<${
        new TextEncoder().encode(plan.packet).length
      }-byte digest>'\n`,
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("handoff prints the packet to a terminal and a pipe, the plan with --json", async () => {
  const ix = await fixture();
  try {
    for (const tty of [true, false]) {
      const c = captureIO(ix.env, tty);
      const a = { values: { to: "codex", print: true }, positionals: ["4a0"] };
      assertEquals(await handoffCmd.run(a, c.io), 0);
      assert(c.out().startsWith("You are taking over work begun in a Claude Code session"));
      assertEquals(c.err(), "");
    }
    const paste = captureIO(ix.env, false);
    assertEquals(
      await handoffCmd.run({ values: { to: "zed" }, positionals: ["4a0"] }, paste.io),
      0,
    );
    assertStringIncludes(paste.out(), "port the parser to streams");
    assertStringIncludes(paste.err(), "cannot be started with a prompt: paste the text above");

    const json = captureIO(ix.env, false);
    const j = { values: { to: "codex", json: true }, positionals: ["4a0"] };
    assertEquals(await handoffCmd.run(j, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.from.id, doc.to, doc.mode, doc.argv[0]], [ID, "codex", "exec", "codex"]);
    assertEquals(doc.project_here, true);
    assertEquals(doc.bytes, new TextEncoder().encode(doc.packet).length);
  } finally {
    ix.cleanup();
  }
});

Deno.test("handoff to an unknown harness is an error with exit 2", async () => {
  const ix = await fixture();
  try {
    const e = await assertRejects(
      () =>
        handoffCmd.run({ values: { to: "nope" }, positionals: [] }, captureIO(ix.env, false).io),
      DejaError,
    );
    assertEquals((e as DejaError).exitCode, 2);
    assertStringIncludes(e.message, "unknown harness 'nope'");
  } finally {
    ix.cleanup();
  }
});

Deno.test("handoff says so when the session's project is not on this machine and it starts here", async () => {
  // Trial 42: it started in the current directory and said nothing.
  const gone = "/nonexistent-deja-project/app";
  const ix = await indexSessions([{
    id: ID,
    cwd: gone,
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "port the parser to streams" }, { say: "Started." }],
  }]);
  try {
    const io = captureIO(ix.env, false).io;
    const plan = handoffData(parseHandoff({ values: { to: "codex" }, positionals: ["4a0"] }), io);
    assertEquals(plan.cwd, "/");
    const note = startingNote(plan, plan.argv!);
    assert(
      note.startsWith(
        `deja: the session's project ${gone} is not on this machine: starting in /\n`,
      ),
      note,
    );
    assertStringIncludes(note, "deja: starting cd / && codex");
    // Printed to paste, or as JSON, it is said too (trial 43).
    const printed = captureIO(ix.env, false);
    const p = { values: { print: true }, positionals: ["4a0"] };
    assertEquals(await handoffCmd.run(p, printed.io), 0);
    assertStringIncludes(printed.err(), `the session's project ${gone} is not on this machine`);
    const json = captureIO(ix.env, false);
    const j = { values: { to: "codex", json: true }, positionals: ["4a0"] };
    assertEquals(await handoffCmd.run(j, json.io), 0);
    assertEquals(JSON.parse(json.out()).project_here, false);
  } finally {
    ix.cleanup();
  }
});

Deno.test("handoff --json says the project is not here when the session has none", async () => {
  // Trial 44: a session with no project at all was said to have it here (`project_here: true`).
  const ix = await indexSessions([{
    id: ID,
    cwd: "",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "hello there" }, { say: "Hi." }],
  }]);
  try {
    const c = captureIO(ix.env, false);
    const a = { values: { to: "codex", json: true }, positionals: ["4a0"] };
    assertEquals(await handoffCmd.run(a, c.io), 0);
    const doc = JSON.parse(c.out());
    assertEquals([doc.from.project, doc.project_here], [null, false]);
  } finally {
    ix.cleanup();
  }
});
