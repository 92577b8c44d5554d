/**
 * Masks secret values in what the index already holds of a session, when the value is
 * known as a secret only after those parts were written: a cue named it in a later chunk of
 * the session (lib/prepare.ts masks the chunks after the one naming it, not those before),
 * or in a part of it appended since an earlier run read the rest (trial 111 F5). The values
 * come from the chunk that named them (`PreparedChunk.named`) and stay in memory; the writer
 * (lib/ingest.ts) calls this once per session when its pass ends.
 *
 * Masked: the events' texts (and with them events_fts, by trigger) and call data, the
 * command rows, the file rows' spans, the session's title; the words of the values leave
 * the vocabulary when no event holds them any more. Texts are found through events_fts (a
 * value's words as a phrase), so a value glued to other letters or digits (`xHunter22y`) is
 * not found there (lib/prepare.ts masks it where it follows the cue). The cells deleted are zeroed
 * (`secure_delete` while it runs), but the index file may still hold the value's word
 * lowercased in text-index segments not merged since, and stale copies in the free space of
 * pages written before (FTS5's own `secure-delete` would take the first out, but once set it
 * changes the table's format for good: SQLite before 3.42 could no longer open the index).
 * `deja forget` rewrites the file (lib/forget/forget.ts).
 *
 * @module
 */
import { Q } from "./schema.ts";
import type { Store } from "./store.ts";
import { type FoundSecrets, type RedactionCounts, redactRepeats } from "./redact.ts";
import { dropTerms } from "./search/vocab.ts";
import { VocabCollector } from "./search/tokenize.ts";

/**
 * Masks each of `found` (value -> kind) wherever session `session` (its row id) holds it,
 * adding the events' texts masked to `counts` (derived copies are not counted again, as
 * lib/prepare.ts counts them). Call inside the writer's transaction, once events_fts holds
 * every event of the session that may hold a value bare (lib/ingest.ts catches up first
 * when this pass wrote such events): texts are found there, and only texts it holds are
 * changed (its trigger takes their old text out). `catchUp` indexes the events it does not
 * hold yet (catchUpText), run before a value of no word is looked for in every text and
 * before the vocabulary is weighed.
 */
export function maskWritten(
  store: Store,
  session: number,
  found: FoundSecrets,
  counts: RedactionCounts,
  catchUp: () => void,
): void {
  const again = redactRepeats(found);
  if (!again) return;
  const values = JSON.stringify([...found.keys()]);
  const quiet: RedactionCounts = {};
  const mask = (s: string | null) => (s === null ? null : again(s, quiet));
  const texts: { id: number; text: string }[] = [];
  const data: { id: number; data: string | null }[] = [];
  for (const id of eventsHolding(store, session, found, values, catchUp)) {
    const e = Q.eventTextData.get(store, { id })!;
    const text = again(e.text, counts);
    if (text !== e.text) texts.push({ id, text });
    const d = mask(e.data);
    if (d !== e.data) data.push({ id, data: d });
  }
  const commands = Q.commandRowsHolding.all(store, { session, values });
  const files = Q.filesHolding.all(store, { session, values });
  const title = Q.sessionById.get(store, { id: session })?.title ?? null;
  const retitle = title === null ? title : mask(title);
  if (!texts.length && !data.length && !commands.length && !files.length && retitle === title) {
    return;
  }
  const was = (store.db.prepare("PRAGMA secure_delete").get() as { secure_delete: number })
    .secure_delete;
  store.db.exec("PRAGMA secure_delete = ON");
  try {
    for (const t of texts) Q.setEventText.run(store, t);
    for (const d of data) Q.setEventData.run(store, d);
    for (const c of commands) {
      Q.setCommand.run(store, { command: again(c.command, quiet), event: c.event_id });
    }
    for (const f of files) {
      Q.setFileSpans.run(store, { old: mask(f.old), new: mask(f.new), id: f.id });
    }
    if (retitle !== title) Q.setTitle.run(store, { title: retitle, id: session });
  } finally {
    store.db.exec(`PRAGMA secure_delete = ${was === 2 ? "FAST" : was ? "ON" : "OFF"}`);
  }
  if (!texts.length) return;
  // With every text in events_fts: a word of the values no event holds now leaves the vocabulary.
  catchUp();
  const words = new VocabCollector();
  for (const v of found.keys()) words.add(v);
  dropTerms(store, words.take());
}

/**
 * The events of `session` whose text or call data may hold one of `found`. Texts are looked
 * up in events_fts, each value as a phrase of its words (exact case is checked after): read
 * instead, the texts of the bench corpus's 67 sessions of 1.5 MB, 8 values each, took ~2 s
 * inside the writer (wall, a loaded 2-core machine), the lookups ~0.15 s. A value of no word
 * is looked for in every text (events_fts caught up first). Calls' data (their inputs, of
 * which the text renders only part) is read.
 */
function eventsHolding(
  store: Store,
  session: number,
  found: FoundSecrets,
  values: string,
  catchUp: () => void,
): Set<number> {
  const ids = new Set<number>();
  const wordless: string[] = [];
  for (const value of found.keys()) {
    if (!/[\p{L}\p{N}]/u.test(value)) wordless.push(value);
    else {
      const match = `"${value.replaceAll('"', '""')}"`;
      for (const r of Q.eventsMatching.iterate(store, { match, session })) ids.add(r.id);
    }
  }
  if (wordless.length) {
    catchUp();
    const q = { session, values: JSON.stringify(wordless) };
    for (const r of Q.eventsWithText.iterate(store, q)) ids.add(r.id);
  }
  for (const r of Q.callsHolding.iterate(store, { session, values })) ids.add(r.id);
  return ids;
}
