import { assertEquals } from "../tests/_assert.ts";
import { ftsAll, ftsTerm, GAP, parseQuery, parseSince } from "./query.ts";

Deno.test("parseQuery splits words and keeps quoted phrases together", () => {
  assertEquals(parseQuery(`fix "flaky test" login`).terms, [["fix"], ["flaky", "test"], ["login"]]);
});

Deno.test("parseQuery turns a hyphenated or dotted word into a phrase of its parts", () => {
  assertEquals(parseQuery("zebrafinch-claude src/app.ts").terms, [["zebrafinch", "claude"], [
    "src",
    "app",
    "ts",
  ]]);
});

Deno.test("ftsAll quotes every term so FTS5 operators typed by a person are plain text", () => {
  assertEquals(
    ftsAll(parseQuery(`NEAR AND "x OR y" col:umn*`)),
    `"near" AND "x or y" AND "col umn"`,
  );
});

Deno.test("parseQuery of punctuation only has no terms", () => {
  assertEquals(parseQuery(`-- ** ""`).terms, []);
});

Deno.test("parseSince reads relative spans and dates", () => {
  const now = Date.parse("2026-11-29T00:00:00Z");
  assertEquals(parseSince("30d", now), now - 30 * 86400e3);
  assertEquals(parseSince("12h", now), now - 12 * 3600e3);
  assertEquals(parseSince("2026-11-01", now), new Date(2026, 10, 1).getTime());
  assertEquals(parseSince("soon", now), undefined);
});

Deno.test("parseSince reads a bare date as local midnight, as yesterday is (it was UTC midnight)", () => {
  const now = new Date(2026, 10, 29, 15, 30).getTime();
  assertEquals(parseSince("2026-11-28", now), parseSince("yesterday", now));
  assertEquals(parseSince("2026-11-28", now), new Date(2026, 10, 28, 0, 0).getTime());
  assertEquals(parseSince("2026-02-30", now), undefined);
  assertEquals(parseSince("2026-13-01", now), undefined);
});

Deno.test("parseSince reads the time words a query does (--since yesterday was refused)", () => {
  const now = new Date(2026, 10, 29, 15, 30).getTime(); // local time, as the words are read
  assertEquals(parseSince("yesterday", now), new Date(2026, 10, 28).getTime());
  assertEquals(parseSince(" Today ", now), new Date(2026, 10, 29).getTime());
  // The calendar week before this one (from Monday), as a person means it.
  assertEquals(parseSince("last week", now), new Date(2026, 10, 16).getTime());
  assertEquals(parseSince("on monday", now), new Date(2026, 10, 23).getTime());
  // Only a whole time phrase: words around one are no date.
  assertEquals(parseSince("yesterday afternoon maybe", now), undefined);
});

Deno.test("parseQuery drops stop words, keeps them when the query is only stop words", () => {
  const p = parseQuery("how did we fix the flaky login");
  assertEquals(p.terms, [["fix"], ["flaky"], ["login"]]);
  assertEquals(p.dropped, ["how", "did", "we", "the"]);
  assertEquals(parseQuery("what is it").terms, [["what"], ["is"], ["it"]]);
  assertEquals(parseQuery(`"the fix"`).terms, [["the", "fix"]]);
});

Deno.test("parseQuery takes time words out of the terms as a window", () => {
  const now = Date.parse("2026-11-18T15:00:00Z");
  const p = parseQuery("deploy broke yesterday", now);
  assertEquals(p.terms, [["deploy"], ["broke"]]);
  assertEquals(p.time?.words, "yesterday");
  assertEquals(parseQuery('"yesterday" deploy', now).time, undefined);
});

Deno.test("ftsTerm reads a gap as one word or none between two tokens (logs … out)", () => {
  assertEquals(ftsTerm(["logs", GAP, "out"]), `NEAR("logs" "out", 1)`);
  assertEquals(ftsTerm(["logs", "out"]), `"logs out"`);
});

Deno.test("parseQuery reports a word with nothing to search (an emoji) beside words as dropped", () => {
  const p = parseQuery("Database 🗄️");
  assertEquals(p.terms, [["database"]]);
  assertEquals(p.dropped, ["🗄️"]);
  // Alone, the symbols are the query (searched as typed): nothing dropped.
  assertEquals(parseQuery("🗄️").dropped, []);
});

