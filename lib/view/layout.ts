/**
 * The page shell of `deja view` (header, navigation, the search box) and the
 * small pieces every page shares: harness badges, times, paths, links.
 *
 * @module
 */
import type { Env } from "../../core/model.ts";
import type { Store } from "../store.ts";
import { fmtSessionTime, fmtTime } from "../cli/common.ts";
import { tilde } from "../../core/text.ts";
import type { Timed } from "../session_time.ts";
import { htm, type Html, type Part } from "./html.ts";

/** What a page is rendered with. */
export interface ViewCtx {
  /** The token path every link starts with (`/<token>`). */
  base: string;
  store: Store;
  env: Env;
  /** Epoch ms "now" (tests pass a fixed one). */
  now: number;
  /** Pages written as files (`deja view --out`): no search box, no navigation to pages not written. */
  static?: boolean;
  /**
   * The directory `deja view` was started in: a relative path given to the blame page without a
   * project is taken from it, as `deja blame` run there takes it; absent, the page says it cannot.
   */
  cwd?: string;
}

/** Which navigation entry is the current page. */
export type NavItem = "sessions" | "search" | "projects" | "stats" | "";

/** A whole page: the shell around `body`. */
export function page(
  ctx: Pick<ViewCtx, "base" | "static" | "now">,
  o: { title: string; nav: NavItem; body: Part; query?: string },
): string {
  const b = ctx.base;
  const item = (key: NavItem, href: string, label: string) =>
    htm`<a href="${b}${href}" class="${o.nav === key ? "on" : ""}">${label}</a>`;
  return "<!doctype html>\n" + htm`
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width,initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>${o.title} · deja</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="${b}/app.css">
      </head>
      <body data-base="${b}">
        <header><a class="brand" href="${b}/">deja</a>${
    ctx.static
      ? htm`<span class="mut">exported ${when(ctx.now)}</span>`
      : htm`<nav>${item("sessions", "/", "Sessions")}${item("projects", "/projects", "Projects")}${
        item("stats", "/stats", "Activity")
      }</nav>
    <input type="search" id="q" name="q" placeholder="Search every session…" autocomplete="off"
    value="${o.query ?? ""}" aria-label="Search"${o.nav === "search" ? htm` autofocus` : ""}>`
  }</header>
        <main>${o.body}</main>
        <script src="${b}/app.js"></script>
      </body>
    </html>
  `.value;
}

/** A harness badge, coloured by a stable hash of its id. */
export function badge(harness: string): Html {
  return htm`<span class="badge h${harnessHue(harness)}">${harness}</span>`;
}

/** One of ten colour classes for a harness id (the same id always gets the same one). */
export function harnessHue(harness: string): number {
  let h = 7;
  for (const c of harness) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % 10;
}

/** The fill colour of class `h<n>` for SVG charts (charts cannot use the CSS classes' text). */
export const HUES = [
  "#4c6ef5",
  "#37b24d",
  "#f03e3e",
  "#f59f00",
  "#7950f2",
  "#15aabf",
  "#fd7e14",
  "#be4bdb",
  "#868e96",
  "#1c7ed6",
];

/**
 * `YYYY-MM-DD HH:MM` local time, or `-`; given the session the time is of, marked when it is
 * the store file's (lib/memory/text.ts `sessionTime`).
 */
export function when(
  ms: number | null | undefined,
  session?: Pick<Timed, "time_from_file" | "timeFromFile">,
): string {
  return session ? fmtSessionTime(ms, session) : fmtTime(ms ?? null);
}

/** A path with the home directory as `~`. */
export function shortPath(ctx: ViewCtx, path: string | null | undefined): string {
  return tilde(path, ctx.env.home);
}

/**
 * Events a session's page shows at most, by seq: page `k` holds seqs `k * VIEW_PAGE` up to
 * the next page's first (a session of tens of thousands of events was one page of as many
 * blocks, and the server held all of them).
 */
export const VIEW_PAGE = 2000;

/** The first seq of the page that holds seq `seq` ({@link VIEW_PAGE}). */
export function pageStart(seq: number): number {
  return Math.floor(Math.max(0, seq) / VIEW_PAGE) * VIEW_PAGE;
}

/** The link to a session's page (at event `seq` when given, on the page that holds it). */
export function sessionHref(
  ctx: ViewCtx,
  harness: string,
  id: string,
  seq?: number,
): string {
  const q = `h=${encodeURIComponent(harness)}&id=${encodeURIComponent(id)}`;
  if (seq === undefined) return `${ctx.base}/session?${q}`;
  const at = pageStart(seq) ? `&at=${pageStart(seq)}` : "";
  return `${ctx.base}/session?${q}${at}#e${seq}`;
}

/** The link to a project's page. */
export function projectHref(ctx: ViewCtx, project: string): string {
  return `${ctx.base}/project?p=${encodeURIComponent(project)}`;
}

/** A byte or event count in short form (`1.2k`). */
export function short(n: number): string {
  return n >= 10_000
    ? `${Math.round(n / 1000)}k`
    : n >= 1000
    ? `${(n / 1000).toFixed(1)}k`
    : `${n}`;
}
