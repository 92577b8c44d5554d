/**
 * Labelled queries for the recall benchmark, made from what the generator
 * planted (bench/gen_recall.ts), one kind at a time, as a person would type
 * them: an identifier or a quoted phrase (exact), three words from different
 * places of the session (words), other forms or abbreviations of its words
 * (forms), one word misspelt (typo), the tail of an identifier (substring), a
 * question in their own words (question), the error pasted again from another
 * run (error), and topics the history never touched (negative). Reported
 * apart: near misses (nearmiss), the history's own words in a combination no
 * session was about (a component with a symptom it never had) — long sessions
 * that name both in passing hold them, so "nothing matched" is not always
 * the right answer there. Also reported apart, and left out of the overall
 * row: paraphrases (the problem in other words, at most two words shared with
 * the session; bench/recall_world.ts), a tuning set (`paradev`) and a
 * held-out set (`paraphrase`) that nothing was tuned against. Last, written
 * blind and never tuned against (bench/recall_blind.ts): `blind` questions that
 * share at most one content word with their session, and `blindneg` near
 * misses that are not in the history.
 *
 * The generator's token sets are used only to keep a query honest (a typo is
 * not a real token, a word-forms query is not literally in any session).
 *
 * @module
 */
import { rng } from "./gen_claude.ts";
import type { Case, History } from "./gen_recall.ts";
import {
  ABSENT,
  COMPONENT_ALIASES,
  COMPONENTS,
  FORMS,
  SYMPTOM_PARAPHRASES,
  SYMPTOMS,
} from "./recall_world.ts";
import { STOP_WORDS } from "../lib/query.ts";
import { BLIND2 } from "./recall_blind2_tables.ts";
import { makeBlind } from "./recall_blind.ts";

/** The kinds of query the benchmark reports. */
export const KINDS = [
  "exact",
  "words",
  "forms",
  "typo",
  "substring",
  "question",
  "paradev",
  "paraphrase",
  "error",
  "negative",
  "nearmiss",
  "blind",
  "blindneg",
  "blind2",
  "blind2neg",
] as const;
export type Kind = (typeof KINDS)[number];

/** A query with the sessions that should answer it (none for a negative query). */
export interface LabelledQuery {
  kind: Kind;
  query: string;
  relevant: string[];
}

