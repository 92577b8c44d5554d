/** Word forms at the stemmed tier: phrasal verbs of a compound, `-er` nouns apart from their verb. */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { narration } from "../lib/cli/search_narration.ts";
import { phrasalForms } from "../lib/search/compounds.ts";
import { TermStats, wordForms } from "../lib/search/expand.ts";
import { GAP } from "../lib/query.ts";
import { memIndex, type MemSession, withMemIndex } from "./_search_fixture.ts";
import { runMain } from "./_cli_io.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-gateway",
    events: [["user", "the gateway times out under load"], ["assistant", "raised the pool size"]],
  },
  {
    id: "s-worker",
    events: [["user", "the worker never shut down cleanly"], [
      "assistant",
      "added a signal handler",
    ]],
  },
  {
    id: "s-limiter",
    events: [["user", "the rate limiter drops requests"], ["assistant", "raised its burst"]],
  },
  {
    id: "s-limit",
    events: [["user", "we limit the requests per user"], ["assistant", "the cap is 100"]],
  },
];

Deno.test("search finds a compound written as its phrasal verb (timeout -> times out)", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "gateway timeout");
    assertEquals(r.tier, "stemmed");
    assertEquals(r.results.map((x) => x.id), ["s-gateway"]);
    assertEquals(search(s, "worker shutdown").results.map((x) => x.id), ["s-worker"]);
  }));

Deno.test("search keeps an -er noun apart from its verb at the stemmed tier (limiters -> limiter, not limit)", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "limiters requests");
    assertEquals(r.tier, "stemmed");
    assertEquals(r.results.map((x) => x.id), ["s-limiter"]);
  }));

const PHRASAL: MemSession[] = [
  {
    id: "s-thumb",
    events: [["user", "the thumbnail cache logs users out and corrupts images"], [
      "assistant",
      "the session key was reused",
    ]],
  },
  {
    id: "s-far",
    events: [
      ["user", "notes on the thumbnail cache"],
      ["assistant", "the logout handler moved"],
      ["user", "the upload never corrupts anything"],
    ],
  },
];

Deno.test("search finds a compound as its phrasal verb with a word between (logout -> logs users out)", () =>
  withMemIndex(PHRASAL, (s) => {
    const r = search(s, "corrupted thumbnail logout");
    assertEquals(r.tier, "stemmed");
    assertEquals(r.results[0]?.id, "s-thumb");
    assertEquals(r.results[0].snippets[0].text.includes("\x01logs users out\x02"), true);
  }));

Deno.test("search reads a word widened only to its own forms at the forms tier, phrasal verbs too (corrupt -> corrupts)", () =>
  withMemIndex(PHRASAL, (s) => {
    const r = search(s, "corrupt thumbnail logout");
    assertEquals(r.tier, "stemmed");
    assertEquals(r.results[0]?.id, "s-thumb");
  }));

Deno.test("phrasalForms leaves a word between only after an inflected verb, never before `in`", () =>
  withMemIndex([{
    id: "s-words",
    events: [["user", "it logs users out; log out first; the logs in the log; log in again"]],
  }], (s) => {
    const stats = new TermStats(s);
    const out = phrasalForms(stats, "logout", wordForms, 12);
    assertEquals(out.some((p) => p.join(" ") === "log out"), true);
    assertEquals(out.some((p) => p.join(" ") === `logs ${GAP} out`), true);
    assertEquals(phrasalForms(stats, "login", wordForms, 12).every((p) => !p.includes(GAP)), true);
  }));

// Trial 16: the stemmer makes `ad` of `adding` and `add` of `add`, so `added lab todolist.md`
// never found the prompt `add to todolist.md in the dev lab`.
Deno.test("a short word's regular inflections are its forms, whatever the stemmer cuts", () =>
  withMemIndex([
    { id: "s-add", events: [["user", "add to todolist.md in the dev lab"]] },
    { id: "s-note", events: [["user", "not the hop, the hope: noted"]] },
  ], (s) => {
    const st = new TermStats(s);
    assertEquals([...wordForms(st, "adding")].sort(), ["add"]);
    assertEquals([...wordForms(st, "added")].sort(), ["add"]);
    // One syllable doubles its consonant: `noted` is no form of `not`, `hoped` of `hop`.
    assertEquals([...wordForms(st, "noted")], ["noted"]);
    assertEquals([...wordForms(st, "hoped")], ["hope"]);
    const r = search(s, "added lab todolist.md");
    assertEquals([r.results[0]?.id, r.tier], ["s-add", "stemmed"]);
  }));

