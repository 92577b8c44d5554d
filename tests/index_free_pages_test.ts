/**
 * Issue 18 (index ≤ 60 % of the corpus): a new index vacuums incrementally, and a full
 * index run gives the pages it freed back to the file system. A store read again whole
 * replaces its events, whose pages went to the free list and stayed in the file: 1.6 MB of
 * the 100 MB bench index's 60 MB, and more with each re-read.
 */
import { assertEquals } from "./_assert.ts";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { claudeLines, indexSessions, type SessionSpec } from "./_memory.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath } from "../lib/store.ts";
import { parsers } from "../parsers/mod.ts";

const session = (n: number, word: string): SessionSpec => ({
  id: `f1ee0000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  cwd: "/w/free",
  start: "2026-11-01T10:00:00Z",
  turns: [
    { user: `look at the ${word} logs` },
    ...Array.from({ length: 40 }, (_, i) => ({
      bash: `cat logs/${word}-${i}.txt`,
      out: `${word} line ${i} `.repeat(200),
      exit: 0,
    })),
  ],
});

Deno.test("a full index run leaves no free pages in the index file", async () => {
  const specs = Array.from({ length: 6 }, (_, i) => session(i, `alpha${i}`));
  const ix = await indexSessions(specs);
  try {
    ix.store.close();
    const path = indexPath(ix.env);
    const pragma = (name: string) => {
      const db = new DatabaseSync(path, { readOnly: true });
      try {
        return Object.values(db.prepare(`PRAGMA ${name}`).get() as Record<string, number>)[0];
      } finally {
        db.close();
      }
    };
    assertEquals(pragma("auto_vacuum"), 2); // incremental
    // Every store rewritten with other text, one removed: their old rows are freed.
    const dir = join(ix.root, "claude", "-w-free");
    for (const [i, s] of specs.entries()) {
      const file = join(dir, `${s.id}.jsonl`);
      if (i === 0) rmSync(file);
      else writeFileSync(file, claudeLines(session(i, `beta${i}`)).join("\n") + "\n");
    }
    await runIndex(ix.env, parsers, { only: ["claude", "deja"] });
    assertEquals(pragma("freelist_count"), 0);
  } finally {
    ix.cleanup();
  }
});
