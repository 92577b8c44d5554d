/**
 * The one list of parsers. The indexer, `deja sources`, the registry test and
 * help all iterate it; nothing else names a harness.
 *
 * Order matters once: aider runs last, because it looks for its history file in
 * project directories the other harnesses made known.
 *
 * @module
 */
import type { Parser } from "../lib/model.ts";
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { gemini } from "./gemini.ts";
import { opencode } from "./opencode.ts";
import { crush } from "./crush.ts";
import { aider } from "./aider.ts";

/** Every parser, in indexing order. */
export const parsers: readonly Parser[] = [claude, codex, gemini, opencode, crush, aider];

/** The parser for `id`, or undefined. */
export function parserFor(id: string): Parser | undefined {
  return parsers.find((p) => p.id === id);
}
