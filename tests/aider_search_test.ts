/**
 * aider's histories in project folders no other harness knows (new-user trial, 2026-12: a
 * user of aider alone got nothing) are found by `deja index`, and one that appears later is
 * found by the next `deja index`, the no-op stat pass included (lib/fresh/).
 */
import { assertEquals } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import { testEnv } from "./_fixture.ts";
import { removeTemp, tempDir } from "./_tmp.ts";

const NAME = ".aider.chat.history.md";
const history = (prompt: string) =>
  `# aider chat started at 2026-11-20 09:15:00\n\n#### ${prompt}  \n\nan answer\n`;

/** `deja index --json` (of aider alone unless `all`): aider's line, if any. */
async function index(home: string, dir: string, all = false, vars: Record<string, string> = {}) {
  const out: string[] = [];
  const io: IO = {
    args: ["index", "--json", ...(all ? [] : ["--harness", "aider"])],
    env: testEnv(home, { DEJA_HOME: join(dir, "deja"), TZ: "UTC", ...vars }),
    cwd: home,
    out: (t) => out.push(t),
    err: () => {},
    isTTY: false,
    errTTY: false,
    readStdin: () => Promise.resolve(""),
  };
  assertEquals(await main(io), 0);
  const doc = JSON.parse(out.join(""));
  return (doc.harnesses.find((h: { harness: string }) => h.harness === "aider") ??
    { found: 0, read: 0 }) as { found: number; read: number };
}

Deno.test("deja index finds aider histories under ~/src and a new one on the next run, also in a project folder made since", async () => {
  const dir = tempDir("deja-aidersearch-");
  try {
    const home = join(dir, "home");
    mkdirSync(join(home, "src", "app", ".git"), { recursive: true });
    writeFileSync(join(home, "src", "app", NAME), history("fix the parser"));
    const first = await index(home, dir);
    assertEquals([first.found, first.read], [1, 1]);
    // Nothing new: the no-op reads nothing.
    assertEquals((await index(home, dir)).read, 0);
    // A new repository with a history under ~/src: found by the next run.
    mkdirSync(join(home, "src", "tool", ".git"), { recursive: true });
    writeFileSync(join(home, "src", "tool", NAME), history("add a flag"));
    const second = await index(home, dir);
    assertEquals([second.found, second.read], [2, 1]);
    // A project folder absent until now (~/code): watched as a place projects appear.
    mkdirSync(join(home, "code", "site"), { recursive: true });
    writeFileSync(join(home, "code", "site", NAME), history("deploy"));
    const third = await index(home, dir);
    assertEquals([third.found, third.read], [3, 1]);
  } finally {
    removeTemp(dir);
  }
});

Deno.test("a history made since in a new folder under DEJA_AIDER_ROOT is read by the next deja index", async () => {
  // Trial 64: "up to date" until a rebuild; the folder the variable names was not watched.
  const dir = tempDir("deja-aiderroot-");
  try {
    const home = join(dir, "home");
    const root = join(dir, "aider-root");
    mkdirSync(join(root, "one"), { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(join(root, "one", NAME), history("fix the parser"));
    const vars = { DEJA_AIDER_ROOT: root };
    assertEquals((await index(home, dir, false, vars)).found, 1);
    assertEquals((await index(home, dir, false, vars)).read, 0);
    mkdirSync(join(root, "two"));
    writeFileSync(join(root, "two", NAME), history("add a flag"));
    const next = await index(home, dir, false, vars);
    assertEquals([next.found, next.read], [2, 1]);
  } finally {
    removeTemp(dir);
  }
});

Deno.test("a history made since in the folder another harness's session ran in is read by the next deja index", async () => {
  const dir = tempDir("deja-aiderknown-");
  try {
    const home = join(dir, "home");
    const project = join(dir, "elsewhere", "shop");
    mkdirSync(project, { recursive: true });
    // A Claude Code session that ran in `project` (outside the folders aider's discovery walks).
    const claude = join(home, ".claude", "projects", "-elsewhere-shop");
    mkdirSync(claude, { recursive: true });
    const rec = (i: number) =>
      JSON.stringify({
        type: "user",
        message: { role: "user", content: `question ${i}` },
        uuid: `u${i}`,
        sessionId: "11111111-2222-4333-8444-555555555555",
        cwd: project,
        timestamp: `2026-11-20T10:0${i}:00Z`,
      });
    writeFileSync(
      join(claude, "11111111-2222-4333-8444-555555555555.jsonl"),
      `${rec(1)}\n${rec(2)}\n`,
    );
    // Every harness: aider's discovery reads the projects the Claude session names.
    assertEquals((await index(home, dir, true)).found, 0);
    // Nothing new: a no-op.
    assertEquals((await index(home, dir, true)).read, 0);
    writeFileSync(join(project, NAME), history("fix the cart"));
    const after = await index(home, dir, true);
    assertEquals([after.found, after.read], [1, 1]);
  } finally {
    removeTemp(dir);
  }
});
