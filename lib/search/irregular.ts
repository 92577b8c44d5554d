/**
 * Word forms a stemmer cannot join: the irregular verbs a developer describes
 * a problem with (`freezes` and `frozen`, `hangs` and `hung`, `breaks` and
 * `broken`). The word-forms tier and the relevance tier count them as forms
 * of one word (lib/search/expand.ts `wordForms`), as `failing` is of `fails`.
 * Only verbs whose forms keep the meaning in a coding conversation; index
 * tokens (lower case letters). Also contractions (`didn't`, `didnt`, `did not`).
 *
 * @module
 */

/** Each group: a verb's forms the Porter stemmer leaves apart. */
const GROUPS: readonly (readonly string[])[] = [
  ["freeze", "freezes", "freezing", "froze", "frozen"],
  ["hang", "hangs", "hanging", "hung"],
  ["break", "breaks", "breaking", "broke", "broken"],
  ["write", "writes", "writing", "wrote", "written"],
  ["throw", "throws", "throwing", "threw", "thrown"],
  ["begin", "begins", "beginning", "began", "begun"],
  ["choose", "chooses", "choosing", "chose", "chosen"],
  ["hide", "hides", "hiding", "hid", "hidden"],
  ["build", "builds", "building", "built"],
  ["send", "sends", "sending", "sent"],
  ["lose", "loses", "losing", "lost"],
  ["drive", "drives", "driving", "drove", "driven"],
  ["fall", "falls", "falling", "fell", "fallen"],
  ["grow", "grows", "growing", "grew", "grown"],
  ["show", "shows", "showing", "showed", "shown"],
  ["spin", "spins", "spinning", "spun"],
  ["keep", "keeps", "keeping", "kept"],
];

const BY_WORD = new Map<string, readonly string[]>();
for (const g of GROUPS) for (const w of g) BY_WORD.set(w, g);

/**
 * The first words of the negations the index cuts at the apostrophe (`didn't`: `didn`, `t`)
 * and people also type whole (`didnt`). `can't`, `won't` and `don't` leave `can`, `won` and
 * `don`, other words: only the whole spelling is a single word's form for them.
 */
const NEGATED = [
  "didn",
  "doesn",
  "isn",
  "wasn",
  "aren",
  "weren",
  "haven",
  "hasn",
  "hadn",
  "couldn",
  "wouldn",
  "shouldn",
  "mustn",
  "needn",
];
const NEGATED_WHOLE = [...NEGATED.map((w) => w + "t"), "dont", "cant", "wont"];
const NEGATED_SET = new Set(NEGATED);

/**
 * The irregular forms of `word` (itself included), or none when it has no such group. A
 * contraction's forms are its spellings (`didnt`, `didn` of `didn't`), never `not`: a
 * common word would bury the one session that says it as typed (trial 18a: `didnt push
 * github`); `not`'s forms are the contractions holding it, so a prompt typed back with `did
 * not` finds the one that said `didnt` (trial 17a).
 */
export function irregularForms(word: string): readonly string[] {
  if (word === "not") return ["not", ...NEGATED, ...NEGATED_WHOLE];
  if (NEGATED_SET.has(word)) return [word, word + "t"];
  if (NEGATED_SET.has(word.slice(0, -1)) && word.endsWith("t")) return [word, word.slice(0, -1)];
  return BY_WORD.get(word) ?? [];
}

/** A verb before `not` and its contraction's stem as the index cuts it (`didn't`: `didn` `t`). */
const AUX_CUT: ReadonlyMap<string, string> = new Map([
  ...NEGATED.map((w): [string, string] => [w.slice(0, -1), w]),
  ["do", "don"],
  ["can", "can"],
  ["will", "won"],
]);

/**
 * The forms of `not` after `before` (`did not`: `not`, `didnt`, `didn`), or undefined when
 * `before` is no verb it contracts with. `did not` means `didn't`, not every contraction:
 * all of them, `dont` and `cant` among them, let long sessions outrank the prompt typed
 * back (trial 18b: `you did not push all the work to my github`). `don`, `can` and `won` are
 * words of their own: no form of `not` alone.
 */
export function notAfter(before: string | undefined): string[] | undefined {
  const cut = before === undefined ? undefined : AUX_CUT.get(before);
  if (cut === undefined) return undefined;
  return ["not", cut + "t", ...(NEGATED_SET.has(cut) ? [cut] : [])];
}

/** Short forms the index cuts at the apostrophe, and the one word people also type for them. */
const CUT: ReadonlyMap<string, string> = new Map([
  ...NEGATED.map((w) => [`${w} t`, w + "t"] as const),
  ["don t", "dont"],
  ["can t", "cant"],
  ["won t", "wont"],
  ["i m", "im"],
  ["i ve", "ive"],
  ["you re", "youre"],
  ["they re", "theyre"],
  ["that s", "thats"],
  ["there s", "theres"],
  ["what s", "whats"],
]);
const WHOLE: ReadonlyMap<string, string[]> = new Map(
  [...CUT].map(([cut, whole]) => [whole, cut.split(" ")]),
);

/**
 * A term's spellings: as typed, and with each contraction in it spelt the other way
 * (`didn't`, the tokens `didn` `t`, and `didnt`; `i don't have` and `i dont have`); only the
 * first when it holds none. A quoted phrase is held contiguously either way (trial 18a: `"i
 * don't have a local computer"` found nothing where a prompt said `I dont have a local
 * computer`; `you didn't push …` missed the prompt saying `didnt`).
 */
export function phraseSpellings(toks: readonly string[]): string[][] {
  const other: string[] = [];
  let changed = false;
  for (let i = 0; i < toks.length; i++) {
    const whole = i + 1 < toks.length ? CUT.get(`${toks[i]} ${toks[i + 1]}`) : undefined;
    if (whole) {
      other.push(whole);
      i++;
      changed = true;
      continue;
    }
    const cut = WHOLE.get(toks[i]);
    if (cut) {
      other.push(...cut);
      changed = true;
    } else other.push(toks[i]);
  }
  return changed ? [[...toks], other] : [[...toks]];
}
