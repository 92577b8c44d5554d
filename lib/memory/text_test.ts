import { assertEquals } from "../../tests/_assert.ts";
import { displayPath } from "./text.ts";

Deno.test("displayPath shows a path relative to its project, or under ~", () => {
  assertEquals(displayPath("/w/app/src/a.ts", "/w/app"), "src/a.ts");
  assertEquals(displayPath("/home/me/x/a.ts", "/w/app", "/home/me"), "~/x/a.ts");
});

Deno.test("displayPath keeps the path absolute when the project is the filesystem root", () => {
  assertEquals(displayPath("/Users/u/Code/k/a.yaml", "/"), "/Users/u/Code/k/a.yaml");
});
