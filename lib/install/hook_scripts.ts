/**
 * Hook scripts `deja install` writes whole, for harnesses that run a file per
 * event rather than a command from their config: Cline CLI runs every file in
 * `${CLINE_DIR:-~/.cline}/hooks/` named after an event (`TaskStart`,
 * `UserPromptSubmit`, with or without an extension), through the interpreter of
 * its `#!` line, with the event as JSON on stdin; it reads `contextModification`
 * (or `context`) from the JSON on stdout and adds it to the turn (observed in
 * Cline CLI 3.0.65's bundled code and in a farm run). `{launcher_sh}` becomes
 * the launcher path quoted for sh (wire.ts).
 *
 * Each script exits 0 silently when the launcher is gone, like every hook.
 *
 * @module
 */

/** The mark `deja uninstall` looks for (same words as texts.ts's MANAGED_MARK). */
const MARK = "# deja:managed: written by 'deja install', removed by 'deja uninstall'";

/** A script that runs `deja <hook> --harness cline`, saying when Cline runs it. */
function clineScript(hook: string, when: string): string {
  return `#!/bin/sh
${MARK}
# Cline runs this ${when}; deja answers with what past agent sessions did here.
launcher={launcher_sh}
[ -x "$launcher" ] || exit 0
exec "$launcher" ${hook} --harness cline
`;
}

/** Hook script texts by the key registry.json uses. */
export const HOOK_SCRIPT_TEXTS: Readonly<Record<string, string>> = {
  "cline-hook-context": clineScript("hook-context", "when a task starts (TaskStart)"),
  "cline-hook-prompt": clineScript("hook-prompt", "on every prompt (UserPromptSubmit)"),
};
