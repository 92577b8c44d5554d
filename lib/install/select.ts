/**
 * Which targets a `deja install` / `deja uninstall` command line means.
 *
 * @module
 */
import type { Env } from "../../core/model.ts";
import { DejaError } from "../../core/errors.ts";
import { suggestCommand } from "../cli/suggest.ts";
import { tilde } from "../../core/text.ts";
import { expandPath } from "./template.ts";
import { loadInstallState } from "./state.ts";
import {
  allTargetNames,
  autoPresent,
  detected,
  findTarget,
  hooklessHarness,
  noAutoReason,
  targetNames,
  type TargetRef,
  wirables,
} from "./facts.ts";

/** How targets were asked for. */
export interface Selection {
  names: string[];
  /** Every detected harness (install: plain targets; uninstall: everything deja can wire). */
  all?: boolean;
  /**
   * Install: every detected harness at its deepest target (`-auto` where there
   * is one). Uninstall: the `-auto` target of every harness (hooks and plugins;
   * the MCP server, skill and command too where an `-auto` install wrote them,
   * run.ts).
   */
  auto?: boolean;
}

/**
 * The targets to act on, without duplicates; an `-auto` target makes its plain
 * sibling redundant on install (it writes the same files and more).
 *
 * @throws {DejaError} (exit 2) naming an unknown target (or an `-auto` target the
 *   harness cannot have, with why; or, on install, one whose hooks need a program
 *   that is not on this machine: `kimi-auto` without Kimi Code), or when none was given;
 *   (exit 1) when `--all`/`--auto` finds no harness on this machine.
 */
export function selectTargets(env: Env, sel: Selection, install: boolean): TargetRef[] {
  const hint = `targets: ${targetNames().join(", ")}`;
  if (!sel.names.length && !sel.all && !sel.auto) {
    throw new DejaError("which target? name one or more, or give --all or --auto", hint, 2);
  }
  const out: TargetRef[] = [];
  const verb = install ? "install" : "uninstall";
  for (const given of sel.names) {
    // Target names are lower case (`CODEX` means codex) and joined by a dash (`claude_code`,
    // trial 58: no suggestion, where `claudecode` had one).
    const n = given.toLowerCase().replaceAll("_", "-");
    // `all` and `auto` are options (trial 58: `deja install all` was an unknown target).
    if (n === "all" || n === "auto") {
      throw new DejaError(
        `'${given}' is no target; for every harness found here: --${n}`,
        `deja ${verb} --${n}`,
        2,
      );
    }
    const t = findTarget(n);
    const none = t ? undefined : noAutoReason(n);
    if (none) {
      const plain = none.harness.facts.target;
      throw new DejaError(
        `'${n}': ${none.harness.displayName} gets no automatic recall from deja: ${none.reason}`,
        install
          ? `use 'deja install ${plain}': ${
            none.harness.facts.skill ? "deja's MCP server and skill let" : "deja's MCP server lets"
          } the agent ask deja itself`
          : `use 'deja uninstall ${plain}'`,
        2,
      );
    }
    const hookless = t ? undefined : hooklessHarness(n);
    if (hookless) {
      throw new DejaError(
        `'${n}': ${hookless.displayName} fires no hooks deja can use, so it has no -auto target`,
        `use 'deja ${verb} ${hookless.facts.target}'`,
        2,
      );
    }
    if (!t) {
      // An alias is suggested by the target name the list shows (`claud`: claude-code).
      const near = suggestCommand(n, allTargetNames());
      const like = near && (findTarget(near)?.name ?? near);
      // Words that name no target at all were maybe a search (trial 57: `deja install redis
      // in kubernetes` said only "unknown target 'redis'").
      const words = !like && sel.names.length > 1 &&
        sel.names.every((x) => !findTarget(x.toLowerCase()));
      throw new DejaError(
        `unknown target '${given}'${like ? `; did you mean '${like}'?` : ""}`,
        words ? `to search these words: deja search ${verb} ${sel.names.join(" ")}; ${hint}` : hint,
        2,
      );
    }
    if (install && t.auto && !autoPresent(env, t.harness)) throw missingProgram(env, t);
    out.push(t);
  }
  if (sel.all || sel.auto) {
    const pool = install ? wirables().filter((w) => detected(env, w)) : wirables();
    if (!pool.length) throw new NoHarnessHere(env, hint);
    // What `install --auto` wired at a plain target, and wrote there (state.ts `withAuto`).
    const withAuto = new Set(!install && sel.auto ? loadInstallState(env).withAuto : []);
    for (const w of pool) {
      // `uninstall --auto` (without --all): only the -auto wiring (hooks, plugins) of each,
      // and the plain wiring `install --auto` wrote for a harness with no -auto target (trial
      // 38: goose and zed stayed wired, and said nothing).
      const autoOnly = !install && sel.auto && !sel.all;
      if (autoOnly && !w.facts.auto) {
        if (withAuto.has(w.harness)) {
          out.push({ name: w.facts.target, harness: w, auto: false, undoAuto: true, swept: true });
        }
        continue;
      }
      // Install: a harness whose hooks need a program that is not here (Kimi Code) gets its plain target.
      const deep = (install || autoOnly) && sel.auto && w.facts.auto &&
        (!install || autoPresent(env, w));
      out.push({
        name: deep ? w.facts.auto!.target : w.facts.target,
        harness: w,
        auto: Boolean(deep),
        ...((install && sel.auto && !deep) || !install ? { swept: true } : {}),
        // `install --auto` wires every harness found: its plain target too, should the
        // `-auto` one be refused.
        ...(install && deep ? { plainAsked: "swept" as const } : {}),
        ...(autoOnly && deep ? { undoAuto: true } : {}),
      });
    }
  }
  const seen = new Set<string>();
  // A plain target asked for beside its `-auto` one is in it (trial 102 F1: when the `-auto`
  // target was refused, the plain one vanished from the report).
  for (const t of out) {
    if (install && t.auto && out.some((o) => !o.auto && o.harness.harness === t.harness.harness)) {
      t.plainAsked = "named";
    }
  }
  return out.filter((t) => {
    if (seen.has(t.name)) return false;
    seen.add(t.name);
    if (install && !t.auto) {
      return !out.some((o) => o.auto && o.harness.harness === t.harness.harness);
    }
    if (!install && t.auto) {
      return !out.some((o) => !o.auto && o.harness.harness === t.harness.harness);
    }
    return true;
  });
}

