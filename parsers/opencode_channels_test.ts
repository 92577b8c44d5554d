import { DatabaseSync } from "node:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { assertEquals } from "../tests/_assert.ts";
import { testEnv } from "../tests/_fixture.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { opencode } from "./opencode.ts";
import { tempDir } from "../tests/_tmp.ts";

// opencode channel builds write `opencode-<channel>.db` beside `opencode.db` (opencode's
// `storage/db.ts`); a session used from both builds is in both files.

const T0 = 1795000000000;

function db(path: string, updated: number, text: string): void {
  const d = new DatabaseSync(path);
  d.exec(`
    CREATE TABLE session (id TEXT PRIMARY KEY, directory TEXT, title TEXT, parent_id TEXT,
      time_created INTEGER, time_updated INTEGER);
    CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, data TEXT);
    CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, time_created INTEGER, data TEXT);
    INSERT INTO session VALUES ('ses_both', '/w/both', 'Both', NULL, ${T0}, ${updated});
    INSERT INTO message VALUES ('msg_1', 'ses_both', ${T0 + 1},
      '{"role":"user","time":{"created":${T0 + 1}}}');
    INSERT INTO part VALUES ('prt_1', 'msg_1', ${T0 + 2}, '{"type":"text","text":"${text}"}');`);
  d.close();
}

function indexed(env: ReturnType<typeof testEnv>) {
  const s = Store.open(indexPath(env));
  try {
    const rows = s.db.prepare(
      `SELECT s.source, e.text FROM events e JOIN sessions s ON s.id = e.session_id ORDER BY e.seq`,
    ).all() as Array<{ source: string; text: string }>;
    return rows.map((r) => [r.source.split("/").pop(), r.text]);
  } finally {
    s.close();
  }
}

for (const newer of ["opencode.db", "opencode-beta.db"]) {
  Deno.test(`the copy updated last wins when one session is in two channel databases (${newer} newer)`, async () => {
    const root = tempDir("deja-oc-channels-");
    try {
      const older = newer === "opencode.db" ? "opencode-beta.db" : "opencode.db";
      db(join(root, older), T0 + 10, "old copy");
      db(join(root, newer), T0 + 50, "new copy");
      const env = testEnv(join(root, "home"), {
        DEJA_OPENCODE_ROOT: root,
        DEJA_HOME: join(root, "data"),
      });
      await runIndex(env, [opencode]);
      assertEquals(indexed(env), [[newer, "new copy"]]);
      await runIndex(env, [opencode], { rebuild: true });
      assertEquals(indexed(env), [[newer, "new copy"]]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}
