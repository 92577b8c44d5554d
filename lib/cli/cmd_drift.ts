/**
 * `deja drift`: what the harnesses' stores hold that deja does not know, per
 * harness, each change with the smallest redacted record that shows it, as a
 * Markdown section ready to paste into a drift report.
 */
import type { Args, CommandSpec } from "./common.ts";
import { plural, tilde } from "../../core/text.ts";
import { colors, printJson } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import { indexPath, Store } from "../store.ts";
import { type DriftChange, driftReport, type HarnessDrift } from "../drift/report.ts";
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

async function runDrift(a: Args, io: IO): Promise<number> {
  const only = harnessOpt(a);
  const store = Store.open(indexPath(io.env));
  let report;
  try {
    report = await driftReport(store, { harnesses: only, home: io.env.home });
  } finally {
    store.close();
  }
  if (a.values.json) {
    printJson(io, {
      index: indexPath(io.env),
      deja: denoJson.version,
      platform: io.env.platform,
      ...report,
    });
    return 0;
  }
  const c = colors(io);
  const lines: string[] = [];
  const scope = only?.length ? ` for ${only.join(", ")}` : "";
  if (report.harnesses.length === 0) {
    lines.push(`no drift seen${scope} in ${plural(report.checked, "indexed store")}`);
  } else {
    const n = report.harnesses.reduce((k, h) => k + h.changes.length, 0);
    lines.push(c.dim(
      `${plural(n, "change")} in ${
        plural(report.harnesses.length, "harness", "harnesses")
      }${scope} ` +
        `(${
          plural(report.checked, "indexed store")
        }); each section is ready to paste into a drift report`,
    ));
    for (const h of report.harnesses) lines.push("", ...section(h, io, c));
  }
  if (report.unchecked > 0) {
    lines.push(
      "",
      c.yellow(
        `${plural(report.unchecked, "store")} with unknown records were indexed before deja kept ` +
          `drift notes: run 'deja index --rebuild' to check them`,
      ),
    );
  }
  io.out(lines.join("\n") + "\n");
  return 0;
}

function section(h: HarnessDrift, io: IO, c: ReturnType<typeof colors>): string[] {
  const version = h.versions.length ? ` ${h.versions.join(", ")}` : "";
  const out = [c.bold(`## ${h.harness}${version} · ${io.env.platform} · deja ${denoJson.version}`)];
  for (const ch of h.changes) out.push(...change(ch, io, c));
  return out;
}

function change(ch: DriftChange, io: IO, c: ReturnType<typeof colors>): string[] {
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
