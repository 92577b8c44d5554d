/**
 * The search (`/search`, and `/api/search`, which answers while one types): run as
 * `deja search` runs it (lib/cli/cmd_search.ts `searchData`: the CLI's hiding rule, its
 * count without the filters), its tiers named the way the CLI names them, and a search
 * that found nothing said the way the CLI says it.
 *
 * @module
 */
import { speaker } from "../speaker.ts";
import { describeSession } from "../memory/last.ts";
import { type SearchArgs, type SearchData, searchData } from "../cli/cmd_search.ts";
import { hintsText, hitsOf } from "../cli/search_out.ts";
import { narration } from "../cli/search_narration.ts";
import { droppedNote, orphanMark } from "../cli/search_words.ts";
import { oneLine } from "../../core/text.ts";
import { harnessId } from "../../core/registry.ts";
import { unknownHarness } from "../cli/suggest.ts";
import { Q } from "../schema.ts";
import { cutNote } from "../query.ts";
import { htm, type Html, marked } from "./html.ts";
import { badge, page, sessionHref, shortPath, type ViewCtx, when } from "./layout.ts";
import { daysLabel, eventAnchor, filterForm, type ListFilters, TITLE_CHARS } from "./list.ts";

/** Sessions a search lists at most. */
const SEARCH_LIMIT = 30;

/** The CLI's arguments for the view's query and filters. */
function argsOf(ctx: ViewCtx, query: string, f: ListFilters): SearchArgs {
  return {
    query,
    filter: { harness: f.harness ? [f.harness] : undefined, project: f.project, junk: f.junk },
    since: f.days ? ctx.now - f.days * 86_400_000 : undefined,
    // As `--since 7d`: a command a hint names runs the search the page ran.
    sinceText: f.days ? `${f.days}d` : undefined,
    regex: false,
    limit: SEARCH_LIMIT,
    json: false,
    now: ctx.now,
  };
}

/** Search results as a fragment (what `/api/search` answers and `/search` shows). */
export async function searchResults(ctx: ViewCtx, query: string, f: ListFilters): Promise<Html> {
  // A harness no name `--harness` takes (and the index holds none of) is said as the CLI says
  // it (trial 137 L2: "the filter left nothing" of `harness=nosuch`); filtersOf kept it as typed.
  const unknown = f.harness !== undefined && !harnessId(f.harness) &&
    !Q.sessionsPerHarness.all(ctx.store, { mirrors: "\u0000" }).some((r) =>
      r.harness === f.harness
    ) && unknownHarness(f.harness);
  if (unknown) {
    return htm`<div class="empty">${unknown.message}.${
      unknown.hint ? htm`<p class="sub">${unknown.hint}</p>` : ""
    }</div>`;
  }
  const d = await searchData(ctx.store, argsOf(ctx, query, f), { env: ctx.env, cwd: "" });
  const res = d.result;
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
  // A long query (a pasted stack trace) is cut as the CLI cuts it, and said (trial 95 F9).
  const note = [cutNote(res.cut), hidden, narration(res), droppedNote(res)].filter(Boolean)
    .join("; ");
  const notes = htm`${note ? htm`<div class="note">${note}</div>` : ""}${
    hintsOf(ctx, d, query, f)
  }`;
  if (!res.results.length) {
    const filtered = d.filtered?.filters.length ? d.filtered : undefined;
    return htm`<div class="empty">Nothing matched “${oneLine(query, TITLE_CHARS)}”${
      filtered ? ` ${filterWhere(ctx, f)}` : ""
    }${res.hidden ? ` (${res.hidden} sessions of throwaway projects hold it: tick the box)` : ""}.${
      filtered ? filteredNote(ctx, query, f, filtered) : ""
    }</div>${notes}`;
  }
  const hits = res.results.map((r) => {
    const best = r.snippets[0];
    return htm`
      <div
        class="hit"><div>${
      badge(
        r.harness,
      )
    } <a class="title" href="${
      best ? hitHref(ctx, r.harness, r.id, best) : sessionHref(ctx, r.harness, r.id)
    }">${
      oneLine(
        describeSession(ctx.store, { id: r.rowid, title: r.title }) ?? "(untitled)",
        TITLE_CHARS,
      )
    }</a></div><div class="sub">${r.project ? shortPath(ctx, r.project) : "-"} · ${
      when(r.updated ?? r.started, r)
    } · ${
      // A session found by its title alone says `title`, as the CLI does (trial 137 L3: "0 hits").
      hitsOf(r.hits, r.hitsCapped)}${r.throwaway ? " · throwaway project" : ""}${
      r.parent ? ` · ${orphanMark(r.parent)}` : ""
    }</div>${
      r.snippets.map((s) =>
        htm`<div class="snip"><a href="${hitHref(ctx, r.harness, r.id, s)}"><span class="badge">${
          speaker(r.harness, s.kind).replace("_", " ")
        }</span> ${marked(s.text)}</a></div>`
      )
    }</div>
    `;
  });
  return htm`${notes}<p class="sub">${res.total} ${
    res.total === 1 ? "session" : "sessions"
  } · tier ${res.tier}</p>${hits}`;
}

/**
 * The CLI's hints (lib/cli/cmd_search.ts `hintsText`: words apart, an operator typed, a word no
 * session holds, a file's name, a session's id), one a line, without their `hint: ` (trial 95
 * F8: `docker OR redis` said only "Nothing matched"). The hidden sessions are said by the
 * page itself, which names its throwaway box where the CLI names `--junk`.
 */
