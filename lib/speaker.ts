/**
 * Who speaks in an event, as a listing names it (search, MCP recall, the view).
 *
 * @module
 */

/**
 * The speaker of an event of `kind` in a session of `harness`: a note (`deja remember`, the
 * MCP tool's remember mode, an agent's as often as a person's; parsers/deja.ts) is a
 * `note`, never the `user` its event is indexed as (trial 38: an agent's note came back in
 * recall as the user's words); any other event, its kind.
 */
export function speaker(harness: string, kind: string): string {
  return harness === "deja" && kind === "user" ? "note" : kind;
}