Deno.test("a word typed alone lists the sessions holding only its other forms after its exact matches", () =>
  withMemIndex([
    // Newer and titled with the form: it would rank first beside the exact matches.
    {
      id: "s-crashing",
      at: Date.UTC(2026, 10, 30),
      title: "Importer crashing",
      events: [["user", "the importer keeps crashing on big files"], ["user", "crashing again"]],
    },
    { id: "s-crashes", at: Date.UTC(2026, 5, 1), events: [["user", "the app crashes on start"]] },
    { id: "s-other", events: [["user", "the login page renders blank"]] },
  ], (s) => {
    const now = Date.UTC(2026, 11, 1);
    const r = search(s, "crashes", { now });
    assertEquals(r.tier, "exact");
    assertEquals(r.results.map((x) => x.id), ["s-crashes", "s-crashing"]);
    assertEquals(r.formsFollow, { listed: 1, total: 1 });
    assertEquals(narration(r), "exact match; then 1 by word forms: crashes → crashing");
    // Two words keep to the exact matches (their forms join only beside time words or a
    // question of three or more).
    assertEquals(search(s, "app crashes", { now }).results.map((x) => x.id), ["s-crashes"]);
    // The exact matches fill the list: the forms are not read.
    const one = search(s, "crashes", { now, limit: 1 });
    assertEquals([one.formsFollow, narration(one)], [undefined, ""]);
    const off = search(s, "crashes", { now, ablate: ["aloneForms"] });
    assertEquals(off.results.map((x) => x.id), ["s-crashes"]);
  }));

Deno.test("a question's words held as typed close together in one event keep its other forms out", () =>
  withMemIndex([
    {
      id: "s-git",
      events: [[
        "tool_result",
        "To github.com:me/k.git ! [rejected] main -> main (fetch first) error: failed to push some refs",
      ]],
    },
    {
      id: "s-recap",
      events: [[
        "assistant",
        "Recap: the git hooks now run on every commit, the lint step is faster, we cleaned up the " +
        "branch by unsetting upstream and pushing fresh, the release notes were rewritten twice, " +
        "and the three suggestions from review were rejected for now.",
      ]],
    },
  ], (s) => {
    const q = "git push was rejected";
    assertEquals(search(s, q).results.map((x) => x.id), ["s-git"]);
    // Trial 23: with the forms beside it, the recap ranked first.
    const off = search(s, q, { ablate: ["nearForms"] });
    assertEquals(off.results.map((x) => x.id).sort(), ["s-git", "s-recap"]);
  }));

Deno.test("a word's forms are never a stop word, and a word typed alone lists no form of three letters after it", () =>
  withMemIndex([
    { id: "thing", events: [["user", "one thing broke"]] },
    { id: "things", events: [["user", "many things broke"]] },
    { id: "the", events: [["user", "the build broke"]] },
    { id: "seed", events: [["user", "seed the database"]] },
    { id: "see", events: [["user", "I see it now"]] },
  ], (s) => {
    // Trial 24: `thing` read as `the` (a base by the rule of `making` -> `make`).
    assertEquals(search(s, "thing").results.map((x) => x.id), ["thing", "things"]);
    assertEquals(search(s, "thing").changes, [{ from: "thing", to: ["things"] }]);
    // Beside another word read in its forms too (`broken` -> `broke`).
    assertEquals(search(s, "thing broken").results.map((x) => x.id).sort(), ["thing", "things"]);
    // `see` is taken for a base of `seed`; typed alone, it is not listed after it.
    assertEquals(search(s, "seed").results.map((x) => x.id), ["seed"]);
  }));

Deno.test("a word typed alone says how many sessions hold its other forms when not all are listed", () =>
  withMemIndex([
    { id: "s-crashes", events: [["user", "the app crashes on start"]] },
    { id: "s-crashing", events: [["user", "the importer keeps crashing"]] },
    { id: "s-crashed", events: [["user", "it crashed twice overnight"]] },
  ], (s) => {
    const r = search(s, "crashes", { limit: 2 });
    assertEquals(r.results.map((x) => x.id)[0], "s-crashes");
    assertEquals(r.formsFollow, { listed: 1, total: 2 });
    assertStringIncludes(narration(r), "exact match; 2 more by word forms (crashes → ");
    assertStringIncludes(narration(r), "), 1 listed");
  }));

