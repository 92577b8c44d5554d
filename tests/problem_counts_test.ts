/**
 * `deja index`, `deja sources` and `deja doctor` say each problem once and
 * count it the same way (a fresh-user trial on copies of the real stores):
 * records a harness wrote in a shape deja skips are no damage (Crush 0.x's
 * nameless streamed tool_calls, skipped before they were joined, made `doctor`
 * exit 1 on an untouched store); a
 * link to nothing or a FIFO holds no store (information, not exit 3); a store
 * that failed is not "read"; a store deja may not read counts as unreadable,
 * not failed; a store with damaged pages is named with what could not be read.
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { runMain } from "./_cli_io.ts";
import { claudeStore } from "./_claude_store.ts";
import { REAL } from "./_crush_live.ts";
import { indexPath, Store } from "../lib/store.ts";
import { storeProblem } from "../lib/store_damage.ts";
import { isDamage, STALE_PARTIAL_MS } from "../lib/skips.ts";
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";

type Env = ReturnType<typeof testEnv>;

/** A Crush data dir whose projects.json names one project per `dbs` entry (name → bytes). */
function crushWorld(root: string, dbs: Record<string, Uint8Array>): Record<string, string> {
  const data = join(root, "crush-data");
  mkdirSync(data, { recursive: true });
  const projects = Object.entries(dbs).map(([name, bytes]) => {
    const proj = join(root, "projects", name);
    mkdirSync(join(proj, ".crush"), { recursive: true });
    writeFileSync(join(proj, ".crush", "crush.db"), bytes);
    return { path: proj, data_dir: join(proj, ".crush"), last_accessed: "2026-11-01T00:00:00Z" };
  });
  writeFileSync(join(data, "projects.json"), JSON.stringify({ projects }));
  return { DEJA_CRUSH_ROOT: data };
}

function envOf(root: string, vars: Record<string, string>): Env {
  return testEnv(root, { ...vars, DEJA_HOME: join(root, "deja"), DEJA_NO_REFRESH: "1" });
}

async function json(env: Env, args: string[]) {
  return JSON.parse((await runMain(env, [...args, "--json"])).out);
}

function harness(doc: { harnesses: Array<{ harness: string }> }, id: string) {
  return doc.harnesses.find((h) => h.harness === id) as Record<string, unknown> & {
    harness: string;
  };
}

const K3S = join(REAL, "k3s-subagent-summary-0627.db");

