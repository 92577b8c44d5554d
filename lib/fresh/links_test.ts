/**
 * A session file that is a link (dotfiles layout, new user 2026-12): found by
 * discovery, and an append to its target is noticed by the stat pass (stat,
 * not lstat), so a search after it finds the new turn.
 */
import { assertEquals } from "../../tests/_assert.ts";
import { claudeLines, indexSessions } from "../../tests/_memory.ts";
import { runMain } from "../../tests/_cli_io.ts";
import { appendFileSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ids = (out: string) => JSON.parse(out).results.map((r: { id: string }) => r.id);

Deno.test("a linked session file is indexed, and an append to its target is picked up", async () => {
  const ix = await indexSessions([{
    id: "5ea00000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "fix the flaky websocket reconnect" }],
  }]);
  try {
    const ID = "5eac0000-1111-4222-8333-444455556666";
    const real = join(ix.root, "dotfiles", `${ID}.jsonl`);
    mkdirSync(join(ix.root, "dotfiles"), { recursive: true });
    const spec = { id: ID, cwd: "/w/linked", start: "2026-11-03T10:00:00Z" };
    writeFileSync(
      real,
      claudeLines({ ...spec, turns: [{ user: "migrate the quokka tables" }] })
        .join("\n") + "\n",
    );
    mkdirSync(join(ix.root, "claude", "-w-linked"), { recursive: true });
    symlinkSync(real, join(ix.root, "claude", "-w-linked", `${ID}.jsonl`));
    const first = await runMain(ix.env, ["search", "quokka", "--json"]);
    assertEquals([first.code, ids(first.out)], [0, [ID]], first.err);

    const more = claudeLines({ ...spec, turns: [{ user: "now the wombat views" }] });
    appendFileSync(real, more.slice(-1).join("\n") + "\n");
    const second = await runMain(ix.env, ["search", "wombat", "--json"]);
    assertEquals([second.code, ids(second.out)], [0, [ID]], second.err);
  } finally {
    ix.cleanup();
  }
});