const DAY = 86400e3;
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** Makes up to `perKind` queries of each kind. */
export function makeQueries(h: History, perKind: number, seed: number): LabelledQuery[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const shuffled = <T>(xs: readonly T[]) => {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  };
  const allTokens = new Set<string>();
  for (const t of h.tokensOf.values()) for (const w of t) allTokens.add(w);
  const toks = (q: string) => q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  /** Some session holds every token of `q` literally. */
  const literalSomewhere = (q: string) => {
    const ts = toks(q);
    for (const set of h.tokensOf.values()) if (ts.every((t) => set.has(t))) return true;
    return false;
  };
  const out: LabelledQuery[] = [];
  const add = (kind: Kind, make: (c: Case) => string | null) => {
    let n = 0;
    for (const c of shuffled(h.cases)) {
      if (n >= perKind) break;
      const q = make(c);
      if (!q) continue;
      out.push({ kind, query: q, relevant: [c.session] });
      n++;
    }
  };

  add(
    "exact",
    (c) =>
      r() < 0.5
        ? `${c.identifier} ${c.component.noun}`
        : `"${
          c.cause.text.replace(/^(?:the|a|an) /, "").split(" ").slice(0, 4).join(" ")
        }" ${c.component.noun}`,
  );
  add("words", (c) => `${c.component.noun} ${c.cause.word} ${c.tech}`);
  add("forms", (c) => {
    const mine = h.tokensOf.get(c.session)!;
    for (const v of shuffled(FORMS[c.formWord])) {
      if (mine.has(v)) continue;
      const q = `${v} ${c.component.noun} ${c.symptom.word}`;
      if (!literalSomewhere(q)) return q;
    }
    return null;
  });
  add("typo", (c) => {
    const words = [c.component.noun, c.cause.word, ...c.tech.split(" ")];
    const target = words.filter((w) =>
      /^[a-z]{5,}$/.test(w)
    ).sort((a, b) => b.length - a.length)[0];
    if (!target) return null;
    for (let tries = 0; tries < 10; tries++) {
      const typo = misspell(target, r);
      if (typo !== target && !allTokens.has(typo)) {
        return words.map((w) => (w === target ? typo : w)).join(" ");
      }
    }
    return null;
  });
  add("substring", (c) => {
    const frag = c.fragment.toLowerCase();
    return allTokens.has(frag) ? null : `${c.fragment} ${c.component.noun}`;
  });
  add("question", (c) => {
    const when = timeWords(h.now - c.end, c.end, r);
    const t = pick([
      () => `how did we fix the ${c.component.name} that would ${c.symptom.ask}?`,
      () =>
        `what was the root cause when the ${c.component.noun} started to ${c.symptom.ask}${when}?`,
      () => `why did the ${c.component.name} ${c.symptom.ask}${when}`,
      () =>
        `which change stopped the ${c.component.noun} from ${c.symptom.word} issues with ${c.tech}?`,
    ]);
    return t();
  });
  add("error", (c) => {
    if (!c.error.template.includes("{w}")) return null;
    const w = c.identifier[0].toLowerCase() + c.identifier.slice(1);
    return c.error.template.replaceAll("{w}", w)
      .replace(/\{n\}/g, () => String(2 + Math.floor(r() * 65000)))
      .replace(/\{p\}/g, () => `/home/ci/build/${Math.floor(r() * 900 + 100)}/app/index.js`);
  });
  // Negatives: topics the history never touched.
  for (const topic of shuffled(ABSENT).slice(0, perKind)) {
    out.push({
      kind: "negative",
      query: pick([topic, `how did we fix the ${topic}?`, `${topic} again`]),
      relevant: [],
    });
  }
  const about = new Set(h.about);
  let near = 0;
  for (const c of shuffled(COMPONENTS)) {
    for (const sy of shuffled(SYMPTOMS)) {
      if (near >= perKind) break;
      if (about.has(`${c.noun}|${sy.word}`)) continue;
      about.add(`${c.noun}|${sy.word}`);
      out.push({
        kind: "nearmiss",
        query: pick([`${c.noun} ${sy.word}`, `why does the ${c.name} ${sy.ask}?`]),
        relevant: [],
      });
      near++;
      break;
    }
  }
  // Made last, so the queries of the other kinds stay those of earlier runs.
  // Paraphrases: the problem in other words, sharing at most two words with the session
  // (`paradev` tunes, `paraphrase` is held out; bench/recall_world.ts).
  for (const [kind, v] of [["paradev", 0], ["paraphrase", 1]] as const) {
    add(kind, (c) => {
      const alias = COMPONENT_ALIASES[c.component.noun][v];
      const says = SYMPTOM_PARAPHRASES[c.symptom.word][v];
      const mine = h.tokensOf.get(c.session)!;
      const forms = [
        `why does the ${alias} ${says.replace(/^(?:gets|shows|keeps) /, "")}?`,
        `${alias}: ${says}`,
        `how did we deal with the ${alias} when ${says}`,
      ];
      const ok = forms.filter((q) =>
        toks(q).filter((t) => !STOP_WORDS.has(t) && mine.has(t)).length <= 2
      );
      return ok.length ? pick(ok) : null;
    });
  }
  // At least 60 blind questions when the history has that many planted cases.
  out.push(...makeBlind(h, Math.max(60, 2 * perKind), perKind, seed + 101));
  // The second blind set, written later by another hand (bench/recall_blind2.ts).
  out.push(...makeBlind(h, Math.max(60, 2 * perKind), perKind, seed + 103, BLIND2));
  return out;
}

/** One typing slip, never in the first letter: a letter dropped, doubled, swapped or replaced. */
export function misspell(w: string, r: () => number): string {
  const i = 1 + Math.floor(r() * (w.length - 2));
  const roll = r();
  if (roll < 0.3) return w.slice(0, i) + w.slice(i + 1);
  if (roll < 0.5) return w.slice(0, i) + w[i] + w.slice(i);
  if (roll < 0.75 && w[i] !== w[i + 1]) return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  const near = "qwertyuiopasdfghjklzxcvbnm";
  const k = near.indexOf(w[i]);
  const sub = near[(k + 1) % near.length];
  return w.slice(0, i) + sub + w.slice(i + 1);
}

/** Time words for a session `ago` ms before now (one in three questions has them). */
function timeWords(ago: number, end: number, r: () => number): string {
  if (r() > 0.33) return "";
  const days = ago / DAY;
  if (days < 1.5) return " yesterday";
  if (days < 6) return " this week";
  if (days < 13) return " last week";
  return ` in ${MONTHS[new Date(end).getMonth()]}`;
}
