/**
 * The session list (`/`) and its filters (harness, project, time, throwaway
 * projects), which the search (lib/view/search.ts) shares.
 *
 * @module
 */
import { orphanMark } from "../cli/search_words.ts";
import { Q } from "../schema.ts";
import { harnessId } from "../../core/registry.ts";
import { lastSessions } from "../memory/last.ts";
import { defaultHidden } from "../search/sessions.ts";
import { oneLine, plural } from "../../core/text.ts";
import { htm, type Html } from "./html.ts";
import {
  badge,
  page,
  projectHref,
  sessionHref,
  short,
  shortPath,
  type ViewCtx,
  when,
} from "./layout.ts";

/** The list's filters, from the query string. */
export interface ListFilters {
  harness?: string;
  project?: string;
  /** Days back, when a time filter is set. */
  days?: number;
  /** Show throwaway projects too. */
  junk: boolean;
}

/** Longest session description in the list and in search results (characters). */
export const TITLE_CHARS = 110;

/** Sessions listed at most on one page. */
export const LIST_LIMIT = 300;

/**
 * Reads the filters from a query string: a harness by its id or product name, as `--harness`
 * reads it (trial 99 F5: `claude-code` listed nothing); a time that is not a whole number of
 * days is ignored.
 */
export function filtersOf(q: URLSearchParams): ListFilters {
  const days = Number(q.get("days"));
  const harness = q.get("harness") || undefined;
  return {
    harness: harness && (harnessId(harness) ?? harness),
    project: q.get("project") || undefined,
    days: Number.isInteger(days) && days > 0 ? days : undefined,
    junk: q.get("junk") === "1",
  };
}

const DAYS: Array<[number, string]> = [[1, "last day"], [7, "last week"], [30, "last 30 days"], [
  90,
  "last 90 days",
], [365, "last year"]];

/** The time filter's words as its menu shows them (`last week`), else `last <n> days`. */
export function daysLabel(days: number): string {
  return DAYS.find(([d]) => d === days)?.[1] ?? `last ${days} days`;
}

/** The filters as a form: of the list (`/`), or of a search (`query` kept in it). */
export function filterForm(ctx: ViewCtx, f: ListFilters, query = ""): Html {
  const harnesses = new Map<string, number>();
  const projects = new Map<string, number>();
  // Counted as the list shows them: without the throwaway box, its sessions are not counted
  // (trial 67: "opencode (1)" led to an empty list, and /tmp/farm projects were offered).
  const hidden = defaultHidden(ctx.store, { env: ctx.env, junk: f.junk });
  for (const r of Q.viewSessionTimes.all(ctx.store, {})) {
    if (hidden.has(r.id)) continue;
    harnesses.set(r.harness, (harnesses.get(r.harness) ?? 0) + 1);
    if (r.project) projects.set(r.project, (projects.get(r.project) ?? 0) + 1);
  }
  const opt = (value: string, label: string, on: boolean) =>
    htm`
      <option value="${value}" ${
      on
        ? htm`
          selected
        `
        : ""
    }>${label}</option>
    `;
  const topProjects = [...projects].sort((a, b) => b[1] - a[1]).slice(0, 200);
  // A value no session has is shown as chosen, with its count of none, not as "every …" (trial
  // 99 F5: `?project=nonexistent` read "every project" over an empty list).
  if (f.harness && !harnesses.has(f.harness)) harnesses.set(f.harness, 0);
  if (f.project && !topProjects.some(([p]) => p === f.project)) {
    topProjects.push([f.project, projects.get(f.project) ?? 0]);
  }
  // autocomplete="off": Back put the later page's choices on this form, over rows of its own
  // filter (trial 126 F1; app.js also resets it when a page comes back from the cache).
  return htm`<form class="filters" method="get" autocomplete="off" action="${ctx.base}${
    query ? "/search" : "/"
  }">${query ? htm`<input type="hidden" name="q" value="${query}">` : ""}
<select name="harness" aria-label="harness">${opt("", "every harness", !f.harness)}${
    [...harnesses].sort().map(([h, n]) => opt(h, `${h} (${n})`, f.harness === h))
  }</select>
<select name="project" aria-label="project">${opt("", "every project", !f.project)}${
    topProjects.map(([p, n]) => opt(p, `${shortPath(ctx, p)} (${n})`, f.project === p))
  }</select>
<select name="days" aria-label="time">${opt("", "any time", !f.days)}${
    DAYS.map(([d, l]) => opt(String(d), l, f.days === d))
  }</select>
<label class="mut"><input type="checkbox" name="junk" value="1"${
    f.junk
      ? htm`
        checked
      `
      : ""
  }> throwaway projects</label>
<noscript><button>Apply</button></noscript></form>`;
}

