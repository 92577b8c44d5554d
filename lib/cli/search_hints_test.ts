import { assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { runMain, withVars } from "../../tests/_cli_io.ts";
import { symbolHint } from "./_search_notes.ts";

Deno.test("a word typed with a symbol the index drops says so and names --re", () => {
  assertEquals(
    symbolHint("#include stdio"),
    "hint: '#include' was searched as 'include' (the index keeps no symbols); " +
      "deja search --re '#include\\b' matches it as typed\n",
  );
  assertStringIncludes(symbolHint("install .NET sdk"), "--re '\\.NET\\b'");
  assertStringIncludes(symbolHint("C++ build"), "--re 'C\\+\\+'");
  // Sentence punctuation, paths, quoted phrases and inner dots are no such words.
  for (
    const q of ["it is done.", "why?", "/etc/hosts", "~/.env", '"#include"', "v1.2 notify-send"]
  ) {
    assertEquals(symbolHint(q), "", q);
  }
});

Deno.test("search prints the symbol hint, and --re with it finds the word as typed", async () => {
  const ix = await indexSessions([
    {
      id: "5b510000-1111-4222-8333-000000000001",
      cwd: "/w/a",
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "install the .NET SDK" }, { say: "the .NET SDK is installed" }],
    },
    {
      id: "5b520000-1111-4222-8333-000000000002",
      cwd: "/w/b",
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "point the host at db.example.net" }, { say: "done" }],
    },
  ]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    // Trial 3: `.NET` was searched as `net`, and the domain came first with no word of it.
    const r = await runMain(env, ["search", ".NET"]);
    assertStringIncludes(r.err, "'.NET' was searched as 'net'");
    const re = await runMain(env, ["search", "--re", "\\.NET\\b"]);
    assertEquals(re.code, 0, re.err);
    assertStringIncludes(re.out, "5b510000");
    assertEquals(re.out.includes("5b520000"), false, re.out);
    assertEquals(re.out.includes("db.example"), false, re.out);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a search held only by hidden sessions says so in its verdict", async () => {
  const ix = await indexSessions([{
    id: "5b530000-1111-4222-8333-000000000003",
    cwd: "/tmp/scratch",
    start: "2026-11-03T10:00:00Z",
    turns: [{ user: "try the zebrafinch flag" }, { say: "done" }],
  }]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    // Trial 9: "nothing matched", and only a hint after it that a session holding it was hidden.
    const r = await runMain(env, ["zebrafinch"]);
    assertEquals(r.code, 1);
    assertStringIncludes(
      r.err,
      'deja: nothing matched "zebrafinch" outside throwaway or excluded projects\n',
    );
    assertStringIncludes(r.err, "--junk");
  } finally {
    ix.cleanup();
  }
});
