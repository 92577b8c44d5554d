/** Claude Code: Anthropic Messages; `-p` with permissions skipped; subagents through its agent tool. */
import { type FarmHarness, QUIET_ENV } from "../harness.ts";

const YOLO = ["--dangerously-skip-permissions", "--output-format", "text"];

export const claude: FarmHarness = {
  name: "claude",
  display: "Claude Code",
  parser: "claude",
  pkg: "@anthropic-ai/claude-code",
  version: "2.1.332",
  api: "anthropic",
  store: ".claude/projects/<slug>/<session>.jsonl",
  scenario: { steps: ["shell", "fail", "edit", "write", "subagent"], agentType: "general-purpose" },
  setup: (ctx) => ({
    env: {
      ...QUIET_ENV,
      ANTHROPIC_BASE_URL: ctx.mockUrl,
      ANTHROPIC_API_KEY: "sk-ant-farm-mock",
      // Running as root, --dangerously-skip-permissions is refused unless the harness is told it is sandboxed.
      IS_SANDBOX: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
    },
  }),
  main: (ctx, prompt) => [ctx.bin("claude"), "-p", prompt, ...YOLO],
  followup: (ctx, prompt) => [ctx.bin("claude"), "-p", prompt, "--continue", ...YOLO],
  compact: (ctx) => [ctx.bin("claude"), "-p", "/compact", "--continue", ...YOLO],
  notes: "IS_SANDBOX=1 lets root use --dangerously-skip-permissions.",
};
