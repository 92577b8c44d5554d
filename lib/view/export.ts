/**
 * `deja view --out DIR`: the pages of one project or one session written as
 * static files to share — no server, no key. The pages are the ones the server
 * renders (rendered with a placeholder base), then every link between them is
 * made a relative file link (`session-….html#e12`), links to pages not
 * written lose their target, and the stylesheet and script are written beside
 * them. Secrets redaction (lib/redact.ts) runs again over every text and
 * attribute value written: the index was redacted when it was built, and a
 * rule added since then still masks what it knows; the masks are counted. A value a cue
 * names in a session's texts (lib/redact.ts namedIn: `sshpass -p '…'`, `the password is …`)
 * is masked too where the pages repeat it bare, as a fresh index masks it in its session:
 * in every page written, since pages quote other sessions (a subagent's names its parent's
 * title, the project's page and the blame pages quote several) (trial 133 F3: an export right
 * after an upgrade masked the cue's value by the newer rule, and wrote its later repeat in
 * clear).
 *
 * Every export lists the files it wrote in {@link MANIFEST}. With `force`, the
 * pages a previous export listed there that this one does not write are
 * removed (another project's sessions would otherwise stay beside the new ones
 * and be published with them, trial 126 F2); any other file already there is
 * kept and named, never removed. A file at a name this export writes that the
 * previous export did not list (the user's own `index.html`, or one of an
 * export made before the list existed) is never overwritten: the export is
 * refused before anything is written, naming it (trial 128 F7).
 *
 * @module
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import type { Env } from "../../core/model.ts";
import { DejaError } from "../../core/errors.ts";
import type { SessionRow } from "../rows.ts";
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import {
  type FoundSecrets,
  namedIn,
  redact,
  type RedactionCounts,
  redactRepeats,
} from "../redact.ts";
import { CSS, JS } from "./assets.ts";
import { esc } from "./html.ts";
import { pageStart, VIEW_PAGE, type ViewCtx } from "./layout.ts";
import { sessionPage } from "./session.ts";
import { blamePage, projectPage } from "./projects.ts";

/** What to export: every session of a project, or one session (with its subagents). */
export type ExportTarget = { project: string } | { session: SessionRow };

/** Options of {@link exportView}. */
export interface ExportOptions {
  store: Store;
  env: Env;
  /** The directory to write; made when missing. */
  out: string;
  target: ExportTarget;
  /**
   * Write into a directory that already holds files, replacing the files a previous export
   * listed in its {@link MANIFEST}; refused when another file is at a name this one writes.
   */
  force?: boolean;
  /** Epoch ms "now". */
  now: number;
}

/** What {@link exportView} wrote. */
export interface ExportResult {
  out: string;
  /** The page to open first. */
  index: string;
  /** Every file written, relative to `out`, in the order written. */
  files: string[];
  pages: number;
  /**
   * Pages a previous export wrote to `out` (listed in its {@link MANIFEST}) that this one
   * does not write: removed.
   */
  removed: string[];
  /** Files already in `out` that this export neither wrote nor removed: kept, not deja's. */
  kept: string[];
  /** Secrets masked while writing, per kind. */
  redacted: RedactionCounts;
  /** Their sum. */
  masked: number;
}

/** The file, in the directory written, listing the files an export wrote (one a line). */
export const MANIFEST = ".deja-export";

/** The names of the pages an export writes beside `index.html`: only these are ever removed. */
const PAGE_FILE = /^(?:session|blame)-[0-9a-f]{12}\.html$/;

/** The base links are rendered with; it never reaches a file (every link is rewritten). */
const BASE = "/deja-export";

/** One page to write: the link key the pages use for it, its file, its content. */
interface Planned {
  key: string;
  file: string;
  render: () => string | null;
  /** The session (row id) whose page it is; none for a page quoting several. */
  session?: number;
}

/** Masks the repeats of values a cue named (lib/redact.ts redactRepeats). */
type Repeats = (text: string, counts: RedactionCounts) => string;

/**
 * Writes the pages of `o.target` to `o.out`.
 *
 * @throws {DejaError} exit 2 when `o.out` is a file, a directory holding
 *   files and `o.force` is not set, or a directory holding a file at a name
 *   this export writes that the previous export did not list; nothing is
 *   written then.
 */
