/**
 * When a search's filters (`--harness`, `--project`, `--since`, `--role`) left nothing:
 * which filters were given, and how many sessions the same query finds without
 * them, so "nothing matched" can say the filter is why (new user, 2026-12:
 * `deja login --project nosuchproj` said only `nothing matched "login"`).
 *
 * @module
 */
import { quoteShown } from "./common.ts";

/** One filter as typed: its flag and value. */
export interface FilterUsed {
  flag: "--harness" | "--project" | "--since" | "--role" | "--session" | "--model";
  value: string;
  /** `--since` given as a window's words (`deja last month`): named by them, not the flag. */
  phrase?: boolean;
  /**
   * The days those words named (`Mon 2026-11-23 to Sun 2026-11-29`), said after them where
   * nothing matched (trial 103 F1: "no session matches last week" read as the past 7 days).
   */
  range?: string;
}

/** What the filters left out (`search --json` `filtered_out`). */
export interface FilteredOut {
  /** The filters given, as typed. */
  filters: FilterUsed[];
  /** Sessions the same query matches without them (0: the filters are not why). */
  without: number;
}

/** The filters given, in flag order; none for an unfiltered search. */
export function filtersUsed(
  f: {
    harness?: string[];
    project?: string;
    since?: string;
    role?: string[];
    session?: string;
    model?: string;
  },
): FilterUsed[] {
  const out: FilterUsed[] = [];
  if (f.harness?.length) out.push({ flag: "--harness", value: f.harness.join(",") });
  if (f.project) out.push({ flag: "--project", value: f.project });
  if (f.since) out.push({ flag: "--since", value: f.since });
  if (f.role?.length) out.push({ flag: "--role", value: f.role.join(",") });
  if (f.session) out.push({ flag: "--session", value: f.session.trim() });
  if (f.model) out.push({ flag: "--model", value: f.model });
  return out;
}

/**
 * Time words as the place of a "matches …" line: as typed when they begin with their own
 * word (`last week`, `yesterday`, `until friday`, `from august to october`), else `on` a day
 * (`on jan 13th`) or `in` a month or a year (trial 18a: "matches in yesterday").
 */
export function inPhrase(words: string): string {
  if (
    /^(?:in|on|at|during|since|from|between|until|till|up|before|after|last|past|this|next|yesterday|today|tonight|earlier|recently|lately|the)\b/i
      .test(words) || /\bago$/i.test(words)
  ) return words;
  return /\d/.test(words) && !/^\d{4}$/.test(words.trim()) && !/\b(?:19|20)\d\d$/.test(words)
    ? `on ${words}`
    : `in ${words}`;
}

/** A window's words as the place of a "matches …" line, with their days when known. */
export function phraseShown(x: FilterUsed): string {
  return `${inPhrase(x.value)}${x.range ? ` (${x.range})` : ""}`;
}

/**
 * The "nothing matched" message and its hint: with the filters named when there
 * were any, and the count without them when that finds something.
 */
export function nothingMatchedText(query: string, f?: FilteredOut): string {
  return filteredText(`deja: nothing matched ${quoteShown(query)}`, f);
}

/**
 * `head` (a "found nothing" line) with the filters named when there were any, and
 * the count without them (in `unit`s) when that finds something: then a hint that
 * the filter, not the words, left nothing. `search`, `how` and `last` say it alike.
 */
export function filteredText(head: string, f?: FilteredOut, unit = "session"): string {
  if (!f?.filters.length) return head + "\n";
  const words: Record<FilterUsed["flag"], string> = {
    "--harness": "in harness",
    "--project": "in project",
    "--since": "since",
    "--role": "in role",
    "--session": "in session",
    "--model": "with model",
  };
  const where = f.filters.map((x) => x.phrase ? phraseShown(x) : `${words[x.flag]} ${x.value}`)
    .join(", ");
  const flags = f.filters.map((x) => x.phrase ? `'${x.value}'` : x.flag).join(" and ");
  if (!f.without) return `${head} ${where} (nor without ${flags})\n`;
  const n = `${f.without} ${unit}${f.without === 1 ? "" : "s"}`;
  return `${head} ${where}; without ${flags}: ${n}\nhint: the filter left nothing; drop ${flags} to see them\n`;
}
