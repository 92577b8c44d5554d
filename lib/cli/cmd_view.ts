/**
 * `deja view [--port N] [--no-open]`: browse, search and read the index in a
 * browser, served by deja itself on 127.0.0.1 (lib/view/server.ts) until
 * Ctrl-C. `deja view --out DIR --project <text> | <session>` writes one
 * project's or one session's pages as static files instead
 * (lib/view/export.ts).
 *
 * Parse ({@link parseView}) → run ({@link serveView} until a signal, or {@link exportData}) →
 * render ({@link serveText}, {@link exportText}; `--json` with `--out`).
 *
 * @module
 */
import { resolve } from "node:path";
import type { Args, CommandSpec } from "./common.ts";
import { intOpt, opt, printJson } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import type { Env } from "../../core/model.ts";
import { withStore } from "./_memory.ts";
import { refreshFor } from "./refresh.ts";
import { resolveSession } from "../sessions.ts";
import type { Store } from "../store.ts";
import { type ExportResult, type ExportTarget, exportView } from "../view/export.ts";
import { tilde } from "../../core/text.ts";
import { openBrowser, untilSignal } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { startView, type ViewServer } from "../view/server.ts";
import { parsers } from "../../parsers/mod.ts";
import { indexedProject, projectsLike } from "../project_path.ts";

export const viewCmd: CommandSpec = {
  usage: "view [--port N] [--no-open] | view --out DIR (--project <text> | <session>) [--force]",
  maxPositionals: 1,
  options: {
    port: {
      type: "string",
      value: "<N>",
      description: "port on 127.0.0.1 (default: a free one)",
    },
    "no-open": { type: "boolean", description: "print the address, do not open a browser" },
    out: {
      type: "string",
      value: "<DIR>",
      description: "write one project's or one session's pages as static files to share",
    },
    project: {
      type: "string",
      value: "<text>",
      // One project: its page is the export's first (trial 120 M4: "whose path contains this
      // text" wrote the one whose folder is `crush` of six such, naming none of the others).
      description:
        "with --out: one project: its path, its last folder's name, or text only its path holds",
    },
    force: { type: "boolean", description: "with --out: write into a directory that holds files" },
    json: { type: "boolean", description: "with --out: print what was written as JSON" },
  },
  run: runView,
};

/** What `deja view` was asked: serve the index, or export one project or session. */
export type ViewArgs =
  | {
    mode: "serve";
    /** Port on 127.0.0.1; 0 takes a free one. */
    port: number;
    /** Open a browser on the address. */
    open: boolean;
  }
  | {
    mode: "export";
    /** The directory to write, as typed. */
    out: string;
    /** What to export: a project (text its path contains) or a session reference. */
    target: { project: string } | { ref: string };
    force: boolean;
    json: boolean;
  };

/**
 * Reads `deja view`'s arguments.
 *
 * @throws {DejaError} exit 2 when an export option comes without --out, a session without
 *   --out, --out without exactly one of --project and a session, or a bad port.
 */
export function parseView(a: Args): ViewArgs {
  if (a.values.out !== undefined) return parseExport(a);
  for (const name of ["project", "force", "json"]) {
    if (a.values[name] !== undefined) {
      throw new DejaError(
        `--${name} goes with --out DIR`,
        "deja view --out DIR --project <text>",
        2,
      );
    }
  }
  if (a.positionals.length) {
    throw new DejaError(
      `'${a.positionals[0]}': a session is given only with --out DIR`,
      `deja view --out DIR ${a.positionals[0]}`,
      2,
    );
  }
  const port = a.values.port === undefined ? 0 : intOpt(a, "port", 0);
  if (port > 65535) throw new DejaError(`--port takes 1-65535, not ${port}`, undefined, 2);
  return { mode: "serve", port, open: !a.values["no-open"] };
}

function parseExport(a: Args): ViewArgs {
  const out = opt(a, "out");
  if (!out) {
    throw new DejaError("--out takes a directory", "deja view --out DIR --project <text>", 2);
  }
  const project = opt(a, "project");
  const ref = a.positionals[0];
  if ((project === undefined) === (ref === undefined)) {
    throw new DejaError(
      project === undefined
        ? "--out writes one project or one session: say which"
        : "give --project or a session, not both",
      "deja view --out DIR --project <text>   or   deja view --out DIR <session id>",
      2,
    );
  }
  return {
    mode: "export",
    out,
    target: project !== undefined ? { project } : { ref: ref! },
    force: a.values.force === true,
    json: Boolean(a.values.json),
  };
}

/**
 * Starts the server on 127.0.0.1 (`port` 0: a free one); a relative path on the blame page is
 * taken from `cwd`, as `deja blame` run there takes it.
 *
 * @throws {DejaError} exit 2 when the port is in use or not allowed.
 */
export async function serveView(env: Env, port: number, cwd?: string): Promise<ViewServer> {
  try {
    return await startView({ env, port, parsers, cwd });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "EADDRINUSE" || code === "EACCES") {
      throw new DejaError(
        `cannot listen on 127.0.0.1:${port} (${code === "EADDRINUSE" ? "in use" : "not allowed"})`,
        "leave out --port to take a free one",
        2,
      );
    }
    throw e;
  }
}

