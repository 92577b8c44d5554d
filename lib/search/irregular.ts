/**
 * Word forms a stemmer cannot join: the irregular verbs a developer describes
 * a problem with (`freezes` and `frozen`, `hangs` and `hung`, `breaks` and
 * `broken`). The word-forms tier and the relevance tier count them as forms
 * of one word (lib/search/expand.ts `wordForms`), as `failing` is of `fails`.
 * Only verbs whose forms keep the meaning in a coding conversation, and `not`
 * with its contractions; index tokens (lower case letters).
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
  // `not` and the negations that hold it, typed whole (`didnt`) or cut by the index at the
  // apostrophe (`didn't`: `didn`, `t`): a prompt typed back with `did not` finds the one that
  // said `didnt` (trial 17a). `can't`, `won't` and `don't` leave `can`, `won` and `don`, other
  // words, so only their whole forms count.
  [
    "not",
    ...["didn", "doesn", "isn", "wasn", "couldn", "wouldn", "shouldn", "haven", "hasn"],
    ...["aren", "weren", "didnt", "doesnt", "dont", "isnt", "wasnt", "cant", "couldnt"],
    ...["wouldnt", "shouldnt", "havent", "hasnt", "arent", "werent", "wont"],
  ],
];

const BY_WORD = new Map<string, readonly string[]>();
for (const g of GROUPS) for (const w of g) BY_WORD.set(w, g);

/** The irregular forms of `word` (itself included), or none when it has no such group. */
export function irregularForms(word: string): readonly string[] {
  return BY_WORD.get(word) ?? [];
}
