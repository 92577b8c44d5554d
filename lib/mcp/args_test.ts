import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { testEnv } from "../../tests/_fixture.ts";
import { callDeja } from "./call.ts";
import { argProblem, errorArg } from "./args.ts";
import { oneLineForAgent } from "./_fit.ts";
import { ERROR_TEXT_MAX } from "../memory/signature.ts";
import { tempDir } from "../../tests/_tmp.ts";

Deno.test("a tool call with an out-of-range or ill-typed argument is an error naming it and what it takes", async () => {
  const home = tempDir("deja-mcp-args-");
  try {
    const ctx = { env: testEnv(home, { DEJA_HOME: join(home, "deja") }), cwd: home, log() {} };
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { mode: "recall", query: "x", limit: 1e9 },
        "limit takes a whole number from 1 to 20 (got 1000000000)",
      ],
      [
        { mode: "recall", query: "x", limit: 0 },
        "limit takes a whole number from 1 to 20 (got 0)",
      ],
      [
        { mode: "recall", query: "x", limit: 2.5 },
        "limit takes a whole number from 1 to 20 (got 2.5)",
      ],
      [
        { mode: "recall", query: "x", limit: {} },
        "limit takes a whole number from 1 to 20 (got an object)",
      ],
      [{ mode: "recall", query: "x", project: {} }, "project must be a string, not an object"],
      [{ mode: "recall", query: 42 }, "query must be a string, not a number"],
      [
        { mode: "recall", query: "x", harness: [1] },
        "harness must be a harness id or a list of them (strings)",
      ],
      [{ mode: ["recall"] }, "mode must be a string, not an array"],
      [
        { mode: "remember", text: "note", tags: 7 },
        "tags must be a list of strings or one comma-separated string",
      ],
      [
        { mode: "recall", query: "q".repeat(9_000_000) },
        "query is 9000000 characters long: at most 2000 are accepted",
      ],
    ];
    for (const [args, want] of cases) {
      const t = performance.now();
      const r = await callDeja(args, ctx);
      assertEquals(r.isError, true, JSON.stringify(args).slice(0, 80));
      assertEquals(r.content[0].text, want);
      // A refused call does no work: no search over 9 MB of query.
      if (performance.now() - t > 2000) throw new Error(`slow refusal: ${want}`);
    }
    assertStringIncludes(
      (await callDeja({ mode: "recall", query: "x", limit: "5" }, ctx)).content[0].text,
      "deja index",
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

Deno.test("a pasted error is read whole up to 1 MiB, else its start and its end, not refused", () => {
  const long = "Error: boom\n" + "x".repeat(5000);
  assertEquals(argProblem({ mode: "fix", error: long }), undefined);
  assertEquals(errorArg(long), long);
  assertEquals(errorArg("short"), "short");
  const huge = "noise\n".repeat(200_000) + "Error: the end";
  assertEquals(errorArg(huge).length, ERROR_TEXT_MAX + 1);
  assert(errorArg(huge).endsWith("\nError: the end"));
});

Deno.test("length limits count characters, an emoji one, in the limit and its message (trial 109 F6)", () => {
  const emoji = "😀";
  // 2000 emoji are 4000 UTF-16 units: within the 2,000-character limit.
  assertEquals(argProblem({ mode: "recall", query: emoji.repeat(2000) }), undefined);
  assertEquals(
    argProblem({ mode: "recall", query: emoji.repeat(1001) + "x".repeat(1000) }),
    "query is 2001 characters long: at most 2000 are accepted",
  );
  assertEquals(
    argProblem({ mode: "remember", text: emoji.repeat(8001) }),
    "text is 8001 characters long: at most 8000 are accepted",
  );
  assertEquals(argProblem({ mode: "recall", query: "q", harness: emoji.repeat(2000) }), undefined);
  assertEquals(argProblem({ mode: "recall", query: "é".repeat(2000) }), undefined);
});

Deno.test("text cut for a model is cut in characters, never inside an emoji (trial 109 F6)", () => {
  const emoji = "😀";
  const cut = oneLineForAgent(emoji.repeat(300), 200);
  assertEquals([...cut].length, 200);
  assertEquals(cut, emoji.repeat(199) + "…");
  // No lone surrogate: the text is whole UTF-16, as UTF-8 readers need it.
  assert(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(cut));
  // Within the limit in characters (though longer in UTF-16 units): kept whole.
  assertEquals(oneLineForAgent(emoji.repeat(200), 200), emoji.repeat(200));
  assertEquals(oneLineForAgent("a".repeat(201), 200), "a".repeat(199) + "…");
});
