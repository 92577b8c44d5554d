/**
 * `deja last week`, `deja last month`: the sessions of that window (trial 16: `last month`
 * was refused as a count, and the hint offered to search the words).
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { indexSessions } from "./_memory.ts";

const now = new Date();
/** Local noon of day `day` of the month `delta` months from this one. */
const at = (delta: number, day: number) =>
  new Date(now.getFullYear(), now.getMonth() + delta, day, 12).toISOString();

const spec = (id: string, start: string) => ({
  id,
  cwd: "/w/app",
  start,
  turns: [{ user: `work of ${id}` }, { say: "Done." }],
});
const PREV = "aaaa0000-1111-4222-8333-444455556666";
const OLDER = "bbbb0000-1111-4222-8333-444455556666";
const NOW = "cccc0000-1111-4222-8333-444455556666";
const OLDER_AT = at(-3, 10);

Deno.test("deja last last month lists the sessions of last month alone, deja last month the past 30 days", async () => {
  const ix = await indexSessions([
    spec(PREV, at(-1, 10)),
    spec(OLDER, at(-3, 10)),
    spec(NOW, new Date(Date.now() - 60_000).toISOString()),
  ]);
  try {
    const r = await runMain(ix.env, ["last", "last", "month", "--json"]);
    assertEquals(r.code, 0, r.err);
    assertEquals(JSON.parse(r.out).sessions.map((s: { id: string }) => s.id), [PREV]);
    // `month` alone is the past 30 days, up to now (trial 103 F1: the calendar's last month).
    const past = await runMain(ix.env, ["last", "month", "--json"]);
    assertEquals(past.code, 0, past.err);
    const ids = JSON.parse(past.out).sessions.map((s: { id: string }) => s.id);
    assertEquals([ids[0], ids.includes(OLDER)], [NOW, false]);
    assertEquals(JSON.parse(past.out).time.words, "past month");
    const year = await runMain(ix.env, ["last", "--json"]);
    assertEquals(JSON.parse(year.out).sessions.length, 3);
    const both = await runMain(ix.env, ["last", "month", "--since", "2d"]);
    assertEquals(both.code, 2, both.err);
    assertStringIncludes(both.err, "last was given two windows");
    // A word that names no window is still no count.
    const word = await runMain(ix.env, ["last", "banana"]);
    assertEquals(word.code, 2, word.err);
    assertStringIncludes(word.err, "last takes a positive whole number, not 'banana'");
  } finally {
    ix.cleanup();
  }
});

Deno.test("deja last 30 days reads a count of days as a window; a year alone is the year", async () => {
  // Trial 17b: `deja last 30 days` was refused ('days' unexpected).
  const ix = await indexSessions([
    spec(OLDER, OLDER_AT),
    spec(NOW, new Date(Date.now() - 60_000).toISOString()),
  ]);
  try {
    const days = await runMain(ix.env, ["last", "30", "days", "--json"]);
    assertEquals(days.code, 0, days.err);
    assertEquals(JSON.parse(days.out).sessions.map((s: { id: string }) => s.id), [NOW]);
    const count = await runMain(ix.env, ["last", "30", "--json"]);
    assertEquals(JSON.parse(count.out).sessions.length, 2);
    const extra = await runMain(ix.env, ["last", "30", "bananas"]);
    assertEquals(extra.code, 2, extra.err);
    assertStringIncludes(extra.err, "unexpected argument 'bananas'");
    // Trial 17a: `deja last 5 docker` hinted `deja search 5 docker`, the count as a word.
    assertStringIncludes(extra.err, "to search these words: deja search bananas --limit 30;");
    // A year alone is that year (trial 59: `deja last 2025` listed the newest of every year).
    const y = new Date(OLDER_AT).getFullYear();
    const year = await runMain(ix.env, ["last", String(y), "--json"]);
    assertEquals(year.code, 0, year.err);
    const inYear = JSON.parse(year.out);
    assertEquals(inYear.time.words, `in ${y}`);
    assert(
      inYear.sessions.every((s: { started: string }) => new Date(s.started).getFullYear() === y),
    );
    assert(inYear.sessions.some((s: { id: string }) => s.id === OLDER));
  } finally {
    ix.cleanup();
  }
});

