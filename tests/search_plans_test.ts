/**
 * How SQLite runs the statements of a search (issue 15): a relevance-tier query
 * read each of its terms' events through `events_fts MATCH` joined to events, with the
 * candidate sessions as a list; SQLite probed events_rank once per listed session for
 * every match (`(id=? AND session_id=?)`), a hundred sessions times every event of a
 * common word, two thirds of the query's time. These tests run real searches, capture
 * every statement, and read its plan.
 */
import { assert, assertEquals } from "./_assert.ts";
import { withMemIndex } from "./_search_fixture.ts";
import { search } from "../lib/search.ts";
import { SessionCache } from "../lib/search/sessions.ts";
import { Q } from "../lib/schema.ts";
import type { Store } from "../lib/store.ts";

/** Sessions enough for the relevance tier's second stage to list candidates. */
function sessions() {
  const out = [];
  for (let i = 0; i < 12; i++) {
    out.push({
      id: `s${i}`,
      events: [
        ["user", `the nightly export job ${i} writes a report of invoices`],
        ["assistant", `the cron scheduler ran the export at midnight ${i % 3 ? "utc" : "local"}`],
        ["user", i % 2 ? "memory keeps growing until the worker is killed" : "pdf charts empty"],
      ] as Array<["user" | "assistant", string]>,
    });
  }
  return out;
}

/** Runs `fn` with every statement `store` runs recorded (in order, repeats kept). */
function recording(store: Store, fn: () => void): string[] {
  const seen: string[] = [];
  const orig = store.stmt.bind(store);
  store.stmt = (sql: string) => {
    seen.push(sql);
    return orig(sql);
  };
  try {
    fn();
  } finally {
    store.stmt = orig;
  }
  return seen;
}

/** The plan lines of `sql` (parameters bound to nulls: the plan does not depend on them). */
function plan(store: Store, sql: string): string[] {
  const n = sql.replace(/'(?:[^']|'')*'/g, "''").split("?").length - 1;
  const args = Array.from({ length: n }, () => null);
  return (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>)
    .map((r) => r.detail);
}

Deno.test("a search driven by events_fts tests its session lists per match, never probes per session", async () => {
  await withMemIndex(sessions(), (store) => {
    const sqls = recording(store, () => {
      // A question in other words (relevance tier and its second stage), a long query whose
      // words lie in different events (the session-level AND), and one inside a session.
      search(store, "why did the overnight spreadsheet download come out blank for people", {
        limit: 10,
        hideThrowaway: true,
      });
      search(store, "nightly export invoices scheduler midnight killed", { limit: 10 });
      search(store, "export", { limit: 10, sessionIds: [1, 2, 3] });
    });
    const driven = [...new Set(sqls)].filter((s) =>
      /events_fts MATCH/.test(s) && /json_each/.test(s)
    );
    assert(driven.length >= 2, `statements with a session list: ${driven.length}`);
    for (const sql of driven) {
      const probes = plan(store, sql).filter((l) => /SEARCH e .*session_id=\?/.test(l));
      assertEquals(probes, [], `probes a session list per match:\n${sql}`);
    }
  });
});

Deno.test("a regular-expression search inside sessions walks their events by the session index", async () => {
  await withMemIndex(sessions(), (store) => {
    const sqls = recording(store, () => {
      search(store, "export job [0-9]", { limit: 10, regex: true, sessionIds: [1, 2] });
    });
    const scan = sqls.find((s) => s.startsWith(Q.scanRows.sql));
    assert(scan, "the regex scan ran");
    assert(
      plan(store, scan).some((l) =>
        /SEARCH e USING INDEX events_session \(session_id=\?\)/.test(l)
      ),
      plan(store, scan).join("\n"),
    );
  });
});

