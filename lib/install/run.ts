/**
 * One `deja install` or `deja uninstall` run over several targets: the
 * launcher first (so no config ever names a launcher that is not there), then
 * each target on its own; a refused target does not stop the others.
 *
 * @module
 */
import { dirname } from "node:path";
import type { Env } from "../model.ts";
import type { TargetRef } from "./facts.ts";
import { wirables } from "./facts.ts";
import type { FileAction } from "./files.ts";
import { removeFile } from "./files.ts";
import { launcherPath, writeLauncher } from "./launcher.ts";
import { type TargetOutcome, wireTarget } from "./wire.ts";
import { targetStatus } from "./doctor.ts";

/** What a run did. */
export interface WireReport {
  launcher: {
    /** What configs run: the launcher path (the binary itself on Windows). */
    path: string;
    action: FileAction;
    /** The argv the launcher starts. */
    target: string[];
  };
  outcomes: TargetOutcome[];
}

/**
 * Installs `refs`. `self` is the argv that starts this deja (runtime.ts
 * `selfCommand()`); it is recorded in the launcher.
 */
export function installTargets(
  env: Env,
  self: string[],
  refs: TargetRef[],
  opts: { force?: boolean } = {},
): WireReport {
  const windows = env.platform === "win32";
  const path = windows ? self[0] : launcherPath(env);
  const action: FileAction = windows ? "unchanged" : writeLauncher(env, self);
  const outcomes = refs.map((r) => wireTarget({ env, launcher: path, force: opts.force }, r, true));
  return { launcher: { path, action, target: self }, outcomes };
}

/**
 * Uninstalls `refs`; the launcher goes too once no target is wired any more.
 */
export function uninstallTargets(env: Env, refs: TargetRef[]): WireReport {
  const path = launcherPath(env);
  const outcomes = refs.map((r) => wireTarget({ env, launcher: path }, r, false));
  const still = wirables().some((w) =>
    [false, true].some((auto) => {
      const st = targetStatus(env, { name: "", harness: w, auto });
      return st.parts.some((p) =>
        p.kind !== "skill" && p.kind !== "command" && p.state !== "not_wired"
      );
    })
  );
  const action: FileAction = still ? "unchanged" : removeFile(path, dirname(path));
  return { launcher: { path, action, target: [] }, outcomes };
}
