/**
 * A result says what its session was about: its title, else its first prompt that reads as
 * typed. Found on real stores (2026-12, bench/recall_real.ts): most sessions have no title,
 * and a question in other words listed them by snippets of tool output (a file's code, a log)
 * that did not tell the person which session was which.
 */
import { assert, assertEquals } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-untitled",
    events: [
      ["user", "/model"],
      ["user", "the nightly backup job stopped uploading to the bucket"],
      ["tool_result", "upload failed: bucket quota exceeded for nightly backup"],
    ],
  },
  {
    id: "s-placeholder",
    title: "Untitled Session",
    events: [
      ["user", "/model opus"],
      ["user", "[Pasted text #1 +16 lines]"],
      ["user", "why does the nightly backup skip the bucket"],
    ],
  },
  {
    id: "s-titled",
    title: "Rotate the backup keys",
    events: [["user", "rotate keys please"], ["assistant", "The nightly backup keys are rotated."]],
  },
];

Deno.test("a search result shows its title, else its first typed prompt, in text and --json", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const r = await runMain(ix.env, ["nightly", "backup"]);
    assertEquals(r.code, 0, r.err);
    const lines = r.out.split("\n");
    const under = (id: string) => lines[lines.findIndex((l) => l.startsWith(id.slice(0, 8))) + 1];
    // The first prompt that reads as typed: not the bare slash command before it.
    assertEquals(
      under("s-untitled").trim(),
      "the nightly backup job stopped uploading to the bucket",
    );
    assertEquals(under("s-titled").trim(), "Rotate the backup keys");
    // A placeholder title, a slash command with its argument and a paste's placeholder are
    // not what a session was about (trial 15).
    assertEquals(under("s-placeholder").trim(), "why does the nightly backup skip the bucket");
    const j = await runMain(ix.env, ["search", "--json", "nightly", "backup"]);
    const about = Object.fromEntries(
      (JSON.parse(j.out).results as Array<{ id: string; about: string | null; title: unknown }>)
        .map((x) => [x.id, [x.about, x.title]]),
    );
    assertEquals(about["s-untitled"], [
      "the nightly backup job stopped uploading to the bucket",
      null,
    ]);
    assertEquals(about["s-titled"], ["Rotate the backup keys", "Rotate the backup keys"]);
    assert(!r.out.includes("/model"), r.out);
  } finally {
    ix.cleanup();
  }
});