Deno.test("deja last reads a window typed as search reads it, with a count before it", async () => {
  // Trial 18a: `deja last yesterday`, `deja last in march` were refused or "searched the
  // question instead"; `deja last 5 in march` searched the word `5`; a window listed 10 of 25
  // and said nothing; `--since september 2025` unquoted read September of this year.
  const ix = await indexSessions([
    spec(PREV, at(-1, 10)),
    spec(OLDER, at(-1, 12)),
    spec(NOW, new Date(Date.now() - 60_000).toISOString()),
  ]);
  const month = new Date(now.getFullYear(), now.getMonth() - 1, 1)
    .toLocaleString("en", { month: "long" }).toLowerCase();
  try {
    const inMonth = await runMain(ix.env, ["last", "in", month, "--json"]);
    assertEquals(inMonth.code, 0, inMonth.err);
    const doc = JSON.parse(inMonth.out);
    assertEquals(doc.sessions.map((s: { id: string }) => s.id), [OLDER, PREV]);
    assertEquals(doc.time.words, `in ${month}`);
    assertEquals(doc.total, 2);
    const one = await runMain(ix.env, ["last", "1", "in", month]);
    assertEquals(one.code, 0, one.err);
    assertEquals(one.err.includes("searched the question instead"), false, one.err);
    assertStringIncludes(one.err, "showing 1 of 2: --limit shows more");
    // A day named alone, by month and day or as a date (trial 18b: `last march 4` refused).
    const d = new Date(now.getFullYear(), now.getMonth() - 1, 12);
    const iso = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-12`;
    for (const day of [[month, "12"], [iso]]) {
      const r = await runMain(ix.env, ["last", ...day, "--json"]);
      assertEquals(r.code, 0, `${day}: ${r.err}`);
      assertEquals(JSON.parse(r.out).sessions.map((s: { id: string }) => s.id), [OLDER], `${day}`);
    }
    // Options before the command's name are its own (trial 18b: `deja --json last` searched).
    const before = await runMain(ix.env, ["--json", "last", "1"]);
    assertEquals(before.code, 0, before.err);
    assertEquals(JSON.parse(before.out).sessions.length, 1);
    const two = await runMain(ix.env, ["last", "in", month, "--since", "2d"]);
    assertEquals(two.code, 2, two.err);
    // Trial 18b: the hint offered `deja in <month>`, which is no `last` command.
    assertStringIncludes(two.err, `give one: 'deja last in ${month}' or 'deja last --since 2d'`);
    const yesterday = await runMain(ix.env, ["last", "yesterday"]);
    // With its day (trial 103 F1: the "no session" line named no days).
    assertMatch(
      yesterday.err,
      /no session in the index matches yesterday \(\w{3} \d{4}-\d\d-\d\d\);/,
    );
    const cut = await runMain(ix.env, ["last", "--since", month, "2025"]);
    assertEquals(cut.code, 2, cut.err);
    assertStringIncludes(cut.err, `quote the words: deja last --since '${month} 2025'`);
    const unquoted = await runMain(ix.env, ["last", "--since", "last", "week"]);
    assertEquals(unquoted.code, 2);
    assertStringIncludes(unquoted.err, "quote the words: --since 'last week'");
    const words = await runMain(ix.env, ["search", "work", "--since", "2", "weeks"]);
    assertStringIncludes(words.err, "--since 2w");
    const weekday = await runMain(ix.env, ["last", "--since", "friday", "--json"]);
    assertEquals(weekday.code === 0 || weekday.code === 1, true, weekday.err);
    assertEquals(weekday.err.includes("--since takes"), false, weekday.err);
    // A count and time words after --since (trial 42: `last 5 --since yesterday` was refused,
    // its 5 read as more of the window: JavaScript read "yesterday 5" as May 2001).
    const counted = await runMain(ix.env, ["last", "1", "--since", `${month} 1`, "--json"]);
    assertEquals(counted.code, 0, counted.err);
    assertEquals(JSON.parse(counted.out).sessions.map((s: { id: string }) => s.id), [NOW]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("deja last week says which days it listed (trial 17)", async () => {
  const ix = await indexSessions([spec(PREV, at(-1, 10)), spec(NOW, new Date().toISOString())]);
  try {
    const r = await runMain(ix.env, ["last", "last", "month"]);
    assertEquals(r.code, 0, r.err);
    const first = new Date(now.getFullYear(), now.getMonth() - 1, 1);
    const end = new Date(now.getFullYear(), now.getMonth(), 0);
    const ymd = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${
        String(d.getDate()).padStart(2, "0")
      }`;
    assertStringIncludes(r.err, `last month: `);
    assertStringIncludes(r.err, `${ymd(first)} to `);
    assertStringIncludes(r.err, ` ${ymd(end)}\n`);
    // A window up to now says since when.
    const past = await runMain(ix.env, ["last", "3", "days"]);
    assertMatch(past.err, /last 3 days: since \w{3} \d{4}-\d\d-\d\d( \d\d:\d\d)?\n/);
    // Scripts read the window from --json; stderr stays quiet there.
    const json = await runMain(ix.env, ["last", "last", "month", "--json"]);
    assertEquals(json.err.includes("last month:"), false);
  } finally {
    ix.cleanup();
  }
});

