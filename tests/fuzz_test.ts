/**
 * The fuzz suite's CI subset (issue 14): every format kind, every mutation
 * once, seeded; no parse hangs or crashes, and no intact record of a text
 * store is lost beside the damage. The full run is `deno task fuzz`.
 */
import { ASSERTED, runFuzz } from "./_fuzz.ts";
import { assert, assertEquals } from "./_assert.ts";

Deno.test("every intact record beside a damaged one is read, without a hang or a crash, in every format kind", () => {
  const fig = runFuzz(7, 7);
  assertEquals([fig.hangs, fig.crashes], [0, 0], fig.failures.join("\n"));
  assert(fig.peakKiB < 1 << 20, `peak RSS ${fig.peakKiB} KiB`); // under 1 GiB where measurable
  const lost = Object.entries(fig.lost).filter(([k, n]) => ASSERTED.has(k) && n);
  assertEquals(lost, [], fig.failures.join("\n"));
});
