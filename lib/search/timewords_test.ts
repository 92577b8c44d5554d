import { assert, assertEquals } from "../../tests/_assert.ts";
import { timeFit, timeHint } from "./timewords.ts";
import { search } from "../search.ts";
import { type MemSession, withMemIndex } from "../../tests/_search_fixture.ts";

const NOW = new Date(2026, 10, 18, 15, 0).getTime(); // a Wednesday, local time
const DAY = 86400e3;

Deno.test("timeHint reads yesterday, last week, N days ago and month names, and removes them", () => {
  const y = timeHint("deploy broke yesterday", NOW);
  assertEquals(y.rest.trim(), "deploy broke");
  assertEquals(y.hint!.to - y.hint!.from, DAY);
  assert(y.hint!.to <= NOW && y.hint!.to > NOW - DAY);
  const w = timeHint("the flaky test last week", NOW)!.hint!;
  assert(w.from < NOW - 7 * DAY && w.to < NOW);
  const ago = timeHint("cache fix 3 days ago", NOW)!.hint!;
  assert(ago.from < NOW - 3 * DAY && ago.to > NOW - 3 * DAY);
  // A weekday after since, from, after or before turns as a month does (trial 59: `since
  // monday` was searched as words). NOW is a Wednesday: Monday is two days back.
  const mon = new Date(NOW).setHours(0, 0, 0, 0) - 2 * DAY;
  assertEquals(timeHint("redis since monday", NOW).hint?.from, mon);
  assertEquals(timeHint("redis since monday", NOW).hint?.to, NOW + 1);
  assertEquals(timeHint("deploy before monday", NOW).hint?.to, mon);
  assertEquals(timeHint("deploy after monday", NOW).hint?.from, mon + DAY);
  // Whole days, today left out (trial 59: noon to noon left out a session of the last day named).
  for (const [phrase, days] of [["2 days ago", [3, 0]], ["1 day ago", [2, 0]]] as const) {
    const h = timeHint(phrase, NOW)!.hint!;
    const midnight = new Date(NOW).setHours(0, 0, 0, 0);
    assertEquals([new Date(h.from).getHours(), new Date(h.to).getHours()], [0, 0], phrase);
    assertEquals(Math.round((midnight - h.from) / DAY), days[0], phrase);
    assertEquals(Math.round((midnight - h.to) / DAY), days[1], phrase);
  }
  const m = timeHint("what we did in march", NOW)!.hint!;
  assertEquals(new Date(m.from).getMonth(), 2);
  assertEquals(new Date(m.from).getFullYear(), 2026);
  const future = timeHint("the december release", NOW)!.hint!;
  assertEquals(new Date(future.from).getFullYear(), 2025, "a month not yet come is last year's");
});

Deno.test("a year typed after the month names that month of that year, and is no word", () => {
  // Trial 16: `redis in september 2025` read September 2026 and searched the word `2025`.
  const h = timeHint("redis in september 2025", NOW);
  assertEquals(h.rest.trim(), "redis");
  assertEquals(new Date(h.hint!.from).getFullYear(), 2025);
  assertEquals(new Date(h.hint!.from).getMonth(), 8);
  assertEquals(new Date(h.hint!.to).getMonth(), 9);
  assertEquals(h.hint!.words, "in september 2025");
  // A number that is no year stays a word of the query.
  assertEquals(timeHint("september 42 tests", NOW).rest.trim(), "42 tests");
});

Deno.test("timeHint leaves may the verb alone and finds nothing in plain words", () => {
  assertEquals(timeHint("it may fail", NOW).hint, undefined);
  assertEquals(timeHint("in may the build", NOW).hint !== undefined, true);
  assertEquals(timeHint("refactor the parser", NOW).hint, undefined);
});

Deno.test("timeFit is highest inside the window and falls with the distance", () => {
  const h = { from: NOW - 2 * DAY, to: NOW - DAY, words: "yesterday" };
  const inside = timeFit(h, NOW - 1.5 * DAY, NOW - 1.4 * DAY);
  // Inside, three times the weight of any session outside (at most 1 there).
  assertEquals(inside, 3);
  assert(timeFit(h, NOW - 0.9 * DAY, NOW - 0.8 * DAY) <= 1);
  assert(timeFit(h, NOW - 10 * DAY, NOW - 9 * DAY) > timeFit(h, NOW - 60 * DAY, NOW - 59 * DAY));
});

