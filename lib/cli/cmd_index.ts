/** `deja index`: read every harness's stores into the index. */
import type { Args, CommandSpec } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import { colors, intOpt, printJson } from "./common.ts";
import { DejaError } from "../../core/errors.ts";
import type { HarnessSummary, IndexOptions, IndexResult } from "../indexer.ts";
import { indexPath, makeDataDir, Store } from "../store.ts";
import { harnessOpt } from "./_memory.ts";
import { pid, untilSignal } from "../../core/runtime.ts";
import { endBackground, runningBackground } from "../fresh/background.ts";
import { upToDate } from "../fresh/noop.ts";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../../core/paths.ts";
import { CR, csi } from "./output.ts";
import { embedPass } from "../embeddings/pass.ts";

export const indexCmd: CommandSpec = {
  usage: "index [--rebuild] [--quiet] [--harness <id>] [--json] | index --watch",
  maxPositionals: 0,
  options: {
    rebuild: { type: "boolean", description: "start a new index from scratch" },
    quiet: { type: "boolean", short: "q", description: "print nothing unless something failed" },
    harness: {
      type: "string",
      value: "<id>",
      description: "only this harness (repeatable)",
      multiple: true,
    },
    wait: {
      type: "string",
      value: "<seconds>",
      description: "wait this long for another running index",
    },
    json: { type: "boolean", description: "print the summary as JSON" },
    watch: {
      type: "boolean",
      description: "keep running: follow the stores and index what changes within seconds",
    },
    interval: {
      type: "string",
      value: "<seconds>",
      description: "with --watch: poll this often besides notifications (default 5)",
    },
    background: {
      type: "boolean",
      description: "(internal) the detached run freshen-on-use starts; clears its sentinel",
    },
  },
  async run(a, io) {
    if (a.values.watch) return await watchRun(a, io);
    if (a.values.interval !== undefined) {
      throw new DejaError("--interval applies only to --watch", "deja index --watch --interval 5");
    }
    if (!a.values.background) return await indexRun(a, io);
    try {
      return await indexRun(a, io);
    } finally {
      endBackground(io.env, pid());
    }
  },
};

/** `deja index --watch`: until Ctrl-C or a service stop; a pid file tells doctor it runs. */
async function watchRun(a: Args, io: IO): Promise<number> {
  const pollMs = a.values.interval === undefined ? 5000 : intOpt(a, "interval", 5) * 1000;
  const pidFile = join(dataDir(io.env), "watch.pid");
  const quiet = Boolean(a.values.quiet);
  if (!quiet) io.err(`deja: watching the stores (Ctrl-C stops) -> ${indexPath(io.env)}\n`);
  makeDataDir(dataDir(io.env));
  const { watchIndex } = await import("../fresh/watch.ts");
  const { parsers } = await import("../../parsers/mod.ts");
  const stop = untilSignal();
  try {
    await watchIndex(io.env, parsers, {
      pollMs,
      stop,
      onReady: () => writeFileSync(pidFile, `${pid()} ${Date.now()}\n`, { mode: 0o600 }),
      onRun: quiet ? undefined : (line) => io.err(`${new Date().toISOString()} ${line}\n`),
    });
  } finally {
    rmSync(pidFile, { force: true });
  }
  return 0;
}

