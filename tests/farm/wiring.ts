/**
 * The wiring check of the farm (`deno task farm --wiring`): does what
 * `deja install <h>` and `<h>-auto` write reach the model in the real
 * harness? The seed is the round trip's Claude Code history (roundtrip.ts)
 * with a marker unique to the run in its decision; the prompt is the round
 * trip's. The mock's side: on the tagged turn it loads the deja MCP tool
 * through the harness's deferred-tool search where the tool is not offered
 * directly, calls it (recall), then answers. The checks read the request log:
 * the tool was offered, its result carried the marker back to the model, and
 * (for `-auto`) hook text with the marker was in the first request of the
 * turn, before any tool call.
 *
 * @module
 */
import type { Reply, View } from "./_mock_script.ts";
import { fillRequired, keyOf, pick, readArgs, shellArgs, type Tool } from "./_mock_tools.ts";
import type { LoggedRequest } from "./mock_model.ts";
import type { Check } from "./verify.ts";
import { RECALL_ARGS, tags } from "./roundtrip.ts";

/** The marker of run `id`: one search token, put into the seeded decision. */
export function marker(id: string): string {
  return `lapwing${id}`;
}

/** What the wiring check installs for one farm harness. */
export interface WiringSpec {
  /** deja install targets: the plain one, then the `-auto` one where it exists. */
  plain: string;
  auto?: string;
  /** Arguments put into the harness's first command (e.g. Codex's hook trust bypass)… */
  extraArgs?: string[];
  /** …at this index of its argv (default 1: right after the program). */
  argsAt?: number;
}

/** The harnesses the wiring check knows, by farm name. */
export const WIRING: Record<string, WiringSpec> = {
  claude: { plain: "claude-code", auto: "claude-auto" },
  // `codex exec` runs no hook the user has not approved; the flag stands in for `/hooks`.
  codex: {
    plain: "codex",
    auto: "codex-auto",
    extraArgs: ["--dangerously-bypass-hook-trust"],
    argsAt: 2,
  },
  gemini: { plain: "gemini", auto: "gemini-auto" },
  opencode: { plain: "opencode", auto: "opencode-auto" },
  qwen: { plain: "qwen", auto: "qwen-auto" },
  copilot: { plain: "copilot" },
  kilo: { plain: "kilocode", auto: "kilocode-auto" },
  cline: { plain: "cline", auto: "cline-auto" },
  omp: { plain: "omp", auto: "omp-auto" },
  factory: { plain: "factory", auto: "factory-auto" },
  auggie: { plain: "auggie" },
  // pi reads no MCP config: the plain target's extension registers a tool named `deja`.
  pi: { plain: "pi", auto: "pi-auto" },
  continue: { plain: "continue" },
  openclaw: { plain: "openclaw", auto: "openclaw-auto" },
};

/** The farm harnesses whose wiring the CI subset checks. */
export const WIRING_CI = ["codex", "gemini", "opencode"];

/** True when `name` is deja's MCP tool as some harness names it (`mcp__deja__deja`, `deja-deja`, ...). */
export function isDejaTool(name: string): boolean {
  return /^(mcp_+)?deja[-_.]+deja$/.test(name) || name === "deja";
}

/** A harness's tool that loads deferred tools (Claude's `ToolSearch`, `tool_search`). */
function searchTool(tools: Tool[]): Tool | undefined {
  return tools.find((t) => isSearch(t.name));
}

function isSearch(name: string): boolean {
  return /^tool_?search$/i.test(name);
}

type Call = { tool: Tool; args: Record<string, unknown>; text: string };

/**
 * The deja tool's name in a harness's list of deferred tools, one name a line
 * (Claude Code's "…before calling them:" list, Factory's "Deferred tools:").
 */
export function deferredName(v: View): string | undefined {
  for (const text of [v.system, ...v.userTexts]) {
    const name = text.match(/^[ \t]*((mcp_+)?deja[-_.]+deja)[ \t]*$/m)?.[1];
    if (name) return name;
  }
  return undefined;
}

/**
 * The search call that loads the deja tool, in the search tool's own argument
 * shape: `select:<name>` where the deferred list names deja's tool, else a
 * keyword search (Factory names it `deja___deja` and lists it only once its
 * MCP server has connected).
 */
function searchCall(t: Tool, v: View): Call {
  const key = keyOf(t.schema, ["query", "q", "search", "names", "name"]) ?? "query";
  const listed = deferredName(v);
  const value = t.name === "ToolSearch" && listed ? `select:${listed}` : "deja";
  return { tool: t, args: fillRequired(t.schema, { [key]: value }, "/"), text: "Loading deja." };
}

/**
 * Oh My Pi's route to an MCP tool: its system prompt says to write the JSON
 * arguments to `xd://mcp__deja_deja` with its `write` tool.
 */
