/**
 * The deja round trip through Claude Code, as a script for the farm's mock
 * model (`startMock({ play })`): a seeded Claude Code store, the prompt of
 * the run, and the mock's side of the conversation. On the tagged prompt the
 * mock runs the seeded check script through Bash (it is missing here, so it
 * fails: PreToolUse and PostToolUseFailure fire), loads the deferred deja MCP
 * tool through `ToolSearch` where Claude Code defers it, calls it
 * (`mcp__deja__deja`, mode recall) and, once the result is back, answers with
 * the marker. Every other request (titles, probes) is left to the farm
 * scenario.
 *
 * The seed: one session in the project — the check script missing, restored
 * with git, failing again on the zebra-sock crash, then the decision — and
 * filler sessions in another project, so that the prompt's words are rare
 * enough in the index for `deja hook-prompt` to speak (its rule wants an idf
 * of 2 or more; see lib/hooks/recall.ts).
 *
 * @module
 */
import type { Reply, View } from "./_mock_script.ts";
import type { Tool } from "./_mock_tools.ts";

/** The decision the seeded session concluded with (one sentence). */
export const DECISION = "We decided to pin libfoo to 2.3 because of the zebra-sock bug.";
/** The name Claude Code gives deja's MCP tool (`mcp__<server>__<tool>`). */
export const DEJA_TOOL = "mcp__deja__deja";
/** The arguments the scripted call sends. */
export const RECALL_ARGS = { mode: "recall", query: "libfoo zebra-sock" } as const;
/** The command the seeded session ran (and failed with); the mock runs it again. */
export const CHECK_CMD = "./scripts/check-libfoo.sh";
/** What the seeded session ran after the check script was missing (the fix `hook-tool-after` recalls). */
export const RESTORE_CMD = "git checkout -- scripts/check-libfoo.sh";
/** Bash's error for a missing script, as Claude Code reports it. */
export function missing(cmd: string): string {
  return `/bin/bash: line 1: ${cmd}: No such file or directory`;
}
/** The native id of the seeded session. */
export const SEED_ID = "7a1e5c00-0000-4000-8000-00000000dea1";

/** The prompt tag and the answer marker of run `id` (lowercase letters and digits). */
export function tags(id: string): { tag: string; answer: string } {
  return { tag: `dejart${id}`, answer: `osprey${id}` };
}

/** The prompt of run `id`: rare seeded words, so the prompt hook has something to recall. */
export function prompt(id: string): string {
  return `Round trip ${tags(id).tag}: is libfoo still held back by the zebra-sock bug?`;
}

type Line = Record<string, unknown>;

/** Claude Code's directory name for a project path. */
export function slug(path: string): string {
  return path.replace(/[^A-Za-z0-9]/g, "-");
}

function session(id: string, cwd: string, t0: number, turns: Array<Line["message"]>): string {
  let parent: string | null = null;
  return turns.map((message, i) => {
    const uuid = `${id.slice(0, 8)}-0000-4000-8000-${String(i).padStart(12, "0")}`;
    const m = message as { role: string };
    const line: Line = {
      parentUuid: parent,
      isSidechain: false,
      type: m.role,
      message,
      uuid,
      timestamp: new Date(t0 + i * 4000).toISOString(),
      cwd,
      sessionId: id,
      version: "2.1.332",
      userType: "external",
    };
    parent = uuid;
    return JSON.stringify(line) + "\n";
  }).join("");
}

const text = (role: string, t: string) => ({ role, content: [{ type: "text", text: t }] });

/**
 * The seeded store: path relative to `~/.claude/projects` -> JSONL text.
 * `project` must be the real path Claude Code will run in; `now` is epoch ms;
 * `marker`, when given, is written into the decision (the wiring check's).
 */
