/** A word typed whole that the history writes as two (lib/search/compounds.ts `writtenApart`). */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-apart",
    title: "Configure VS Code extensions",
    events: [
      ["user", "I'd like to configure my extensions within VS Code"],
      ["assistant", "Listed the recommended extensions in the workspace file."],
    ],
  },
  {
    id: "s-whole",
    events: [["user", "the .vscode folder holds the launch config"], ["assistant", "Moved it."]],
  },
  // `set up` is a phrasal verb (the forms tier's), never a `setup` written apart here.
  {
    id: "s-setup",
    events: [["user", "please set up the linter"], ["assistant", "Set it up."]],
  },
  { id: "s-other", events: [["user", "add a dark mode toggle"], ["assistant", "Added it."]] },
];

Deno.test("a word typed whole finds the sessions writing it as two words, and those writing it whole", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "vscode");
    assertEquals(r.tier, "exact");
    assertEquals(r.results.map((x) => x.id).sort(), ["s-apart", "s-whole"]);
    const both = search(s, "configure vscode extensions");
    assertEquals(both.results[0]?.id, "s-apart");
    // Without it only the session writing it whole.
    const off = search(s, "vscode", { ablate: ["apart"] });
    assertEquals(off.results.map((x) => x.id), ["s-whole"]);
    // A particle's compound is left to the forms tier: `setup` alone finds `set up` there.
    assertEquals(search(s, "setup").tier === "exact", false);
  }));
