/** The relevance tier's rerank by the head of each session (lib/search/fielded.ts). */
import { assertEquals } from "../../tests/_assert.ts";
import { search } from "../search.ts";
import { headShare, leastConcept, SHARED_HEAD } from "./fielded.ts";
import { withAblation } from "./rank.ts";
import { type MemSession, withMemIndex } from "../../tests/_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    // States the problem in its first prompt, in other words than the question's.
    id: "s-invoice",
    events: [
      ["user", "the invoice printout comes out garbled"],
      ["assistant", "I will look at the renderer."],
      ["tool_call", "cat renderer.log"],
      ["tool_result", "renderer started\nfont table loaded"],
      ["assistant", "The root cause was a missing font; I embedded it."],
    ],
  },
  {
    // Names the question's words as typed, but only in later turns and tool output.
    id: "s-deploy",
    events: [
      ["user", "rename the settings page title"],
      ["assistant", "The bill document template reads the title; its preview looks garbled."],
      ["tool_call", "grep -r title templates/bill"],
      ["tool_result", "templates/bill/document.html: garbled title"],
      ["user", "check the bill document again"],
      ["assistant", "Renamed it; the bill document is no longer garbled."],
    ],
  },
  { id: "s-other", events: [["user", "add a dark mode toggle"], ["assistant", "Added it."]] },
];

Deno.test("a session stating the problem in its first prompt outranks one naming the words in tool output", () =>
  withMemIndex(HISTORY, (s) => {
    const q = "why is the bill document scrambled";
    const r = search(s, q);
    assertEquals(r.tier, "relevance");
    assertEquals(r.results.map((x) => x.id)[0], "s-invoice", r.results.map((x) => x.id).join(" "));
  }));

Deno.test("without the rerank the tool output's literal words win (what the rerank changes)", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "why is the bill document scrambled", { ablate: ["fielded"] });
    assertEquals(
      r.results.map((x) => x.id)[0],
      "s-deploy",
      r.results.map((x) => x.id).join(" "),
    );
  }));

/** Two sessions on one component: the first sentence of each first prompt states its problem. */
const SAME_COMPONENT: MemSession[] = [
  {
    id: "s-retry",
    events: [
      ["user", "The image resizer ignores the retry limit. Have a look."],
      ["assistant", "The resizer loop had no cap; I added one."],
    ],
  },
  {
    // Its problem is another; the question's word as typed is only in the prompt's aside.
    id: "s-slow",
    events: [
      ["user", "The image resizer times out under load. Try it and say if it works again."],
      ["assistant", "The resizer now streams the file."],
    ],
  },
  { id: "s-other", events: [["user", "add a dark mode toggle"], ["assistant", "Added it."]] },
];

Deno.test("words of the first prompt's first sentence outweigh those of the rest of it", () =>
  withMemIndex(SAME_COMPONENT, (s) => {
    const r = search(s, "why does the picture scaling step keep trying endlessly?");
    assertEquals(r.tier, "relevance");
    assertEquals(r.results.map((x) => x.id)[0], "s-retry", r.results.map((x) => x.id).join(" "));
  }));

Deno.test("one head word stands for one query word: a second word it relates to takes it at a share", () => {
  // `memory` is the best alternative of both `ram` and `growing` (weight 0.5 each).
  const head = new Map([["memory", 1]]);
  const alts = [[["memory"]], [["memory"]]];
  const w = () => 0.5;
  const one = Math.sqrt(0.5);
  const share = headShare(head, alts, w, [1, 1]);
  assertEquals(share.toFixed(6), (one + SHARED_HEAD * one).toFixed(6));
  // Without the rule it counted for both.
  const twice = withAblation(["distinct"], () => headShare(head, alts, w, [1, 1]));
  assertEquals(twice.toFixed(6), (2 * one).toFixed(6));
});

