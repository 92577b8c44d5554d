/**
 * Trial 53 (a new user asking half-remembered questions of real history): a typo in a name led
 * by a digit (`1pasword`) found nothing, and a one-word question (`1password`) put first a
 * session whose long first prompt, a list of old sessions, names the word once near its end,
 * above the session about it.
 */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { asides } from "../lib/search/fielded.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const LIST = Array.from(
  { length: 20 },
  (_, i) => `- session ${i}: tidy the docket file and align the vault checkpoint protocol notes.`,
).join("\n");

const HISTORY: MemSession[] = [
  {
    id: "s-1password",
    events: [
      ["user", "Alex left you a screenshot of the vault."],
      ["assistant", "I see the vault standby state; what next?"],
      ["user", "1PASSWORD implementation"],
      ["assistant", "I'll propose a 1Password CLI plan with the SSH agent for signing."],
      ["assistant", "Wrote .op/SETUP.md describing the 1Password vault items."],
      ...Array.from({ length: 20 }, (_, i): ["tool_result", string] => [
        "tool_result",
        `line ${i} of the vault conventions file${i % 3 ? "" : ": a 1Password item"}`,
      ]),
    ],
  },
  {
    id: "s-skills",
    events: [
      ["user", `# Existing Skills\n${LIST}\n- [old] Implement 1Password secrets for keys.`],
      ["assistant", "No new skill to extract."],
    ],
  },
  { id: "s-other", events: [["user", "rotate the ssh keys on the build host"]] },
];

Deno.test("a word named once far down a long first prompt does not lift its session first", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "1password");
    assertEquals(r.results.map((x) => x.id), ["s-1password", "s-skills"]);
  }));

Deno.test("a typo in a name led by a digit is spelt as the history writes it", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "1pasword");
    assertEquals(r.results[0]?.id, "s-1password");
    assertEquals(r.tier, "close");
    assertEquals(r.changes[0]?.to[0], "1password");
    // A version or a hash is no typo.
    assertEquals(search(s, "ssh2keys").results, []);
  }));

Deno.test("asides leaves out a first prompt's fenced blocks and list items, not its prose", () => {
  const rest = "\n```\n## Summary\n• Committed and pushed\n```\n\nOur goal: add redis.\n" +
    "- item one\n1. step\n[old] Implement 1Password\n| a | b |\nPlain words stay.";
  assertEquals(asides(rest).split("\n").filter(Boolean), [
    "Our goal: add redis.",
    "Plain words stay.",
  ]);
});
