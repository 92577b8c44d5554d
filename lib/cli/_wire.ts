/**
 * What `deja install` and `deja uninstall` share: their arguments (targets,
 * `--all`, `--auto`, the user services), the wiring run (lib/install/run.ts)
 * and its rendering: one line per change, refusals on stderr, `--json`.
 *
 * @module
 */
import type { Args } from "./common.ts";
import { colors } from "./common.ts";
import { plural, tilde } from "../../core/text.ts";
import type { Env } from "../../core/model.ts";
import type { IO } from "../../core/runtime.ts";
import { inPackageCache } from "../install/launcher.ts";
import { selectTargets } from "../install/select.ts";
import { installTargets, uninstallTargets, type WireReport } from "../install/run.ts";
import { findTarget } from "../install/facts.ts";
import { hooksOff, targetStatus } from "../install/doctor.ts";
import { NOT_DEJAS } from "../install/wire.ts";
import { REMOTE_SYNC, type ServiceSpec, WATCH } from "../fresh/service.ts";

/** What an install or uninstall command line asks for. */
export interface WireArgs {
  /** Harness targets named (`remote-sync` taken out: it is a service). */
  names: string[];
  all: boolean;
  auto: boolean;
  json: boolean;
  /** User services asked for: `--watch-service`, the `remote-sync` target. */
  services: ServiceSpec[];
  /** Only services were asked for: no harness target is wired. */
  onlyServices: boolean;
}

/** Reads the arguments install and uninstall share. */
export function parseWire(a: Args): WireArgs {
  const services: ServiceSpec[] = [];
  if (a.values["watch-service"]) services.push(WATCH);
  if (a.positionals.includes(REMOTE_SYNC.name)) services.push(REMOTE_SYNC);
  const names = a.positionals.filter((p) => p !== REMOTE_SYNC.name);
  const all = Boolean(a.values.all);
  const auto = Boolean(a.values.auto);
  return {
    names,
    all,
    auto,
    json: Boolean(a.values.json),
    services,
    onlyServices: services.length > 0 && !names.length && !all && !auto,
  };
}

/**
 * Wires (`install` true) or unwires the targets `w` means.
 *
 * @throws {DejaError} from selectTargets: an unknown target (exit 2), none given (2),
 *   no harness found for `--all`/`--auto` (1).
 */
export function wire(
  env: Env,
  w: WireArgs,
  install: { self: string[]; force: boolean; dryRun?: boolean } | null,
): WireReport {
  const refs = selectTargets(env, { names: w.names, all: w.all, auto: w.auto }, Boolean(install));
  return install
    ? installTargets(env, install.self, refs, { force: install.force, dryRun: install.dryRun })
    : uninstallTargets(env, refs);
}

/** The exit code of a wiring run: 2 when a target was refused. */
export function wireCode(r: WireReport): number {
  return r.outcomes.some((o) => o.refused) ? 2 : 0;
}

/** One stderr line per refused target, then the hint once. */
export function refusalText(r: WireReport): string {
  const refused = r.outcomes.filter((o) => o.refused);
  if (!refused.length) return "";
  const names = refused.map((o) => o.target);
  // A plain target refused with its `-auto` one names no file of its own (run.ts).
  const files = new Set(
    refused.map((o) => o.refused!).filter((why) => !why.startsWith("not written without")),
  );
  return refused.map((o) => `deja: ${o.target} refused: ${o.refused}\n`).join("") +
    `hint: ${r.aborted ? "nothing was written" : `nothing of ${names.join(", ")} was changed`}; ` +
    `fix or move ${files.size > 1 ? "those files" : "that file"}, then run this again\n`;
}

/** The `.deja.bak` copies of the user's configs a run made (or would make), each once. */
export function backupsOf(r: WireReport): string[] {
  return [...new Set(r.outcomes.flatMap((o) => o.backups ?? []))];
}

/** The `--json` document (docs/json-output.md, `install`). */
export function wireJson(r: WireReport): Record<string, unknown> {
  const { keptFor, keptElsewhere, ...launcher } = r.launcher;
  return {
    ...(r.dryRun ? { dry_run: true } : {}),
    backups: backupsOf(r),
    launcher: {
      ...launcher,
      ...(keptFor ? { kept_for: keptFor } : {}),
      ...(keptElsewhere ? { kept_elsewhere: true } : {}),
    },
    ...(r.wiredElsewhere ? { wired_elsewhere: r.wiredElsewhere } : {}),
    targets: r.outcomes.map((o) => ({
      target: o.target,
      harness: o.harness,
      refused: o.refused ?? null,
      changes: o.changes.map((c) => ({
        kind: c.kind,
        path: c.path,
        action: c.action,
        ...(c.note ? { note: c.note } : {}),
      })),
    })),
  };
}

