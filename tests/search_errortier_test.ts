/** The error tier: a match holds the signature's distinctive words, never a look-alike. */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { memIndex, type MemSession, withMemIndex } from "./_search_fixture.ts";

const LOOKALIKE: MemSession = {
  id: "s-keys",
  events: [
    ["user", "rotate the API keys every month, the old one gave an error"],
    ["assistant", "Repeated the rotation steps in the runbook; the API error is gone."],
  ],
};
const REAL: MemSession = {
  id: "s-warmup",
  project: "/tmp/scratch-warmup",
  events: [["user", "Warmup"], ["assistant", "API Error: Repeated 529 Overloaded errors"]],
};
const QUERY = "API Error: Repeated 529 Overloaded errors";

Deno.test("a pasted error whose distinctive word the history lacks matches nothing", async () => {
  const ix = await memIndex([LOOKALIKE]);
  const s = ix.open();
  try {
    const r = search(s, QUERY, { env: ix.env });
    assertEquals(r.tier === "error", false, `matched by signature: ${r.results[0]?.id}`);
    assertEquals(r.nothingMatched, true);
  } finally {
    s.close();
    ix.cleanup();
  }
});

Deno.test("a pasted error never matches a session lacking its distinctive words; a hidden real hit is said", async () => {
  const ix = await memIndex([LOOKALIKE, REAL]);
  const s = ix.open();
  try {
    const hidden = search(s, QUERY, { hideThrowaway: true, env: ix.env });
    assert(
      !hidden.results.some((r) => r.id === "s-keys") || hidden.nothingMatched,
      `look-alike returned as a match (${hidden.tier})`,
    );
    assertEquals(hidden.tier === "error", false);
    assertEquals(hidden.hidden, 1);
    const shown = search(s, QUERY, { env: ix.env });
    assertEquals(shown.results[0].id, "s-warmup");
    assertEquals(shown.nothingMatched, false);
  } finally {
    s.close();
    ix.cleanup();
  }
});

Deno.test("the error tier matches a pasted error whose words differ only in what changes per run", async () => {
  const ix = await memIndex([LOOKALIKE, { ...REAL, project: "/home/dev/work/app" }]);
  const s = ix.open();
  try {
    const r = search(s, "API Error: Repeated 503 Overloaded errors (req_8812)", { env: ix.env });
    assertEquals(r.results.map((x) => x.id), ["s-warmup"]);
    assertEquals(r.nothingMatched, false);
  } finally {
    s.close();
    ix.cleanup();
  }
});

Deno.test("a command the shell did not find must be the one a matching event names", () =>
  // Trial 81 F3: `docker: command not found` matched a table row `op: command not found`
  // "by error signature"; the session where docker was not found was not listed.
  withMemIndex([
    { id: "s-op", events: [["assistant", "| `op: command not found` | Add 1Password to PATH |"]] },
    {
      id: "s-docker",
      events: [["tool_result", "bash: docker: command not found"], [
        "assistant",
        "Installed docker.",
      ]],
    },
    { id: "s-other", events: [["user", "rename the config loader"]] },
  ], (s) => {
    const r = search(s, "zsh: line 4: docker: command not found");
    assertEquals([r.tier, r.results.map((x) => x.id)], ["error", ["s-docker"]]);
    const op = search(s, "zsh: line 4: op: command not found");
    assertEquals([op.tier, op.results.map((x) => x.id)], ["error", ["s-op"]]);
  }));
