/** `deja <query>` / `deja search <query>`: find the sessions where that work happened. */
import type { Args, Command } from "./common.ts";
import { colors, fmtTime, intOpt, isoTime, oneLine, opt, printJson, tildify } from "./common.ts";
import type { IO } from "../runtime.ts";
import { DejaError, indexPath, Store } from "../store.ts";
import { search, type SearchResult } from "../search.ts";
import { shortRef } from "../sessions.ts";
import { parseSince } from "../query.ts";
import { parsers } from "../../parsers/mod.ts";

export const searchCmd: Command = {
  name: "search",
  summary: 'Search past sessions: words are ANDed, "quoted phrases" must be contiguous.',
  usage:
    "search <query...> [--harness <id>] [--project <text>] [--since <30d|date>] [--limit N] [--json]",
  options: {
    harness: {
      type: "string",
      value: "<id>",
      description: "only sessions of this harness (repeatable)",
      multiple: true,
    },
    project: {
      type: "string",
      value: "<text>",
      description: "only projects whose path contains this",
    },
    since: {
      type: "string",
      value: "<30d|date>",
      description: "only events this recent (m h d w y, or a date)",
    },
    limit: { type: "string", value: "<n>", description: "sessions to show (default 10)" },
    json: { type: "boolean", description: "print results as JSON (docs/json-output.md)" },
  },
  run: (a, io) => Promise.resolve(runSearch(a, io)),
};

/** Exit codes like grep: 0 found, 1 nothing, 2 error. */
export function runSearch(a: Args, io: IO): number {
  const query = a.positionals.join(" ").trim();
  if (!query) throw new DejaError("no query given", 'try: deja "what you remember"', 2);
  const harness = a.values.harness as string[] | undefined;
  for (const h of harness ?? []) {
    if (!parsers.some((p) => p.id === h)) {
      throw new DejaError(`unknown harness '${h}'`, "'deja sources' lists them", 2);
    }
  }
  const sinceText = opt(a, "since");
  const since = sinceText === undefined ? undefined : parseSince(sinceText);
  if (sinceText !== undefined && since === undefined) {
    throw new DejaError(`--since takes 30d, 12h, 2w or a date, not '${sinceText}'`, undefined, 2);
  }
  const limit = intOpt(a, "limit", 10);
  const store = Store.open(indexPath(io.env));
  let res: SearchResult;
  const refs = new Map<string, string>();
  try {
    res = search(store, query, { harness, project: opt(a, "project"), since, limit });
    for (const r of res.results) refs.set(`${r.harness}:${r.id}`, shortRef(store, r.harness, r.id));
  } finally {
    store.close();
  }
  const ref = (r: { harness: string; id: string }) => refs.get(`${r.harness}:${r.id}`) ?? r.id;
  if (a.values.json) {
    printJson(io, {
      query: res.query,
      tier: res.tier,
      results: res.results.map((r) => ({
        harness: r.harness,
        id: r.id,
        short_id: ref(r),
        project: r.project,
        title: r.title,
        started: isoTime(r.started),
        updated: isoTime(r.updated),
        score: Number(r.score.toFixed(4)),
        hits: r.hits,
        snippets: r.snippets.map((s) => ({
          kind: s.kind,
          seq: s.seq,
          time: isoTime(s.time),
          session: s.session,
          text: s.text.replaceAll("\x01", "").replaceAll("\x02", ""),
        })),
      })),
    });
    return res.results.length ? 0 : 1;
  }
  const c = colors(io);
  if (!res.results.length) {
    io.err(`deja: nothing matched "${query}"\n`);
    return 1;
  }
  const out: string[] = [];
  if (res.tier === "session") {
    out.push(c.dim("(no single event holds every word; these sessions hold them between them)"));
  }
  for (const r of res.results) {
    out.push(
      `${c.cyan(ref(r))}  ${c.bold(r.harness)}  ${fmtTime(r.updated ?? r.started)}  ${
        tildify(r.project, io.env.home)
      }  ${c.dim(`${r.hits} hit${r.hits === 1 ? "" : "s"}`)}`,
    );
    if (r.title) out.push(`  ${oneLine(r.title, 100)}`);
    for (const s of r.snippets) {
      out.push(`    ${c.dim(s.kind.padEnd(11))} ${c.marks(oneLine(s.text, 160))}`);
    }
  }
  out.push(c.dim(`deja show <id> for a whole session`));
  io.out(out.join("\n") + "\n");
  return 0;
}
