/**
 * A fresh-user trial: `telgram fixx` and `kustomizaton fluxx` found nothing although each word
 * alone (or beside the other word spelt right) was corrected, and `telegram bto` found nothing
 * although `bot` is indexed: `bto` was read only as inside `btop`. Each misspelt word is
 * corrected on its own and the corrections that meet in the history are kept.
 */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-telegram",
    events: [["user", "please fix the telegram bot, it stopped answering"], [
      "assistant",
      "Fixed the webhook URL of the bot.",
    ]],
  },
  {
    id: "s-flux",
    events: [["user", "the flux kustomization does not reconcile"], [
      "assistant",
      "The path in the kustomization was wrong.",
    ]],
  },
  {
    id: "s-btop",
    events: [["user", "install btop to watch the cpu"], ["assistant", "Installed btop."]],
  },
  {
    id: "s-other",
    events: [["user", "rename the fixture files"], ["assistant", "Renamed them."]],
  },
];

Deno.test("two misspelt words are each corrected and meet in one session", () =>
  withMemIndex(HISTORY, (s) => {
    for (const [q, want] of [["telgram fixx", "s-telegram"], ["kustomizaton fluxx", "s-flux"]]) {
      const r = search(s, q);
      assertEquals(r.tier, "close", `${q}: ${r.tier} ${JSON.stringify(r.changes)}`);
      assertEquals(r.results[0]?.id, want, q);
      assertEquals(r.changes.length, 2, `${q}: ${JSON.stringify(r.changes)}`);
    }
  }));

Deno.test("a three-letter word with two letters swapped beside a right word is corrected", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "telegram bto");
    assertEquals(r.tier, "close", JSON.stringify(r.changes));
    assertEquals(r.results.map((x) => x.id), ["s-telegram"]);
    assert(r.changes.some((c) => c.from === "bto" && c.to.includes("bot")), JSON.stringify(r));
    // Where the substring reading meets the other word, it stands.
    assertEquals(search(s, "install bto").results[0]?.id, "s-btop");
  }));

Deno.test("misspelt words whose corrections live only in different sessions find nothing", () =>
  withMemIndex(HISTORY, (s) => {
    for (const q of ["telgram fluxx", "kustomizaton fixx"]) {
      const r = search(s, q);
      assertEquals(r.results.map((x) => x.id), [], `${q}: ${r.tier} ${JSON.stringify(r.changes)}`);
    }
  }));

Deno.test("a misspelt word beside a three-letter word with two letters swapped: both are corrected", () =>
  withMemIndex([
    ...HISTORY,
    {
      id: "s-pdf",
      events: [["user", "summarize the pdf report"], ["assistant", "The pdf says the cpu is hot."]],
    },
  ], (s) => {
    for (const q of ["sumarize pfd", "summarize pfd", "sumarize pdf", "pfd"]) {
      const r = search(s, q);
      assertEquals(r.results.map((x) => x.id), ["s-pdf"], `${q}: ${r.tier} ${JSON.stringify(r)}`);
      assertEquals(r.tier, "close", q);
    }
  }));