Deno.test("beside a spelling fix, a word held only in other forms is named as forms", () =>
  // Trial 47: `docekr executables` said "close spellings: docekr → docker; executables →
  // execution, …", a word's forms called a close spelling.
  withMemIndex([
    { id: "s1", events: [["user", "the docker executable is missing"]] },
    { id: "s2", events: [["user", "docker execution failed on the box"]] },
    { id: "s3", events: [["user", "rename the config loader"]] },
  ], (s) => {
    const r = search(s, "docekr executables");
    assertEquals(r.tier, "close");
    assertEquals(r.respelt, ["docekr"]);
    assertStringIncludes(narration(r), "docekr → docker; word forms: executables → ");
  }));

Deno.test("a word typed alone whose exact matches fill the list names the forms left unread", async () => {
  // Trial 59: `deja search error` said "showing 10 of 18" where `--limit 50` listed 20, two
  // of them saying `errors`: the forms are not looked for while the exact matches fill the list.
  const ix = await memIndex([
    { id: "s-a", events: [["user", "the app crashes on start"]] },
    { id: "s-b", events: [["user", "the worker crashes at night"]] },
    { id: "s-c", events: [["user", "the importer keeps crashing"]] },
  ]);
  try {
    const json = (args: string[]) => runMain(ix.env, ["search", ...args, "--json"]);
    const full = JSON.parse((await json(["crashes", "--limit", "2"])).out);
    assertEquals([full.results.length, full.total], [2, 2]);
    assertEquals(full.forms_unread.includes("crashing"), true, JSON.stringify(full.forms_unread));
    const text = await runMain(ix.env, ["search", "crashes", "--limit", "2"]);
    assertStringIncludes(text.err, "its other forms (crashing");
    assertStringIncludes(text.err, "were not looked for: a larger --limit looks for them");
    // The total counts the sessions holding the word as typed, and says so (trial 99 F10:
    // "showing 10 of 18" read as every match where 20 matched with `errors`).
    const one = await runMain(ix.env, ["search", "crashes", "--limit", "1"]);
    assertStringIncludes(one.err, "showing 1 of 2 holding crashes as typed: --limit shows more;");
    // With room, they are read and listed: nothing is left unread.
    const room = JSON.parse((await json(["crashes", "--limit", "5"])).out);
    assertEquals(room.results.map((r: { id: string }) => r.id).sort(), ["s-a", "s-b", "s-c"]);
    assertEquals(room.forms_unread, []);
    // A stop word has no forms to name (trial 60: `the` named `thing`).
    assertEquals(JSON.parse((await json(["the", "--limit", "1"])).out).forms_unread, []);
  } finally {
    ix.cleanup();
  }
});

