/**
 * `deja drift`: what the harnesses' stores hold that deja does not know, per
 * harness, each change with the smallest redacted record that shows it, as a
 * Markdown section ready to paste into a drift report.
 *
 * Parse ({@link parseDrift}) → run ({@link driftData}) → render ({@link driftJson},
 * {@link driftText}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import { plural, tilde } from "../../core/text.ts";
import { colors, printJson } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import type { Env } from "../../core/model.ts";
import { indexPath, Store } from "../store.ts";
import {
  type DriftChange,
  type DriftReport,
  driftReport,
  type HarnessDrift,
} from "../drift/report.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { harnessOpt } from "./_memory.ts";

export const driftCmd: CommandSpec = {
  usage: "drift [--harness <id>] [--json]",
  maxPositionals: 0,
  options: {
    harness: {
      type: "string",
      value: "<id>",
      description: "only this harness (repeatable)",
      multiple: true,
    },
    json: { type: "boolean", description: "print as JSON (docs/json-output.md)" },
  },
  run: runDrift,
};

/** What `deja drift` was asked. */
export interface DriftArgs {
  /** Only these harnesses (checked against the parser list); all when absent. */
  harnesses?: string[];
  json: boolean;
}

/**
 * Reads `deja drift`'s arguments.
 *
 * @throws {DejaError} exit 2 on an unknown harness.
 */
export function parseDrift(a: Args): DriftArgs {
  return { harnesses: harnessOpt(a), json: Boolean(a.values.json) };
}

/** The drift the index at `env` noted. @throws {DejaError} when there is no index */
export async function driftData(env: Env, args: DriftArgs): Promise<DriftReport> {
  const store = Store.open(indexPath(env));
  try {
    return await driftReport(store, { harnesses: args.harnesses, home: env.home });
  } finally {
    store.close();
  }
}

/** The `--json` document (docs/json-output.md, `drift`). */
export function driftJson(r: DriftReport, env: Env): Record<string, unknown> {
  return { index: indexPath(env), deja: denoJson.version, platform: env.platform, ...r };
}

/** The report as Markdown sections, one per harness (colour on a terminal). */
export function driftText(r: DriftReport, args: DriftArgs, io: Pick<IO, "isTTY" | "env">): string {
  const c = colors(io);
  const lines: string[] = [];
  const only = args.harnesses;
  const scope = only?.length ? ` for ${only.join(", ")}` : "";
  if (r.harnesses.length === 0) {
    lines.push(`no drift seen${scope} in ${plural(r.checked, "indexed store")}`);
  } else {
    const n = r.harnesses.reduce((k, h) => k + h.changes.length, 0);
    lines.push(c.dim(
      `${plural(n, "change")} in ${plural(r.harnesses.length, "harness", "harnesses")}${scope} ` +
        `(${
          plural(r.checked, "indexed store")
        }); each section is ready to paste into a drift report`,
    ));
    for (const h of r.harnesses) lines.push("", ...section(h, io, c));
  }
  if (r.unchecked > 0) {
    lines.push(
      "",
      c.yellow(
        `${plural(r.unchecked, "store")} with unknown records were indexed before deja kept ` +
          `drift notes: run 'deja index --rebuild' to check them`,
      ),
    );
  }
  return lines.join("\n") + "\n";
}

async function runDrift(a: Args, io: IO): Promise<number> {
  const args = parseDrift(a);
  const r = await driftData(io.env, args);
  if (args.json) printJson(io, driftJson(r, io.env));
  else io.out(driftText(r, args, io));
  return 0;
}

function section(h: HarnessDrift, io: Pick<IO, "env">, c: ReturnType<typeof colors>): string[] {
  const version = h.versions.length ? ` ${h.versions.join(", ")}` : "";
  const out = [c.bold(`## ${h.harness}${version} · ${io.env.platform} · deja ${denoJson.version}`)];
  for (const ch of h.changes) out.push(...change(ch, io, c));
  return out;
}

function change(ch: DriftChange, io: Pick<IO, "env">, c: ReturnType<typeof colors>): string[] {
  const seen = `seen ${plural(ch.count, "time")} in ${plural(ch.stores, "store")}`;
  const inside = ch.where.startsWith(`${ch.store}: `) ? ch.where.slice(ch.store.length + 2) : "";
  const at = ch.offset !== null ? `, byte ${ch.offset}` : inside ? `, ${inside}` : "";
  const out = [
    `- ${c.yellow(ch.kind.replace("_", " "))}: ${ch.detail} (${seen})`,
    `  store: ${tilde(ch.store, io.env.home)}${at}${ch.version ? ` (version ${ch.version})` : ""}`,
  ];
  if (ch.sample !== null) {
    out.push("  ```json", `  ${ch.sample}`, "  ```");
  } else {
    out.push(c.dim(`  no sample: ${ch.sample_problem ?? "none kept"}`));
  }
  return out;
}
