/** Continue CLI (`cn`): an openai model in config.yaml; `cn -p --auto`. */
import { type FarmHarness, QUIET_ENV } from "../harness.ts";

export const continueCli: FarmHarness = {
  name: "continue",
  display: "Continue CLI",
  parser: "continue",
  pkg: "@continuedev/cli",
  version: "1.5.47",
  api: "chat",
  store: ".continue/sessions/<session>.json",
  scenario: { steps: ["shell", "fail", "edit", "write"] },
  setup: (ctx) => ({
    env: { ...QUIET_ENV, CONTINUE_CLI_DISABLE_TELEMETRY: "1", CONTINUE_TELEMETRY_ENABLED: "0" },
    files: {
      [`${ctx.home}/.continue/config.yaml`]: [
        "name: farm",
        "version: 1.0.0",
        "schema: v1",
        "models:",
        "  - name: Farm mock",
        "    provider: openai",
        "    model: gpt-4o",
        `    apiBase: ${ctx.mockUrl}/v1`,
        "    apiKey: sk-farm-mock",
        "    roles: [chat, edit, apply]",
        "    capabilities: [tool_use]",
        "",
      ].join("\n"),
    },
  }),
  main: (
    ctx,
    prompt,
  ) => [ctx.bin("cn"), "-p", "--auto", "--config", `${ctx.home}/.continue/config.yaml`, prompt],
  followup: (ctx, prompt) => [
    ctx.bin("cn"),
    "-p",
    "--auto",
    "--config",
    `${ctx.home}/.continue/config.yaml`,
    "--resume",
    prompt,
  ],
};
