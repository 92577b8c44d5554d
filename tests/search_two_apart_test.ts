/**
 * Two words typed, each held by sessions, never by one session both (trial 25: `touch
 * redis` listed two sessions holding `touch` beside a `cache`, never the Redis ones;
 * trial 27: `touch flux` found nothing and said nothing more): nothing matched, and the
 * hint names each word's own sessions, with a command that searches it.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { withAblation } from "../lib/search/rank.ts";
import { runMain } from "./_cli_io.ts";
import { memIndex, type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-touch",
    events: [["user", "touch the lockfile so the cache is rebuilt on the next install"]],
  },
  { id: "s-redis-add", events: [["user", "add redis to the cluster with a helm chart"]] },
  { id: "s-redis-keys", events: [["user", "redis keys expire too early after a restart"]] },
  { id: "s-fix", events: [["user", "fix the flaky login test"], ["assistant", "Fixed."]] },
  { id: "s-docs", events: [["user", "write the readme section on deployment"]] },
  { id: "s-both", events: [["user", "the linter and the formatter disagree on quotes"]] },
];

Deno.test("two words no session holds together match nothing, not one word beside the other's neighbour", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "touch redis");
    assertEquals(r.results.map((x) => x.id), []);
    assert(r.nothingMatched);
    // Before: `redis` widened to its neighbour `cache`, and the session that touched a
    // lockfile was the answer.
    const widened = withAblation(["twoApart"], () => search(s, "touch redis"));
    assertEquals(widened.results.map((x) => x.id), ["s-touch"]);
    // Two words one session holds are found as ever; so is a question of three words.
    assertEquals(search(s, "linter formatter").results.map((x) => x.id), ["s-both"]);
  }));

Deno.test("nothing matched names each of two words apart with its own sessions and a command", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const r = await runMain(ix.env, ["touch", "redis"]);
    assertEquals(r.code, 1);
    assertStringIncludes(
      r.err,
      "hint: 'redis' and 'touch' are in no session together: 'redis' alone is in 2 sessions " +
        "(deja redis), 'touch' is in 1 (deja touch)",
    );
    // A word that names a command is searched with `deja search`.
    const fix = await runMain(ix.env, ["search", "fix", "redis"]);
    assertStringIncludes(fix.err, "(deja search fix)");
    const json = JSON.parse((await runMain(ix.env, ["--json", "touch", "redis"])).out);
    assertEquals(json.words_apart, [{ word: "redis", sessions: 2 }, {
      word: "touch",
      sessions: 1,
    }]);
    // Not said when a word is in no session at all: that hint names it.
    const none = await runMain(ix.env, ["touch", "zzqqxx"]);
    assertEquals(none.err.includes("together"), false, none.err);
    // A word held only as spelt is named with its spelling (trial 78 F8: "'idempotnt' alone
    // is in 3 sessions", a word in none).
    const spelt = await runMain(ix.env, ["touch", "rediss"]);
    assertStringIncludes(
      spelt.err,
      "'rediss' alone (read as redis) is in 2 sessions (deja rediss), 'touch' is in 1",
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("each word's count is what the command it names lists, its forms too", async () => {
  // Trial 90 F12: "'broke' is in 1 (deja broke)" where `deja broke` listed 5, four by forms.
  const ix = await memIndex([
    ...HISTORY,
    { id: "s-broke", events: [["user", "the deploy broke again"]] },
    { id: "s-breaks", events: [["user", "the upgrade breaks the build"]] },
    { id: "s-breaking", events: [["user", "a breaking change in the api"]] },
  ]);
  try {
    const listed = JSON.parse((await runMain(ix.env, ["--json", "broke"])).out).results.length;
    const r = await runMain(ix.env, ["--json", "broke", "redis"]);
    const apart = JSON.parse(r.out).words_apart as Array<{ word: string; sessions: number }>;
    assertEquals(apart.find((w) => w.word === "broke")?.sessions, listed);
    assert(listed > 1, String(listed));
  } finally {
    ix.cleanup();
  }
});

Deno.test("a language named by a letter and a symbol is no word apart", async () => {
  // Trial 92 F6: `C# touch` said "'c' and 'touch' are in no session together".
  const ix = await memIndex([...HISTORY, {
    id: "s-c",
    events: [["user", "plan c for the cache"]],
  }]);
  try {
    const r = await runMain(ix.env, ["C#", "touch"]);
    assertEquals(r.code, 1);
    assertEquals(r.err.includes("together"), false, r.err);
  } finally {
    ix.cleanup();
  }
});
