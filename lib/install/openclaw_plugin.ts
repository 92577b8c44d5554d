/**
 * The plugin of `openclaw-auto`: `~/.openclaw/extensions/deja/` with a
 * manifest (`openclaw.plugin.json`) and an entry (`index.mjs`), plus a grant
 * in `~/.openclaw/openclaw.json` (registry.json `install.auto.grant`).
 *
 * Facts from OpenClaw 2026.9.6's npm package (its docs/ and dist/), confirmed
 * by a farm run (`deno task farm --wiring openclaw`):
 * - plugins are discovered in `<state dir>/extensions/<dir>/`; a native plugin
 *   needs `openclaw.plugin.json` with `id` and `configSchema`; without a
 *   package.json the entry is the first of `index.ts|js|mjs|cjs`;
 * - a plugin found there (origin `global`) is enabled unless `plugins.enabled`
 *   is false, `plugins.deny` names it, its entry says `enabled: false`, or a
 *   non-empty `plugins.allow` leaves it out;
 * - the entry's default export `{id, name, register(api)}` registers typed
 *   hooks with `api.on(name, handler)`; `before_prompt_build` gets
 *   `{prompt, currentUserMessage?, messages}` and `{sessionId, sessionKey,
 *   workspaceDir, ...}`, and what it returns as `prependContext` goes before
 *   the prompt of the model request; the host waits 15 s for it;
 * - a non-bundled plugin's conversation hooks (`before_prompt_build` among
 *   them) are dropped at registration unless
 *   `plugins.entries.<id>.hooks.allowConversationAccess` is true.
 *
 * The hook runs the launcher like the other plugins (plugins.ts `RUN`):
 * bounded, and any failure gives no text.
 *
 * @module
 */
import { MARK, RUN } from "./plugins.ts";

/** `index.mjs`: recall before the prompt of every turn, where the session left off first. */
export const OPENCLAW_PLUGIN = `${MARK}
// deja's recall for OpenClaw: where this project's last session ended, and past sessions
// about the prompt, put before the prompt of each turn.
${RUN}
const seen = new Set();

export default {
  id: "deja",
  name: "deja",
  description: "Recall from past coding-agent sessions on this machine (deja).",
  register(api) {
    api.on("before_prompt_build", async (event, ctx) => {
      try {
        const sid = String(ctx?.sessionId ?? ctx?.sessionKey ?? "");
        const cwd = ctx?.workspaceDir ?? process.cwd();
        const prompt = typeof event?.currentUserMessage === "string"
          ? event.currentUserMessage
          : String(event?.prompt ?? "");
        const input = JSON.stringify({ cwd, session_id: sid, prompt });
        const first = !seen.has(sid);
        seen.add(sid);
        const parts = await Promise.all([
          first ? run(["hook-context", "--harness", "openclaw"], input, 5000) : "",
          run(["hook-prompt", "--harness", "openclaw"], input, 5000),
        ]);
        const text = parts.map((p) => p.trim()).filter(Boolean).join("\\n\\n");
        return text ? { prependContext: text } : undefined;
      } catch {
        return undefined;
      }
    });
  },
};
`;

/** `openclaw.plugin.json`: the manifest OpenClaw needs before it loads the entry. */
export const OPENCLAW_MANIFEST = JSON.stringify(
  {
    id: "deja",
    name: "deja",
    description:
      "deja:managed: written by 'deja install openclaw-auto', removed by 'deja uninstall'",
    configSchema: { type: "object", additionalProperties: false, properties: {} },
  },
  null,
  2,
) + "\n";