async function indexRun(a: Args, io: IO): Promise<number> {
  const only = harnessOpt(a);
  // A background run deja started itself is waited for, not reported as "busy".
  const waitMs = a.values.wait === undefined
    ? (!a.values.background && runningBackground(io.env) ? 300_000 : 0)
    : intOpt(a, "wait", 1) * 1000;
  const tty = io.errTTY && !a.values.quiet && !a.values.json;
  // Nothing changed: the stat pass says so without loading a parser (lib/fresh/noop.ts).
  const res = (!a.values.rebuild && upToDate(io.env, { only, waitMs })) ||
    await fullRun(io.env, {
      rebuild: Boolean(a.values.rebuild),
      only,
      waitMs,
      progress: tty ? (line) => io.err(`${CR}${csi("2K")}indexing ${line}`) : undefined,
    });
  if (tty) io.err(`${CR}${csi("2K")}`);
  const embedded = await embedAfterIndex(io);
  const failed = res.harnesses.some((h) => h.errors.length);
  // Exit 2 when stores failed and none was indexed; some failing beside good ones is reported.
  const code = allFailed(res.harnesses) ? 2 : 0;
  if (res.movedAside) {
    io.err(`deja: the index was damaged; moved it to ${res.movedAside} and started a new one\n`);
  }
  if (a.values.json) {
    printJson(io, {
      index: indexPath(io.env),
      ms: Math.round(res.ms),
      harnesses: res.harnesses,
      excluded: res.excluded,
      ...(res.movedAside ? { moved_aside: res.movedAside } : {}),
      ...(embedded ? { embeddings: embedded } : {}),
    });
    return code;
  }
  if (a.values.quiet && !failed) return 0;
  const c = colors(io);
  const lines: string[] = [];
  let absent = 0;
  let unchanged = 0;
  for (const h of res.harnesses) {
    if (a.values.quiet && !h.errors.length) continue;
    // A harness with no store on this machine is one line at the end, not a row of zeros.
    if (!h.found && !h.errors.length) {
      if (!h.origin) absent++;
      continue;
    }
    const skipped = Object.entries(h.skipped).map(([k, v]) => `${v} ${k}`).join(", ");
    const drift = Object.values(h.drift).reduce((n, v) => n + (v ?? 0), 0);
    // Nothing read and nothing wrong: counted in the closing line, not a row of zeros that
    // looks like an empty index.
    if (!h.read && !h.errors.length && !skipped && !drift) {
      unchanged++;
      continue;
    }
    lines.push(
      `${c.bold((h.origin ? `${h.harness}@${h.origin}` : h.harness).padEnd(13))} ${
        String(h.found).padStart(4)
      } stores, ${String(h.read).padStart(4)} read, ${String(h.sessions).padStart(5)} sessions, ${
        String(h.events).padStart(7)
      } events${skipped ? c.yellow(`, skipped: ${skipped}`) : ""}${
        drift ? c.yellow(`, ${drift} unknown to deja (see 'deja drift')`) : ""
      }`,
    );
    for (const e of h.errors.slice(0, 5)) lines.push(c.red(`              error: ${e}`));
    if (h.errors.length > 5) {
      lines.push(c.red(`              … ${h.errors.length - 5} more errors`));
    }
  }
  if (a.values.quiet) {
    io.out(lines.join("\n") + "\n");
    return code;
  }
  const read = res.harnesses.reduce((n, h) => n + h.read, 0);
  if (unchanged && (read || failed)) {
    lines.push(
      `${unchanged} harness${unchanged === 1 ? "" : "es"} up to date (no store changed)`,
    );
  }
  if (absent) {
    lines.push(
      c.dim(
        `${absent} other harnesses have no store here ('deja sources' lists where deja looked)`,
      ),
    );
  }
  if (res.excluded) {
    lines.push(
      `${res.excluded} session${res.excluded === 1 ? "" : "s"} of excluded projects removed`,
    );
  }
  const total = indexTotals(io.env);
  const written = res.harnesses.reduce((n, h) => n + h.sessions, 0);
  lines.push(
    read || failed
      ? `${written} session${
        written === 1 ? "" : "s"
      } written; the index holds ${total.sessions} sessions, ${total.events} events`
      : `up to date (${total.sessions} sessions, ${total.events} events)`,
  );
  lines.push(c.dim(`indexed in ${(res.ms / 1000).toFixed(2)} s -> ${indexPath(io.env)}`));
  io.out(lines.join("\n") + "\n");
  if (code) io.err("deja: every store deja found failed to index (errors above)\n");
  return code;
}

/** A full index run; the indexer and the parsers are loaded only for it. */
async function fullRun(env: IO["env"], opts: IndexOptions): Promise<IndexResult> {
  const { runIndex } = await import("../indexer.ts");
  const { parsers } = await import("../../parsers/mod.ts");
  return await runIndex(env, parsers, opts);
}

/** Sessions and events the index holds after a run. */
function indexTotals(env: Parameters<typeof indexPath>[0]): { sessions: number; events: number } {
  const store = Store.open(indexPath(env));
  try {
    const { sessions, events } = store.stats();
    return { sessions, events };
  } finally {
    store.close();
  }
}

/**
 * True when something failed and nothing was indexed: every store found
 * failed (or discovery failed and found none). Stores left unchanged since the
 * last run count as indexed.
 */
export function allFailed(hs: readonly HarnessSummary[]): boolean {
  const errors = hs.reduce((n, h) => n + h.errors.length, 0);
  const failed = hs.reduce((n, h) => n + h.failed, 0);
  const found = hs.reduce((n, h) => n + h.found, 0);
  return errors > 0 && failed === found;
}

/**
 * The optional embeddings pass (lib/embeddings/pass.ts) after indexing: nothing without an
 * endpoint; a failure is one warning on stderr and never changes the exit code.
 */
async function embedAfterIndex(
  io: IO,
): Promise<{ embedded: number; pending: number; error?: string } | null> {
  try {
    const r = await embedPass(io.env);
    if (!r) return null;
    if (r.error) io.err(`deja: ${r.error.message}\nhint: ${r.error.hint}\n`);
    return {
      embedded: r.embedded,
      pending: r.pending,
      ...(r.error ? { error: r.error.message } : {}),
    };
  } catch (e) {
    io.err(`deja: embeddings skipped: ${(e as Error).message}\n`);
    return { embedded: 0, pending: 0, error: (e as Error).message };
  }
}
