/**
 * The `apply_patch` envelope format used by Codex CLI (custom tool
 * `apply_patch`, observed on Codex 0.116–0.121 rollouts) and opencode's
 * `apply_patch` tool:
 *
 * ```
 * *** Begin Patch
 * *** Update File: src/a.ts
 * *** Move to: src/b.ts        (optional)
 * @@ optional context header
 *  context line
 * -removed line
 * +added line
 * *** Add File: new.txt
 * +content
 * *** Delete File: old.txt
 * *** End Patch
 * ```
 *
 * @module
 */
import type { EditSpan, WriteSpan } from "../core/model.ts";
import { absolutePath } from "../core/paths.ts";

/** What a patch did, file by file. */
export interface PatchEffect {
  /** Every path the patch names, in order, without repeats. */
  paths: string[];
  /** One span per hunk of an updated file: old side (context and `-` lines) -> new side. */
  edits: EditSpan[];
  /** Added files with their content. */
  writes: WriteSpan[];
  /** Deleted files. */
  deleted: string[];
  /** `[from, to]` of each updated file a `*** Move to:` renamed. */
  moved: Array<[string, string]>;
}

/**
 * Parses an apply_patch text. Relative paths are joined to `cwd` when given.
 * Unknown lines are ignored; a text with no `*** ... File:` header gives an
 * empty effect.
 */
export function parsePatch(text: string, cwd?: string): PatchEffect {
  const fx: PatchEffect = { paths: [], edits: [], writes: [], deleted: [], moved: [] };
  const resolvePath = (p: string) => absolutePath(p, cwd);
  const seen = new Set<string>();
  const note = (p: string) => {
    if (!seen.has(p)) {
      seen.add(p);
      fx.paths.push(p);
    }
  };
  let mode: "none" | "update" | "add" = "none";
  let path = "";
  let oldLines: string[] = [];
  let newLines: string[] = [];
  let changed = false;
  const flush = () => {
    if (mode === "update" && changed) {
      fx.edits.push({ path, old: oldLines.join("\n"), new: newLines.join("\n") });
    } else if (mode === "add") {
      fx.writes.push({ path, content: newLines.join("\n") });
    }
    oldLines = [];
    newLines = [];
    changed = false;
  };
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const header = /^\*\*\* (Update|Add|Delete) File: (.+)$/.exec(line);
    if (header) {
      flush();
      path = resolvePath(header[2].trim());
      note(path);
      if (header[1] === "Delete") {
        fx.deleted.push(path);
        mode = "none";
      } else {
        mode = header[1] === "Add" ? "add" : "update";
      }
      continue;
    }
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move && mode === "update") {
      const to = resolvePath(move[1].trim());
      note(to);
      fx.moved.push([path, to]);
      continue;
    }
    if (line.startsWith("*** ")) {
      flush();
      mode = line.startsWith("*** End of File") ? mode : "none";
      continue;
    }
    if (mode === "add") {
      if (line.startsWith("+")) newLines.push(line.slice(1));
      continue;
    }
    if (mode !== "update") continue;
    if (line.startsWith("@@")) {
      flush();
      continue;
    }
    if (line.startsWith("-")) {
      oldLines.push(line.slice(1));
      changed = true;
    } else if (line.startsWith("+")) {
      newLines.push(line.slice(1));
      changed = true;
    } else if (line.startsWith(" ")) {
      oldLines.push(line.slice(1));
      newLines.push(line.slice(1));
    }
  }
  flush();
  return fx;
}
