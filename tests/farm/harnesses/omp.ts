/** Oh My Pi: pi's fork on bun (the npm package `bun` is installed beside it); models.yml. */
import { type FarmHarness, QUIET_ENV } from "../harness.ts";

const FLAGS = ["-p", "--model", "farm/mock-model", "--no-lsp"];

export const omp: FarmHarness = {
  name: "omp",
  display: "Oh My Pi",
  parser: "omp",
  pkg: "@oh-my-pi/pi-coding-agent",
  // 18.3.4 needs @oh-my-pi/omp-stats@18.3.4, which the registry lacks.
  version: "18.2.3",
  extras: ["bun@1.4.5"],
  api: "chat",
  store: ".omp/agent/sessions/<slug>/<time>_<session>.jsonl",
  scenario: { steps: ["shell", "fail", "edit", "write"] },
  setup: (ctx) => ({
    env: { ...QUIET_ENV, PI_OFFLINE: "1", PI_TELEMETRY: "0" },
    files: {
      [`${ctx.home}/.omp/agent/models.yml`]: [
        "providers:",
        "  farm:",
        `    baseUrl: ${ctx.mockUrl}/v1`,
        "    api: openai-completions",
        "    apiKey: sk-farm-mock",
        "    compat:",
        "      supportsDeveloperRole: false",
        "      supportsReasoningEffort: false",
        "    models:",
        "      - id: mock-model",
        "        name: Farm mock",
        "",
      ].join("\n"),
    },
  }),
  main: (ctx, prompt) => [ctx.bin("omp"), ...FLAGS, prompt],
  followup: (ctx, prompt) => [ctx.bin("omp"), ...FLAGS, "--continue", prompt],
  // Its edit tool takes a hashline patch language the mock does not write: the edit is a whole-file write.
  editVia: "write",
  notes:
    "needs bun >= 1.3.14: bun@1.4.5 from npm is on PATH; README edited through its write tool.",
};
