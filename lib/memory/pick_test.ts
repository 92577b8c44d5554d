import { assertEquals, assertThrows } from "../../tests/_assert.ts";
import { memIndex } from "../../tests/_search_fixture.ts";
import { AmbiguousSession } from "../sessions.ts";
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

// Trial 71: `ctx 66` digested another session than `show 66`; `ctx 5f` said no session had it;
// `ctx 01`, which four ids start with, digested a session whose tool output held "01".
Deno.test("pickSession takes a short id with a digit as show does, and lists several", async () => {
  const ix = await memIndex([
    { id: "66db2ce0-aaaa", events: [["user", "fix the dashboard flicker"]] },
    { id: "5fbf3543-bbbb", events: [["user", "ynab oauth finder"]] },
    {
      id: "c1aa0000-cccc",
      events: [["user", "build 66 passed, see run 01"], ["user", "01 66 5f"]],
    },
    { id: "0111aaaa-dddd", events: [["user", "first"]] },
    { id: "0122bbbb-eeee", events: [["user", "second"]] },
    { id: "db000000-ffff", events: [["user", "a db migration"]] },
    { id: "dcdc0000-0000", events: [["user", "a session nobody calls dc"]] },
  ]);
  const store = ix.open();
  try {
    assertEquals(pickSession(store, "66")?.session.native_id, "66db2ce0-aaaa");
    assertEquals(pickSession(store, "5f")?.session.native_id, "5fbf3543-bbbb");
    assertThrows(() => pickSession(store, "01"), AmbiguousSession);
    // A short word without a digit is a word: searched, not read as an id...
    assertEquals(pickSession(store, "db")?.via, "search");
    // ...unless no session holds it as written (trial 73: `ctx dc` said nothing matched).
    assertEquals(pickSession(store, "c1")?.session.native_id, "c1aa0000-cccc");
    assertEquals(pickSession(store, "dcd")?.session.native_id, "dcdc0000-0000");
  } finally {
    store.close();
    ix.cleanup();
  }
});

// Trial 91 F4: `ctx end-s`, `ctx sessionX`, which several ids start with, digested another
// session, exit 0.
Deno.test("pickSession lists the sessions a prefix written as no prose starts", async () => {
  const ix = await memIndex([
    { id: "sessionX-alpha", events: [["user", "rebuild the ledger"], ["assistant", "Rebuilt."]] },
    { id: "sessionX-beta", events: [["user", "rotate the keys"], ["assistant", "Rotated."]] },
    { id: "other", events: [["user", "the session x was restored from the sprint backup"]] },
  ]);
  const s = ix.open();
  try {
    assertThrows(() => pickSession(s, "sessionX"), AmbiguousSession);
    // A word a session holds as written is still searched.
    assertEquals(pickSession(s, "ledger")?.session.native_id, "sessionX-alpha");
  } finally {
    s.close();
    ix.cleanup();
  }
});

// Trial 93 F2: `ctx forgejo issue` digested a YAML fix holding `forgejo` in a pasted log and
// `issue` in passing, not the session titled by forgejo.
Deno.test("pickSession takes a session titled by a trouble question's other words over a loose match", async () => {
  const ix = await memIndex([
    {
      id: "s-flux",
      title: "Flux Kustomization",
      events: [
        ["user", "fix the kustomization yaml"],
        ["tool_result", '{"HelmRelease/forgejo/forgejo":"unchanged"}'],
        ["assistant", "The issue has been resolved: the indent was wrong."],
      ],
    },
    {
      id: "s-forgejo",
      title: "Forgejo crashing in k3s cluster",
      events: [["user", "forgejo keeps crashing"], ["assistant", "Looking at the probe."]],
    },
    { id: "s-other", events: [["user", "rename the ledger module"]] },
  ]);
  const s = ix.open();
  try {
    assertEquals(pickSession(s, "forgejo issue")?.session.native_id, "s-forgejo");
    // Matched whole by one session: that one.
    assertEquals(pickSession(s, "kustomization yaml")?.session.native_id, "s-flux");
  } finally {
    s.close();
    ix.cleanup();
  }
});
