/**
 * Products named by what they are (lib/search/products.ts, lib/search/products_match.ts): "my
 * self-hosted git server" reaches the session that names Forgejo, never one the history
 * lacks, and `ABLATE.products` turns it off.
 */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { ABLATE } from "../lib/search/rank.ts";
import { productsFor } from "../lib/search/products_match.ts";
import { TermStats } from "../lib/search/expand.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-forge",
    events: [
      ["user", "forgejo pod goes into crashloop after the upgrade"],
      ["assistant", "The pod ran out of its memory limit; raised it in the chart values."],
    ],
  },
  {
    id: "s-rebase",
    events: [
      ["user", "help me settle these rebase conflicts"],
      ["assistant", "Resolved the conflicts and continued the rebase."],
    ],
  },
  {
    id: "s-other",
    events: [["user", "rename the settings page title"], ["assistant", "Renamed it."]],
  },
];

Deno.test("a question naming a product by what it is reaches the session naming the product", () =>
  withMemIndex(HISTORY, (s) => {
    const q = "why did my selfhosted forge keep dying";
    const r = search(s, q);
    assertEquals(r.tier, "relevance");
    assertEquals(r.results[0]?.id, "s-forge", r.results.map((x) => x.id).join(" "));
    ABLATE.products = true;
    try {
      const off = search(s, q);
      assert(off.results[0]?.id !== "s-forge" || off.nothingMatched, "without it, no bridge");
    } finally {
      ABLATE.products = false;
    }
  }));

Deno.test("only products the history names are read, and a product's own name is no description", () =>
  withMemIndex(HISTORY, (s) => {
    const stats = new TermStats(s);
    assertEquals([...productsFor(stats, ["forge", "cache"]).entries()], [["forge", ["forgejo"]]]);
    assertEquals(productsFor(stats, ["forgejo"]).size, 0);
  }));
