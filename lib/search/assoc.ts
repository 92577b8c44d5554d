/**
 * Words the user's own history uses together, learned at index time: two
 * words are associated when the sessions that state a problem or an answer
 * with one of them state it with the other far more often than chance
 * (normalised pointwise mutual information over sessions). The relevance tier
 * reads them as related words, a tier below the words as typed
 * (lib/search/related.ts) — so a question in the words of one project
 * (`ledger`) reaches the sessions that wrote its neighbour (`invoice`).
 *
 * What is read: per session its title, first user turns that are not pasted
 * dumps, summaries and conclusions (lib/schema.ts `assocFields`) — where a
 * session says what it was about — never whole tool outputs, so the cost stays
 * proportional to the sessions, not to the bytes indexed.
 *
 * Bounds: a word counts when 3 to 10% of the sessions hold it (a rarer pair is
 * chance, a commoner word links everything); at most {@link PER_SESSION} words
 * per session (its rarest), pairs seen in at least {@link MIN_PAIR} sessions,
 * at most {@link PER_TERM} neighbours per word. Rebuilt whole after a full
 * index run when the number of sessions moved by {@link REBUILD_SHARE} since
 * the last build (the table is a few hundred kB at most; a rebuild takes well
 * under a second per 1,000 sessions).
 *
 * Pairs are counted word by word through the sessions that hold the word, in
 * one reused counter array, not in a map of every pair seen (issue 18): on
 * 2,517 sessions of 40 KB (~4,200 fields, 0.7 M characters) the map grew by
 * ~1 M mostly single pairs, learning cost +32 MB of RSS and 160-370 ms under
 * Bun alone, and at the end of a first `deja index` it lifted the peak RSS by
 * 10-11 MB (137-147 -> 147-158; mimalloc keeps freed memory in that run,
 * core/runtime.ts); counted per word, +16 MB and 130-160 ms alone and +1 MB
 * at the run's end, the same associations. Each token looked up once (its word id, or -1 for
 * one that is no word) and each session's words listed by the session they were last seen in,
 * not a Set a session: learning the 2,282 sessions of 40 KB 50 -> 31 ms under Bun (min of 20
 * in one process, the same 811 associations), the index run's end alike within noise.
 *
 * @module
 */
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import { STOP_WORDS } from "../query.ts";
import { tokens } from "./tokenize.ts";
import { GarbagePacer } from "../../core/runtime.ts";

/** A word of fewer sessions than this is not associated. */
export const MIN_DF = 3;
/** A word in more than this share of sessions is not associated. */
export const MAX_SHARE = 0.1;
/** Words of one session counted (its rarest). */
export const PER_SESSION = 48;
/** A pair must share at least this many sessions. */
export const MIN_PAIR = 3;
/** Lowest normalised PMI kept. */
export const MIN_NPMI = 0.3;
/** Neighbours kept per word. */
export const PER_TERM = 5;
/** Rebuilt when the number of sessions moved by this share since the last build. */
export const REBUILD_SHARE = 0.05;
/** Below this many sessions nothing is learned (too few to tell a pattern from chance). */
export const MIN_SESSIONS = 30;

const META = "assoc";
/** Characters of text learned between two collections of what their rows and tokens left. */
const GC_CHARS = 1 << 20;
const WORD = /^[a-z][a-z0-9]{2,23}$/;

/** A learned association. */
export interface Association {
  term: string;
  other: string;
  /** Normalised PMI, (0, 1]. */
  weight: number;
}

/** One text a session states its work in (rows of {@link learnFrom}, in any order). */
export interface AssocField {
  session_id: number;
  text: string | null;
}

/**
 * Learns the associations of `fields` (per session, the texts it states its
 * work in): pure, for tests.
 */
export function learnAssociations(fields: Map<number, string[]>): Association[] {
  return learnFrom(function* () {
    for (const [session_id, texts] of fields) for (const text of texts) yield { session_id, text };
  }());
}

/**
 * Learns the associations of the rows `fields`, read one at a time: each text is
 * turned into its words' ids as it comes and never kept, and what the rows and
 * their tokens leave is collected every {@link GC_CHARS} characters. A first
 * `deja index` of 21,667 small stores (3.7 M characters of fields) peaked at
 * 153-155 MB of RSS without learning, 182-183 MB when it learned from the texts
 * held in a map, and 152-156 MB so (compiled binary, two runs each; issue 18).
 */
