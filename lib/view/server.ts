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
 * (lib/fresh/freshen.ts, at most once per {@link FRESHEN_EVERY_MS}).
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Duplex } from "node:stream";
import type { Env, Parser } from "../../core/model.ts";
import { indexPath, Store } from "../store.ts";
import { freshen, refreshOff } from "../fresh/freshen.ts";
import { CSS, JS } from "./assets.ts";
import { esc } from "./html.ts";
import type { ViewCtx } from "./layout.ts";
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
    answer(req, { token, port, env: o.env, now: now(), freshen: freshenMaybe, cwd: o.cwd })
      .then((r) => send(res, r, req.method === "HEAD"))
      .catch((e) => send(res, fail(500, `deja view: ${(e as Error)?.message ?? e}`), false));
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

function fail(status: number, message: string): Reply {
  return { status, type: "text/plain; charset=utf-8", body: message + "\n" };
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
  if (!PAGES.has(route)) return fail(404, "not found");
  await s.freshen();
  let store: Store;
  try {
    store = Store.open(indexPath(s.env), { readOnly: true });
  } catch (e) {
    return {
      status: 503,
      type: HTML,
      body: `<!doctype html><meta charset="utf-8"><title>deja</title><p>${
        esc((e as Error).message)
      }</p><p>Run <code>deja index</code>, then reload.</p>`,
    };
  }
  try {
    const ctx: ViewCtx = { base: `/${s.token}`, store, env: s.env, now: s.now, cwd: s.cwd };
    return await route_(ctx, route, url.searchParams);
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
      return body ? ok(body) : fail(404, "no such session in the index");
    }
    case "/projects":
      return ok(projectsPage(ctx, junk));
    case "/project": {
      const body = projectPage(ctx, q.get("p") ?? "");
      return body ? ok(body) : fail(404, "no such project in the index");
    }
    case "/blame":
      return ok(blamePage(ctx, q.get("path") ?? "", q.get("p") ?? ""));
    default:
      return ok(activityPage(ctx, junk));
  }
}