export function exportView(o: ExportOptions): ExportResult {
  checkOut(o.out, o.force === true);
  const before = existsSync(o.out) ? readdirSync(o.out) : [];
  const ctx: ViewCtx = { base: BASE, store: o.store, env: o.env, now: o.now, static: true };
  const plan = "project" in o.target
    ? projectPlan(ctx, o.target.project)
    : sessionPlan(ctx, o.target.session);
  if (before.length) checkOwn(o.out, [...plan.map((p) => p.file), "app.css", "app.js"]);
  const fileOf = new Map(plan.map((p) => [p.key, p.file]));
  const counts: RedactionCounts = {};
  const repeats = repeatsOf(o.store, plan);
  mkdirSync(o.out, { recursive: true });
  const written: string[] = [];
  for (const p of plan) {
    const html = p.render();
    if (html === null) continue;
    writeFileSync(join(o.out, p.file), rewrite(html, fileOf, counts, repeats));
    written.push(p.file);
  }
  writeFileSync(join(o.out, "app.css"), CSS);
  writeFileSync(join(o.out, "app.js"), JS);
  const files = [...written, "app.css", "app.js"];
  const { removed, kept } = clearStale(o.out, before, new Set(files));
  writeFileSync(join(o.out, MANIFEST), files.join("\n") + "\n");
  return {
    out: o.out,
    index: join(o.out, "index.html"),
    files,
    pages: written.length,
    removed,
    kept,
    redacted: counts,
    masked: Object.values(counts).reduce((a, b) => a + b, 0),
  };
}

/**
 * What masks the repeats of the values a cue names in the texts of the sessions `plan` writes
 * (their events' texts and call data, and their titles: lib/redact.ts namedIn); null when
 * there are none.
 */
function repeatsOf(store: Store, plan: Planned[]): Repeats | null {
  const found: FoundSecrets = new Map();
  for (const id of new Set(plan.flatMap((p) => p.session === undefined ? [] : [p.session]))) {
    namedIn(Q.sessionById.get(store, { id })?.title ?? "", found);
    for (const e of Q.eventsOfSession.all(store, { session: id })) {
      namedIn(e.text, found);
      if (e.data) namedIn(e.data, found);
    }
  }
  return redactRepeats(found);
}

function checkOut(out: string, force: boolean): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) {
    throw new DejaError(`${out} is a file, not a directory`, "name a new or empty directory", 2);
  }
  if (!force && readdirSync(out).length) {
    throw new DejaError(
      `${out} is not empty`,
      "name a new or empty directory, or add --force to write into it (an earlier export's pages " +
        "are replaced, other files kept and named; a file of yours at a name it writes is refused)",
      2,
    );
  }
}

/**
 * Refuses to write when `out` holds a file at one of the names this export writes (`names`)
 * that the previous export did not list in its manifest, or that is no longer a plain file
 * (a directory, a link): it is the user's, and writing would replace it unsaid.
 */
function checkOwn(out: string, names: string[]): void {
  const listed = new Set(readManifest(out));
  const own = [...new Set(names)].filter((name) => {
    const st = lstatSync(join(out, name), { throwIfNoEntry: false });
    return st !== undefined && (!listed.has(name) || !st.isFile());
  }).sort();
  if (!own.length) return;
  const shown = own.slice(0, 5).join(", ") + (own.length > 5 ? `, … (${own.length})` : "");
  throw new DejaError(
    `${out} holds ${own.length === 1 ? "a file" : "files"} this export would overwrite that no ` +
      `earlier export wrote (no ${MANIFEST} there lists ${
        own.length === 1 ? "it" : "them"
      }): ${shown}`,
    `move ${own.length === 1 ? "it" : "them"} out of the directory, or name another directory ` +
      "with --out; nothing was written",
    2,
  );
}

/**
 * Removes from `out` the pages a previous export listed in its manifest that this one did
 * not write (`written`); names every other file that was there before (`before`) and is
 * neither written nor removed.
 */
function clearStale(
  out: string,
  before: string[],
  written: Set<string>,
): { removed: string[]; kept: string[] } {
  const listed = new Set(readManifest(out));
  const removed: string[] = [];
  const kept: string[] = [];
  for (const name of before.sort()) {
    if (written.has(name) || name === MANIFEST) continue;
    const path = join(out, name);
    if (listed.has(name) && PAGE_FILE.test(name) && lstatSync(path).isFile()) {
      unlinkSync(path);
      removed.push(name);
    } else kept.push(name);
  }
  return { removed, kept };
}

