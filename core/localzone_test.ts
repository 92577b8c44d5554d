import { assert, assertEquals } from "../tests/_assert.ts";
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "../tests/_tmp.ts";
import { parseRule, parseTzif, ruleOffset, zoneOf, zoneOffset, zoneWarning } from "./localzone.ts";
import { makeEnv } from "./runtime.ts";
import { runMain } from "../tests/_cli_io.ts";

const at = (iso: string) => Date.parse(iso) / 1000;
const hours = (s: number) => s / 3600;

Deno.test("a POSIX TZ rule gives standard and daylight time on the right side of each change", () => {
  const us = parseRule("EST5EDT,M3.2.0,M11.1.0")!;
  assertEquals(us.std, -5 * 3600);
  assertEquals(us.dst, -4 * 3600);
  // 2026: daylight time from March 8 02:00 EST (07:00 UTC) to November 1 02:00 EDT (06:00 UTC).
  assertEquals(hours(ruleOffset(us, at("2026-03-08T06:59:59Z"))), -5);
  assertEquals(hours(ruleOffset(us, at("2026-03-08T07:00:00Z"))), -4);
  assertEquals(hours(ruleOffset(us, at("2026-11-01T05:59:59Z"))), -4);
  assertEquals(hours(ruleOffset(us, at("2026-11-01T06:00:00Z"))), -5);
  // Central Europe: the last Sunday of March at 01:00 UTC, the last of October at 01:00 UTC.
  const eu = parseRule("CET-1CEST,M3.5.0,M10.5.0/3")!;
  assertEquals(hours(ruleOffset(eu, at("2026-03-29T00:59:00Z"))), 1);
  assertEquals(hours(ruleOffset(eu, at("2026-03-29T01:00:00Z"))), 2);
  assertEquals(hours(ruleOffset(eu, at("2026-10-25T00:59:00Z"))), 2);
  assertEquals(hours(ruleOffset(eu, at("2026-10-25T01:00:00Z"))), 1);
  // The south: daylight time spans the new year (Sydney, October 4 2026 to April 4 2027).
  const syd = parseRule("AEST-10AEDT,M10.1.0,M4.1.0/3")!;
  assertEquals(hours(ruleOffset(syd, at("2026-07-01T00:00:00Z"))), 10);
  assertEquals(hours(ruleOffset(syd, at("2027-01-01T00:00:00Z"))), 11);
  assertEquals(hours(ruleOffset(syd, at("2026-10-03T15:59:00Z"))), 10);
  assertEquals(hours(ruleOffset(syd, at("2026-10-03T16:00:00Z"))), 11);
  // Fixed offsets, quoted names, minutes, and a Julian day.
  assertEquals(parseRule("<+0530>-5:30")!.std, 5.5 * 3600);
  assertEquals(parseRule("<-03>3")!.std, -3 * 3600);
  assertEquals(parseRule("UTC0"), { std: 0 });
  const j = parseRule("XST5XDT,J60,J300")!;
  assertEquals(hours(ruleOffset(j, at("2028-03-01T06:00:00Z"))), -5, "J60 is March 1, leap or not");
  assertEquals(hours(ruleOffset(j, at("2028-03-01T07:00:00Z"))), -4);
  for (
    const bad of ["", "5", "EST", "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.2.0", "EST5EDT,Q1,Q2"]
  ) {
    assertEquals(parseRule(bad), undefined, bad);
  }
});

/** A TZif v2 file: `types` (offsets), transitions to them, and a footer rule. */
function tzif(transitions: [number, number][], types: number[], footer: string): Uint8Array {
  const header = (timecnt: number, typecnt: number, charcnt: number) => {
    const b = new Uint8Array(44);
    b.set([0x54, 0x5a, 0x69, 0x66, 0x32]); // "TZif2"
    const dv = new DataView(b.buffer);
    dv.setUint32(20 + 12, timecnt);
    dv.setUint32(20 + 16, typecnt);
    dv.setUint32(20 + 20, charcnt);
    return b;
  };
  const block = (size: 4 | 8) => {
    const n = transitions.length;
    const b = new Uint8Array(n * size + n + types.length * 6 + 4);
    const dv = new DataView(b.buffer);
    transitions.forEach(([t], k) => {
      if (size === 8) dv.setBigInt64(k * size, BigInt(t));
      else dv.setInt32(k * size, t);
    });
    transitions.forEach(([, type], k) => (b[n * size + k] = type));
    types.forEach((off, k) => dv.setInt32(n * size + n + k * 6, off));
    b.set([0x58, 0x58, 0x58, 0], n * size + n + types.length * 6); // "XXX\0"
    return b;
  };
  const parts = [
    header(transitions.length, types.length, 4),
    block(4),
    header(transitions.length, types.length, 4),
    block(8),
    new TextEncoder().encode(`\n${footer}\n`),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) (out.set(p, o), o += p.length);
  return out;
}

