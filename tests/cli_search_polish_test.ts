/**
 * A new-user search trial: a quoted phrase that matched nothing gave a bare "nothing
 * matched" although its words unquoted match; a query of common words alone (`deja the`)
 * listed sessions as exact matches with no word of warning; an emoji beside words was
 * lost without a trace.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-pdf",
    events: [["user", "summarize the pdf report"], ["assistant", "The report is about the cpu."]],
  },
  {
    id: "s-db",
    events: [["user", "echo 🗄️ Database setup"], ["assistant", "The database is set up."]],
  },
];

Deno.test("a quoted phrase that matches nothing hints at its words unquoted, exit 1", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const r = await runMain(ix.env, ['"pdf summarize"']);
    assertEquals(r.code, 1, r.err);
    assertStringIncludes(r.err, "nothing matched");
    assertStringIncludes(
      r.err,
      "hint: the words without quotes match 1 session: deja pdf summarize",
    );
    // Words that match nothing either way get no such hint.
    const none = await runMain(ix.env, ['"zzqx qqzz"']);
    assertEquals(none.code, 1);
    assert(!none.err.includes("without quotes"), none.err);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a query of common words alone says so on stderr and in --json", async () => {
  const ix = await memIndex(HISTORY);
  try {
    for (const q of [["the"], ["the", "of", "and", "to"]]) {
      const r = await runMain(ix.env, q);
      assertStringIncludes(r.err, "the query holds only common words", q.join(" "));
      const j = JSON.parse((await runMain(ix.env, ["--json", ...q])).out);
      assertEquals(j.common_words_only, true, q.join(" "));
    }
    const r = await runMain(ix.env, ["the", "report"]);
    assert(!r.err.includes("common words"), r.err);
    assertEquals(
      JSON.parse((await runMain(ix.env, ["--json", "the", "report"])).out)
        .common_words_only,
      false,
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("an emoji beside words is listed as dropped", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const j = JSON.parse((await runMain(ix.env, ["--json", "Database", "🗄️"])).out);
    assertEquals(j.dropped, ["🗄️"]);
    assertEquals(j.results[0]?.id, "s-db");
  } finally {
    ix.cleanup();
  }
});

// Trial 128 F9: `"No recurring charges located"` hinted that its words "match 6 sessions" where
// one session held them and five were only the nearest by relevance listed after it.
Deno.test("the unquoted words' hint counts the sessions holding them, then the nearest apart", async () => {
  const ix = await memIndex([
    {
      id: "s-all",
      events: [["user", "No recurring charges found in the export"], [
        "assistant",
        "I could not locate the location of the file.",
      ]],
    },
    { id: "s-a", events: [["user", "recurring charges are billed monthly"]] },
    { id: "s-b", events: [["user", "the charges page shows recurring items"]] },
    { id: "s-c", events: [["user", "recurring jobs run at night"]] },
    { id: "s-d", events: [["user", "the file was located in the cache"]] },
  ]);
  try {
    const r = await runMain(ix.env, ['"recurring charges located"']);
    assertEquals(r.code, 1, r.err);
    assertStringIncludes(
      r.err,
      "hint: the words without quotes match 1 session, then 3 nearest by relevance: " +
        "deja recurring charges located",
    );
  } finally {
    ix.cleanup();
  }
});

// Trial 132 F8: a phrase whose words only throwaway sessions hold got no hint, and with
// `--junk` the hint's command dropped `--junk` and found nothing.
Deno.test("a phrase's words held only by hidden sessions: said, with --junk in the command", async () => {
  const ix = await memIndex([
    ...HISTORY,
    ...[1, 2].map((i) => ({
      id: `s-scratch-${i}`,
      project: `/tmp/tmp.Zb81kPw${i}/app`,
      events: [["user", `change greeting ${i} to zebrafinch world`]] as MemSession["events"],
    })),
  ]);
  try {
    const r = await runMain(ix.env, ['"greeting world zebrafinch"']);
    assertEquals(r.code, 1, r.err);
    assertStringIncludes(
      r.err,
      "hint: only 2 hidden sessions (throwaway or excluded projects) hold the words without " +
        "quotes; --junk shows the throwaway ones: deja greeting world zebrafinch --junk\n",
    );
    const json = JSON.parse((await runMain(ix.env, ['"greeting world zebrafinch"', "--json"])).out);
    assert(json.hints.some((h: string) => h.includes("zebrafinch --junk")), JSON.stringify(json));
    // With --junk the count is of them, and so is the command.
    const junk = await runMain(ix.env, ['"greeting world zebrafinch"', "--junk"]);
    assertStringIncludes(
      junk.err,
      "hint: the words without quotes match 2 sessions: deja greeting world zebrafinch --junk\n",
    );
    const cmd = await runMain(ix.env, ["greeting", "world", "zebrafinch", "--junk"]);
    assertEquals(cmd.code, 0, cmd.err);
  } finally {
    ix.cleanup();
  }
});

// Trial 132 F9: `"kubectl helm" --harness codex` counted 1 and offered `deja kubectl helm` (3).
Deno.test("a phrase hint's command keeps the filters its count was made with", async () => {
  const ix = await memIndex([
    ...HISTORY,
    { id: "s-k8", project: "/home/dev/kube ops", events: [["user", "helm chart, kubectl apply"]] },
    { id: "s-k9", events: [["user", "helm upgrade and kubectl rollout"]] },
  ]);
  try {
    const r = await runMain(ix.env, ['"kubectl helm"', "--project", "kube ops"]);
    assertEquals(r.code, 1, r.err);
    assertStringIncludes(
      r.err,
      "hint: the words without quotes match 1 session: deja kubectl helm --project 'kube ops'\n",
    );
    const cmd = await runMain(ix.env, ["kubectl", "helm", "--project", "kube ops", "--json"]);
    assertEquals(JSON.parse(cmd.out).total, 1);
  } finally {
    ix.cleanup();
  }
});
