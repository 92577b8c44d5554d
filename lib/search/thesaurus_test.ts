import { assert, assertEquals } from "../../tests/_assert.ts";
import { THESAURUS } from "./thesaurus.ts";
import { tokens } from "./tokenize.ts";
import { STOP_WORDS } from "../query.ts";
import { derivedFrom, inflections, relatedTo } from "./related.ts";

Deno.test("thesaurus holds several hundred groups of index tokens, no stop words", () => {
  assert(THESAURUS.length >= 300, `only ${THESAURUS.length} groups`);
  const seen = new Set<string>();
  for (const g of THESAURUS) {
    const where = JSON.stringify(g);
    assert(g.length >= 2, `a group of one word relates nothing: ${where}`);
    assertEquals(new Set(g).size, g.length, `a word twice in ${where}`);
    for (const w of g) {
      // A word must be one index token as FTS5 writes it, or it can never match.
      assertEquals(tokens(w), [w], `not one lower-case index token: "${w}" in ${where}`);
      assert(!STOP_WORDS.has(w), `a stop word is never searched: "${w}" in ${where}`);
    }
    const key = [...g].sort().join(" ");
    assert(!seen.has(key), `the same group twice: ${where}`);
    seen.add(key);
  }
});

Deno.test("relatedTo reads inflections, not Porter stems that join unrelated words", () => {
  assert(relatedTo("basket").includes("cart"));
  assert(relatedTo("billed").includes("invoice"), "billed -> bill -> invoice");
  assert(inflections("responses").includes("response"));
  // Porter makes `responses` and `responsive` one stem; they are not related.
  assert(!relatedTo("responses").includes("mobile"));
});

Deno.test("the thesaurus reaches past deja's own benchmark: UI, browsers, phones, ops, plain words", () => {
  assert(THESAURUS.length >= 1000, `only ${THESAURUS.length} groups`);
  const pairs: [string, string][] = [
    ["misaligned", "alignment"], // a layout described in plain words
    ["alignment", "centered"],
    ["puppeteer", "headless"], // headless browsers
    ["exported", "pdf"], // an exported report is a PDF
    ["downscale", "shrink"], // images
    ["libphonenumber", "e164"], // phone numbers
    ["country", "region"], // a phone library's default region
    ["econnrefused", "unreachable"], // network errors
    ["flaky", "intermittent"], // tests
    ["enospc", "diskfull"], // the OS
    ["cherrypick", "backport"], // git
    ["timezones", "tzdata"], // dates
    ["leftover", "lingering"], // what someone saw
    ["lose", "drops"], // messages lost or dropped
  ];
  for (const [a, b] of pairs) assert(relatedTo(a).includes(b), `${a} -> ${b}`);
});

Deno.test("lay, roundabout and British words reach the developer's word for the same thing", () => {
  const pairs: [string, string][] = [
    ["killswitch", "featureflag"], // a feature flag as a kill switch
    ["miniature", "thumbnail"], // an image preview
    ["dues", "subscription"], // a subscription charge
    ["paperwork", "invoices"], // billing documents
    ["tickbox", "checkbox"], // a British form control
    ["padlock", "certificate"], // the browser's TLS indicator
    ["gibberish", "mojibake"], // text that came out garbled
    ["bouncing", "redirectloop"], // "keeps bouncing me back"
  ];
  for (const [a, b] of pairs) assert(relatedTo(a).includes(b), `${a} -> ${b}`);
});

Deno.test("a word with two senses is not bridged to the other sense's words", () => {
  const apart: [string, string][] = [
    ["picture", "responsive"], // an image is not a layout breakpoint
    ["reconcile", "vdom"], // accounts, not React
    ["cluster", "kmeans"], // Kubernetes, not statistics
    ["precision", "accuracy"], // floats, not classifier scores
    ["lag", "replicationlag"], // a slow UI, not a replica behind
    ["mount", "bindmount"], // a component mounting, not a volume
    ["hit", "cachehit"], // everyday words stay out
    ["nudge", "latency"], // a notification ping, not a network ping
    ["bounced", "redirect"], // an email that bounced, not a redirect bouncing back
    ["lockout", "mutex"], // an account locked out, not a lock in code
    ["overheating", "ratelimit"], // a device throttling itself, not a rate limit
  ];
  for (const [a, b] of apart) assert(!relatedTo(a).includes(b), `${a} must not relate to ${b}`);
  // Widening stays bounded: no word relates to a crowd.
  for (const w of new Set(THESAURUS.flat())) {
    assert(relatedTo(w).length <= 30, `${w} relates to ${relatedTo(w).length} words`);
  }
});

Deno.test("relatedTo also reads the groups of an irregular form no ending rule reaches", () => {
  // `keep` has no group; `kept` -> `held`, `saved` does. `show`'s `shown` reaches `displayed`.
  assert(relatedTo("keep").includes("saved"), relatedTo("keep").join(","));
  assert(relatedTo("show").includes("displayed"), relatedTo("show").join(","));
  // A form an ending rule reaches brings nothing more (`shows` is read through `show` already).
  assert(!relatedTo("show").includes("renders"), "shows -> renders is not an irregular form");
});

Deno.test("derivedFrom: a derivation reaches the group words it derives from, an inflection or an agent none", () => {
  assert(derivedFrom("archival").includes("archive"), derivedFrom("archival").join(","));
  assert(derivedFrom("encryption").includes("encrypt"), derivedFrom("encryption").join(","));
  // Inflections are read by relatedTo already; a shared stem is no base (`identity`).
  for (const w of ["showing", "debits", "window", "identical", "balancer", "subscribers"]) {
    assertEquals(derivedFrom(w), [], w);
  }
});
