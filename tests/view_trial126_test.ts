/**
 * `deja view`'s session page against what trial 126 found: the tab titled as the heading, a
 * shell call that never ran drawn as its command, a failed edit marked as `deja show` marks it;
 * and its session list, a parent's row saying how many subagents it nests.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";
import { sessionPage } from "../lib/view/session.ts";
import { listPage } from "../lib/view/list.ts";

const AT = Date.parse("2026-11-01T10:00:00Z");

/** The session page of `id` on an index of `sessions`. */
async function pageOf(sessions: MemSession[], id: string): Promise<string> {
  const idx = await memIndex(sessions);
  const store = idx.open();
  try {
    return sessionPage({ base: "/t", store, env: idx.env, now: AT + 3_600_000 }, "mem", id) ?? "";
  } finally {
    store.close();
    idx.cleanup();
  }
}

// Trial 126 F7: a session its harness gave no title had its raw id as the tab's title, where
// the page's heading read as its first prompt.
Deno.test("view names a session's tab as its heading, not by its bare id", async () => {
  const html = await pageOf([{
    id: "66db2ce0-393a-4771-9986-2462861a8eb7",
    project: "/home/dev/app",
    at: AT,
    events: [["user", "is github copilot chat similar to continue"], ["assistant", "Partly."]],
  }], "66db2ce0-393a-4771-9986-2462861a8eb7");
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
  assertStringIncludes(title, "is github copilot chat similar to continue");
  assert(!title.includes("66db2ce0"), title);
  assertStringIncludes(html, "<h1>is github copilot chat similar to continue</h1>");
});

/** The page's stretch of event `seq`'s card, up to the next event's anchor. */
function card(html: string, seq: number): string {
  return new RegExp(`id="e${seq}"[^]*?(?=<div class="ev|$)`).exec(html)?.[0] ?? "";
}

// Trial 126 F5: a shell call Crush refused (its pieces joined, parsers/crush.ts) showed its raw
// argument object, where `deja show` prints `$ command` marked not run.
Deno.test("view draws a shell call that never ran as its command, marked not run", async () => {
  const html = await pageOf([{
    id: "sess-notrun",
    project: "/home/dev/k3s",
    at: AT,
    events: [
      ["user", "why does forgejo crash"],
      {
        kind: "tool_call",
        text: "$ kubectl version --short; kubectl get pods -A",
        tool: {
          name: "bash",
          id: "c0",
          input: { command: "kubectl version --short; kubectl get pods -A", timeout: 120000 },
        },
        time: AT + 60e3,
      },
      {
        kind: "tool_result",
        text: "Not run: invalid parameters",
        result: { callId: "c0", isError: true, notRun: true },
        time: AT + 61e3,
      },
    ],
  }], "sess-notrun");
  const call = card(html, 1);
  assertStringIncludes(
    call,
    '<pre class="cmd">$ kubectl version --short; kubectl get pods -A</pre>',
  );
  assert(!call.includes("&quot;timeout&quot;"), call);
  assertStringIncludes(call, "not run");
});

// Trial 126 F6: a failed edit read "failed" three times (after its path, under its diff, on its
// output) where `deja show` marks the call once and its result once.
Deno.test("view marks a failed edit once on the call and once on its result", async () => {
  const path = "/home/dev/k3s/image-repository.yaml";
  const html = await pageOf([{
    id: "sess-edit",
    project: "/home/dev/k3s",
    at: AT,
    events: [
      ["user", "pin the image"],
      {
        kind: "tool_call",
        text: "",
        tool: { name: "edit", id: "e1", edits: [{ path, old: "tag: 1", new: "tag: 2" }] },
        time: AT + 60e3,
      },
      {
        kind: "tool_result",
        text: "old_string not found in file",
        result: { callId: "e1", isError: true },
        time: AT + 61e3,
      },
    ],
  }], "sess-edit");
  const call = card(html, 1);
  assertStringIncludes(call, `edit ${path}`);
  assertStringIncludes(call, '<pre class="diff">');
  const marks = [...call.matchAll(/<span class="st st-([a-z_]+)">([^<]*)<\/span>/g)]
    .map((m) => m[2]);
  assertEquals(marks, ["✗ failed", "✗ failed"]);
});

// Trial 126 F10: a parent's row in the list gave no sign of the subagents its page nests; only a
// sentence under the list said some were filed, under no row in particular.
Deno.test("view's session list says on a parent's row how many subagents it nests", async () => {
  const idx = await memIndex([
    { id: "sess-parent", project: "/home/dev/k3s", at: AT, events: [["user", "fan out"]] },
    {
      id: "agent-a",
      parent: "sess-parent",
      project: "/home/dev/k3s",
      at: AT + 60e3,
      events: [["user", "look at the pods"]],
    },
    {
      id: "agent-b",
      parent: "agent-a",
      project: "/home/dev/k3s",
      at: AT + 120e3,
      events: [["user", "and at their logs"]],
    },
    { id: "sess-alone", project: "/home/dev/k3s", at: AT + 1e3, events: [["user", "alone here"]] },
  ]);
  const store = idx.open();
  let html: string;
  try {
    html = listPage({ base: "/t", store, env: idx.env, now: AT + 3_600_000 }, { junk: true });
  } finally {
    store.close();
    idx.cleanup();
  }
  const row = (id: string) =>
    new RegExp(`<tr>(?:(?!</tr>).)*?id=${id}"[^]*?</tr>`, "s").exec(html)?.[0] ?? "";
  assertStringIncludes(row("sess-parent"), "2 subagents nested");
  const alone = row("sess-alone");
  assert(alone && !alone.includes("nested"), alone);
  assert(!row("agent-a"), "a filed subagent has a row of its own");
});
