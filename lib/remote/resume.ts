/**
 * Resuming a session that ran on another machine: the harness keeps it there
 * (the mirror is deja's private copy, and deja never writes into a harness's
 * store), so the command that reopens it runs there, over the user's ssh with
 * a terminal: `ssh -t <host> 'cd <remote project> && claude --resume <id>'` (`DEJA_SSH`
 * names the ssh command when it is not plain `ssh`).
 * When `--path-map` maps the project to a clone on this machine, the clone is
 * named too, with `deja handoff` as the way to carry the work over here.
 *
 * @module
 */
import type { Env } from "../../core/model.ts";
import { DejaError } from "../../core/errors.ts";
import { displayCommand } from "../shell.ts";
import { loadRemotes } from "./config.ts";
import { sshCommand } from "./ssh.ts";
import { type Label, nativeId, unmapPath } from "./label.ts";

/** Where and how a remote session reopens. */
export interface RemoteResume {
  /** The remote's name (the session's origin). */
  origin: string;
  host: string;
  port: number | null;
  /** The harness's own id for the session on that machine. */
  id: string;
  /** The project directory on that machine, or null when the store does not say. */
  remoteCwd: string | null;
  /** ssh's argv: the resume command run there, in a terminal. */
  argv: string[];
  /** The project's clone on this machine (`--path-map`), when it exists here. */
  clone: string | null;
}

/**
 * Plans the resume of a session of remote `origin` (`id` and `project` as indexed,
 * `resume` the harness's argv for a native id).
 *
 * @throws {DejaError} (exit 2) when the remote is no longer configured.
 */
export function remoteResume(
  env: Env,
  s: { origin: string; id: string; project: string | null },
  resume: (nativeId: string) => string[],
  isDir: (path: string) => boolean,
): RemoteResume {
  const r = loadRemotes(env).find((x) => x.name === s.origin);
  if (!r) {
    throw new DejaError(
      `this session ran on '${s.origin}', which is no longer a remote`,
      `add it again with 'deja remote add ${s.origin} <user@host>' to resume it there`,
      2,
    );
  }
  const label: Label = { origin: r.name, pathMaps: r.pathMaps ?? [] };
  const id = nativeId(label, s.id);
  const remoteCwd = s.project ? unmapPath(label, s.project) : null;
  const there = displayCommand(resume(id), remoteCwd);
  const clone = s.project && s.project !== remoteCwd && !s.project.startsWith(`${r.name}:`) &&
      isDir(s.project)
    ? s.project
    : null;
  return {
    origin: r.name,
    host: r.host,
    port: r.port ?? null,
    id,
    remoteCwd,
    // The user's ssh (`DEJA_SSH`), interactive: no batch mode, a terminal.
    argv: [...sshCommand(env), "-t", ...(r.port ? ["-p", String(r.port)] : []), r.host, there],
    clone,
  };
}
