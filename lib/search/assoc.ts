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
 * Bounds: the newest {@link MAX_LEARNED} sessions; a word counts when 3 to 10%
 * of them hold it (a rarer pair is chance, a commoner word links everything); at
 * most {@link PER_SESSION} words per session (its rarest), pairs seen in at least
 * {@link MIN_PAIR} sessions, at most {@link PER_TERM} neighbours per word. Rebuilt whole after a full
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
/**
 * Sessions learned from: the newest this many. A history of more is learned from its
 * newest, in bounded memory: 20,000 small sessions of one template lifted the end of a
 * first index from 131 to 192 MB learning from all (issue 18's trial).
 */
export const MAX_LEARNED = 8000;
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
 * turned into its words' ids as it comes and never kept, what the rows and their
 * tokens leave is collected every {@link GC_CHARS} characters, the words of all
 * sessions are held in flat arrays, and a word keeps its best neighbours as they
 * come. Issue 18, compiled binary: a first `deja index` of 21,667 small stores
 * peaked at 153-155 MB without learning, 182-183 MB learning from the texts held
 * in a map, 152-156 MB so; one of 20,000 stores of one template (77k pairs kept,
 * millions passing) 131 MB before learning, 185-192 MB after, 152 MB with
 * {@link MAX_LEARNED} and these.
 */
export function learnFrom(fields: Iterable<AssocField>): Association[] {
  const ids = new Map<string, number>();
  const words: string[] = [];
  // Each row's words as (session, word) pairs in two flat arrays, then grouped by session
  // (counting sort): no array a session (21,667 sessions: 322k words in 65k small arrays).
  const rowSession = new Ints();
  const rowWord = new Ints();
  /** A session's place, in the order sessions first came. */
  const place = new Map<number, number>();
  // One lookup a token: a word's id, or -1 for a token that is no word (refused once); a
  // word's last session in `last`, so a session's rows in a row list it once.
  const last: number[] = [];
  const pacer = new GarbagePacer(GC_CHARS);
  for (const { session_id, text } of fields) {
    if (!text) continue;
    pacer.took(text.length);
    let s = place.get(session_id);
    if (s === undefined) place.set(session_id, s = place.size);
    for (const w of tokens(text)) {
      let id = ids.get(w);
      if (id === undefined) {
        id = !WORD.test(w) || STOP_WORDS.has(w) ? -1 : words.push(w) - 1;
        ids.set(w, id);
        if (id >= 0) last.push(-1);
      }
      if (id < 0 || last[id] === s) continue;
      last[id] = s;
      rowSession.push(s);
      rowWord.push(id);
    }
  }
  const n = place.size;
  if (n < MIN_SESSIONS) return [];
  const m = words.length;
  // Grouped by session, in the order they came; a session's rows apart (its title, then its
  // turns after other sessions' titles) list a word once, where it first came.
  const at = new Int32Array(n + 1);
  for (let i = 0; i < rowSession.n; i++) at[rowSession.a[i] + 1]++;
  for (let s = 0; s < n; s++) at[s + 1] += at[s];
  const flat = new Int32Array(rowSession.n);
  const fill = at.slice(0, n);
  for (let i = 0; i < rowSession.n; i++) flat[fill[rowSession.a[i]]++] = rowWord.a[i];
  const df = new Int32Array(m);
  const mark = new Int32Array(m).fill(-1);
  const start = new Int32Array(n + 1);
  let size = 0;
  for (let s = 0; s < n; s++) {
    start[s] = size;
    for (let j = at[s]; j < at[s + 1]; j++) {
      const id = flat[j];
      if (mark[id] === s) continue;
      mark[id] = s;
      df[id]++;
      flat[size++] = id;
    }
  }
  start[n] = size;
  const max = Math.max(MIN_DF, Math.floor(n * MAX_SHARE));
  const ok = (id: number) => df[id] >= MIN_DF && df[id] <= max;
  // Each session's kept words (its rarest PER_SESSION), ascending, in place of its words;
  // then each word's sessions, for the pairs counted word by word below.
  const keptAt = new Int32Array(n + 1);
  const pick: number[] = [];
  let kept = 0;
  for (let s = 0; s < n; s++) {
    pick.length = 0;
    for (let j = start[s]; j < start[s + 1]; j++) if (ok(flat[j])) pick.push(flat[j]);
    pick.sort((a, b) => df[a] - df[b]);
    if (pick.length > PER_SESSION) pick.length = PER_SESSION;
    pick.sort((a, b) => a - b);
    keptAt[s] = kept;
    for (const id of pick) flat[kept++] = id;
  }
  keptAt[n] = kept;
  const postAt = new Int32Array(m + 1);
  for (let j = 0; j < kept; j++) postAt[flat[j] + 1]++;
  for (let a = 0; a < m; a++) postAt[a + 1] += postAt[a];
  const postings = new Int32Array(kept);
  const next = postAt.slice(0, m);
  for (let s = 0; s < n; s++) {
    for (let j = keptAt[s]; j < keptAt[s + 1]; j++) postings[next[flat[j]]++] = s;
  }
  // Each word's best PER_TERM neighbours so far, best first: every pair that passed would
  // be thousands of small arrays more on a large history (issue 18).
  const best = new Map<number, Array<[number, number]>>();
  const before = (x: [number, number], y: [number, number]) =>
    y[1] - x[1] || (words[x[0]] < words[y[0]] ? -1 : 1);
  const keep = (a: number, b: number, w: number) => {
    let l = best.get(a);
    if (!l) best.set(a, l = []);
    // (Compared before a pair is made: millions pass the bounds and are not kept.)
    const worst = l.length === PER_TERM ? l[PER_TERM - 1] : undefined;
    if (worst && (w < worst[1] || (w === worst[1] && words[b] > words[worst[0]]))) return;
    const p: [number, number] = [b, w];
    let i = l.length;
    while (i > 0 && before(p, l[i - 1]) < 0) i--;
    l.splice(i, 0, p);
    if (l.length > PER_TERM) l.pop();
  };
  const count = new Int32Array(m);
  const seen: number[] = [];
  for (let a = 0; a < m; a++) {
    for (let p = postAt[a]; p < postAt[a + 1]; p++) {
      const s = postings[p];
      let j = keptAt[s];
      while (flat[j] !== a) j++;
      for (j++; j < keptAt[s + 1]; j++) {
        if (count[flat[j]]++ === 0) seen.push(flat[j]);
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
    for (const [b, w] of l) {
      out.push({ term: words[a], other: words[b], weight: Math.min(1, w) });
    }
  }
  return out;
}

/** A growing list of 32-bit integers: `a[0..n)`. */
class Ints {
  a = new Int32Array(1 << 12);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
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
  const learned = learnFrom(Q.assocFields.iterate(store, { sessions: MAX_LEARNED }));
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
