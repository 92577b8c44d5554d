/**
 * Planted secrets vs stored: every kind of tests/_secrets.ts planted in every
 * place of tests/secrets_e2e_test.ts, one index per place; prints how many
 * cores reach the index file bytes and how many placeholders were redacted.
 * Run: deno run -A bench/secrets_planted.ts
 */
import { existsSync, readFileSync } from "node:fs";
import { indexPath } from "../lib/store.ts";
import { indexSessions, type Turn } from "../tests/_memory.ts";
import { ENV_CORES, PLANTED } from "../tests/_secrets.ts";
import { PLACES } from "../tests/secrets_e2e_test.ts";

let planted = 0, stored = 0, kept = 0, keeps = 0;
const leaks: string[] = [];
for (const [place, make] of Object.entries(PLACES)) {
  const turns: Turn[] = [];
  PLANTED.forEach((p, i) => turns.push(...make(p.text, i), { say: `keep: ${p.keep}` }));
  const ix = await indexSessions([{
    id: "5ec00000-0000-4000-8000-000000000000",
    cwd: "/w/p",
    start: "2026-11-01T10:00:00Z",
    turns,
  }]);
  ix.store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const p = indexPath(ix.env);
  let bytes = readFileSync(p).toString("latin1");
  if (existsSync(`${p}-wal`)) bytes += readFileSync(`${p}-wal`).toString("latin1");
  for (const k of PLANTED) {
    const cores = k.name === ".env file" ? ENV_CORES : [k.core];
    for (const c of cores) {
      planted++;
      if (bytes.includes(c)) {
        stored++;
        leaks.push(`${place}: ${k.name} (${c.slice(0, 12)}…)`);
      }
    }
    keeps++;
    if (bytes.includes(k.keep.split("\n")[0])) kept++;
  }
  ix.cleanup();
}
console.log(`planted ${planted}, stored ${stored}; placeholders kept ${kept}/${keeps}`);
for (const l of leaks) console.log(`  ${l}`);
