/** The farm's harnesses, in sweep order (the CI subset first). */
import type { FarmHarness } from "../harness.ts";
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { gemini } from "./gemini.ts";
import { opencode } from "./opencode.ts";
import { qwen } from "./qwen.ts";
import { pi } from "./pi.ts";
import { omp } from "./omp.ts";
import { kilo } from "./kilo.ts";
import { continueCli } from "./continue_cli.ts";
import { cline } from "./cline.ts";
import { copilot } from "./copilot.ts";
import { auggie } from "./auggie.ts";
import { factory } from "./factory.ts";
import { openclaw } from "./openclaw.ts";
import { crush } from "./crush.ts";

/** Every farm harness. */
export const HARNESSES: readonly FarmHarness[] = [
  claude,
  codex,
  gemini,
  opencode,
  qwen,
  pi,
  omp,
  kilo,
  continueCli,
  cline,
  copilot,
  auggie,
  factory,
  openclaw,
  crush,
];

/** The subset CI runs on every submission. */
export const CI_SUBSET = ["claude", "codex", "gemini", "opencode"];
