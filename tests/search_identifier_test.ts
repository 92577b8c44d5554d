/**
 * Identifiers typed from memory (trial 11): a snake_case name with a typo in one of its
 * words, and one typed joined or in camelCase where the history wrote it with `_`.
 */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { narration } from "../lib/cli/search_narration.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  { id: "s-zorb", events: [["user", "cargo build fails with zorblat_count missing"]] },
  { id: "s-count", events: [["user", "count the rows of the report again"]] },
  { id: "s-bucket", events: [["user", "terraform plan fails for gorgonzola_bucket"]] },
  { id: "s-other", events: [["assistant", "the bucket policy was missing a statement"]] },
];

const ids = (r: ReturnType<typeof search>) => r.results.map((x) => x.id);

Deno.test("a snake_case name with a misspelt word finds the session that spells it right", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "zorblt_count");
    assertEquals(ids(r)[0], "s-zorb");
    assertEquals(r.changes.map((c) => [c.from, c.to]), [["zorblt count", ["zorblat count"]]]);
    assertEquals(ids(search(s, "gorgonzola_bukcet")), ["s-bucket"]);
    // A word with no close spelling leaves the name unmatched.
    assertEquals(ids(search(s, "qxqxqx_count")), []);
  }));

Deno.test("a name typed joined or in camelCase finds it written apart", () =>
  withMemIndex(HISTORY, (s) => {
    for (const q of ["zorblatcount", "zorblatCount"]) {
      const r = search(s, q);
      assertEquals(ids(r), ["s-zorb"], q);
      assertEquals(
        narration(r).startsWith("no exact match; written apart: zorblatcount → zorblat count"),
        true,
        narration(r),
      );
    }
    assertEquals(ids(search(s, "gorgonzolabucket")), ["s-bucket"]);
  }));

Deno.test("a fragment of six letters or more is found inside a longer word, a shorter one only at its ends", () =>
  withMemIndex([
    { id: "s-frob", events: [["user", "the frobnicatorx module panics on start"]] },
    { id: "s-snark", events: [["user", "restyle the snarkwidget header"]] },
  ], (s) => {
    // Trial 11: interior pieces found nothing though the README promises substrings.
    assertEquals(ids(search(s, "nicato")), ["s-frob"]);
    assertEquals(ids(search(s, "arkwidg")), ["s-snark"]);
    assertEquals(ids(search(s, "rkwid")), []);
    assertEquals(ids(search(s, "snark")), ["s-snark"]);
  }));

Deno.test("a short word is not read inside a dictionary word, nor at the end of a word that is no name", () =>
  withMemIndex([
    { id: "s-snip", events: [["user", "paste the snippet into the service config"]] },
    { id: "s-single", events: [["user", "a single worker failed after the restart"]] },
    { id: "s-open", events: [["user", "the opencode sidebar renders blank"]] },
    { id: "s-auth", events: [["user", "the authentication header is dropped"]] },
  ], (s) => {
    // Trial 24: `pet -> snippet`, `ice -> service`, `sing -> using, missing`, `led -> failed`.
    for (const q of ["pet", "ice", "sing", "led", "art"]) assertEquals(ids(search(s, q)), [], q);
    // A name ending in the word after a word of its own, and the start of a longer word for
    // a word that is none itself, are still read.
    assertEquals(ids(search(s, "code")), ["s-open"]);
    assertEquals(ids(search(s, "auth")), ["s-auth"]);
  }));

Deno.test("a name of three or more words typed joined or in camelCase finds it written apart", () =>
  withMemIndex([
    { id: "s-total", events: [["user", "cargo build fails with zorblat_count_total missing"]] },
    { id: "s-count", events: [["user", "count the rows of the report; the total is off"]] },
  ], (s) => {
    // Trial 12: two-word names were found, three-word ones found nothing.
    for (const q of ["zorblatCountTotal", "zorblatcounttotal", "ZorblatCountTotal"]) {
      const r = search(s, q);
      assertEquals(ids(r), ["s-total"], q);
      assertEquals(r.changes.map((c) => c.to), [["zorblat count total"]], q);
    }
  }));

Deno.test("a split of a joined word is offered only where some event holds it as a phrase", () =>
  withMemIndex([
    { id: "s-tar", events: [["user", "tar gzip the nightly logs"]] },
    { id: "s-targ", events: [["user", "the targ flag and the zip tool are unrelated"]] },
  ], (s) => {
    // Trial 12: the answer listed phrases no session held (`targ zip` here).
    const r = search(s, "targzip");
    assertEquals(ids(r), ["s-tar"]);
    assertEquals(r.changes.map((c) => c.to), [["tar gzip"]]);
  }));

