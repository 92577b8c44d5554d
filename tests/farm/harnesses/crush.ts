/**
 * Crush: an openai-compat provider in crush.json; `crush run` in YOLO mode. Its npm package
 * downloads the binary from GitHub releases in postinstall, so it installs only where GitHub is
 * reachable; elsewhere the farm skips it with npm's error.
 */
import { type FarmHarness, json, QUIET_ENV } from "../harness.ts";

export const crush: FarmHarness = {
  name: "crush",
  display: "Crush",
  parser: "crush",
  pkg: "@charmland/crush",
  version: "0.96.1",
  api: "chat",
  store: "<project>/.crush/crush.db",
  scenario: { steps: ["shell", "fail", "edit", "write"] },
  setup: (ctx) => ({
    env: { ...QUIET_ENV, CRUSH_DISABLE_PROVIDER_AUTO_UPDATE: "1", CRUSH_DISABLE_METRICS: "1" },
    files: {
      [`${ctx.home}/.config/crush/crush.json`]: json({
        providers: {
          farm: {
            name: "Farm mock",
            type: "openai-compat",
            base_url: `${ctx.mockUrl}/v1`,
            api_key: "sk-farm-mock",
            models: [{
              id: "mock-model",
              name: "Farm mock",
              context_window: 128000,
              default_max_tokens: 4096,
            }],
          },
        },
        models: {
          large: { model: "mock-model", provider: "farm" },
          small: { model: "mock-model", provider: "farm" },
        },
        options: { disable_provider_auto_update: true, disable_metrics: true },
      }),
    },
  }),
  main: (ctx, prompt) => [ctx.bin("crush"), "--yolo", "run", prompt],
  followup: { none: "no option to continue a session is known for 'crush run'" },
  notes: "untested here: the binary comes from GitHub releases at install time.",
};
