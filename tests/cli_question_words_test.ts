/**
 * A question that holds every word of a session and question words besides
 * (`deja why does agent IDE freeze`), through the CLI in-process: the words
 * that carry meaning decide, the question words neither match nor rank.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";

const filler = (i: number): MemSession => ({
  id: `s-other-${i}`,
  events: [
    ["user", `why does the ${["cart", "ledger", "quota"][i % 3]} build fail on ci`],
    ["assistant", "The config was stale; I rebuilt the cache."],
  ],
});

const HISTORY: MemSession[] = [
  {
    id: "s-freeze",
    events: [
      ["user", "the agent panel hangs and the whole IDE freezes for a minute"],
      ["assistant", "A blocking file watcher call on the main thread; moved it to a worker."],
    ],
  },
  {
    // Holds the question words and one word of the question, never the rest.
    id: "s-asks",
    events: [
      ["user", "why does the agent do that? how can I see what it does"],
      ["assistant", "It reads the files it is given; the log shows what it does."],
    ],
  },
  ...[0, 1, 2, 3, 4, 5].map(filler),
];

Deno.test("a question holding every word of a session in some form finds it, says so and exits 0", async () => {
  const ix = await memIndex(HISTORY);
  try {
    for (const q of ["why does agent IDE freeze", "why does my agent IDE freeze?"]) {
      const r = await runMain(ix.env, q.split(" "));
      assertEquals(r.code, 0, `${q}: ${r.err}`);
      assert(!r.err.includes("nothing matched"), `${q}: ${r.err}`);
      assertStringIncludes(r.err, "word forms: freeze → freezes");
      assert(r.out.trimStart().startsWith("s-freeze"), `${q}: ${r.out}`);
      const j = await runMain(ix.env, ["--json", ...q.split(" ")]);
      assertEquals(j.code, 0);
      const o = JSON.parse(j.out);
      assertEquals([o.tier, o.nothing_matched, o.exact_follow], ["stemmed", false, false]);
      assertEquals(o.results[0].id, "s-freeze");
      assertEquals(o.dropped.includes("why"), true);
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("a question's scaffolding the session lacks (how did we fix …) is left out and said so", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const forms = await runMain(ix.env, [
      "how",
      "did",
      "we",
      "fix",
      "the",
      "agent",
      "IDE",
      "freeze",
    ]);
    assertEquals(forms.code, 0, forms.err);
    assertStringIncludes(
      forms.err,
      "no exact match; word forms: freeze → freezes; left out the question's fix",
    );
    assert(forms.out.trimStart().startsWith("s-freeze"), forms.out);
    const typed = await runMain(ix.env, [
      "--json",
      "how",
      "did",
      "we",
      "fix",
      "the",
      "panel",
      "hangs",
    ]);
    assertEquals(typed.code, 0);
    const o = JSON.parse(typed.out);
    assertEquals([o.tier, o.nothing_matched, o.results[0].id], ["exact", false, "s-freeze"]);
    assert(o.dropped.includes("fix") && o.dropped.includes("how"), o.dropped);
    const text = await runMain(ix.env, ["how", "did", "we", "fix", "the", "panel", "hangs"]);
    assertStringIncludes(text.err, "every word matched but the question's fix");
    // The scaffolding alone is not a match: `crash` is nowhere.
    const miss = await runMain(ix.env, ["how", "did", "we", "fix", "the", "agent", "IDE", "crash"]);
    assertEquals(miss.code, 1);
    assertStringIncludes(miss.err, "nothing matched");
  } finally {
    ix.cleanup();
  }
});

Deno.test("a question sharing only question words (or not every content word) is nothing matched, exit 1", async () => {
  const ix = await memIndex(HISTORY);
  try {
    // `printer` and `jam` are nowhere: only `why`, `does`, `my`, `the` are shared.
    const none = await runMain(ix.env, ["why", "does", "my", "printer", "jam"]);
    assertEquals(none.code, 1, none.out);
    assertStringIncludes(none.err, "nothing matched");
    // `crash` is nowhere: the sessions nearest by relevance, labelled as such.
    const near = await runMain(ix.env, ["--json", "why", "does", "agent", "IDE", "crash"]);
    assertEquals(near.code, 1);
    const o = JSON.parse(near.out);
    assertEquals([o.tier, o.nothing_matched, o.exact_follow], ["relevance", true, false]);
  } finally {
    ix.cleanup();
  }
});
