/**
 * `deno task fuzz [seeds] [stores per kind and seed]`: the full fuzz run,
 * printing stores tried, records lost per kind, hangs, crashes and peak RSS.
 */
import { runFuzz } from "./_fuzz.ts";

const seeds = Number(Deno.args[0] ?? 5);
const per = Number(Deno.args[1] ?? 14);
const total = { stores: 0, hangs: 0, crashes: 0, unreadable: 0, peak: -1 };
const lost: Record<string, number> = {};
const intact: Record<string, number> = {};
const zstd = [0, 0];
for (let seed = 1; seed <= seeds; seed++) {
  const f = runFuzz(seed, per);
  total.stores += f.stores;
  total.hangs += f.hangs;
  total.crashes += f.crashes;
  total.unreadable += f.unreadable;
  total.peak = Math.max(total.peak, f.peakKiB);
  for (const [k, v] of Object.entries(f.lost)) lost[k] = (lost[k] ?? 0) + v;
  for (const [k, v] of Object.entries(f.intact)) intact[k] = (intact[k] ?? 0) + v;
  zstd[0] += f.zstdRead[0];
  zstd[1] += f.zstdRead[1];
  for (const line of f.failures) console.error(`  ${line}`);
}
console.log(`stores tried      ${total.stores}`);
for (const k of Object.keys(intact)) {
  console.log(`${k.padEnd(17)} ${lost[k] ?? 0} of ${intact[k]} intact records lost`);
}
console.log(`zstd              ${zstd[0]} of ${zstd[1]} records read`);
console.log(`unreadable whole  ${total.unreadable}`);
console.log(`hangs             ${total.hangs}`);
console.log(`crashes           ${total.crashes}`);
console.log(
  `peak RSS          ${total.peak < 0 ? "n/a" : `${(total.peak / 1024).toFixed(0)} MiB`}`,
);