Deno.test({
  name: "doctor exits 0 on an untouched real Crush store holding nameless streamed tool_calls",
  ignore: !existsSync(K3S),
  fn: async () => {
    const root = tempDir("deja-counts-shape-");
    try {
      const env = envOf(root, crushWorld(root, { k3s: readFileSync(K3S) }));
      assertEquals((await runMain(env, ["index"])).code, 0);
      const src = harness(await json(env, ["sources"]), "crush");
      // The two nameless tool_calls (streamed fragments) are joined to their call: nothing
      // skipped (one long event kept shortened is counted, no loss).
      assertEquals([src.skipped ?? {}, src.damaged], [{ cut_long: 1 }, 0]);
      const r = await runMain(env, ["doctor"]);
      assertEquals([r.code, r.err], [0, ""]);
      const doc = await json(env, ["doctor"]);
      assertEquals([doc.problems, doc.index.damaged], [[], []]);
      assert(!isDamage("bad_shape") && isDamage("corrupt") && isDamage("malformed_json"));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
});

Deno.test("a FIFO and a link to nothing among Claude stores are not read, said once, no error", async () => {
  const root = tempDir("deja-counts-fifo-");
  try {
    const claude = join(root, "claude");
    mkdirSync(join(claude, "p"), { recursive: true });
    claudeStore(join(claude, "p"), "10000000-1111-4222-8333-444455556666", 2);
    claudeStore(join(claude, "p"), "20000000-1111-4222-8333-444455556666", 2);
    assertEquals(spawnSync("mkfifo", [join(claude, "p", "fifo.jsonl")]).status, 0);
    symlinkSync(join(root, "nowhere.jsonl"), join(claude, "p", "dangling.jsonl"));
    const env = envOf(root, { DEJA_CLAUDE_ROOT: claude });

    const idx = await runMain(env, ["index"]);
    assertEquals(idx.code, 0, idx.out + idx.err);
    assert(!idx.out.includes("error:"), idx.out);
    // Two stores found, two read: the entries that hold no store are not among them.
    assert(/claude +2 stores, +2 read/.test(idx.out), idx.out);
    const ij = harness(await json(env, ["index"]), "claude");
    assertEquals([ij.errors, (ij.not_read as string[]).length], [[], 2]);

    const src = harness(await json(env, ["sources"]), "claude");
    assertEquals(
      [src.stores, src.indexed, src.errors, src.unreadable, (src.not_read as string[]).length],
      [2, 2, 0, 0, 2],
    );
    const plain = (await runMain(env, ["sources"])).out;
    assert(!/failed|damaged|last error/.test(plain), plain);
    const verbose = (await runMain(env, ["sources", "--verbose"])).out;
    assertEquals(verbose.split("fifo.jsonl").length - 1, 1, verbose);
    assertEquals(verbose.split("dangling.jsonl").length - 1, 1, verbose);

    const doc = await runMain(env, ["doctor"]);
    assertEquals([doc.code, doc.err], [0, ""]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test({
  name:
    "a store that is not a database is failed, not read, and said once by index, sources and doctor",
  ignore: !existsSync(K3S),
  fn: async () => {
    const root = tempDir("deja-counts-notdb-");
    try {
      const env = envOf(
        root,
        crushWorld(root, { good: readFileSync(K3S), bad: new Uint8Array(8192).fill(0x58) }),
      );
      const bad = join(root, "projects", "bad", ".crush", "crush.db");
      const idx = await runMain(env, ["index"]);
      assertEquals(idx.code, 3);
      assert(/crush +2 stores, +1 read/.test(idx.out), idx.out);

      const src = harness(await json(env, ["sources"]), "crush");
      assertEquals([src.stores, src.indexed, src.errors, src.unreadable], [2, 1, 1, 0]);
      assert(String(src.last_error).startsWith(`${bad}: `));
      assert(
        src.bytes as number >= readFileSync(K3S).length + 8192,
        "the failed store's size counts",
      );

      const r = await runMain(env, ["doctor"]);
      assertEquals(r.code, 1);
      assert(r.err.includes("found 1 problem: crush 1 failed store"), r.err);
      assertEquals(r.out.split(bad).length - 1, 1, r.out);
      const doc = await json(env, ["doctor"]);
      assertEquals(doc.problems, ["crush 1 failed store"]);
      assertEquals(doc.index.harness_errors.length, 1);
      assertEquals(doc.index.damaged[0].errors.length, 1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
});

Deno.test("a store whose last read was denied permission counts as unreadable everywhere", async () => {
  const root = tempDir("deja-counts-denied-");
  try {
    const claude = join(root, "claude");
    mkdirSync(join(claude, "p"), { recursive: true });
    claudeStore(join(claude, "p"), "10000000-1111-4222-8333-444455556666", 2);
    const denied = claudeStore(join(claude, "p"), "20000000-1111-4222-8333-444455556666", 2);
    const env = envOf(root, { DEJA_CLAUDE_ROOT: claude });
    assertEquals((await runMain(env, ["index"])).code, 0);
    // Tests may run as root, where permission bits do not apply: the row says what a read as
    // another user recorded (EACCES on open), as lib/indexer.ts records it.
    const store = Store.open(indexPath(env));
    store.db.prepare("UPDATE sources SET error = ? WHERE path = ?")
      .run(`EACCES: permission denied, open '${denied}'`, denied);
    store.close();
    assertEquals(
      storeProblem(`EACCES: permission denied, open '${denied}'`, "present"),
      "unreadable",
    );
    assertEquals(storeProblem("file is not a database", "present"), "failed");

    const src = harness(await json(env, ["sources"]), "claude");
    assertEquals([src.stores, src.indexed, src.errors, src.unreadable], [2, 1, 0, 1]);
    const line = (await runMain(env, ["sources"])).out.split("\n").find((l) =>
      l.startsWith("claude")
    )!;
    assert(line.includes("(1 unreadable)") && !line.includes("failed"), line);
    const doc = await json(env, ["doctor"]);
    assertEquals(doc.problems, ["claude 1 unreadable store"]);
    assertEquals([doc.index.damaged[0].unreadable, doc.index.damaged[0].failed], [1, 0]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("a folder discovery cannot open counts as the stores in it, once, in doctor", async () => {
  const root = tempDir("deja-counts-folder-");
  try {
    const claude = join(root, "claude");
    mkdirSync(join(claude, "d"), { recursive: true });
    claudeStore(join(claude, "d"), "10000000-1111-4222-8333-444455556666", 2);
    claudeStore(join(claude, "d"), "20000000-1111-4222-8333-444455556666", 2);
    const env = envOf(root, { DEJA_CLAUDE_ROOT: claude });
    assertEquals((await runMain(env, ["index"])).code, 0);
    // The root replaced by a link to itself stands in for a folder deja may not open (tests
    // may run as root, where permission bits do not apply): readdir fails, the stores in it
    // cannot be stat'ed (not gone).
    rmSync(claude, { recursive: true });
    symlinkSync("claude", claude);
    const idx = await runMain(env, ["index"]);
    assertEquals(idx.code, 2); // nothing of the harness could be read
    assertEquals(idx.out.split("error:").length - 1, 1, idx.out);
    const doc = await json(env, ["doctor"]);
    // The folder's error is not counted again beside its two stores (a user trial: "2 harness
    // error(s)" beside a list of 3, the same failure under `index` and under `stores`).
    assertEquals(doc.problems, ["claude 2 unreadable stores"]);
    assertEquals(doc.index.harness_errors.length, 1);
    assertEquals(doc.index.damaged[0].errors.length, 2);
    const text = (await runMain(env, ["doctor"])).out;
    assert(!text.includes("harness error"), text);
    assert(!text.includes(`error: claude: ${claude}`), text);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test({
  name:
    "a Crush store with damaged pages is named, with what could not be read, by index, sources and doctor",
  ignore: !existsSync(join(REAL, "crush.db")),
  fn: async () => {
    const root = tempDir("deja-counts-pages-");
    try {
      const bytes = new Uint8Array(readFileSync(join(REAL, "crush.db")));
      let x = 12345;
      for (let i = 4096; i < bytes.length; i++) {
        x = (x * 1103515245 + 12345) >>> 0;
        bytes[i] = x >>> 24;
      }
      const good = new Uint8Array(readFileSync(join(REAL, "crush.db")));
      const env = envOf(root, crushWorld(root, { c: bytes, ok: good }));
      const db = join(root, "projects", "c", ".crush", "crush.db");
      // The damage left nothing of the store: it is not read (a fresh-user trial: exit 0 and
      // "read" by index while doctor exited 1), so index exits 3 naming it, on every run.
      for (let i = 0; i < 2; i++) {
        const idx = await runMain(env, ["index"]);
        assertEquals(idx.code, 3, idx.out);
        assert(idx.out.includes(`${db}: damaged, could not read `), idx.out);
        assert(idx.out.includes("nothing in it could be read"), idx.out);
      }
      const src = harness(await json(env, ["sources"]), "crush");
      assertEquals([src.stores, src.indexed, src.errors, src.damaged], [2, 1, 1, 0]);
      const plain = (await runMain(env, ["sources"])).out;
      assert(plain.includes("(1 failed)") && plain.includes(`${db}: damaged`), plain);
      const doctor = await runMain(env, ["doctor"]);
      assertEquals(doctor.code, 1);
      assert(doctor.out.includes(`${db}: damaged, could not read `), doctor.out);
      const doc = await json(env, ["doctor"]);
      assertEquals(doc.index.damaged[0].failed, 1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
});

Deno.test("an unfinished last line of a file unchanged for over 10 minutes reads as truncated", async () => {
  const root = tempDir("deja-counts-cut-");
  try {
    const claude = join(root, "claude");
    mkdirSync(join(claude, "p"), { recursive: true });
    const fresh = claudeStore(join(claude, "p"), "10000000-1111-4222-8333-444455556666", 2);
    const cut = claudeStore(join(claude, "p"), "20000000-1111-4222-8333-444455556666", 2);
    appendFileSync(fresh, '{"type":"user","mess');
    appendFileSync(cut, '{"type":"user","mess');
    const old = (Date.now() - STALE_PARTIAL_MS - 60_000) / 1000;
    utimesSync(cut, old, old);
    const env = envOf(root, { DEJA_CLAUDE_ROOT: claude });
    // One word for the one state in index, sources (--verbose too) and doctor (a fresh-user
    // trial: "unfinished partial_line", "skipped 1 truncated" and "could not read the line").
    const idx = await runMain(env, ["index"]);
    assertEquals(idx.code, 0);
    assertStringIncludes(idx.out, "skipped: 1 truncated, unfinished: 1 partial_line");
    assertStringIncludes(idx.out, `${cut}: damaged, cut off at byte `);
    const verbose = (await runMain(env, ["sources", "--verbose"])).out;
    assertStringIncludes(verbose, `skipped truncated at ${cut}@`);
    assert(!verbose.includes(`partial_line at ${cut}`), verbose);
    assertStringIncludes(verbose, `unfinished partial_line at ${fresh}@`);
    const text = (await runMain(env, ["doctor"])).out;
    assertStringIncludes(text, `${cut}: damaged, cut off at byte `);
    const src = harness(await json(env, ["sources"]), "claude");
    // The one still being written is pending; the cut one is damage, no longer "unfinished".
    assertEquals([src.skipped, src.damaged], [{ partial_line: 1, truncated: 1 }, 1]);
    const plain = (await runMain(env, ["sources"])).out;
    assert(plain.includes(`skipped 1 truncated (${cut})`), plain);
    assert(plain.includes("unfinished: 1 last line still being written"), plain);
    const doc = await json(env, ["doctor"]);
    assertEquals(doc.problems, ["claude 1 damaged store"]);
    assert(doc.index.damaged[0].damaged_stores[0].startsWith(`${cut}: damaged, cut off at byte`));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
