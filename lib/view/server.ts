/**
 * The server of `deja view`: plain `node:http` (the same in Deno and in the
 * Bun-compiled binary), bound to 127.0.0.1 only, read-only (GET and HEAD),
 * and closed to everyone but the person who started it:
 * - every path starts with a random per-run token (`/<token>/…`), compared in
 *   constant time; anything else is 403;
 * - the Host header must name this server (`127.0.0.1:<port>` or
 *   `localhost:<port>`), so a page of another site that rebinds its DNS name
 *   to 127.0.0.1 is refused (403);
 * - no CORS header is ever sent, so another origin's script cannot read an
 *   answer; a strict Content-Security-Policy allows only this server's own
 *   script and stylesheet, so transcript text that slipped past escaping
 *   still could not run.
 * Pages read the index read-only, freshened first the way the CLI freshens it
 * (lib/fresh/freshen.ts, at most once per {@link FRESHEN_EVERY_MS}). What goes
 * wrong past the key (no index yet, a damaged one, a session not there) is a
 * page of the app with the CLI's message and hint ({@link errorPage}).
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { existsSync } from "node:fs";
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Duplex } from "node:stream";
import type { Env, Parser } from "../../core/model.ts";
import { asIndexError, indexPath, Store } from "../store.ts";
import { runningBackground } from "../fresh/background.ts";
import { olderRedaction } from "../fresh/revised.ts";
import { DejaError } from "../../core/errors.ts";
import { resolveSession } from "../sessions.ts";
import { htm } from "./html.ts";
import { freshen, refreshOff } from "../fresh/freshen.ts";
import { CSS, JS } from "./assets.ts";
import { page, type ViewCtx } from "./layout.ts";
import { filtersOf, listPage } from "./list.ts";
import { searchPage, searchResults } from "./search.ts";
import { sessionPage } from "./session.ts";
import { blamePage, projectPage, projectsPage } from "./projects.ts";
import { activityPage } from "./activity.ts";

/** Pages freshen the index at most this often. */
export const FRESHEN_EVERY_MS = 10_000;

/**
 * The longest request head the server reads, in bytes: a search's words travel in the address,
 * and node's default of 16 KiB answered a pasted 16 KB stack trace with an empty 431 (trial 95
 * F9). The search cuts what it does not use and says so (lib/query.ts `cutNote`).
 */
export const MAX_HEAD_BYTES = 512 * 1024;

/** Options of {@link startView}. */
export interface ViewOptions {
  env: Env;
  /** Port on 127.0.0.1; 0 (the default) lets the system choose a free one. */
  port?: number;
  /** Parsers for freshening; none means the index is shown as it is. */
  parsers?: readonly Parser[];
  /** Fixed "now" for tests (epoch ms). */
  now?: () => number;
  /** Least time between two freshens in ms (default {@link FRESHEN_EVERY_MS}). */
  freshenEveryMs?: number;
  /** A fixed token (tests); default 24 random bytes, base64url. */
  token?: string;
  /** The directory it was started in (a relative blame path is taken from it, {@link ViewCtx.cwd}). */
  cwd?: string;
}

/** A running `deja view`. */
export interface ViewServer {
  /** The address to open, token included (`http://127.0.0.1:<port>/<token>/`). */
  url: string;
  port: number;
  token: string;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}

/** One answer. */
interface Reply {
  status: number;
  type: string;
  body: string;
}

/** Headers every answer carries. */
const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
};

const HTML = "text/html; charset=utf-8";

/** Starts the server; resolves once it listens. */
export async function startView(o: ViewOptions): Promise<ViewServer> {
  const token = o.token ?? randomBytes(24).toString("base64url");
  const now = o.now ?? Date.now;
  let port = 0;
  let lastFresh = 0;
  const freshenMaybe = async () => {
    if (
      !o.parsers?.length || refreshOff(o.env) ||
      now() - lastFresh < (o.freshenEveryMs ?? FRESHEN_EVERY_MS)
    ) return;
    lastFresh = now();
    await freshen(o.env, o.parsers);
  };
  const server = createServer({ maxHeaderSize: MAX_HEAD_BYTES }, (req, res) => {
    const at = now();
    answer(req, { token, port, env: o.env, now: at, freshen: freshenMaybe, cwd: o.cwd })
      .then((r) => send(res, r, req.method === "HEAD"))
      .catch((e) =>
        send(
          res,
          errorPage({ base: `/${token}`, now: at }, 500, {
            message: `deja view: ${(e as Error)?.message ?? e}`,
          }),
          false,
        )
      );
  });
  server.on("clientError", refuseRaw);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, "127.0.0.1", () => resolve());
  });
  const addr = server.address();
  port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

