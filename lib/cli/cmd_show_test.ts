import { assert, assertEquals, assertRejects, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { memIndex } from "../../tests/_search_fixture.ts";
import { DejaError } from "../../core/errors.ts";
import { csi } from "./output.ts";
import type { EventRow } from "../rows.ts";
import {
  parseShow,
  readPart,
  showChunks,
  showCmd,
  showJson,
  showSession,
  showText,
} from "./cmd_show.ts";
import { sessionDigest } from "../memory/digest.ts";

const ID = "5e55a000-1111-4222-8333-444455556666";

async function fixture() {
  return await indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "make the tests pass" },
      { bash: "npm test", out: "1 failing", exit: 1 },
      { edit: "/w/app/src/a.ts", old: "x = 1", new: "x = 2" },
      { say: "Changed x to 2; the tests pass now." },
    ],
  }]);
}

Deno.test("show parses its session reference and refuses none with exit 2", () => {
  assertEquals(parseShow({ values: { full: true }, positionals: ["5e55"] }), {
    ref: "5e55",
    json: false,
    full: true,
  });
  try {
    parseShow({ values: {}, positionals: [] });
    throw new Error("expected a DejaError");
  } catch (e) {
    assert(e instanceof DejaError && e.exitCode === 2);
  }
});

Deno.test("show's run returns the session's events, command outcomes and edits as data", async () => {
  const ix = await fixture();
  try {
    const d = showSession(ix.store, "5e55");
    assertEquals(d.session.native_id, ID);
    assertEquals(d.description, "make the tests pass");
    const events = [...d.events];
    const callExits = events.filter((e) => e.kind === "tool_call" && d.commands.has(e.id))
      .map((e) => d.commands.get(e.id)!.exit);
    assertEquals(callExits, [1]);
    assertEquals(d.files.map((f) => [f.op, f.path]), [["edit", "/w/app/src/a.ts"]]);
    assert(events.some((e) => e.kind === "assistant" && e.text.includes("x to 2")));
  } finally {
    ix.cleanup();
  }
});