export function seedStore(project: string, now: number, marker?: string): Record<string, string> {
  const day = 86_400_000;
  const out: Record<string, string> = {};
  const bash = (id: string, command: string) => ({
    role: "assistant",
    content: [{ type: "tool_use", id, name: "Bash", input: { command } }],
  });
  const result = (id: string, content: string, is_error: boolean) => ({
    role: "user",
    content: [{ type: "tool_result", tool_use_id: id, content, is_error }],
  });
  out[`${slug(project)}/${SEED_ID}.jsonl`] = session(SEED_ID, project, now - day, [
    { role: "user", content: "The build broke after the libfoo upgrade, what happened?" },
    bash("toolu_seed1", CHECK_CMD),
    result("toolu_seed1", `Exit code 127\n${missing(CHECK_CMD)}`, true),
    bash("toolu_seed2", RESTORE_CMD),
    result("toolu_seed2", "", false),
    bash("toolu_seed3", CHECK_CMD),
    result("toolu_seed3", "Exit code 1\nlibfoo@2.4.0: zebra-sock crash on start", true),
    text(
      "assistant",
      `${DECISION}${
        marker ? ` Ticket ${marker}.` : ""
      } Version 2.4 crashes on start; 2.3 does not.`,
    ),
  ]);
  const topics = ["parser tables", "logging format", "docker image", "cache layout", "ci matrix"];
  topics.forEach((topic, i) => {
    const id = `7a1e5c0${i + 1}-0000-4000-8000-00000000f111`;
    out[`-srv-other/${id}.jsonl`] = session(id, "/srv/other", now - (i + 2) * day, [
      text("user", `Tidy the ${topic} please.`),
      text("assistant", `Looking at the ${topic} now.`),
      text("user", "Thanks, keep it short."),
      text("assistant", `The ${topic} are tidier now; nothing else changed.`),
      text("user", "Good, that is all for today."),
      text("assistant", "Ok."),
    ]);
  });
  return out;
}

/** Tool results after the tagged prompt (a hook's text may come as a later user block). */
function resultsSince(v: View, at: number): number {
  return v.resultsAfter.slice(at).reduce((a, b) => a + b, 0);
}

/** Claude Code's tool that loads the schemas of deferred tools (MCP tools are deferred). */
export const TOOL_SEARCH = "ToolSearch";

type Call = { tool: Tool; args: Record<string, unknown>; text: string };

/**
 * The calls of the tagged turn, chosen from its first request's tools: the
 * seeded command through the shell tool (so PreToolUse has something to say);
 * `ToolSearch` with `select:mcp__deja__deja` when the deja tool is not in the
 * list (Claude Code defers MCP tools and names them in a system message); the
 * deja recall.
 */
function plan(tools: Tool[]): Array<(v: View) => Call> {
  const out: Array<(v: View) => Call> = [];
  const shell = tools.find((t) => t.name === "Bash");
  if (shell) {
    const args = { command: CHECK_CMD, description: "Check libfoo" };
    out.push(() => ({ tool: shell, args, text: "Running the libfoo check." }));
  }
  const search = tools.find((t) => t.name === TOOL_SEARCH);
  if (search && !tools.some((t) => t.name === DEJA_TOOL)) {
    const args = { query: `select:${DEJA_TOOL}` };
    out.push(() => ({ tool: search, args, text: "Loading deja." }));
  }
  out.push((v) => ({
    tool: v.tools.find((t) => t.name === DEJA_TOOL) ??
      { name: DEJA_TOOL, kind: "function", schema: {} },
    args: { ...RECALL_ARGS },
    text: "Asking deja.",
  }));
  return out;
}

/**
 * The mock's side of run `id`: on the tagged turn the calls of {@link plan}
 * (fixed at the turn's first request; the number of tool results since the
 * prompt picks the step), then the answer with the marker. Undefined (the
 * farm scenario answers) for requests without the tag or without tools.
 */
export function roundTrip(id: string): (v: View) => Reply | undefined {
  const { tag, answer } = tags(id);
  let steps: Array<(v: View) => Call> | undefined;
  return (v) => {
    const at = v.userTexts.findLastIndex((t) => t.includes(tag));
    if (at < 0 || !v.tools.length) return undefined;
    steps ??= plan(v.tools);
    const step = steps[resultsSince(v, at)];
    if (step) return { kind: "tool", ...step(v), turn: "main" };
    return { kind: "text", text: `Recalled; marker ${answer}.`, turn: "main" };
  };
}
