/** pi: an openai-completions provider in models.json; `pi -p`. */
import { type FarmHarness, json, QUIET_ENV } from "../harness.ts";

export const pi: FarmHarness = {
  name: "pi",
  display: "pi",
  parser: "pi",
  pkg: "@mariozechner/pi-coding-agent",
  version: "0.73.1",
  api: "chat",
  store: ".pi/agent/sessions/--<slug>--/<time>_<session>.jsonl",
  scenario: { steps: ["shell", "fail", "edit", "write"] },
  setup: (ctx) => ({
    env: { ...QUIET_ENV, PI_OFFLINE: "1", PI_TELEMETRY: "0" },
    files: {
      [`${ctx.home}/.pi/agent/models.json`]: json({
        providers: {
          farm: {
            baseUrl: `${ctx.mockUrl}/v1`,
            api: "openai-completions",
            apiKey: "sk-farm-mock",
            compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
            models: [{ id: "mock-model", name: "Farm mock" }],
          },
        },
      }),
    },
  }),
  main: (
    ctx,
    prompt,
  ) => [ctx.bin("pi"), "-p", "--provider", "farm", "--model", "mock-model", prompt],
  followup: (ctx, prompt) => [
    ctx.bin("pi"),
    "-p",
    "--provider",
    "farm",
    "--model",
    "mock-model",
    "--continue",
    prompt,
  ],
};
