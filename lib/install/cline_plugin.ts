/**
 * `~/.cline/plugins/deja/index.js`, the plugin of `cline-auto`. Cline CLI
 * (3.0.65) loads every `plugins/<name>/index.js` under `${CLINE_DIR:-~/.cline}`
 * whose default export is `{name, manifest: {capabilities}, hooks}`; a
 * `hooks.beforeRun` that answers `{appendContext}` has that text added to the
 * conversation before the first model request of the run. (Its hook files in
 * `~/.cline/hooks/` are no way in: TaskStart and UserPromptSubmit scripts run
 * detached there, their output read by nobody.) Facts from Cline CLI 3.0.65's
 * bundled code, confirmed by a farm run.
 *
 * The plugin runs the launcher like pi's extension does (plugins.ts `RUN`):
 * bounded, and any failure gives no text. Cline gives a plugin 4 s to load
 * (`CLINE_PLUGIN_IMPORT_TIMEOUT_MS`) and a hook 3 s (no setting): the two
 * recalls run at once, each cut at 2.5 s, so a slow one loses its own text only.
 *
 * @module
 */
import { MARK, RUN } from "./plugins.ts";

/** The plugin's text; `{launcher_json}` becomes the launcher path (wire.ts). */
export const CLINE_PLUGIN = `${MARK}
// deja's recall for Cline: where this project's last session ended, and past sessions
// about the prompt, added to the conversation before each run.
${RUN}
const seen = new Set();
let root;

/** The text of the newest user message of a run's messages. */
function lastUserText(messages) {
  const m = (Array.isArray(messages) ? messages : []).findLast((x) => x?.role === "user");
  if (!m) return "";
  if (typeof m.content === "string") return m.content;
  return (Array.isArray(m.content) ? m.content : [])
    .filter((p) => p?.type === "text" && typeof p.text === "string")
    .map((p) => p.text)
    .join("\\n");
}

export default {
  name: "deja",
  manifest: { capabilities: ["hooks"] },
  setup(_api, ctx) {
    root = ctx?.workspaceInfo?.rootPath;
  },
  hooks: {
    async beforeRun(ctx) {
      try {
        const snap = ctx?.snapshot ?? {};
        const sid = String(snap.conversationId ?? snap.runId ?? snap.agentId ?? "");
        const cwd = root ?? process.cwd();
        const input = JSON.stringify({ cwd, session_id: sid, prompt: lastUserText(snap.messages) });
        const first = !seen.has(sid);
        seen.add(sid);
        // Both at once: a run waits for this hook before its first model request.
        const parts = await Promise.all([
          first ? run(["hook-context", "--harness", "cline"], input, 2500) : "",
          run(["hook-prompt", "--harness", "cline"], input, 2500),
        ]);
        const text = parts.map((p) => p.trim()).filter(Boolean).join("\\n\\n");
        return text ? { appendContext: text } : undefined;
      } catch {
        return undefined;
      }
    },
  },
};
`;