/** The changes as text, one line each (colour on a terminal), with install's notes. */
export function wireText(r: WireReport, io: Pick<IO, "isTTY" | "env">, install: boolean): string {
  const c = colors(io);
  const home = io.env.home;
  // A dry run says what would be done (`would create`), aligned as the plain words are.
  const width = r.dryRun ? 15 : 9;
  const word = (act: string) =>
    !r.dryRun ? act : ({
      created: "would create",
      updated: "would update",
      removed: "would remove",
      kept: "would keep",
    } as Record<string, string>)[act] ?? act;
  const paint = (act: string) =>
    act === "created" || act === "updated"
      ? c.green(word(act).padEnd(width))
      : act === "removed" || act === "restored"
      ? c.yellow(word(act).padEnd(width))
      : act === "kept"
      ? c.red(word(act).padEnd(width))
      : c.dim(word(act).padEnd(width));
  const lines: string[] = r.dryRun ? [c.bold("dry run: nothing was written")] : [];
  // Uninstalling several targets, those that held nothing of deja's are counted, not listed a line
  // a file each (trial 121 L5: `uninstall --auto` listed every -auto target of harnesses never
  // installed as `absent`).
  const bare = !install && r.outcomes.length > 1
    ? r.outcomes.filter((o) => !o.refused && o.changes.every((ch) => ch.action === "absent"))
    : [];
  for (const o of r.outcomes) {
    if (o.refused || bare.includes(o)) continue; // a refusal is said on stderr
    for (const ch of o.changes) {
      lines.push(
        `${paint(ch.action)} ${o.target.padEnd(12)} ${ch.kind.padEnd(8)} ${tilde(ch.path, home)}${
          ch.note ? c.dim(` (${ch.note})`) : ""
        }`,
      );
    }
  }
  // An install whose targets run no launcher made none (lib/install/run.ts): no line.
  if (install ? r.launcher.action !== "absent" : r.launcher.action !== "unchanged") {
    lines.push(
      `${paint(r.launcher.action)} ${"launcher".padEnd(12)} ${"".padEnd(8)} ${
        tilde(r.launcher.path, home)
      }${install ? c.dim(` -> ${r.launcher.target.join(" ")}`) : ""}${
        r.launcher.action !== "kept" ? "" : r.launcher.keptFor && r.launcher.keptElsewhere
          ? c.dim(
            ` (still run by ${
              tilde(r.launcher.keptFor, home)
            }, which deja wired under other settings (such as CLAUDE_CONFIG_DIR): uninstall ` +
              "again with them set)",
          )
          : r.launcher.keptFor
          ? c.dim(
            ` (still run by ${
              tilde(r.launcher.keptFor, home)
            }: an entry of deja's you edited is kept as yours; uninstall with --force, or ` +
              "take it out there and uninstall again, and the launcher goes too)",
          )
          : c.dim(` (${NOT_DEJAS})`)
      }`,
    );
  }
  const all = r.outcomes.flatMap((o) => o.changes.map((ch) => ch.action)).concat(r.launcher.action);
  if (!r.outcomes.some((o) => o.refused)) {
    if (install && all.every((x) => x === "unchanged" || x === "absent")) {
      lines.push("unchanged: everything was already in place");
    } else if (!install && all.every((x) => x === "absent" || x === "unchanged")) {
      lines.push("unchanged: nothing of deja's was there");
      const there = (r.wiredElsewhere ?? []).map((f) => tilde(f, home));
      if (there.length) {
        lines.push(
          `deja's entries are in ${there.join(", ")}, which deja wired under other settings ` +
            "(such as CLAUDE_CONFIG_DIR): uninstall again with them set",
        );
      }
    } else if (bare.length) {
      lines.push(c.dim(`absent: nothing of deja's in ${plural(bare.length, "other target")}`));
    }
  }
  // Said once: where the copies of the user's configs are (trial 102 F9: written silently,
  // tokens and all).
  const baks = backupsOf(r);
  if (install && baks.length) {
    const one = baks.length === 1;
    const said = `${r.dryRun ? "would keep" : "kept"} ${one ? "a backup" : "backups"} (your config${
      one ? "" : "s"
    } before deja's first edit, mode 0600, tokens and all; uninstall removes ${
      one ? "it" : "them"
    })`;
    if (one) lines.push(c.dim(`${said}: ${tilde(baks[0], home)}`));
    else lines.push(c.dim(`${said}:`), ...baks.map((b) => c.dim(`  ${tilde(b, home)}`)));
  }
  if (install && !r.aborted) lines.push(...installNotes(r, io));
  const nothing = all.every((x) => x === "unchanged");
  if (r.dryRun && !nothing) lines.push(c.dim("to write it: the same command without --dry-run"));
  else if (install) {
    lines.push(c.dim("check it any time: deja doctor"));
  }
  return lines.join("\n") + "\n";
}

/** A launcher in a package cache, and each -auto target's note. */
function installNotes(r: WireReport, io: Pick<IO, "isTTY" | "env">): string[] {
  const c = colors(io);
  const lines: string[] = [];
  const cached = r.launcher.target.find((x) => inPackageCache(x));
  if (cached) {
    lines.push(
      c.yellow(`warning: deja runs from a package manager's cache (${tilde(cached, io.env.home)})`),
      c.dim(
        "  the cache may be cleared; install deja at a stable path and run 'deja install' from there",
      ),
    );
  }
  for (const note of autoNotes(r, io.env)) lines.push(`note: ${note}`);
  return lines;
}

/**
 * The note of each `-auto` target wired (Codex's hooks wait for an approval in Codex), and
 * what stops its hooks running in the harness's own config (trial 60: Claude Code's
 * `disableAllHooks: true` was said by doctor alone, after install said nothing).
 */
export function autoNotes(r: WireReport, env?: Env): string[] {
  const out: string[] = [];
  for (const o of r.outcomes) {
    if (o.refused) continue;
    const t = findTarget(o.target);
    const note = t?.auto ? t.harness.facts.auto?.note : "";
    if (note) out.push(note);
    if (!t?.auto || !env) continue;
    // A dry run wrote no hook yet: the switch that would stop them is read in the file itself.
    if (r.dryRun) {
      const off = hooksOff(env, t);
      if (off) out.push(off);
      continue;
    }
    for (const p of targetStatus(env, t).parts) {
      if (p.warning?.includes("runs no hook")) out.push(p.warning);
      // An entry of the user's that runs deja with a command it lacks fails on every event
      // (trial 101 F1): install writes deja's own beside it, and says so.
      if (p.state === "broken_entry" && p.detail) out.push(p.detail);
    }
  }
  return out;
}
