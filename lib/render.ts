/**
 * How a tool call reads as text: what is indexed for it and what `show` prints.
 *
 * @module
 */
import type { ToolCallInfo } from "../core/model.ts";

/**
 * One searchable text for a tool call: `$ <command>` for a shell call, the
 * edited or written text under its path, the paths read, else the tool name
 * with its arguments (at most 2,000 characters of them).
 */
export function renderCall(t: ToolCallInfo): string {
  const parts: string[] = [];
  if (t.command) parts.push(`$ ${t.command}`);
  for (const e of t.edits ?? []) parts.push(`edit ${e.path}\n${e.new}`);
  for (const w of t.writes ?? []) parts.push(`write ${w.path}\n${w.content}`);
  if (t.paths?.length) parts.push(`read ${t.paths.join(" ")}`);
  if (parts.length) return parts.join("\n");
  let args = "";
  if (t.input !== undefined) {
    const j = typeof t.input === "string" ? t.input : JSON.stringify(t.input);
    args = j === undefined ? "" : j.length > 2000 ? `${j.slice(0, 2000)}…` : j;
  }
  return args ? `${t.name} ${args}` : t.name;
}

/**
 * What a call did, as its rendered text ({@link renderCall}) names it: a shell call's command
 * (without `$ `, whole), else the first line (`edit /w/app/x.ts`, not the edited text).
 */
export function callHeadline(text: string): string {
  const t = text.trim();
  return t.startsWith("$ ") ? t.slice(2).trim() : t.split("\n")[0].trim();
}
