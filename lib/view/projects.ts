/**
 * The projects page (`/projects`), one project's page (`/project?p=`: its
 * sessions, the files agents touched most), and `deja blame` for one file
 * (`/blame?path=&p=`: lib/memory/blame.ts, the sessions that changed it).
 *
 * @module
 */
import { nameChain } from "../memory/renames.ts";
import { hasFileTime, isUndated, newerFirst, timeRank } from "../session_time.ts";
import { Q } from "../schema.ts";
import { plural } from "../../core/text.ts";
import { isAbsoluteAny } from "../../core/paths.ts";
import { blame } from "../memory/blame.ts";
import { matchLabel } from "../memory/paths.ts";
import { defaultHidden } from "../search/sessions.ts";
import { htm } from "./html.ts";
import { sessionTable } from "./list.ts";
import { badge, page, projectHref, sessionHref, shortPath, type ViewCtx, when } from "./layout.ts";

interface ProjectRow {
  project: string;
  sessions: number;
  /** The newest update of its sessions (epoch ms), dated times over undated ones. */
  last: number | null;
  /** `last` is an undated session's (no session of it is dated, lib/session_time.ts). */
  undated: boolean;
  /** `last` is a store file's mtime (shown marked). */
  fromFile: boolean;
  harnesses: Set<string>;
}

/** Every project with sessions, most recently active first. */
export function projectsPage(ctx: ViewCtx, junk: boolean): string {
  const hidden = defaultHidden(ctx.store, { env: ctx.env, junk });
  const by = new Map<string, ProjectRow>();
  for (const r of Q.viewSessionTimes.all(ctx.store, {})) {
    const p = r.project;
    if (!p || hidden.has(r.id)) continue;
    const row = by.get(p) ??
      {
        project: p,
        sessions: 0,
        last: null,
        undated: false,
        fromFile: false,
        harnesses: new Set<string>(),
      };
    row.sessions++;
    // Last active: the newest update (not the first start), a dated one over an undated one.
    const undated = isUndated(r);
    if (timeRank(r.last, undated) > timeRank(row.last, row.undated)) {
      [row.last, row.undated, row.fromFile] = [r.last, undated, hasFileTime(r)];
    }
    row.harnesses.add(r.harness);
    by.set(p, row);
  }
  const rows = [...by.values()].sort((a, b) =>
    newerFirst(timeRank(a.last, a.undated), timeRank(b.last, b.undated))
  ).map((r) =>
    htm`
      <tr>
        <td><a href="${projectHref(ctx, r.project)}">${shortPath(ctx, r.project)}</a></td>
        <td>${
      [...r.harnesses].sort().map((h) =>
        htm`
            ${badge(h)}
          `
      )
    }</td>
        <td class="when">${when(r.last, { timeFromFile: r.undated ? "shared" : r.fromFile })}</td>
        <td class="num">${r.sessions}</td>
      </tr>
    `
  );
  return page(ctx, {
    title: "Projects",
    nav: "projects",
    body: htm`
      <h1>Projects</h1><form class="filters" method="get"
        action="${ctx.base}/projects"><label class="mut"><input type="checkbox" name="junk" value="1"${
      junk
        ? htm`
            checked
          `
        : ""
    }> throwaway projects</label></form>${
      rows.length
        ? htm`
            <table>
              <thead>
                <tr>
                  <th>project</th>
                  <th>harnesses</th>
                  <th>last active</th>
                  <th class="num">sessions</th>
                </tr>
              </thead>
              <tbody>${rows}</tbody>
            </table>
          `
        : htm`<div class="empty">No projects yet.</div>`
    }
    `,
  });
}

/** One project: its sessions and the files its sessions touched most. */
export function projectPage(ctx: ViewCtx, project: string): string | undefined {
  const known = ctx.store.db.prepare("SELECT 1 FROM sessions WHERE project = ? LIMIT 1").get(
    project,
  );
  if (!known) return undefined;
  const files = Q.viewProjectFiles.all(ctx.store, { project });
  const fileRows = files.map((f) =>
    htm`
      <tr>
        <td class="path"><a href="${ctx.base}/blame?p=${
      encodeURIComponent(
        project,
      )
    }&path=${encodeURIComponent(String(f.path))}">${shortPath(ctx, String(f.path))}</a></td>
        <td class="num" data-l="edits">${f.edits}</td>
        <td class="num" data-l="writes">${f.writes}</td>
        <td class="num" data-l="reads">${f.reads}</td>
        <td class="num" data-l="failed">${f.failed}</td>
        <td class="num" data-l="sessions">${f.sessions}</td>
      </tr>
    `
  );
  return page(ctx, {
    title: shortPath(ctx, project),
    nav: "projects",
    body: htm`<h1>${shortPath(ctx, project)}</h1>
<h2>Files agents touched most</h2>${
      files.length
        ? htm`
          <table class="files">
            <thead>
              <tr>
                <th>file (blame)</th>
                <th class="num">edits</th>
                <th class="num">writes</th>
                <th class="num">reads</th>
                <th class="num">failed</th>
                <th class="num">sessions</th>
              </tr>
            </thead>
            <tbody>${fileRows}</tbody>
          </table>
        `
        : htm`<p class="sub">No file touches recorded.</p>`
    }
<h2>Sessions</h2>${sessionTable(ctx, { project, junk: true })}`,
  });
}

