/**
 * `deja ctx <query | id-prefix>`: a Markdown digest of the best session, to paste into a prompt.
 *
 * Parse ({@link parseCtx}) → run ({@link ctxData}) → render ({@link ctxJson}; the text is the
 * digest's Markdown).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import { intOpt, isoTime, printJson, printJsonStreaming, quoteShown } from "./common.ts";
import { byteLength, oneLine, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { CTX_BUDGET, CTX_MIN_BUDGET, type Digest, sessionDigest } from "../memory/digest.ts";
import { type Missed, type Picked, pickSession } from "../memory/pick.ts";
import type { Store } from "../store.ts";
import { shortRef } from "../sessions.ts";
import {
  FILTER_OPTIONS,
  hiddenHint,
  JUNK_OPTION,
  parseFilter,
  type SessionFilter,
  sessionJsonOf,
  withStore,
} from "./_memory.ts";
import { searchHiding } from "../search/sessions.ts";
import { search } from "../search.ts";
import { type FilteredOut, filtersUsed, nothingMatchedText } from "./_filtered.ts";

export const ctxCmd: CommandSpec = {
  refresh: true,
  usage:
    "ctx <query... | id-prefix> [--budget <bytes>] [--harness <id>] [--project <text>] [--junk] [--json]",
  options: {
    ...FILTER_OPTIONS,
    ...JUNK_OPTION,
    budget: {
      type: "string",
      value: "<bytes>",
      description: `largest digest in bytes (default ${CTX_BUDGET}, at least ${CTX_MIN_BUDGET})`,
    },
    json: { type: "boolean", description: "print the digest and its parts as JSON" },
  },
  run: (a, io) => Promise.resolve(runCtx(a, io)),
};

/** What `deja ctx` was asked. */
export interface CtxArgs {
  /** A search query or a session id prefix. */
  query: string;
  filter: SessionFilter;
  /** Largest digest in bytes, as used: at least {@link CTX_MIN_BUDGET}. */
  budget: number;
  /** The budget asked for (`--budget`, else the default); below the least it is raised. */
  budgetGiven: number;
  json: boolean;
}

/** The session `deja ctx` picked and its digest, or what was hidden when none was. */
export type CtxData =
  | {
    query: string;
    picked: null;
    hidden: number;
    absent?: string[];
    nearest?: boolean;
    common?: boolean;
    /** The filters given, and the sessions the query matches without them. */
    filtered?: FilteredOut;
  }
  | {
    query: string;
    picked: Picked;
    digest: Digest;
    ref: string;
    budget: number;
    budgetGiven: number;
  };

/**
 * Reads `deja ctx`'s arguments.
 *
 * @throws {DejaError} when no query is given, a harness is unknown or the budget is not a number.
 */
export function parseCtx(a: Args): CtxArgs {
  const query = a.positionals.join(" ").trim();
  if (!query) {
    throw new DejaError("no query or session id given", 'try: deja ctx "what you remember"');
  }
  const filter = parseFilter(a);
  const budgetGiven = intOpt(a, "budget", CTX_BUDGET);
  return {
    query,
    filter,
    budget: Math.max(CTX_MIN_BUDGET, budgetGiven),
    budgetGiven,
    json: Boolean(a.values.json),
  };
}

/** Picks the session the query names (an id, else the best hit) and digests it. */
export function ctxData(store: Store, args: CtxArgs, io: Pick<IO, "env" | "cwd">): CtxData {
  // A search hides what search hides (the one rule, lib/search/sessions.ts); an id is shown.
  const missed: Missed = { hidden: 0 };
  const picked = pickSession(store, args.query, {
    harness: args.filter.harness,
    project: args.filter.project,
    ...searchHiding({
      env: io.env,
      junk: args.filter.junk,
      here: io.cwd,
      model: args.filter.model,
    }),
  }, missed);
  if (!picked) {
    const filters = filtersUsed(args.filter);
    const without = filters.length
      ? search(store, args.query, { limit: 1, ...searchHiding({ env: io.env, here: io.cwd }) })
      : undefined;
    return {
      query: args.query,
      picked: null,
      ...(filters.length
        ? {
          filtered: {
            filters,
            without: !without || without.nothingMatched ? 0 : without.total,
          },
        }
        : {}),
      hidden: missed.hidden,
      ...(missed.absent ? { absent: missed.absent } : {}),
      ...(missed.nearest ? { nearest: true } : {}),
      ...(missed.common ? { common: true } : {}),
    };
  }
  // Only the nearest, some words held by no session: said in the digest itself, where a
  // paste carries it (trial 107 F1: an unrelated session's digest, nothing on stdout said so).
  const caveat = nearestCaveat(args.query, picked);
  const cut = byteLength(caveat);
  const body = sessionDigest(store, picked.session.id, {
    query: picked.via === "search" ? args.query : undefined,
    budgetBytes: Math.max(CTX_MIN_BUDGET, args.budget - cut),
    home: io.env.home,
  });
  const digest = caveat
    ? { ...body, markdown: caveat + body.markdown, bytes: body.bytes + cut }
    : body;
  const s = digest.session;
  return {
    query: args.query,
    picked,
    digest,
    ref: shortRef(store, s.harness, s.native_id),
    budget: args.budget,
    budgetGiven: args.budgetGiven,
  };
}

