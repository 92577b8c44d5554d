/**
 * A new-user search trial on a fake home built from real stores (2026-12): a prompt typed
 * back exactly ranked below sessions that only named one of its words (`Hello World!` 3rd,
 * `exit` 2nd: `hello` is a stop word and the prompt rule wanted three tokens); the words
 * left out were not said; `ctx` digested a relevance guess in silence; a filter that left
 * only a widened guess (`redis --harness claude` -> `redist`) showed it instead of saying
 * the filter left nothing; `--role` was not named as the filter; a word in no session got
 * no hint; hidden sessions holding every word were named only after look-alikes; "common
 * words, which most sessions hold" was said of a word eight sessions of 78 hold.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";

const DAY = 86400e3;
const AT = Date.parse("2026-10-01T10:00:00Z");

/** Sessions named by what they show: prompts typed back, words beside them. */
const HISTORY: MemSession[] = [
  {
    id: "s-hello-world",
    at: AT,
    events: [["user", "Hello World!"], ["assistant", "Hi there."]],
  },
  // Says `world` more and louder than the session where it was typed as a prompt.
  {
    id: "s-world-talk",
    at: AT + 5 * DAY,
    events: [
      ["user", "the world map renders the world twice; world tiles overlap"],
      ["assistant", "The world layer and the world tiles now render once per world."],
    ],
  },
  { id: "s-exit-old", at: AT, events: [["user", "exit"], ["assistant", "Bye."]] },
  { id: "s-exit-new", at: AT + 3 * DAY, events: [["user", "Exit!"], ["assistant", "Bye."]] },
  {
    id: "s-exit-talk",
    at: AT + 9 * DAY,
    events: [
      ["user", "why does the worker exit with code 137 on exit of the exit hook"],
      ["assistant", "The exit is an OOM kill; exit code 137 means SIGKILL at exit."],
    ],
  },
  {
    id: "s-ping-long",
    at: AT + 10 * DAY,
    events: [["user", "PING the gateway and report the ping time"], ["assistant", "ping: 3 ms"]],
  },
  {
    id: "s-redist",
    at: AT,
    project: "/home/dev/work/other",
    events: [["user", "redist folder of intel"]],
  },
  {
    id: "s-vault",
    at: AT,
    project: "/home/dev/work/other",
    events: [["user", "rotate the password of the vault cache"], ["assistant", "Rotated."]],
  },
  {
    id: "s-redis",
    at: AT,
    events: [["user", "the redis cache needs a password"], ["assistant", "redis now asks."]],
  },
  {
    id: "s-budget",
    at: AT,
    events: [["user", "subscription renewals in the budget sheet"], ["assistant", "Sorted."]],
  },
  {
    id: "s-summary",
    at: AT,
    events: [["user", "forgejo runner keeps crashing"], ["summary", "The runner was fixed."]],
  },
];