Deno.test("a TZif file's transitions answer up to its last one, and its footer rule after it", () => {
  // Offset +1 h until 2000, +3 h from 2000 to 2010, then the footer's central European rule.
  const z = parseTzif(
    tzif(
      [[at("2000-01-01T00:00:00Z"), 1], [at("2010-01-01T00:00:00Z"), 0]],
      [3600, 10800],
      "CET-1CEST,M3.5.0,M10.5.0/3",
    ),
  )!;
  assert(z);
  assertEquals(hours(zoneOffset(z, at("1990-06-01T00:00:00Z"))), 1, "before the first: type 0");
  assertEquals(hours(zoneOffset(z, at("2005-06-01T00:00:00Z"))), 3);
  assertEquals(hours(zoneOffset(z, at("2026-07-01T00:00:00Z"))), 2, "the footer's summer time");
  assertEquals(hours(zoneOffset(z, at("2026-12-01T00:00:00Z"))), 1);
  // A file with no transitions at all is its footer (a "slim" file of a fixed zone).
  const fixed = parseTzif(tzif([], [19800], "<+0530>-5:30"))!;
  assertEquals(hours(zoneOffset(fixed, at("2026-07-01T00:00:00Z"))), 5.5);
  // Not a zone file, or one cut short: none (the runtime answers then).
  assertEquals(
    parseTzif(new TextEncoder().encode("not a zone file at all, just words ........")),
    undefined,
  );
  const whole = tzif([[at("2000-01-01T00:00:00Z"), 1]], [3600, 7200], "CET-1");
  assertEquals(parseTzif(whole.subarray(0, 60)), undefined);
  assertEquals(parseTzif(tzif([], [0], "CET-1CEST,Q9,Q9")), undefined, "a footer it cannot read");
});

Deno.test("TZ names a zone to read; a rule, a path or an empty TZ is left to the runtime", () => {
  assertEquals(zoneOf("", "/nonexistent"), undefined);
  assertEquals(zoneOf("EST5EDT,M3.2.0,M11.1.0", "/nonexistent"), undefined);
  assertEquals(zoneOf("/etc/localtime"), undefined);
  assertEquals(zoneOf("../../etc/passwd"), undefined);
  assertEquals(zoneOf("Europe/Nowhere", "/nonexistent"), undefined);
});

const ZONEINFO = "/usr/share/zoneinfo";
const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  "Australia/Sydney",
  "Asia/Kolkata",
  "America/Sao_Paulo",
  "Africa/Casablanca",
  "Pacific/Chatham",
  "America/Santiago",
  "Asia/Tehran",
  "Europe/Dublin",
  "Pacific/Apia",
  "Antarctica/Troll",
  ":Asia/Tokyo",
  "UTC",
];

Deno.test({
  name:
    "the local offset read from the zone files is the runtime's own, at every hour-ish from 1975 to 2060",
  // The system's zone files (Debian's tzdata) are what this compares; without them it cannot.
  ignore: !existsSync(`${ZONEINFO}/Europe/Berlin`),
  fn() {
    const script = `
      import { localOffsetMs } from ${
      JSON.stringify(new URL("./localzone.ts", import.meta.url).href)
    };
      let bad = 0, n = 0;
      for (let t = Date.UTC(1975, 0, 1); t < Date.UTC(2060, 0, 1); t += 3600e3 * 7 + 123457) {
        n++;
        if (localOffsetMs(t) !== -new Date(t).getTimezoneOffset() * 60000) bad++;
      }
      console.log(JSON.stringify({ n, bad }));`;
    const home = tempDir("deja-tz-");
    for (const tz of ZONES) {
      const r = spawnSync(Deno.execPath(), ["eval", "--ext=ts", script], {
        env: {
          // Its own module cache: the script imports local files and node: built-ins only.
          DENO_DIR: join(home, "deno"),
          HOME: home,
          XDG_CACHE_HOME: join(home, ".cache"),
          TZ: tz,
          NO_COLOR: "1",
        },
        encoding: "utf8",
      });
      assertEquals(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout.trim().split("\n").pop()!);
      assert(out.n > 100_000, tz);
      assertEquals([tz, out.bad], [tz, 0]);
    }
  },
});

Deno.test({
  name: "a TZ the runtimes read as UTC (a rule, a path, an unknown name) is said once, with a hint",
  ignore: !existsSync(`${ZONEINFO}/Europe/Berlin`),
  async fn() {
    // Trial 42: `TZ=IST-5:30` showed every time 5.5 hours off, with no word of why.
    const home = tempDir("deja-tzwarn-");
    const env = (tz?: string) =>
      makeEnv({
        HOME: home,
        DEJA_HOME: join(home, "deja"),
        DEJA_NO_REFRESH: "1",
        ...(tz === undefined ? {} : { TZ: tz }),
      });
    for (
      const tz of ["EST5EDT,M3.2.0,M11.1.0", "IST-5:30", `${ZONEINFO}/Asia/Kolkata`, "Mars/Base"]
    ) {
      const w = zoneWarning(env(tz)) ?? "";
      assert(w.startsWith(`deja: TZ=${tz} is not a time zone name`), tz);
      assert(w.includes("times are shown in UTC") && w.includes("hint: "), w);
    }
    for (
      const tz of [undefined, "", "UTC", "UTC0", "America/New_York", ":Europe/Berlin", "EST5EDT"]
    ) {
      assertEquals(zoneWarning(env(tz)), undefined, String(tz));
    }
    // Every command says it (once), on stderr: its output is as it was.
    const r = await runMain(env("IST-5:30"), ["last"]);
    assertEquals(r.err.split("is not a time zone name").length, 2, r.err);
    const plain = await runMain(env("Asia/Kolkata"), ["last"]);
    assertEquals(plain.err.includes("time zone"), false, plain.err);
  },
});
