/** The search, stats and forget commands in-process: tier lines, exit codes, JSON, safe output. */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

function fakeIO(args: string[], vars: Record<string, string>, tty = false) {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = {
    args,
    env: testEnv(vars.HOME, vars),
    cwd: "/",
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTTY: tty,
    errTTY: tty,
    readStdin: () => Promise.resolve(""),
  };
  return { io, out, err };
}

/** Two Claude Code sessions: one with a secret and a terminal escape, one in a temp dir. */
function store(): Record<string, string> {
  const dir = tempDir("deja-cli-search-");
  const write = (sid: string, cwd: string, texts: Array<[string, string]>) => {
    const proj = join(dir, "claude", cwd.replaceAll("/", "-"));
    mkdirSync(proj, { recursive: true });
    const lines = texts.map(([role, text], i) => {
      const base = {
        sessionId: sid,
        cwd,
        timestamp: `2026-11-01T10:0${i}:00Z`,
        uuid: `${sid}-${i}`,
      };
      return JSON.stringify(
        role === "user" ? { ...base, type: "user", message: { role: "user", content: text } } : {
          ...base,
          type: "assistant",
          message: { id: `m${i}`, role: "assistant", content: [{ type: "text", text }] },
        },
      );
    });
    writeFileSync(join(proj, `${sid}.jsonl`), lines.join("\n") + "\n");
  };
  write("aaaaaaaa-1111-4111-8111-111111111111", "/w/shop", [
    ["user", "the opencode sidebar renders blank \x1b]0;pwned\x07 after login"],
    [
      "assistant",
      "Use ghp_" + "A".repeat(36) + " from the vault; the root cause was a stale cache.",
    ],
  ]);
  write("bbbbbbbb-2222-4222-8222-222222222222", "/tmp/tmp.Xy12ab34/shop", [
    ["user", "the opencode sidebar renders blank in the sandbox"],
  ]);
  return {
    HOME: join(dir, "home"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "claude"),
  };
}

Deno.test("search names a non-exact tier on stderr and in --json, and hides throwaway projects", async () => {
  const vars = store();
  assertEquals(await main(fakeIO(["index", "--quiet"], vars).io), 0);
  const r = fakeIO(["code", "sidebar"], vars);
  assertEquals(await main(r.io), 0);
  assertStringIncludes(r.err.join(""), "inside longer words: code → opencode");
  assertEquals(r.out.join("").includes("bbbbbbbb"), false, "the temp-dir session is hidden");
  assertEquals(
    r.out.join("").includes("\x1b]0;pwned"),
    false,
    "escapes from transcripts never print",
  );
  const j = fakeIO(["search", "code", "sidebar", "--json", "--junk"], vars);
  assertEquals(await main(j.io), 0);
  const doc = JSON.parse(j.out.join(""));
  assertEquals(doc.tier, "substring");
  assertEquals(doc.nothing_matched, false);
  assertEquals(doc.results.map((x: { throwaway: boolean }) => x.throwaway), [false, true]);
});

Deno.test("search exits 1 and says nothing matched, with nearest sessions for a question", async () => {
  const vars = store();
  await main(fakeIO(["index", "--quiet"], vars).io);
  const none = fakeIO(["kubernetes", "helm"], vars);
  assertEquals(await main(none.io), 1);
  assertStringIncludes(none.err.join(""), 'nothing matched "kubernetes helm"');
  const rel = fakeIO(["why", "does", "the", "sidebar", "crash", "after", "login?"], vars);
  assertEquals(await main(rel.io), 1);
  assertStringIncludes(rel.err.join(""), "nothing matched exactly");
  assertStringIncludes(rel.out.join(""), "aaaaaaaa");
});

Deno.test("stats reports the secrets redacted per kind; sources lists them per harness", async () => {
  const vars = store();
  await main(fakeIO(["index", "--quiet"], vars).io);
  const s = fakeIO(["stats", "--json"], vars);
  assertEquals(await main(s.io), 0);
  const st = JSON.parse(s.out.join(""));
  assertEquals(st.redacted.github_token, 1);
  assertEquals(st.redactions[0].kind, "github_token");
  assertEquals(st.throwaway, 1);
  const text = fakeIO(["stats"], vars);
  assertEquals(await main(text.io), 0);
  assertStringIncludes(text.out.join(""), "1 github_token");
  const src = fakeIO(["sources", "--verbose"], vars);
  await main(src.io);
  assertStringIncludes(src.out.join(""), "redacted: 1 github_token");
});

Deno.test("forget --dry-run lists, forget removes, --list and --unforget undo it", async () => {
  const vars = store();
  await main(fakeIO(["index", "--quiet"], vars).io);
  const dry = fakeIO(["forget", "--project", "/w/shop", "--dry-run"], vars);
  assertEquals(await main(dry.io), 0);
  assertStringIncludes(dry.out.join(""), "would forget 1 session");
  assertEquals(await main(fakeIO(["opencode"], vars).io), 0);
  const go = fakeIO(["forget", "--project", "/w/shop"], vars);
  assertEquals(await main(go.io), 0);
  assertStringIncludes(go.out.join(""), "forgot 1 session");
  assertEquals(await main(fakeIO(["opencode"], vars).io), 1);
  await main(fakeIO(["index", "--quiet"], vars).io);
  assertEquals(await main(fakeIO(["opencode"], vars).io), 1, "index does not bring it back");
  const list = fakeIO(["forget", "--list", "--json"], vars);
  await main(list.io);
  const key = JSON.parse(list.out.join("")).tombstones[0].key;
  assertEquals(key, "claude:aaaaaaaa-1111-4111-8111-111111111111");
  const un = fakeIO(["forget", "--unforget", key], vars);
  assertEquals(await main(un.io), 0);
  assertEquals(await main(fakeIO(["opencode"], vars).io), 0);
  const nothing = fakeIO(["forget"], vars);
  assertEquals(await main(nothing.io), 2);
  assert(nothing.err.join("").startsWith("deja: forget needs"));
});
