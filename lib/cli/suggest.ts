/**
 * Did-you-mean for a mistyped command. A bare `deja <words>` is a search, so a
 * first word close to a command name is still searched for; the caller only
 * adds a note on stderr. Close means one edit (a transposition counts as one),
 * or two for names of six letters or more; a three-letter name needs the typo
 * to be longer or a transposition, so everyday words (`fox`, `now`) stay quiet.
 * The commands that delete are named only one edit away: two trials were told "did
 * you mean 'forget'?" of a search for `forgejo`.
 *
 * @module
 */
import { distance } from "../search/distance.ts";
import { harnessId, harnessIds, harnessNames } from "../../core/registry.ts";
import { DejaError } from "../../core/errors.ts";

/** Commands that delete what they are given: never guessed from a word two edits away. */
const DELETING: ReadonlySet<string> = new Set(["forget", "uninstall"]);

/** True for a command that deletes what it is given (`forget`, `uninstall`). */
export function deletes(name: string): boolean {
  return DELETING.has(name);
}

/**
 * The command name `word` looks like a typo of, or undefined.
 *
 * @example suggestCommand("showw", ["show", "last"]) === "show"
 */
export function suggestCommand(
  word: string,
  names: readonly string[],
  max: 1 | 2 = 2,
): string | undefined {
  const w = word.toLowerCase();
  if (w.length < 3 || !/^[a-z-]+$/.test(w) || names.includes(w)) return undefined;
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = distance(w, name, 2);
    const close = d === 1
      ? name.length >= 4 || w.length > name.length || sameLetters(w, name)
      : d === 2 && max === 2 && name.length >= 6 && w.length >= 5 && !DELETING.has(name);
    if (close && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}

function sameLetters(a: string, b: string): boolean {
  return [...a].sort().join("") === [...b].sort().join("");
}

/**
 * Words people type for a command deja names otherwise (`deja sessions` for
 * `deja last`). Such a word alone is still searched for; the caller says which
 * command does what the word asks.
 */
const COMMAND_WORDS: Readonly<Record<string, string>> = {
  sessions: "last",
  list: "last",
  ls: "last",
  history: "last",
  recent: "last",
  delete: "forget",
  remove: "forget",
  rm: "forget",
  setup: "install",
  note: "remember",
};

/**
 * The command a lone word stands for (`sessions` → `last`), or undefined.
 *
 * @example commandWord("Sessions") === "last"
 */
export function commandWord(word: string): string | undefined {
  return Object.hasOwn(COMMAND_WORDS, word.toLowerCase())
    ? COMMAND_WORDS[word.toLowerCase()]
    : undefined;
}

/**
 * The error for a `--harness` value no harness has (exit 2), naming a near miss (trial 16:
 * `claud`, `cladue-code` listed forty ids and no guess) or a word of it that names one (`Kimi
 * Code`: kimi, not kilocode; `OpenAI Codex`, `Charm Crush`). The CLI's and `deja view`'s.
 */
export function unknownHarness(h: string): DejaError {
  const names = [...harnessIds(), ...harnessNames().map((n) => n.name)];
  const words = h.toLowerCase().split(/[\s_.-]+/).filter((w) => w.length >= 3);
  const named = [...new Set(words.map((w) => harnessId(w)).filter((x) => x !== undefined))];
  const near = named.length === 1
    ? named[0]
    : suggestCommand(h.toLowerCase().replace(/[\s_]+/g, "-"), names);
  const guess = near && harnessId(near);
  return new DejaError(
    `unknown harness '${h}'${guess ? `; did you mean '${guess}'?` : ""}`,
    `one of: ${harnessIds().join(", ")}`,
    2,
  );
}