Deno.test("show prints colour on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  try {
    const tty = captureIO(ix.env, true);
    assertEquals(await showCmd.run({ values: {}, positionals: ["5e55"] }, tty.io), 0);
    assertStringIncludes(tty.out(), csi("31m") + " exit 1"); // red: the command failed
    assertStringIncludes(tty.out(), "exit 1");

    const pipe = captureIO(ix.env, false);
    assertEquals(await showCmd.run({ values: {}, positionals: ["5e55"] }, pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assertStringIncludes(pipe.out(), "make the tests pass");
    assertStringIncludes(pipe.out(), "tool_call Bash exit 1");
    // An edit shows what it replaced and with what, not only the new text.
    assertStringIncludes(pipe.out(), "  edit /w/app/src/a.ts\n  - x = 1\n  + x = 2\n");
    assertStringIncludes(tty.out(), csi("31m") + "  - x = 1");
    assertStringIncludes(tty.out(), csi("32m") + "  + x = 2");

    const json = captureIO(ix.env, false);
    assertEquals(await showCmd.run({ values: { json: true }, positionals: ["5e55"] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(doc.id, ID);
    assertEquals(doc.files[0].op, "edit");
    assertEquals(doc.events.find((e: { exit?: number }) => e.exit !== undefined).exit, 1);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a failed result of a tool that runs no command shows failed on its call and result, text and JSON", async () => {
  const ix = await indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "fix the config" },
      { read: "/w/app/missing.yaml", fail: true },
      { edit: "/w/app/a.yaml", old: "x: 1", new: "x: 2", fail: true },
      { read: "/w/app/a.yaml" },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await showCmd.run({ values: {}, positionals: ["5e55"] }, pipe.io), 0);
    const heads = pipe.out().split("\n").map((l) => l.match(/ (tool_(?:call|result).*)$/)?.[1])
      .filter(Boolean);
    assertEquals(heads, [
      "tool_call Read failed",
      "tool_result failed",
      "tool_call Edit failed",
      "tool_result failed",
      "tool_call Read",
      "tool_result",
    ]);

    const json = captureIO(ix.env, false);
    assertEquals(await showCmd.run({ values: { json: true }, positionals: ["5e55"] }, json.io), 0);
    const doc = JSON.parse(json.out());
    const tools = doc.events.filter((e: { kind: string }) => e.kind.startsWith("tool_"));
    assertEquals(tools.map((e: { is_error?: boolean }) => e.is_error), [
      true,
      true,
      true,
      true,
      undefined,
      undefined,
    ]);
    assertEquals(
      doc.files.map((f: { op: string; path: string; failed: boolean }) => [f.op, f.path, f.failed]),
      [
        ["read", "/w/app/missing.yaml", true],
        ["edit", "/w/app/a.yaml", true],
        ["read", "/w/app/a.yaml", false],
      ],
    );
    // In the session's order, each at its call's seq and time (trial 63: no order, no place).
    const calls = doc.events.filter((e: { kind: string }) => e.kind === "tool_call");
    assertEquals(
      doc.files.map((f: { seq: number; time: string }) => [f.seq, f.time]),
      calls.map((e: { seq: number; time: string }) => [e.seq, e.time]),
    );
    assert(doc.files[0].seq < doc.files[1].seq && doc.files[1].seq < doc.files[2].seq);
  } finally {
    ix.cleanup();
  }
});

Deno.test("show of an unknown session is an error with exit 1", async () => {
  const ix = await fixture();
  try {
    const e = await assertRejects(
      () => showCmd.run({ values: {}, positionals: ["ffff"] }, captureIO(ix.env, false).io),
      DejaError,
    );
    assertEquals((e as DejaError).exitCode, 1);
  } finally {
    ix.cleanup();
  }
});

Deno.test("show marks an edit that replaced every occurrence, text and JSON", async () => {
  const ix = await indexSessions([{
    id: "a11a0001-0000-4000-8000-000000000001",
    cwd: "/w/app",
    start: "2026-10-01T10:00:00Z",
    turns: [
      { user: "rename foo to bar everywhere" },
      { edit: "/w/app/a.py", old: "foo", new: "bar", all: true },
      {
        multi: "/w/app/b.py",
        edits: [{ old: "x = 1", new: "x = 2" }, { old: "foo", new: "bar", all: true }],
      },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await showCmd.run({ values: {}, positionals: ["a11a"] }, pipe.io), 0);
    // Trial 10: a replace_all edit read as a change of one place.
    assertStringIncludes(pipe.out(), "  edit /w/app/a.py (every occurrence)\n  - foo\n  + bar\n");
    assertStringIncludes(pipe.out(), "  edit /w/app/b.py\n  - x = 1\n  + x = 2\n");
    assertStringIncludes(pipe.out(), "  edit /w/app/b.py (every occurrence)\n  - foo\n");
    const json = captureIO(ix.env, false);
    assertEquals(await showCmd.run({ values: { json: true }, positionals: ["a11a"] }, json.io), 0);
    const files = JSON.parse(json.out()).files as Array<{ path: string; replace_all?: boolean }>;
    assertEquals(files.map((f) => [f.path, f.replace_all ?? false]), [
      ["/w/app/a.py", true],
      ["/w/app/b.py", false],
      ["/w/app/b.py", true],
    ]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("show, ctx and their JSON say a run timed out or went to the background", async () => {
  // Trial 14: a timeout read only `failed`, a background run `exit unknown`.
  const ix = await indexSessions([{
    id: "5e55b000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "run the slow suite" },
      { bash: "pytest -x tests/slow_test.py", out: "Command timed out after 1s", exit: 143 },
      { bash: "npm run dev", out: "Command running in background with ID: bash_1." },
      {
        bash: "rm -rf build",
        out: "Permission to use Bash with command rm -rf build has been denied.",
        refused: true,
      },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await showCmd.run({ values: {}, positionals: ["5e55b"] }, pipe.io), 0);
    assertStringIncludes(pipe.out(), "tool_call Bash timed out after 1s (exit 143)\n");
    assertStringIncludes(pipe.out(), "tool_call Bash in background\n");
    const json = captureIO(ix.env, false);
    await showCmd.run({ values: { json: true }, positionals: ["5e55b"] }, json.io);
    const ended = JSON.parse(json.out()).events.filter((e: { ended?: string }) => e.ended)
      .map((e: { kind: string; ended: string }) => `${e.kind} ${e.ended}`);
    assertEquals(ended, [
      "tool_call timed out after 1s",
      "tool_result timed out after 1s",
      "tool_call in background",
      "tool_result in background",
    ]);
    const digest = sessionDigest(ix.store, showSession(ix.store, "5e55b").session.id);
    assertEquals(digest.commands.map((c) => c.status), [
      "timed out after 1s (exit 143)",
      "in background",
    ]);
    assertStringIncludes(digest.markdown, "→ **timed out after 1s (exit 143) ✗**");
    // What never ran is the digest's too, with why (trial 15: ctx left it out).
    assertEquals(digest.notRun, [{
      command: "rm -rf build",
      reason: "Permission to use Bash with command rm -rf build has been denied.",
    }]);
    assertStringIncludes(
      digest.markdown,
      "## Not run\n\n- `rm -rf build` — Permission to use Bash with command rm -rf build has been denied.\n",
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("a long session is shown from pages of its text read as they are written, the same as read whole (trial 30)", async () => {
  const turns = [];
  for (let i = 0; i < 700; i++) {
    turns.push({ user: `step ${i}: run the suite again` });
    turns.push({
      bash: `npm test -- --shard ${i}`,
      out: i % 7 ? "ok" : "1 failing",
      exit: i % 7 ? 0 : 1,
    });
    turns.push({ say: `Step ${i} done. ${"x".repeat(i % 50)}` });
  }
  const ix = await indexSessions([{ id: ID, cwd: "/w/app", start: "2026-11-01T10:00:00Z", turns }]);
  try {
    const io = { isTTY: false, env: ix.env };
    const whole = showSession(ix.store, "5e55");
    const lean = showSession(ix.store, "5e55", undefined, { lean: true });
    const n = [...whole.events].length;
    assert(n > 2048, `${n} events`);
    // Lean, the events are not held; they are read a page at a time each time they are asked for.
    assert(!Array.isArray(lean.events));
    const shown = ({ id, seq, kind, text, time, tool, call_id, data, model }: EventRow) => ({
      id,
      seq,
      kind,
      text,
      time,
      tool,
      call_id,
      data,
      model,
    });
    assertEquals([...lean.events].map(shown), [...whole.events].map(shown));
    const chunks = [...showChunks(lean, io, false)];
    assert(chunks.length > 4, `${chunks.length} chunks`);
    assertEquals(chunks.join(""), showText(whole, io, false));
    assertEquals([...showChunks(lean, io, true)].join(""), showText(whole, io, true));
    assertEquals(lean.ending, whole.ending);
    assertEquals(lean.models, whole.models);
    assertEquals(showJson(lean), showJson(whole));
    assertEquals([...lean.commands.entries()], [...whole.commands.entries()]);
    // A reader that went away (`| head`) stops the writing, as text and as JSON (trial 32: the
    // whole session was made all the same).
    const { main } = await import("../../main.ts");
    for (const json of [false, true]) {
      const c = captureIO(ix.env, false, ["show", "5e55", ...json ? ["--json"] : []]);
      let writes = 0;
      c.io.out = () => void writes++;
      c.io.outGone = () => writes > 0;
      assertEquals(await main(c.io), 0);
      assertEquals(writes, 1, json ? "json" : "text");
    }
  } finally {
    ix.cleanup();
  }
});

// Trial 52 (realdata Claude 237326ca): two reads of one file printed alike, the second with
// `limit: 20` (the change `fix` offered as the fix).
Deno.test("show says which part of a file a read asked for", async () => {
  const ix = await indexSessions([{
    id: "5b0e0052-0000-4000-8000-000000000052",
    cwd: "/w/v",
    start: "2026-03-29T04:00:00Z",
    turns: [
      { user: "audit the sort" },
      { read: "/w/v/audit.md", fail: true, out: "File content exceeds maximum allowed size" },
      { read: "/w/v/audit.md", with: { offset: 40, limit: 20 } },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await showCmd.run({ values: {}, positionals: ["5b0e0052"] }, pipe.io), 0);
    const reads = pipe.out().split("\n").filter((l) => l.trim().startsWith("read /w/v/audit.md"));
    assertEquals(reads.map((l) => l.trim()), [
      "read /w/v/audit.md",
      "read /w/v/audit.md (offset: 40, limit: 20)",
    ]);
  } finally {
    ix.cleanup();
  }
  assertEquals(readPart('{"file_path":"a","view_range":[10,30]}'), " (view_range: 10-30)");
  assertEquals(readPart('{"file_path":"line-notes.md"}'), "");
  assertEquals(readPart("not json, limit"), "");
});

Deno.test("show deja:<day> shows each project's notes of that day in turn; --json still names them", async () => {
  // Trial 105 F7: the README's `deja show deja:<day>` was refused as ambiguous as soon as two
  // projects had notes that day.
  const note = (ts: string, project: string, text: string) =>
    JSON.stringify({ ts, project, text, tags: [] });
  const ix = await indexSessions([], [
    note("2026-12-03T08:00:00.000Z", "/w/api", "deploy from main"),
    note("2026-12-03T09:00:00.000Z", "/w/web", "web uses pnpm"),
  ]);
  try {
    const { runMain } = await import("../../tests/_cli_io.ts");
    const r = await runMain(ix.env, ["show", "deja:2026-12-03"]);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.out, "deploy from main");
    assertStringIncludes(r.out, "web uses pnpm");
    assertStringIncludes(r.err, "2 projects have notes that day");
    const j = await runMain(ix.env, ["show", "deja:2026-12-03", "--json"]);
    assertEquals(j.code, 2);
    assertStringIncludes(j.out + j.err, "/w/web");
    assertStringIncludes(
      j.out + j.err,
      "'deja show deja:2026-12-03' (as text, not --json: one document is one session) shows them all in turn",
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("show names a subagent's parent by its reference, or says the store records none (trial 120 L21)", async () => {
  const ix = await memIndex([
    { id: "019d9249-aaaa", events: [["user", "set up crewai"]] },
    { id: "019d924b-bbbb", parent: "019d9249-aaaa", events: [["user", "inspect the package"]] },
    { id: "mrp1k5", parent: "unknown", events: [["user", "extract the skills"]] },
  ]);
  const store = ix.open();
  try {
    const io = captureIO(ix.env, false).io;
    const text = (ref: string) => showText(showSession(store, ref), io, false);
    assertStringIncludes(text("019d924b"), "\nsubagent of 019d9249\n");
    // Gemini CLI files a subagent chat with no parent as `unknown`: "subagent of unknown".
    const orphan = text("mrp1k5");
    assertStringIncludes(orphan, "\na subagent; its store records no parent\n");
    assert(!orphan.includes("subagent of"), orphan);
  } finally {
    store.close();
    ix.cleanup();
  }
});
