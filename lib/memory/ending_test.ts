import { assertEquals } from "../../tests/_assert.ts";
import { endingOf } from "./ending.ts";

type Ev = { kind: string; text: string; data?: string | null };
const evs = (...list: Ev[]) =>
  list.map((e, seq) => ({ kind: e.kind, text: e.text, data: e.data ?? null, seq }));
const CUT = '{"cut":true}';
const OLD = Date.now() - 3_600_000;
const cutLine = JSON.stringify({
  counts: { partial_line: 1 },
  examples: ["partial_line at @120: last line not finished yet; read once it is"],
});

Deno.test("endingOf says unanswered when nothing replied to the last request", () => {
  assertEquals(endingOf(evs({ kind: "user", text: "hi" })), "unanswered");
  assertEquals(
    endingOf(evs(
      { kind: "user", text: "fix it" },
      { kind: "assistant", text: "done" },
      { kind: "user", text: "and the tests?" },
      { kind: "notice", text: "[Request interrupted by user]" },
    )),
    "unanswered",
  );
});

Deno.test("endingOf says nothing when a reply or a tool call followed, or no request was made", () => {
  assertEquals(
    endingOf(evs({ kind: "user", text: "fix it" }, { kind: "assistant", text: "done" })),
    null,
  );
  assertEquals(
    endingOf(evs({ kind: "user", text: "fix it" }, { kind: "tool_call", text: "$ ls" })),
    null,
  );
  assertEquals(endingOf(evs({ kind: "assistant", text: "hello" })), null);
  // Harness markup after a reply (`/exit` in Claude Code) is no request.
  assertEquals(
    endingOf(evs(
      { kind: "user", text: "fix it" },
      { kind: "assistant", text: "done" },
      { kind: "user", text: "<command-name>/exit</command-name>" },
    )),
    null,
  );
});

Deno.test("endingOf says nothing of a store that records no reply at all (a prompt history)", () => {
  const prompts = evs({ kind: "user", text: "exit" }, { kind: "user", text: "quit" });
  assertEquals(endingOf(prompts, { recordsReplies: () => false }), null);
  assertEquals(endingOf(prompts, { recordsReplies: () => true }), "unanswered");
});

Deno.test("endingOf says mid_reply when the last reply is cut or the store's last line was cut off", () => {
  assertEquals(
    endingOf(
      evs({ kind: "user", text: "plan it" }, { kind: "assistant", text: "Step 1", data: CUT }),
    ),
    "mid_reply",
  );
  const said = evs({ kind: "user", text: "plan it" }, { kind: "assistant", text: "Step 1" });
  assertEquals(
    endingOf(said, { source: { sessions: 1, skipped: cutLine, mtime: OLD } }),
    "mid_reply",
  );
  // A line still being written says nothing yet; nor does one in a store of several sessions.
  assertEquals(
    endingOf(said, { source: { sessions: 1, skipped: cutLine, mtime: Date.now() } }),
    null,
  );
  assertEquals(endingOf(said, { source: { sessions: 3, skipped: cutLine, mtime: OLD } }), null);
  // A cut reply answered by a later request, itself answered, is history.
  assertEquals(
    endingOf(evs(
      { kind: "user", text: "plan it" },
      { kind: "assistant", text: "Step", data: CUT },
      { kind: "user", text: "go on" },
      { kind: "assistant", text: "Step 1, step 2" },
    )),
    null,
  );
});
