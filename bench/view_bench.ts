/**
 * `deno task bench:view [--mb 100] [--runs 20]`: how fast `deja view` answers
 * in a real browser on an index of the synthetic Claude Code corpus
 * (bench/gen_claude.ts, generated when missing). Indexes the corpus, starts
 * `deja view --no-open`, and drives Debian's Chromium through playwright-core:
 * the session list loaded, a search page loaded (a rare token and a common
 * word), and a search-as-you-type answer (the fetch the page's script makes),
 * each `runs` times. Prints p50/p95 in ms; asserts nothing about time.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { existsSync, rmSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { COMMON_WORDS, ensureCorpus, RARE_TOKEN } from "./gen_claude.ts";
import { REPO } from "../tests/_fixture.ts";
import { CHROMIUM, CHROMIUM_FLAGS } from "../tests/_browser.ts";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "100" },
    runs: { type: "string", default: "20" },
    reindex: { type: "boolean", default: false },
  },
});
const mb = Number(values.mb);
const runs = Number(values.runs);
if (!existsSync(CHROMIUM)) {
  console.error(`bench:view needs Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  Deno.exit(2);
}
const work = join(REPO, ".bench");
const { dir: corpus, bytes } = ensureCorpus(work, mb);
const dejaHome = join(work, `deja-view-${mb}mb`);
if (values.reindex) rmSync(dejaHome, { recursive: true, force: true });
const env = {
  ...process.env,
  HOME: join(work, "home"),
  DEJA_HOME: dejaHome,
  DEJA_CLAUDE_ROOT: join(corpus, "projects"),
  NO_COLOR: "1",
};
const deja = ["run", "-A", join(REPO, "main.ts")];

const t0 = performance.now();
const idx = spawnSync("deno", [...deja, "index"], { env, encoding: "utf8" });
if (idx.status !== 0) throw new Error(`deja index failed: ${idx.stderr}`);
console.log(
  `corpus ${(bytes / 1e6).toFixed(1)} MB; deja index ${
    ((performance.now() - t0) / 1000).toFixed(1)
  } s (a no-op when the index was already built)`,
);

const server = spawn("deno", [...deja, "view", "--no-open"], {
  env,
  stdio: ["ignore", "pipe", "pipe"],
});
const url = await new Promise<string>((resolve, reject) => {
  let out = "";
  server.stdout!.on("data", (c) => {
    out += c;
    const m = /deja view: (http\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
  server.once("exit", (code) => reject(new Error(`deja view exited (${code})`)));
});

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const { chromium } = await import("playwright-core");
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
try {
  const page = await browser.newPage();
  await page.goto(url); // the first load opens caches; not counted
  const measure = async (label: string, once: () => Promise<number>) => {
    const xs: number[] = [];
    for (let i = 0; i < runs; i++) xs.push(await once());
    console.log(
      `${label.padEnd(44)} p50 ${pct(xs, 50).toFixed(0).padStart(5)} ms   p95 ${
        pct(xs, 95).toFixed(0).padStart(5)
      } ms`,
    );
  };
  /** A page loaded, as the browser times it (navigation start to the load event). */
  const load = async (href: string) => {
    await page.goto(href, { waitUntil: "load" });
    return await page.evaluate(() => {
      const n = performance.getEntriesByType("navigation")[0] as unknown as {
        loadEventEnd: number;
        startTime: number;
      };
      return n.loadEventEnd - n.startTime;
    });
  };
  /** The answer search-as-you-type fetches, timed in the page. */
  const typed = (q: string) =>
    page.evaluate(async (u: string) => {
      const t = performance.now();
      await (await fetch(u)).text();
      return performance.now() - t;
    }, `${url}api/search?q=${encodeURIComponent(q)}`);

  await measure("session list (/), page load", () => load(url));
  await measure(
    `search page "${RARE_TOKEN}" (rare), page load`,
    () => load(`${url}search?q=${RARE_TOKEN}`),
  );
  await measure(
    `search page "${COMMON_WORDS[0]}" (common), page load`,
    () => load(`${url}search?q=${COMMON_WORDS[0]}`),
  );
  await page.goto(url);
  await measure(`as you type "${RARE_TOKEN}", answer`, () => typed(RARE_TOKEN));
  await measure(`as you type "${COMMON_WORDS[0]}", answer`, () => typed(COMMON_WORDS[0]));
  console.log(`runs: ${runs} each; the server freshens the index at most every 10 s`);
} finally {
  await browser.close();
  server.kill("SIGINT");
}
