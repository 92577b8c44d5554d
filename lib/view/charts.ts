/**
 * Charts drawn as inline SVG on the server (no chart library, no CDN): a
 * calendar heat map of sessions active per day, and stacked bars per week. Labels go
 * through {@link htm}, so a project name cannot inject markup.
 *
 * @module
 */
import { htm, type Html } from "./html.ts";

const DAY = 86_400_000;

/** A local calendar day as `YYYY-MM-DD`. */
export function dayKey(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** Local midnight of the day holding `ms`. */
function midnight(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/**
 * A heat map of the last `weeks` weeks ending today: one square per day,
 * darker for more sessions (`perDay`: the sessions active that day; the darkest
 * is the busiest day drawn), a column per week, Monday on top.
 */
export function heatMap(perDay: Map<string, number>, now: number, weeks = 53): Html {
  const cell = 13;
  const top = 18;
  const left = 28;
  const today = midnight(now);
  const dow = (new Date(today).getDay() + 6) % 7; // Monday 0
  const start = today - (dow + (weeks - 1) * 7) * DAY;
  // The shades are scaled to the days drawn: a busier day before them made every day drawn
  // the palest shade (trial 126 F3).
  const drawn: string[] = [];
  for (let i = 0; i < weeks * 7; i++) {
    const date = new Date(start);
    date.setDate(date.getDate() + i);
    if (date.getTime() <= today) drawn.push(dayKey(date.getTime()));
  }
  const max = Math.max(1, ...drawn.map((k) => perDay.get(k) ?? 0));
  const rects: Html[] = [];
  const months: Html[] = [];
  let lastMonth = -1;
  const width = left + weeks * cell + 4;
  for (let w = 0; w < weeks; w++) {
    for (let d = 0; d < 7; d++) {
      // Step by calendar days (a DST change makes some days 23 or 25 hours).
      const date = new Date(start);
      date.setDate(date.getDate() + w * 7 + d);
      const t = date.getTime();
      if (t > today) continue;
      if (d === 0 && date.getMonth() !== lastMonth) {
        lastMonth = date.getMonth();
        // A month that starts in the last weeks ends at the right edge, not past it (trial
        // 112 F10: "Dec" was cut to "De").
        const x = left + w * cell;
        const edge = x + MONTH_LABEL_PX > width;
        months.push(
          htm`<text x="${edge ? width - 1 : x}" y="12"${edge ? htm` text-anchor="end"` : ""}>${
            date.toLocaleString("en", { month: "short" })
          }</text>`,
        );
      }
      const key = dayKey(t);
      const n = perDay.get(key) ?? 0;
      const level = n === 0 ? 0 : Math.ceil((n / max) * 4);
      rects.push(
        htm`
          <rect x="${left + w * cell}" y="${top + d * cell}" width="${cell - 2}" height="${
          cell -
          2
        }" rx="2"
            fill="${level ? "#4c6ef5" : "#8881"}" fill-opacity="${
          level ? [0, 0.3, 0.5, 0.75, 1][level] : 1
        }">
            <title>${key}: ${n} ${n === 1 ? "session" : "sessions"} active</title>
          </rect>
        `,
      );
    }
  }
  const labels = ["Mon", "", "Wed", "", "Fri", "", ""].map((l, i) =>
    l ? htm`<text x="0" y="${top + i * cell + 9}">${l}</text>` : ""
  );
  const height = top + 7 * cell + 4;
  // In a box of its own: a narrow window scrolls the box, the map kept at its size (app.css),
  // where it shrank to the window, its labels a few pixels high (trial 126 F8).
  return htm`
    <div class="heatbox"><svg class="chart heat" viewBox="0 0 ${width} ${height}" role="img"
      aria-label="sessions per day">${months}${labels}${rects}</svg></div>
  `;
}

/** The width a month's short name ("Sep") takes on the heat map at the charts' 11px, at most. */
const MONTH_LABEL_PX = 24;

/** One stacked series: its name, its colour and a value per bucket. */
export interface Series {
  name: string;
  color: string;
  values: number[];
}

/**
 * Stacked bars, one per bucket (`labels`: day keys are shown as `MM-DD`, their year where it
 * changes), a legend of the series below; `unit`, what a bar's count counts, said in its
 * tooltip after the number (`3 active`).
 */
export function stackedBars(
  labels: string[],
  series: Series[],
  title: string,
  unit = "",
): Html {
  const w = 860;
  const h = 200;
  const left = 34;
  const bottom = 22;
  const n = labels.length || 1;
  const slot = (w - left - 6) / n;
  const totals = labels.map((_, i) => series.reduce((a, s) => a + (s.values[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const scale = (h - bottom - 8) / max;
  const bars: Html[] = [];
  labels.forEach((label, i) => {
    let y = h - bottom;
    for (const s of series) {
      const v = s.values[i] ?? 0;
      if (!v) continue;
      const bh = v * scale;
      y -= bh;
      bars.push(
        htm`
          <rect x="${(left + i * slot + 1).toFixed(1)}" y="${y.toFixed(1)}" width="${
          Math.max(
            1,
            slot - 2,
          ).toFixed(1)
        }" height="${bh.toFixed(1)}" fill="${s.color}">
            <title>${label} · ${s.name}: ${v}${unit ? ` ${unit}` : ""}</title>
          </rect>
        `,
      );
    }
  });
  const every = Math.ceil(n / 8);
  const ticks = labels.map((l, i) =>
    i % every === 0
      ? htm`<text x="${(left + i * slot).toFixed(1)}" y="${h - 6}">${
        tickText(l, labels[i - every])
      }</text>`
      : ""
  );
  const axis = [0, Math.round(max / 2), max].map((v) =>
    htm`<text x="0" y="${(h - bottom - v * scale + 4).toFixed(1)}">${v}</text>`
  );
  const legend = series.map((s) =>
    htm`<span><svg width="10" height="10"><rect width="10" height="10" rx="2" fill="${s.color}"/></svg> ${s.name}</span>`
  );
  return htm`
    <svg class="chart" viewBox="0 0 ${w} ${h}" role="img"
      aria-label="${title}">${axis}${ticks}${bars}</svg>
    <div class="legend">${legend}</div>
  `;
}

/**
 * A bar's axis label: a day key as `MM-DD`, with its year on the first tick and where the year
 * changes from the tick before (trial 99 F2: `10-27 … 04-13` spanned two years and named
 * neither); any other label as it is.
 */
function tickText(label: string, before: string | undefined): string {
  if (!/^\d{4}-\d\d-\d\d$/.test(label)) return label;
  return before?.slice(0, 4) === label.slice(0, 4) ? label.slice(5) : label;
}

/** Monday of the week holding `ms`, as a day key. */
export function weekKey(ms: number): string {
  const d = new Date(midnight(ms));
  d.setDate(d.getDate() - (d.getDay() + 6) % 7);
  return dayKey(d.getTime());
}

/** The `count` week keys ending with the week of `now`, oldest first. */
export function lastWeeks(now: number, count: number): string[] {
  const out: string[] = [];
  const d = new Date(midnight(now));
  d.setDate(d.getDate() - (d.getDay() + 6) % 7);
  for (let i = 0; i < count; i++) {
    out.unshift(dayKey(d.getTime()));
    d.setDate(d.getDate() - 7);
  }
  return out;
}
