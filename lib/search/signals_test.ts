import { assertEquals } from "../../tests/_assert.ts";
import { CONCLUSION, ERROR, eventFlags, GAVE_UP } from "./signals.ts";

Deno.test("a reply's conclusion and giving up are flagged apart, together, or not at all", () => {
  const cases: [string, string, number][] = [
    ["assistant", "So the root cause was a stale lock file.", CONCLUSION],
    ["assistant", "It Works Now after the restart.", CONCLUSION],
    ["assistant", "I couldn't reproduce it, so I'm giving up on this path.", GAVE_UP],
    [
      "assistant",
      "No luck with the cache. In the end we decided to pin the version.",
      CONCLUSION | GAVE_UP,
    ],
    ["assistant", "Reading the file now; the fixture has three rows.", 0],
    ["assistant", "prefixed by the tool; unfixed bugs remain", 0],
    ["summary", "The fix was a missing await; I gave up on the retry idea.", CONCLUSION],
    ["user", "it works now, thanks", 0],
    ["user", "Traceback (most recent call last):", ERROR],
  ];
  for (const [kind, text, flags] of cases) assertEquals(eventFlags(kind, text), flags, text);
});
