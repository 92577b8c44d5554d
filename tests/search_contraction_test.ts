/**
 * Contractions typed with or without the apostrophe (`didn't`, `didnt`) are one word as typed,
 * and `not` finds the contractions holding it (trial 17a, trial 18a: prompts typed back from
 * memory missed the session that said them the other way).
 */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { withMemIndex } from "./_search_fixture.ts";

Deno.test("a contraction typed with its apostrophe finds it typed without, and the other way", () =>
  withMemIndex([
    { id: "s-whole", events: [["user", "you didnt push the release branch to github"]] },
    { id: "s-cut", events: [["user", "I don't have a local computer, only my phone"]] },
    { id: "s-other", events: [["user", "push the docs to github; the computer is local"]] },
  ], (s) => {
    const cut = search(s, "didn't push github");
    assertEquals(cut.results.map((r) => r.id), ["s-whole"]);
    assertEquals([cut.tier, cut.changes], ["exact", []]);
    const whole = search(s, "dont have a local computer");
    assertEquals(whole.results[0]?.id, "s-cut");
    assertEquals(whole.tier, "exact");
    // A quoted phrase is held contiguously with the contraction spelt either way.
    assertEquals(search(s, '"I dont have a local computer"').results.map((r) => r.id), ["s-cut"]);
    assertEquals(search(s, '"you didn\'t push the release"').results.map((r) => r.id), [
      "s-whole",
    ]);
    assertEquals(search(s, '"you didn\'t push the docs"').results.length, 0);
  }));

Deno.test("a prompt holding every word as typed ranks above another form of them", () =>
  withMemIndex([
    { id: "s-prompt", events: [["user", "you didnt successfully push the work onto github"]] },
    {
      id: "s-forms",
      events: [
        ["user", "it didn't work, the commit was never pushed to github, we pushed to gitlab"],
        ["assistant", "I pushed it to github now; github shows it"],
      ],
    },
  ], (s) => {
    // Trial 18a: `didnt push github` put the session saying `didn't … pushed … github` first
    // and said "no exact match".
    const r = search(s, "didnt push github");
    assertEquals(r.results[0]?.id, "s-prompt", JSON.stringify(r.results.map((x) => x.id)));
    assertEquals(r.tier, "exact");
  }));

Deno.test("`not` after `did` has the forms of `didn't` alone, not every contraction", () =>
  withMemIndex([
    { id: "s-prompt", events: [["user", "you didnt push the work onto github"]] },
    { id: "s-cut", events: [["user", "the build didn't push the work to github either"]] },
    {
      id: "s-other",
      events: [["assistant", "I dont think so; we cant push the work to github, it doesnt work"]],
    },
  ], (s) => {
    // Trial 18b: `you did not push all the work to my github` read `not` as every contraction
    // (dont, cant, doesnt), and long sessions saying them outranked the prompt saying `didnt`.
    const r = search(s, "you did not push the work to github");
    assertEquals(r.results.map((x) => x.id).sort(), ["s-cut", "s-prompt"]);
    assertEquals(r.changes.find((c) => c.from === "not")?.to.sort(), ["didn", "didnt"]);
    // `not` alone still finds every contraction, among its forms.
    const alone = search(s, "not push github");
    assertEquals(alone.results.map((x) => x.id).includes("s-other"), true);
  }));