Deno.test("a name typed in parts finds it written joined (camelCase in the history)", () =>
  withMemIndex([
    { id: "s-camel", events: [["user", "the parseHttpRequestHeaders helper drops cookies"]] },
    { id: "s-words", events: [["user", "parse the request body before the headers"]] },
  ], (s) => {
    for (const q of ["parse_http_request_headers", "parse-http-request-headers"]) {
      const r = search(s, q);
      assertEquals(ids(r), ["s-camel"], q);
      assertEquals(
        narration(r),
        "no exact match; written joined: parse http request headers → parsehttprequestheaders",
      );
    }
    // A part of it, typed in parts: inside the longer word.
    assertEquals(ids(search(s, "http_request")), ["s-camel"]);
  }));

Deno.test("a name in parts finds its camelCase spelling where each part is also a word elsewhere; short parts count", () =>
  withMemIndex([
    { id: "s-camel", events: [["user", "the sync flag isSyncingBackfillForMonth never clears"]] },
    { id: "s-words", events: [["user", "is the month syncing? the backfill for it ran"]] },
    { id: "s-snake", events: [["user", "raise max_retry_backoff_ms to 900 for the queue"]] },
    { id: "s-max", events: [["user", "the max retry count and the backoff are fine, ms timing"]] },
  ], (s) => {
    // Trial 13: every part was a word of another session, so nothing was tried but relevance.
    const r = search(s, "is_syncing_backfill_for_month");
    assertEquals(ids(r)[0], "s-camel");
    assertEquals(narration(r).startsWith("no exact match; written joined"), true, narration(r));
    // Trial 13: a two-letter part (`ms`) kept the split from being found.
    for (const q of ["maxRetryBackoffMs", "MaxRetryBackoffMS"]) {
      assertEquals(ids(search(s, q)), ["s-snake"], q);
    }
  }));

Deno.test("a name of five letters typed joined finds it written apart with a hyphen", () =>
  withMemIndex([
    { id: "s-dot", title: "Show Dot-AI Version", events: [["user", "which dot-ai version runs?"]] },
    { id: "s-other", events: [["user", "a dot in the path"], ["assistant", "ai tools aside"]] },
  ], (s) => {
    // Trial 22: `dotai` found nothing (six letters were the least read so).
    const r = search(s, "dotai");
    assertEquals(ids(r), ["s-dot"]);
    assertEquals(r.changes.map((c) => c.to), [["dot ai"]]);
  }));

Deno.test("a word the history holds is not read inside longer words beside another word", () =>
  withMemIndex([
    { id: "s-redis", events: [["user", "add redis to the cluster and point the app at it"]] },
    {
      id: "s-path",
      events: [["tool_result", "PATH=/c/Intel/redist/intel64:/c/touchstone/bin:/usr/bin"]],
    },
    { id: "s-touch", events: [["user", "touch the lock file so make rebuilds"]] },
    ...Array.from({ length: 8 }, (_, i): MemSession => ({
      id: `s-fill-${i}`,
      events: [["user", `rename the config key number ${i} and run the tests again`]],
    })),
  ], (s) => {
    // Trial 25: `touch redis` read `redis` as `redist` and listed only the PATH dump.
    const r = search(s, "touch redis");
    assertEquals(r.changes.some((c) => c.to.includes("redist")), false, JSON.stringify(r.changes));
    assertEquals(ids(r).includes("s-path"), false, ids(r).join(" "));
    // A word the history lacks still is (`kout` of a path cut mid-token).
    assertEquals(ids(search(s, "intel64 touchst")), ["s-path"]);
  }));

Deno.test("a phrase found inside longer words names each reading once", () =>
  // Trial 81 F12: `summ.pdf` said `summ pdf → 51877summ pdf, 51877summ pdf`.
  withMemIndex([
    {
      id: "s-pdf",
      events: [["user", "summarize 51877summ.pdf please"], ["assistant", "51877summ.pdf read"]],
    },
    { id: "s-other", events: [["user", "rename the config loader"]] },
  ], (s) => {
    const r = search(s, "summ.pdf");
    assertEquals(r.changes, [{ from: "summ pdf", to: ["51877summ pdf"] }]);
  }));
