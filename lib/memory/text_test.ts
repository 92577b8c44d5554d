import { assertEquals } from "../../tests/_assert.ts";
import { concludes, displayPath, gist, INFERENCE, reportsProblem, RETRACTS } from "./text.ts";
import { oneLine } from "../../core/text.ts";

Deno.test("displayPath shows a path relative to its project, or under ~", () => {
  assertEquals(displayPath("/w/app/src/a.ts", "/w/app"), "src/a.ts");
  assertEquals(displayPath("/home/me/x/a.ts", "/w/app", "/home/me"), "~/x/a.ts");
});

Deno.test("displayPath keeps the path absolute when the project is the filesystem root", () => {
  assertEquals(displayPath("/Users/u/Code/k/a.yaml", "/"), "/Users/u/Code/k/a.yaml");
});

Deno.test("oneLine removes escape sequences before it cuts, so no half sequence is left", () => {
  const osc = `\x1b]8;;http://evil.example/${"p".repeat(50)}\x07link\x1b]8;;\x07`;
  assertEquals(oneLine(`ab ${osc} cd`, 10), "ab link cd");
  assertEquals(oneLine(`ab ${osc} cdefghijk`, 10), "ab link c…");
});

// Trial 33: "stop, do not run that; what would it have done?" was read as a report that
// something does not work, and ctx led its outcome with it.
Deno.test("reportsProblem tells a report that something does not work from an instruction", () => {
  const cases: Array<[string, boolean]> = [
    ["stop, do not run that; what would it have done?", false],
    ["Don't run the migration yet, just show me the plan", false],
    ["It doesn't work after the upgrade", true],
    ["the tests do not pass on CI", true],
    ["they don't run in parallel any more", true],
    ["still failing after the fix", true],
  ];
  for (const [text, want] of cases) assertEquals(reportsProblem(text), want, text);
});

Deno.test("concludes leaves out offers to look and announcements of a few words", () => {
  // Trial 38: handed on by ctx and handoff as decisions.
  for (
    const s of [
      "I see the issue!",
      "The issue is now clear!",
      "The Solution That Worked",
      "I'll help you investigate why the loading state is causing the flicker.",
      "I will start by checking the root cause in the logs.",
    ]
  ) assertEquals(concludes(s), false, s);
  for (
    const s of [
      "I will freeze the clock instead of sleeping.",
      "Fixed the typo.",
      "The root cause is the session cookie expiring during slow runs.",
      "The fix was to pin lodash to 4.17.21 because 4.18 broke the build!",
    ]
  ) assertEquals(concludes(s), true, s);
});

Deno.test("concludes leaves out guesses and a finding named without a word of it", () => {
  // Trial 48: handed on by ctx, handoff and recall's "concluded:" as decisions.
  for (
    const s of [
      "I see the main Forgejo pod was restarted recently which probably explains why.",
      "It seems the cache is stale because the key changed.",
      "This looks like the issue with the proxy.",
      "I think the root cause is the proxy.",
      "I see the issue.",
      "Found the problem.",
      "I can see the issue now.",
      "[ ] Identify the root cause of any failing dependencies.",
      "If you're using Claude Code instead, it adds nothing.",
      "I'm going to orient us first by reading the repo's boot documents, because they decide it.",
    ]
  ) assertEquals(concludes(s), false, s);
  for (
    const s of [
      "I see the issue: the proxy strips the header, so the fix is to forward it.",
      "The problem is the proxy stripping the Authorization header.",
    ]
  ) assertEquals(concludes(s), true, s);
});

Deno.test("INFERENCE names a conclusion read out of what was just seen", () => {
  // Trial 49: "The first character is a `-` which is causing the YAML parser to fail."
  for (
    const s of [
      "The directory is empty, which means the file creation failed.",
      "The first character is a `-` which is causing the YAML parser to fail.",
      "The pod restarted recently, which explains why it's going down.",
    ]
  ) assertEquals(INFERENCE.test(s), true, s);
  assertEquals(INFERENCE.test("The root cause was the clock."), false);
});

Deno.test("RETRACTS names a reply that takes back what was said before it", () => {
  // Trial 51: "Actually, scratch Postgres: we'll use SQLite" kept the Postgres decision.
  for (
    const s of [
      "Actually, scratch Postgres: we'll use SQLite.",
      "Scrap that, the cache is fine.",
      "Actually, I was wrong: the fixture is there.",
      "I'm reverting the Postgres choice.",
    ]
  ) assertEquals(RETRACTS.test(s), true, s);
  for (const s of ["Scratch files go under tmp/.", "The root cause was the clock."]) {
    assertEquals(RETRACTS.test(s), false, s);
  }
});

// Trial 54 (realdata Claude 5fbf3543): blame's "said after: Fixed." lost the why after it.
Deno.test("gist takes the sentences after a conclusion of a word or two", () => {
  assertEquals(
    gist("Fixed. The issue was that `place-items: center` is ignored by flexbox. Try it now."),
    "Fixed. The issue was that `place-items: center` is ignored by flexbox.",
  );
  assertEquals(
    gist("The root cause was a stale cache entry. I cleared it."),
    "The root cause was a stale cache entry.",
  );
});

// Trial 66 (realdata Crush dc3d92ac): a hook's "concluded:" line was "The issue has been
// resolved. To summarize what I did to fix the problem:", the list after it cut away.
Deno.test("gist passes over a bare outcome and never ends on a lead-in", () => {
  const text = "The issue has been resolved. To summarize what I did to fix the problem:\n" +
    "1. Fixed malformed YAML files in the media directories\n2. Ran the reconciliation";
  assertEquals(gist(text), "Fixed malformed YAML files in the media directories");
  assertEquals(
    gist("The issue has been resolved. To summarize what I did:\n- a\n- b"),
    "The issue has been resolved.",
  );
});
