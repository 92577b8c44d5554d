/**
 * The wiring matrix: for every harness registry.json gives install facts,
 * which parts `deja install` writes (MCP server, skill, `/deja` command,
 * hooks or plugin) and where, generated from the registry only. `deja sources
 * --wiring` prints it; docs/wiring.md is this table, checked by a test.
 *
 * @module
 */
import { wirables } from "./facts.ts";
import { dialects } from "../hooks/dialect.ts";

/** One harness's row. */
export interface WiringRow {
  harness: string;
  display_name: string;
  /** The plain target and the `-auto` target (null when the harness fires no events deja uses). */
  target: string;
  auto_target: string | null;
  /**
   * Config file of the MCP server entry and its key path, or null (no MCP, pi);
   * `also`: other names of that file, used instead when one of them exists.
   */
  mcp: { file: string; key: string; also: string[] } | null;
  skill: string | null;
  command: string | null;
  /** Hook events deja wires (in the harness's spelling), or the plugin files. */
  hooks: string[];
  /** How hook answers are shaped (hook_dialects), null without hooks. */
  envelope: string | null;
}

/** Every wirable harness's row, in registry order. */
export function wiringMatrix(): WiringRow[] {
  const d = dialects();
  return wirables().map((w) => {
    const f = w.facts;
    // An event wired twice (Kimi, Hermes: context and prompt recall on one event) is listed once.
    const hooks = [
      ...new Set(
        (f.auto?.hooks ?? []).map((h) => `${h.event}${h.matcher ? `(${h.matcher})` : ""}`),
      ),
      ...(f.auto?.files ?? []).map((x) => `plugin ${x.file}`),
      ...(f.auto?.grant
        ? [`grant ${f.auto.grant.file} ${f.auto.grant.key.join(".")}=${f.auto.grant.value}`]
        : []),
    ];
    const auto = Boolean(f.auto);
    // A plugin speaks its harness's dialect (`--harness <id>`); a hook the one its args name.
    const first = f.auto?.hooks?.[0];
    const dialect = !auto
      ? undefined
      : !first
      ? d.get(w.harness)
      : first.args.includes("--crush")
      ? d.get("crush")
      : d.get(first.args[2] ?? "claude");
    return {
      harness: w.harness,
      display_name: w.displayName,
      target: f.target,
      auto_target: f.auto?.target ?? null,
      mcp: f.mcp ? { file: f.mcp.file, key: f.mcp.key.join("."), also: f.mcp.also ?? [] } : null,
      // With the other files the plain target writes (trial 84: pi's tool extension), and
      // aider's guidance file, named in its config's `read` list (trial 82: the row said aider
      // gets nothing).
      skill: [
        ...(f.skill ? [f.skill.file] : []),
        ...(f.files ?? []).map((x) => x.file).filter((x) => x !== f.read?.item),
        ...(f.read ? [`${f.read.item} (in ${f.read.file} ${f.read.key.join(".")})`] : []),
      ].join(", ") || null,
      command: f.command?.file ?? null,
      hooks,
      envelope: auto ? dialect?.envelope ?? "nested" : null,
    };
  });
}

const cell = (s: string | null) => s ? `\`${s.replaceAll("|", "\\|")}\`` : "—";

const also = (files: string[]) => files.length ? ` (or ${files.map(cell).join(", ")})` : "";

/** The matrix as a Markdown table (docs/wiring.md). */
export function wiringMarkdown(): string {
  const rows = wiringMatrix();
  const head = [
    "<!-- generated from registry.json by 'deno task wiring'; do not edit by hand -->",
    "",
    "# Wiring matrix",
    "",
    "What `deja install <target>` writes for each harness, and what `<target>-auto` adds (hooks or a",
    "plugin that recall without being asked). Paths are registry templates (`~`, `${VAR:-default}`);",
    "where the harness reads its config under another name too, the first of those that exists is",
    'edited instead ("or …").',
    "",
    "| harness | targets | MCP server | skill | command | hooks (-auto) | answer |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  ];
  const body = rows.map((r) =>
    `| ${r.display_name} | \`${r.target}\`${r.auto_target ? `, \`${r.auto_target}\`` : ""} | ${
      r.mcp ? `${cell(r.mcp.file)} ${cell(r.mcp.key)}${also(r.mcp.also)}` : "—"
    } | ${cell(r.skill)} | ${cell(r.command)} | ${
      r.hooks.length ? r.hooks.map((h) => cell(h)).join(", ") : "—"
    } | ${r.envelope ?? "—"} |`
  );
  return [...head, ...body, ""].join("\n");
}