Deno.test("since a month runs to now; a short month name counts after in or before a year", () => {
  // Trial 16: `redis since september 2025` got September alone; `sept`, `Sep` were words.
  const since = timeHint("redis since september 2025", NOW).hint!;
  assertEquals([new Date(since.from).getFullYear(), new Date(since.from).getMonth()], [2025, 8]);
  assertEquals(since.to, NOW + 1);
  for (const q of ["redis in sept 2025", "redis Sep 2025", "redis sep, 2025"]) {
    const h = timeHint(q, NOW);
    assertEquals(h.rest.trim(), "redis", q);
    assertEquals([new Date(h.hint!.from).getMonth(), new Date(h.hint!.to).getMonth()], [8, 9], q);
  }
  assertEquals(new Date(timeHint("fix from in dec", NOW).hint!.from).getMonth(), 11);
  // A short name alone is a word (`jan` the person, `mar` the verb).
  assertEquals(timeHint("ask jan about the mar tests", NOW).hint, undefined);
});

Deno.test("weeks, months and years are the calendar's; before, after and from turn a window", () => {
  // Trial 16: on December 3, `last month` was October 2 to November 8.
  const now = new Date(2026, 11, 3, 12).getTime(); // a Thursday
  const at = (q: string) => {
    const h = timeHint(q, now).hint!;
    return [new Date(h.from).toDateString(), new Date(h.to - 1).toDateString()];
  };
  const day = (y: number, m: number, d: number) => new Date(y, m, d).toDateString();
  assertEquals(at("greeting last month"), [day(2026, 10, 1), day(2026, 10, 30)]);
  assertEquals(at("greeting this month"), [day(2026, 11, 1), day(2026, 11, 3)]);
  assertEquals(at("greeting last week"), [day(2026, 10, 23), day(2026, 10, 29)]);
  assertEquals(at("greeting this week"), [day(2026, 10, 30), day(2026, 11, 3)]);
  assertEquals(at("greeting last year"), [day(2025, 0, 1), day(2025, 11, 31)]);
  assertEquals(at("greeting this year"), [day(2026, 0, 1), day(2026, 11, 3)]);
  assertEquals(at("greeting before september 2025")[1], day(2025, 7, 31));
  assertEquals(at("greeting after september 2025"), [day(2025, 9, 1), day(2026, 11, 3)]);
  assertEquals(at("from august 2025"), [day(2025, 7, 1), day(2026, 11, 3)]);
  assertEquals(at("in aug. 2025"), [day(2025, 7, 1), day(2025, 7, 31)]);
  assertEquals(at("deploys in 2025"), [day(2025, 0, 1), day(2025, 11, 31)]);
  assertEquals(at("since 2025-09-01"), [day(2025, 8, 1), day(2026, 11, 3)]);
  assertEquals(at("on 2025-08-08"), [day(2025, 7, 8), day(2025, 7, 8)]);
  assertEquals(at("the last 30 days"), [day(2026, 10, 3), day(2026, 11, 3)]);
  // A year with no word before it is a word; `march` alone is the verb.
  assertEquals(timeHint("python 2025 wheels", now).hint, undefined);
  assertEquals(timeHint("march forward", now).hint, undefined);
  assertEquals(timeHint("march 2025 deploy", now).hint?.words, "march 2025");
});

Deno.test("a whole date typed alone is that day; one in a log line, a path or no calendar is text", () => {
  // Trial 57: `deja redis 2025-09-06` searched the date as text and matched nothing.
  const now = new Date(2026, 11, 3, 15, 0).getTime();
  const t = timeHint("redis 2025-09-06", now);
  assertEquals(t.hint?.words, "2025-09-06");
  assertEquals([t.hint?.from, t.hint?.to], [
    new Date(2025, 8, 6).getTime(),
    new Date(2025, 8, 7).getTime(),
  ]);
  assertEquals(t.rest.trim(), "redis");
  assertEquals(timeHint("2025-09-06, redis", now).hint?.words, "2025-09-06");
  for (
    const text of [
      "2025-09-06 12:01:33 ERROR redis down", // a log line's stamp
      "2025-09-06T12:01:33Z redis",
      "logs/2025-09-06.txt",
      "backup-2025-09-06",
      "v2025-09-06",
      "redis 2026-02-30",
    ]
  ) assertEquals(timeHint(text, now).hint, undefined, text);
});

