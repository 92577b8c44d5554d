/**
 * A typed prompt: a query equal, or nearly, to what a person once typed as a
 * prompt (`what is this project about`). Stop words are what such a query is
 * made of, so the ladder, which drops them, cannot tell the session where it
 * was typed from any other that names `project`; this reads the query whole —
 * every token, in order, as one phrase in a user turn no more than a few
 * tokens longer — and the sessions holding such a turn rank first.
 *
 * A query of fewer than {@link MIN_TOKENS} tokens (`exit`, `Hello World!`,
 * `PING!`) is read as a prompt only when a user turn is that query and nothing
 * more (case and punctuation aside): one or two words are held by far too
 * many longer turns. A turn equal to the query, whatever its length, ranks
 * above a turn that only holds it, a turn that is the query as typed (case
 * aside: `Hello?`) above one that differs in punctuation (`Hello!`; trial 14
 * found `hello` ranked the session that typed it fourth), and sessions whose
 * turns are alike so rank by recency among themselves, the latest first (new user, 2026-12: `Hello
 * World!` ranked its session third, `exit` second, because `hello` is a stop
 * word and the rule wanted three tokens). Such a turn holds every word the
 * ladder searched, so it is looked for among the user turns the ladder's
 * exact tier found (`found`), the best by BM25 (a turn that short is the
 * best): no phrase of two common words is read through the whole index again
 * (issue 15: +60 ms on a cold `error build`). A query of {@link TYPO_MIN} tokens
 * or more held by a turn but for one word spelt otherwise, in the query or in the
 * turn, is that prompt typed back, however long the turn (trial 118 F8).
 *
 * @module
 */
import { Q } from "../schema.ts";
import { ftsTerm, GAP } from "../query.ts";
import { distance } from "./vocab.ts";
import type { TermStats } from "./expand.ts";
import type { PhraseRows } from "./verbatim.ts";
import { type Filters, matchRows, type Row } from "./retrieve.ts";
import type { ScoredEvent, SessionScore } from "./rank.ts";
import type { Store } from "../store.ts";
import { tokens } from "./tokenize.ts";

/** Fewest tokens a query needs to match a longer prompt (a shorter one: only an equal prompt). */
const MIN_TOKENS = 3;
/** Most tokens read as a prompt (a longer query is a paste). */
const MAX_TOKENS = 40;
/** Prompt turns read. */
const MAX_ROWS = 200;

/** Extra tokens a prompt may hold beyond the query: 2, or a quarter of the query. */
export function slack(n: number): number {
  return Math.max(2, Math.ceil(n / 4));
}

/** The user turns of one root session that hold the query (see {@link typedPrompts}). */
export interface PromptTurns {
  events: ScoredEvent[];
  /** Some turn is the query itself, case and punctuation aside. */
  equal: boolean;
  /** Some turn is the query as typed, but for case and the spaces around it. */
  verbatim: boolean;
  /** The turn holds the query's one unknown word as this close spelling (a typo, see below). */
  slip?: { from: string; to: string[] };
}

/**
 * Per root session, the user turns that hold `query` as typed (see the module
 * doc), best first; empty for a pasted query, and for a short one no turn
 * equals. Quote marks count for nothing: `Who is "you" and who is "me"` typed
 * back is the prompt that held them (it ranked 15th of 17 when a quote kept a
 * query out), and a turn that holds the query's tokens as one phrase holds any
 * quoted phrase of it too.
 *
 * @param found the sessions the ladder's exact tier found (their events): where
 *   a short query's equal turn is looked for; none (or another tier): no turn.
 * @param stats the index's word counts: a query of three or more tokens that no turn holds is
 *   read again with its one word the history never wrote left open (a typo).
 * @param phrase the events holding the query as a phrase, as the search read them
 *   (lib/search/verbatim.ts): when complete, the turns are among them and not read again.
 */