export function learnFrom(fields: Iterable<AssocField>): Association[] {
  const ids = new Map<string, number>();
  const words: string[] = [];
  const sets: number[][] = [];
  const df: number[] = [];
  /** A session's place in `sets`. */
  const place = new Map<number, number>();
  /** Sessions whose rows came apart (a title, then its turns after other sessions'). */
  const apart = new Set<number>();
  // One lookup a token: a word's id, or -1 for a token that is no word (refused once); a
  // word's last session in `last`, so each session lists it once (no Set a session).
  const last: number[] = [];
  let prev = -1;
  const pacer = new GarbagePacer(GC_CHARS);
  for (const { session_id, text } of fields) {
    if (!text) continue;
    pacer.took(text.length);
    let s = place.get(session_id);
    if (s === undefined) {
      s = sets.push([]) - 1;
      place.set(session_id, s);
    } else if (s !== prev) apart.add(s);
    prev = s;
    const set = sets[s];
    for (const w of tokens(text)) {
      let id = ids.get(w);
      if (id === undefined) {
        id = !WORD.test(w) || STOP_WORDS.has(w) ? -1 : words.push(w) - 1;
        ids.set(w, id);
        if (id >= 0) last.push(-1), df.push(0);
      }
      if (id < 0 || last[id] === s) continue;
      last[id] = s;
      set.push(id);
    }
  }
  for (const s of apart) sets[s] = [...new Set(sets[s])];
  for (const set of sets) for (const id of set) df[id]++;
  const n = sets.length;
  if (n < MIN_SESSIONS) return [];
  const max = Math.max(MIN_DF, Math.floor(n * MAX_SHARE));
  const ok = (id: number) => df[id] >= MIN_DF && df[id] <= max;
  // Each session's kept words, ascending; then, word by word, the later words of the sessions
  // that hold it counted in one reused array (a pair is counted under its smaller id, as once).
  const m = words.length;
  const postings: (number[] | undefined)[] = new Array(m);
  const kept = sets.map((set, s) => {
    const k = set.filter(ok).sort((a, b) => df[a] - df[b]).slice(0, PER_SESSION);
    k.sort((a, b) => a - b);
    for (const id of k) (postings[id] ??= []).push(s);
    return k;
  });
  const best = new Map<number, Array<[number, number]>>();
  const keep = (a: number, b: number, w: number) => {
    let l = best.get(a);
    if (!l) best.set(a, l = []);
    l.push([b, w]);
  };
  const count = new Int32Array(m);
  const seen: number[] = [];
  for (let a = 0; a < m; a++) {
    for (const s of postings[a] ?? []) {
      const k = kept[s];
      for (let j = k.indexOf(a) + 1; j < k.length; j++) {
        if (count[k[j]]++ === 0) seen.push(k[j]);
      }
    }
    for (const b of seen) {
      const c = count[b];
      count[b] = 0;
      if (c < MIN_PAIR) continue;
      const pab = c / n;
      const npmi = Math.log(pab / ((df[a] / n) * (df[b] / n))) / -Math.log(pab);
      if (npmi < MIN_NPMI) continue;
      keep(a, b, npmi);
      keep(b, a, npmi);
    }
    seen.length = 0;
  }
  const out: Association[] = [];
  for (const [a, l] of best) {
    l.sort((x, y) => y[1] - x[1] || (words[x[0]] < words[y[0]] ? -1 : 1));
    for (const [b, w] of l.slice(0, PER_TERM)) {
      out.push({ term: words[a], other: words[b], weight: Math.min(1, w) });
    }
  }
  return out;
}

/** What a build did. */
export interface AssocBuild {
  built: boolean;
  sessions: number;
  pairs: number;
  ms: number;
}

/**
 * The index-time hook: rebuilds the table when the history moved by
 * {@link REBUILD_SHARE} since the last build (or `force`). Runs inside the
 * caller's write lock, in one transaction.
 */
export function buildAssociations(store: Store, force = false): AssocBuild {
  const t0 = performance.now();
  const sessions = Q.stats.get(store, {})!.sessions;
  const last = Number(Q.getMeta.get(store, { key: META })?.value ?? -1);
  if (!force && last >= 0 && Math.abs(sessions - last) <= Math.max(5, last * REBUILD_SHARE)) {
    return { built: false, sessions, pairs: 0, ms: performance.now() - t0 };
  }
  const learned = learnFrom(Q.assocFields.iterate(store, {}));
  store.db.exec("BEGIN");
  try {
    Q.assocClear.run(store, {});
    for (const a of learned) Q.assocInsert.run(store, a);
    Q.setMeta.run(store, { key: META, value: String(sessions) });
    store.db.exec("COMMIT");
  } catch (e) {
    store.db.exec("ROLLBACK");
    throw e;
  }
  cache.delete(store);
  return { built: true, sessions, pairs: learned.length, ms: performance.now() - t0 };
}

const cache = new WeakMap<Store, Map<string, Array<[string, number]>>>();

/** The words the history associates with `word`, strongest first, with their weight. */
export function learnedFor(store: Store, word: string): Array<[string, number]> {
  let m = cache.get(store);
  if (!m) cache.set(store, m = new Map());
  let l = m.get(word);
  if (!l) m.set(word, l = Q.assocOf.all(store, { term: word }).map((r) => [r.other, r.weight]));
  return l;
}
