/**
 * A damaged SQLite store whose rows a scan stops short of without an error loses
 * them out loud, not silently (new-user trial, 2026-12, a copy of
 * realdata/crush/k3s-subagent-summary-0627.db with 16 KB overwritten in the middle:
 * two sessions indexed with 0 events, `show` printed title and dates with exit
 * 0, and `index`, `sources --verbose` and `doctor` said nothing of the store).
 * The salvage copy read the messages table in rowid windows; a damaged cell
 * whose rowid read past the window's end ended the scan there with no error,
 * so every row after it was left out and counted nowhere.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_cli_io.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { crushTables, listProjects, tinyVars } from "./_crush_tiny.ts";

const PAGE = 4096;
const SESSIONS = ["A", "B", "C", "D"];
const PER = 8;

const run = (args: string[], vars: Record<string, string>) =>
  runMain(testEnv(vars.HOME, vars), args, "", vars.HOME);

/** A crush.db of sessions A..D, 8 messages each (`<S><i>Q` markers, ~900 bytes: 4 a page). */
function store(path: string): void {
  const db = new DatabaseSync(path);
  try {
    crushTables(db);
    db.exec("CREATE INDEX idx_messages_session_id ON messages (session_id)");
    const msg = db.prepare("INSERT INTO messages VALUES (?, ?, ?, ?, ?)");
    for (const s of SESSIONS) {
      db.prepare("INSERT INTO sessions VALUES (?, ?, 1000, 1000)").run(`${s}-session`, s);
      for (let i = 0; i < PER; i++) {
        const body = `${s}${i}Q ${"harbour ledger ".repeat(58)}`;
        const parts = JSON.stringify([{ type: "text", data: { text: body } }]);
        msg.run(`${s}${i}`, `${s}-session`, i % 2 ? "assistant" : "user", parts, 1000 + i);
      }
    }
  } finally {
    db.close();
  }
}

/** Reads a SQLite varint at `i`: [value, next offset]. */
function varint(b: Uint8Array, i: number): [number, number] {
  let v = 0;
  for (let k = 0; k < 8; k++) {
    v = v * 128 + (b[i + k] & 0x7f);
    if (b[i + k] < 0x80) return [v, i + k + 1];
  }
  return [v * 256 + b[i + 8], i + 9];
}

/**
 * The damage of the trial, made exact: the rowid of B0's cell reads 127 (past every rowid,
 * same varint length), so a scan by rowid ends there without an error; and the page header
 * of C2's page is broken, so reading session C fails and the salvage starts.
 */
function damage(path: string): void {
  const b = new Uint8Array(readFileSync(path));
  const text = new TextDecoder("latin1").decode(b);
  const page = Math.floor(text.indexOf("B0Q") / PAGE);
  const p = page * PAGE;
  assertEquals(b[p], 13, "B0 sits on a table leaf page");
  const cells = (b[p + 3] << 8) | b[p + 4];
  let done = false;
  for (let c = 0; c < cells && !done; c++) {
    const at = p + ((b[p + 8 + 2 * c] << 8) | b[p + 9 + 2 * c]);
    const [, rowidAt] = varint(b, at);
    const [rowid] = varint(b, rowidAt);
    if (rowid === PER + 1) { // B0: the first message after A's
      b[rowidAt] = 127;
      done = true;
    }
  }
  assert(done, "B0's cell found");
  const broken = Math.floor(text.indexOf("C2Q") / PAGE);
  assert(broken > page, "C2 sits after B0");
  b.fill(0xa5, broken * PAGE, broken * PAGE + 12);
  writeFileSync(path, b);
}

Deno.test("a damaged Crush store whose scan stops short without an error reports the rows it could not read and keeps the rest", async () => {
  const dir = tempDir("deja-damage-silent-");
  try {
    const proj = join(dir, "proj");
    mkdirSync(join(proj, ".crush"), { recursive: true });
    mkdirSync(join(dir, "crush"), { recursive: true });
    listProjects(dir, [proj]);
    const path = join(proj, ".crush", "crush.db");
    store(path);
    damage(path);
    const vars = tinyVars(dir);
    const r = await run(["index", "--rebuild"], vars);
    assertStringIncludes(r.out + r.err, "corrupt");
    assertStringIncludes(r.out + r.err, "damaged, could not read");
    const idx = new DatabaseSync(join(vars.DEJA_HOME, "index.db"), { readOnly: true });
    const rows = idx.prepare("SELECT native_id AS id, events FROM sessions ORDER BY native_id")
      .all() as Array<{ id: string; events: number }>;
    idx.close();
    const events = Object.fromEntries(rows.map((x) => [x.id.slice(0, 1), x.events]));
    // A and D are whole; B lost B0 (its damaged cell), C the messages on its broken page.
    assertEquals([events.A, events.D], [PER, PER], JSON.stringify(events));
    assert(events.B >= PER - 1 && events.C >= 1 && events.C < PER, JSON.stringify(events));
    const s = await run(["sources", "--verbose"], vars);
    assertStringIncludes(s.out, "corrupt");
    const d = await run(["doctor"], { ...vars, DEJA_NO_REFRESH: "1" });
    assertStringIncludes(d.out + d.err, path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