export function routeOf(text: string): string | undefined {
  return text.match(/xd:\/\/(mcp_+)?deja[-_.]+deja\b/)?.[0];
}

/** The name Claude Code and Qwen Code give deja's tool, the one a bridge call names. */
const BRIDGED = "mcp__deja__deja";

/**
 * A bridge call's arguments in the bridge's own shape: Qwen's `tool_call
 * {name, arguments}`, OpenClaw's `tool_call {id, args}`; the tool named as the
 * last search result named it (OpenClaw's `deja__deja`), else {@link BRIDGED}.
 */
export function bridgeArgs(bridge: Tool, v: View, args: Record<string, unknown>): Obj {
  const found = (v.results ?? []).findLast((r) => DEJA_IN_TEXT.test(r))?.match(DEJA_IN_TEXT)?.[0];
  const nameKey = keyOf(bridge.schema, ["name", "id"]) ?? "name";
  const argsKey = keyOf(bridge.schema, ["arguments", "args", "input"]) ?? "arguments";
  return { [nameKey]: found ?? BRIDGED, [argsKey]: args };
}

/** deja's tool as a harness's search result names it (`mcp__deja__deja`, `deja__deja`). */
const DEJA_IN_TEXT = /\b(mcp_+)?deja[-_.]+deja\b/;

/**
 * The recall: the deja tool itself where the request offers it, else through
 * the harness's bridge for deferred tools (Qwen's `tool_call {name, arguments}`)
 * or route (omp's `write` to `xd://…`).
 */
function dejaCall(v: View): Call {
  const args = { ...RECALL_ARGS };
  const text = "Asking deja.";
  const direct = v.tools.find((t) => isDejaTool(t.name));
  if (direct) return { tool: direct, args, text };
  const route = routeOf(v.system);
  const write = v.tools.find((t) => t.name === "write");
  if (route && write) {
    const content = JSON.stringify(args);
    return { tool: write, args: fillRequired(write.schema, { path: route, content }, "/"), text };
  }
  const bridge = v.tools.find((t) => t.name === "tool_call");
  if (bridge) return { tool: bridge, args: bridgeArgs(bridge, v, args), text };
  return { tool: { name: deferredName(v) ?? BRIDGED, kind: "function", schema: {} }, args, text };
}

/**
 * One step that only waits a second (`sleep 1` in the shell, else a read of
 * README.md): MCP servers that connect late show up in a later request.
 */
function lookCall(v: View, project: string): Call | undefined {
  const shell = pick(v.tools, "shell");
  if (shell) return { tool: shell, args: shellArgs(shell, "sleep 1", project), text: "Waiting." };
  const read = pick(v.tools, "read");
  if (read) {
    return { tool: read, args: readArgs(read, `${project}/README.md`, project), text: "Looking." };
  }
  return undefined;
}

/** Look-around steps before the mock gives up waiting for deja to show up. */
const MAX_LOOKS = 5;

/** True when the mock's reply `r` called deja (directly, through a bridge or a route). */
function callsDeja(r: LoggedRequest["reply"]): boolean {
  const a = r?.args as Obj | undefined;
  return isDejaTool(String(r?.tool ?? "")) ||
    (r?.tool === "tool_call" && isDejaTool(String(a?.name ?? a?.id ?? ""))) ||
    Boolean(routeOf(String(a?.path ?? "")));
}

type Kind = "look" | "search" | "deja";

/**
 * The mock's side of run `id` in `project`: on the tagged turn, the deja
 * recall as soon as the request offers it (a tool or omp's route); else a
 * search where the harness has a deferred-tool search (after one wait where its
 * deferred list does not name deja yet), or up to five waits for a harness
 * without a search until deja shows up; then an answer. Undefined (the farm
 * scenario answers) for other requests.
 */
export function wiringPlay(id: string, project = "/"): (v: View) => Reply | undefined {
  const { tag, answer } = tags(id);
  const taken: Kind[] = [];
  return (v) => {
    const at = v.userTexts.findLastIndex((t) => t.includes(tag));
    if (at < 0 || !v.tools.length) return undefined;
    const done = v.resultsAfter.slice(at).reduce((a, b) => a + b, 0);
    const before = taken.slice(0, done);
    if (before.includes("deja")) {
      return { kind: "text", text: `Recalled; marker ${answer}.`, turn: "main" };
    }
    const search = searchTool(v.tools);
    const visible = v.tools.some((t) => isDejaTool(t.name)) ||
      (routeOf(v.system) && v.tools.some((t) => t.name === "write"));
    const looks = before.filter((k) => k === "look").length;
    const look = lookCall(v, project);
    let kind: Kind = "deja";
    if (visible) kind = "deja";
    else if (search && !before.includes("search")) {
      // Claude Code's deferred list names deja at once; Factory's only once its MCP server is up.
      kind = search.name !== "ToolSearch" || deferredName(v) || looks || !look ? "search" : "look";
    } else if (!search && look && looks < MAX_LOOKS) kind = "look";
    taken[done] = kind;
    const call = kind === "look" && look
      ? look
      : kind === "search" && search
      ? searchCall(search, v)
      : dejaCall(v);
    return { kind: "tool", ...call, turn: "main" };
  };
}