Deno.test("--json says when total leaves out the sessions holding only a word's other forms (trial 116 L2)", async () => {
  // Trial 116 L2: `deja search file --json` gave total 27 at `--limit 27` and 28 at `--limit
  // 28` (a session saying only `files`), and nothing in the document told a script why.
  const ix = await memIndex([
    { id: "s-a", events: [["user", "the config file is missing"]] },
    { id: "s-b", events: [["user", "open the file in the editor"]] },
    { id: "s-c", events: [["user", "the files were never staged"]] },
  ]);
  try {
    const json = async (limit: string) =>
      JSON.parse((await runMain(ix.env, ["search", "file", "--limit", limit, "--json"])).out);
    const full = await json("2");
    assertEquals(
      [full.total, full.total_excludes_forms, full.forms_unread, full.forms_follow],
      [2, true, ["files"], null],
    );
    const room = await json("3");
    assertEquals(
      [room.total, room.total_excludes_forms, room.forms_unread, room.forms_follow],
      [3, false, [], { listed: 1, total: 1 }],
    );
    // A word with no other form held anywhere: the total is complete whatever the limit.
    const none = JSON.parse((await runMain(ix.env, ["search", "editor", "--json"])).out);
    assertEquals([none.total, none.total_excludes_forms], [1, false]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a word typed alone names no form left unread that only the sessions listed hold (trial 103 F10)", async () => {
  // Trial 103 F10: `deja search README` said "its other forms (readmes) were not looked for",
  // where the one session saying `READMEs` was listed (it says `README` too).
  const exact: MemSession[] = [
    { id: "s-a", events: [["user", "update the readme"]] },
    { id: "s-b", events: [["user", "read the READMEs and the readme of the api"]] },
    { id: "s-c", events: [["user", "the readme links are broken"]] },
  ];
  const forms = async (history: MemSession[]) => {
    const ix = await memIndex(history);
    try {
      const doc = JSON.parse(
        (await runMain(ix.env, ["search", "readme", "--limit", "3", "--json"])).out,
      );
      assertEquals(doc.results.map((r: { id: string }) => r.id).sort(), ["s-a", "s-b", "s-c"]);
      const text = await runMain(ix.env, ["search", "readme", "--limit", "3"]);
      return [doc.forms_unread, text.err.includes("its other forms (readmes) were not looked for")];
    } finally {
      ix.cleanup();
    }
  };
  // Only s-b, listed, says `readmes`: reading the form adds no session, so it is not named.
  assertEquals(await forms(exact), [[], false]);
  // A session not listed holds it: named, text and JSON alike.
  assertEquals(await forms([...exact, { id: "s-d", events: [["user", "merge the readmes"]] }]), [
    ["readmes"],
    true,
  ]);
});

Deno.test("a word typed alone ranks its exact matches alike whether its forms were read or not", async () => {
  // Trial 78 F6: `deja error --limit 18` listed a session 18th, `--limit 19` (the forms read)
  // 4th, ranked by `errors` it also held; and said the forms were unread while listing them.
  const ix = await memIndex([
    { id: "s-a", events: [["user", "an error in the build, the same error again"]] },
    { id: "s-b", events: [["user", "one error in the parser"]] },
    {
      id: "s-c",
      events: [
        ["tool_result", "error: 1 of 40 checks in the long linter output of the whole repository"],
        ["tool_result", "errors errors errors errors"],
        ["assistant", "the errors come from the linter"],
      ],
    },
    { id: "s-d", events: [["user", "the importer reported errors"]] },
    { id: "s-e", events: [["user", "errors again in the exporter"]] },
  ]);
  try {
    const json = async (n: number) =>
      JSON.parse((await runMain(ix.env, ["search", "error", "--json", "--limit", `${n}`])).out);
    const tight = await json(3);
    const exact = tight.results.map((r: { id: string }) => r.id);
    assertEquals(exact.slice().sort(), ["s-a", "s-b", "s-c"]);
    const room = await json(4);
    assertEquals(room.results.map((r: { id: string }) => r.id).slice(0, 3), exact);
    assertEquals(room.results.length, 4);
    assertEquals(room.forms_unread, [], "read and listed, not unread");
  } finally {
    ix.cleanup();
  }
});

// Trial 96 F5: `deploy redis` listed one session that held `deploy` in a `kubectl get` and
// `redis` in a pod's name, events apart, and not the sessions that deployed Redis.
const SCATTERED: MemSession[] = [
  {
    id: "s-forgejo",
    events: [
      ["user", "forgejo keeps crashing"],
      ["tool_call", "kubectl get deploy -A"],
      ["tool_result", "forgejo-redis-master-0   1/1   Running"],
    ],
  },
  {
    id: "s-redis",
    events: [["user", "add redis to the cluster"], [
      "assistant",
      "wrote the redis deployment and its service",
    ]],
  },
];

Deno.test("words no event holds as typed list the sessions holding them in other forms after", () =>
  withMemIndex(SCATTERED, (s) => {
    const r = search(s, "deploy redis");
    assertEquals(r.results.map((x) => x.id), ["s-forgejo", "s-redis"]);
    assertEquals([r.tier, r.formsFollow], ["session", { listed: 1, total: 1 }]);
    assertStringIncludes(
      narration(r),
      "no single event holds every word; these sessions hold them between them; then 1 by word forms: deploy → deployment",
    );
    assertEquals(search(s, "how did we deploy redis").results.map((x) => x.id), [
      "s-forgejo",
      "s-redis",
    ]);
  }));
