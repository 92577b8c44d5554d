/**
 * Secrets planted in every place of a Claude Code store (user and assistant
 * text, command lines, tool output, edit old and new strings, written files,
 * a tool's JSON arguments, a JSON file holding the text JSON-escaped) never
 * reach the index file's bytes nor search output; the placeholders planted
 * beside them stay searchable. Regression for issue 14 item 6 (50 of 507
 * planted secrets stored).
 */
import { assert, assertEquals } from "./_assert.ts";
import { existsSync, readFileSync } from "node:fs";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import type { Env } from "../core/model.ts";
import { indexPath } from "../lib/store.ts";
import { indexSessions, type SessionSpec, type Turn } from "./_memory.ts";
import { ENV_CORES, PLANTED } from "./_secrets.ts";

/** The places a secret is planted in, each a turn of a session. */
export const PLACES: Record<string, (text: string, i: number) => Turn[]> = {
  user: (t) => [{ user: `plantmark here is the config:\n${t}` }],
  assistant: (t) => [{ say: `plantmark I will use this:\n${t}` }],
  command: (t) => [{ bash: `echo plantmark && ${t}`, out: "ok", exit: 0 }],
  output: (t) => [{ bash: "cat plantmark.txt", out: t, exit: 0 }],
  edit_old: (t, i) => [{ edit: `/w/p/plantmark${i}.cfg`, old: t, new: "removed" }],
  edit_new: (t, i) => [{ edit: `/w/p/plantmark${i}.cfg`, old: "x = 1", new: t }],
  write: (t, i) => [{ write: `/w/p/plantmark${i}.env`, content: t }],
  write_json: (t, i) => [{
    write: `/w/p/plantmark${i}.json`,
    content: JSON.stringify({ plantmark: t }, null, 2),
  }],
};

function sessions(): SessionSpec[] {
  const out: SessionSpec[] = [];
  let n = 0;
  for (const [place, make] of Object.entries(PLACES)) {
    const turns: Turn[] = [];
    PLANTED.forEach((p, i) => {
      turns.push(...make(p.text, i));
      turns.push({ say: `plantmark placeholder: ${p.keep}` });
    });
    n++;
    out.push({
      id: `5ec0${String(n).padStart(4, "0")}-0000-4000-8000-${place.padEnd(12, "0").slice(0, 12)}`
        .replace(/[^0-9a-f-]/g, "a"),
      cwd: "/w/p",
      start: `2026-11-${String(n).padStart(2, "0")}T10:00:00Z`,
      turns,
    });
  }
  return out;
}

/** Index file bytes as text (the main file and a WAL beside it). */
function indexBytes(env: Env): string {
  const p = indexPath(env);
  let s = readFileSync(p).toString("latin1");
  if (existsSync(`${p}-wal`)) s += readFileSync(`${p}-wal`).toString("latin1");
  return s;
}

async function search(env: Env, args: string[]): Promise<string> {
  const out: string[] = [];
  const io: IO = {
    args,
    env,
    cwd: "/w/p",
    out: (t) => out.push(t),
    err: () => {},
    isTTY: false,
    errTTY: false,
    readStdin: () => Promise.resolve(""),
  };
  await main(io);
  return out.join("");
}

Deno.test("no planted secret reaches the index bytes or search output; placeholders stay", async () => {
  const ix = await indexSessions(sessions());
  try {
    ix.store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const bytes = indexBytes(ix.env);
    const cores = [...PLANTED.map((p) => [p.name, p.core]), ...ENV_CORES.map((c) => [".env", c])];
    const stored = cores.filter(([, c]) => bytes.includes(c));
    assertEquals(stored, [], `${stored.length} of ${cores.length} kinds stored`);
    const outputs = [
      await search(ix.env, ["plantmark", "--limit", "50"]),
      await search(ix.env, ["plantmark", "--limit", "50", "--json"]),
      ...await Promise.all(
        sessions().map((s) => search(ix.env, ["show", s.id.slice(0, 8), "--full"])),
      ),
    ];
    for (const out of outputs) {
      for (const [name, c] of cores) assert(!out.includes(c), `${name} shown: ${c}`);
    }
    assert(outputs[0].includes("plantmark"), "the search found the planted sessions");
    // Placeholders are not secrets: each survives in the index whole.
    const lost = PLANTED.filter((p) => !bytes.includes(p.keep.split("\n")[0]));
    assertEquals(lost.map((p) => p.name), []);
  } finally {
    ix.cleanup();
  }
});
