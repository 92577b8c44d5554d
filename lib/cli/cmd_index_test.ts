import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../tests/_assert.ts";
import { claudeLines, indexSessions, type MemoryIndex } from "../../tests/_memory.ts";
import { captureIO, runMain, withVars } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CR, csi } from "./output.ts";
import {
  indexCmd,
  indexData,
  nowAndThen,
  onInterrupt,
  parseIndex,
  PLAIN_PROGRESS_MS,
  PROGRESS_MS,
  RESUMED_LINE,
  throttled,
} from "./cmd_index.ts";

const OLD = "1dc00000-1111-4222-8333-444455556666";

function fixture() {
  return indexSessions([
    { id: OLD, cwd: "/w/app", start: "2026-11-01T10:00:00Z", turns: [{ user: "first work" }] },
  ]);
}

/** A Claude Code session written after the fixture was indexed. */
function addSession(ix: MemoryIndex, id: string): void {
  const dir = join(ix.root, "claude", "-w-new");
  mkdirSync(dir, { recursive: true });
  const s = { id, cwd: "/w/new", start: "2026-11-03T10:00:00Z", turns: [{ user: "later work" }] };
  writeFileSync(join(dir, `${id}.jsonl`), claudeLines(s).join("\n") + "\n");
}

const args = (values: Record<string, unknown> = {}) => ({
  values: values as Record<string, string | boolean | string[]>,
  positionals: [],
});

Deno.test("index parses its switches, --wait in ms, and refuses --interval without --watch", () => {
  const d = parseIndex(args({ rebuild: true, harness: ["claude"], wait: "3" }));
  assertEquals([d.rebuild, d.only, d.waitMs, d.watch, d.quiet], [
    true,
    ["claude"],
    3000,
    false,
    false,
  ]);
  assertEquals(parseIndex(args()).waitMs, undefined);
  assertEquals(parseIndex(args({ watch: true, interval: "2" })).pollMs, 2000);
  assertThrows(() => parseIndex(args({ interval: "5" })), DejaError);
  const e = assertThrows(() => parseIndex(args({ harness: ["nope"] })), DejaError);
  assertEquals((e as DejaError).exitCode, 2);
});

Deno.test("index's run reads a new store and reports the totals; a second run is up to date", async () => {
  const ix = await fixture();
  try {
    const NEW = "1dcb0000-1111-4222-8333-444455556666";
    addSession(ix, NEW);
    const d = await indexData(ix.env, parseIndex(args()));
    const claude = d.res.harnesses.find((h) => h.harness === "claude")!;
    assertEquals([claude.read, claude.sessions, d.code, d.embedded], [1, 1, 0, null]);
    assertEquals(d.totals, { sessions: 2, events: 2 });
    const again = await indexData(ix.env, parseIndex(args({ json: true })));
    assertEquals(again.res.harnesses.reduce((n, h) => n + h.read, 0), 0);
    assertEquals(again.totals, undefined, "--json leaves the totals unread");
  } finally {
    ix.cleanup();
  }
});

Deno.test("a rebuild a signal interrupted is finished by the next plain run, not answered 'up to date' (trial 123 F2)", async () => {
  const ix = await fixture();
  try {
    const NEW = "1dcd0000-1111-4222-8333-444455556666";
    addSession(ix, NEW);
    assertEquals((await indexData(ix.env, parseIndex(args()))).totals?.sessions, 2);
    rmSync(join(ix.root, "claude", "-w-new", `${NEW}.jsonl`));
    const kept = await indexData(ix.env, parseIndex(args()));
    assertEquals([kept.res.gone?.length, kept.totals?.sessions], [1, 2], "a plain run keeps it");
    // The rebuild ends at its first store, as a signal ends the process there.
    await assertRejects(() =>
      indexData(ix.env, parseIndex(args({ rebuild: true })), {
        progress: () => {
          throw new Error("interrupted");
        },
      })
    );
    const said = captureIO(ix.env, false);
    assertEquals(await indexCmd.run(args(), said.io), 0);
    assertStringIncludes(said.err(), RESUMED_LINE);
    assertStringIncludes(
      said.err(),
      "the rebuild dropped 1 session no store returns now (1dcd0000",
    );
    assertStringIncludes(said.out(), "the index holds 1 session, 1 event");
    const io = captureIO(ix.env, false);
    assertEquals(await indexCmd.run(args(), io.io), 0);
    assertStringIncludes(io.out(), "up to date (1 session, 1 event)", "the mark went with it");
    assertEquals(io.err(), "");
  } finally {
    ix.cleanup();
  }
});

