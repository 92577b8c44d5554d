import { assertEquals } from "../tests/_assert.ts";
import { damageLine, sessionDamage } from "./store_damage.ts";

// A trial read "could not read not JSONL": a note naming the store itself was taken for a place.
Deno.test("damageLine says a file that is not JSONL as such, and where SQLite pages were lost", () => {
  const p = "/h/.claude/projects/x/a.jsonl";
  assertEquals(
    damageLine(p, { not_jsonl: 1 }, [`not_jsonl at ${p}: not JSONL: 12 of 16 lines`]),
    `${p}: damaged, not JSONL (1 not_jsonl)`,
  );
  const db = "/h/.local/share/crush/crush.db";
  assertEquals(
    damageLine(db, { corrupt: 1 }, [
      `corrupt at ${db}: rows of sessions with rowids 1..5: damaged page, unreadable`,
    ]),
    `${db}: damaged, could not read rows of sessions with rowids 1..5 (1 corrupt)`,
  );
});

// Trial 31 #9: an emptied session file's line said "damaged, kept 1 session as indexed" with no
// reason, while the index run said "skipped: 1 empty".
Deno.test("damageLine says a store now empty as such, with the sessions it kept", () => {
  const p = "/h/.claude/projects/x/a.jsonl";
  assertEquals(damageLine(p, { empty: 1 }, [], 1), `${p}: now empty, kept 1 session as indexed`);
  // Damage found too: the damage leads.
  assertEquals(
    damageLine(p, { empty: 1, not_jsonl: 1 }, [`not_jsonl at ${p}: not JSONL: 3 of 3 lines`], 2),
    `${p}: damaged, not JSONL, kept 2 sessions as indexed (1 not_jsonl)`,
  );
});

Deno.test("sessionDamage says a session kept only of the sessions the store's read kept (trial 33)", () => {
  const row = {
    skipped: JSON.stringify({ counts: {}, examples: [], kept: 1, keptIds: ["kept-one"] }),
    mtime: 0,
    sessions: 2,
  };
  assertEquals(sessionDamage(row, "kept-one")?.kept_as_indexed, 1);
  assertEquals(sessionDamage(row, "read-in-full"), null);
  // A record that does not name them (written before they were named) says it of each.
  const unnamed = { ...row, skipped: JSON.stringify({ counts: {}, examples: [], kept: 1 }) };
  assertEquals(sessionDamage(unnamed, "read-in-full")?.kept_as_indexed, 1);
});
