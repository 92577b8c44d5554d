import { assertEquals, assertMatch, assertThrows } from "../tests/_assert.ts";
import { DatabaseSync } from "node:sqlite";
import { marks, type Prepares, query } from "./sql.ts";

function db(): Prepares & { close(): void } {
  const d = new DatabaseSync(":memory:");
  d.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER)");
  d.exec("INSERT INTO t (name, n) VALUES ('a', 1), ('b', 2), ('c', 3), ('it''s ?', 4)");
  return { stmt: (sql) => d.prepare(sql), close: () => d.close() };
}

Deno.test("a query binds its named parameters in the order of its ? marks", () => {
  const d = db();
  const between = query<{ low: number; high: number }, { name: string }>(
    "SELECT name FROM t WHERE n >= ? AND n <= ? ORDER BY n",
    ["low", "high"],
  );
  assertEquals(between.all(d, { high: 2, low: 1 }).map((r) => r.name), ["a", "b"]);
  assertEquals(between.get(d, { low: 3, high: 9 })?.name, "c");
  d.close();
});

Deno.test("a query whose names and ? marks differ is refused when it runs (quoted ? not counted)", () => {
  const d = db();
  const wrong = query<{ a: number }>("SELECT ? + ?", ["a"]);
  assertMatch(
    assertThrows(() => wrong.get(d, { a: 1 }), Error).message,
    /2 parameters but 1 names/,
  );
  assertMatch(
    assertThrows(() => wrong.extend(" WHERE 1", []), Error).message,
    /2 parameters but 1 names/,
  );
  const quoted = query<{ n: number }, { x: string }>("SELECT 'a ? in a string' AS x WHERE 1 = ?", [
    "n",
  ]);
  assertEquals(quoted.get(d, { n: 1 })?.x, "a ? in a string");
  assertEquals(marks("SELECT 'it''s ?' || ?, ?"), 2);
  d.close();
});

Deno.test("an extended query appends its filter and binds the filter's arguments after its own", () => {
  const d = db();
  const base = query<{ min: number }, { name: string }>("SELECT name FROM t WHERE n >= ?", [
    "min",
  ]);
  const q = base.extend(" AND name IN (?, ?) ORDER BY n", ["c", "a"]);
  assertEquals(q.all(d, { min: 2 }).map((r) => r.name), ["c"]);
  assertEquals([...q.extend(" LIMIT ?", [5]).iterate(d, { min: 0 })].map((r) => r.name), [
    "a",
    "c",
  ]);
  assertThrows(() => base.extend(" AND name = ?", []), Error);
  d.close();
});
