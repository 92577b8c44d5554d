import { assertEquals } from "../../tests/_assert.ts";
import { suggestCommand } from "./suggest.ts";

const NAMES = ["show", "last", "forget", "index", "install", "uninstall", "remember"];

Deno.test("a command that deletes is guessed only from a word one edit away", () => {
  // Trials 45 and 46: a search for `forgejo` was told "did you mean 'forget'?".
  assertEquals(suggestCommand("forgejo", NAMES), undefined);
  assertEquals(suggestCommand("forgte", NAMES), "forget"); // two letters swapped: one edit
  assertEquals(suggestCommand("forgot", NAMES), "forget");
  // Others keep their two edits: `remembr` and `rmember` are still `remember`.
  assertEquals(suggestCommand("rmembr", NAMES), "remember");
  assertEquals(suggestCommand("uninstal", NAMES), "uninstall");
});
