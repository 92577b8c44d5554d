/**
 * A subagent's hits are filed under its parent; the text of `deja search` and of mode recall
 * showed its lines as the parent's (trial 116 L1: `deja search Inspect CrewAI` listed a Codex
 * subagent's prompt under 019d9249, whose `deja show` does not hold it, and under the parent's
 * last activity, a minute before the line). Each such line names the subagent and its time.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { memIndex } from "./_search_fixture.ts";
import { recallText } from "../lib/mcp/recall.ts";
import { shortRef } from "../lib/sessions.ts";
import { localTime } from "../lib/memory/text.ts";

const AT = Date.parse("2026-04-15T17:56:00Z");

Deno.test("a subagent's lines under its parent name the subagent and their time, in search and recall", async () => {
  const ix = await memIndex([
    {
      id: "p-parent-0001",
      at: AT,
      events: [
        ["user", "set up the quokka package and boot it"],
        ["assistant", "I am sending a subagent through the quokka package."],
      ],
    },
    {
      id: "s-child-0002",
      parent: "p-parent-0001",
      at: AT + 10 * 60e3, // after the parent's own last activity
      events: [["user", "Inspect the quokka package and report findings"]],
    },
  ]);
  const store = ix.open();
  try {
    const sub = shortRef(store, "mem", "s-child-0002");
    const mark = `(subagent ${sub}, ${localTime(AT + 10 * 60e3)})`;
    const text = await runMain(ix.env, ["search", "quokka", "package"]);
    assertEquals(text.code, 0, text.err);
    const lines = text.out.split("\n");
    // One result, the parent: the subagent's line is marked, the parent's own are not.
    assertEquals(lines.filter((l) => /^\S/.test(l)).length, 1, text.out);
    const child = lines.find((l) => l.includes("Inspect the"));
    assert(child, text.out);
    assertStringIncludes(child, mark);
    const own = lines.find((l) => l.includes("sending a subagent"));
    assert(own && !own.includes("(subagent "), text.out);
    // `--json` had it right all along: each snippet names its session.
    const json = JSON.parse((await runMain(ix.env, ["search", "--json", "quokka", "package"])).out);
    assertEquals(
      json.results[0].snippets.map((s: { session: string }) => s.session).sort(),
      ["p-parent-0001", "p-parent-0001", "s-child-0002"],
    );
    // Mode recall says it as the CLI does.
    const r = recallText(store, "quokka package", { env: ix.env }).text;
    assertStringIncludes(r, `- user ${mark}: Inspect the`);
    assert(!r.includes(`- assistant (subagent`), r);
  } finally {
    store.close();
    ix.cleanup();
  }
});

Deno.test("a subagent whose parent is not indexed is said to be one, in text and --json (trial 121 M2)", async () => {
  const ix = await memIndex([
    {
      id: "f328310d-orphan-child",
      parent: "f328310d-gone-parent",
      at: AT,
      events: [["user", "list every minidata timeline script"]],
    },
    { id: "a-plain-0003", at: AT, events: [["user", "minidata export for the tracker"]] },
  ]);
  try {
    const text = await runMain(ix.env, ["search", "minidata"]);
    assertEquals(text.code, 0, text.err);
    const heads = text.out.split("\n").filter((l) => /^\S/.test(l));
    assertEquals(heads.length, 2, text.out);
    const orphan = heads.find((l) => l.startsWith("f328"));
    assert(orphan, text.out);
    assertStringIncludes(orphan, "subagent of f328310d-gone-parent (not indexed)");
    assert(!heads.find((l) => l.startsWith("a-pl"))!.includes("subagent"), text.out);
    const json = JSON.parse((await runMain(ix.env, ["search", "--json", "minidata"])).out);
    const byId = Object.fromEntries(
      json.results.map((r: { id: string; parent: string | null }) => [r.id, r.parent]),
    );
    assertEquals(byId, {
      "f328310d-orphan-child": "f328310d-gone-parent",
      "a-plain-0003": null,
    });
  } finally {
    ix.cleanup();
  }
});
