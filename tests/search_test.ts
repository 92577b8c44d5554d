/** The fallback ladder: each tier, named in the result, and what must not match. */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { memIndex, type MemSession, type MemStore, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-deploy",
    events: [
      ["user", "the deploy script forgets the staging flag"],
      ["assistant", "I added the flag to scripts/deploy.sh and the deploy works now"],
    ],
  },
  {
    id: "s-opencode",
    events: [["user", "opencode shows an empty sidebar after the upgrade"], [
      "assistant",
      "The sidebar needs the new config key.",
    ]],
  },
  {
    id: "s-tests",
    events: [["user", "the login test fails on CI"], [
      "assistant",
      "It fails because of a timezone.",
    ]],
  },
  {
    id: "s-db",
    events: [["user", "the database migrations are slow"], [
      "assistant",
      "Adding an index made them fast.",
    ]],
  },
  {
    id: "s-k8s",
    events: [["user", "kubernetes keeps restarting the worker pod"], [
      "assistant",
      "The liveness probe timeout was too short.",
    ]],
  },
  {
    id: "s-error",
    events: [
      ["user", "the build broke"],
      {
        kind: "tool_result",
        text:
          "Traceback (most recent call last):\n  File \"/srv/app/main.py\", line 41, in run\nModuleNotFoundError: No module named 'quokkalib'",
        result: { isError: true },
      },
      ["assistant", "Installed quokkalib in the virtualenv."],
    ],
  },
  {
    id: "s-spread",
    events: [
      ["user", "the avatar upload is slow"],
      ["assistant", "Resizing on the client helps."],
      [
        "user",
        "also the thumbnails look blurry",
      ],
    ],
  },
];

const withHistory = (fn: (s: MemStore) => void) => withMemIndex(HISTORY, fn);

Deno.test("search answers exact when one event holds every word", () =>
  withHistory((s) => {
    const r = search(s, "deploy staging flag");
    assertEquals(r.tier, "exact");
    assertEquals(r.results[0].id, "s-deploy");
    assertEquals(r.nothingMatched, false);
  }));

Deno.test("search answers session when the words are spread over a session's events", () =>
  withHistory((s) => {
    const r = search(s, "avatar blurry");
    assertEquals(r.tier, "session");
    assertEquals(r.results[0].id, "s-spread");
    assert(r.results[0].spread);
  }));

Deno.test("search finds a word inside a longer token at the substring tier", () =>
  withHistory((s) => {
    const r = search(s, "code sidebar");
    assertEquals(r.tier, "substring");
    assertEquals(r.results[0].id, "s-opencode");
    assert(
      r.changes.some((c) => c.from === "code" && c.to.includes("opencode")),
      JSON.stringify(r.changes),
    );
  }));

Deno.test("search finds other word forms and developer synonyms at the stemmed tier", () =>
  withHistory((s) => {
    const forms = search(s, "failing tests");
    assertEquals(forms.tier, "stemmed");
    assertEquals(forms.results[0].id, "s-tests");
    const syn = search(s, "db migration");
    assertEquals(syn.tier, "stemmed");
    assertEquals(syn.results[0].id, "s-db");
    const k8s = search(s, "k8s pod");
    assertEquals(k8s.results[0].id, "s-k8s");
  }));

Deno.test("search corrects a misspelt word at the close tier and says what it read", () =>
  withHistory((s) => {
    const r = search(s, "kubrenetes worker");
    assertEquals(r.tier, "close");
    assertEquals(r.results[0].id, "s-k8s");
    assertEquals(r.changes[0], { from: "kubrenetes", to: ["kubernetes"] });
  }));

Deno.test("search matches a pasted error from another run by its signature", () =>
  withHistory((s) => {
    const r = search(
      s,
      "File \"/home/ci/build/main.py\", line 7, in <module>\nModuleNotFoundError: No module named 'quokkalib'",
    );
    assertEquals(r.tier, "error");
    assertEquals(r.results[0].id, "s-error");
    assertEquals(r.nothingMatched, false);
  }));