/** `deja blame` for one file of a project: the sessions that changed it, newest first. */
export function blamePage(ctx: ViewCtx, path: string, project: string): string {
  // A relative path without a project is taken from the directory deja view runs in, as
  // `deja blame` run there takes it, and said; with none known, the page says it cannot
  // (trial 99 F1: `apps/x.yaml` was read as `/apps/x.yaml` and answered for that file).
  const relative = !project && !isAbsoluteAny(path.trim()) && !path.trim().startsWith("~");
  const cwd = project || (relative ? ctx.cwd : "/");
  if (!cwd) {
    return page(ctx, {
      title: `blame ${path}`,
      nav: "projects",
      body: htm`<h1 class="path">${path}</h1><div class="empty">A relative path, and deja view
        knows no directory it is relative to: give the file's whole path, or open it from its
        project's page.</div>`,
    });
  }
  const res = blame(ctx.store, path, {
    cwd,
    limit: 50,
    hidden: defaultHidden(ctx.store, { env: ctx.env, project: project || undefined }),
  });
  // Each change names the file it changed when more than one file matched, or none exactly
  // (trial 99 F1: a basename match listed writes to two other files and named neither).
  const paths = new Set(res.sessions.flatMap((b) => b.paths));
  const named = res.match !== "exact" || paths.size > 1;
  const items = res.sessions.map((b) =>
    htm`
      <div
        class="hit"><div>${badge(b.session.harness)} <a class="title" href="${
      sessionHref(
        ctx,
        b.session.harness,
        b.session.native_id,
      )
    }">${b.session.title || b.session.native_id}</a></div><div class="sub">${
      when(
        b.last,
      )
    } · ${plural(b.edits, "edit")} · ${plural(b.writes, "write")} · ${plural(b.reads, "read")}${
      b.failed ? ` · ${b.failed} failed` : ""
    }${
      // As `deja blame` says it: removed or moved by a command after its last touch.
      b.removed ? " · removed later" : b.moved_to ? ` · moved later to ${b.moved_to}` : ""}${
      // Its history under earlier names (trials 97 F1, 100 F1).
      b.moved_from
        ? ` · ${b.copied ? "copied" : "moved"} here from ${
          nameChain(b.moved_from, b.session.project)
        }`
        : b.earlier_names
        ? ` · as ${nameChain(b.earlier_names, b.session.project)}, ${
          b.copied ? "copied" : "moved"
        } here later`
        : ""}${
      named && !b.changes.length
        ? htm` · <span class="path">${b.paths.map((p) => shortPath(ctx, p)).join(", ")}</span>`
        : ""
    }</div>${
      b.changes.slice(0, 6).map((c) =>
        htm`
              <div
                class="snip"><a href="${
          sessionHref(
            ctx,
            b.session.harness,
            b.session.native_id,
            c.seq,
          )
        }"><span class="badge">${c.op}</span> ${when(c.time)}</a>${
          named
            ? htm`
                    <span class="path">${shortPath(ctx, c.path)}</span>
                  `
            : ""
        }${
          c.before
            ? htm`
                    — ${c.before}
                  `
            : ""
        }</div>
            `
      )
    }</div>
    `
  );
  return page(ctx, {
    title: `blame ${shortPath(ctx, path)}`,
    nav: "projects",
    body: htm`
      <h1 class="path">${shortPath(ctx, relative ? path : res.target)}</h1>${
      relative
        ? htm`<p class="sub">A relative path: taken from ${
          shortPath(ctx, cwd)
        }, where deja view was started, as <code>deja blame</code> run there takes it (${
          shortPath(ctx, res.target)
        }).</p>`
        : ""
    }<p
        class="sub">${
      // As `deja blame` counts and names it (trial 95 F7: "9 sessions touched this file" of
      // other files of its name, the hidden ones counted in).
      res.match === "basename"
        ? `No session touched this file itself; ${res.listed} ${
          res.listed === 1 ? "session" : "sessions"
        } touched a file of this name elsewhere (${matchLabel(res)})`
        : res.match === "suffix"
        ? `${res.listed} ${
          res.listed === 1 ? "session" : "sessions"
        } touched a file whose path ends so (${matchLabel(res)})`
        : `${res.listed} ${res.listed === 1 ? "session" : "sessions"} touched this file`}${
      res.hidden ? ` (${res.hidden} of throwaway or excluded projects hidden)` : ""
    }${
      project
        ? htm`
            · <a href="${projectHref(ctx, project)}">back to the project</a>
          `
        : ""
    }</p>${items.length ? items : htm`<div class="empty">No session changed this file.</div>`}
    `,
  });
}
