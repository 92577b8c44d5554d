/**
 * `deja view [--port N] [--no-open]`: browse, search and read the index in a
 * browser, served by deja itself on 127.0.0.1 (lib/view/server.ts) until
 * Ctrl-C.
 */
import type { CommandSpec } from "./common.ts";
import { intOpt } from "./common.ts";
import { openBrowser, untilSignal } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { startView } from "../view/server.ts";
import { parsers } from "../../parsers/mod.ts";

export const viewCmd: CommandSpec = {
  usage: "view [--port N] [--no-open]",
  maxPositionals: 0,
  options: {
    port: {
      type: "string",
      value: "<N>",
      description: "port on 127.0.0.1 (default: a free one)",
    },
    "no-open": { type: "boolean", description: "print the address, do not open a browser" },
  },
  async run(a, io) {
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
