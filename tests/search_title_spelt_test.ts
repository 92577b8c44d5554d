/**
 * A title holding the query's words as the close-spellings tier corrected them ranks first,
 * as one holding them as typed does (new-user trial, 2026-12, real Cursor store: `waybar
 * backgrund paddng` ranked a prompt history of one hit above the session titled "Adjust
 * waybar background and padding", which ranks first spelt right).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { search } from "../lib/search.ts";
import { isSpellingFix, TermStats } from "../lib/search/expand.ts";
import { narration } from "../lib/cli/search_narration.ts";
import { memIndex, type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-titled",
    title: "Adjust waybar background and padding",
    events: [
      ["user", "make the bar look better"],
      ["assistant", "I changed the waybar config."],
      ["assistant", "The background is now dark."],
      ["assistant", "Each module has more padding."],
    ],
  },
  {
    id: "s-prompt",
    events: [
      ["user", "the waybar background padding looks off after the update, fix it please"],
      ["assistant", "Done."],
    ],
  },
];

Deno.test("a title matched by corrected spellings ranks first and is said to", () =>
  withMemIndex(HISTORY, (s) => {
    const spelt = search(s, "waybar background padding");
    assertEquals(spelt.results[0]?.id, "s-titled");
    const r = search(s, "waybar backgrund paddng");
    assertEquals(r.tier, "close");
    assertEquals(r.results.map((x) => x.id), ["s-titled", "s-prompt"]);
    assertEquals(r.results[0].titleMatch, true);
    assertEquals(
      narration(r),
      "matched the title by close spellings: backgrund → background; paddng → padding; " +
        "the others hold them in their events",
    );
  }));

Deno.test("the missing-word hint never names a word a title holds, nor one word twice", async () => {
  const ix = await memIndex([
    {
      id: "s-hermes",
      title: "Getting Started and Introductions",
      events: [["user", "hi, getting started here"], ["assistant", "Welcome."]],
    },
  ]);
  try {
    const r = await runMain(ix.env, ["Getting Qzxwv and Introductions"]);
    assertStringIncludes(r.err, "hint: 'Qzxwv' is in no searchable text");
    assert(!r.err.includes("'Introductions'"), r.err);
    const twice = await runMain(ix.env, ["zzqq welcome zzqq"]);
    assertStringIncludes(twice.err, "hint: 'zzqq' is in no searchable text");
  } finally {
    ix.cleanup();
  }
});

Deno.test("the missing-word hint never names a word held as a part of a name written joined", async () => {
  // Trial 23: "'spinner' is in no session" where a session renders `<CircleSpinner />`.
  const ix = await memIndex([
    {
      id: "s-spin",
      events: [["assistant", "the page renders <CircleSpinner /> while the loadbalancer warms"]],
    },
    { id: "s-page", events: [["user", "the page shows a blank header"]] },
  ]);
  try {
    const r = await runMain(ix.env, ["page", "spinner", "zzqq"]);
    assertStringIncludes(r.err, "hint: 'zzqq' is in no searchable text");
    assert(!r.err.includes("'spinner'"), r.err);
    const lb = await runMain(ix.env, ["page", "balancer", "zzqq"]);
    assert(!lb.err.includes("'balancer'"), lb.err);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a title is found when a word only it holds sits beside a misspelt one", async () => {
  // New-user trial, 2026-12 (a real Hermes session): `introductions` is in no event, so no
  // tier corrected `startd`, and "Getting Started and Introductions" was never looked for.
  const history: MemSession[] = [
    {
      id: "s-hermes",
      title: "Getting Started and Introductions",
      events: [["user", "hi, getting started here"], ["assistant", "Welcome."]],
    },
    { id: "s-other", events: [["user", "getting the build started again"]] },
  ];
  await withMemIndex(history, (s) => {
    const r = search(s, "Getting Startd and Introductions");
    assertEquals(r.tier, "close");
    assertEquals(r.results[0]?.id, "s-hermes");
    assertEquals(r.results[0].titleMatch, true);
    assertEquals(r.changes.map((c) => c.from), ["startd"]);
    assert(r.changes[0].to.includes("started"), JSON.stringify(r.changes));
    // A word with no close spelling anywhere still finds nothing.
    assertEquals(search(s, "Getting Qzxwv and Introductions").results, []);
  });
});

Deno.test("a title holding the query's words in the forms the tier read ranks first", () =>
  withMemIndex(HISTORY, (s) => {
    // New-user trial, 2026-12: `waybar backgrounds` put a prompt history first, the session
    // titled "Adjust waybar background and padding" found only through the singular.
    const r = search(s, "waybar backgrounds");
    assertEquals(r.tier, "stemmed");
    assertEquals(r.results[0]?.id, "s-titled");
    assertEquals(r.results[0].titleMatch, true);
    assertEquals(narration(r).startsWith("matched the title by word forms: backgrounds → "), true);
  }));

Deno.test("a title holding every word in another form is found, also where events hold them as typed", () =>
  withMemIndex([
    {
      id: "s-greeting",
      title: "Simple greeting",
      events: [["user", "hi"], ["assistant", "Hello!"]],
    },
    { id: "s-greet", events: [["user", "write a greet function that is simple"]] },
    {
      id: "s-backfill",
      title: "Backfill Loading State Bug",
      events: [["user", "the spinner never stops"], ["assistant", "Fixed the syncing flag."]],
    },
    { id: "s-bug", events: [["user", "a bug in the parser"]] },
    { id: "s-job", events: [["user", "run the backfill job tonight"]] },
  ], (s) => {
    // Trial 16: `simple greet` missed the sessions titled "Simple greeting" (the events hold
    // `greet` as typed, so no title was looked for in another form).
    const r = search(s, "simple greet");
    assertEquals(r.results[0]?.id, "s-greeting");
    assertEquals(r.results[0].titleMatch, true);
    assert(r.results.some((x) => x.id === "s-greet"));
    // `backfil bug` found nothing: `backfil` is a form of `backfill` to the stemmer, which
    // only the title holds beside `bug`.
    const b = search(s, "backfil bug");
    assertEquals(b.results.map((x) => x.id)[0], "s-backfill");
    assertEquals(b.tier, "stemmed");
    assertEquals(b.changes, [{ from: "backfil", to: ["backfill"] }]);
    assertEquals(narration(b), "matched the title by word forms: backfil → backfill");
  }));

Deno.test("a short word alone is corrected for titles as for events: only swapped or dropped letters", () =>
  withMemIndex([
    { id: "s-title", title: "Add Redis", events: [["user", "add it to the cluster"]] },
    { id: "s-body", events: [["user", "the redis cache is full"]] },
  ], (s) => {
    // Trial 16: `rediz` found the title "Add Redis" alone, the sessions holding `redis` lost.
    assertEquals(search(s, "rediz").results, []);
    const swapped = search(s, "redsi");
    assertEquals(swapped.tier, "close");
    assertEquals(swapped.results.map((x) => x.id).sort(), ["s-body", "s-title"]);
  }));

Deno.test("a title matched in other forms beside events found in forms is said to be", () =>
  withMemIndex([
    {
      id: "s-todo",
      title: "add the todo list, instead of loading the codebase",
      events: [["user", "add the todo list, instead of loading the codebase"]],
    },
    { id: "s-other", events: [["user", "the codebase was loaded slowly, so I added a note"]] },
  ], (s) => {
    // Trial 17a: "matched the title" where the title says `loading` and the query `loaded`
    // (`add`, read in its forms `added` beside, is held as typed).
    const r = search(s, "add todo list instead of loaded codebase");
    assertEquals(r.results[0]?.id, "s-todo");
    assertEquals(r.results[0].titleMatch, true);
    assertStringIncludes(narration(r), "matched the title by word forms: ");
    assertStringIncludes(narration(r), "loaded → ");
  }));

Deno.test("a path typed alone puts the session that changed the file above one quoting it", () =>
  withMemIndex([
    {
      id: "s-quotes",
      events: [
        ["user", "look at /home/me/.config/waybar/style.css please"],
        ["user", "and /home/me/.config/waybar/style.css again, the padding"],
        ["user", "still /home/me/.config/waybar/style.css"],
      ],
    },
    {
      id: "s-edits",
      events: [
        ["user", "make the bar darker"],
        {
          kind: "tool_call",
          text: "Edit /home/me/.config/waybar/style.css",
          tool: {
            name: "Edit",
            edits: [{ path: "/home/me/.config/waybar/style.css", old: "#fff", new: "#222" }],
          },
        },
      ],
    },
  ], (s) => {
    // Trial 18a: a prompt history quoting the path ranked above the session that edited it.
    for (const q of ["/home/me/.config/waybar/style.css", "waybar/style.css", "style.css"]) {
      const r = search(s, q);
      assertEquals(r.results.map((x) => x.id), ["s-edits", "s-quotes"], q);
    }
  }));

Deno.test("a title holding the word only in another form is no title hit beside events holding it as typed", () =>
  withMemIndex([
    {
      id: "s-crashing",
      title: "Forgejo crashing in the cluster",
      events: [["user", "forgejo is down"], [
        "assistant",
        "The pod ran out of memory: a crash loop.",
      ]],
    },
    {
      id: "s-crashes",
      events: [["user", "if the app crashes again, collect the logs"], ["assistant", "Will do."]],
    },
  ], (s) => {
    const r = search(s, "crashes");
    assertEquals(r.tier, "exact");
    // (Listed after it as one holding another form of the word, not as a title hit.)
    assertEquals(r.results.map((x) => [x.id, x.titleMatch]), [
      ["s-crashes", false],
      ["s-crashing", false],
    ]);
    // Its own word beside it: the title in forms still finds it, said so.
    const both = search(s, "forgejo crashes");
    assertEquals(both.results[0]?.id, "s-crashing");
  }));

Deno.test("two letters swapped are a spelling fix, not a word form", () =>
  withMemIndex([
    { id: "s-flux", title: "Flux Kustomization", events: [["user", "flux never reconciles"]] },
  ], (s) => {
    // Trial 83 F10: `kustomizaton flxu` said "close spellings: kustomizaton → kustomization,
    // kustomize; word forms: flxu → flux" (a swap ends on another letter than its word).
    const stats = new TermStats(s);
    assertEquals(isSpellingFix(stats, "flxu", ["flux"]), true);
    assertEquals(isSpellingFix(stats, "kustomizaton", ["kustomization", "kustomize"]), true);
    // A word form is not: it differs at its end.
    assertEquals(isSpellingFix(stats, "reconciled", ["reconciles"]), false);
  }));

Deno.test("a title holding a word only in another form, its events holding it as typed, says so", () =>
  withMemIndex([
    {
      id: "s-crash",
      title: "Forgejo crashing in k3s cluster",
      events: [["user", "forgejo pods crash on k3s"], ["assistant", "The crash was the probe."]],
    },
    { id: "s-k3s", events: [["user", "upgrade k3s on the nodes"]] },
    { id: "s-forgejo", events: [["user", "forgejo runner tokens"]] },
  ], (s) => {
    // Trial 83 F11: "matched the title" of a title that holds `crashing`, not `crash`.
    const r = search(s, "forgejo crash k3s");
    assertEquals(r.results[0]?.id, "s-crash");
    assertEquals(r.results[0].titleMatch, true);
    assertEquals(narration(r), "matched the title by word forms: crash → crashing");
    // Typed as the title says it: no forms named.
    assertEquals(narration(search(s, "forgejo crashing k3s")).includes("by word forms"), false);
  }));
