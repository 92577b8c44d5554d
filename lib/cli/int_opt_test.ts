import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { DejaError } from "../../core/errors.ts";
import { type Args, intOpt } from "./common.ts";
import { parseCtx } from "./cmd_ctx.ts";
import { parseHow } from "./cmd_how.ts";
import { parseFix } from "./cmd_fix.ts";
import { parseSearch } from "./cmd_search.ts";
import { parseBlame } from "./cmd_blame.ts";
import { parseIndex } from "./cmd_index.ts";
import { parseRestore } from "./cmd_restore.ts";
import { parseView } from "./cmd_view.ts";
import { parseLast } from "./cmd_last.ts";

// Regression (2026-12, user trial): `--budget 1e3` and `--budget 0x400` were taken (as 1000 and
// 1024) though the error for a bad value says "positive whole number": Number() read them.
const NOT_WHOLE = [
  "1e3",
  "0x400",
  "0b11",
  "0o17",
  "1.0",
  "1.5",
  "+5",
  "-3",
  "0",
  " 5",
  "5 ",
  "1_000",
  "Infinity",
  "",
  "٣", // an Arabic-Indic three: a digit, not an ASCII one
  "99999999999999999999", // past the integers a double holds exactly
];

/** Every integer option read by `intOpt`, through its command's own parser. */
const OPTIONS: Array<[string, (v: string) => unknown]> = [
  ["ctx --budget", (v) => parseCtx({ values: { budget: v }, positionals: ["q"] })],
  ["how --limit", (v) => parseHow({ values: { limit: v }, positionals: ["npm"] })],
  ["fix --limit", (v) => parseFix({ values: { limit: v }, positionals: ["Error: boom"] })],
  ["search --limit", (v) => parseSearch({ values: { limit: v }, positionals: ["q"] })],
  ["blame --limit", (v) => parseBlame({ values: { limit: v }, positionals: ["a.ts"] }, "/w")],
  ["index --wait", (v) => parseIndex({ values: { wait: v }, positionals: [] })],
  [
    "index --watch --interval",
    (v) => parseIndex({ values: { watch: true, interval: v }, positionals: [] }),
  ],
  ["restore --span", (v) => parseRestore({ values: { span: v }, positionals: ["a.ts"] })],
  ["view --port", (v) => parseView({ values: { port: v }, positionals: [] })],
  ["last <n>", (v) => parseLast({ values: {}, positionals: [v] })],
];

Deno.test("every integer option refuses what is not plain ASCII digits, when Number() would take it", () => {
  for (const [name, parse] of OPTIONS) {
    for (const v of NOT_WHOLE) {
      let e: Error;
      try {
        parse(v);
        throw new Error(`${name} '${v}' was taken`);
      } catch (x) {
        e = x as Error;
      }
      assert(e instanceof DejaError, `${name} '${v}': ${e}`);
      // --span takes an id too, and says so of what is no number at all (trial 63).
      const said = name === "restore --span" && !/^\s*\d+\s*$/.test(v)
        ? "a span's number or its id"
        : "positive whole number";
      assertStringIncludes(e.message, said, `${name} '${v}'`);
    }
  }
});

Deno.test("integer options take plain digits, leading zeros included", () => {
  const a = (v: string): Args => ({ values: { limit: v }, positionals: [] });
  assertEquals(intOpt(a("12"), "limit", 3), 12);
  assertEquals(intOpt(a("007"), "limit", 3), 7);
  assertEquals(intOpt({ values: {}, positionals: [] }, "limit", 3), 3);
  assertEquals(parseCtx({ values: { budget: "1000" }, positionals: ["q"] }).budget, 1000);
  assertEquals(parseLast({ values: {}, positionals: ["20"] }).n, 20);
});
