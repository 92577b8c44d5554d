/**
 * New user, 2026-12: `deja 👋` and `deja 🚀` found nothing though three sessions
 * held them: FTS5's unicode61 tokenizer drops emoji and most symbols as
 * separators, so a query made only of them had no terms at all. Such a query is
 * now looked for as written in the events' text (lib/search/regex.ts `literalScan`).
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { indexSessions } from "./_memory.ts";
import { runMain, withVars } from "./_cli_io.ts";
import { search } from "../lib/search.ts";
import { withMemIndex } from "./_search_fixture.ts";

async function fixture() {
  const ix = await indexSessions([
    {
      id: "33330000-3333-4333-8333-333333333333",
      cwd: "/w/greet",
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "Hey there! 👋" }, { say: "Shipped 🚀 and the checks pass ✓" }],
    },
    {
      id: "44440000-4444-4444-8444-444444444444",
      cwd: "/w/other",
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "map a → b in the router" }, { say: "Done 🚀" }],
    },
  ]);
  return { ix, env: withVars(ix.env, { DEJA_NO_REFRESH: "1" }) };
}

Deno.test("a query of symbols the tokenizer drops finds the events that hold them, under the filters", async () => {
  const { ix, env } = await fixture();
  try {
    const wave = await runMain(env, ["👋", "--json"]);
    assertEquals(wave.code, 0, wave.err);
    const doc = JSON.parse(wave.out);
    assertEquals(doc.tier, "exact");
    assertEquals(doc.results.map((r: { id: string }) => r.id), [
      "33330000-3333-4333-8333-333333333333",
    ]);
    assertStringIncludes(doc.results[0].snippets[0].text, "👋");
    const rocket = JSON.parse((await runMain(env, ["🚀", "--json"])).out);
    assertEquals(rocket.results.length, 2);
    const filtered = JSON.parse(
      (await runMain(env, ["🚀", "--project", "/w/other", "--json"])).out,
    );
    assertEquals(filtered.results.map((r: { id: string }) => r.id), [
      "44440000-4444-4444-8444-444444444444",
    ]);
    const arrow = await runMain(env, ["→"]);
    assertEquals(arrow.code, 0, arrow.err);
    assertStringIncludes(arrow.out, "router");
    const both = JSON.parse((await runMain(env, ["🚀 ✓", "--json"])).out);
    assertEquals(both.results.length, 1);
    const none = await runMain(env, ["🦀"]);
    assertEquals(none.code, 1);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a language named by a letter and a symbol is looked for as written, in either case", () =>
  withMemIndex([
    { id: "s-dotnet", events: [["user", "port the parser to c# and keep the F# tests"]] },
    { id: "s-drive", events: [["user", "copy C:\\tools\\c\\build.cmd to D:\\ci"]] },
    { id: "s-cpp", events: [["assistant", "The C++ build needs -std=c++20."]] },
  ], (s) => {
    // Before, `C#` was the letter `c` to FTS5, and drive letters matched it.
    for (const q of ["C#", "c#", '"C#"']) {
      const r = search(s, q);
      assertEquals(r.results.map((x) => x.id), ["s-dotnet"], q);
      assertEquals(r.tier, "exact");
      assertStringIncludes(r.results[0].snippets[0].text, "\x01c#\x02");
    }
    assertEquals(search(s, "f#").results.map((x) => x.id), ["s-dotnet"]);
    assertEquals(search(s, "c++").results.map((x) => x.id), ["s-cpp"]);
    // Beside other words, the sessions they find that hold it as written (trial 16: `C++
    // redis` matched `-c` and `hexdump -C` beside redis).
    assertEquals(search(s, "C# parser").results.map((x) => x.id), ["s-dotnet"]);
    assertEquals(search(s, "c++ build").results.map((x) => x.id), ["s-cpp"]);
    const none = search(s, "C++ parser");
    assertEquals([none.results, none.tier, none.nothingMatched], [[], "none", true]);
  }));
