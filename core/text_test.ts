import { assertEquals } from "../tests/_assert.ts";
import {
  characters,
  clipBytes,
  commandLines,
  commandOneLine,
  duration,
  oneLine,
  plural,
  tilde,
} from "./text.ts";

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

Deno.test("commandOneLine joins a command's lines so that the line runs the same", () => {
  // Trial 10: `export A=1 cd app` set a variable named cd.
  assertEquals(commandOneLine('export T="x"\ncd /srv\necho go'), 'export T="x"; cd /srv; echo go');
  assertEquals(commandOneLine("cd app &&\n  make |\n  tail"), "cd app && make | tail");
  assertEquals(commandOneLine("docker run \\\n  --rm img"), "docker run --rm img");
  assertEquals(commandOneLine("if x; then\n  y\nfi"), "if x; then y; fi");
  assertEquals(commandOneLine("one line"), "one line");
  // A here-document or a comment would swallow what follows: the lines are marked instead.
  assertEquals(commandOneLine("cat <<EOF\nhi\nEOF"), "cat <<EOF \u23ce hi \u23ce EOF");
  assertEquals(commandOneLine("ls # look\nrm x"), "ls # look \u23ce rm x");
  // Trial 12: a program or a message inside quotes spans lines.
  assertEquals(
    commandOneLine("python3 -c '\nimport x\nx.main()\n'"),
    "python3 -c ' \u23ce import x \u23ce x.main() \u23ce '",
  );
  assertEquals(
    commandOneLine('git commit -m "fix\n\nbody"\ngit push'),
    'git commit -m "fix \u23ce body" \u23ce git push',
  );
  assertEquals(commandOneLine('echo "it\'s"\nls'), 'echo "it\'s"; ls');
});

// Trial 109 (the MCP tool's F6 counted alike): a line of emoji was cut at half its width.
Deno.test("oneLine and commandLines count characters in code points, never cutting a pair", () => {
  const smiles = "😀".repeat(10);
  assertEquals(oneLine(smiles, 10), smiles);
  assertEquals(oneLine(smiles, 6), "😀".repeat(5) + "…");
  assertEquals(oneLine("a😀b😀c", 4), "a😀b…");
  assertEquals(characters(oneLine("x" + smiles, 7)), 7);
  assertEquals(commandLines(`cat <<EOF\n${smiles}\nEOF`, 6)[1], "😀".repeat(5) + "…");
  assertEquals(commandLines(`cat <<EOF\n${smiles}\nEOF`, 10)[1], smiles);
  assertEquals([characters("😀é"), characters("\ud83d"), characters("")], [2, 1, 0]);
});
