/**
 * The activity page (`/stats`): what the index holds in figures, sessions
 * active per day as a heat map, sessions active per harness and per project
 * week by week, the commands that failed most (lib/memory/outcome.ts decides
 * what failed), and the secrets redacted by kind (lib/stats.ts). A session is
 * charted on every day (and week) it has events, as `deja last` and the list's
 * "last active" date it by its activity, not only on the day it started (a
 * session without timed events on its own date). Sessions of throwaway projects
 * are left out of the sessions' charts and the failed commands alike, as
 * search leaves them out, unless the page is asked for them (`?junk=1`).
 * Undated sessions (a prompt history: only a shared file's time,
 * lib/session_time.ts) are counted apart, not charted; a session dated by its
 * own file's mtime is charted on that day.
 *
 * @module
 */
import { isUndated } from "../session_time.ts";
import { Q, QUARTER_HOUR_MS } from "../schema.ts";
import { indexStats } from "../stats.ts";
import { outcomeOf, runFacts } from "../memory/outcome.ts";
import { oneLine, plural } from "../../core/text.ts";
import { countsAsHidden, defaultHidden } from "../search/sessions.ts";
import { htm, type Html } from "./html.ts";
import { HUES, page, short, shortPath, type ViewCtx } from "./layout.ts";
import { filedSubagents, filedText } from "./list.ts";
import { dayKey, heatMap, lastWeeks, type Series, stackedBars, weekKey } from "./charts.ts";

/**
 * Weeks the bar charts draw at least, and at most: back to the week of the oldest session
 * charted, up to two years (trial 99 F2: 26 weeks ending at the newest session left 25 of 45
 * sessions out, crush's busiest months among them).
 */
const WEEKS = 26;
const MAX_WEEKS = 104;
/** Days without a session after which the page says when the newest was. */
const QUIET_DAYS = 14;
/** Weeks of the heat map. */
const HEAT_WEEKS = 53;
/** Latest command runs read for the failed-commands chart. */
const COMMANDS_READ = 20_000;

interface Row {
  id: number;
  harness: string;
  project: string | null;
  time: number | null;
}

/** A charted session and the days it was active (day keys, oldest first). */
interface Active extends Row {
  days: string[];
}

