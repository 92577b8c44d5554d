/**
 * `last --json` and search `--json` name one thing two ways (new-user report, 2026-12): what a
 * session was about (lib/memory/last.ts `describeSession`) was `description` in `last` and
 * `about` in search, so a script reading one could not read the other. `last` gives `about`
 * too; `description` stays (fields are added, never renamed).
 */
import { assertEquals } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";

const AT = Date.parse("2026-11-01T10:00:00Z");
const SESSIONS: MemSession[] = [
  { id: "s-titled", at: AT, title: "Kafka consumer lag", events: [["user", "the kafka lag"]] },
  {
    id: "s-typed",
    at: AT + 60e3,
    events: [["user", "/model opus"], ["user", "the kafka retries"]],
  },
];

Deno.test("last --json gives each session's about, as search --json does, beside description", async () => {
  const ix = await memIndex(SESSIONS);
  try {
    const last = await runMain(ix.env, ["last", "--json"]);
    const search = await runMain(ix.env, ["search", "kafka", "--json"]);
    assertEquals([last.code, search.code], [0, 0], last.err + search.err);
    type Item = { id: string; about?: string | null; description?: string | null };
    const byId = (items: Item[], key: "about" | "description") =>
      Object.fromEntries(items.map((s) => [s.id, s[key]]));
    const sessions = JSON.parse(last.out).sessions as Item[];
    const expected = { "s-titled": "Kafka consumer lag", "s-typed": "the kafka retries" };
    assertEquals(byId(sessions, "about"), expected);
    assertEquals(byId(sessions, "description"), expected);
    assertEquals(byId(JSON.parse(search.out).results, "about"), expected);
  } finally {
    ix.cleanup();
  }
});