function send(res: ServerResponse, r: Reply, head: boolean): void {
  const body = Buffer.from(r.body, "utf8");
  res.writeHead(r.status, {
    ...SECURITY_HEADERS,
    "Content-Type": r.type,
    "Content-Length": String(body.length),
  });
  res.end(head ? undefined : body);
}

/**
 * A request the HTTP parser refused, answered with a page that says why rather than the empty
 * one node sends (trial 95 F9: a blank page for a query past the head's limit).
 */
function refuseRaw(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return;
  const long = err.code === "HPE_HEADER_OVERFLOW";
  const body = long
    ? `<!doctype html><meta charset="utf-8"><title>deja</title><p>The search is longer than ` +
      `deja view reads (${MAX_HEAD_BYTES / 1024} KB in the address).</p><p>Search for the few ` +
      `words that name the problem, or run <code>deja search</code> in a terminal.</p>\n`
    : "deja view: a request it could not read\n";
  const head = long ? "431 Request Header Fields Too Large" : "400 Bad Request";
  const type = long ? HTML : "text/plain; charset=utf-8";
  const headers = Object.entries(SECURITY_HEADERS).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  socket.end(
    `HTTP/1.1 ${head}\r\n${headers}Content-Type: ${type}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A plain-text answer: to a request without this run's key, which is shown no page of it. */
function fail(status: number, message: string): Reply {
  return { status, type: "text/plain; charset=utf-8", body: message + "\n" };
}

/** What went wrong, as the CLI says it: a message and, when the fix is known, a hint. */
interface Trouble {
  message: string;
  hint?: string;
}

/**
 * An error as a page of the app (header, navigation, a way back) with the CLI's message and
 * hint (trial 112 F5: bare one-line text, and a damaged index's answer lacked the
 * `deja index --rebuild` hint the CLI gives).
 */
function errorPage(
  ctx: Pick<ViewCtx, "base" | "now">,
  status: number,
  t: Trouble,
  o: { title?: string; reload?: boolean } = {},
): Reply {
  const body = htm`<h1>${o.title ?? "Not shown"}</h1>
<div class="empty"><p>${t.message}</p>${t.hint ? htm`<p class="sub">hint: ${t.hint}</p>` : ""}${
    o.reload
      ? htm`<p class="sub">Reload this page once it is done.</p>`
      : htm`<p><a class="drop" href="${ctx.base}/">Back to the sessions</a></p>`
  }</div>`;
  return { status, type: HTML, body: page(ctx, { title: o.title ?? "Not shown", nav: "", body }) };
}

/** An error a page's read of the index met, as {@link Trouble}; anything else unchanged. */
function troubleOf(e: unknown, path: string): Trouble | undefined {
  const x = asIndexError(e, path);
  return x instanceof DejaError ? { message: x.message, hint: x.hint } : undefined;
}

interface Served {
  token: string;
  port: number;
  env: Env;
  now: number;
  freshen: () => Promise<void>;
  cwd?: string;
}

/** True when `host` (a Host header) names this server. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** True when `given` is the token (compared in constant time). */
export function tokenMatches(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function answer(req: IncomingMessage, s: Served): Promise<Reply> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    return fail(405, "deja view is read-only");
  }
  if (!hostAllowed(req.headers.host, s.port)) {
    return fail(403, "forbidden: this server answers only to 127.0.0.1 and localhost");
  }
  const url = new URL(req.url ?? "/", `http://127.0.0.1:${s.port}`);
  const [, first = "", ...rest] = url.pathname.split("/");
  if (!tokenMatches(first, s.token)) {
    return fail(403, "forbidden: open the address 'deja view' printed (it holds this run's key)");
  }
  const route = "/" + rest.join("/");
  if (route === "/app.css") return { status: 200, type: "text/css; charset=utf-8", body: CSS };
  if (route === "/app.js") return { status: 200, type: "text/javascript; charset=utf-8", body: JS };
  const shell = { base: `/${s.token}`, now: s.now };
  if (!PAGES.has(route)) {
    return errorPage(shell, 404, { message: `deja view has no page ${route}` });
  }
  await s.freshen();
  const path = indexPath(s.env);
  let store: Store;
  try {
    store = Store.open(path, { readOnly: true });
  } catch (e) {
    const t = troubleOf(e, path);
    if (!t) throw e;
    // The first index being built in the background (started by the freshen above, or by a
    // command): said, not "run deja index" (trial 112 F5).
    const there = existsSync(path);
    return !there && runningBackground(s.env, s.now)
      ? errorPage(shell, 503, {
        message: "No index yet: deja is building it in the background now (first run).",
      }, { title: "Building the index", reload: true })
      : errorPage(shell, 503, t, {
        title: there ? "The index cannot be read" : "No index yet",
        reload: !there,
      });
  }
  try {
    // Text older secret-redaction rules wrote is shown on no page (trial 133 F2: right after an
    // upgrade the session page showed 21 secrets the new rules mask): the page says why, and
    // reloads while the background run reads it again.
    const older = olderRedaction(store);
    if (older) {
      const reading = !refreshOff(s.env) && Boolean(runningBackground(s.env, s.now));
      const stores = older === 1 ? "1 store" : `${older} stores`;
      return errorPage(shell, 503, {
        message: reading
          ? `deja is reading ${stores} of its history again under new secret-redaction rules; ` +
            "nothing is shown from the index until it is done, so no secret the new rules mask " +
            "is."
          : `The index holds text ${stores} gave under older secret-redaction rules, and nothing ` +
            "is reading it again now: nothing is shown from it until then.",
        ...(reading ? {} : { hint: "run 'deja index' in a terminal, then reload" }),
      }, { title: "Reading the history again", reload: reading });
    }
    const ctx: ViewCtx = { ...shell, store, env: s.env, cwd: s.cwd };
    return await route_(ctx, route, url.searchParams);
  } catch (e) {
    // A damaged index (SQLite says malformed as a page reads it) is said as the CLI says it,
    // with the hint to rebuild it; 503, as when it cannot even be opened (trial 113 F11: the
    // same damage answered 500 on some pages and 503 on others).
    const t = troubleOf(e, path);
    if (!t) throw e;
    return errorPage(shell, 503, t, { title: "The index cannot be read" });
  } finally {
    store.close();
  }
}

const PAGES = new Set([
  "/",
  "/search",
  "/api/search",
  "/session",
  "/projects",
  "/project",
  "/blame",
  "/stats",
]);

async function route_(ctx: ViewCtx, route: string, q: URLSearchParams): Promise<Reply> {
  const ok = (body: string): Reply => ({ status: 200, type: HTML, body });
  const f = filtersOf(q);
  const junk = q.get("junk") === "1";
  switch (route) {
    case "/":
      return ok(listPage(ctx, f));
    case "/search":
      return ok(await searchPage(ctx, (q.get("q") ?? "").trim(), f));
    case "/api/search":
      return ok((await searchResults(ctx, (q.get("q") ?? "").trim(), f)).value);
    case "/session": {
      const at = Number(q.get("at") ?? 0);
      const body = sessionPage(
        ctx,
        q.get("h") ?? "",
        q.get("id") ?? "",
        Number.isSafeInteger(at) && at > 0 ? at : 0,
      );
      return body ? ok(body) : errorPage(ctx, 404, missingSession(ctx, q), {
        title: "No such session",
      });
    }
    case "/projects":
      return ok(projectsPage(ctx, junk));
    case "/project": {
      const body = projectPage(ctx, q.get("p") ?? "");
      return body ? ok(body) : errorPage(ctx, 404, {
        message: `no session of project '${q.get("p") ?? ""}' is in the index`,
        hint: "the Projects page lists those it holds",
      }, { title: "No such project" });
    }
    case "/blame":
      return ok(blamePage(ctx, q.get("path") ?? "", q.get("p") ?? ""));
    default:
      return ok(activityPage(ctx, junk));
  }
}

/**
 * Why `/session?h=<harness>&id=<id>` names no session, as `deja show <harness>:<id>` says it
 * (lib/sessions.ts: its message and hint).
 */
function missingSession(ctx: ViewCtx, q: URLSearchParams): Trouble {
  const [harness, id] = [q.get("h") ?? "", (q.get("id") ?? "").trim()];
  if (!id) return { message: "the address names no session", hint: "open one from the list" };
  try {
    resolveSession(ctx.store, harness ? `${harness}:${id}` : id);
  } catch (e) {
    if (e instanceof DejaError) return { message: e.message, hint: e.hint };
    throw e;
  }
  return { message: `no ${harness} session '${id}' is in the index` };
}
