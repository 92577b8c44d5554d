/**
 * A question's extra words do not push out the session that asked it: a
 * session holding the question's words together in its prompt, in another
 * form of one word (`requires` for `required`, `frozen` for `freezes`), or
 * most of them, competes with sessions that only scatter every word as typed
 * over a long conversation or a tool's output (lib/search/ladder.ts).
 */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";
import { narration } from "../lib/cli/search_narration.ts";

/** A long session that names every word of the questions once, far apart, in tool output. */
const marathon = (n: number): MemSession => ({
  id: `s-marathon-${n}`,
  // Two days apart: the same records at the same time would be one session's copies.
  at: Date.UTC(2026, 9, 20 + 2 * n),
  events: [
    ["user", "set up the dev box"],
    ...Array.from({ length: 30 }, (_, i): ["assistant" | "tool_result", string] => [
      i % 2 ? "tool_result" : "assistant",
      [
        "git status: clean",
        "bash profile path updated",
        "docker compose file added",
        "windows line endings converted",
        "node is not installed yet",
        "the agent plan is ready, freeze the plan now",
        "the ide settings were synced",
        `step ${i} done`,
      ][i % 8],
    ]),
    // Every word as typed in one event, but not as the one phrase the question is (a phrase
    // held verbatim ranks first: lib/search/verbatim.ts).
    ["tool_result", "the hook: git bash is required, on windows hosts, installed by the script"],
  ],
});

const HISTORY: MemSession[] = [
  marathon(1),
  marathon(2),
  {
    id: "s-docker",
    events: [
      [
        "user",
        'docker fails on my windows box: exec: "docker": executable file not found in %PATH%',
      ],
      ["assistant", "Docker Desktop is not on the PATH of that shell; add its bin folder."],
    ],
  },
  {
    id: "s-gitbash",
    events: [
      ["user", "Claude Code on Windows requires git bash, where do I get it"],
      ["assistant", "Install Git for Windows; it ships Git Bash."],
    ],
  },
  {
    id: "s-frozen",
    events: [
      ["user", "the chat agent in the IDE keeps getting frozen after a minute"],
      ["assistant", "The extension host was blocked by a watcher; excluded node_modules."],
    ],
  },
];

Deno.test("a question's session competes with every word scattered over a long one", () =>
  withMemIndex(HISTORY, (s) => {
    for (
      const [q, id] of [
        ["docker is not installed on windows path", "s-docker"],
        ["git bash required on windows", "s-gitbash"],
        ["agent in the IDE freezes", "s-frozen"],
      ]
    ) {
      const r = search(s, q);
      assertEquals(r.results[0]?.id, id, `${q}: ${r.tier} ${r.results.map((x) => x.id)}`);
    }
  }));

Deno.test("exact matches beside word forms: labelled by what ranks first", () =>
  withMemIndex(HISTORY, (s) => {
    const forms = search(s, "git bash required on windows");
    assertEquals(forms.tier, "stemmed");
    assertEquals(forms.nothingMatched, false);
    // Said so: the first by forms, the exact matches after it (never "no exact match").
    assertEquals(forms.exactFollow, 2); // the two marathons

    // One sentence that reads (a user trial, 2026-12, got "the first by word forms: doctrine →
    // doctrinal; loaded → load, loads; 1 of the others holds every word as typed").
    const said = narration(forms);
    assertEquals(
      said,
      "the first result matches word forms (required → requires); the other 2 hold every word as typed",
    );
    const relevance = search(s, "docker is not installed on windows path");
    assertEquals([relevance.tier, relevance.exactFollow, relevance.nothingMatched], [
      "relevance",
      2,
      false,
    ]);
    assertEquals(
      narration(relevance).startsWith("the first result is the nearest by relevance; "),
      true,
      narration(relevance),
    );
    // Those holding only some of the words are marked, the ones holding every word not
    // (trial 90 F5: all were `partial: false`).
    assertEquals(relevance.results[0].partial, true);
    assertEquals(relevance.results.filter((r) => !r.partial).length, 2);
    // The sessions holding the words as typed are still listed.
    assertEquals(forms.results.map((x) => x.id).sort(), [
      "s-gitbash",
      "s-marathon-1",
      "s-marathon-2",
    ]);
    // Each word as typed, in one event of a short session: exact, nothing widened.
    const exact = search(s, "windows requires git bash");
    assertEquals(exact.tier, "exact");
    assertEquals(exact.results[0]?.id, "s-gitbash");
    assertEquals(exact.changes, []);
    assertEquals(exact.exactFollow, undefined);
  }));

Deno.test("a word held only inside its own forms is widened to all its forms, not fragments", () =>
  withMemIndex([
    {
      id: "s-freezes",
      events: [["user", "the agent freezes when the ide restarts"], ["assistant", "ok"]],
    },
    {
      id: "s-freezing",
      events: [["user", "agent keeps freezing inside the ide"], ["assistant", "it froze"]],
    },
  ], (s) => {
    // `freeze` is not in the history; `freezes` holds it as a fragment and is also a form of it.
    const r = search(s, "agent ide freeze");
    assertEquals(r.tier, "stemmed", `${r.tier} ${r.results.map((x) => x.id)}`);
    assertEquals(r.results.map((x) => x.id).sort(), ["s-freezes", "s-freezing"]);
  }));
