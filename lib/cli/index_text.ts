/**
 * What `deja index` prints of a run (the text summary, the `--json` document) and its exit
 * code, apart from the command (./cmd_index.ts): a no-op run answered before the commands
 * load (./index_quick.ts) prints through the same code.
 *
 * @module
 */
import type { IO } from "../../core/runtime.ts";
import type { HarnessSummary, IndexResult } from "../indexer.ts";
import type { IndexArgs } from "./cmd_index.ts";
import { sessionsWritten } from "../index_summary.ts";
import { skipsText } from "../skips.ts";
import { colors, printJson } from "./output.ts";
import { plural } from "../../core/text.ts";

/** What one `deja index` run did. */
export interface IndexData {
  /** The index file. */
  index: string;
  res: IndexResult;
  /** The embeddings pass, or null without an endpoint. */
  embedded: { embedded: number; pending: number; error?: string } | null;
  /** Lines for stderr the embeddings pass left (a failing endpoint). */
  warnings: string[];
  /** Sessions and events the index holds afterwards; read only for the text summary. */
  totals?: { sessions: number; events: number };
  /** The exit code ({@link indexCode}): 0 all read, 3 read with failures, 2 none read. */
  code: number;
}

/**
 * Prints what a run did (the `--json` document, or the text summary and the closing line of
 * a run with failures) and returns its exit code.
 */
export function reportIndex(
  d: IndexData,
  args: Pick<IndexArgs, "json" | "quiet" | "samples">,
  io: IO,
): number {
  if (args.json) {
    printJson(io, indexJson(d));
    return d.code;
  }
  const failed = d.res.harnesses.some((h) => h.errors.length);
  if (args.quiet && !failed) return 0;
  io.out(indexText(d, io, args.quiet, args.samples));
  if (d.code === 2 && !args.quiet) {
    io.err("deja: every store deja found failed to index (errors above)\n");
  } else if (d.code === 3) {
    const n = failures(d.res.harnesses);
    io.err(`deja: indexed with ${plural(n, "error")} (above); everything readable is indexed\n`);
  }
  return d.code;
}

/** The `--json` document (docs/json-output.md, `index`). */
export function indexJson(d: IndexData): Record<string, unknown> {
  const { res } = d;
  return {
    index: d.index,
    ms: Math.round(res.ms),
    ...(res.waitedMs ? { waited_ms: Math.round(res.waitedMs) } : {}),
    harnesses: res.harnesses,
    excluded: res.excluded,
    complete: !failures(res.harnesses),
    ...(res.movedAside ? { moved_aside: res.movedAside } : {}),
    ...(res.deleted ? { deleted: res.deleted } : {}),
    ...(res.gone?.length ? { gone: res.gone } : {}),
    ...(res.dropped ? { dropped: res.dropped } : {}),
    ...(res.resumedRebuild ? { resumed_rebuild: res.resumedRebuild } : {}),
    ...(res.reread ? { reread: res.reread } : {}),
    ...(res.reforgotten ? { reforgotten: res.reforgotten } : {}),
    ...(d.embedded ? { embeddings: d.embedded } : {}),
  };
}

/**
 * The summary as text (colour on a terminal): a line per harness that read or failed, then
 * the totals. With `quiet`, only the harnesses that failed.
 */
