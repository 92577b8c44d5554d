/**
 * The ladder's labels and limits: a long query whose words one session holds
 * is exact (and only that session is), several typos are ranked as their
 * corrected query is, and a short word or a word inside another word does not
 * stretch to a look-alike.
 */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { type MemSession, type MemStore, withMemIndex } from "./_search_fixture.ts";

const LOG =
  "waybar [2025-06-30 20:32:01.563] [info] Using configuration file /home/user/.config/waybar/config";

/** Sessions that say the common words of the queries again and again. */
const chatty = (n: number): MemSession => ({
  id: `s-chatty-${n}`,
  events: Array.from({ length: 8 }, (_, i): ["user" | "assistant", string] => [
    i % 2 ? "assistant" : "user",
    `using the configuration file info ${i}: it looks better, logging after the change`,
  ]),
});

const HISTORY: MemSession[] = [
  {
    id: "s-waybar",
    events: [["user", LOG], ["assistant", "The bar reads that file at start."]],
  },
  {
    id: "s-login",
    events: [
      ["user", "Ok that looks better. After logging in I don't want the banner any more."],
      ["assistant", "Removed the banner from the landing page."],
    ],
  },
  chatty(1),
  chatty(2),
  chatty(3),
  {
    id: "s-vsc",
    events: [
      ["user", "which copilot plan do I have"],
      ["assistant", "copilot business, seats are managed by the org"],
      ["user", "copilot keeps suggesting the old api"],
      ["user", "list my vscode extensions"],
      ["assistant", "18 extensions are installed"],
      ["user", "uninstall the extensions I never use"],
      ["assistant", "Uninstalled 6 extensions."],
    ],
  },
  {
    id: "s-one",
    events: [["user", "do copilot extensions cost extra"], ["assistant", "No."]],
  },
  {
    id: "s-crewai",
    title: "Inspect CrewAI boot blockers",
    events: [["user", "why does the crewai bot hang on boot"], [
      "assistant",
      "A blocker in the queue.",
    ]],
  },
  {
    id: "s-words",
    events: [
      ["user", "the pong game in the browser, the rule for the ball, the amulet item"],
      ["assistant", "In any case it is safe: the glad path and the glaze shader came back."],
      ["tool_result", "created run 01kjyakes72ajv4je7nyf1f5g3 in /srv/app/opencode/dist"],
    ],
  },
];

const withHistory = (fn: (s: MemStore) => void) => withMemIndex(HISTORY, fn);

Deno.test("a long query held whole by one session is exact, and only that session is", () =>
  withHistory((s) => {
    for (
      const [q, id] of [
        ["waybar info using configuration file", "s-waybar"],
        ["looks better after logging don't", "s-login"],
        ["Ok that looks better. After logging in I don't want the banner any more.", "s-login"],
        [LOG, "s-waybar"],
      ]
    ) {
      const r = search(s, q);
      assertEquals(r.results[0]?.id, id, `${q}: ${r.tier}`);
      assertEquals(r.tier, "exact", q);
      assertEquals(r.nothingMatched, false, q);
      assertEquals(r.results.map((x) => x.id), [id], q);
      assertEquals(r.total, 1, q);
    }
  }));

Deno.test("a long query no session holds whole falls back to relevance", () =>
  withHistory((s) => {
    const r = search(s, "waybar info using configuration file banner");
    assert(r.tier === "relevance" || r.tier === "none", r.tier);
    assertEquals(r.nothingMatched, true);
  }));

Deno.test("several typos rank as the corrected query does, session-level", () =>
  withHistory((s) => {
    const right = search(s, "copilot extensions");
    assertEquals(right.results.map((x) => x.id).sort(), ["s-one", "s-vsc"]);
    const typo = search(s, "copilto extensoins");
    assertEquals(typo.tier, "close");
    assertEquals(typo.results.map((x) => x.id), right.results.map((x) => x.id));
    assertEquals(typo.results.map((x) => x.hits), right.results.map((x) => x.hits));
    const three = search(s, "copilto extensoins uninstal");
    assertEquals(three.results[0]?.id, "s-vsc", three.tier);
    assertEquals(three.nothingMatched, false);
  }));

Deno.test("a short word or a word inside another word finds no look-alike", () =>
  withHistory((s) => {
    for (const q of ["pony", "mule", "yak", "cafe", "glade", "zorp"]) {
      const r = search(s, q);
      assertEquals(r.results.map((x) => x.id), [], `${q}: ${r.tier} ${JSON.stringify(r.changes)}`);
      assertEquals(r.nothingMatched, true, q);
    }
    // What the tiers are for still works: a swap in a short word, the end of a token, a cut word.
    assertEquals(search(s, "gale").results.map((x) => x.id), [], "gale is not glad");
    assertEquals(search(s, "plog").results.map((x) => x.id), [], "plog is not pong");
    const swap = search(s, "pnog");
    assertEquals(swap.results[0]?.id, "s-words", swap.tier);
    const tail = search(s, "code");
    assertEquals(tail.tier, "substring");
    assertEquals(tail.results.map((x) => x.id).sort(), ["s-vsc", "s-words"]);
    assert(search(s, "extensio").results.some((x) => x.id === "s-vsc"));
  }));

Deno.test("a word the history holds, in a title too, is never reported as corrected", () =>
  withHistory((s) => {
    const r = search(s, "crewia bot blockers");
    assertEquals(r.tier, "close");
    assertEquals(r.results[0]?.id, "s-crewai");
    assertEquals(r.changes, [{ from: "crewia", to: ["crewai"] }]);
  }));
