/** Auggie: talks only to an Augment backend; the mock plays one. */
import { type FarmHarness, QUIET_ENV } from "../harness.ts";

export const auggie: FarmHarness = {
  name: "auggie",
  display: "Auggie",
  parser: "auggie",
  pkg: "@augmentcode/auggie",
  version: "0.36.0",
  api: "augment",
  store: ".augment/sessions/<session>.json",
  scenario: { steps: ["shell", "fail", "edit", "write"] },
  setup: (ctx) => ({
    env: {
      ...QUIET_ENV,
      AUGMENT_SESSION_AUTH: JSON.stringify({
        accessToken: "farm-mock-token",
        tenantURL: `${ctx.mockUrl}/`,
        scopes: ["email"],
      }),
    },
  }),
  main: (ctx, prompt) => [ctx.bin("auggie"), "--print", prompt],
  followup: (ctx, prompt) => [ctx.bin("auggie"), "--print", "--continue", prompt],
  notes:
    "no LLM base URL: AUGMENT_SESSION_AUTH points its tenant URL at the mock (get-models, chat-stream).",
};
