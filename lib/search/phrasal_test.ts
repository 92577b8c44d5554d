/** A related compound stands for its phrasal verb with an object between (lib/search/relevance.ts). */
import { assertEquals } from "../../tests/_assert.ts";
import { search } from "../search.ts";
import { type MemSession, withMemIndex } from "../../tests/_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    // Says `logs users out`, never `logout`: the verb and its particle with an object between.
    id: "s-kicked",
    events: [
      ["user", "The dashboard logs users out after a minute."],
      ["assistant", "The cookie max age was sixty seconds; I raised it."],
    ],
  },
  {
    id: "s-slow",
    events: [
      ["user", "The dashboard renders slowly for people on mobile."],
      ["assistant", "Cached the chart query."],
    ],
  },
  {
    // Holds the compound, so the history knows the word.
    id: "s-button",
    events: [["user", "add a logout button to the menu"], ["assistant", "Added it."]],
  },
];

const QUERY = "why does the dashboard get people signed off";

Deno.test("a question's word stands for a related compound's phrasal verb with an object between", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, QUERY);
    assertEquals(r.tier, "relevance");
    assertEquals(r.results.map((x) => x.id)[0], "s-kicked", r.results.map((x) => x.id).join(" "));
  }));

Deno.test("without it that session holds one word of the question and is not found first", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, QUERY, { ablate: ["phrasal"] });
    const ids = r.results.map((x) => x.id);
    assertEquals(ids[0] === "s-kicked", false, ids.join(" "));
  }));
