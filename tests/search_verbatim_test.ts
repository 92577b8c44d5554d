/**
 * A query some event holds verbatim ranks that session first (lib/search/verbatim.ts).
 * New-user trial on real stores (2026-12): `deja 'No such file or directory'` ranked the two
 * sessions holding the message 17th and 18th of 18, behind sessions naming a file and a
 * directory anywhere; a sentence typed back ranked a word-form match above three verbatim
 * copies.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";
import { search } from "../lib/search.ts";
import { withAblation } from "../lib/search/rank.ts";

const filler = (i: number): MemSession => ({
  id: `s-other-${i}`,
  events: [
    ["user", `no file in the directory ${i}? no, no file`],
    ["assistant", "No file: the directory holds no file, no directory either."],
  ],
});

const HISTORY: MemSession[] = [
  ...Array.from({ length: 6 }, (_, i) => filler(i)),
  {
    id: "s-bucket",
    events: [[
      "assistant",
      `The bucket policy: ${
        "allow read on the logs prefix; ".repeat(12)
      }so where is the bucket now?`,
    ]],
  },
  {
    id: "s-pasted",
    at: Date.parse("2026-06-01T00:00:00Z"),
    events: [
      ["user", "move the logs"],
      [
        "tool_result",
        `the file list: ${"file.txt ".repeat(60)}\n` +
        "mv: cannot move 'app.log' to 'old/': No such file or directory",
      ],
    ],
  },
];

Deno.test("an error pasted back ranks the sessions holding it verbatim first, said in --json", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const r = await runMain(ix.env, ["search", "--json", "No such file or directory"]);
    assertEquals(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assertEquals(j.results[0].id, "s-pasted");
    assertEquals(j.results[0].phrase_match, true);
    // A phrase of one word beside stop words shows the phrase, not the first place that word
    // occurs (trial 15: `the file is` showed three snippets without it).
    const b = await runMain(ix.env, ["search", "--json", "where is the bucket"]);
    const top = JSON.parse(b.out).results[0];
    assertEquals([top.id, top.phrase_match], ["s-bucket", true]);
    assert(top.snippets[0].text.includes("where is the bucket"), b.out);
    assert(j.results.slice(1).every((x: { phrase_match: boolean }) => !x.phrase_match));
    assertEquals(j.tier, "exact");
    // The words it did not search by are not named as left out: the phrase held them all.
    const t = await runMain(ix.env, ["No such file or directory"]);
    assert(!t.err.includes("too common"), t.err);
    // Without the rule the session holding the message is not first (what the test guards).
    const store = ix.open();
    try {
      const off = withAblation(["verbatim"], () => search(store, "No such file or directory"));
      assert(off.results[0]?.id !== "s-pasted", off.results.map((x) => x.id).join(" "));
    } finally {
      store.close();
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("a phrase under a filter is looked for under it, and two words are no phrase", async () => {
  const ix = await memIndex([
    ...HISTORY,
    {
      id: "s-elsewhere",
      project: "/w/elsewhere",
      events: [["tool_result", "cat: x.txt: No such file or directory"]],
    },
  ]);
  try {
    const r = await runMain(ix.env, [
      "search",
      "--json",
      "--project",
      "elsewhere",
      "No such file or directory",
    ]);
    const ids = JSON.parse(r.out).results.map((x: { id: string }) => x.id);
    assertEquals(ids, ["s-elsewhere"], r.out + r.err);
    const two = await runMain(ix.env, ["search", "--json", "file directory"]);
    assert(
      JSON.parse(two.out).results.every((x: { phrase_match: boolean }) => !x.phrase_match),
      two.out,
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("words typed apart find the name code writes them as, joined, first and named", async () => {
  // Trial 14: `deja "fetch user by id"` listed four sessions naming fetch, user and id
  // anywhere, not the one defining `fetchUserById`.
  const apart = (i: number): MemSession => ({
    id: `s-apart-${i}`,
    events: [
      ["user", `fetch the user list ${i} and show each user by its id`],
      ["assistant", `I fetch every user by id ${i}: the id comes from the user table.`],
    ],
  });
  const ix = await memIndex([
    ...Array.from({ length: 6 }, (_, i) => apart(i)),
    {
      id: "s-joined",
      at: Date.parse("2026-01-01T00:00:00Z"),
      events: [
        ["user", "the profile page times out"],
        [
          "tool_call",
          "edit src/api.ts export function fetchUserById(userId) { return http.get(url) }",
        ],
      ],
    },
  ]);
  try {
    const r = await runMain(ix.env, ["search", "--json", "fetch user by id"]);
    assertEquals(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assertEquals([j.results[0].id, j.results[0].joined_match], ["s-joined", true]);
    assert(j.results.slice(1).every((x: { joined_match: boolean }) => !x.joined_match));
    assert(j.results[0].snippets[0].text.includes("fetchUserById"), r.out);
    const t = await runMain(ix.env, ["fetch user by id"]);
    assert(
      t.err.startsWith("the first result holds fetchUserById, the words written joined"),
      t.err,
    );
    assert(!t.err.includes("too common"), t.err);
    // The name written with separators ranks above it, and the phrase above that (trial 15:
    // the session holding `fetch_user_by_id` as written was second).
    const lit = await memIndex([
      ...Array.from({ length: 4 }, (_, i) => apart(i)),
      // Enough else that the query's words are not in a fifth of the events (a phrase of
      // words that are everywhere is not read).
      ...Array.from({ length: 30 }, (_, i) => ({
        id: `s-else-${i}`,
        events: [["user", `tune the cache ${i}`], ["assistant", `the cache ${i} is tuned`]],
      } as MemSession)),
      {
        id: "s-joined",
        events: [["tool_call", "export function fetchUserById(userId) { return get(url) }"]],
      },
      {
        id: "s-snake",
        at: Date.parse("2025-01-01T00:00:00Z"),
        events: [["tool_call", "def fetch_user_by_id(user_id): return db.get(user_id)"]],
      },
      {
        id: "s-said",
        at: Date.parse("2025-02-01T00:00:00Z"),
        events: [["user", "Fetch user by id, then?"]],
      },
    ]);
    try {
      const top = async (q: string) =>
        JSON.parse((await runMain(lit.env, ["search", "--json", q])).out).results
          .slice(0, 3).map((x: { id: string }) => x.id);
      assertEquals((await top("fetch_user_by_id"))[0], "s-snake");
      // Named after the name as typed, not the joined one it also found (trial 17).
      const said = await runMain(lit.env, ["fetch_user_by_id"]);
      assert(!said.err.includes("written joined"), said.err);
      assertEquals((await top("fetch user by id")).slice(2), ["s-joined"]);
    } finally {
      lit.cleanup();
    }
    // Two words typed apart are read as the one word they make only beside the words as typed,
    // and said so (lib/search/compounds.ts `joinedPairs`; trial 24): `userId` holds `user id`.
    const two = await runMain(ix.env, ["user", "id"]);
    assertStringIncludes(two.err, "also as one word: user id → userid");
    const store = ix.open();
    try {
      const off = withAblation(["verbatim"], () => search(store, "fetch user by id"));
      assert(off.results[0]?.id !== "s-joined", off.results.map((x) => x.id).join(" "));
    } finally {
      store.close();
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("a name of two short words typed with a separator finds it written joined", async () => {
  // Trial 17: `on_click`, `set_up`, `for_each` never found `onClick`, `setUp`, `forEach`.
  const ix = await memIndex([
    ...Array.from({ length: 20 }, (_, i) => ({
      id: `s-prose-${i}`,
      events: [["user", `on click ${i} the menu opens, then set up the form`]],
    } as MemSession)),
    {
      id: "s-code",
      at: Date.parse("2025-01-01T00:00:00Z"),
      events: [["tool_call", "edit src/menu.tsx <button onClick={open}>menu</button>"]],
    },
  ]);
  try {
    const r = await runMain(ix.env, ["search", "--json", "on_click"]);
    const j = JSON.parse(r.out);
    assertEquals([j.results[0].id, j.results[0].joined_match], ["s-code", true]);
    // Two words typed apart are not read as one name.
    const apart = JSON.parse((await runMain(ix.env, ["search", "--json", "on click"])).out);
    assert(apart.results.every((x: { joined_match: boolean }) => !x.joined_match));
  } finally {
    ix.cleanup();
  }
});

Deno.test("a version typed bare finds it written with a v, and its numbers are never one name", async () => {
  // Trial 17: `deja 2.3.1` missed the session naming `v2.3.1` and said "written joined:
  // 2 3 1 → 231", listing a session that numbered lines 230, 231, 232.
  const ix = await memIndex([
    ...Array.from({ length: 12 }, (_, i) => ({
      id: `s-list-${i}`,
      events: [["tool_result", `${i} 2 3 ${i + 1} 230 231 232 lines of a listing`]],
    } as MemSession)),
    {
      id: "s-tag",
      at: Date.parse("2025-01-01T00:00:00Z"),
      events: [["user", "cut the release v2.3.1 and push the tag, then v18.19.0-rc.1"]],
    },
    {
      id: "s-bare",
      at: Date.parse("2025-02-01T00:00:00Z"),
      events: [["assistant", "pinned the client to 4.5.6 in the lock file"]],
    },
  ]);
  try {
    const r = await runMain(ix.env, ["search", "--json", "2.3.1"]);
    assertEquals(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assertEquals([j.results[0].id, j.results[0].joined_match], ["s-tag", true]);
    assertEquals(j.changes, []);
    const t = await runMain(ix.env, ["2.3.1"]);
    assert(
      t.err.startsWith("the first result holds v2.3.1, the version written with a 'v'"),
      t.err,
    );
    assert(!t.err.includes("231"), t.err);
    // A pre-release too (trial 18).
    const rc = JSON.parse((await runMain(ix.env, ["search", "--json", "18.19.0-rc.1"])).out);
    assertEquals([rc.results[0].id, rc.results[0].joined_match], ["s-tag", true]);
    // Typed with its v, or as written, it is found as it is; a bare version is no other.
    const v = JSON.parse((await runMain(ix.env, ["search", "--json", "v2.3.1"])).out);
    assertEquals(v.results[0].id, "s-tag");
    const bare = JSON.parse((await runMain(ix.env, ["search", "--json", "4.5.6"])).out);
    assertEquals([bare.results[0].id, bare.results[0].joined_match], ["s-bare", false]);
  } finally {
    ix.cleanup();
  }
});
