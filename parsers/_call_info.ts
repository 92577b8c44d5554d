/**
 * Tool calls described from a tool name and its arguments through a
 * harness's own name -> kind table, and marker sources for stores that are
 * known to exist but cannot be read. Shared by the document-store parsers
 * (Continue, Auggie, Amp, CodeWhale, Cherry Studio).
 *
 * @module
 */
import type { ParseCtx, Session, SourceRef, ToolCallInfo } from "../core/model.ts";
import { decodeArgs, obj, str } from "./_util.ts";
import { describeTool, type ToolKind } from "./_tool_args.ts";
import { functionCall } from "./_responses_items.ts";

/** What a tool does: a {@link ToolKind}, or `patch` for an `*** Begin Patch` envelope. */
export type CallKind = ToolKind | "patch";

/** Keys under which harnesses put an apply_patch envelope. */
const PATCH_KEYS = ["input", "patch", "patchText", "patch_text"];

/**
 * A tool call: `name`, `id`, decoded `input` (a JSON string inside JSON is
 * decoded once), and what it means by `kinds[name]` (relative paths resolve
 * against `base`). A name missing from `kinds` gives a call with its input only.
 */
export function callInfo(
  name: string,
  id: string | undefined,
  input: unknown,
  kinds: Readonly<Record<string, CallKind>>,
  base: string | undefined,
): ToolCallInfo {
  const decoded = decodeArgs(input);
  const kind = Object.hasOwn(kinds, name) ? kinds[name] : undefined;
  const a = obj(decoded);
  let tool: ToolCallInfo = { name };
  if (kind === "patch") {
    const text = typeof decoded === "string"
      ? decoded
      : PATCH_KEYS.map((k) => str(a?.[k])).find((t) => t !== undefined);
    if (text) tool = functionCall("apply_patch", text, base);
    tool.name = name;
  } else if (a && kind) {
    describeTool(tool, kind, a, base);
  }
  if (decoded !== undefined) tool.input = decoded;
  else delete tool.input;
  if (id) tool.id = id;
  return tool;
}

/**
 * A source standing for a store deja knows is there but cannot read (Amp's
 * server-side threads, Cherry Studio's v1 IndexedDB): `path` is the directory
 * that shows the install. Kind `append` because nothing in it is opened or
 * hashed: the indexer only stats it, and {@link markerParse} reads nothing,
 * so it is looked at again only when the directory itself changes.
 */
export function markerSource(harness: string, path: string, note: string): SourceRef {
  return { harness, path, kind: "append", hint: { unsupported: note } };
}

/** True for a source made by {@link markerSource}. */
export function isMarker(source: SourceRef): boolean {
  return source.hint?.unsupported !== undefined;
}

/** Parses a marker source: one `unsupported` skip carrying its note, no sessions. */
// deno-lint-ignore require-yield
export async function* markerParse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  ctx.skip("unsupported", source.path, source.hint?.unsupported);
  ctx.endOffset = 0;
}
