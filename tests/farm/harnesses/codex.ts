/** Codex CLI: OpenAI Responses through a custom provider in config.toml; `codex exec`. */
import { type FarmHarness, QUIET_ENV } from "../harness.ts";

const EXEC = ["exec", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check"];

export const codex: FarmHarness = {
  name: "codex",
  display: "Codex CLI",
  parser: "codex",
  pkg: "@openai/codex",
  version: "0.171.0",
  api: "responses",
  store: ".codex/sessions/YYYY/MM/DD/rollout-*.jsonl",
  scenario: { steps: ["shell", "fail", "edit", "write"] },
  setup: (ctx) => ({
    env: { ...QUIET_ENV, CODEX_HOME: `${ctx.home}/.codex`, FARM_API_KEY: "sk-farm-mock" },
    files: {
      // The model must be a slug Codex knows, or it offers no freeform apply_patch tool.
      [`${ctx.home}/.codex/config.toml`]: [
        'model = "gpt-5.5"',
        'model_provider = "farm"',
        "check_for_update_on_startup = false",
        "[analytics]",
        "enabled = false",
        "[model_providers.farm]",
        'name = "Farm mock"',
        `base_url = "${ctx.mockUrl}/v1"`,
        'env_key = "FARM_API_KEY"',
        'wire_api = "responses"',
        "",
      ].join("\n"),
    },
  }),
  main: (ctx, prompt) => [ctx.bin("codex"), ...EXEC, prompt],
  followup: (ctx, prompt) => [ctx.bin("codex"), ...EXEC, "resume", "--last", prompt],
  notes: "model gpt-5.5 so that apply_patch is offered; the edit and the write are patches.",
};
