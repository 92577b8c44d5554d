/**
 * Recall of what people type (issue 15): several typos at once, quoted phrases
 * that are phrases, and a typed prompt that ranks its sessions first.
 */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { memIndex, type MemSession, type MemStore, withMemIndex } from "./_search_fixture.ts";

const filler = (i: number): MemSession => ({
  id: `s-other-${i}`,
  events: [
    ["user", `what is the state of the ${["cart", "ledger", "quota"][i % 3]} project refactor`],
    ["assistant", "The project builds; the refactor of the module is half done."],
  ],
});

const HISTORY: MemSession[] = [
  {
    id: "s-webhook",
    events: [
      ["user", "the payment webhook charges customers twice"],
      ["assistant", "The idempotent handling was missing: I store the webhook event id now."],
    ],
  },
  {
    id: "s-enoent",
    project: "/tmp/tmp.abc123/app",
    events: [
      ["user", "the loader fails"],
      ["tool_result", "cat: config.yml: No such file or directory"],
      ["assistant", "The config file was never written."],
    ],
  },
  {
    id: "s-lookalike",
    events: [
      ["user", "cannot open the file: no directory named such"],
      ["assistant", "Created the directory; the file opens now."],
    ],
  },
  {
    id: "s-leak",
    events: [
      ["user", "the checkout service leaks memory overnight"],
      ["assistant", "An unbounded cache; I capped it."],
    ],
  },
  ...[1, 2, 3].map((i): MemSession => ({
    id: `s-prompt-${i}`,
    // Typed on three days (the same records at the same time would be one session's copies).
    at: Date.UTC(2026, 10, i),
    events: [
      ["user", "what is this project about"],
      ["assistant", "It is a small tool that reads sessions and indexes them."],
    ],
  })),
  ...[0, 1, 2, 3, 4, 5].map(filler),
];

const withHistory = (fn: (s: MemStore) => void) => withMemIndex(HISTORY, fn);

Deno.test("search corrects two misspelt words at once when the corrections occur together", () =>
  withHistory((s) => {
    const r = search(s, "idempotnt webhok");
    assertEquals(r.tier, "close");
    assertEquals(r.results[0]?.id, "s-webhook");
    assertEquals(r.changes.map((c) => c.from).sort(), ["idempotnt", "webhok"]);
  }));

Deno.test("search corrects two misspelt words at once when one has four letters (swapped letters)", async () => {
  // Seen on a real Codex history: `vualt sycn` found nothing though `vault sync` is there.
  const ix = await memIndex([
    {
      id: "s-vault",
      events: [["user", "the vault sync stalls on windows"], ["assistant", "A lock file."]],
    },
    { id: "s-else", events: [["user", "the vault is read only"], ["assistant", "sync later"]] },
    ...[0, 1, 2].map(filler),
  ]);
  const s = ix.open();
  try {
    const r = search(s, "vualt sycn");
    assertEquals([r.tier, r.results[0]?.id], ["close", "s-vault"]);
    assertEquals(r.changes.map((c) => c.from).sort(), ["sycn", "vualt"]);
  } finally {
    s.close();
    ix.cleanup();
  }
});

Deno.test("search does not stretch two unknown words into an unrelated pair", () =>
  withHistory((s) => {
    // Each word is one edit from an indexed word, but no event holds the pair.
    const r = search(s, "ledgar modulo");
    assertEquals(r.tier === "close" || r.tier === "stemmed", false, r.tier);
  }));

Deno.test("a quoted phrase held only by hidden sessions answers nothing and counts them", () =>
  withHistory((s) => {
    const r = search(s, '"No such file or directory"', { hideThrowaway: true });
    assertEquals(r.results.map((x) => x.id), []);
    assertEquals(r.nothingMatched, true);
    assertEquals(r.hidden, 1);
    const shown = search(s, '"No such file or directory"');
    assertEquals(shown.results.map((x) => x.id), ["s-enoent"]);
  }));

Deno.test("a query equal to a typed prompt ranks the sessions of that prompt first", () =>
  withHistory((s) => {
    const r = search(s, "what is this project about");
    const top = r.results.slice(0, 3).map((x) => x.id).sort();
    assertEquals(top, ["s-prompt-1", "s-prompt-2", "s-prompt-3"]);
    assert(!r.nothingMatched);
  }));

Deno.test("a question in other words finds its session through related words, as nothing matched", () =>
  withHistory((s) => {
    const r = search(s, "why does the purchase flow eat all the ram");
    assertEquals(r.results[0]?.id, "s-leak");
    assertEquals(r.tier, "relevance");
    assert(r.nothingMatched);
  }));

Deno.test("search finds a path fragment cut mid-token at the substring tier", async () => {
  const ix = await memIndex([
    {
      id: "s-path",
      events: [
        ["user", "the token refresh is flaky"],
        ["tool_call", "cat src/checkout/refreshSessionToken.ts"],
        ["assistant", "The refresh races the logout."],
      ],
    },
    { id: "s-else", events: [["user", "checkout totals are wrong"], ["assistant", "Rounding."]] },
  ]);
  const s = ix.open();
  try {
    for (const q of ["kout/refreshSess", "checkout/refreshSess", "src/check"]) {
      const r = search(s, q);
      assertEquals([r.tier, r.results[0]?.id], ["substring", "s-path"], q);
    }
  } finally {
    s.close();
    ix.cleanup();
  }
});
