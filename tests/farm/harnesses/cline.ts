/** Cline CLI: an openai-compatible provider in providers.json (what `cline auth` writes); auto-approve. */
import { type FarmHarness, json, QUIET_ENV } from "../harness.ts";

export const cline: FarmHarness = {
  name: "cline",
  display: "Cline CLI",
  parser: "cline",
  pkg: "cline",
  version: "3.0.65",
  api: "chat",
  store: ".cline/data/sessions/<id>/<id>.messages.json",
  scenario: { steps: ["shell", "fail", "edit", "write"] },
  setup: (ctx) => ({
    // Cline gives its plugin sandbox 4 s to load plugins; on the farm's loaded 2-core machine
    // that timed out ("plugin loading failed; continuing without plugins").
    env: { ...QUIET_ENV, CLINE_PLUGIN_IMPORT_TIMEOUT_MS: "30000" },
    files: {
      [`${ctx.home}/.cline/data/settings/providers.json`]: json({
        version: 1,
        lastUsedProvider: "openai-compatible",
        modes: {},
        providers: {
          "openai-compatible": {
            settings: {
              provider: "openai-compatible",
              apiKey: "sk-farm-mock",
              model: "gpt-4o",
              baseUrl: `${ctx.mockUrl}/v1`,
            },
            updatedAt: new Date().toISOString(),
            tokenSource: "manual",
          },
        },
      }),
    },
  }),
  main: (ctx, prompt) => [ctx.bin("cline"), "--auto-approve", "true", prompt],
  followup: {
    none:
      "resuming a task ('cline --id <id>') needs a terminal: it exits with 'interactive mode requires a TTY'",
  },
  notes: "starts a hub daemon that outlives it; the farm's PID namespace ends it.",
};