Deno.test("a pasted error whose words a session only holds scattered is no match", () =>
  // Trial 65: `Error: ENOENT: no such file or directory, open 'package.json'`, in no store,
  // "matched by error signature" a table of notes holding `no`, `file`, `directory`, `open`;
  // `ls: cannot access 'build': No such file or directory` matched a session holding its
  // words over several events.
  withMemIndex([
    ...HISTORY,
    {
      id: "s-notes",
      events: [[
        "assistant",
        "| Error budget | No such plan yet: the file list stays open, or the directory moves |",
      ]],
    },
    {
      id: "s-apart",
      events: [
        ["user", "ls the build folder"],
        ["assistant", "I cannot access it: no such file here, or the directory moved"],
      ],
    },
    {
      id: "s-enoent",
      events: [{
        kind: "tool_result",
        text: "Error: ENOENT: no such file or directory, open '/srv/web/package.json'",
        result: { isError: true },
      }],
    },
  ], (s) => {
    const scattered = search(s, "Error: ENOENT: no such file or directory, open 'tsconfig.json'");
    // The session holding it as written matches, whatever file it named; the notes do not.
    assertEquals(scattered.tier, "error");
    assertEquals(scattered.results.map((r) => r.id), ["s-enoent"]);
    const gone = search(s, "Error: EACCES: no such file or directory, open 'a.json'");
    assert(!gone.results.some((r) => r.id === "s-notes"), gone.results.map((r) => r.id).join());
    const ls = search(s, "ls: cannot access 'build': No such file or directory");
    assertEquals(ls.nothingMatched, true, ls.tier);
    assert(ls.tier !== "session" && ls.tier !== "error", ls.tier);
  }));

Deno.test("search ranks by relevance and says nothing matched when no session holds every word", () =>
  withHistory((s) => {
    const r = search(s, "why is the worker pod crashlooping with a short probe?");
    assertEquals(r.tier, "relevance");
    assertEquals(r.nothingMatched, true);
    assertEquals(r.results[0].id, "s-k8s");
  }));

Deno.test("search answers none for words the history does not hold, without stretching them", () =>
  withHistory((s) => {
    for (const q of ["helm chart rollback", "terraform lockfile", "zebrafinch"]) {
      const r = search(s, q);
      assertEquals([r.tier, r.results.length], ["none", 0], q);
    }
  }));

Deno.test("search ignores stop words unless the query is only stop words", () =>
  withHistory((s) => {
    const r = search(s, "how did we fix the deploy script");
    assertEquals(r.dropped.includes("the"), true);
    assertEquals(r.results[0].id, "s-deploy");
    const only = search(s, "the");
    assertEquals(only.dropped, []);
  }));

Deno.test("search keeps a quoted phrase contiguous", () =>
  withHistory((s) => {
    assertEquals(search(s, '"staging flag"').results[0]?.id, "s-deploy");
    assertEquals(search(s, '"flag staging"').results.length, 0);
  }));

Deno.test("search filters by role and by session", () =>
  withHistory((s) => {
    assertEquals(search(s, "timezone", { kinds: ["user"] }).results.length, 0);
    assertEquals(search(s, "timezone", { kinds: ["assistant"] }).results[0].id, "s-tests");
    const one = s.db.prepare("SELECT id FROM sessions WHERE native_id = 's-db'").get() as {
      id: number;
    };
    assertEquals(search(s, "slow", { sessionIds: [one.id] }).results.map((r) => r.id), ["s-db"]);
  }));

Deno.test("search --re tests a regular expression on every event", () =>
  withHistory((s) => {
    const r = search(s, "deploy\\.sh|(?:restart)ing", { regex: true });
    assertEquals(r.tier, "regex");
    assertEquals(r.results.map((x) => x.id).sort(), ["s-deploy", "s-k8s"]);
    assert(r.results.every((x) => x.snippets[0].text.includes("\x01")));
  }));

Deno.test("the vocabulary and event signals follow incremental indexing when a store changes", async () => {
  const ix = await memIndex(HISTORY);
  try {
    await ix.add([{
      id: "s-new",
      events: [["user", "the frobnicatorx daemon stalls"], {
        kind: "assistant",
        text: "looking",
        key: "m1",
      }],
    }]);
    let s = ix.open();
    assertEquals(
      search(s, "nicatorx").tier,
      "substring",
      "a word of a new session is a substring candidate",
    );
    const flags = () =>
      (s.db.prepare("SELECT flags FROM events WHERE key = 'm1'").get() as { flags: number }).flags;
    assertEquals(flags(), 0);
    s.close();
    // The same event, now a conclusion: its signal follows the new text.
    await ix.add([{
      id: "s-new",
      events: [["user", "the frobnicatorx daemon stalls"], {
        kind: "assistant",
        text: "The root cause was a full pipe.",
        key: "m1",
      }],
    }]);
    s = ix.open();
    assertEquals(flags() & 1, 1);
    assertEquals(search(s, "looking frobnicatorx").tier !== "exact", true, "the old text is gone");
    s.close();
  } finally {
    ix.cleanup();
  }
});
