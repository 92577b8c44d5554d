/** Factory Droid: a BYOK custom model in settings.json; `droid exec`. */
import { type FarmHarness, json, QUIET_ENV } from "../harness.ts";

export const factory: FarmHarness = {
  name: "factory",
  display: "Factory Droid",
  parser: "factory",
  pkg: "@factory/cli",
  version: "0.225.1",
  // The registry has the platform binary only as 0.225.2.
  extras: ["@factory/cli-linux-x64@0.225.2"],
  api: "chat",
  store: ".factory/sessions/<slug>/<session>.jsonl",
  scenario: { steps: ["shell", "fail", "edit", "write"] },
  setup: (ctx) => ({
    env: { ...QUIET_ENV },
    files: {
      [`${ctx.home}/.factory/settings.json`]: json({
        customModels: [{
          model: "mock-model",
          displayName: "Farm mock",
          baseUrl: `${ctx.mockUrl}/v1`,
          apiKey: "sk-farm-mock",
          provider: "generic-chat-completion-api",
          maxOutputTokens: 8192,
        }],
      }),
    },
  }),
  main: (
    ctx,
    prompt,
  ) => [ctx.bin("droid"), "exec", "--skip-permissions-unsafe", "-m", "custom:mock-model", prompt],
  followup: {
    none: "'droid exec -s <id>' fetches the session from Factory's servers before it resumes",
  },
};
