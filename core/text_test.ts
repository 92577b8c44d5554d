import { assertEquals } from "../tests/_assert.ts";
import { clipBytes, duration, oneLine, plural, tilde } from "./text.ts";

Deno.test("duration rounds to the largest unit that stays under 90 (hours under 48)", () => {
  assertEquals(
    [
      0,
      45_000,
      89_000,
      90_000,
      12 * 60_000,
      89 * 60_000,
      5 * 3600_000,
      47 * 3600_000,
      72 * 3600_000,
    ]
      .map(duration),
    ["0 s", "45 s", "89 s", "2 min", "12 min", "89 min", "5 h", "47 h", "3 d"],
  );
});

Deno.test("plural counts a noun, with an irregular plural when given", () => {
  assertEquals([plural(1, "session"), plural(3, "session"), plural(2, "entry", "entries")], [
    "1 session",
    "3 sessions",
    "2 entries",
  ]);
});

Deno.test("tilde shows the home directory as ~ only on a path boundary", () => {
  assertEquals(
    [tilde("/home/u/x", "/home/u"), tilde("/home/u", "/home/u"), tilde("/home/ux", "/home/u")],
    ["~/x", "~", "/home/ux"],
  );
  assertEquals(tilde(null, "/home/u"), "-");
});

Deno.test("a cut title or description never ends inside a redaction marker", () => {
  const t = "push with GitHub token [redacted:github_token] then retry";
  assertEquals(oneLine(t, 28), "push with GitHub token…");
  assertEquals(oneLine(t, 50), "push with GitHub token [redacted:github_token] th…");
  assertEquals(clipBytes(t, 30), "push with GitHub token…");
  assertEquals(
    oneLine("a [rest of it] here", 10),
    "a [rest o…",
    "a bracket that is no marker is cut as before",
  );
});