Deno.test("index prints colour and progress on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  try {
    addSession(ix, "1dcc0000-1111-4222-8333-444455556666");
    const tty = captureIO(ix.env, true);
    assertEquals(await indexCmd.run(args(), tty.io), 0);
    assertStringIncludes(tty.out(), csi("1m") + "claude");
    assertStringIncludes(tty.out(), "1 session written; the index holds 2 sessions, 2 events\n");
    // Counts of one are singular (new user, 2026-12: "1 stores").
    assert(/2 stores,\s+1 read,\s+1 session,\s+1 event\n/.test(tty.out()), tty.out());
    assertStringIncludes(tty.err(), `${CR}${csi("2K")}`, "the progress line is cleared");

    const pipe = captureIO(ix.env, false);
    assertEquals(await indexCmd.run(args(), pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assertStringIncludes(pipe.out(), "up to date (2 sessions, 2 events)\n");
    assertEquals(pipe.err(), "");

    const quiet = captureIO(ix.env, false);
    assertEquals(await indexCmd.run(args({ quiet: true }), quiet.io), 0);
    assertEquals([quiet.out(), quiet.err()], ["", ""]);

    const json = captureIO(ix.env, false);
    assertEquals(await indexCmd.run(args({ json: true }), json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(Object.keys(doc), ["index", "ms", "harnesses", "excluded", "complete"]);
    assertEquals(doc.complete, true);
    assertEquals(doc.harnesses.find((h: { harness: string }) => h.harness === "claude").found, 2);
  } finally {
    ix.cleanup();
  }
});

Deno.test("index through main reports a usage error with its hint and exit code", async () => {
  const ix = await fixture();
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    const r = await runMain(env, ["index", "--interval", "5"]);
    assertEquals(r.out, "");
    assertEquals(
      r.err,
      "deja: --interval applies only to --watch\nhint: deja index --watch --interval 5\n",
    );
    assertEquals(r.code, 2);
    const h = await runMain(env, ["index", "--harness", "nope"]);
    assertEquals([h.code, h.err.split("\n")[0]], [2, "deja: unknown harness 'nope'"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("the progress line is redrawn at most every PROGRESS_MS, and when the harness changes", () => {
  // Trial 26: 4,290 redraws (128 KB of escapes) for one run of small stores.
  let t = 0;
  const drawn: string[] = [];
  const draw = throttled((l) => drawn.push(l), () => t);
  for (let i = 1; i <= 1000; i++) {
    draw(`claude ${i}/1000`);
    t += 1;
  }
  draw("codex 1/3");
  assertEquals(drawn.length, Math.ceil(1000 / PROGRESS_MS) + 1);
  assertEquals(drawn[0], "claude 1/1000");
  assertEquals(drawn.at(-1), "codex 1/3");
});

Deno.test("a big store's read says how far it is while it is read, the bytes growing (trial 122 F2)", async () => {
  const ix = await fixture();
  try {
    const BIG = "1dcd0000-1111-4222-8333-444455556666";
    const dir = join(ix.root, "claude", "-w-big");
    mkdirSync(dir, { recursive: true });
    // ~12 MiB of turns, parsed in several chunks.
    const turns = Array.from(
      { length: 600 },
      (_, i) => ({ user: `turn ${i} ` + "word ".repeat(4000) }),
    );
    const s = { id: BIG, cwd: "/w/big", start: "2026-11-03T10:00:00Z", turns };
    writeFileSync(join(dir, `${BIG}.jsonl`), claudeLines(s).join("\n") + "\n");
    const lines: string[] = [];
    await indexData(ix.env, parseIndex(args()), { progress: (l) => lines.push(l) });
    const re = new RegExp(`^claude \\d/2 · ${BIG}\\.jsonl (\\d+)/(\\d+) MiB$`);
    const read = lines.map((l) => re.exec(l)).filter((m) => m !== null);
    assert(read.length >= 2, lines.join("\n"));
    const at = read.map((m) => Number(m![1]));
    assert(at.every((a, i) => i === 0 || a >= at[i - 1]), at.join(" "));
    assert(at[0] < at.at(-1)!, at.join(" "));
    assertEquals(Number(read[0]![2]) >= 8, true);
  } finally {
    ix.cleanup();
  }
});

Deno.test("stderr that is no terminal gets a plain line every PLAIN_PROGRESS_MS, none for a short run (trial 122 F2)", () => {
  let t = 0;
  const said: string[] = [];
  const say = nowAndThen((l) => said.push(l), () => t);
  for (; t < PLAIN_PROGRESS_MS - 1; t += 100) say(`claude ${t}/9`);
  assertEquals(said, [], "a short run says nothing");
  for (; t <= 3 * PLAIN_PROGRESS_MS; t += 100) say(`claude 7/9 · s.jsonl ${t}/99 MiB`);
  assertEquals(said.length, 3);
  assertEquals(said[0], `deja: indexing claude 7/9 · s.jsonl ${PLAIN_PROGRESS_MS}/99 MiB (10 s)\n`);
});

Deno.test("a pipe's line comes every PLAIN_PROGRESS_MS by the clock, through one long store and the steps after the stores (trial 123 F3)", async () => {
  let t = 0;
  const said: string[] = [];
  const say = nowAndThen((l) => said.push(l), () => t);
  say("claude 1/1 · big.jsonl 0/305 MiB"); // its store's start, then nothing new for 25 s
  for (; t <= 25_000; t += 1_000) say.tick(); // the run's timer
  assertEquals(said, [
    "deja: indexing claude 1/1 · big.jsonl 0/305 MiB (10 s)\n",
    "deja: indexing claude 1/1 · big.jsonl 0/305 MiB (20 s)\n",
  ]);
  const quiet = nowAndThen((l) => said.push(l), () => t);
  t += 30_000;
  quiet.tick();
  assertEquals(said.length, 2, "no line before the run has one");
  // The steps after the stores give the line their turn too.
  const ix = await fixture();
  try {
    const lines: string[] = [];
    await indexData(ix.env, parseIndex(args({ rebuild: true })), {
      progress: (l) => lines.push(l),
    });
    assert(lines.includes("finishing · merging the text index"), lines.join("\n"));
  } finally {
    ix.cleanup();
  }
});

Deno.test("a signal while the stores are read ends the line and says what was kept, exit 128+signal (trial 122 F4)", async () => {
  const io = captureIO({ get: () => undefined } as never, true);
  let exited: (code: number) => void = () => {};
  const code = new Promise<number>((r) => (exited = r));
  const off = onInterrupt(io.io, true, (c) => exited(c));
  // Keeps the event loop alive for the signal, as the run does (no time is measured).
  const alive = setInterval(() => {}, 1000);
  try {
    io.io.err(`${CR}${csi("2K")}indexing claude 3/9`);
    Deno.kill(Deno.pid, "SIGHUP"); // (the test runner keeps SIGINT for itself)
    assertEquals(await code, 129);
  } finally {
    clearInterval(alive);
    off();
  }
  assertEquals(
    io.err(),
    `${CR}${csi("2K")}indexing claude 3/9${CR}${csi("2K")}deja: interrupted; the stores indexed ` +
      `before it are kept, and 'deja index' goes on from there\n`,
  );
});
