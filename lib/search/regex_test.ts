/** `--re` bounds (lib/search/regex.ts): patterns that backtrack exponentially, and the scan's time budget. */
import { assert, assertEquals, assertThrows } from "../../tests/_assert.ts";
import { DejaError } from "../../core/errors.ts";
import { search } from "../search.ts";
import { catastrophic, compilePattern, regexScan } from "./regex.ts";
import { stopRegexWorker } from "./regex_run.ts";
import { withMemIndex } from "../../tests/_search_fixture.ts";

// Reported on a fake home (session 13): `deja --re '(\w+\s?)+$$$'` ran over a minute, 37 s of CPU.
Deno.test("compilePattern refuses a repeated group holding a repeat before any text is read", () => {
  const e = assertThrows(() => compilePattern("(\\w+\\s?)+$$$"), DejaError) as DejaError;
  assertEquals(e.exitCode, 2);
  assert(e.message.includes("(\\w+\\s?)"), e.message);
  assert(e.hint?.includes("[\\w\\s]+"), e.hint);
});

Deno.test("catastrophic names nested repeats and alternatives that start alike, and passes the rest", () => {
  for (const bad of ["(a*)*", "(?:x+y?)+", "(a|a)*", "(\\w|\\d)+$", "(?i)(ab|a)+".slice(4)]) {
    assert(catastrophic(bad), bad);
  }
  for (
    const good of ["(ab?)+", "(foo|bar)+", "deploy\\.sh|(?:restart)ing", "\\d+\\.\\d+", "(a+)?"]
  ) {
    assertEquals(catastrophic(good), undefined, good);
  }
});

// Trial 16: version numbers, kebab-case and lists were refused as exponential.
Deno.test("a repeated group of repeats ending in a character none of them takes is passed", () => {
  for (
    const good of [
      "(\\d+\\.)+\\d+",
      "(\\w+-)+\\w+",
      "(\\w+\\.)+yaml",
      "([a-z]+,)+",
      "(a+b)+",
      "([^,]+,)+",
    ]
  ) {
    assertEquals(catastrophic(good), undefined, good);
  }
  // The last atom optional, repeated, or one the repeat also takes: still refused.
  for (
    const bad of [
      "(\\w+\\s?)+",
      "(\\w+\\d)+",
      "(.+,)+",
      "(a+a)+",
      "(a+b+)+",
      "(a+(b))+",
      "(\\w+[.a])+",
    ]
  ) {
    assert(catastrophic(bad), bad);
  }
  // Case folded, `x` is a letter [a-z] takes.
  assert(catastrophic("([a-z]+X)+", "ui"));
  assertEquals(catastrophic("([a-z]+X)+", "u"), undefined);
  // What is passed finds what it should.
  withMemIndex([{ id: "s-v", events: [["user", "bumped to 1.22.3 from 1.21"]] }], (s) => {
    assertEquals(regexScan(s, compilePattern("(\\d+\\.)+\\d+"), {}, (id) => id).size, 1);
  });
});

Deno.test("search --re refuses the exponential pattern in well under a second", () =>
  withMemIndex([{ id: "s-words", events: [["user", `${"word ".repeat(40)}!`]] }], (s) => {
    const t0 = performance.now();
    assertThrows(() => search(s, "(\\w+\\s?)+$$$", { regex: true }), DejaError);
    assert(performance.now() - t0 < 1000);
  }));

Deno.test("regexScan stops with an error once its time budget is spent", () =>
  withMemIndex(
    [{ id: "s-a", events: [["user", "alpha"], ["assistant", "beta"]] }],
    (s) => {
      const e = assertThrows(
        () => regexScan(s, /a/u, {}, (id) => id, 0),
        DejaError,
      ) as DejaError;
      assertEquals(e.exitCode, 2);
      assert(e.message.includes("took too long"), e.message);
      assertEquals(regexScan(s, /alpha/u, {}, (id) => id).size, 1);
    },
  ));

// The shapes compilePattern refuses are not all that backtrack: repeats side by side take time
// polynomial in the text (here n^4 on 20,000 spaces: hours), within one event's test.
Deno.test("regexScan stops a pattern that never finishes one text, at its budget", () =>
  withMemIndex([{ id: "s-sp", events: [["user", `${" ".repeat(20_000)}y`]] }], (s) => {
    const slow = compilePattern("\\s*\\s*\\s*\\s*x");
    const t0 = performance.now();
    try {
      const e = assertThrows(() => regexScan(s, slow, {}, (id) => id, 300), DejaError);
      assert(e.message.includes("took too long"), e.message);
      assert(performance.now() - t0 < 5000, `${performance.now() - t0} ms`);
      // The next scan starts another worker.
      assertEquals(regexScan(s, /y$/u, {}, (id) => id).size, 1);
    } finally {
      stopRegexWorker();
    }
  }));

Deno.test("search --re keeps a space at either end of the pattern", () =>
  withMemIndex([
    { id: "s-word", events: [["user", "restart the redis cache"]] },
    { id: "s-glued", events: [["user", "the forgejo-redis pod restarted"]] },
  ], (s) => {
    // Trial 40: `--re ' redis'` was trimmed, and matched `forgejo-redis` too.
    assertEquals(search(s, " redis", { regex: true }).results.map((r) => r.id), ["s-word"]);
    assertEquals(search(s, "redis", { regex: true }).results.map((r) => r.id).sort(), [
      "s-glued",
      "s-word",
    ]);
  }));
