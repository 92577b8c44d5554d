import { assert, assertEquals, assertStringIncludes, assertThrows } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { csi } from "./output.ts";
import { lastCmd, lastData, parseLast } from "./cmd_last.ts";

const OLD = "1a500000-1111-4222-8333-444455556666";
const NEW = "1a5b0000-1111-4222-8333-444455556666";

function fixture() {
  return indexSessions([
    { id: OLD, cwd: "/w/app", start: "2026-11-01T10:00:00Z", turns: [{ user: "older work" }] },
    { id: NEW, cwd: "/w/lib", start: "2026-11-02T10:00:00Z", turns: [{ user: "newer work" }] },
  ]);
}

Deno.test("last parses its count, defaults to 10, and refuses a non-number or unknown harness", () => {
  const d = parseLast({ values: {}, positionals: [] });
  assertEquals([d.n, d.json, d.filter.junk], [10, false, false]);
  assertEquals(parseLast({ values: { project: "app" }, positionals: ["3"] }).filter.project, "app");
  assertThrows(() => parseLast({ values: {}, positionals: ["0"] }), DejaError);
  assertThrows(() => parseLast({ values: { harness: ["nope"] }, positionals: [] }), DejaError);
});

Deno.test("last's run returns the newest sessions first, each with its short reference", async () => {
  const ix = await fixture();
  try {
    const io = captureIO(ix.env, false).io;
    const d = lastData(ix.store, parseLast({ values: {}, positionals: [] }), io);
    assertEquals(d.sessions.map((s) => s.native_id), [NEW, OLD]);
    assertEquals(d.sessions[0].description, "newer work");
    assert(NEW.startsWith(d.sessions[0].ref));
    const one = lastData(ix.store, parseLast({ values: { project: "app" }, positionals: [] }), io);
    assertEquals(one.sessions.map((s) => s.native_id), [OLD]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("last prints colour on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  try {
    const tty = captureIO(ix.env, true);
    assertEquals(await lastCmd.run({ values: {}, positionals: ["1"] }, tty.io), 0);
    assertStringIncludes(tty.out(), csi("1m") + "claude");
    assert(!tty.out().includes("older work"));

    const pipe = captureIO(ix.env, false);
    assertEquals(await lastCmd.run({ values: {}, positionals: [] }, pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assertStringIncludes(pipe.out(), "  newer work\n");
    assertStringIncludes(pipe.out(), "  1 event\n", "one event, not '1 events'");

    const json = captureIO(ix.env, false);
    assertEquals(await lastCmd.run({ values: { json: true }, positionals: [] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(doc.sessions.map((s: { id: string }) => s.id), [NEW, OLD]);
    assertEquals(Object.keys(doc.sessions[0]).slice(-6), [
      "model",
      "models",
      "events",
      "parent",
      "description",
      "about",
    ]);

    const none = captureIO(ix.env, false);
    assertEquals(await lastCmd.run({ values: { project: "zzz" }, positionals: [] }, none.io), 1);
    assertStringIncludes(none.err(), "no session in the index matches");
  } finally {
    ix.cleanup();
  }
});

Deno.test("a month named without its year that holds none names the earlier year that does", async () => {
  // The month of 60 days ago, read as this year's; its sessions are of the year before.
  const then = new Date(Date.now() - 60 * 86400e3);
  const month = then.toLocaleString("en-US", { month: "long", timeZone: "UTC" }).toLowerCase();
  const year = then.getUTCFullYear() - 1;
  const mm = String(then.getUTCMonth() + 1).padStart(2, "0");
  const ix = await indexSessions([
    { id: OLD, cwd: "/w/app", start: `${year}-${mm}-10T10:00:00Z`, turns: [{ user: "old work" }] },
    {
      id: NEW,
      cwd: "/w/lib",
      start: new Date(Date.now() - 86400e3).toISOString(),
      turns: [{ user: "new work" }],
    },
  ]);
  try {
    const text = captureIO(ix.env, false);
    assertEquals(await lastCmd.run({ values: {}, positionals: ["in", month] }, text.io), 1);
    assertStringIncludes(text.err(), "no session in the index matches");
    assertStringIncludes(
      text.err(),
      `hint: the same days of ${year} hold 1 session: deja last in ${month} ${year}\n`,
    );
    // The count without the words is the sessions `deja last` lists.
    assertStringIncludes(text.err(), `without 'in ${month}': 2 sessions`);
    const json = captureIO(ix.env, false);
    assertEquals(
      await lastCmd.run({ values: { json: true }, positionals: ["in", month] }, json.io),
      1,
    );
    assertEquals(JSON.parse(json.out()).earlier, { year, sessions: 1 });
    // The command the hint gives lists it.
    const go = captureIO(ix.env, false);
    assertEquals(
      await lastCmd.run({ values: {}, positionals: ["in", month, String(year)] }, go.io),
      0,
    );
    assertStringIncludes(go.out(), "old work");
  } finally {
    ix.cleanup();
  }
});

Deno.test("last under --project or --junk counts every session it leaves unlisted", async () => {
  // Trial 59: `last --project crush` listed 10 of 27 with no total in JSON and no notice, and
  // `--project nosuch` said "without --project: 49 sessions" where `deja last` lists 45.
  const id = (n: number) => `1a5c000${n}-1111-4222-8333-444455556666`;
  const ix = await indexSessions([
    ...[1, 2, 3].map((n) => ({
      id: id(n),
      cwd: "/w/app",
      start: `2026-11-0${n}T10:00:00Z`,
      turns: [{ user: `app work ${n}` }, { say: "Done." }],
    })),
    {
      id: id(4),
      cwd: "/tmp/tmp.x1y2z3",
      start: "2026-11-05T10:00:00Z",
      turns: [{ user: "scratch" }, { say: "Done." }],
    },
  ]);
  try {
    const io = captureIO(ix.env, false).io;
    const one = lastData(
      ix.store,
      parseLast({ values: { project: "app" }, positionals: ["1"] }),
      io,
    );
    assertEquals([one.sessions.length, one.total], [1, 3]);
    const junk = lastData(ix.store, parseLast({ values: { junk: true }, positionals: ["1"] }), io);
    assertEquals([junk.sessions.length, junk.total], [1, 4]);
    const text = captureIO(ix.env, false);
    assertEquals(await lastCmd.run({ values: { project: "app" }, positionals: ["1"] }, text.io), 0);
    assertStringIncludes(text.err(), "showing 1 of 3");
    const plain = lastData(ix.store, parseLast({ values: {}, positionals: [] }), io);
    const none = captureIO(ix.env, false);
    assertEquals(await lastCmd.run({ values: { project: "nosuch" }, positionals: [] }, none.io), 1);
    assertStringIncludes(none.err(), `without --project: ${plain.total} sessions`);
    assertEquals(plain.total, 3, "the throwaway session is hidden from plain last");
  } finally {
    ix.cleanup();
  }
});

Deno.test("two windows given are refused with a hint that repeats the words as typed", () => {
  // Trial 105 F6: `deja last last week --since yesterday` offered `deja last week` (the past 7
  // days, not the calendar week typed), and `deja last 5 week --since 3d` dropped the 5.
  const hintOf = (positionals: string[], since: string) => {
    try {
      parseLast({ values: { since }, positionals });
    } catch (e) {
      if (e instanceof DejaError) return e.hint ?? "";
    }
    return "";
  };
  assertEquals(
    hintOf(["last", "week"], "yesterday"),
    "give one: 'deja last last week' or 'deja last --since yesterday'",
  );
  assertStringIncludes(hintOf(["5", "week"], "3d"), "'deja last 5 week'");
});
