/**
 * `deja view [--port N] [--no-open]`: browse, search and read the index in a
 * browser, served by deja itself on 127.0.0.1 (lib/view/server.ts) until
 * Ctrl-C. `deja view --out DIR --project <text> | <session>` writes one
 * project's or one session's pages as static files instead
 * (lib/view/export.ts).
 */
import { resolve } from "node:path";
import type { Args, Command } from "./common.ts";
import { intOpt, opt, printJson } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import { withStore } from "./_memory.ts";
import { refreshFor } from "./refresh.ts";
import { resolveSession } from "../sessions.ts";
import type { Store } from "../store.ts";
import { type ExportTarget, exportView } from "../view/export.ts";
import { tilde } from "../../core/text.ts";
import { openBrowser, untilSignal } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { startView } from "../view/server.ts";
import { parsers } from "../../parsers/mod.ts";

export const viewCmd: Command = {
  name: "view",
  summary: "Browse, search and read your agents' history in the browser (local, private).",
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
      description: "with --out: the project whose path contains this text",
    },
    force: { type: "boolean", description: "with --out: write into a directory that holds files" },
    json: { type: "boolean", description: "with --out: print what was written as JSON" },
  },
  async run(a, io) {
    if (a.values.out !== undefined) return await runExport(a, io);
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
    let server;
    try {
      server = await startView({ env: io.env, port, parsers });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === "EADDRINUSE" || code === "EACCES") {
        throw new DejaError(
          `cannot listen on 127.0.0.1:${port} (${
            code === "EADDRINUSE" ? "in use" : "not allowed"
          })`,
          "leave out --port to take a free one",
          2,
        );
      }
      throw e;
    }
    io.out(`deja view: ${server.url}\n`);
    io.err("Only this address (with its key) opens the pages; Ctrl-C stops the server.\n");
    if (!a.values["no-open"] && !(await openBrowser(server.url, io.env))) {
      io.err("deja view: could not start a browser; open the address above\n");
    }
    await untilSignal();
    await server.close();
    io.err("deja view: stopped\n");
    return 0;
  },
};

async function runExport(a: Args, io: IO): Promise<number> {
  const dir = opt(a, "out");
  if (!dir) {
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
  await refreshFor(io, a);
  const out = resolve(io.cwd, dir);
  const res = withStore(io, (store) => {
    const target: ExportTarget = project !== undefined
      ? { project: projectOf(store, project) }
      : { session: resolveSession(store, ref!) };
    return exportView({
      store,
      env: io.env,
      out,
      target,
      force: a.values.force === true,
      now: Date.now(),
    });
  });
  if (a.values.json) {
    printJson(io, res);
    return 0;
  }
  io.out(
    `deja view: wrote ${res.pages} ${res.pages === 1 ? "page" : "pages"} to ${
      tilde(out, io.env.home)
    }; open ${tilde(res.index, io.env.home)}\n`,
  );
  const kinds = Object.entries(res.redacted).sort((x, y) => y[1] - x[1]);
  io.out(
    res.masked
      ? `masked ${res.masked} more ${res.masked === 1 ? "secret" : "secrets"} while writing (${
        kinds.map(([k, n]) => `${k} ${n}`).join(", ")
      })\n`
      : "masked nothing more while writing (the index was redacted when it was built)\n",
  );
  return 0;
}

/** The one project whose path is `text` or contains it. */
function projectOf(store: Store, text: string): string {
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = store.db.prepare(
    "SELECT project, COUNT(*) AS n FROM sessions WHERE project LIKE ? ESCAPE '\\' GROUP BY project ORDER BY n DESC",
  ).all(like) as { project: string; n: number }[];
  const exact = rows.find((r) => r.project === text);
  if (exact) return exact.project;
  if (rows.length === 1) return rows[0].project;
  if (!rows.length) {
    throw new DejaError(`no project in the index matches '${text}'`, "deja last shows projects", 1);
  }
  throw new DejaError(
    `'${text}' matches ${rows.length} projects`,
    `be more specific: ${rows.slice(0, 5).map((r) => r.project).join(", ")}`,
    2,
  );
}
