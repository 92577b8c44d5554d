/**
 * Reading what a tool call means from its decoded arguments, for harnesses
 * whose tools follow the common shapes (a shell command; a path to read; a
 * path and content to write; a path with old and new text, or a list of such
 * pairs; a move from one path to another). Each parser maps its own tool
 * names onto a {@link ToolKind}; this module knows the argument spellings the
 * harnesses in use write (`path` / `file_path` / `filePath`, `old_string` /
 * `oldString` / `old_str` / `old_text`, ...).
 *
 * @module
 */
import type { EditSpan, ToolCallInfo } from "../core/model.ts";
import { arr, type Obj, obj, str } from "./_util.ts";
import { commandOf, resolveIn } from "./_responses_items.ts";

/**
 * What a tool does, as far as deja is concerned. `list` is a directory
 * listing (`list_dir` and the like): it names a directory, reads no file, and
 * so leaves the call with its input only (a listed directory is not a file
 * read for `blame`, `restore` or a session's files).
 */
export type ToolKind = "shell" | "read" | "write" | "edit" | "move" | "paths" | "list";

const PATH_KEYS = ["path", "file_path", "filePath", "filepath", "file", "absolute_path"];
const CONTENT_KEYS = ["content", "file_text", "text", "contents"];
const OLD_KEYS = ["old_string", "oldString", "old_str", "old_text", "oldText", "search"];
const NEW_KEYS = ["new_string", "newString", "new_str", "new_text", "newText", "replace"];

/** The first of `keys` holding a string in `a` (empty strings count). */
export function firstString(a: Obj, keys: readonly string[]): string | undefined {
  for (const k of keys) if (typeof a[k] === "string") return a[k] as string;
  return undefined;
}

/** The path argument of `a`, resolved against `base`. */
export function argPath(a: Obj, base: string | undefined): string | undefined {
  const p = str(firstString(a, PATH_KEYS));
  return p ? resolveIn(base, p) : undefined;
}

/** The `{old, new}` spans of `a`: one pair, or every pair of an `edits` list. */
function spans(a: Obj, path: string): EditSpan[] {
  const one = (o: Obj): EditSpan | undefined => {
    const old = firstString(o, OLD_KEYS);
    const neu = firstString(o, NEW_KEYS);
    return old === undefined && neu === undefined
      ? undefined
      : { path, old: old ?? "", new: neu ?? "" };
  };
  const list = arr(a.edits).map(obj).filter((o): o is Obj => !!o);
  const out = (list.length ? list : [a]).map(one).filter((s): s is EditSpan => !!s);
  return out;
}

/**
 * Fills `command` / `paths` / `edits` / `writes` of `tool` for a call of
 * `kind` with decoded arguments `a`; relative paths resolve against `base`.
 * Arguments that do not fit the kind leave the tool as it was.
 */
export function describeTool(
  tool: ToolCallInfo,
  kind: ToolKind,
  a: Obj,
  base: string | undefined,
): void {
  const path = argPath(a, base);
  switch (kind) {
    case "shell": {
      const command = commandOf(a.command ?? a.cmd);
      if (command) tool.command = command;
      break;
    }
    case "read":
    case "paths": {
      const list = path ? [path] : arr(a.paths).flatMap((p) => {
        const s = str(p);
        return s ? [resolveIn(base, s)] : [];
      });
      if (list.length) tool.paths = list;
      break;
    }
    case "list":
      break;
    case "write": {
      const content = firstString(a, CONTENT_KEYS);
      if (path && content !== undefined) tool.writes = [{ path, content }];
      break;
    }
    case "edit": {
      const edits = path ? spans(a, path) : [];
      if (edits.length) tool.edits = edits;
      else if (path) tool.paths = [path];
      break;
    }
    case "move": {
      const from = str(a.source_path) ?? str(a.source) ?? str(a.from);
      const to = str(a.destination_path) ?? str(a.destination) ?? str(a.to);
      const list = [from, to].filter((p): p is string => !!p).map((p) => resolveIn(base, p));
      if (list.length) tool.paths = list;
      break;
    }
  }
}