/**
 * True when the session picked is only the nearest by relevance and some of the query's
 * words are in no session: no session holds what was asked, so `ctx` exits 1 as `search`
 * does ("the nearest may still print"), the digest printed all the same.
 */
export function onlyNearest(p: Picked): boolean {
  return p.via === "search" && p.tier === "relevance" && (p.absent?.length ?? 0) > 0;
}

/** The digest's first line when {@link onlyNearest}: empty otherwise. */
function nearestCaveat(query: string, p: Picked): string {
  if (!onlyNearest(p)) return "";
  const a = p.absent!;
  return `> Nearest session only, not a match: nothing matched ${quoteShown(query)} ` +
    `(${a.map((w) => `'${w}'`).join(", ")} ${
      a.length === 1 ? "is" : "are"
    } in no searchable text).\n\n`;
}

/** The `--json` document (docs/json-output.md, `ctx`). */
export function ctxJson(d: CtxData): Record<string, unknown> {
  if (!d.picked) {
    return { query: d.query, via: null, session: null, hidden: d.hidden, absent: d.absent ?? [] };
  }
  const g = d.digest;
  return {
    query: d.query,
    via: d.picked.via,
    tier: d.picked.tier ?? null,
    absent: d.picked.absent ?? [],
    session: sessionJsonOf(g.session, d.ref),
    budget: d.budget,
    budget_given: d.budgetGiven,
    bytes: g.bytes,
    truncated: g.truncated,
    markdown: g.markdown,
    problem: g.problem,
    later_requests: g.laterRequests,
    last_request: g.lastRequest,
    decisions: g.decisions,
    commands: g.commands.map((c) => ({ ...c, time: isoTime(c.time) })),
    not_run: g.notRun,
    files: g.files,
    failed_changes: g.failedChanges,
    subagents: g.subagents,
    outcome: g.outcome,
  };
}

function runCtx(a: Args, io: IO): number {
  const args = parseCtx(a);
  if (args.budgetGiven < CTX_MIN_BUDGET) io.err(budgetWarning(args.budgetGiven));
  const d = withStore(io, (store) => ctxData(store, args, io));
  if (args.json) {
    // The lists are whole (a session of 150,000 commands: a 34 MB document), written as read.
    const j = ctxJson(d);
    if (!d.picked) printJson(io, j);
    else {printJsonStreaming(io, j, {
        commands: j.commands as unknown[],
        files: j.files as unknown[],
      });}
  } else if (d.picked) {
    const guess = guessNote(d, io.env.home);
    if (guess) io.err(guess);
    io.out(d.digest.markdown);
  } else {
    const none = d.absent?.length
      ? `: ${d.absent.map((w) => `'${w}'`).join(", ")} ${
        d.absent.length === 1 ? "is" : "are"
      } in no searchable text${
        d.nearest
          ? `\nhint: deja search ${quoteShown(args.query)} lists the nearest sessions`
          : "\nhint: 'deja last' lists the sessions with their ids; other words may name it"
      }`
      : "";
    const common = d.common
      ? ": it holds only common words\nhint: give a word of what the session was about, or its id"
      : "";
    // The filter named when it left nothing (trial 57: `ctx redis --harness claude`).
    io.err(
      d.filtered?.without
        ? nothingMatchedText(args.query, d.filtered)
        : `deja: nothing matched ${quoteShown(args.query)}${none}${common}\n`,
    );
    hiddenHint(io, d.hidden);
  }
  return d.picked && !onlyNearest(d.picked) ? 0 : 1;
}

/**
 * The stderr note when the session digested is only the nearest by relevance (nothing
 * matched the words exactly): which one it is, so the person can check it is the one
 * they meant. Empty when it was named by its id or matched.
 */
export function guessNote(d: CtxData, home = ""): string {
  if (!d.picked || d.picked.via !== "search" || d.picked.tier !== "relevance") return "";
  const s = d.digest.session;
  const what = [s.harness, s.title ? oneLine(s.title, 60) : "", s.project && tilde(s.project, home)]
    .filter(Boolean).join(", ");
  const absent = d.picked.absent?.length
    ? ` (${d.picked.absent.map((w) => `'${w}'`).join(", ")} ${
      d.picked.absent.length === 1 ? "is" : "are"
    } in no searchable text)`
    : "";
  return `deja: nothing matched ${quoteShown(d.query)} exactly${absent}; digesting the closest ` +
    `session, ${d.ref} (${what})\nhint: deja search ${quoteShown(d.query)} lists the others\n`;
}

/** The stderr warning for a `--budget` below {@link CTX_MIN_BUDGET}: what is used instead. */
export function budgetWarning(given: number): string {
  return `deja: --budget ${given} is below ${CTX_MIN_BUDGET} bytes, too little for a digest to ` +
    `hold much; using ${CTX_MIN_BUDGET}\n`;
}
