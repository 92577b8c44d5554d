import {
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../tests/_assert.ts";
import { tmpdir } from "node:os";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { parseResume, resumeCmd, resumeData, resumeNotes } from "./cmd_resume.ts";

const ID = "4e500000-1111-4222-8333-444455556666";
// The project directory must exist: harnesses look their sessions up from there.
const CWD = tmpdir();

function fixture() {
  return indexSessions([
    { id: ID, cwd: CWD, start: "2026-11-01T10:00:00Z", turns: [{ user: "pick this up later" }] },
  ]);
}

Deno.test("resume parses its session reference and --exec, and refuses none with exit 2", () => {
  assertEquals(parseResume({ values: { exec: true }, positionals: ["4e5"] }), {
    ref: "4e5",
    exec: true,
    json: false,
  });
  const e = assertThrows(() => parseResume({ values: {}, positionals: [] }), DejaError);
  assertEquals((e as DejaError).exitCode, 2);
});

Deno.test("resume's run plans the harness's own command in the project directory", async () => {
  const ix = await fixture();
  try {
    const d = resumeData(ix.env, "4e5");
    assertEquals([d.plan.harness, d.plan.id, d.plan.cwd], ["claude", ID, CWD]);
    assertEquals(d.plan.argv, ["claude", "--resume", ID]);
    assertEquals(d.command, `cd ${CWD} && claude --resume ${ID}`);
  } finally {
    ix.cleanup();
  }
});

Deno.test("resume prints the same line to a terminal and a pipe, and the plan with --json", async () => {
  const ix = await fixture();
  try {
    for (const tty of [true, false]) {
      const c = captureIO(ix.env, tty);
      assertEquals(await resumeCmd.run({ values: {}, positionals: ["4e5"] }, c.io), 0);
      assertEquals(c.out(), `cd ${CWD} && claude --resume ${ID}\n`);
      assertEquals(c.err(), "");
    }
    const json = captureIO(ix.env, false);
    assertEquals(await resumeCmd.run({ values: { json: true }, positionals: ["4e5"] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.id, doc.cwd, doc.origin, doc.host], [ID, CWD, null, null]);
    assertEquals(doc.command, `cd ${CWD} && claude --resume ${ID}`);
  } finally {
    ix.cleanup();
  }
});

Deno.test("resume says when it reopens a subagent's parent or a remote's session", () => {
  const base = { harness: "claude", cwd: null, argv: ["ssh"], origin: null };
  assertEquals(resumeNotes({ ...base, asked: "a", id: "a" }), "");
  assertStringIncludes(
    resumeNotes({ ...base, asked: "child", id: "parent" }),
    "deja: child is a subagent; resuming its parent\n",
  );
  const remote = resumeNotes({
    ...base,
    asked: "abcdef0123",
    id: "abcdef0123",
    origin: "devbox",
    remote: { host: "me@devbox", port: null, cwd: "/srv/app", clone: "/w/app" },
  });
  assertStringIncludes(remote, "ran on devbox (me@devbox)");
  assertStringIncludes(remote, "'deja handoff --to <harness> devbox:abcdef01'");
});

Deno.test("resume of an unknown session is an error with exit 1", async () => {
  const ix = await fixture();
  try {
    const e = await assertRejects(
      () => resumeCmd.run({ values: {}, positionals: ["ffff"] }, captureIO(ix.env, false).io),
      DejaError,
    );
    assertEquals((e as DejaError).exitCode, 1);
  } finally {
    ix.cleanup();
  }
});

Deno.test("resume of a prompt history says no command reopens it, with exit 2 and a hint to read it", async () => {
  const ix = await indexSessions([
    {
      id: "prompt-history-0a1b",
      cwd: CWD,
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "a prompt typed, whose transcript is gone" }],
    },
  ]);
  try {
    const e = assertThrows(() => resumeData(ix.env, "prompt-history-0a1b"), DejaError) as DejaError;
    assertEquals(e.exitCode, 2);
    assertStringIncludes(e.message, "prompt history");
    assertStringIncludes(e.hint ?? "", "deja show");
  } finally {
    ix.cleanup();
  }
});