Deno.test("a possessive is read as its noun outside quotes", () => {
  assertEquals(parseQuery("redis's config").parts.map((p) => p.tokens), [["redis"], ["config"]]);
  assertEquals(parseQuery("the cache’s size").terms, [["cache"], ["size"]]);
  // Quoted, it is the phrase as typed; a contraction is not a possessive.
  assertEquals(parseQuery('"redis\'s config"').parts[0].tokens, ["redis", "s", "config"]);
  assertEquals(parseQuery("don't").parts.map((p) => p.tokens), [["don", "t"]]);
});

Deno.test("a query of time words alone searches them, ranked by their window", () => {
  // Trial 16: `deja march` and `deja yesterday` found nothing while sessions say them.
  assertEquals(parseQuery("yesterday").terms, [["yesterday"]]);
  assertEquals(parseQuery("yesterday").time?.words, "yesterday");
  assertEquals(parseQuery("in march").terms, [["march"]]);
  assertEquals(parseQuery("redis yesterday").terms, [["redis"]]);
  assertEquals(parseQuery('"march" yesterday').terms, [["march"]]);
});

Deno.test("parseSince reads months as mo, minutes as m or min", () => {
  const now = new Date(2026, 10, 29, 15, 30).getTime();
  assertEquals(parseSince("1mo", now), now - 30 * 86400e3);
  assertEquals(parseSince("2 months", now), now - 60 * 86400e3);
  assertEquals(parseSince("45m", now), now - 45 * 60e3);
  assertEquals(parseSince("45min", now), now - 45 * 60e3);
  assertEquals(parseSince("3 days", now), now - 3 * 86400e3);
});

Deno.test("parseSince refuses a number without its unit", () => {
  // Trial 16: `--since 2 weeks` took `2` as a date of 2001 and searched `weeks`.
  for (const v of ["0", "2", "20", "2026"]) assertEquals(parseSince(v), undefined, v);
  assertEquals(typeof parseSince("2w"), "number");
});

Deno.test("parseSince reads a day of a month and a weekday alone", () => {
  // Trial 18b: `--since friday` was refused; `march 5` was read by JavaScript as 2001.
  const now = new Date(2026, 11, 3, 15, 30).getTime(); // a Thursday
  assertEquals(parseSince("march 5", now), new Date(2026, 2, 5).getTime());
  assertEquals(parseSince("jan 13th", now), new Date(2026, 0, 13).getTime());
  assertEquals(parseSince("friday", now), new Date(2026, 10, 27).getTime());
});

Deno.test("a preposition is no term beside words that name something; without is kept", () => {
  // Trial 55: `hook-prompt` for "…did the push go through?" recalled sessions on "through
  // push" (realdata k3s project): `through` named nothing of the question.
  assertEquals(parseQuery("ok, did the push go through?").terms, [["push"], ["go"]]);
  assertEquals(parseQuery("walk across the within towards logs").terms, [["walk"], ["logs"]]);
  // `without` matters in error text (`built without cache`).
  assertEquals(parseQuery("built without cache").terms, [["built"], ["without"], ["cache"]]);
  // A preposition alone is still searched.
  assertEquals(parseQuery("through").terms, [["through"]]);
});

Deno.test("parseSince refuses a date with a time of day that no calendar holds", () => {
  // Trial 62: `--since 2025-06-31T10:00` was read as July 1.
  assertEquals(parseSince("2025-06-31T10:00"), undefined);
  assertEquals(parseSince("2026-02-30 10:00"), undefined);
  assertEquals(typeof parseSince("2025-06-30T10:00"), "number");
  assertEquals(typeof parseSince("2025-06-30 10:00:05Z"), "number");
  // Trial 79: the JavaScript date reader took words for dates, a filter that kept everything.
  for (const v of ["xyz 2", "notadate 5", "feb 30", "xyz 32", "lastweek 3", "2026-11-01 soon"]) {
    assertEquals(parseSince(v), undefined, v);
  }
});
