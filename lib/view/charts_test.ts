/** The Activity page's charts (lib/view/charts.ts). */
import { assert, assertEquals } from "../../tests/_assert.ts";
import { dayKey, heatMap } from "./charts.ts";

const DAY = 86_400_000;

/** The fill-opacity of the heat map's square of day `key`. */
function shade(svg: string, key: string): number {
  const m = new RegExp(`fill-opacity="([0-9.]+)">\\s*<title>${key}:`).exec(svg);
  assert(m, `no square for ${key}`);
  return Number(m[1]);
}

// Trial 126 F3: every active day drawn had the palest shade, the scale coming from a busier day
// more than a year before the days drawn.
Deno.test("heat map shades the days drawn against the busiest of them, not a day before them", () => {
  const now = Date.parse("2026-12-07T12:00:00Z");
  const one = dayKey(now - 10 * DAY), two = dayKey(now - 3 * DAY), old = dayKey(now - 500 * DAY);
  const svg = heatMap(new Map([[one, 1], [two, 2], [old, 20]]), now, 53).value;
  assert(!svg.includes(`<title>${old}:`), "the old day is drawn");
  assertEquals(shade(svg, two), 1);
  assert(shade(svg, one) < shade(svg, two), `${shade(svg, one)} vs ${shade(svg, two)}`);
  assert(shade(svg, one) > 0.3, "the quieter day is not the palest shade of a scale of 20");
});