/** The activity page. */
export function activityPage(ctx: ViewCtx, junk: boolean): string {
  const hidden = defaultHidden(ctx.store, { env: ctx.env, junk });
  const all = Q.viewSessionTimes.all(ctx.store, {});
  if (!all.length) {
    // Nothing indexed: said as the other pages say it, not as empty charts (trial 112 F10).
    return page(ctx, {
      title: "Activity",
      nav: "stats",
      body: htm`<h1>Activity</h1><div class="empty">No sessions yet.</div>`,
    });
  }
  const shown = all.filter((r) => !hidden.has(r.id));
  // An undated session is not charted (a prompt history's file time is only its newest
  // prompt's, lib/session_time.ts): counted and said under the cards.
  const timed = shown.filter((r) => r.time);
  const rows = activeDays(ctx, timed.filter((r) => !isUndated(r)));
  const undated = timed.length - rows.length;
  const perDay = new Map<string, number>();
  for (const r of rows) for (const d of r.days) perDay.set(d, (perDay.get(d) ?? 0) + 1);
  const latest = rows.reduce((m, r) => r.days.at(-1)! > m ? r.days.at(-1)! : m, "");
  // Charts end today, with the days since the newest session empty: ending them there when
  // none was recent drew the last busy week as if it were this one (a user trial).
  const end = ctx.now;
  const span = lastWeeks(end, MAX_WEEKS);
  const first = rows.reduce((m, r) => r.days[0] < m ? r.days[0] : m, dayKey(end));
  const oldest = span.indexOf(weekKey(dayStart(first)));
  const weeks = span.slice(Math.min(oldest < 0 ? 0 : oldest, MAX_WEEKS - WEEKS));
  // Each chart says the range it draws and how many sessions fall before it (trial 95 F4: an
  // unlabelled window that moved when the throwaway box was ticked, 21 sessions off the map).
  const heatWeeks = lastWeeks(end, HEAT_WEEKS);
  const range = (from: string) => {
    const before = rows.filter((r) => r.days.at(-1)! < from).length;
    return htm` <span class="sub">${from} to ${dayKey(end)}${
      before ? `; ${before} earlier session${before === 1 ? "" : "s"} not drawn` : ""
    }</span>`;
  };
  const st = indexStats(ctx.store, ctx.store.path, ctx.env);
  const redacted = Object.values(st.redacted).reduce((a, b) => a + b, 0);
  // The events of the sessions shown, as the other tiles count (trial 99 F11: the whole index's
  // 1.1k beside 45 of 51 sessions), and the sessions left out said.
  const events = st.events -
    Q.viewEventsOf.get(ctx.store, { hidden: JSON.stringify([...hidden]) })!.n;
  const left = all.filter((r) => countsAsHidden(hidden, r.id)).length;
  // Counted with their parents, as the list shows them (trial 112 F4: `deja stats` said 60).
  const filed = filedText(filedSubagents(ctx, new Set(timed.map((r) => r.id))));
  const cards = [
    [short(timed.length), "sessions"],
    [short(events), "events"],
    [String(new Set(timed.map((r) => r.harness)).size), "harnesses"],
    [String(new Set(timed.map((r) => r.project).filter(Boolean)).size), "projects"],
    [short(redacted), "secrets redacted"],
  ].map(([n, l]) =>
    htm`
      <div class="card">
        <div class="n">${n}</div>
        <div class="l">${l}</div>
      </div>
    `
  );
  // Said in words too: nothing charted for a while is no gap in the drawing.
  const quiet = latest && latest < dayKey(ctx.now - QUIET_DAYS * 86_400_000)
    ? htm`<p class="sub">No session since ${latest}: the charts run to today, ${dayKey(end)}.</p>`
    : "";
  // Nothing to draw (every session left out or undated): said, not drawn as empty charts.
  const charts = rows.length
    ? htm`
    <p class="sub">A session counts on every day and in every week it has events, not only when
    it started.</p>
    <h2>Sessions active per day${range(heatWeeks[0])}</h2>${heatMap(perDay, end, HEAT_WEEKS)}
    <h2>Sessions active per harness, week by week${range(weeks[0])}</h2>${
      stackedBars(
        weeks,
        byWeek(rows, weeks, (r) => r.harness, 9, (_k, i) => HUES[i]),
        "sessions active per harness per week",
        "active",
      )
    }
    <h2>Sessions active per project, week by week${range(weeks[0])}</h2>${
      stackedBars(
        weeks,
        byWeek(
          rows,
          weeks,
          (r) => r.project ? shortPath(ctx, r.project) : "(none)",
          6,
          (_k, i) => HUES[i % HUES.length],
        ),
        "sessions active per project per week",
        "active",
      )
    }
  `
    : htm`<div class="empty">No sessions to chart.</div>`;
  const body = htm`
    <h1>Activity</h1>
    <form class="filters" method="get"
      action="${ctx.base}/stats"><label class="mut"><input type="checkbox" name="junk" value="1"${
    junk
      ? htm`
          checked
        `
      : ""
  }> throwaway projects</label></form>
    <div class="cards">${cards}</div>${
    left
      ? htm`<p class="sub">${plural(left, "session")} of ${
        junk ? "excluded projects" : `throwaway or excluded projects`
      } not counted or charted${junk ? "" : `: tick "throwaway projects"`}.</p>`
      : ""
  }${
    undated
      ? htm`<p class="sub">${undated} undated session${
        undated === 1 ? "" : "s"
      } not charted (a prompt history: dated only by a file many sessions share).</p>`
      : ""
  }${filed ? htm`<p class="sub">${filed}</p>` : ""}${quiet}
${charts}
    <h2>Commands that failed most</h2>${failedCommands(ctx, hidden)}
    <h2>Secrets redacted, by kind</h2>${
    bars(
      Object.entries(st.redacted).sort((a, b) => b[1] - a[1]).map(([k, n]) => [htm`${k}`, n]),
    )
  }
  `;
  return page(ctx, { title: "Activity", nav: "stats", body });
}

