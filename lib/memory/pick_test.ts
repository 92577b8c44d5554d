import { assertEquals } from "../../tests/_assert.ts";
import { join } from "node:path";
import { materialize, REPO, testEnv } from "../../tests/_fixture.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import { indexPath, Store } from "../store.ts";
import { pickSession } from "./pick.ts";

Deno.test("pickSession takes the session whose subagents share its id prefix", async () => {
  const fx = materialize(join(REPO, "fixtures/registry/claude"));
  try {
    const env = testEnv(join(fx.root, "home"), {
      DEJA_HOME: join(fx.root, "deja"),
      DEJA_CLAUDE_ROOT: join(fx.root, "projects"),
    });
    await runIndex(env, parsers, { only: ["claude"] });
    const store = Store.open(indexPath(env));
    try {
      const kids = store.db.prepare(
        "SELECT COUNT(*) AS n FROM sessions WHERE native_id LIKE '0b5e2a10%' AND parent IS NOT NULL",
      ).get() as { n: number };
      assertEquals(kids.n > 0, true);
      const p = pickSession(store, "0b5e2a10");
      assertEquals([p?.via, p?.session.native_id], ["id", "0b5e2a10-1d2c-4e6f-8a9b-111111111111"]);
    } finally {
      store.close();
    }
  } finally {
    fx.cleanup();
  }
});
