/** GitHub Copilot CLI: BYOK offline mode (COPILOT_OFFLINE + COPILOT_PROVIDER_BASE_URL), no login. */
import { type FarmHarness, QUIET_ENV } from "../harness.ts";

const FLAGS = ["--allow-all-tools", "--disable-client-telemetry", "--no-auto-update"];

export const copilot: FarmHarness = {
  name: "copilot",
  display: "Copilot CLI",
  parser: "copilot",
  pkg: "@github/copilot",
  version: "1.0.102",
  api: "chat",
  store: ".copilot/session-state/<session>/events.jsonl",
  scenario: { steps: ["shell", "fail", "edit", "write", "subagent"], agentType: "general-purpose" },
  setup: (ctx) => ({
    env: {
      ...QUIET_ENV,
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: `${ctx.mockUrl}/v1`,
      COPILOT_PROVIDER_TYPE: "openai",
      COPILOT_PROVIDER_API_KEY: "sk-farm-mock",
      COPILOT_MODEL: "gpt-4.1",
      COPILOT_ALLOW_ALL: "true",
      COPILOT_AUTO_UPDATE: "false",
      COPILOT_HOME: `${ctx.home}/.copilot`,
    },
  }),
  main: (ctx, prompt) => [ctx.bin("copilot"), "-p", prompt, ...FLAGS],
  followup: (ctx, prompt) => [ctx.bin("copilot"), "-p", prompt, "--continue", ...FLAGS],
};
