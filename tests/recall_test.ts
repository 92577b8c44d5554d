/**
 * The recall benchmark's floor, on a small fixed generated history (the full
 * table: `deno task bench:recall`). Ground truth comes from the generator.
 */
import { assert } from "./_assert.ts";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { generateHistory } from "../bench/gen_recall.ts";
import { makeQueries } from "../bench/recall_queries.ts";
import { figures, NEGATIVE, PARAPHRASE, runQueries, table } from "../bench/recall_eval.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { parsers } from "../parsers/mod.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

Deno.test("search finds the planted session first for every kind of query when the history is small", async () => {
  const dir = tempDir("deja-recall-");
  try {
    const h = generateHistory(join(dir, "claude"), { targets: 30, distractors: 60, seed: 11 });
    const queries = makeQueries(h, 8, 12);
    const env = testEnv(join(dir, "home"), {
      DEJA_HOME: join(dir, "deja"),
      DEJA_CLAUDE_ROOT: join(dir, "claude", "projects"),
    });
    await runIndex(env, parsers, { only: ["claude"] });
    const store = Store.open(indexPath(env));
    const rows = figures(runQueries(store, queries, h.now));
    store.close();
    const shown = table(rows);
    const by = new Map(rows.map((r) => [r.kind, r]));
    assert(by.get("overall")!.hit1 >= 0.85, `overall hit@1 below 0.85\n${shown}`);
    for (const r of rows) {
      if (r.kind === "negative") assert(r.nothing >= 0.9, `negatives answered\n${shown}`);
      else if (!NEGATIVE(r.kind) && r.kind !== "overall" && !PARAPHRASE(r.kind)) {
        assert(r.hit1 >= 0.6, `${r.kind} hit@1 below 0.6\n${shown}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