Deno.test("a prompt typed back exactly ranks its session first, the latest first, whatever its words", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const ids = async (q: string) =>
      JSON.parse((await runMain(ix.env, ["--json", q])).out).results.map((r: { id: string }) =>
        r.id
      );
    // `hello` is a stop word the word match drops: the prompt rule reads the query whole.
    const hw = await ids("Hello World!");
    assertEquals(hw[0], "s-hello-world", hw.join(" "));
    assert(hw.includes("s-world-talk"), hw.join(" "));
    // One word: the sessions where it was the whole prompt, the one typed so first, then the
    // one that differs only in case and punctuation (`Exit!`, newer).
    assertEquals((await ids("exit")).slice(0, 3), ["s-exit-old", "s-exit-new", "s-exit-talk"]);
    assertEquals((await ids("exit!")).slice(0, 3), ["s-exit-new", "s-exit-old", "s-exit-talk"]);
    // A prompt that only starts with the word is no typed prompt of a one-word query.
    assertEquals((await ids("  ping?? ")).length, 1);
    const text = await runMain(ix.env, ["Hello World!"]);
    assertEquals(text.code, 0, text.err);
    assert(text.out.startsWith("s-hello-"), text.out);
    // The prompt matched the whole query: no word is said to be left out.
    assert(!text.err.includes("left out"), text.err);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a prompt typed back with its quote marks ranks its session first", async () => {
  const ix = await memIndex([
    {
      id: "s-who",
      at: AT - 86400e3,
      events: [["user", 'Who is "you" and who is "me"'], ["assistant", "You are the user."]],
    },
    {
      id: "s-talk",
      at: AT,
      events: [["user", "me and you: who is on call?"], ["assistant", "You are, and me after."]],
    },
  ]);
  try {
    const r = JSON.parse((await runMain(ix.env, ["--json", 'Who is "you" and who is "me"'])).out);
    assertEquals(
      r.results[0]?.id,
      "s-who",
      JSON.stringify(r.results.map((x: { id: string }) => x.id)),
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("a prompt typed back with its own punctuation ranks above one that differs only in it", async () => {
  const ix = await memIndex([
    { id: "s-q", at: AT - 86400e3, events: [["user", "Hello?"], ["assistant", "Hi."]] },
    { id: "s-bang", at: AT, events: [["user", "Hello!"], ["assistant", "Hi!"]] },
  ]);
  try {
    const ids = async (q: string) =>
      JSON.parse((await runMain(ix.env, ["--json", q])).out).results.map((r: { id: string }) =>
        r.id
      );
    assertEquals(await ids("Hello?"), ["s-q", "s-bang"]);
    assertEquals(await ids("hello!"), ["s-bang", "s-q"]);
    // Neither typed as such: the latest first.
    assertEquals(await ids("hello"), ["s-bang", "s-q"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("text mode names the common words it left out", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const r = await runMain(ix.env, ["the", "redis", "cache", "hello"]);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.err, "left out as too common: the, hello\n");
    const plain = await runMain(ix.env, ["redis", "cache"]);
    assert(!plain.err.includes("left out"), plain.err);
  } finally {
    ix.cleanup();
  }
});

Deno.test("ctx says on stderr when it digests the nearest session by relevance", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const guess = await runMain(ix.env, ["ctx", "subscription", "budget", "zzqqxx"]);
    // A word in no session: only the nearest, exit 1 as search's (trial 107 F1), and the
    // digest printed says so on its first line, where a paste carries it.
    assertEquals(guess.code, 1, guess.err);
    assert(
      guess.out.startsWith(
        `> Nearest session only, not a match: nothing matched "subscription budget zzqqxx" ` +
          `('zzqqxx' is in no searchable text).\n\n# deja context: `,
      ),
      guess.out,
    );
    assertStringIncludes(
      guess.err,
      `deja: nothing matched "subscription budget zzqqxx" exactly ('zzqqxx' is in no searchable text)`,
    );
    assertStringIncludes(guess.err, "digesting the closest session, s-budget (mem");
    assertStringIncludes(guess.out, "subscription renewals");
    const json = JSON.parse(
      (await runMain(ix.env, ["ctx", "--json", "subscription budget zzqqxx"])).out,
    );
    assertEquals([json.tier, json.absent], ["relevance", ["zzqqxx"]]);
    assertEquals(json.markdown, guess.out);
    const exact = await runMain(ix.env, ["ctx", "subscription", "budget"]);
    assertEquals(exact.code, 0, exact.err);
    assertEquals(exact.err, "");
    // One word in common and one held nowhere: no session is meant (trial 16: `ctx
    // zzzz-no-such` digested a skill list for its `no`).
    const none = await runMain(ix.env, ["ctx", "zzqqxx", "budget"]);
    assertEquals([none.code, none.out], [1, ""]);
    assertStringIncludes(
      none.err,
      `deja: nothing matched "zzqqxx budget": 'zzqqxx' is in no searchable text`,
    );
    // Trial 73 F15: and a way on.
    assertStringIncludes(none.err, "hint: 'deja last' lists the sessions with their ids");
    const nj = JSON.parse((await runMain(ix.env, ["ctx", "--json", "zzqqxx budget"])).out);
    assertEquals([nj.session, nj.absent], [null, ["zzqqxx"]]);
    // Half the words held nowhere: no session is meant either (trial 18).
    const half = await runMain(ix.env, ["ctx", "subscription", "budget", "zzqqxx", "qqzzyy"]);
    assertEquals([half.code, half.out], [1, ""]);
    assertStringIncludes(half.err, "'zzqqxx', 'qqzzyy' are in no searchable text");
    // Common words alone name no session (trial 19).
    const common = await runMain(ix.env, ["ctx", "the", "and", "of"]);
    assertEquals([common.code, common.out], [1, ""]);
    assertStringIncludes(common.err, "it holds only common words");
  } finally {
    ix.cleanup();
  }
  // The nearest session by relevance found for the one word held (`no`): not digested.
  const no = await memIndex([
    ...HISTORY,
    { id: "s-no", events: [["user", "cat: x: No such file or directory"], ["assistant", "no"]] },
  ]);
  try {
    const json = JSON.parse((await runMain(no.env, ["search", "--json", "zzqqxx-no-such"])).out);
    assertEquals([json.tier, json.results[0]?.id], ["relevance", "s-no"]);
    const r = await runMain(no.env, ["ctx", "zzqqxx-no-such"]);
    assertEquals([r.code, r.out], [1, ""]);
    assertStringIncludes(r.err, "'zzqqxx' is in no searchable text\nhint: deja search");
  } finally {
    ix.cleanup();
  }
});

Deno.test("a filter that leaves only a widened guess says the filter left nothing", async () => {
  const ix = await memIndex(HISTORY);
  try {
    // `redis` is held as typed outside project `other`, whose session holds only `redist`.
    const r = await runMain(ix.env, ["redis", "--project", "other"]);
    assertEquals(r.code, 1, r.err);
    assertEquals(r.out, "");
    assertStringIncludes(
      r.err,
      'deja: nothing matched "redis" in project other; without --project: 1 session\nhint: ',
    );
    const j = JSON.parse((await runMain(ix.env, ["--json", "redis", "--project", "other"])).out);
    assertEquals([j.tier, j.results.length], ["none", 0]);
    assertEquals(j.filtered_out.sessions_without, 1);
    // The nearest by relevance inside the filter stay listed, the exact matches outside named.
    const near = await runMain(ix.env, ["redis", "cache", "password", "--project", "other"]);
    assertEquals(near.code, 1, near.err);
    assertStringIncludes(near.out, "s-vault");
    assertStringIncludes(
      near.err,
      "hint: without --project, 1 session matches the words; drop --project to see it\n",
    );
    // Nothing holds `redi` as typed anywhere: the guess inside the filter is all there is.
    const inside = await runMain(ix.env, ["redi", "--project", "other"]);
    assertEquals(inside.code, 0, inside.err);
    assertStringIncludes(inside.out, "s-redist");
  } finally {
    ix.cleanup();
  }
});

Deno.test("--role that leaves nothing is named, with the sessions found without it", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const r = await runMain(ix.env, ["forgejo", "--role", "summary"]);
    assertEquals(r.code, 1, r.err);
    assertStringIncludes(
      r.err,
      'nothing matched "forgejo" in role summary; without --role: 1 session\nhint: the filter left nothing; drop --role to see them\n',
    );
    const j = JSON.parse((await runMain(ix.env, ["--json", "forgejo", "--role", "notice"])).out);
    assertEquals(j.filtered_out.filters, [{ flag: "--role", value: "notice" }]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a word in no session is named, with what the query finds without it", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const r = await runMain(ix.env, ["redis", "zzqqxx"]);
    assertEquals(r.code, 1, r.err);
    assertStringIncludes(
      r.err,
      "hint: 'zzqqxx' is in no searchable text; without it: 1 session: deja redis\n",
    );
    const alone = await runMain(ix.env, ["zzqqxx"]);
    assert(!alone.err.includes("in no searchable text"), alone.err);
    // Named without the punctuation typed around it (trial 83: `'weird,'`).
    const punct = await runMain(ix.env, ["redis", "zzqqxx,"]);
    assertStringIncludes(
      punct.err,
      "hint: 'zzqqxx' is in no searchable text; without it: 1 session",
    );
    // Under a filter the count is the filter's, and so is the command it gives.
    const filtered = await runMain(ix.env, ["redis", "zzqqxx", "--role", "assistant"]);
    assertStringIncludes(
      filtered.err,
      "hint: 'zzqqxx' is in no searchable text; without it: 1 session: deja redis --role assistant\n",
    );
    // Beside the nearest by relevance too (trial 16: `simple greeting banana` listed a guess
    // and never named `banana`).
    const near = await runMain(ix.env, ["world", "tiles", "overlap", "zzqqxx"]);
    assertEquals(near.code, 1, near.err);
    assertStringIncludes(near.err, "nothing matched exactly; the nearest sessions by relevance");
    assertStringIncludes(
      near.err,
      "hint: 'zzqqxx' is in no searchable text; without it: 1 session: deja world tiles overlap\n",
    );
    // Neither a word held in another form nor a time word is in no session, and the time
    // words stay in the command (recall bench: "'lose', 'july' are in no session", then
    // `deja … messages in`).
    const timed = await runMain(ix.env, ["world", "tiles", "overlapping", "zzqqxx", "in", "july"]);
    assertStringIncludes(
      timed.err,
      "hint: 'zzqqxx' is in no searchable text; without it: 1 session: deja world tiles overlapping in july\n",
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("hidden sessions that hold every word are said before the look-alikes", async () => {
  const ix = await memIndex([
    ...HISTORY,
    ...[1, 2].map((i) => ({
      id: `s-scratch-${i}`,
      project: `/tmp/tmp.Qz81kPw${i}/app`,
      events: [["user", "cat missing.txt"]] as MemSession["events"],
    })),
    { id: "s-cat", events: [["user", "the cat is missing"], ["assistant", "the txt file"]] },
  ]);
  try {
    const r = await runMain(ix.env, ["cat", "missing.txt"]);
    assertEquals(r.code, 1, r.err);
    assertStringIncludes(r.out, "s-cat");
    assert(
      r.err.startsWith(
        'deja: 2 hidden sessions hold every word of "cat missing.txt" (throwaway or excluded projects)',
      ),
      r.err,
    );
    assertStringIncludes(r.err, "hint: --junk shows the throwaway ones\n");
    assert(!r.err.includes("left out; --junk"), r.err);
    // And in JSON (trial 92 F14: `hints` was empty).
    const json = JSON.parse((await runMain(ix.env, ["cat", "missing.txt", "--json"])).out);
    assert(json.hints.includes("--junk shows the throwaway ones"), JSON.stringify(json.hints));
  } finally {
    ix.cleanup();
  }
});

Deno.test("a query of common words alone says how many sessions hold them", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const r = await runMain(ix.env, ["hi"]);
    assertStringIncludes(
      r.err,
      "deja: the query holds only common words (hi), searched as typed: 1 session holds it\n",
    );
    assert(!r.err.includes("most sessions"), r.err);
  } finally {
    ix.cleanup();
  }
});

Deno.test("--session naming no session says where ids are and how to search every session", async () => {
  // Trial 15: the hint offered to search the id as words (`deja search zzz`).
  const ix = await memIndex(HISTORY);
  try {
    const r = await runMain(ix.env, ["world", "map", "--session", "zzz"]);
    assertEquals(r.code, 1);
    assertStringIncludes(r.err, "no session matches 'zzz'");
    assertStringIncludes(r.err, "hint: 'deja last' lists sessions with their ids");
    assertStringIncludes(r.err, "deja search world map");
    assert(!r.err.includes("deja search zzz"), r.err);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a session holding the words only between its events is marked among those holding them together", async () => {
  // Trial 15: only the JSON said which results were spread.
  const ix = await memIndex([
    { id: "s-together", events: [["user", "the quokka frost alarm went off"]] },
    { id: "s-apart", events: [["user", "a quokka at the zoo"], ["assistant", "frost overnight"]] },
  ]);
  try {
    const r = await runMain(ix.env, ["quokka", "frost"]);
    assertEquals(r.code, 0, r.err);
    const heads = r.out.split("\n").filter((l) => /^s-/.test(l));
    assertEquals(heads.length, 2, r.out);
    const line = (id: string) => heads.find((l) => l.startsWith(id)) ?? "";
    assert(line("s-togeth") && !line("s-togeth").includes("across"), r.out);
    assert(line("s-apart").endsWith("words across events"), r.out);
    // When every result is spread the narration says it once, and no line repeats it.
    const all = await runMain(ix.env, ["zoo", "overnight"]);
    assertStringIncludes(all.err + all.out, "no single event holds every word");
    assert(!all.out.includes("words across events"), all.out);
  } finally {
    ix.cleanup();
  }
});

Deno.test("nothing matched inside --session names the session and what matches without it", async () => {
  // Trial 16: `search redis --session 4b4826a1` said only `nothing matched "redis"`.
  const ix = await memIndex(HISTORY);
  try {
    const r = await runMain(ix.env, ["search", "tiles", "--session", "s-exit-old"]);
    assertEquals(r.code, 1);
    assertStringIncludes(
      r.err,
      `nothing matched "tiles" in session s-exit-old; without --session: 1 session`,
    );
    assertStringIncludes(r.err, "hint: the filter left nothing; drop --session to see them");
    const none = await runMain(ix.env, ["search", "zzqqxx", "--session", "s-exit-old"]);
    assertStringIncludes(none.err, "in session s-exit-old (nor without --session)");
  } finally {
    ix.cleanup();
  }
});

Deno.test("--json says how many listed results meet the window the time words name", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const year = new Date(AT).getFullYear();
    const month = new Date(AT).toLocaleString("en", { month: "long" }).toLowerCase();
    const inside = await runMain(ix.env, ["gateway", "in", month, String(year), "--json"]);
    assertEquals(JSON.parse(inside.out).time.inside > 0, true, inside.out);
    const outside = await runMain(ix.env, ["gateway", "in", month, String(year - 3), "--json"]);
    const t = JSON.parse(outside.out).time;
    assertEquals([t.words, t.inside], [`in ${month} ${year - 3}`, 0]);
  } finally {
    ix.cleanup();
  }
});

// Trial 133 F7: `"config deploy billing" --harness codex` hinted "the words without quotes
// match 1 session: deja config deploy billing --harness codex", a widened guess inside the
// filter, which that command then refused (the words match as typed outside it).
Deno.test("a phrase's hint counts no widened guess its command would refuse under a filter", async () => {
  const ix = await memIndex([
    {
      id: "s-forms",
      at: AT,
      project: "/home/dev/work/other",
      events: [["user", "the configs were deployed after billed runs"]],
    },
    {
      id: "s-typed",
      at: AT,
      events: [["user", "config of the deploy for billing"], ["assistant", "Done."]],
    },
  ]);
  try {
    const loose = await runMain(ix.env, ["config", "deploy", "billing", "--project", "other"]);
    assertEquals(loose.code, 1, loose.err);
    assertStringIncludes(loose.err, "without --project: 1 session");
    const phrase = await runMain(ix.env, ['"config deploy billing"', "--project", "other"]);
    assertEquals(phrase.code, 1, phrase.err);
    assert(!phrase.err.includes("without quotes match"), phrase.err);
    // Without the filter the hint stands, and its command finds the session.
    const all = await runMain(ix.env, ['"config deploy billing"']);
    assertStringIncludes(
      all.err,
      "hint: the words without quotes match 1 session: deja config deploy billing",
    );
  } finally {
    ix.cleanup();
  }
});

// Trial 132 F10: `"secrets quokkamatic"` said "no exact match; close spellings: secrets
// quokkamatic → secret quokkamatic": a word form, not a close spelling.
Deno.test("a quoted phrase found in other word forms says word forms, not close spellings", async () => {
  const ix = await memIndex([
    {
      id: "s-creds",
      at: AT,
      events: [["user", "run kubectl get secret quokkamatic-creds and read the token"]],
    },
  ]);
  try {
    const r = await runMain(ix.env, ['"secrets quokkamatic"']);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.err, "no exact match; word forms: ");
    assert(!r.err.includes("close spellings"), r.err);
    // A true close spelling is still said so.
    const typo = await runMain(ix.env, ['"secert quokkamatic"']);
    assertStringIncludes(typo.err, "close spellings");
  } finally {
    ix.cleanup();
  }
});
