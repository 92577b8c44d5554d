/**
 * Trial 118: words the history holds only inside longer words (F1: `radar jacket` for
 * `radarr`, `jackett`; a typo beside one), a piece of a name deep in a tool's output (F2:
 * `withYN` of `authorizeWithYNAB`, "corrected" to `within`), and an `-ize` verb's forms (F4:
 * `authorize` read as `author`).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { apartWords, wordsApart } from "../lib/cli/search_words.ts";
import { memIndex, type MemSession, withMemIndex } from "./_search_fixture.ts";
import { runMain } from "./_cli_io.ts";

/** A file read whose first KiB holds no name: the one asked for comes 2 KB in. */
const FILE = "const x = 1;\n".repeat(160) +
  "export async function authorizeWithYNAB(code) { return fetch(tokenUrl) }\n";

const HISTORY: MemSession[] = [
  {
    id: "s-media",
    events: [
      ["user", "Fixed malformed YAML files in the media directories (radarr and jackett)"],
      ["assistant", "The kustomization for radarr builds now."],
    ],
  },
  {
    id: "s-apart",
    events: [["user", "the sonarr pod restarts beside chex mix"], [
      "assistant",
      "jackett answers on 9117.",
    ]],
  },
  { id: "s-chex", events: [["user", "the chexmix timer app"]] },
  {
    id: "s-split",
    events: [["user", "the radarr queue is stuck"], ["assistant", "Restarted jackett."]],
  },
  {
    id: "s-ynab",
    events: [["user", "read the oauth file"], ["tool_result", FILE]],
  },
  ...[1, 2, 3, 4, 5, 6].map((i): MemSession => ({
    id: `s-within${i}`,
    events: [["user", `configure it within the editor ${i}`], [
      "assistant",
      "Done within a minute.",
    ]],
  })),
  {
    id: "s-author",
    events: [["user", "commit it"], ["assistant", "Co-Authored-By: the author of this change"]],
  },
  {
    id: "s-authorize",
    events: [["user", "the app must authorize the user"], ["assistant", "authorization added"]],
  },
];

Deno.test("two words each only inside a longer word find the session holding both", () =>
  withMemIndex(HISTORY, (s) => {
    for (const q of ["radar jacket", "kustom radar", "kustomizaton radar"]) {
      const r = search(s, q);
      assert(!r.nothingMatched, `${q}: ${r.tier}`);
      assertEquals(r.results[0]?.id, "s-media", q);
    }
    // Held as typed and written apart (`chex mix`) beside a word inside a longer one.
    assertEquals(search(s, "chexmix sonar").results.map((x) => x.id), ["s-apart"]);
  }));

Deno.test("two words each inside a longer word are not said apart when a session holds both", () =>
  withMemIndex(HISTORY, (s) => {
    // No event holds `sonarr` and `jackett` together: nothing matched, and no false claim.
    const r = search(s, "sonar jacket");
    assert(r.nothingMatched, r.tier);
    assertEquals(apartWords(s, "sonar jacket", {}), undefined);
  }));

Deno.test("words inside longer words match only where one event holds them together (trial 121 M1)", () =>
  withMemIndex(HISTORY, (s) => {
    // `s-split` holds `radarr` and `jackett` in different events: no match of the pieces, as
    // a session holding none of them together never is (before: listed as words across events).
    const r = search(s, "radar jacket");
    assertEquals(r.results.map((x) => x.id), ["s-media"]);
  }));

Deno.test("pieces held only in different events: nothing matched, and the sessions holding them are named (trial 121 M1)", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const r = await runMain(ix.env, ["sonar", "jacket"]);
    assertEquals(r.code, 1);
    assertStringIncludes(
      r.err,
      "hint: no single event holds 'sonar' and 'jacket' together; 1 session holds them " +
        "between its events: deja show s-apart",
    );
    const json = JSON.parse((await runMain(ix.env, ["--json", "sonar", "jacket"])).out);
    assertEquals(json.words_between, {
      words: ["sonar", "jacket"],
      sessions: 1,
      refs: ["s-apart"],
    });
    const store = ix.open();
    try {
      assertEquals(wordsApart(store, "sonar jacket", {}).apart, undefined);
    } finally {
      store.close();
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("a piece of a name deep in a tool's output finds it before any close spelling", () =>
  withMemIndex(HISTORY, (s) => {
    for (const q of ["withYN", "authorizeWith", "rizeWith", "orizeWithYNAB"]) {
      const r = search(s, q);
      assertEquals(r.tier, "substring", `${q}: ${r.tier} ${JSON.stringify(r.changes)}`);
      assertEquals(r.results.map((x) => x.id), ["s-ynab"], q);
    }
  }));

Deno.test("an -ize verb's forms keep the -ize: authorize is no author", () =>
  withMemIndex(HISTORY, (s) => {
    const ids = search(s, "authorize").results.map((x) => x.id);
    assert(ids.includes("s-authorize"), ids.join());
    assert(!ids.includes("s-author"), ids.join());
  }));

Deno.test("pieces held only in different events match no more beside a third word (trial 128 F8)", () =>
  withMemIndex(HISTORY, (s) => {
    // `s-split` holds `radarr` and `jackett` in different events, `queue` beside the first:
    // the third word, held anywhere, relaxed the rule (before: listed, exit 0).
    for (const q of ["radar jacket queue", "sonar jacket restarts"]) {
      const r = search(s, q);
      assert(r.nothingMatched, `${q}: ${r.tier} ${r.results.map((x) => x.id)}`);
    }
    // The pieces held together in one event, the third word in another: a match.
    const r = search(s, "radar jacket kustomization");
    assert(!r.nothingMatched, r.tier);
    assertEquals(r.results.map((x) => x.id), ["s-media"]);
  }));

Deno.test("a word no session holds beside pieces held apart is named (trial 128 F8)", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const r = await runMain(ix.env, ["sonar", "jacket", "zzyzx"]);
    assertEquals(r.code, 1);
    assertStringIncludes(
      r.err,
      "hint: 'zzyzx' is in no searchable text; without it, nothing matches either: deja sonar jacket",
    );
    assertStringIncludes(r.err, "1 session holds them between its events: deja show s-apart");
  } finally {
    ix.cleanup();
  }
});
