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

// Trial 90 F1-F3: an error pasted as printed, with its own quotes (a JSON body, quoted names
// that change per run) or a provider's `Invalid '…':` wording, found nothing.
Deno.test("a pasted error's own quotes are no phrases, and a provider's Invalid message is an error", async () => {
  const ix = await memIndex([
    LOOKALIKE,
    {
      id: "s-pod",
      project: "/home/dev/work/k3s",
      events: [
        ["user", "why does this fail"],
        [
          "tool_result",
          'Error from server (BadRequest): previous terminated container "forgejo" in pod "forgejo-5f4d46f74-hwbtn" not found',
        ],
      ],
    },
    {
      id: "s-codex",
      project: "/home/dev/work/cli",
      events: [
        ["user", "hello"],
        [
          "assistant",
          "{\"error\":\"developer is not one of ['system', 'assistant', 'user'] - 'messages.[0].role' (ref: 1b2c3d4e-84b1-43ac-b608-8469df0eb040)\"}",
        ],
      ],
    },
    {
      id: "s-input",
      project: "/home/dev/work/chat",
      events: [
        ["user", "send it"],
        [
          "assistant",
          "Invalid 'input[3].name': empty string. Expected a string with minimum length 1",
        ],
      ],
    },
  ]);
  const s = ix.open();
  try {
    const ids = (q: string) => {
      const r = search(s, q, { env: ix.env });
      return [r.tier, r.nothingMatched, r.query === q, r.results.map((x) => x.id)];
    };
    assertEquals(
      ids(
        'Error from server (BadRequest): previous terminated container "web" in pod "forgejo-web" not found',
      ),
      ["error", false, true, ["s-pod"]],
    );
    assertEquals(
      ids(
        `{"error":"developer is not one of ['system', 'assistant'] - 'messages.[1].role' (ref: aaaaaaaa-84b1-43ac-b608-8469df0eb040)"}`,
      ),
      ["error", false, true, ["s-codex"]],
    );
    assertEquals(
      ids("Invalid 'input[7].name': empty string. Expected a string with minimum length 1"),
      ["error", false, true, ["s-input"]],
    );
    // A phrase quoted whole stays a phrase.
    const phrase = search(s, '"previous terminated pod"', { env: ix.env });
    assertEquals(phrase.results.map((x) => x.id), []);
  } finally {
    s.close();
    ix.cleanup();
  }
});

Deno.test("a PowerShell cmdlet's error is an error line, its argument changed", async () => {
  // Trial 92 F2: matched by signature only with `Error:` typed before it.
  const ix = await memIndex([LOOKALIKE, {
    id: "s-ps",
    project: "/home/dev/work/vault",
    events: [
      ["user", "read the notes"],
      [
        "tool_result",
        "Get-Content : A positional parameter cannot be found that accepts argument '1.md'.",
      ],
    ],
  }]);
  const s = ix.open();
  try {
    const r = search(
      s,
      "Get-Content : A positional parameter cannot be found that accepts argument 'notes.txt'.",
      { env: ix.env },
    );
    assertEquals([r.tier, r.results.map((x) => x.id)], ["error", ["s-ps"]]);
  } finally {
    s.close();
    ix.cleanup();
  }
});