Deno.test("a head naming one concept of the query and not the other is not lifted for concepts", () => {
  const concepts = [{ terms: [0], idf: 2 }, { terms: [1, 2], idf: 3 }];
  const idfs = [2, 3, 1];
  // Component named as typed, symptom by a related word at half its value.
  assertEquals(leastConcept([2, 0, 0.5], idfs, concepts), 0.5);
  // The symptom's concept not named at all: nothing.
  assertEquals(leastConcept([2, 0, 0], idfs, concepts), 0);
  assertEquals(withAblation(["headConcepts"], () => leastConcept([2, 0, 0.5], idfs, concepts)), 0);
  // A query of one concept: nothing to coordinate.
  assertEquals(leastConcept([2], [2], [{ terms: [0], idf: 2 }]), 0);
});

/** A question whose word the history holds only in another form (`bill` as `billing`). */
const FORMS_ONLY: MemSession[] = [
  {
    id: "s-invoice",
    events: [
      ["user", "invoice creation deadlocks when two jobs run at once"],
      ["assistant", "Both invoice creation jobs lock the invoice table in a different order."],
      [
        "assistant",
        "The root cause was the lock order; invoice creation now takes it in one order.",
      ],
    ],
  },
  {
    // Holds `billing` and `creation` as typed: most of the question, and not its problem.
    id: "s-billing",
    events: [
      ["user", "rename the button on the billing creation form"],
      ["assistant", "Renamed the button."],
    ],
  },
  // Deadlocks elsewhere: the symptom's word is common, the component's words weigh the most.
  ...["queue", "cache", "mailer", "importer"].map((c): MemSession => ({
    id: `s-${c}`,
    events: [["user", `the ${c} deadlocks on start`], ["assistant", `Fixed the ${c} deadlock.`]],
  })),
];

Deno.test("a query word held only in another form is still widened with its related words", () =>
  withMemIndex(FORMS_ONLY, (s) => {
    const q = "bill creation is stuck";
    const r = search(s, q);
    assertEquals(r.tier, "relevance");
    assertEquals(r.results.map((x) => x.id)[0], "s-invoice", r.results.map((x) => x.id).join(" "));
    // Without the rule `bill` stays `billing` only, and the session naming it wins.
    const off = search(s, q, { ablate: ["formWiden"] });
    assertEquals(
      off.results.map((x) => x.id)[0],
      "s-billing",
      off.results.map((x) => x.id).join(" "),
    );
  }));

/** Two sessions holding `add`, `redis` and `cluster` in one event: one set out to do it. */
const STATED: MemSession[] = [
  {
    // Names the words in passing, in one short assistant line about other work.
    id: "s-passing",
    title: "Add backend pod to the timer app",
    events: [
      ["user", "Add a backend pod to the timer app"],
      [
        "assistant",
        "Set REDIS_URL to redis://redis.svc.cluster.local; add it to the frontend too.",
      ],
    ],
  },
  {
    id: "s-stated",
    title: "Add Redis",
    events: [
      [
        "user",
        "Summary of the last session:\nOur goal: add redis to this kubernetes cluster, simply.",
      ],
      ["tool_call", "kubectl apply -f apps/infra/redis/helmrelease.yaml"],
      ["tool_result", "helmrelease.helm.toolkit.fluxcd.io/redis created"],
      ["assistant", "Redis runs in the cluster now; I committed the manifests."],
    ],
  },
  { id: "s-other", events: [["user", "add a dark mode toggle"], ["assistant", "Added it."]] },
];

Deno.test("a literal match whose title or first request holds every word ranks first", () =>
  withMemIndex(STATED, (s) => {
    const r = search(s, "add redis to the cluster");
    assertEquals(r.tier, "exact");
    assertEquals(r.results.map((x) => x.id)[0], "s-stated", r.results.map((x) => x.id).join(" "));
    // Without the lift the passing line's BM25 wins (what the lift changes).
    const off = search(s, "add redis to the cluster", { ablate: ["literalHeads"] });
    assertEquals(
      off.results.map((x) => x.id)[0],
      "s-passing",
      off.results.map((x) => x.id).join(" "),
    );
  }));