export function indexText(
  d: IndexData,
  io: Pick<IO, "isTTY" | "env">,
  quiet = false,
  samples = false,
): string {
  const { res } = d;
  const failed = res.harnesses.some((h) => h.errors.length);
  // Something discovery could not read (a link whose folder moved away): not "up to date".
  const passedOver = res.harnesses.some((h) => h.not_read?.length || h.gone_while_read);
  const c = colors(io);
  const lines: string[] = [];
  let absent = 0;
  let unchanged = 0;
  let damaged = 0;
  for (const h of res.harnesses) {
    if (quiet && !h.errors.length) continue;
    // A harness with no store on this machine is one line at the end, not a row of zeros.
    if (!h.found && !h.errors.length && !h.not_read?.length) {
      if (!h.origin) absent++;
      continue;
    }
    const skipped = skipsText(h.skipped);
    const drift = Object.values(h.drift).reduce((n, v) => n + (v ?? 0), 0);
    // Nothing read and nothing wrong: counted in the closing line, not a row of zeros that
    // looks like an empty index.
    if (
      !h.read && !h.errors.length && !skipped && !drift && !h.not_read?.length &&
      !h.gone_while_read
    ) {
      unchanged++;
      continue;
    }
    lines.push(
      `${c.bold((h.origin ? `${h.harness}@${h.origin}` : h.harness).padEnd(13))} ${
        plural(h.found, "store,", "stores,").padStart(12)
      } ${String(h.read).padStart(4)} read, ${
        plural(sessionsWritten(h), "session,", "sessions,").padStart(15)
      } ${plural(h.events, "event", "events").padStart(14)}${
        h.copies ? c.dim(`, ${plural(h.copies, "copy", "copies")}`) : ""
      }${skipped ? c.yellow(`, ${skipped}`) : ""}${
        drift ? c.yellow(`, ${drift} unknown to deja (see 'deja drift')`) : ""
      }`,
    );
    for (const e of h.errors.slice(0, 5)) lines.push(c.red(`              error: ${e}`));
    if (h.errors.length > 5) {
      lines.push(c.red(`              … ${h.errors.length - 5} more errors`));
    }
    // A damaged store by name, with what could not be read (not only a count of skips); the
    // demo's sample stores, damaged on purpose, in one line below (trial 139 L5: some 25 such
    // lines before the demo's results, a wall of errors at first look).
    if (samples) damaged += h.damaged?.length ?? 0;
    else for (const x of (h.damaged ?? []).slice(0, 5)) lines.push(c.yellow(`              ${x}`));
    // Entries that hold no store (a link to nothing, a FIFO): information, each said once.
    for (const x of (h.not_read ?? []).slice(0, 5)) {
      lines.push(c.dim(`              not read: ${x}`));
    }
    if ((h.not_read?.length ?? 0) > 5) {
      lines.push(
        c.dim(`              not read: ${h.not_read!.length - 5} more ('deja sources --verbose')`),
      );
    }
    for (const x of (h.shrunk ?? []).slice(0, 5)) lines.push(c.dim(`              ${x}`));
    // The rest counted, not dropped (trial 91 F8: a sixth database's deletions went unsaid).
    if ((h.shrunk?.length ?? 0) > 5) {
      lines.push(
        c.dim(
          `              ${h.shrunk!.length - 5} more stores so ('deja index --json' lists them)`,
        ),
      );
    }
    const g = h.gone_while_read;
    if (g) {
      lines.push(c.dim(`              not read: ${goneWhileRead(g)}`));
    }
  }
  if (quiet) return lines.join("\n") + "\n";
  if (damaged) {
    lines.push(
      `(${damaged} of the sample stores hold damaged records on purpose: each bad record is ` +
        `skipped and counted, the rest read; 'deja index' names each such store of your own history)`,
    );
  }
  const read = res.harnesses.reduce((n, h) => n + h.read, 0);
  if (unchanged && (read || failed || passedOver)) {
    lines.push(
      `${plural(unchanged, "harness", "harnesses")} up to date (no store changed)`,
    );
  }
  if (absent) {
    lines.push(
      c.dim(
        `${absent} other ${
          absent === 1 ? "harness has" : "harnesses have"
        } no store here ('deja sources' lists where deja looked)`,
      ),
    );
  }
  if (res.excluded) {
    lines.push(
      `${plural(res.excluded, "session")} of excluded projects removed`,
    );
  }
  const total = d.totals ?? { sessions: 0, events: 0 };
  // What the index gained: a session several stores hold (copies of one file) is one session.
  const copies = res.harnesses.reduce((n, h) => n + (h.copies ?? 0), 0);
  const written = res.harnesses.reduce((n, h) => n + sessionsWritten(h), 0);
  lines.push(
    read || failed || passedOver
      ? `${plural(written, "session")} written${
        copies ? ` (${plural(copies, "copy", "copies")})` : ""
      }; the index holds ${plural(total.sessions, "session")}, ${plural(total.events, "event")}`
      : `up to date (${plural(total.sessions, "session")}, ${plural(total.events, "event")})`,
  );
  const waited = res.waitedMs
    ? ` (${(res.waitedMs / 1000).toFixed(2)} s waiting for another writer)`
    : "";
  lines.push(c.dim(`indexed in ${(res.ms / 1000).toFixed(2)} s${waited} -> ${d.index}`));
  return lines.join("\n") + "\n";
}

/** Exit code of `deja index` when it was read: 2 when nothing was indexed ({@link allFailed}). */
export const INDEX_PARTIAL = 3;

/**
 * `deja index`'s exit code from what it read: 0 when every store found was
 * read (or unchanged) and discovery had no problem; {@link INDEX_PARTIAL} (3)
 * when some stores or folders could not be read but the rest was indexed (the
 * errors are listed); 2 when stores failed and none was indexed.
 */
export function indexCode(hs: readonly HarnessSummary[]): number {
  return allFailed(hs) ? 2 : failures(hs) ? INDEX_PARTIAL : 0;
}

/** Stores that could not be read and discovery problems (folders it could not list), in all. */
function failures(hs: readonly HarnessSummary[]): number {
  return hs.reduce((n, h) => n + h.errors.length, 0);
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

/** The line of stores deleted or moved while the run read the others. */
export function goneWhileRead(g: { count: number; first: string }): string {
  return g.count === 1
    ? `${g.first}: gone before it was read (deleted or moved while deja ran)`
    : `${g.count} stores gone before they were read (deleted or moved while deja ran; first ${g.first})`;
}
