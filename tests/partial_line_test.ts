/**
 * A JSONL store whose last line is cut mid-line (the harness is still writing
 * it) is indexed up to that line, the line is counted `partial_line` and shown
 * by `deja sources`, and the next pass reads it once it is complete. Found in a
 * fresh-user trial: a Codex rollout cut mid-line gave no session and no word
 * why (it came back once the file was complete), and `sources` counted nothing
 * although README says a half-written last line is counted.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_cli_io.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

const REAL = "/work/shared/realdata";

/** deja's `main` in process over `vars`, in their HOME (tests/_cli_io.ts). */
const run = (args: string[], vars: Record<string, string>) =>
  runMain(testEnv(vars.HOME, vars), args, "", vars.HOME);

/** `whole` cut inside its line `line` (0-based), halfway through it. */
function cutInLine(whole: Uint8Array, line: number): Uint8Array {
  let start = 0;
  for (let i = 0; i < line; i++) start = whole.indexOf(10, start) + 1;
  const end = whole.indexOf(10, start);
  return whole.slice(0, start + Math.floor((end - start) / 2));
}

interface Case {
  harness: string;
  file: string;
  /** Where the store lives under the test root. */
  at: string;
  /** The line cut (a line a session's events come from, not the first). */
  line: number;
}

const CASES: Case[] = [
  {
    harness: "codex",
    file: `${REAL}/codex/rollout-vscode-0.116.0-alpha.jsonl`,
    at:
      "codex/sessions/2026/03/23/rollout-2026-03-23T01-39-29-019d19a2-6ff2-7cf3-a8e7-16f38b9dee35.jsonl",
    line: 19,
  },
  {
    harness: "claude",
    file: `${REAL}/claude-code/win2-2.1.68-session-small.jsonl`,
    at: "claude/projects/-tmp-p/b3b9c424-4826-4ba8-b3fc-70e32283cf5f.jsonl",
    line: 11,
  },
];

for (const c of CASES) {
  Deno.test(`a ${c.harness} store cut mid-line is indexed up to the cut, counts it partial_line, and reads it once complete`, async () => {
    const dir = tempDir("deja-partial-");
    try {
      const vars = (home: string) => ({
        HOME: join(dir, "home"),
        DEJA_HOME: join(dir, home),
        CODEX_HOME: join(dir, "codex"),
        DEJA_CODEX_ROOT: join(dir, "codex"),
        CLAUDE_CONFIG_DIR: join(dir, "claude"),
        DEJA_CLAUDE_ROOT: join(dir, "claude"),
        XDG_DATA_HOME: join(dir, "xdg"),
        XDG_CONFIG_HOME: join(dir, "xdg"),
        XDG_STATE_HOME: join(dir, "xdg"),
        DEJA_NO_REFRESH: "1",
        TZ: "UTC",
      });
      const v = vars("deja");
      const path = join(dir, c.at);
      mkdirSync(join(path, ".."), { recursive: true });
      const whole = readFileSync(c.file);
      const events = (home: string) => {
        const idx = new DatabaseSync(join(dir, home, "index.db"), { readOnly: true });
        try {
          return (idx.prepare("SELECT sum(events) AS n FROM sessions").get() as { n: number }).n;
        } finally {
          idx.close();
        }
      };
      // The complete file, indexed alone: what the cut store must come to.
      writeFileSync(path, whole);
      assertEquals((await run(["index", "--quiet"], vars("deja-whole"))).code, 0);
      const all = events("deja-whole");

      writeFileSync(path, cutInLine(whole, c.line));
      const r = await run(["index"], v);
      assertEquals(r.code, 0, r.err);
      assertStringIncludes(r.out + r.err, "unfinished: 1 partial_line");
      const cut = events("deja");
      assert(cut > 0 && cut < all, `${cut} of ${all} events`);
      const plain = await run(["sources"], v);
      assertStringIncludes(plain.out, "unfinished: 1 last line still being written");
      assert(!plain.out.includes("damaged"), plain.out);
      const doc = JSON.parse((await run(["sources", "--json"], v)).out);
      const h = doc.harnesses.find((x: { harness: string }) => x.harness === c.harness);
      assertEquals(h.skipped, { partial_line: 1 });

      writeFileSync(path, whole);
      assertEquals((await run(["index", "--quiet"], v)).code, 0);
      assertEquals(events("deja"), all);
      const after = JSON.parse((await run(["sources", "--json"], v)).out);
      const h2 = after.harnesses.find((x: { harness: string }) => x.harness === c.harness);
      assertEquals(h2.skipped, {});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