type Obj = Record<string, unknown>;

/** Every string inside `v`. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === "object") Object.values(v).forEach((x) => strings(x, out));
  return out;
}

/** True when `v` is a tool result in any of the mock's protocols. */
function isResult(v: Obj): boolean {
  return v.type === "tool_result" || v.role === "tool" || v.role === "function" ||
    "tool_result_node" in v ||
    /(_call_output|^tool_search_output)$/.test(String(v.type ?? "")) || "functionResponse" in v;
}

/** The texts of a request body split into tool results and everything else. */
export function split(body: unknown): { results: string; rest: string } {
  const results: string[] = [];
  const rest: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v && typeof v === "object") {
      if (isResult(v as Obj)) return strings(v, results);
      return Object.values(v).forEach(walk);
    }
    if (typeof v === "string") rest.push(v);
  };
  walk(body);
  return { results: results.join("\n"), rest: rest.join("\n") };
}

/** The tool names a request body offers (any protocol; namespaced tools included). */
export function offered(body: unknown): string[] {
  const b = body as Obj;
  // Tools a Responses client-side tool search loaded are in its output item (Codex).
  const loaded = Array.isArray(b?.input)
    ? (b.input as Obj[]).filter((it) => it?.type === "tool_search_output").map((it) => it.tools)
    : [];
  // Augment (auggie) sends `tool_definitions`.
  const tools = [b?.tools, b?.tool_definitions, ...loaded];
  const out: string[] = [];
  const walk = (v: unknown, ns: string) => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, ns));
    if (!v || typeof v !== "object") return;
    const o = v as Obj;
    const name = typeof o.name === "string" ? o.name : undefined;
    if (Array.isArray(o.tools) && name) return walk(o.tools, `${name}__`);
    if (Array.isArray(o.functionDeclarations)) return walk(o.functionDeclarations, ns);
    const f = o.function as Obj | undefined;
    if (f && typeof f.name === "string") out.push(ns + f.name);
    else if (name) out.push(ns + name);
  };
  walk(tools, "");
  return out;
}

/** The checks of a wiring run from the mock's request log. */
export function wiringChecks(log: LoggedRequest[], id: string, auto: boolean): Check[] {
  const m = marker(id);
  const main = log.filter((r) => r.reply?.turn === "main");
  const callAt = main.findIndex((r) => callsDeja(r.reply));
  const names = main.map((r) => offered(r.body));
  const direct = names[0]?.find(isDejaTool);
  const searchAt = main.findIndex((r) => isSearch(String(r.reply?.tool ?? "")));
  const searched = main[searchAt]?.reply?.tool;
  // Loaded into the tool list, or named in the search's result (a bridge such as Qwen's tool_call).
  const found = searchAt >= 0 && main[searchAt + 1]
    ? split(main[searchAt + 1].body).results.match(DEJA_IN_TEXT)?.[0]
    : undefined;
  // omp: a route in the system prompt, to be written to with its write tool.
  const routes = main.map((r) => routeOf(split(r.body).rest));
  const routeAt = routes.findIndex(Boolean);
  const route = routeAt >= 0
    ? `the route ${routes[routeAt]} in the system prompt of request ${routeAt + 1} of the turn`
    : undefined;
  const tool = names.flat().find(isDejaTool) ?? found;
  const checks: Check[] = [{
    name: "mcp offered",
    ok: main.length ? Boolean(tool ?? route) : false,
    detail: !main.length
      ? "no model request of the tagged turn"
      : direct
      ? `${direct} in the first tool list`
      : tool
      ? `${tool} after ${searched ?? "a later request"}`
      : route ?? `no deja tool among ${names[0]?.length ?? 0} tools`,
  }];
  const after = callAt >= 0 ? main[callAt + 1] ?? log[log.indexOf(main[callAt]) + 1] : undefined;
  const res = after ? split(after.body).results : "";
  checks.push({
    name: "mcp answered",
    ok: res.includes(m),
    detail: callAt < 0
      ? "the deja tool was never called"
      : res.includes(m)
      ? `the marker came back in the result of ${main[callAt].reply?.tool}`
      : `no marker in the tool results after the call: ${res.slice(0, 200)}`,
  });
  const first = main[0] ? split(main[0].body).rest : "";
  checks.push(
    auto
      ? {
        name: "hook reached model",
        ok: first.includes(m),
        detail: first.includes(m)
          ? "hook text with the marker in the first request of the turn"
          : "no marker outside tool results in the first request of the turn",
      }
      : { name: "hook reached model", ok: null, detail: "no -auto target" },
  );
  return checks;
}