function hintsOf(ctx: ViewCtx, d: SearchData, query: string, f: ListFilters): Html | "" {
  const lines = hintsText({ ...d, result: { ...d.result, hidden: 0 } }, { query, regex: false })
    .split("\n").filter(Boolean).map((l) => l.replace(/^hint: /, ""));
  // The searches a hint names run here as links, under the page's filters (trial 99 F9: "without
  // it: 6 sessions: deja docker" was text to retype). A search with an option the page has no
  // filter for (`--model`, `--session`) stays text.
  const a = d.absent;
  const runs = [
    ...(a && !a.model && !a.id ? [a.query] : []),
    ...(d.apart ?? []).map((w) => w.word),
  ];
  return lines.length
    ? htm`<ul class="hints">${lines.map((l) => htm`<li>${linked(ctx, l, runs, f)}</li>`)}</ul>`
    : "";
}

/**
 * `line` with each `deja <words>` (or `deja search <words>`, the page's filters as flags after)
 * for one of `runs` a link that runs that search on this page.
 */
function linked(ctx: ViewCtx, line: string, runs: string[], f: ListFilters): Html {
  for (const q of runs) {
    // As lib/cli/_search_notes.ts writes the words: bare when plain, else single-quoted.
    const shown = /^[\w .-]+$/.test(q) ? q : `'${q.replaceAll("'", "'\\''")}'`;
    const at = [`deja ${shown}`, `deja search ${shown}`].map((c) => [c, line.indexOf(c)] as const)
      .find(([c, i]) => i >= 0 && !/[\w'-]/.test(line[i + c.length] ?? ""));
    if (!at) continue;
    const [cmd, i] = at;
    const flags =
      /^(?: --[\w-]+ (?:'(?:[^']|'\\'')*'|[^\s(),;']+))*/.exec(line.slice(i + cmd.length))![0];
    const end = i + cmd.length + flags.length;
    const href = `${ctx.base}/search?q=${encodeURIComponent(q)}${filterQuery(f)}`;
    return htm`${line.slice(0, i)}<a href="${href}"><code>${line.slice(i, end)}</code></a>${
      linked(ctx, line.slice(end), runs, f)
    }`;
  }
  return htm`${line}`;
}

/** The page's filters as the rest of a query string (`&harness=…`). */
function filterQuery(f: ListFilters): string {
  return [
    f.harness ? `&harness=${encodeURIComponent(f.harness)}` : "",
    f.project ? `&project=${encodeURIComponent(f.project)}` : "",
    f.days ? `&days=${f.days}` : "",
    f.junk ? "&junk=1" : "",
  ].join("");
}

/** Where the filters looked, as the CLI names them (`in harness aider, in the last week`). */
function filterWhere(ctx: ViewCtx, f: ListFilters): string {
  return [
    f.harness ? `in harness ${f.harness}` : "",
    f.project ? `in project ${shortPath(ctx, f.project)}` : "",
    f.days ? `in the ${daysLabel(f.days)}` : "",
  ].filter(Boolean).join(", ");
}

/**
 * How many sessions the words find without the filters, with a link to them: the filter,
 * not the words, left nothing, as `deja search` says (trial 95 F2: `docker` under harness
 * aider said "Nothing matched" of a word six sessions hold).
 */
function filteredNote(
  ctx: ViewCtx,
  query: string,
  f: ListFilters,
  out: NonNullable<SearchData["filtered"]>,
): Html {
  const them = out.filters.length === 1 ? "that filter" : "those filters";
  if (!out.without) return htm`<p class="sub">Nor without ${them}.</p>`;
  const n = `${out.without} ${out.without === 1 ? "session" : "sessions"}`;
  const all = `${ctx.base}/search?q=${encodeURIComponent(query)}${f.junk ? "&junk=1" : ""}`;
  return htm`<p class="filtered">The filter left nothing: without ${them}, ${n}. <a class="drop" href="${all}">Search without it</a></p>`;
}

function anchorHash(rootId: string, s: { session: string; seq: number }): string {
  return "#" + encodeURIComponent(eventAnchor(rootId, s.session, s.seq));
}

/**
 * The link to a hit's event, with the text its snippet marks (`&hl=`): the session page marks
 * it in the event and scrolls it into view, inside a long output too (trial 99 F7: a hit at
 * character 1,891 of an output opened the output at its top, the match nowhere marked).
 */
function hitHref(
  ctx: ViewCtx,
  harness: string,
  rootId: string,
  s: { session: string; seq: number; text: string },
): string {
  const link = s.session === rootId
    ? sessionHref(ctx, harness, rootId, s.seq)
    : sessionHref(ctx, harness, rootId) + anchorHash(rootId, s);
  // deno-lint-ignore no-control-regex
  const m = /\x01([^\x01\x02]+)\x02/.exec(s.text);
  if (!m) return link;
  const at = link.indexOf("#");
  return `${link.slice(0, at)}&hl=${encodeURIComponent(m[1].slice(0, 100))}${link.slice(at)}`;
}

/** The search page (`/search?q=`), for a link or a browser without script. */
export async function searchPage(ctx: ViewCtx, query: string, f: ListFilters): Promise<string> {
  return page(ctx, {
    title: query ? `“${query}”` : "Search",
    nav: "search",
    query,
    body: htm`<h1>Search</h1>${filterForm(ctx, f, query)}<div id="results">${
      query ? await searchResults(ctx, query, f) : ""
    }</div>`,
  });
}
