/**
 * Another search engine's operators typed in capitals (`redis OR postgres`, `NOT redis`):
 * deja reads every word as a word and lists the sessions holding them all, and says so, on
 * the CLI (lib/cli/_search_notes.ts) and to an agent (lib/mcp/recall.ts).
 *
 * @module
 */

/** Words other search engines read as operators when typed in capitals. */
export const OPERATORS: ReadonlySet<string> = new Set(["OR", "AND", "NOT"]);

/**
 * The operators of `query` that change what a person means (`OR`, `NOT`; `AND` is what deja
 * does anyway), in that order; none for a quoted query or one of operators alone.
 */
export function misreadOperators(query: string): Array<"OR" | "NOT"> {
  if (query.includes('"')) return [];
  const words = query.split(/\s+/).filter(Boolean);
  if (!words.some((w) => !OPERATORS.has(w))) return [];
  return (["OR", "NOT"] as const).filter((op) => words.includes(op));
}