export function typedPrompts(
  store: Store,
  query: string,
  f: Filters,
  rootOf: (id: number) => number,
  found?: Iterable<SessionScore>,
  stats?: TermStats,
  phrase?: PhraseRows,
): Map<number, PromptTurns> {
  const out = new Map<number, PromptTurns>();
  const toks = tokens(query);
  if (!toks.length || toks.length > MAX_TOKENS) return out;
  if (f.kinds?.length && !f.kinds.includes("user")) return out;
  // The phrase's events the search read already, when they are all of them: its user turns.
  let rows = toks.length < MIN_TOKENS
    ? userRows(found ?? [])
    : phrase?.complete
    ? phrase.rows.filter((r) => r.kind === "user").slice(0, MAX_ROWS)
    : matchRows(store, ftsTerm(toks), { ...f, kinds: ["user"] }, MAX_ROWS);
  // One word the history never wrote, in a prompt of three words or more: a typo of the prompt
  // (`what good is pritning a report no one can see` found no prompt, the session that typed it
  // ranked 4th; new-user trial, 2026-12). The prompt is read with that word left open, and a
  // turn counts only where the word it holds there is a close spelling of it.
  let slip = -1;
  if (!rows.length && stats && toks.length >= MIN_TOKENS) {
    const unknown = toks.flatMap((t, i) => (stats.docs(t) === 0 && t.length >= 4 ? [i] : []));
    // Its other words all in more than a fifth of the events: the phrase read would walk
    // their whole position lists (as lib/search/verbatim.ts).
    const n = Math.max(1, Q.eventCount.get(store, {})!.n);
    const rarest = Math.min(...toks.filter((_, i) => i !== unknown[0]).map((t) => stats.docs(t)));
    if (unknown.length === 1 && rarest / n <= 0.2) {
      slip = unknown[0];
      const open = slip === 0
        ? toks.slice(1)
        : slip === toks.length - 1
        ? toks.slice(0, -1)
        : [...toks.slice(0, slip), GAP, ...toks.slice(slip + 1)];
      rows = matchRows(store, ftsTerm(open), { ...f, kinds: ["user"] }, MAX_ROWS);
    }
  }
  // Every word written somewhere, but no turn holds them as one phrase: the prompt may have
  // been typed with a typo the query does not repeat (trial 118 F8: `… I've just implemented
  // some changes …`, typed as `implemneted`, listed its session first as "nothing matched
  // exactly"). Read the turns holding either half of the query as a phrase (one of them holds
  // the half without the typo), kept where one word is a close spelling of the query's.
  let typo = false;
  if (!rows.length && stats && slip < 0 && toks.length >= TYPO_MIN) {
    const n = Math.max(1, Q.eventCount.get(store, {})!.n);
    const half = Math.floor(toks.length / 2);
    const halves = [toks.slice(0, half), toks.slice(half)]
      .filter((h) => Math.min(...h.map((t) => stats.docs(t))) / n <= 0.2);
    if (halves.length) {
      typo = true;
      const expr = halves.map((h) => ftsTerm(h)).join(" OR ");
      rows = matchRows(store, expr, { ...f, kinds: ["user"] }, MAX_ROWS);
    }
  }
  if (!rows.length) return out;
  const texts = new Map<number, string>();
  for (
    const r of Q.eventTexts.all(store, { ids: JSON.stringify(rows.map((r) => r.event_id)) })
  ) texts.set(r.id, r.text);
  const most = toks.length < MIN_TOKENS ? toks.length : toks.length + slack(toks.length);
  const whole = toks.join(" ");
  const typed = query.trim().toLowerCase();
  for (const r of rows) {
    const turn = tokens(texts.get(r.event_id) ?? "");
    // A prompt holding a query of {@link TYPO_MIN} tokens or more but for one word spelt
    // otherwise is that prompt typed back from memory, however long the turn.
    if (turn.length > most && !((typo || slip >= 0) && toks.length >= TYPO_MIN)) continue;
    const held = typo ? typoAt(turn, toks) : undefined;
    if (typo && !held) continue;
    const at = held ? held.at : slip >= 0 ? slipAt(turn, toks, slip) : 0;
    if (at < 0) continue;
    const root = rootOf(r.session_id);
    let got = out.get(root);
    if (!got) out.set(root, got = { events: [], equal: false, verbatim: false });
    if (slip >= 0) got.slip ??= { from: toks[slip], to: [turn[at + slip]] };
    if (held) got.slip ??= { from: toks[held.word], to: [turn[at + held.word]] };
    const equal = turn.length === toks.length &&
      (held ? at === 0 : slip >= 0 ? slipAt(turn, toks, slip) === 0 : turn.join(" ") === whole);
    // The equal turn first: it is the snippet shown.
    if (equal && !got.equal) got.events.unshift({ row: r, score: -r.bm25 });
    else got.events.push({ row: r, score: -r.bm25 });
    got.equal ||= equal;
    got.verbatim ||= equal && (texts.get(r.event_id) ?? "").trim().toLowerCase() === typed;
  }
  return out;
}

