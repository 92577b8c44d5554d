import { assertEquals } from "../../tests/_assert.ts";
import { conceptChunks } from "./concepts.ts";
import type { Ablation } from "./rank.ts";
import { search } from "../search.ts";
import { memIndex, type MemSession } from "../../tests/_search_fixture.ts";

Deno.test("conceptChunks cuts a question at clause words and punctuation, scaffolding left out", () => {
  assertEquals(
    conceptChunks("how did we deal with the file intake endpoint when keeps trying endlessly"),
    [["file", "intake", "endpoint"], ["keeps", "trying", "endlessly"]],
  );
  assertEquals(conceptChunks("bill creation: dies immediately"), [["bill", "creation"], [
    "dies",
    "immediately",
  ]]);
  assertEquals(
    conceptChunks("what was the root cause when the websocket computes wrong sums?"),
    [["websocket", "computes", "wrong", "sums"]],
  );
  assertEquals(conceptChunks("why does the exporter crash"), [["exporter", "crash"]]);
});

const NOW = Date.parse("2026-11-10T12:00:00Z");

Deno.test("relevance lifts the session naming both concepts together over one repeating one", async () => {
  const chatter = (i: number) => `we tidied module ${i} and renamed helper ${i} for clarity`;
  const sessions: MemSession[] = [
    {
      // Both concepts once, in one sentence, in a longer session.
      id: "both",
      events: [
        ["user", "the zorblat exporter keeps flapping at startup"],
        ...Array.from({ length: 8 }, (_, i) => ["assistant", chatter(i)] as ["assistant", string]),
      ],
    },
    {
      // The symptom over and over, the component once, apart.
      id: "repeat",
      events: [
        ["user", "notes on the zorblat exporter"],
        ...Array.from(
          { length: 6 },
          () =>
            ["assistant", "flapping at startup again, flapping at startup"] as [
              "assistant",
              string,
            ],
        ),
      ],
    },
    ...Array.from({ length: 12 }, (_, k): MemSession => ({
      id: `filler-${k}`,
      events: Array.from({ length: 6 }, (_, i) => ["user", chatter(k * 10 + i)]),
    })),
  ];
  const ix = await memIndex(sessions);
  const s = ix.open();
  try {
    // `gizmo` is in no session: nothing matches as typed, the relevance tier ranks.
    const q = "zorblat exporter gizmo: flapping at startup";
    // Coordination alone: no head rerank, and full length normalisation (without
    // coordination the short repeater leads).
    const alone: Ablation[] = ["fielded", "relevanceLength"];
    const with_ = search(s, q, { now: NOW, ablate: alone });
    const without = search(s, q, { now: NOW, ablate: ["coordinate", ...alone] });
    assertEquals(with_.tier, "relevance");
    assertEquals(without.results.map((r) => r.id).slice(0, 2), ["repeat", "both"]);
    assertEquals(with_.results.map((r) => r.id).slice(0, 2), ["both", "repeat"]);
  } finally {
    s.close();
    ix.cleanup();
  }
});