/** The files the previous export to `out` listed; none when it left no manifest. */
function readManifest(out: string): string[] {
  try {
    return readFileSync(join(out, MANIFEST), "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/** The link key of a route and its query (parameters sorted), as the pages link it. */
function keyOf(route: string, params: Record<string, string> | URLSearchParams): string {
  const q = new URLSearchParams(params);
  q.sort();
  const s = q.toString();
  return s ? `${route}?${s}` : route;
}

function hashName(prefix: string, ...parts: string[]): string {
  const h = createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 12);
  return `${prefix}-${h}.html`;
}

/** The link key of a session's page that starts at seq `from` (lib/view/layout.ts `VIEW_PAGE`). */
function sessionKey(s: SessionRow, from = 0): string {
  return keyOf("/session", { h: s.harness, id: s.native_id, ...from ? { at: String(from) } : {} });
}

/** Every page of each of `sessions` and of their subagents: a long session is several. */
function sessionEntries(ctx: ViewCtx, sessions: SessionRow[], rootFile?: string): Planned[] {
  const all = new Map<number, SessionRow>(sessions.map((s) => [s.id, s]));
  const ids = JSON.stringify([...all.keys()]);
  for (const c of Q.childrenOfMany.all(ctx.store, { ids })) all.set(c.id, c);
  return [...all.values()].flatMap((s, i) => {
    const last = pageStart(Math.max(0, Q.maxSeq.get(ctx.store, { session: s.id })?.seq ?? 0));
    const out: Planned[] = [];
    for (let from = 0; from <= last; from += VIEW_PAGE) {
      out.push({
        key: sessionKey(s, from),
        file: i === 0 && rootFile && !from
          ? rootFile
          : hashName("session", s.harness, s.native_id, ...from ? [String(from)] : []),
        render: () => sessionPage(ctx, s.harness, s.native_id, from),
        session: s.id,
      });
    }
    return out;
  });
}

function sessionPlan(ctx: ViewCtx, s: SessionRow): Planned[] {
  return sessionEntries(ctx, [s], "index.html");
}

function projectPlan(ctx: ViewCtx, project: string): Planned[] {
  const sessions = Q.viewProjectSessions.all(ctx.store, { project });
  const blames = Q.viewProjectFiles.all(ctx.store, { project }).map((f): Planned => ({
    key: keyOf("/blame", { p: project, path: String(f.path) }),
    file: hashName("blame", project, String(f.path)),
    render: () => blamePage(ctx, String(f.path), project),
  }));
  return [
    {
      key: keyOf("/project", { p: project }),
      file: "index.html",
      render: () => projectPage(ctx, project) ?? null,
    },
    ...sessionEntries(ctx, sessions),
    ...blames,
  ];
}

const UNESC: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};

function unesc(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => UNESC[e]);
}

/**
 * Redacts escaped text (unescaped first, so a secret in quotes is seen as it was written),
 * and masks the repeats of `repeats`' values.
 */
function redactEscaped(
  text: string,
  counts: RedactionCounts,
  repeats: Repeats | null,
  context = "",
): string {
  const plain = unesc(text);
  const redacted = redact(plain, counts, undefined, context);
  const masked = repeats ? repeats(redacted, counts) : redacted;
  return masked === plain ? text : esc(masked);
}

/**
 * A page made ready to be a file: links into the pages written become
 * relative file links, other links to the server lose their target, and every
 * text and attribute value is redacted again (and the repeats of `repeats`' values masked:
 * {@link repeatsOf}). The markup is deja's own
 * (lib/view/html.ts escapes `& < > " '` in every value), so a `<` or `>`
 * only ever delimits a tag and a `"` only ever delimits an attribute value.
 */
export function rewrite(
  html: string,
  files: Map<string, string>,
  counts: RedactionCounts,
  repeats: Repeats | null = null,
): string {
  // The text before each text node, its own line (a diff's lines are nodes apart: trial 137
  // M2, a Kubernetes `- name: X_PUBLIC_KEY` line and its `value: …` line), for what names a
  // value at a node's start.
  let before = "";
  return html.split(/(<[^>]*>)/).map((part, i) => {
    if (i % 2 === 0) {
      const out = redactEscaped(part, counts, repeats, before);
      if (part.trim()) before = unesc(part).slice(-120) + "\n";
      return out;
    }
    return part.replace(/(\s)([a-zA-Z-]+)="([^"]*)"/g, (_m, sp, name, value) => {
      if (name === "href" || name === "src" || name === "action" || name === "data-base") {
        const target = localTarget(unesc(value), files);
        if (target === undefined) return `${sp}${name}="${value}"`;
        return target === null ? "" : `${sp}${name}="${esc(target)}"`;
      }
      return `${sp}${name}="${redactEscaped(value, counts, repeats)}"`;
    });
  }).join("");
}

/**
 * Where a link to the server points among the written files: a relative file
 * link, null when the page is not written, undefined when the link is not to
 * the server (`#e12`, `data:`).
 */
function localTarget(url: string, files: Map<string, string>): string | null | undefined {
  if (url !== BASE && !url.startsWith(BASE + "/")) return undefined;
  if (url === BASE) return ".";
  const rest = url.slice(BASE.length);
  const hashAt = rest.indexOf("#");
  const hash = hashAt < 0 ? "" : rest.slice(hashAt);
  const u = new URL(hashAt < 0 ? rest : rest.slice(0, hashAt), "http://x");
  if (u.pathname === "/" && !u.search) return "index.html";
  if (u.pathname === "/app.css" || u.pathname === "/app.js") return u.pathname.slice(1);
  const file = files.get(keyOf(u.pathname, u.searchParams));
  return file === undefined ? null : file + hash;
}
