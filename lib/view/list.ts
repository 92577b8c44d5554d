/**
 * The session list (`/`), its filters (harness, project, time, throwaway
 * projects), and the search results that replace it while one types
 * (`/search`, `/api/search`): the CLI's search (lib/search.ts) with the CLI's
 * hiding rule, its tiers named the way the CLI names them.
 *
 * @module
 */
import { speaker } from "../speaker.ts";
import { Q } from "../schema.ts";
import { describeSession, lastSessions } from "../memory/last.ts";
import { defaultHidden, searchHiding } from "../search/sessions.ts";
import { search } from "../search.ts";
import { narration } from "../cli/search_narration.ts";
import { droppedNote } from "../cli/search_words.ts";
import { oneLine, plural } from "../../core/text.ts";
import { htm, type Html, marked } from "./html.ts";
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
const TITLE_CHARS = 110;

/** Sessions listed at most on one page. */
export const LIST_LIMIT = 300;

/** Reads the filters from a query string (unknown values are ignored). */
export function filtersOf(q: URLSearchParams): ListFilters {
  const days = Number(q.get("days"));
  return {
    harness: q.get("harness") || undefined,
    project: q.get("project") || undefined,
    days: Number.isInteger(days) && days > 0 ? days : undefined,
    junk: q.get("junk") === "1",
  };
}

const DAYS: Array<[number, string]> = [[1, "last day"], [7, "last week"], [30, "last 30 days"], [
  90,
  "last 90 days",
], [365, "last year"]];

function filterForm(ctx: ViewCtx, f: ListFilters, query = ""): Html {
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
  return htm`<form class="filters" method="get" action="${ctx.base}${query ? "/search" : "/"}">${
    query ? htm`<input type="hidden" name="q" value="${query}">` : ""
  }
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
    }.</div>`;
  }
  const rows = res.sessions.map((s) =>
    htm`
      <tr>
        <td>${badge(s.harness)}</td>
        <td><a href="${sessionHref(ctx, s.harness, s.native_id)}">${
      oneLine(s.description ?? "(untitled)", TITLE_CHARS)
    }</a></td>
        <td class="proj">${
      s.project
        ? htm`<a href="${projectHref(ctx, s.project)}">${shortPath(ctx, s.project)}</a>`
        : "-"
    }</td>
        <td class="when">${when(s.updated ?? s.started, s)}</td>
        <td class="num">${short(s.events)}</td>
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
  }${
    res.undated
      ? htm`<p class="sub">${
        plural(res.undated, "undated session")
      } (dated only by a file many sessions share) not in this window.</p>`
      : ""
  }
  `;
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

/** Search results as a fragment (what `/api/search` answers and `/search` shows). */
export function searchResults(ctx: ViewCtx, query: string, f: ListFilters): Html {
  const res = search(ctx.store, query, {
    harness: f.harness ? [f.harness] : undefined,
    project: f.project,
    since: f.days ? ctx.now - f.days * 86_400_000 : undefined,
    limit: 30,
    now: ctx.now,
    ...searchHiding({ env: ctx.env, junk: f.junk }),
  });
  // The words left out are said as the CLI says them (trial 56: `hello world` listed sessions
  // without `hello`, and the page said nothing).
  // Sessions the throwaway filter hides that hold every word, as the CLI says them (trial 67:
  // the page said nothing of four exact matches behind the box).
  const hidden = res.hidden && res.results.length
    ? res.nothingMatched
      ? `${res.hidden} hidden ${
        res.hidden === 1 ? "session holds" : "sessions hold"
      } every word (throwaway or excluded projects); those below only look like it: tick the throwaway box`
      : `${res.hidden} more in throwaway or excluded projects: tick the throwaway box`
    : "";
  const note = [hidden, narration(res), droppedNote(res)].filter(Boolean).join("; ");
  if (!res.results.length) {
    return htm`<div class="empty">Nothing matched “${query}”${
      res.hidden ? ` (${res.hidden} sessions of throwaway projects hold it: tick the box)` : ""
    }.</div>`;
  }
  const hits = res.results.map((r) => {
    const best = r.snippets[0];
    return htm`
      <div
        class="hit"><div>${
      badge(
        r.harness,
      )
    } <a class="title" href="${(best?.session === r.id
      ? sessionHref(ctx, r.harness, r.id, best.seq)
      : sessionHref(ctx, r.harness, r.id) + (best ? anchorHash(r.id, best) : ""))}">${
      oneLine(
        describeSession(ctx.store, { id: r.rowid, title: r.title }) ?? "(untitled)",
        TITLE_CHARS,
      )
    }</a></div><div class="sub">${r.project ? shortPath(ctx, r.project) : "-"} · ${
      when(r.updated ?? r.started, r)
    } · ${r.hits}${r.hitsCapped ? "+" : ""} ${r.hits === 1 && !r.hitsCapped ? "hit" : "hits"}${
      r.throwaway ? " · throwaway project" : ""
    }</div>${
      r.snippets.map((s) =>
        htm`<div class="snip"><a href="${
          s.session === r.id
            ? sessionHref(ctx, r.harness, r.id, s.seq)
            : sessionHref(ctx, r.harness, r.id) + anchorHash(r.id, s)
        }"><span class="badge">${speaker(r.harness, s.kind).replace("_", " ")}</span> ${
          marked(s.text)
        }</a></div>`
      )
    }</div>
    `;
  });
  return htm`${note ? htm`<div class="note">${note}</div>` : ""}<p class="sub">${res.total} ${
    res.total === 1 ? "session" : "sessions"
  } · tier ${res.tier}</p>${hits}`;
}

/** The anchor of an event on its session's page: `e<seq>`, `<subagent id>/e<seq>` inside a subagent. */
export function eventAnchor(rootId: string, sessionId: string, seq: number): string {
  return sessionId === rootId ? `e${seq}` : `${sessionId}/e${seq}`;
}

function anchorHash(rootId: string, s: { session: string; seq: number }): string {
  return "#" + encodeURIComponent(eventAnchor(rootId, s.session, s.seq));
}

/** The search page (`/search?q=`), for a link or a browser without script. */
export function searchPage(ctx: ViewCtx, query: string, f: ListFilters): string {
  return page(ctx, {
    title: query ? `“${query}”` : "Search",
    nav: "search",
    query,
    body: htm`<h1>Search</h1>${filterForm(ctx, f, query)}<div id="results">${
      query ? searchResults(ctx, query, f) : ""
    }</div>`,
  });
}
