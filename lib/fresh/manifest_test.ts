import { assert, assertEquals } from "../../tests/_assert.ts";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { manifestPath, readManifest, writeManifest } from "./manifest.ts";
import type { StaleRow } from "./check.ts";
import { tempDir } from "../../tests/_tmp.ts";

const row = (i: number): StaleRow => ({
  path: `/h/.claude/projects/-w/s${i}.jsonl`,
  harness: "claude",
  kind: "append",
  size: 1000 + i,
  mtime: 1_700_000_000_000 + i,
  companions: null,
  offset: 1000 + i,
  error: i % 997 === 0 ? "unexpected end" : null,
  indexed_at: 1_700_000_000_000,
});

Deno.test("the manifest's rows are written as they come, in pieces, and read back whole", () => {
  const dir = tempDir("deja-manifest-");
  const index = join(dir, "index.db");
  writeFileSync(index, "an index");
  let closed = false;
  const n = 2_501; // more than two pieces, the last one short
  writeManifest(index, () => ({
    body: {
      schema: 14,
      rows: (function* () {
        for (let i = 0; i < n; i++) yield row(i);
      })(),
      map: { dirs: { claude: { "/h/.claude/projects": 5 } }, companions: {} },
      harnesses: [],
      excluded: false,
      totals: { sessions: n, events: 3 * n },
    },
    done: () => void (closed = true),
  }));
  assert(closed, "the index read is closed");
  const m = readManifest(index, 14);
  assert(m !== null, "the manifest describes the index");
  assertEquals(m.rows.length, n);
  assertEquals(m.rows[0], row(0));
  assertEquals(m.rows[n - 1], row(n - 1));
  assertEquals(m.totals, { sessions: n, events: 3 * n });
  assertEquals(m.map.dirs.claude["/h/.claude/projects"], 5);
  assertEquals(readdirSync(dir).filter((f) => f.endsWith(".tmp")), []);
});

Deno.test("an index that changed while the manifest was written leaves none, nor a partial file", () => {
  const dir = tempDir("deja-manifest-");
  const index = join(dir, "index.db");
  writeFileSync(index, "an index");
  writeManifest(index, () => ({
    body: {
      schema: 14,
      rows: (function* () {
        yield row(1);
        writeFileSync(index, "another index, longer");
        yield row(2);
      })(),
      map: { dirs: {}, companions: {} },
      harnesses: [],
      excluded: false,
      totals: { sessions: 2, events: 2 },
    },
    done: () => {},
  }));
  assertEquals(existsSync(manifestPath(index)), false);
  assertEquals(readdirSync(dir), ["index.db"]);
});