Deno.test("deja last reads a day before its month as that day, a month alone as its latest", async () => {
  // Trial 59: `deja last 4 march` listed four sessions of the whole of March under "last
  // march", and `deja last december` on December 6 listed December of the year before.
  const { lastWindow } = await import("../lib/cli/cmd_last.ts");
  const now = new Date(2026, 11, 6, 4, 25).getTime();
  const day = (y: number, m: number, d: number) => new Date(y, m, d).getTime();
  const w = (text: string) => lastWindow(text.split(" "), now);
  assertEquals([w("4 march")?.hint.from, w("4 march")?.hint.to, w("4 march")?.n], [
    day(2026, 2, 4),
    day(2026, 2, 5),
    undefined,
  ]);
  assertEquals(w("29 march 2026")?.hint.from, day(2026, 2, 29));
  assertEquals(w("4th march")?.hint.from, day(2026, 2, 4));
  assertEquals(w("december")?.hint.from, day(2026, 11, 1));
  assertEquals(w("march")?.hint.from, day(2026, 2, 1));
  // With its year, named as typed (trial 60: "last march 2025").
  assertEquals([w("march 2025")?.hint.from, w("march 2025")?.phrase], [
    day(2025, 2, 1),
    "march 2025",
  ]);
  // What --since takes works as words too (trial 59: refused as words).
  assertEquals([w("24 hours")?.hint.from, w("24 hours")?.phrase], [now - 86400e3, "last 24 hours"]);
  assertEquals(w("90d")?.hint.from, now - 90 * 86400e3);
  assertEquals(w("since yesterday")?.hint.from, day(2026, 11, 5));
  assertEquals(w("since 2026-03-29")?.hint.from, day(2026, 2, 29));
  assertEquals(w("since banana"), undefined);
  // A count before a window is still a count.
  assertEquals(w("5 in march")?.n, 5);
  assertEquals(w("3 last week")?.n, 3);
});

