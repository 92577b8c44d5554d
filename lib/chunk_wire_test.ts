import { assertEquals } from "../tests/_assert.ts";
import { decodeChunk, encodeChunk } from "./chunk_wire.ts";
import { prepareChunk, type PreparedChunk } from "./prepare.ts";
import type { Session } from "../core/model.ts";

/** What the writer received before: the chunk through JSON text. */
const viaJson = (c: PreparedChunk) => JSON.parse(JSON.stringify(c));

Deno.test("a chunk crosses the wire as it crossed as JSON text: nulls, absent fields, empty and odd strings", () => {
  const c: PreparedChunk = {
    harness: "claude",
    id: "s1",
    path: "/p/s1.jsonl",
    project: "/home/u/p",
    started: 1,
    updated: 9,
    whole: true,
    redactions: { aws: 2 },
    tokens: ["build", "café", "x2"],
    events: [
      {
        kind: "user",
        text: "",
        time: null,
        key: null,
        tool: null,
        callId: null,
        data: null,
        flags: 0,
      },
      {
        kind: "tool_call",
        text: 'edit a.ts \ud800 lone, \u0000 nul, "quoted"\n',
        time: 5,
        key: "~abc.def",
        longKey: "a:msg:c:toolu_1",
        tool: "Edit",
        callId: "toolu_1",
        data: '{"file_path":"a.ts"}',
        flags: 3,
        command: "",
        model: "claude-opus-4-6",
        files: [
          { path: "a.ts", op: "edit", old: "x", new: "" },
          { path: "b.ts", op: "read", old: null, new: null },
        ],
      },
      {
        kind: "tool_result",
        text: "exit 1",
        time: NaN, // JSON made it null
        key: "r1",
        tool: "Edit",
        callId: "toolu_1",
        data: '{"exit":1}',
        flags: 8,
        result: { exit: 1, isError: undefined },
        files: [],
      },
      {
        kind: "tool_result",
        text: "ok",
        time: 7,
        key: "r2",
        tool: null,
        callId: null,
        data: "{}",
        flags: 0,
        result: {},
      },
    ],
  } as PreparedChunk;
  assertEquals(decodeChunk(encodeChunk(c)), viaJson(c));
  const none = { ...c, events: [], tokens: [] };
  assertEquals(decodeChunk(encodeChunk(none)), viaJson(none));
});

Deno.test("a prepared chunk of calls, edits and results crosses the wire whole", () => {
  const s: Session = {
    harness: "claude",
    id: "s2",
    path: "/p/s2.jsonl",
    title: "fix the build",
    events: [
      { kind: "user", text: "fix it, key AKIAIOSFODNN7EXAMPLE", time: 1, key: "u1" },
      {
        kind: "tool_call",
        text: "",
        time: 2,
        key: "c1-a-long-key-over-sixteen",
        tool: {
          name: "Bash",
          id: "t1",
          input: { command: "make" },
          command: "make",
          edits: [{ path: "m.c", old: "a", new: "b" }],
        },
      },
      { kind: "tool_result", text: "make: ok", time: 3, result: { callId: "t1", exit: 0 } },
    ],
  } as Session;
  const c = prepareChunk(s);
  assertEquals(decodeChunk(encodeChunk(c)), viaJson(c));
});
