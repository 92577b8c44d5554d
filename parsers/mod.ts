/**
 * The one list of parsers. The indexer, `deja sources`, the registry test and
 * help all iterate it; nothing else names a harness.
 *
 * Order matters once: aider runs last, because it looks for its history file in
 * project directories the other harnesses made known.
 *
 * @module
 */
import type { Parser } from "../core/model.ts";
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { gemini } from "./gemini.ts";
import { opencode } from "./opencode.ts";
import { crush } from "./crush.ts";
import { copilot } from "./copilot.ts";
import { antigravity } from "./antigravity.ts";
import { qwen } from "./qwen.ts";
import { kimi } from "./kimi.ts";
import { grok } from "./grok.ts";
import { pi } from "./pi.ts";
import { omp } from "./omp.ts";
import { prime } from "./prime.ts";
import { senpi } from "./senpi.ts";
import { gjc } from "./gjc.ts";
import { kimchi } from "./kimchi.ts";
import { openclaw } from "./openclaw.ts";
import { kiro } from "./kiro.ts";
import { trae } from "./trae.ts";
import { muse } from "./muse.ts";
import { codebuddy } from "./codebuddy.ts";
import { factory } from "./factory.ts";
import { commandcode } from "./commandcode.ts";
import { cline } from "./cline.ts";
import { roo } from "./roo.ts";
import { kilocode } from "./kilocode.ts";
import { cursor } from "./cursor.ts";
import { copilot_chat } from "./copilot_chat.ts";
import { goose } from "./goose.ts";
import { hermes } from "./hermes.ts";
import { zed } from "./zed.ts";
import { deepseek } from "./deepseek.ts";
import { reasonix } from "./reasonix.ts";
import { deja } from "./deja.ts";
import { continue_ } from "./continue.ts";
import { auggie } from "./auggie.ts";
import { amp } from "./amp.ts";
import { codewhale } from "./codewhale.ts";
import { cherrystudio } from "./cherrystudio.ts";
import { zcode } from "./zcode.ts";
import { aider } from "./aider.ts";

/** Every parser, in indexing order. */
export const parsers: readonly Parser[] = [
  claude,
  codex,
  gemini,
  opencode,
  crush,
  copilot,
  antigravity,
  qwen,
  kimi,
  grok,
  pi,
  omp,
  prime,
  senpi,
  gjc,
  kimchi,
  openclaw,
  trae,
  muse,
  codebuddy,
  factory,
  kiro,
  commandcode,
  cline,
  roo,
  kilocode,
  cursor,
  copilot_chat,
  goose,
  hermes,
  zed,
  deepseek,
  reasonix,
  deja,
  continue_,
  auggie,
  amp,
  codewhale,
  cherrystudio,
  zcode,
  aider,
];

/** The parser for `id`, or undefined. */
export function parserFor(id: string): Parser | undefined {
  return parsers.find((p) => p.id === id);
}
