/**
 * The packet after a summary: once a harness has summarised a live session
 * (Crush writes a summary message and carries on from it), the digest of that
 * session as it stands — problem, decisions, commands with exit status, files
 * changed — so what the summary dropped is back in reach. The live session is
 * not in the index yet, so it is written into a private in-memory index
 * (normalised and redacted as `deja index` would) and digested there.
 *
 * @module
 */
import type { Session } from "../../core/model.ts";
import { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { SourceWriter } from "../ingest.ts";
import { prepareChunk } from "../prepare.ts";
import { sessionDigest } from "../memory/digest.ts";
import { byteLength } from "../../core/text.ts";
import { type Said, stripControls } from "./_util.ts";

const LEAD = "The conversation was summarised. What this session did so far, in full:";

/** The digest of `session` within `budget` bytes, or null when it holds nothing to digest. */
export function packetBlock(
  session: Session,
  summaryId: string,
  budget: number,
  home?: string,
): Said | null {
  const room = budget - byteLength(LEAD) - 1;
  if (room < 256) return null;
  const mem = Store.open(":memory:");
  try {
    mem.tx(() => {
      const w = new SourceWriter(mem, session.path, "full");
      w.write(prepareChunk(session));
      w.finish();
    });
    const row = Q.sessionByKey.get(mem, { harness: session.harness, native_id: session.id });
    if (!row) return null;
    const d = sessionDigest(mem, row.id, { budgetBytes: room, home });
    if (!d.decisions.length && !d.commands.length && !d.files.length) return null;
    return { text: `${LEAD}\n${stripControls(d.markdown)}`, keys: [`packet:${summaryId}`] };
  } finally {
    mem.close();
  }
}
