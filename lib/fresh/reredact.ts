/**
 * Secrets redaction of sessions whose store is gone, in place. A newer redaction
 * (lib/version.ts REDACTION) reaches history by reading every store again; a store deleted or
 * moved since ("gone, kept", lib/gone.ts) cannot be read, so its sessions kept what the older
 * rules let through, and its row, read by an older reader for good, kept every later command
 * starting a background run to read it (trial 129 F2). Here each such session's texts are
 * redacted again: the values the rules find are masked wherever the session holds them (its
 * events, call data, commands, file spans and title, lib/mask_written.ts), and the store's row
 * is marked read by this reader: nothing more can be read from it.
 *
 * @module
 */
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { type FoundSecrets, redact, type RedactionCounts } from "../redact.ts";
import { maskWritten } from "../mask_written.ts";
import { catchUpText } from "../ingest.ts";
import { revisionOf } from "../version.ts";
import { storeState } from "../gone.ts";

/**
 * Redacts again the sessions of every gone store an older reader read, and marks each store
 * read by this one. Returns the values masked by kind. Call in the writer, after the stores
 * in place were read again.
 */
export function reredactGone(store: Store): RedactionCounts {
  const counts: RedactionCounts = {};
  const rows = Q.allSources.all(store, {}).filter((r) =>
    r.error === null && (r.reader ?? 0) !== revisionOf(r.harness) &&
    storeState(r.path) === "gone"
  );
  if (!rows.length) return counts;
  store.tx(() => {
    for (const r of rows) {
      for (const { id } of Q.sessionsOfSource.all(store, { source: r.path })) {
        const found: FoundSecrets = new Map();
        const quiet: RedactionCounts = {};
        for (const e of Q.eventsOfSession.all(store, { session: id })) {
          redact(e.text, quiet, found);
          if (e.data) redact(e.data, quiet, found);
        }
        if (found.size) maskWritten(store, id, found, counts, () => catchUpText(store));
      }
      store.db.prepare("UPDATE sources SET reader = ? WHERE path = ?").run(
        revisionOf(r.harness),
        r.path,
      );
    }
  });
  return counts;
}