/**
 * The days each of `rows` had events ({@link Q.viewActiveQuarters}, as local days); a session
 * with no timed event, the day of its own time.
 */
function activeDays(ctx: ViewCtx, rows: Row[]): Active[] {
  const days = new Map<number, Set<string>>(rows.map((r) => [r.id, new Set<string>()]));
  let q = NaN;
  let day = "";
  for (const r of Q.viewActiveQuarters.iterate(ctx.store, {})) {
    const set = days.get(r.id);
    if (!set) continue;
    if (r.q !== q) [q, day] = [r.q, dayKey(r.q * QUARTER_HOUR_MS)];
    set.add(day);
  }
  return rows.map((r) => {
    const set = days.get(r.id)!;
    return { ...r, days: set.size ? [...set].sort() : [dayKey(r.time!)] };
  });
}

/** Midnight (local) of day key `day`. */
function dayStart(day: string): number {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y, m - 1, d).getTime();
}

/**
 * Sessions active per week per key (each once in a week it has events in); the `top` keys
 * with most, the rest as "other".
 */
function byWeek(
  rows: Active[],
  weeks: string[],
  keyOf: (r: Row) => string,
  top: number,
  color: (key: string, i: number) => string,
): Series[] {
  const index = new Map(weeks.map((w, i) => [w, i]));
  const counts = new Map<string, number[]>();
  for (const r of rows) {
    const k = keyOf(r);
    const at = new Set(r.days.map((d) => index.get(weekKey(dayStart(d)))));
    for (const i of at) {
      if (i === undefined) continue;
      const v = counts.get(k) ?? new Array(weeks.length).fill(0);
      v[i]++;
      counts.set(k, v);
    }
  }
  const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
  const sorted = [...counts].sort((a, b) => sum(b[1]) - sum(a[1]));
  const out: Series[] = sorted.slice(0, top).map(([name, values], i) => ({
    name,
    values,
    color: color(name, i),
  }));
  const rest = sorted.slice(top);
  if (rest.length) {
    out.push({
      name: `${rest.length} more`,
      color: "#adb5bd",
      values: weeks.map((_, i) => rest.reduce((a, [, v]) => a + v[i], 0)),
    });
  }
  return out;
}

/**
 * The commands that failed most among the latest runs, left out and counted by the same
 * filter as the rest of the page (`hidden`: throwaway projects unless asked, excluded ones).
 */
function failedCommands(ctx: ViewCtx, hidden: ReadonlySet<number>): Html {
  const counts = new Map<string, number>();
  const ids = JSON.stringify([...hidden]);
  for (
    const c of Q.viewRecentCommands.all(ctx.store, { hidden: ids, limit: COMMANDS_READ })
  ) {
    const failed = outcomeOf(runFacts(c)) === "failed";
    if (!failed) continue;
    const key = oneLine(String(c.command), 90);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 12);
  return bars(top.map(([k, n]) => [htm`<code>${k}</code>`, n]));
}

/** A table of labels with a bar and a count each. */
function bars(items: Array<[Html, number]>): Html {
  if (!items.length) return htm`<p class="sub">None.</p>`;
  const max = Math.max(...items.map((i) => i[1]));
  // An SVG bar carries its own width (the page's policy allows no inline style).
  return htm`<table>${
    items.map(([label, n]) =>
      htm`
        <tr>
          <td>${label}</td>
          <td class="num">${n}</td>
          <td class="barcell">
            <svg width="100%" height="10" preserveAspectRatio="none" viewBox="0 0 100 10">
              <rect width="${
        Math.max(1, (n / max) * 100).toFixed(
          1,
        )
      }" height="10" rx="2" fill="#4c6ef5" />
            </svg>
          </td>
        </tr>
      `
    )
  }</table>`;
}
