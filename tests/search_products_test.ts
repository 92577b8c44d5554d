/**
 * Products named by what they are (lib/search/products.ts, lib/search/products_match.ts): "my
 * self-hosted git server" reaches the session that names Forgejo, never one the history
 * lacks, and `ABLATE.products` turns it off.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { search } from "../lib/search.ts";
import { ABLATE } from "../lib/search/rank.ts";
import { describedProducts, productsFor } from "../lib/search/products_match.ts";
import { relevance } from "../lib/search/relevance.ts";
import { TermStats } from "../lib/search/expand.ts";
import { memIndex, type MemSession, withMemIndex } from "./_search_fixture.ts";

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

// Trial 134 F1: `self-hosted git server`, each word held by some session, listed those and never
// the session about Forgejo: the products stand beside words the history holds as typed too.
Deno.test("a product the words describe stands beside words the history holds as typed", () =>
  withMemIndex([
    HISTORY[0],
    { id: "s-slow", events: [["user", "the hosted git mirror answers slowly"]] },
    ...[1, 2, 3, 4].map((i) => ({
      id: `s-common${i}`,
      events: [["user", `the dev server restarted ${i} times`]] as MemSession["events"],
    })),
  ], (s) => {
    // s-slow holds the rarer words as typed: the tier widens none of them with related words,
    // yet the product they describe stands beside each.
    const words = ["hosted", "git", "server"];
    const rel = relevance(new TermStats(s), words, {}, (id) => id, words.join(" "));
    assertEquals(rel.alts, [[["hosted"], ["forgejo"]], [["git"], ["forgejo"]]]);
  }));

Deno.test("a search names the tool its words describe when no session listed first names it", async () => {
  const ix = await memIndex([
    ...HISTORY,
    { id: "s-vault", events: [["user", "1password cli asks me to unlock again and again"]] },
    // Sessions holding both words as typed: listed, and none names 1password.
    ...[1, 2, 3].map((i) => ({
      id: `s-mgr${i}`,
      events: [["user", `reset the password of manager account ${i}`]] as MemSession["events"],
    })),
  ]);
  try {
    const r = await runMain(ix.env, ["password", "manager", "--json"]);
    const d = JSON.parse(r.out);
    assertEquals(d.described_tools, [{
      product: "1password",
      words: ["password", "manager"],
      sessions: 1,
    }]);
    const text = await runMain(ix.env, ["password", "manager"]);
    assertStringIncludes(
      text.err,
      "hint: 'password manager' describes 1password, which 1 session names: deja 1password",
    );
  } finally {
    ix.cleanup();
  }
});

// Trial 134 F2: `openai refused because my organization was not verified for reasoning
// summaries` put the session holding that error word for word 5th: `because` was read as a word.
Deno.test("'because' in a question is no word of it", () =>
  withMemIndex([
    {
      id: "s-err",
      events: [[
        "tool_result",
        "Your organization must be verified to generate reasoning summaries",
      ]],
    },
    ...[1, 2, 3].map((i) => ({
      id: `s-why${i}`,
      events: [["user", `it failed because the openai quota ran out, run ${i}`]] as MemSession[
        "events"
      ],
    })),
  ], (s) => {
    const r = search(s, "openai refused because my organization was not verified for reasoning");
    assert(r.dropped.includes("because"), JSON.stringify(r.dropped));
    assertEquals(r.results[0]?.id, "s-err", r.results.map((x) => x.id).join(" "));
  }));

// Trial 135 F4: `self-hosted git server` named jellyfin (`hosted server`) once the sessions
// listed first named forgejo (`hosted git server`): only the tools the most words describe.
Deno.test("only the tools the most of the words describe are named", () =>
  withMemIndex([
    HISTORY[0],
    { id: "s-media", events: [["user", "jellyfin transcoding stutters on the tv"]] },
  ], (s) => {
    const d = describedProducts(new TermStats(s), ["hosted", "git", "server"]);
    assertEquals(d.map((x) => x.product), ["forgejo"]);
  }));

// Trial 135 F7: "container orchestration" gave two hints for one tool, `deja kubernetes` and
// `deja k8s`: a tool is named once, by the spelling the most sessions write.
Deno.test("two spellings of one tool are named once, by the commoner", () =>
  withMemIndex([
    { id: "s-a", events: [["user", "the kubernetes pods restart every hour"]] },
    { id: "s-b", events: [["user", "kubernetes ingress drops the headers"]] },
    { id: "s-c", events: [["user", "k8s secrets mounted as files"]] },
  ], (s) => {
    const d = describedProducts(new TermStats(s), ["container", "orchestration"]);
    assertEquals(d.map((x) => x.product), ["kubernetes"]);
  }));
