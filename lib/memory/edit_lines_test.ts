import { assertEquals } from "../../tests/_assert.ts";
import { diffText, editLines } from "./edit_lines.ts";

Deno.test("an edit's lines: kept, removed and added, with the new side's index of each kept or added line", () => {
  assertEquals(editLines("a\nb\nc\n", "a\nB\nc\nd\n"), [
    { mark: " ", text: "a", at: 0 },
    { mark: "-", text: "b" },
    { mark: "+", text: "B", at: 1 },
    { mark: " ", text: "c", at: 2 },
    { mark: "+", text: "d", at: 3 },
  ]);
  assertEquals(editLines("", "x\n"), [{ mark: "+", text: "x", at: 0 }]);
});

Deno.test("diffText shows a change with two lines around it and folds the unchanged rest", () => {
  // Trial 9: a one-line removal in a 9-line block printed as 9 `-` and 8 `+` lines.
  const old = "a\nb\nc\nd\ne\nf\ng\nposition: relative;\nh\n";
  const neu = "a\nb\nc\nd\ne\nf\ng\nh\n";
  assertEquals(diffText(old, neu), [
    "… 5 unchanged lines",
    "  f",
    "  g",
    "- position: relative;",
    "  h",
  ]);
  assertEquals(diffText(old, neu, Infinity).length, 9);
  assertEquals(diffText("x = 1", "x = 2"), ["- x = 1", "+ x = 2"]);
  // Line endings are part of a line: an edit of them is shown (trial 10).
  assertEquals(diffText("line1\r\nline2", "line1\nline2"), [
    "- line1\u240d",
    "+ line1",
    "  line2",
  ]);
});
