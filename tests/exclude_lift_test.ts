/** Lifting an exclusion: the stores whose sessions a removed pattern had dropped are read again. */
import { assertEquals } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { freshen } from "../lib/fresh/freshen.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";

const NOV = Date.parse("2026-11-01T10:00:00Z");
const HISTORY: MemSession[] = [
  { id: "aa11-acme", project: "/home/dev/clients/acme", at: NOV, events: [["user", "acme quux"]] },
  {
    id: "aa11-sub",
    parent: "aa11-acme",
    project: "/home/dev/clients/acme",
    at: NOV,
    events: [["assistant", "subagent quux notes"]],
  },
  { id: "bb22-app", project: "/home/dev/work/app", at: NOV, events: [["user", "app page"]] },
];

type Ix = Awaited<ReturnType<typeof memIndex>>;
function ids(ix: Ix): string[] {
  const s = ix.open();
  try {
    return (s.db.prepare("SELECT native_id FROM sessions ORDER BY native_id").all() as Array<
      { native_id: string }
    >).map((r) => r.native_id);
  } finally {
    s.close();
  }
}
function excludeFile(ix: Ix, text: string): void {
  const file = join(ix.env.home, ".config", "deja", "exclude");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
const ALL = ["aa11-acme", "aa11-sub", "bb22-app"];

// Regression (2027-01, real stores): `DEJA_EXCLUDE_PROJECTS=crush-crush deja last 2` dropped
// 17 sessions and no later `deja index` without the variable brought them back.
Deno.test("sessions an exclusion dropped come back at the next index once the pattern is removed", async () => {
  const ix = await memIndex(HISTORY);
  try {
    excludeFile(ix, "clients/acme\n");
    await ix.reindex();
    assertEquals(ids(ix), ["bb22-app"]);
    excludeFile(ix, "# nothing excluded now\n");
    await ix.reindex();
    assertEquals(ids(ix), ALL);
    // and a later run changes nothing
    await ix.reindex();
    assertEquals(ids(ix), ALL);
  } finally {
    ix.cleanup();
  }
});

Deno.test("sessions the ingest gate left out come back once the pattern is removed", async () => {
  const ix = await memIndex([]);
  try {
    excludeFile(ix, "*/clients/*\n");
    await ix.add(HISTORY);
    assertEquals(ids(ix), ["bb22-app"]);
    excludeFile(ix, "");
    await ix.reindex();
    assertEquals(ids(ix), ALL);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a read command's freshen brings back what a lifted exclusion dropped", async () => {
  const ix = await memIndex(HISTORY);
  try {
    excludeFile(ix, "acme\n");
    await ix.reindex();
    assertEquals(ids(ix), ["bb22-app"]);
    excludeFile(ix, "");
    const f = await freshen(ix.env, ix.parsers, { background: false, budgetMs: 5000 });
    assertEquals(f.state, "refreshed");
    assertEquals(ids(ix), ALL);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a pattern still in force keeps its sessions out when another one is removed", async () => {
  const ix = await memIndex(HISTORY);
  try {
    excludeFile(ix, "acme\nclients\n");
    await ix.reindex();
    excludeFile(ix, "clients\n");
    await ix.reindex();
    assertEquals(ids(ix), ["bb22-app"]);
    excludeFile(ix, "");
    await ix.reindex();
    assertEquals(ids(ix), ALL);
  } finally {
    ix.cleanup();
  }
});
