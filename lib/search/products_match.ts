/**
 * Products a question names by what they are (lib/search/products.ts): "my self-hosted git
 * server" for Forgejo, "the in-memory cache" for Redis. For each word of the query, the
 * products the history holds whose plain words hold it (or a word it is an inflection of),
 * the relevance tier reading them as related words of that query word
 * (lib/search/related.ts `associated`).
 *
 * A product counts when the history holds its name, and a query word brings at most
 * {@link PER_WORD} of them: those most of whose words the query names first (`git hosting`
 * is Forgejo before it is GitHub Actions). A word that is no product's is no key here.
 *
 * Measured (2026-12-07, weight 0.5, lib/search/related.ts `RELATED.product`, 3 a word; the glossary written
 * blind, by a helper who read no benchmark and no store): `deno task bench:real` hit@1 / hit@5
 * / MRR@10, tuning 0.26 / 0.68 / 0.422 -> 0.29 / 0.68 / 0.452, held out 0.16 / 0.42 / 0.283 ->
 * 0.16 / 0.52 / 0.310, held out 2 0.23 / 0.60 / 0.387 -> 0.30 / 0.60 / 0.422, held out 3 0.33 /
 * 0.63 / 0.439 -> 0.35 / 0.68 / 0.466, every negative still "nothing matched"; `deno task
 * bench:recall --seeds 3,5,7,11` every kind's hit@1 the same on every seed but `blind` 0.60 ->
 * 0.58 on seed 3 and 0.52 -> 0.53 on seed 5 (one query each: the mean unchanged) and `blind2`
 * 0.15 -> 0.13 on seed 11 (one query of 60); in-process latency within noise. Chosen on the
 * tuning sets (weight 0.3 and 0.7, 2 a word: the same figures there, 0.7 lost 3 blind
 * queries on seed 11); the held-out figures were read once, as aggregates.
 *
 * Then beside a word the history holds as typed too, not only when the tier widens (trial 134
 * F1: `self-hosted git server`, each word held somewhere, never reached the session about
 * Forgejo): tuning 0.29 / 0.68 / 0.452 -> 0.29 / 0.71 / 0.468, held out 0.16 / 0.52 / 0.311 ->
 * 0.19 / 0.48 / 0.335, held out 2 0.30 / 0.60 / 0.426 -> 0.33 / 0.63 / 0.466, held out 3 0.35 /
 * 0.68 / 0.466 -> 0.42 / 0.68 / 0.521, negatives all "nothing matched"; `bench:recall` every
 * kind on every seed the same.
 *
 * @module
 */
import { PRODUCTS, SPELLINGS } from "./products.ts";
import { inflections } from "./related.ts";
import type { TermStats } from "./expand.ts";
import { ABLATE } from "./rank.ts";

/** Products one query word brings, at most. */
export const PER_WORD = 3;

/** Plain word -> the products it describes (built on first use). */
let byWord: Map<string, string[]> | undefined;

function index(): Map<string, string[]> {
  if (byWord) return byWord;
  byWord = new Map();
  for (const [name, words] of Object.entries(PRODUCTS)) {
    for (const w of words) {
      const list = byWord.get(w);
      if (list) list.push(name);
      else byWord.set(w, [name]);
    }
  }
  return byWord;
}

/**
 * For each of `words` (the query's, index tokens), the products the history holds that it
 * describes, most of the query's words first; words with none are left out.
 */
export function productsFor(stats: TermStats, words: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (ABLATE.products) return out;
  const by = describers(words);
  words.forEach((w) => {
    const held = [...by.entries()].filter(([p, ws]) => ws.has(w) && stats.docs(p) > 0)
      .sort((a, b) => b[1].size - a[1].size || stats.docs(b[0]) - stats.docs(a[0]));
    if (held.length) out.set(w, held.slice(0, PER_WORD).map(([p]) => p));
  });
  return out;
}

/** The spellings of `product`'s tool (itself among them). */
function spellingsOf(product: string): readonly string[] {
  return SPELLINGS.find((g) => g.includes(product)) ?? [product];
}

/**
 * Product -> the words of `words` that describe it (a word or one it is an inflection of among
 * its plain words); a product named as such is no description of it.
 */
function describers(words: string[]): Map<string, Set<string>> {
  const ix = index();
  const by = new Map<string, Set<string>>();
  for (const w of new Set(words)) {
    for (const f of inflections(w)) {
      for (const p of ix.get(f) ?? []) {
        if (p === w) continue;
        const set = by.get(p) ?? new Set<string>();
        set.add(w);
        by.set(p, set);
      }
    }
  }
  return by;
}

/** A product several words of a query describe, that the history names ({@link describedProducts}). */
export interface Described {
  product: string;
  /** The query's words that describe it. */
  words: string[];
}

/**
 * The products two or more of `words` describe (`self hosted git server`: forgejo, gitea) that
 * the history names, most words first, at most `n`: what a hint names when the sessions listed
 * do not name them (a question in plain words matched sessions holding its words as typed, not
 * the one about the product).
 */
export function describedProducts(stats: TermStats, words: string[], n = 2): Described[] {
  if (ABLATE.products) return [];
  const by = describers(words);
  const typed = new Set(words);
  const held = [...by.entries()]
    .filter(([p, ws]) => ws.size >= 2 && !typed.has(p) && stats.docs(p) > 0);
  // Only those the most words describe (trial 135 F4: `self-hosted git server` named jellyfin,
  // described by `hosted server`, since the sessions listed first named forgejo already).
  const most = Math.max(0, ...held.map(([, ws]) => ws.size));
  // One tool once, by the spelling the most sessions write (lib/search/products.ts SPELLINGS).
  const told = new Set<string>();
  return held.filter(([, ws]) => ws.size === most)
    .sort((a, b) => stats.docs(b[0]) - stats.docs(a[0]))
    .filter(([p]) => {
      const tool = spellingsOf(p);
      if (tool.some((s) => told.has(s))) return false;
      told.add(p);
      return true;
    })
    .slice(0, n)
    .map(([product, ws]) => ({ product, words: [...ws] }));
}