/** A session about a named tool beside one whose first prompt states the query's common words. */
const NAMED_TOOL: MemSession[] = [
  {
    id: "s-head",
    events: [
      ["user", "Look at the last commit. It caused test failures and I do not see why."],
      ["assistant", "The commit changed the fixture loader; the tests now set it up."],
      ["tool_call", "npm test"],
      ["tool_result", "12 passing"],
    ],
  },
  {
    // Repeats the rare word the query names, in later turns and tool calls only.
    id: "s-pester",
    events: [
      ["user", "analyze possible errors in the setup scripts"],
      ["assistant", "I will read the scripts first."],
      ["tool_call", "Get-Content setup.ps1"],
      ["tool_result", "Install-Module Az -Force"],
      ["assistant", "The install runs without an admin check; I added one."],
      ["tool_call", "Invoke-Pester -Path specs/Setup.ps1"],
      ["tool_result", "Pester: 4 passed, 1 skipped"],
      ["assistant", "The skipped case needs a network; I marked it so."],
    ],
  },
  ...Array.from({ length: 6 }, (_, i): MemSession => ({
    id: `s-filler-${i}`,
    events: [
      ["user", `make the test of module ${i} faster`],
      ["assistant", "I will read the module first."],
      ["tool_call", `cat src/module${i}.ts`],
      ["tool_result", "export function run() { return cache.load(); }"],
      ["assistant", "The cache loads twice; I keep the first load."],
      ["tool_call", `npm run build -- module${i}`],
      ["tool_result", "built in 2.1s, 0 failures"],
      ["assistant", "Done; it runs in half the time."],
    ],
  })),
];

Deno.test("the head lift does not carry a session above the one repeating the query's rarest word it lacks", () =>
  withMemIndex(NAMED_TOOL, (s) => {
    const q = "pester test failures";
    const r = search(s, q);
    assertEquals(r.tier, "relevance");
    assertEquals(r.results.map((x) => x.id)[0], "s-pester", r.results.map((x) => x.id).join(" "));
    // Without the rule the lifted head is first: what the rule changes.
    const off = search(s, q, { ablate: ["rareHeld"] });
    assertEquals(off.results.map((x) => x.id)[0], "s-head", off.results.map((x) => x.id).join(" "));
  }));

/** One session's error holds three of four words; others hold two, stated in their heads. */
const HELD_TOGETHER: MemSession[] = [
  {
    id: "s-error",
    events: [
      ["user", "Hello?"],
      ["notice", "Error: developer is not one of ['system', 'user'] - 'messages.[0].role'"],
    ],
  },
  {
    // The query's rarest word, in a comparison, beside one more of its words.
    id: "s-compare",
    events: [
      ["user", "compare the editor plugins for local models"],
      ["assistant", "Only one runs ollama models; each plugin has a role in the workflow."],
      ["assistant", "Pick the one with local ollama support."],
    ],
  },
  ...["role", "error"].flatMap((w, i) =>
    Array.from({ length: 2 }, (_, j): MemSession => ({
      id: `s-head-${i}-${j}`,
      events: [
        ["user", `the ${w} check in the admin page fails with an error for module ${j}`],
        ["assistant", `I will look at the ${w} check.`],
        ["assistant", "The table was stale; it passes now."],
      ],
    }))
  ),
  ...Array.from({ length: 20 }, (_, i): MemSession => ({
    id: `s-filler-${i}`,
    events: [
      ["user", `make the build of package ${i} faster`],
      ["assistant", "I will read the build script first."],
      ["assistant", "The cache loads twice; I keep the first load."],
    ],
  })),
];

Deno.test("a session holding all the query's words but one in one event ranks above those holding fewer (trial 125 F1)", () =>
  withMemIndex(HELD_TOGETHER, (s) => {
    const q = "ollama developer role error";
    const r = search(s, q);
    assertEquals(r.tier, "relevance");
    assertEquals(r.results.map((x) => x.id)[0], "s-error", r.results.map((x) => x.id).join(" "));
    // Without the rule the heads naming two of the words go first: what the rule changes.
    const off = search(s, q, { ablate: ["heldTogether"] });
    const ids = off.results.map((x) => x.id);
    assertEquals(ids[0] === "s-error", false, ids.join(" "));
  }));
