/** Kilo CLI 7.x: an opencode fork (kilo.db); the same provider config as opencode. */
import { type FarmHarness, QUIET_ENV } from "../harness.ts";
import { opencodeConfig } from "./opencode.ts";

export const kilo: FarmHarness = {
  name: "kilo",
  display: "Kilo CLI",
  parser: "kilocode",
  pkg: "@kilocode/cli",
  // 7.8.1 needs @kilocode/cli-linux-x64@7.8.1, which the registry lacks.
  version: "7.7.7",
  api: "chat",
  store: ".local/share/kilo/kilo.db (+ -wal)",
  scenario: { steps: ["shell", "fail", "edit", "write", "subagent"], agentType: "general" },
  setup: (ctx) => ({
    env: {
      ...QUIET_ENV,
      KILO_DISABLE_AUTOUPDATE: "1",
      KILO_DISABLE_MODELS_FETCH: "1",
      KILO_DISABLE_LSP_DOWNLOAD: "1",
      KILO_DISABLE_SHARE: "1",
      KILO_DISABLE_SESSION_INGEST: "1",
      KILO_DISABLE_CODEBASE_INDEXING: "1",
      KILO_DISABLE_PRESENCE: "1",
      KILO_DISABLE_DEFAULT_PLUGINS: "1",
    },
    files: { [`${ctx.home}/.config/kilo/kilo.json`]: opencodeConfig(ctx) },
  }),
  main: (ctx, prompt) => [ctx.bin("kilo"), "run", "-m", "farm/mock-model", prompt],
  followup: (
    ctx,
    prompt,
  ) => [ctx.bin("kilo"), "run", "--continue", "-m", "farm/mock-model", prompt],
};