/** The session table under the filters. */
export function sessionTable(ctx: ViewCtx, f: ListFilters): Html {
  const hidden = defaultHidden(ctx.store, { env: ctx.env, junk: f.junk, project: f.project });
  const res = lastSessions(ctx.store, {
    limit: LIST_LIMIT,
    harness: f.harness ? [f.harness] : undefined,
    project: f.project,
    since: f.days ? ctx.now - f.days * 86_400_000 : undefined,
    hidden,
  });
  if (!res.sessions.length) {
    return htm`<div class="empty">No sessions here${
      res.hidden
        ? ` (${res.hidden} in throwaway or excluded projects: tick "throwaway projects")`
        : ""
    }.${withoutFilters(ctx, f)}</div>`;
  }
  // Subagents are nested in their parents' pages, not rows (nor counts) of their own: said.
  const under = subagentsUnder(ctx);
  const filed = filedText(res.sessions.reduce((n, s) => n + (under.get(s.id) ?? 0), 0));
  const rows = res.sessions.map((s) =>
    htm`
      <tr>
        <td>${badge(s.harness)}</td>
        <td><a href="${sessionHref(ctx, s.harness, s.native_id)}">${
      oneLine(s.description ?? "(untitled)", TITLE_CHARS)
    }</a>${s.parent ? htm` <span class="sub">· ${orphanMark(s.parent)}</span>` : ""}${
      // A parent's row says how many subagents its page nests (trial 126 F10: only the
      // sentence under the list said any were filed, not under which rows).
      under.has(s.id)
        ? htm` <span class="sub nested">· ${plural(under.get(s.id)!, "subagent")} nested</span>`
        : ""}</td>
        <td class="proj">${
      s.project
        ? htm`<a href="${projectHref(ctx, s.project)}">${shortPath(ctx, s.project)}</a>`
        : "-"
    }</td>
        <td class="when">${when(s.updated ?? s.started, s)}</td>
        <td class="num" data-l="events">${short(s.events)}</td>
      </tr>
    `
  );
  return htm`
    <table class="sessions">
      <thead>
        <tr>
          <th>harness</th>
          <th>session</th>
          <th>project</th>
          <th>last active</th>
          <th class="num">events</th>
        </tr>
      </thead>
      <tbody>${rows}</tbody>
    </table>${
    res.sessions.length >= LIST_LIMIT
      ? htm`<p class="sub">The newest ${LIST_LIMIT}; narrow the filters to see older ones.</p>`
      : ""
  }${
    res.hidden
      ? htm`<p class="sub">${res.hidden} sessions of throwaway or excluded projects not shown.</p>`
      : ""
  }${filed ? htm`<p class="sub">${filed}</p>` : ""}${
    res.undated
      ? htm`<p class="sub">${
        plural(res.undated, "undated session")
      } (dated only by a file many sessions share) not in this window.</p>`
      : ""
  }
  `;
}

/**
 * Under an empty list, how many sessions there are without its harness, project and time
 * filters, with a link that drops them, as `deja last` says it (trial 99 F5: "No sessions
 * here." and no way back). The throwaway box is kept: it is said apart.
 */
function withoutFilters(ctx: ViewCtx, f: ListFilters): Html | "" {
  const used = [f.harness && "harness", f.project && "project", f.days && "time"].filter(Boolean);
  if (!used.length) return "";
  const all = lastSessions(ctx.store, {
    limit: 1,
    count: true,
    hidden: defaultHidden(ctx.store, { env: ctx.env, junk: f.junk }),
  });
  const n = all.total ?? all.sessions.length;
  const them = used.length === 1
    ? `the ${used[0]} filter`
    : `the ${used.slice(0, -1).join(", ")} and ${used.at(-1)} filters`;
  if (!n) return htm`<p class="sub">Nor without ${them}.</p>`;
  return htm`<p class="filtered">Without ${them}: ${
    plural(n, "session")
  }. <a class="drop" href="${ctx.base}/${f.junk ? "?junk=1" : ""}">Clear the filters</a></p>`;
}

/**
 * How many subagents are filed under the sessions `shown` (row ids of top-level sessions),
 * at any depth: the view lists and counts them with their parents, where `deja stats` and
 * `deja sources` count each as a session (trial 112 F4: 58 sessions beside `stats`' 60, unsaid).
 */
export function filedSubagents(ctx: ViewCtx, shown: ReadonlySet<number>): number {
  let n = 0;
  for (const [top, count] of subagentsUnder(ctx)) if (shown.has(top)) n += count;
  return n;
}

/**
 * How many subagents are filed under each top-level session, at any depth, by the session's row
 * id (sessions without any are absent).
 */
export function subagentsUnder(ctx: ViewCtx): Map<number, number> {
  const parentOf = new Map(
    Q.viewFiledSubagents.all(ctx.store, {}).map((r) => [r.id, r.parent_id]),
  );
  const under = new Map<number, number>();
  for (const id of parentOf.keys()) {
    let top = id;
    // A chain is short; a loop of parents (a damaged store) ends at the guard.
    for (let i = 0; i < 64 && parentOf.has(top); i++) top = parentOf.get(top)!;
    under.set(top, (under.get(top) ?? 0) + 1);
  }
  return under;
}

/** The words for {@link filedSubagents}' count `n` ("" for none), as a sentence. */
export function filedText(n: number): string {
  if (!n) return "";
  return n === 1
    ? "1 subagent filed under its parent session is not counted as a session here ('deja stats' counts it)."
    : `${n} subagents filed under their parent sessions are not counted as sessions here ('deja stats' counts them).`;
}

/** The list page (`/`). */
export function listPage(ctx: ViewCtx, f: ListFilters): string {
  return page(ctx, {
    title: "Sessions",
    nav: "sessions",
    body: htm`<h1>Sessions</h1>${filterForm(ctx, f)}<div id="results">${
      sessionTable(ctx, f)
    }</div>`,
  });
}

/** The anchor of an event on its session's page: `e<seq>`, `<subagent id>/e<seq>` inside a subagent. */
export function eventAnchor(rootId: string, sessionId: string, seq: number): string {
  return sessionId === rootId ? `e${seq}` : `${sessionId}/e${seq}`;
}