Deno.test("a range runs from its first end to its last, and a day of a month is a day", () => {
  // Trial 17b: `from august to september`, `between march and may 2026` and `january 13th`
  // were searched as words (or read only the last month).
  const at = new Date(2026, 11, 3, 15, 0).getTime(); // December 3, 2026
  const ymd = (t: number) => {
    const d = new Date(t);
    return [d.getFullYear(), d.getMonth() + 1, d.getDate()];
  };
  const read = (q: string) => {
    const h = timeHint(q, at);
    return { rest: h.rest.trim(), from: ymd(h.hint!.from), to: ymd(h.hint!.to) };
  };
  assertEquals(read("from august to september tests"), {
    rest: "tests",
    from: [2026, 8, 1],
    to: [2026, 10, 1],
  });
  assertEquals(read("between march and may 2026 tests").from, [2026, 3, 1]);
  assertEquals(read("between march and may 2026 tests").to, [2026, 6, 1]);
  // The first end takes a year earlier rather than start after the last.
  assertEquals(read("from november to february 2026 x").from, [2025, 11, 1]);
  assertEquals(read("from november to february x").to, [2026, 3, 1]);
  assertEquals(read("tests between jan 13th and jan 20th"), {
    rest: "tests",
    from: [2026, 1, 13],
    to: [2026, 1, 21],
  });
  assertEquals(read("from 2025-08 to 2025-10 x").to, [2025, 11, 1]);
  assertEquals(read("until march redis"), { rest: "redis", from: [1970, 1, 1], to: [2026, 4, 1] });
  assertEquals(read("january 13th deploy"), {
    rest: "deploy",
    from: [2026, 1, 13],
    to: [2026, 1, 14],
  });
  assertEquals(read("13 january 2026 x").from, [2026, 1, 13]);
  assertEquals(read("dec 5 build").from, [2025, 12, 5], "a day not yet come is last year's");
  assertEquals(read("in august of 2025 x"), { rest: "x", from: [2025, 8, 1], to: [2025, 9, 1] });
  // `may` and `march` with a number alone stay words; after `on` they are a day.
  assertEquals(timeHint("it may 5 times", at).hint, undefined);
  assertEquals(timeHint("march 3 steps", at).hint, undefined);
  assertEquals(read("on may 5 x").from, [2026, 5, 5]);
});

Deno.test("time words no exact match falls in: the sessions holding the words in other forms join", () => {
  const now = new Date(2026, 11, 3, 12).getTime(); // a Thursday
  const day = 86400e3;
  const history: MemSession[] = [
    {
      id: "s-old",
      at: now - 13 * day,
      events: [["user", "the build is broken"], [
        "assistant",
        "Fixed the build; two tests still fail.",
      ]],
    },
    {
      id: "s-week",
      at: now - 6 * day,
      events: [["user", "build fails again after the merge"], ["assistant", "Reverted the merge."]],
    },
    { id: "s-other", at: now - 2 * day, events: [["user", "add a dark mode toggle"]] },
  ];
  return withMemIndex(history, (s) => {
    const r = search(s, "why did the build fail last week", { now });
    assertEquals(r.results.map((x) => x.id)[0], "s-week", r.results.map((x) => x.id).join(" "));
    assertEquals(r.tier, "stemmed");
    // Without it only the exact match of the week before is listed.
    const off = search(s, "why did the build fail last week", { now, ablate: ["timeForms"] });
    assertEquals(off.results.map((x) => x.id), ["s-old"]);
    // An exact match inside the window: the forms are not read.
    const inside = search(s, "why did the build fail two weeks ago", { now });
    assertEquals(inside.results.map((x) => x.id), ["s-old"]);
    // A window neither holds: the exact match alone, no form ranked above it (trial 21).
    const empty = search(s, "why did the build fail in march", { now });
    assertEquals([empty.tier, empty.results.map((x) => x.id)], ["exact", ["s-old"]]);
  });
});

Deno.test("every kind of time phrase is still read, typed in any case, and text with none is left whole", () => {
  // One phrase per rule: text holding none of the rules' cue words skips them (a cold search
  // then compiles none of their expressions), so each rule's cue must be one of those words.
  const phrases = [
    "from march to may 2026",
    "between jan 13th and jan 20th",
    "until friday",
    "up to 2025-10-01",
    "on 13 january 2026",
    "Sept 8th",
    "earlier today",
    "this morning",
    "last night",
    "two weeks ago",
    "in the past 3 days",
    "this week",
    "past week",
    "LAST WEEK",
    "this month",
    "past month",
    "last month",
    "this year",
    "past year",
    "last year",
    "lately",
    "since 2025-09-01",
    "back in August",
    "october",
    "in 2025",
    "on Tuesday",
  ];
  for (const p of phrases) {
    const h = timeHint(`redis ${p} restart`, NOW);
    assert(h.hint, `no time read in "${p}"`);
    assertEquals(h.rest.replace(/\s+/g, " ").trim(), "redis restart", p);
  }
  for (const q of ["quokkafrost", "ECONNREFUSED 127.0.0.1:6379", "may the build pass", "up"]) {
    assertEquals(timeHint(q, NOW), { rest: q });
  }
});

