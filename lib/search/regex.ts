/**
 * `--re`: a JavaScript regular expression tested on the text of every event
 * under the filters (no index: a scan). Case-sensitive, like grep; write
 * `(?i)` at the start for a case-insensitive pattern. Sessions are ranked by
 * how many of their events match, then by recency.
 *
 * @module
 */
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { type Filters, filterSql } from "./retrieve.ts";
import { eventWeight, type ScoredEvent, type SessionScore } from "./rank.ts";

/**
 * Compiles a `--re` pattern.
 *
 * @throws {DejaError} (exit 2) naming the syntax error.
 */
export function compilePattern(pattern: string): RegExp {
  let flags = "u";
  let src = pattern;
  if (src.startsWith("(?i)")) {
    flags += "i";
    src = src.slice(4);
  }
  try {
    return new RegExp(src, flags);
  } catch (e) {
    throw new DejaError(
      `--re: not a valid regular expression: ${(e as Error).message}`,
      "the syntax is JavaScript's; write (?i) first to ignore case",
      2,
    );
  }
}

/** Events whose text `re` matches, scored per session (filed under `rootOf`). */
export function regexScan(
  store: Store,
  re: RegExp,
  f: Filters,
  rootOf: (id: number) => number,
): Map<number, SessionScore> {
  const { sql, args } = filterSql(f, "events");
  const rows = Q.scanRows.extend(sql, args).iterate(store, {});
  return scoreScan(
    (function* () {
      for (const r of rows) if (re.test(r.text)) yield r;
    })(),
    rootOf,
  );
}

/** Matching events a {@link literalScan} reads at most (the newest first). */
export const LITERAL_SCAN_ROWS = 2000;

/**
 * Events holding every one of `pieces` as written (SQLite `instr`, case-sensitive),
 * under the filters, scored per session as {@link regexScan} scores them. The query
 * of symbols FTS5's unicode61 tokenizer drops as separators (emoji, `→`, `✓`) has
 * no terms to look up, so it is a scan of the events' text: each row is tested in
 * SQLite, and at most {@link LITERAL_SCAN_ROWS} matching rows cross into the ranking.
 */
export function literalScan(
  store: Store,
  pieces: string[],
  f: Filters,
  rootOf: (id: number) => number,
): Map<number, SessionScore> {
  const { sql, args } = filterSql(f, "events");
  const has = pieces.map(() => " AND instr(e.text, ?) > 0").join("");
  const rows = Q.scanRows.extend(`${sql}${has} ORDER BY e.id DESC LIMIT ${LITERAL_SCAN_ROWS}`, [
    ...args,
    ...pieces,
  ])
    .iterate(store, {});
  return scoreScan(rows, rootOf);
}

/** The scanned rows' sessions (filed under `rootOf`), ranked by how many events match, then their best one. */
function scoreScan(
  rows: Iterable<Omit<ScoredEvent["row"], "bm25">>,
  rootOf: (id: number) => number,
): Map<number, SessionScore> {
  const out = new Map<number, SessionScore>();
  for (const r of rows) {
    const sid = rootOf(r.session_id);
    let s = out.get(sid);
    if (!s) out.set(sid, s = { sessionId: sid, score: 0, events: [], spread: false });
    const ev: ScoredEvent = {
      row: {
        event_id: r.event_id,
        session_id: r.session_id,
        seq: r.seq,
        kind: r.kind,
        time: r.time,
        flags: r.flags,
        bm25: 0,
      },
      score: eventWeight(r.kind, r.flags),
    };
    s.events.push(ev);
  }
  for (const s of out.values()) {
    s.events.sort((a, b) => b.score - a.score || a.row.seq - b.row.seq);
    s.score = Math.log1p(s.events.length) + s.events[0].score;
  }
  return out;
}

/** A snippet of `text` around the first match of `re`, the match marked `\x01 … \x02`. */
export function regexSnippet(text: string, re: RegExp, width = 240): string {
  const m = new RegExp(re.source, re.flags.replace("g", "")).exec(text);
  if (!m) return text.slice(0, width);
  const start = m.index;
  const end = start + Math.max(1, m[0].length);
  const from = Math.max(0, start - 80);
  const to = Math.min(text.length, Math.max(end + 40, from + width));
  return (from > 0 ? "…" : "") + text.slice(from, start) + "\x01" + text.slice(start, end) +
    "\x02" + text.slice(end, to) + (to < text.length ? "…" : "");
}