Deno.test("deja last -5 is a count, but --limit -1 is refused, not read as 1", async () => {
  // Trial 59: `deja last --limit -1` listed one session where `--limit=-1` was refused.
  const ix = await indexSessions([
    spec(OLDER, OLDER_AT),
    spec(NOW, new Date(Date.now() - 60_000).toISOString()),
  ]);
  try {
    const neg = await runMain(ix.env, ["last", "--limit", "-1"]);
    assertEquals(neg.code, 2, neg.err);
    assertStringIncludes(neg.err, "--limit got a value starting with '-'");
    const count = await runMain(ix.env, ["last", "-1", "--json"]);
    assertEquals(JSON.parse(count.out).sessions.map((s: { id: string }) => s.id), [NOW]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("deja last refuses a date no calendar holds, naming it", async () => {
  // Trial 60: `deja last 2026-02-30` listed the sessions of March 2.
  const ix = await indexSessions([spec(NOW, new Date(Date.now() - 60_000).toISOString())]);
  try {
    const r = await runMain(ix.env, ["last", "2026-02-30"]);
    assertEquals([r.code, r.out], [2, ""]);
    assertStringIncludes(r.err, "'2026-02-30' is no calendar day");
    assertStringIncludes(r.err, "hint: give one that is: deja last 2026-02-28");
    const june = await runMain(ix.env, ["last", "2025-06-31"]);
    assertStringIncludes(june.err, "hint: give one that is: deja last 2025-06-30");
    // A month's name with a day it has not (trial 64: told `last` takes a number).
    for (
      const [typed, hint] of [
        ["feb 30", "feb 29"],
        ["31 april", "april 30"],
        ["on september 31st, 2026", "september 30 2026"],
        ["feb 29 2025", "feb 28 2025"],
      ]
    ) {
      const m = await runMain(ix.env, ["last", typed]);
      assertEquals([m.code, m.out], [2, ""], typed);
      assertStringIncludes(m.err, `'${typed}' is no calendar day`);
      assertStringIncludes(m.err, `hint: give one that is: deja last ${hint}\n`);
    }
    // Unquoted alike (`31 april` unquoted is 31 sessions of April).
    const words = await runMain(ix.env, ["last", "feb", "30"]);
    assertEquals(words.code, 2);
    assertStringIncludes(words.err, "'feb 30' is no calendar day");
    // A day the month has is a window.
    assertEquals((await runMain(ix.env, ["last", "feb", "28", "2025"])).code, 1);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a window with no start says up to its last day", async () => {
  // Trial 60: `deja last before 2025-09-01` said "before 2025-09-01: Thu - to Sun 2025-08-31".
  const { windowLine } = await import("../lib/cli/cmd_last.ts");
  const now = new Date(2026, 11, 6, 4, 25).getTime();
  const to = new Date(2025, 8, 1).getTime();
  assertEquals(
    windowLine({ from: 0, to, words: "before 2025-09-01" }, now),
    "before 2025-09-01: up to Sun 2025-08-31",
  );
});

Deno.test("deja last offers no search with a --limit the search would refuse", async () => {
  // Trial 60: `deja last 0 march` offered `deja search march --limit 0`, itself refused.
  const ix = await indexSessions([spec(NOW, new Date(Date.now() - 60_000).toISOString())]);
  try {
    const zero = await runMain(ix.env, ["last", "0", "march"]);
    assertEquals(zero.code, 2);
    assert(!zero.err.includes("--limit 0"), zero.err);
    const five = await runMain(ix.env, ["last", "5", "docker"]);
    assertStringIncludes(five.err, "deja search docker --limit 5");
  } finally {
    ix.cleanup();
  }
});

Deno.test("deja last week is the past 7 days; last week typed is the calendar's, and its empty answer names its days and the past week (trial 103 F1)", async () => {
  // Trial 103 F1: `deja last week` on a Sunday was Monday to Sunday of the week before, and said
  // "no session matches last week" while five sessions ran in the past 7 days, two of them today.
  const { windowDays, lastWindow } = await import("../lib/cli/last_window.ts");
  const day = 86400e3;
  const ix = await indexSessions([
    spec(NOW, new Date(Date.now() - 300_000).toISOString()),
    spec(PREV, new Date(Date.now() - 6 * day).toISOString()),
    spec(OLDER, new Date(Date.now() - 8 * day).toISOString()),
  ]);
  try {
    const week = await runMain(ix.env, ["last", "week", "--json"]);
    assertEquals(week.code, 0, week.err);
    const doc = JSON.parse(week.out);
    assertEquals(doc.sessions.map((s: { id: string }) => s.id), [NOW, PREV]);
    assertEquals(doc.time.words, "past week");
    const text = await runMain(ix.env, ["last", "week"]);
    assertMatch(text.err, /^past week: since \w{3} \d{4}-\d\d-\d\d \d\d:\d\d\n/);
  } finally {
    ix.cleanup();
  }
  // Today's session alone: the calendar's last week holds none.
  const today = await indexSessions([spec(NOW, new Date(Date.now() - 300_000).toISOString())]);
  try {
    const r = await runMain(today.env, ["last", "last", "week"]);
    assertEquals(r.code, 1, r.err);
    const days = windowDays(lastWindow(["last", "week"])!.hint, Date.now());
    assertMatch(days, /^Mon \d{4}-\d\d-\d\d to Sun \d{4}-\d\d-\d\d$/);
    assertStringIncludes(r.err, `no session in the index matches last week (${days});`);
    assertStringIncludes(
      r.err,
      "hint: 'deja last week' counts back from now: the past week holds 1 session\n",
    );
  } finally {
    today.cleanup();
  }
});

Deno.test("deja last reads week and month alone as back from now, a count before them as the count (trial 103 F1, F2)", async () => {
  const { lastWindow, rollingFor } = await import("../lib/cli/last_window.ts");
  const now = new Date(2026, 11, 6, 21, 30).getTime(); // a Sunday
  const day = 86400e3;
  const w = (text: string) => lastWindow(text.split(" "), now);
  const of = (text: string) => {
    const r = w(text);
    return r && [r.hint.from, r.hint.to, r.phrase, r.n];
  };
  assertEquals(of("week"), [now - 7 * day, now + 1, "past week", undefined]);
  assertEquals(of("month"), [now - 30 * day, now + 1, "past month", undefined]);
  assertEquals(of("day"), [now - day, now + 1, "past day", undefined]);
  // Trial 103 F2: `deja last 50 week` read 50 weeks and listed 10.
  assertEquals(of("50 week"), [now - 7 * day, now + 1, "past week", 50]);
  assertEquals(of("5 month")?.[3], 5);
  // A span in the plural, or of one, is a span.
  assertEquals(of("2 weeks"), [now - 14 * day, now + 1, "last 2 weeks", undefined]);
  assertEquals(of("1 week")?.slice(0, 2), [now - 7 * day, now + 1]);
  // An article is no count, and the header names the window (trial 105 F8: "last a week").
  assertEquals(of("a week"), [now - 7 * day, now + 1, "past week", undefined]);
  assertEquals(of("one month")?.[2], "past month");
  // The calendar's, as typed, with the form back from now for its hint.
  const cal = w("last week")!;
  assertEquals([cal.hint.from, cal.hint.to], [
    new Date(2026, 10, 23).getTime(),
    new Date(2026, 10, 30).getTime(),
  ]);
  assertEquals(w("this week")?.hint.from, new Date(2026, 10, 30).getTime());
  const rolling = rollingFor(cal.hint, now);
  assertEquals([rolling?.command, rolling?.hint.from], ["deja last week", now - 7 * day]);
  assertEquals(rollingFor(w("this month")!.hint, now)?.command, "deja last month");
  assertEquals(rollingFor(w("in march")!.hint, now), undefined);
  assertEquals(rollingFor(w("week")!.hint, now), undefined);
});

Deno.test("deja last 2 week lists 2 of the past week, not the past 2 weeks (trial 103 F2)", async () => {
  const day = 86400e3;
  const ix = await indexSessions([
    spec(NOW, new Date(Date.now() - 300_000).toISOString()),
    spec(PREV, new Date(Date.now() - 2 * day).toISOString()),
    spec("dddd0000-1111-4222-8333-444455556666", new Date(Date.now() - 3 * day).toISOString()),
    spec(OLDER, new Date(Date.now() - 10 * day).toISOString()),
  ]);
  try {
    const r = await runMain(ix.env, ["last", "2", "week", "--json"]);
    assertEquals(r.code, 0, r.err);
    const doc = JSON.parse(r.out);
    assertEquals([doc.sessions.map((s: { id: string }) => s.id), doc.total], [[NOW, PREV], 3]);
    assertEquals(doc.time.words, "past week");
    // Said with --limit, the same.
    const limit = await runMain(ix.env, ["last", "--limit", "2", "week", "--json"]);
    const same = JSON.parse(limit.out);
    assertEquals([same.sessions, same.total, same.time.words], [doc.sessions, 3, "past week"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a word after one dash is named whole, and a window's words are offered without it (trial 105 F8)", async () => {
  // `deja last -week` said "Unknown option 'w'": the parser read -w -e -e -k.
  const ix = await indexSessions([spec(NOW, new Date(Date.now() - 60_000).toISOString())]);
  try {
    const week = await runMain(ix.env, ["last", "-week"]);
    assertEquals(week.code, 2, week.err);
    assertStringIncludes(week.err, "unknown option '-week'");
    assertStringIncludes(week.err, "hint: time words take no dash: deja last week");
    // An option's name after one dash: the option.
    const limit = await runMain(ix.env, ["last", "-limit", "3"]);
    assertEquals(limit.code, 2, limit.err);
    assertStringIncludes(limit.err, "unknown option '-limit'");
    assertStringIncludes(limit.err, "did you mean --limit?");
    // A count after a dash is still the count.
    assertEquals((await runMain(ix.env, ["last", "-1"])).code, 0);
  } finally {
    ix.cleanup();
  }
});
