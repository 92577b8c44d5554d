import { assertEquals } from "../../tests/_assert.ts";
import { displayPath } from "./text.ts";
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