Deno.test("last <this month> is the one a year ago; in <this month> is this one", () => {
  // Trial 42: on December 5, `last december` searched this December.
  const dec5 = new Date(2026, 11, 5, 12, 0).getTime();
  const last = timeHint("redis last december", dec5).hint!;
  assertEquals([new Date(last.from).getFullYear(), new Date(last.from).getMonth()], [2025, 11]);
  const inDec = timeHint("redis in december", dec5).hint!;
  assertEquals([new Date(inDec.from).getFullYear(), new Date(inDec.from).getMonth()], [2026, 11]);
  const lastNov = timeHint("redis last november", dec5).hint!;
  assertEquals(new Date(lastNov.from).getFullYear(), 2026);
});

Deno.test("a day no calendar holds is no time, and February 29 without its year is the last one", () => {
  // Trial 60: `deja last 2026-02-30` and `feb 30` listed March 2, `2025-06-31` July 1.
  const now = new Date(2026, 11, 6, 4, 25).getTime();
  for (
    const text of [
      "on 2026-02-30",
      "on feb 30",
      "on 2025-06-31",
      "on 2026-13-01",
      "x on 2026-02-32",
    ]
  ) {
    assertEquals(timeHint(text, now).hint, undefined, text);
  }
  // Nor after until, since, before, after, nor read as its year (trial 61).
  for (
    const text of ["until 2026-02-30", "until 2026-04-31", "since 2026-02-30", "after 2025-06-31"]
  ) {
    assertEquals(timeHint(text, now).hint, undefined, text);
  }
  assertEquals(timeHint("since 2026", now).hint?.from, new Date(2026, 0, 1).getTime());
  // With a time of day, that minute (trial 62: `since 2026-02-28T10:00` was read as February).
  assertEquals(
    timeHint("since 2026-02-28T10:00", now).hint?.from,
    new Date(2026, 1, 28, 10).getTime(),
  );
  assertEquals(timeHint("since 2026-02-28T10:00Z", now).hint?.from, Date.UTC(2026, 1, 28, 10));
  assertEquals(timeHint("since 2026-02-30T10:00", now).hint, undefined);
  assertEquals(timeHint("on feb 29", now).hint?.from, new Date(2024, 1, 29).getTime());
  assertEquals(timeHint("on 2024-02-29", now).hint?.from, new Date(2024, 1, 29).getTime());
  assertEquals(timeHint("on 2025-02-28", now).hint?.from, new Date(2025, 1, 28).getTime());
});

Deno.test("early, mid and late in a month name its first, middle and last ten days", () => {
  // Trial 90 F6: `devcontainer in early march` searched `early` and `march` as words.
  const now = new Date(2026, 11, 6, 12).getTime();
  const at = (q: string) => {
    const h = timeHint(q, now).hint;
    return h && [new Date(h.from).toDateString(), new Date(h.to).toDateString(), h.words];
  };
  assertEquals(at("devcontainer in early march"), [
    new Date(2026, 2, 1).toDateString(),
    new Date(2026, 2, 11).toDateString(),
    "in early march",
  ]);
  assertEquals(at("redis mid-august 2025")?.slice(0, 2), [
    new Date(2025, 7, 11).toDateString(),
    new Date(2025, 7, 21).toDateString(),
  ]);
  assertEquals(at("late feb")?.slice(0, 2), [
    new Date(2026, 1, 21).toDateString(),
    new Date(2026, 2, 1).toDateString(),
  ]);
  assertEquals(timeHint("early adopters of the api", now).hint, undefined);
});

Deno.test("a weekday before a month's day picks the year it fell on that weekday", () => {
  // Trial 92 F12: `Fri Sep  5` of a pasted terminal banner was read as 2026's, a Saturday.
  const now = new Date(2026, 11, 6, 12).getTime();
  const from = (q: string) => new Date(timeHint(q, now).hint!.from).toDateString();
  assertEquals(
    from("Last login: Fri Sep  5 09:47:40 on ttys000"),
    new Date(2025, 8, 5).toDateString(),
  );
  assertEquals(from("Wed Mar 4 docker ps"), new Date(2026, 2, 4).toDateString());
  // A year typed stays the year.
  assertEquals(from("friday sep 5 2026"), new Date(2026, 8, 5).toDateString());
});
