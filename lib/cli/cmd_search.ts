/** `deja <query>` / `deja search <query>`: find the sessions where that work happened. */
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtTime, intOpt, isoTime, opt, printJson, quoteShown } from "./common.ts";
import { oneLine, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { search, type SearchResult } from "../search.ts";
import { resolveSession, shortRef } from "../sessions.ts";
import { parseSince } from "../query.ts";
import { Q } from "../schema.ts";
import { searchHiding } from "../search/sessions.ts";
import { embedConfig } from "../embeddings/config.ts";
import { CANDIDATES, rerank } from "../embeddings/rerank.ts";
import { FILTER_OPTIONS, fromOpt, harnessOpt, hiddenHint, JUNK_OPTION } from "./_memory.ts";

const ROLES: Record<string, string[]> = {
  user: ["user"],
  assistant: ["assistant"],
  tool: ["tool_call", "tool_result"],
  tool_call: ["tool_call"],
  tool_result: ["tool_result"],
  summary: ["summary"],
};

export const searchCmd: CommandSpec = {
  refresh: true,
  usage: "search <query...> [--harness <id>] [--project <text>] [--since <30d|date>] " +
    "[--role <kind>] [--session <id>] [--re] [--junk] [--limit N] [--json]",
  options: {
    ...FILTER_OPTIONS,
    since: {
      type: "string",
      value: "<30d|date>",
      description: "only events this recent (m h d w y, or a date)",
    },
    role: {
      type: "string",
      value: "<kind>",
      description: "only user, assistant, tool (tool_call, tool_result) or summary events",
      multiple: true,
    },
    session: {
      type: "string",
      value: "<id>",
      description: "search inside one session (an id prefix) and its subagents",
    },
    re: { type: "boolean", description: "the query is a regular expression ((?i) ignores case)" },
    ...JUNK_OPTION,
    limit: { type: "string", value: "<n>", description: "sessions to show (default 10)" },
    json: { type: "boolean", description: "print results as JSON (docs/json-output.md)" },
  },
  run: (a, io) => runSearch(a, io),
};

/**
 * Exit codes like grep: 0 found, 1 nothing matched (nearest sessions may still print), 2 error.
 * With an embeddings endpoint configured (lib/embeddings/), the results are reranked by it; an
 * endpoint that fails leaves them as the index ranked them, with a warning on stderr.
 */
export async function runSearch(a: Args, io: IO): Promise<number> {
  const query = a.values.re ? a.positionals.join(" ") : a.positionals.join(" ").trim();
  if (!query.trim()) throw new DejaError("no query given", 'try: deja "what you remember"', 2);
  const harness = harnessOpt(a);
  const sinceText = opt(a, "since");
  const since = sinceText === undefined ? undefined : parseSince(sinceText);
  if (sinceText !== undefined && since === undefined) {
    throw new DejaError(`--since takes 30d, 12h, 2w or a date, not '${sinceText}'`, undefined, 2);
  }
  const kinds: string[] = [];
  for (const r of (a.values.role as string[] | undefined) ?? []) {
    const k = ROLES[r.replace("-", "_")];
    if (!k) {
      throw new DejaError(`unknown role '${r}'`, `roles: ${Object.keys(ROLES).join(", ")}`, 2);
    }
    kinds.push(...k);
  }
  const limit = intOpt(a, "limit", 10);
  const store = Store.open(indexPath(io.env));
  let res: SearchResult;
  let embeddings = "off";
  const refs = new Map<string, string>();
  try {
    let sessionIds: number[] | undefined;
    const sess = opt(a, "session");
    if (sess !== undefined) {
      const s = resolveSession(store, sess);
      sessionIds = Q.withChildren.all(store, { ids: JSON.stringify([s.id]) }).map((r) => r.id);
    }
    const opts = {
      harness,
      project: opt(a, "project"),
      since,
      limit,
      kinds: kinds.length ? kinds : undefined,
      sessionIds,
      regex: Boolean(a.values.re),
      ...searchHiding({
        env: io.env,
        junk: Boolean(a.values.junk),
        here: io.cwd,
        from: fromOpt(a, io),
      }),
      snippets: sessionIds ? 10 : 3,
    };
    const wanted = embedConfig(io.env);
    if (!wanted.config && !wanted.problem) res = search(store, query, opts);
    else {
      const wide = search(store, query, { ...opts, limit: Math.max(limit, CANDIDATES) });
      const rr = await rerank(store, io.env, wide, opts);
      res = rr.result;
      embeddings = rr.state;
      if (rr.warning) io.err(`deja: ${rr.warning}\n${rr.hint ? `hint: ${rr.hint}\n` : ""}`);
    }
    for (const r of res.results) refs.set(`${r.harness}:${r.id}`, shortRef(store, r.harness, r.id));
  } finally {
    store.close();
  }
  const ref = (r: { harness: string; id: string }) => refs.get(`${r.harness}:${r.id}`) ?? r.id;
  const found = res.results.length > 0 && !res.nothingMatched;
  if (a.values.json) {
    printJson(io, { ...jsonOf(res, ref), embeddings });
    return found ? 0 : 1;
  }
  const c = colors(io);
  const note = narration(res);
  if (!res.results.length) {
    io.err(`deja: nothing matched ${quoteShown(query)}\n`);
    if (note) io.err(`${note}\n`);
    hiddenHint(io, res.hidden);
    return 1;
  }
  if (note) io.err(`${c.dim(note)}\n`);
  hiddenHint(io, res.hidden);
  const out: string[] = [];
  for (const r of res.results) {
    const marks = [
      r.gaveUp ? c.yellow("gave up") : "",
      r.throwaway ? c.yellow("throwaway") : "",
    ].filter(Boolean).join(" ");
    out.push(
      `${c.cyan(ref(r))}  ${c.bold(r.harness)}  ${fmtTime(r.updated ?? r.started)}  ${
        tilde(r.project, io.env.home)
      }  ${c.dim(`${r.hits} hit${r.hits === 1 ? "" : "s"}`)}${marks ? `  ${marks}` : ""}`,
    );
    if (r.title) out.push(`  ${oneLine(r.title, 100)}`);
    for (const s of r.snippets) {
      out.push(`    ${c.dim(s.kind.padEnd(11))} ${c.marks(oneLine(s.text, 200, { marks: true }))}`);
    }
  }
  if (res.total > res.results.length) {
    out.push(c.dim(`showing ${res.results.length} of ${res.total}: --limit shows more`));
  }
  out.push(c.dim(`deja show <id> for a whole session`));
  io.out(out.join("\n") + "\n");
  return found ? 0 : 1;
}

/** The short line that says how literal the match was (empty for an exact match). */
export function narration(res: SearchResult): string {
  const ch = res.changes.map((x) => `${x.from} → ${x.to.slice(0, 4).join(", ")}`).join("; ");
  const time = res.time ? ` (ranked by time: "${res.time.words}")` : "";
  const line = {
    exact: time ? `exact match${time}` : "",
    session: `no single event holds every word; these sessions hold them between them${time}`,
    substring: `no exact match; inside longer words: ${ch}${time}`,
    stemmed: `no exact match; word forms: ${ch}${time}`,
    close: `no exact match; close spellings: ${ch}${time}`,
    error: `matched by error signature${time}`,
    relevance: `nothing matched exactly; the nearest sessions by relevance${time}`,
    regex: "",
    none: "",
  }[res.tier];
  return line;
}

function jsonOf(res: SearchResult, ref: (r: { harness: string; id: string }) => string) {
  return {
    query: res.query,
    tier: res.tier,
    nothing_matched: res.nothingMatched,
    total: res.total,
    changes: res.changes,
    dropped: res.dropped,
    time: res.time
      ? { from: isoTime(res.time.from), to: isoTime(res.time.to), words: res.time.words }
      : null,
    hidden: res.hidden,
    results: res.results.map((r) => ({
      harness: r.harness,
      id: r.id,
      short_id: ref(r),
      origin: r.origin,
      project: r.project,
      title: r.title,
      started: isoTime(r.started),
      updated: isoTime(r.updated),
      score: Number(r.score.toFixed(4)),
      hits: r.hits,
      gave_up: r.gaveUp,
      throwaway: r.throwaway,
      spread: r.spread,
      snippets: r.snippets.map((s) => ({
        kind: s.kind,
        seq: s.seq,
        time: isoTime(s.time),
        session: s.session,
        text: s.text.replaceAll("\x01", "").replaceAll("\x02", ""),
      })),
    })),
  };
}
