/** Qwen Code: OpenAI Chat Completions through OPENAI_BASE_URL; YOLO mode. */
import { type FarmHarness, QUIET_ENV } from "../harness.ts";
import { geminiSettings } from "./gemini.ts";

const FLAGS = ["--yolo", "--auth-type", "openai", "-m", "qwen3-coder-plus", "-o", "text"];

export const qwen: FarmHarness = {
  name: "qwen",
  display: "Qwen Code",
  parser: "qwen",
  pkg: "@qwen-code/qwen-code",
  version: "0.24.4",
  api: "chat",
  store: ".qwen/projects/<slug>/chats/<session>.jsonl",
  scenario: { steps: ["shell", "fail", "edit", "write", "subagent"], agentType: "general-purpose" },
  setup: (ctx) => ({
    env: {
      ...QUIET_ENV,
      OPENAI_BASE_URL: `${ctx.mockUrl}/v1`,
      OPENAI_API_KEY: "sk-farm-mock",
      OPENAI_MODEL: "qwen3-coder-plus",
    },
    files: { [`${ctx.home}/.qwen/settings.json`]: geminiSettings("openai") },
  }),
  main: (ctx, prompt) => [ctx.bin("qwen"), ...FLAGS, prompt],
  followup: (ctx, prompt) => [ctx.bin("qwen"), ...FLAGS, "--continue", prompt],
  compact: {
    none:
      "`--continue /compress` declines: 'Compression was not beneficial for this history size' (0.24.4)",
  },
};
