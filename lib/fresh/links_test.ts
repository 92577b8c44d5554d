/**
 * A session file that is a link (dotfiles layout, new user 2026-12): found by
 * discovery, and an append to its target is noticed by the stat pass (stat,
 * not lstat), so a search after it finds the new turn.
 */
import { assertEquals } from "../../tests/_assert.ts";
import { claudeLines, indexSessions } from "../../tests/_memory.ts";
import { runMain } from "../../tests/_cli_io.ts";
import { appendFileSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The session every test starts from: the stores hold it before a link is made. */
const APP = {
  id: "5ea00000-1111-4222-8333-444455556666",
  cwd: "/w/app",
  start: "2026-11-01T10:00:00Z",
  turns: [{ user: "fix the flaky websocket reconnect" }],
};

const ids = (out: string) => JSON.parse(out).results.map((r: { id: string }) => r.id);

Deno.test("a linked session file is indexed, and an append to its target is picked up", async () => {
  const ix = await indexSessions([APP]);
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

Deno.test("a linked project folder whose target moved away is reported by every index run, never up to date", async () => {
  const ix = await indexSessions([APP]);
  try {
    const ID = "5eaf0000-1111-4222-8333-444455556666";
    const copy = join(ix.root, "copy");
    mkdirSync(copy, { recursive: true });
    const spec = { id: ID, cwd: "/w/scratch", start: "2026-11-03T10:00:00Z" };
    writeFileSync(
      join(copy, `${ID}.jsonl`),
      claudeLines({ ...spec, turns: [{ user: "migrate the quokka tables" }] }).join("\n") + "\n",
    );
    const link = join(ix.root, "claude", "-w-scratch");
    symlinkSync(copy, link);
    const first = await runMain(ix.env, ["index"]);
    assertEquals(first.code, 0, first.err);
    renameSync(copy, join(ix.root, "moved"));
    for (const run of [1, 2]) { // the second run must not answer from the stat pass alone
      const r = await runMain(ix.env, ["index"]);
      const said = r.out + r.err;
      assertEquals(
        [run, said.includes(`${link} is a link to nothing`), said.includes("up to date")],
        [run, true, false],
        said,
      );
    }
    const src = await runMain(ix.env, ["sources", "--verbose"]);
    assertEquals(
      (src.out + src.err).includes(`${link} is a link to nothing`),
      true,
      src.out + src.err,
    );
    // The sessions read through the link stay: deja is memory.
    const found = await runMain(ix.env, ["search", "quokka", "--json"]);
    assertEquals([found.code, ids(found.out)], [0, [ID]], found.err);
  } finally {
    ix.cleanup();
  }
});
