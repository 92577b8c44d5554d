/**
 * The vocabulary made again from the events the index holds, as the indexer makes it
 * (lib/prepare.ts `vocabText`: every event's text, of a long tool result its head and joined names): after a rebuild and a
 * forget, a word no event holds any more leaves `vocab` and `vocab_tri` (trial 76: a word
 * scrubbed from a store stayed readable in index.db through `forget` and `--rebuild`, and
 * `deja stats` counted 4,363 words where a fresh index of the same stores had 3,114).
 *
 * @module
 */
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { VocabCollector } from "./tokenize.ts";
import { resetVocabCache } from "./vocab.ts";
import { vocabText } from "../prepare.ts";

/** Tokens inserted per statement. */
const BATCH = 5000;

/**
 * Empties `vocab` and fills it again from every event's text, in one transaction. Costs a
 * pass over the events' text (a few hundred ms for the 100 MB bench index).
 */
export function rebuildVocab(store: Store): void {
  store.tx(() => {
    store.db.exec("DELETE FROM vocab");
    const words = new VocabCollector();
    let batch: string[] = [];
    const flush = () => {
      if (batch.length) Q.insertVocab.run(store, { terms: JSON.stringify(batch) });
      batch = [];
    };
    for (const e of Q.allEventTexts.iterate(store, {})) {
      words.add(vocabText(e.kind, e.text));
      for (const t of words.take()) batch.push(t);
      if (batch.length >= BATCH) flush();
    }
    flush();
  });
  resetVocabCache(store);
}
