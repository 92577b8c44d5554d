/**
 * A compound of a verb and its particle (`timeout`, `logout`, `setup`,
 * `shutdown`, `rollback`) is also written as the phrasal verb it names, in any
 * form of the verb: `timeout` finds `times out` and `timed out`, `shutdown`
 * finds `shut down`, with one word between an inflected verb and its
 * particle as a person writes it (`logout` finds "logs users out", `shutdown`
 * "shuts it down": lib/query.ts `GAP`). The word-forms tier matches these phrases beside
 * the compound's own forms (lib/search/expand.ts).
 *
 * @module
 */
import { GAP } from "../query.ts";
import type { TermStats } from "./expand.ts";

/** Particles a compound ends in. */
export const PARTICLES: readonly string[] = ["out", "up", "down", "in", "off", "over", "back"];

/**
 * The phrases `word` stands for as a phrasal verb (token lists, each of a form
 * of its verb, then the particle; {@link GAP} between an inflected form and a
 * particle other than `in`), those whose tokens the history holds; at most
 * `max`. Empty for a word that is no such compound.
 *
 * @param forms the forms of a word the history holds (lib/search/expand.ts `wordForms`).
 */
export function phrasalForms(
  stats: TermStats,
  word: string,
  forms: (stats: TermStats, w: string) => readonly string[],
  max: number,
): string[][] {
  const particle = PARTICLES.find((p) => word.endsWith(p) && word.length - p.length >= 3);
  if (!particle || !stats.docs(particle)) return [];
  const verb = word.slice(0, -particle.length);
  const out: string[][] = [];
  for (const v of new Set([verb, ...forms(stats, verb)])) {
    if (out.length >= max) break;
    // A word between only after an inflected verb (`logs users out`), never the bare verb
    // nor before `in`: FTS5's NEAR keeps no order, and "in the log", "out of time" or a
    // "check" beside an "out" are no phrasal verbs (measured: bench/recall_bench.ts forms
    // lost a hit on seeds 5 and 11 with them).
    if (stats.docs(v)) {
      out.push(v === verb || particle === "in" ? [v, particle] : [v, GAP, particle]);
    }
  }
  return out;
}
