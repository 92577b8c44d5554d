import { assertEquals } from "../../tests/_assert.ts";
import { questionWords, readsAsProse, readsAsQuestion } from "./question.ts";

Deno.test("readsAsQuestion takes a bare lead word, never a quoted argument or an id", () => {
  assertEquals(readsAsQuestion(["did", "I", "fix", "it"]), true);
  assertEquals(readsAsQuestion(["me", "the", "logs"]), true);
  assertEquals(readsAsQuestion(["me"]), false);
  assertEquals(readsAsQuestion(["Time", "I", "deployed"]), true);
  assertEquals(readsAsQuestion(["i18n", "setup"]), false);
  assertEquals(readsAsQuestion(["is not defined"]), false);
  assertEquals(readsAsQuestion(["01a2b3"]), false);
  assertEquals(readsAsQuestion([]), false);
});

Deno.test("readsAsProse wants two words or more and a question or a stop word", () => {
  assertEquals(readsAsProse(["deployed", "to", "railway"]), true);
  assertEquals(readsAsProse(["what", "broke"]), true);
  assertEquals(readsAsProse(["flask", "server"]), false);
  assertEquals(readsAsProse(["kubectl", "rollout"]), false);
  assertEquals(readsAsProse(["now"]), false);
});

Deno.test("questionWords leaves out a command's name the question does not hold", () => {
  assertEquals(questionWords("show", ["me", "the", "flask", "server"]), [
    "me",
    "the",
    "flask",
    "server",
  ]);
  assertEquals(questionWords("last", ["time", "I", "deployed"]), ["I", "deployed"]);
  assertEquals(questionWords("how", ["did", "I", "fix", "it"]), ["how", "did", "I", "fix", "it"]);
  assertEquals(questionWords("last", ["week", "I", "deployed"]), ["last", "week", "I", "deployed"]);
});