/**
 * Where `turn` holds `toks` in order, but for the token at `slip`, which it holds as a close
 * spelling (at most two edits); -1 when nowhere.
 */
function slipAt(turn: string[], toks: string[], slip: number): number {
  for (let s = 0; s + toks.length <= turn.length; s++) {
    if (
      toks.every((t, j) => j === slip ? distance(turn[s + j], t, 2) <= 2 : turn[s + j] === t)
    ) return s;
  }
  return -1;
}

/** Fewest tokens of a query read against prompts typed with a typo it lacks ({@link typoAt}). */
const TYPO_MIN = 6;

/**
 * Where `turn` holds `toks` in order but for one word, which it writes as a close spelling of
 * the query's (4+ letters, no digit; one edit, two from 8 letters: `implemneted` for
 * `implemented`): the start and that word's place in the query; undefined when nowhere.
 */
function typoAt(turn: string[], toks: string[]): { at: number; word: number } | undefined {
  for (let s = 0; s + toks.length <= turn.length; s++) {
    let word = -1;
    for (let j = 0; j < toks.length; j++) {
      if (turn[s + j] === toks[j]) continue;
      const t = toks[j];
      const close = word < 0 && t.length >= 4 && !/\d/.test(t + turn[s + j]) &&
        distance(turn[s + j], t, t.length >= 8 ? 2 : 1) <= (t.length >= 8 ? 2 : 1);
      if (!close) {
        word = -2;
        break;
      }
      word = j;
    }
    if (word >= 0) return { at: s, word };
  }
  return undefined;
}

/** The user turns among `found`'s events, once each, the best {@link MAX_ROWS} by BM25. */
function userRows(found: Iterable<SessionScore>): Row[] {
  const rows = new Map<number, Row>();
  for (const s of found) {
    for (const e of s.events) if (e.row.kind === "user") rows.set(e.row.event_id, e.row);
  }
  return [...rows.values()].sort((a, b) => a.bm25 - b.bm25).slice(0, MAX_ROWS);
}

/**
 * Lifts the sessions of `prompts` above every other in `scores` (adding those
 * the ladder did not find), with the prompt turn as their first event: those
 * whose turn is the query as typed highest (`Hello?` above a later `Hello!`),
 * then those whose turn equals it but for punctuation, each group at one score
 * (the session multipliers, recency foremost, order them), then those whose
 * turn holds it, keeping their order among themselves.
 */
export function liftPrompts(
  scores: Map<number, SessionScore>,
  prompts: Map<number, PromptTurns>,
): void {
  if (!prompts.size) return;
  let top = 0;
  for (const s of scores.values()) top = Math.max(top, s.score);
  for (const p of prompts.values()) top = Math.max(top, ...p.events.map((e) => e.score));
  const lift = Math.max(1, top) * LIFT;
  for (const [id, { events, equal, verbatim }] of prompts) {
    const s = scores.get(id);
    const base = verbatim
      ? lift * LIFT * LIFT
      : equal
      ? lift * LIFT
      : lift + (s?.score ?? events[0].score);
    if (s) {
      const ids = new Set(events.map((e) => e.row.event_id));
      s.events = [...events, ...s.events.filter((e) => !ids.has(e.row.event_id))];
      s.score = base;
      s.spread = false;
    } else {
      scores.set(id, { sessionId: id, score: base, events, spread: false });
    }
  }
}

/** Above any session-level multiplier's spread (recency, throwaway, gave up, time words). */
const LIFT = 10;