/** The address on stdout and what it means on stderr, once the server listens. */
export function serveText(url: string): { out: string; err: string } {
  return {
    out: `deja view: ${url}\n`,
    err: "Only this address (with its key) opens the pages; Ctrl-C stops the server.\n",
  };
}

/**
 * Writes the project's or session's pages under `out` (resolved against `cwd`).
 *
 * @throws {DejaError} when no project or session matches, several projects do, or the
 *   directory holds files and `force` is not set (lib/view/export.ts).
 */
export function exportData(
  store: Store,
  args: Extract<ViewArgs, { mode: "export" }>,
  io: Pick<IO, "env" | "cwd">,
  now = Date.now(),
): ViewExport {
  const project = "project" in args.target ? projectOf(store, args.target.project) : undefined;
  const target: ExportTarget = project !== undefined
    ? { project }
    : { session: resolveSession(store, (args.target as { ref: string }).ref) };
  const res = exportView({
    store,
    env: io.env,
    out: resolve(io.cwd, args.out),
    target,
    force: args.force,
    now,
  });
  if (project === undefined || !("project" in args.target)) return res;
  // The others whose path holds the text, the one written named by its path or last folder.
  const others = projectsLike(store, args.target.project).map((r) => r.project)
    .filter((p) => p !== project);
  return others.length ? { ...res, other_projects: others } : res;
}

/** What an export wrote ({@link ExportResult}), and the projects the text matched besides. */
export type ViewExport = ExportResult & {
  /**
   * With `--project`: the other projects whose path holds its text, the one written being
   * named by its path or last folder (`deja view --out DIR --project <path>` writes one).
   */
  other_projects?: string[];
};

/** The other projects `--project` matched, on stderr: how to write one of them instead. */
export function othersText(res: ViewExport, io: Pick<IO, "env">): string {
  const others = res.other_projects ?? [];
  if (!others.length) return "";
  const n = others.length;
  return `deja view: ${n} other ${n === 1 ? "project holds" : "projects hold"} the text in ${
    n === 1 ? "its" : "their"
  } path: ${others.slice(0, 5).map((p) => tilde(p, io.env.home)).join(", ")}${
    n > 5 ? ", …" : ""
  }\nhint: --project <its whole path> writes another; one export holds one project\n`;
}

/** What an export wrote, and the secrets it masked on the way. */
export function exportText(res: ExportResult, io: Pick<IO, "env">): string {
  const kinds = Object.entries(res.redacted).sort((x, y) => y[1] - x[1]);
  return `deja view: wrote ${res.pages} ${res.pages === 1 ? "page" : "pages"} to ${
    tilde(res.out, io.env.home)
  }; open ${tilde(res.index, io.env.home)}\n` +
    (res.masked
      ? `masked ${res.masked} more ${res.masked === 1 ? "secret" : "secrets"} while writing (${
        kinds.map(([k, n]) => `${k} ${n}`).join(", ")
      })\n`
      : "masked nothing more while writing (the index was redacted when it was built)\n") +
    leftText(res);
}

/** What was in the directory before: an earlier export's pages removed, other files kept. */
function leftText(res: ExportResult): string {
  const names = (l: string[]) => l.slice(0, 5).join(", ") + (l.length > 5 ? ", …" : "");
  const n = res.removed.length, k = res.kept.length;
  return (n
    ? `removed ${n} ${n === 1 ? "page" : "pages"} an earlier export wrote here that this one ` +
      `does not: ${names(res.removed)}\n`
    : "") +
    (k
      ? `kept ${k} ${k === 1 ? "file" : "files"} this export did not write: ${names(res.kept)}` +
        ` (publishing the directory publishes ${k === 1 ? "it" : "them"} too)\n`
      : "");
}

async function runView(a: Args, io: IO): Promise<number> {
  const args = parseView(a);
  if (args.mode === "export") {
    await refreshFor(io, a);
    const res = withStore(io, (store) => exportData(store, args, io));
    if (args.json) printJson(io, res);
    else io.out(exportText(res, io));
    io.err(othersText(res, io));
    return 0;
  }
  const server = await serveView(io.env, args.port, io.cwd);
  const t = serveText(server.url);
  io.out(t.out);
  io.err(t.err);
  if (args.open && !(await openBrowser(server.url, io.env))) {
    io.err("deja view: could not start a browser; open the address above\n");
  }
  await untilSignal();
  await server.close();
  io.err("deja view: stopped\n");
  return 0;
}

/**
 * The one project `text` names: its path, its last folder, or the only one whose path holds it
 * (lib/project_path.ts `indexedProject`).
 */
function projectOf(store: Store, text: string): string {
  const p = indexedProject(store, text);
  if (p === undefined) {
    throw new DejaError(`no project in the index matches '${text}'`, "deja last shows projects", 1);
  }
  return p;
}