Deno.test("the head rerank picks its events in the indexes and reads the events table by id only", async () => {
  await withMemIndex(sessions(), (store) => {
    const sqls = recording(store, () => {
      search(store, "why did the overnight spreadsheet download come out blank for people", {
        limit: 10,
      });
    });
    const heads = sqls.find((s) => s === Q.headsOf.sql);
    assert(heads, "the head rerank ran");
    const events = plan(store, heads).filter((l) => /^(SCAN|SEARCH) (events|f|r)\b/.test(l));
    assertEquals(events, [
      "SEARCH events USING INTEGER PRIMARY KEY (rowid=?)",
      "SEARCH f USING COVERING INDEX events_session (session_id=?)",
      "SEARCH r USING COVERING INDEX events_rank (id=?)",
    ]);
  });
});

Deno.test("the association pass picks its events in events_rank and reads the events table by id only", async () => {
  await withMemIndex(sessions(), (store) => {
    const events = plan(store, Q.assocFields.sql).filter((l) => /^(SCAN|SEARCH) events\b/.test(l));
    assertEquals(events, [
      "SEARCH events USING INTEGER PRIMARY KEY (rowid=?)",
      "SCAN events USING COVERING INDEX events_rank",
    ]);
  });
});

Deno.test("SessionCache files subagents under their root and reads rows ahead of a miss", async () => {
  const list = [
    { id: "root", events: [["user", "parent work"]] as Array<["user", string]> },
    ...[1, 2].map((i) => ({
      id: `child${i}`,
      parent: "root",
      events: [["user", `child ${i}`], ["assistant", "done"]] as Array<
        ["user" | "assistant", string]
      >,
    })),
    { id: "other", events: [["user", "alone"]] as Array<["user", string]> },
  ];
  await withMemIndex(list, (store) => {
    const ids = new Map(
      (store.db.prepare("SELECT id, native_id FROM sessions").all() as Array<
        { id: number; native_id: string }
      >).map((r) => [r.native_id, r.id]),
    );
    const cache = new SessionCache(store);
    const reads = recording(store, () => {
      for (const id of ids.values()) cache.root(id);
    });
    const root = ids.get("root")!;
    assertEquals(cache.root(ids.get("child1")!), root);
    assertEquals(cache.root(ids.get("other")!), ids.get("other"));
    assertEquals(cache.members(root).sort(), [root, ids.get("child1")!, ids.get("child2")!].sort());
    assertEquals(cache.members(ids.get("other")!), [ids.get("other")]);
    assertEquals(cache.eventsUnder(root), 1 + 2 + 2);
    // Four sessions, one read: the rows after the first miss came with it.
    assertEquals(reads.filter((s) => s === Q.sessionsInRange.sql).length, 1);
  });
});

/** Runs `fn` and returns every quoted FTS5 expression a statement of `store` was given. */
function matches(store: Store, fn: () => void): string[] {
  const seen: string[] = [];
  const orig = store.stmt.bind(store);
  store.stmt = (sql: string) => {
    const st = orig(sql);
    return new Proxy(st, {
      get(t, k) {
        const v = Reflect.get(t, k);
        if (typeof v !== "function") return v;
        return (...args: unknown[]) => {
          for (const a of args) if (typeof a === "string" && a.includes('"')) seen.push(a);
          return v.apply(t, args);
        };
      },
    });
  };
  try {
    fn();
  } finally {
    store.stmt = orig;
  }
  return seen;
}

// Regression (2026-12, 100 MB bench): the adjacent-words pairs of two words held by most events
// (`error build`) read their phrases through the whole index: +60 ms on every such cold query.
Deno.test("two words held by most events are not read as a pair; rarer adjacent words are", async () => {
  await withMemIndex(sessions(), (store) => {
    const pair = (a: string, b: string) => (m: string) => m.includes(`"${a} ${b}`);
    const common = matches(store, () => search(store, "nightly export", { limit: 10 }));
    assert(common.length > 0, "the search ran its statements");
    assertEquals(common.filter(pair("nightly", "export")), [], "a phrase of two common words");
    const rarer = matches(store, () => search(store, "memory keeps", { limit: 10 }));
    assert(rarer.some(pair("memory", "keeps")), `no pair read: ${rarer.join(" | ")}`);
  });
});
