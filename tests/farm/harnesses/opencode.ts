/** opencode: an OpenAI-compatible provider in opencode.json; `opencode run`; subagents via `task`. */
import { type FarmCtx, type FarmHarness, json, QUIET_ENV } from "../harness.ts";

/** The config opencode and its fork Kilo CLI share (a provider on the mock, every permission allowed). */
export function opencodeConfig(ctx: FarmCtx): string {
  return json({
    provider: {
      farm: {
        npm: "@ai-sdk/openai-compatible",
        name: "Farm mock",
        options: { baseURL: `${ctx.mockUrl}/v1`, apiKey: "sk-farm-mock" },
        models: { "mock-model": { name: "Mock model", tool_call: true } },
      },
    },
    model: "farm/mock-model",
    small_model: "farm/mock-model",
    autoupdate: false,
    share: "disabled",
    permission: { edit: "allow", bash: "allow", webfetch: "allow" },
  });
}

export const opencode: FarmHarness = {
  name: "opencode",
  display: "opencode",
  parser: "opencode",
  pkg: "opencode-ai",
  version: "1.18.33",
  api: "chat",
  store: ".local/share/opencode/opencode.db (+ -wal)",
  scenario: { steps: ["shell", "fail", "edit", "write", "subagent"], agentType: "general" },
  setup: (ctx) => ({
    env: {
      ...QUIET_ENV,
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    },
    files: { [`${ctx.home}/.config/opencode/opencode.json`]: opencodeConfig(ctx) },
  }),
  main: (ctx, prompt) => [ctx.bin("opencode"), "run", "-m", "farm/mock-model", prompt],
  followup: (
    ctx,
    prompt,
  ) => [ctx.bin("opencode"), "run", "--continue", "-m", "farm/mock-model", prompt],
  compact: { none: "`run --command compact` fails with an unexpected server error (1.18.33)" },
};
