import { assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { snippet } from "./snippet.ts";
import { GAP } from "../query.ts";

Deno.test("snippet shows the tightest window holding every term, marked", () => {
  const text = "alpha early mention. " + "filler words here. ".repeat(40) +
    "The alpha bravo pair sits together here." + " more filler.".repeat(40) + " bravo late.";
  const s = snippet(text, [[["alpha"]], [["bravo"]]]);
  assertStringIncludes(s, "\x01alpha\x02 \x01bravo\x02 pair");
  assertEquals(s.startsWith("…"), true);
  assertEquals(s.endsWith("…"), true);
});

Deno.test("snippet marks a phrase alternative and a widened word", () => {
  const s = snippet("we fixed the staging flag in deploy scripts", [[["staging", "flag"]], [[
    "deploy",
  ], ["deployment"]]]);
  assertEquals(s, "we fixed the \x01staging flag\x02 in \x01deploy\x02 scripts");
});

Deno.test("snippet falls back to the head of the text when no term occurs", () => {
  assertEquals(snippet("short text", [[["absent"]]]), "short text");
});

Deno.test("snippet marks a phrase with a gap, one word between or none", () => {
  const alt = [[["logs", GAP, "out"]]];
  assertEquals(snippet("it logs users out", alt), "it \x01logs users out\x02");
  assertEquals(snippet("it logs out", alt), "it \x01logs out\x02");
  assertEquals(snippet("it logs all users out", alt), "it logs all users out");
});
