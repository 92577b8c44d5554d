import { assertEquals, assertThrows } from "../tests/_assert.ts";
import { DatabaseSync } from "node:sqlite";
import { type Prepares, query } from "./sql.ts";

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

Deno.test("a query whose names and ? marks differ is refused when declared (quoted ? not counted)", () => {
  assertThrows(() => query<{ a: number }>("SELECT ? + ?", ["a"]), Error);
  query<{ n: number }>("SELECT 'a ? in a string' WHERE 1 = ?", ["n"]);
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