/**
 * `install --all` / `--auto` found no harness config to wire: what it looked for is the
 * harnesses' own configs under the home (their `detect` paths), not their session stores,
 * which `deja sources` finds (through `DEJA_*_ROOT` too). The command adds which harnesses
 * have stores here (lib/cli/cmd_install.ts), which this sync selection does not look for.
 */
export class NoHarnessHere extends DejaError {
  constructor(readonly env: Env, readonly targets: string) {
    super(
      `no config of a harness deja can wire was found under ${env.home}`,
      `name a target to wire it anyway (${targets})`,
      1,
    );
  }
}

/**
 * The refusal of `install <h>-auto` when the program its hooks run in is not
 * here (registry.json `install.auto.needs`): nothing is written.
 */
function missingProgram(env: Env, t: TargetRef): DejaError {
  const needs = t.harness.facts.auto!.needs!;
  const where = needs.detect.map((d) => tilde(expandPath(env, d), env.home)).join(" or ");
  const plain = t.harness.facts.target;
  const vars = [
    ...new Set(needs.detect.flatMap((d) => [...d.matchAll(/\$\{(\w+)/g)].map((m) => m[1]))),
  ];
  const set = vars.length ? ` (or set ${vars.join(" or ")} to where it lives)` : "";
  return new DejaError(
    `'${t.name}' wires ${needs.name}'s hooks, and ${needs.name} was not found (no ${where}); ` +
      `${needs.why}, so nothing was written`,
    `install ${needs.name}${set}, then run this again; ` +
      `'deja install ${plain}' wires deja's MCP server for ${t.harness.displayName} meanwhile`,
    2,
  );
}
