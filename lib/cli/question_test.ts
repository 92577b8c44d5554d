import { assertEquals } from "../../tests/_assert.ts";
import { questionWords, readsAsProse, readsAsQuestion, searchLine } from "./question.ts";
import { searchWordsOf } from "./common.ts";
import { runCapture } from "../shell.ts";

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

Deno.test("questionWords keeps a command's name that is a verb the question is about (trial 27)", () => {
  assertEquals(questionWords("restore", ["the", "database"]), ["restore", "the", "database"]);
  assertEquals(questionWords("blame", ["the", "flaky", "cache"]), [
    "blame",
    "the",
    "flaky",
    "cache",
  ]);
  assertEquals(questionWords("ctx", ["for", "the", "cache"]), ["for", "the", "cache"]);
  assertEquals(searchWordsOf("forget", ["the", "old", "token"]), ["forget", "the", "old", "token"]);
  assertEquals(searchWordsOf("fix", ["TypeError: x is undefined"]), ["TypeError: x is undefined"]);
});

/** The arguments a POSIX shell reads from `line` after `deja search`. */
function shellArgs(line: string): string[] {
  const r = runCapture([
    "sh",
    "-c",
    `set -- ${line.replace(/^deja search /, "")}; printf '%s\\n' "$@"`,
  ]);
  assertEquals(r.code, 0, r.stderr);
  return r.stdout.trimEnd().split("\n");
}

// Regression (2026-12, fresh-user trial of `deja fix`): the "search instead" hint of a long
// error was cut inside a quoted list, began with a word the user did not type (`fix A
// positional …`), and dropped file names while it kept function words.
Deno.test("a search hint runs as shown: cut on words before quoting, no added word, meaning kept", () => {
  const list = "Error: developer is not one of ['system', 'assistant', 'user', 'function', " +
    "'tool', 'developer'], got 'developer' from the request body of the chat completion call";
  const line = searchLine(searchWordsOf("fix", [list]));
  assertEquals(line.length <= "deja search ".length + 82, true, line);
  const args = shellArgs(line);
  assertEquals(args.some((a) => /[[\]']/.test(a)), false, line);
  assertEquals(args.join(" ").startsWith("Error: developer not one system assistant"), true);
  const pos = "A positional parameter cannot be found that accepts argument '2.md'";
  const posLine = searchLine(searchWordsOf("fix", [pos]));
  assertEquals(shellArgs(posLine), [pos]);
  const seg = "segmentation fault in /usr/lib/x86_64-linux-gnu/libfoo.so.6 while loading the " +
    "configuration of the service";
  const segArgs = shellArgs(searchLine([seg])).join(" ");
  assertEquals(segArgs.includes("/usr/lib/x86_64-linux-gnu/libfoo.so.6"), true, segArgs);
  assertEquals(/\b(in|the|of)\b/.test(segArgs), false, segArgs);
  // `how` is a word of the question it begins; a short text stays as typed.
  assertEquals(searchWordsOf("how", ["did", "I", "deploy"]), ["how", "did", "I", "deploy"]);
  assertEquals(shellArgs(searchLine(["gh: command not found"])), [
    "gh:",
    "command",
    "not",
    "found",
  ]);
});

// Regression (2026-12, new-user trial of `deja fix`): the hint of a long pasted error kept half
// of a quote pair (`deja search 'Invalid input[3].name'\'': empty …`: the closing quote had a
// colon after it) and a lone dash of the pasted line.
Deno.test("a search hint of a long error keeps no half quote, bracket or lone dash", () => {
  const input = "Invalid 'input[3].name': empty string. Expected a string with minimum length 1, " +
    "but got an empty string instead.";
  const args = shellArgs(searchLine(searchWordsOf("fix", [input])));
  assertEquals(args.length, 1, args.join(" | "));
  assertEquals(args[0].includes("'"), false, args[0]);
  assertEquals(args[0].startsWith("Invalid input[3].name empty string."), true, args[0]);
  const pod = 'Error from server (BadRequest): previous terminated container "forgejo" in pod ' +
    '"forgejo-7c9d8b6f5d-x2k4p" not found';
  const podArgs = shellArgs(searchLine(searchWordsOf("fix", [pod])));
  assertEquals(podArgs.some((a) => /[()"]/.test(a)), false, podArgs.join(" "));
  const dash = "error: File not found: C:\\Users\\u\\Documents\\Fandom, Inc. - Google Chrome - " +
    "wikipedia page of the vault";
  const dashArgs = shellArgs(searchLine([dash])).join(" ").split(" ");
  assertEquals(dashArgs.includes("-"), false, dashArgs.join(" "));
});
