/** Gemini CLI: Gemini generateContent on GOOGLE_GEMINI_BASE_URL; `-p` in YOLO mode. */
import { type FarmHarness, json, QUIET_ENV } from "../harness.ts";

const FLAGS = ["--yolo", "--skip-trust", "-m", "gemini-2.5-flash", "-o", "text"];

/** Settings Gemini CLI and its fork Qwen Code share: no telemetry, no update check, no trust prompt. */
export function geminiSettings(auth: string): string {
  return json({
    security: { auth: { selectedType: auth }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: {
      disableAutoUpdate: true,
      disableUpdateNag: true,
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
    },
  });
}

export const gemini: FarmHarness = {
  name: "gemini",
  display: "Gemini CLI",
  parser: "gemini",
  pkg: "@google/gemini-cli",
  version: "0.61.0",
  api: "gemini",
  store: ".gemini/tmp/<project>/chats/session-*.jsonl",
  scenario: { steps: ["shell", "fail", "edit", "write", "subagent"], agentType: "generalist" },
  setup: (ctx) => ({
    env: {
      ...QUIET_ENV,
      GEMINI_API_KEY: "farm-mock-key",
      GOOGLE_GEMINI_BASE_URL: ctx.mockUrl,
      GEMINI_CLI_NO_RELAUNCH: "true",
    },
    files: { [`${ctx.home}/.gemini/settings.json`]: geminiSettings("gemini-api-key") },
  }),
  main: (ctx, prompt) => [ctx.bin("gemini"), "-p", prompt, ...FLAGS],
  followup: (ctx, prompt) => [ctx.bin("gemini"), "-p", prompt, "--resume", "latest", ...FLAGS],
  compact: {
    none:
      "`-p /compress --resume latest` compresses, but the chat file keeps no trace of it (0.61.0)",
  },
};
