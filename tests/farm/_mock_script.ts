/**
 * The scenario the mock model plays, and the decision it takes for each
 * request. The mock keeps no state between requests: which turn a request
 * belongs to comes from the tag in the last tagged user prompt, and the step
 * within that turn from the number of tool results after it.
 *
 * Turns:
 * - main (`farmtask<id>`): the scenario's steps in order, then a final answer
 *   carrying the answer marker;
 * - subagent (`farmsub<id>`, the prompt the main turn hands the agent tool):
 *   one shell command, then an answer carrying the subagent marker;
 * - follow-up (`farmfollow<id>`, a second user prompt in the same session):
 *   an answer carrying the follow-up marker;
 * - compaction (the harness's own summary request): a summary carrying the
 *   summary marker;
 * - anything else (titles, probes): a short plain answer.
 *
 * @module
 */
import {
  agentArgs,
  editArgs,
  fillSchema,
  isPatch,
  pick,
  readArgs,
  type Schema,
  shellArgs,
  type Tool,
  writeArgs,
} from "./_mock_tools.ts";

/** A step of the main turn. */
export type Step = "shell" | "fail" | "edit" | "write" | "subagent";

/** Every step, in the order a full scenario plays them. */
export const ALL_STEPS: readonly Step[] = ["shell", "fail", "edit", "write", "subagent"];

/** What one run plays. */
export interface Scenario {
  /** Run id (lowercase letters and digits): makes every marker unique to the run. */
  id: string;
  /** Steps of the main turn, in order (a step whose tool the harness lacks is left out). */
  steps: Step[];
  /** `subagent_type` handed to the agent tool (`general-purpose` for Claude Code). */
  agentType?: string;
}

/** The words a run leaves in the store, each one FTS token. */
export interface Markers {
  /** In the final answer of the main turn. */
  answer: string;
  /** In the answer to the second prompt. */
  followup: string;
  /** In the subagent's command and answer. */
  subagent: string;
  /** In the compaction summary. */
  summary: string;
  /** The README edit: `hello world` -> `hello <edit>`. */
  edit: string;
  /** In the first line of notes.txt. */
  write: string;
}

/** Markers of run `id`. */
export function markers(id: string): Markers {
  return {
    answer: `kestrel${id}`,
    followup: `heron${id}`,
    subagent: `wren${id}`,
    summary: `ibis${id}`,
    edit: `finch${id}`,
    write: `plover${id}`,
  };
}

/** The commands and files of the scenario. */
export const SHELL_CMD = "ls";
/** Fails with exit status 2 (GNU ls: a named file cannot be accessed). */
export const FAIL_CMD = "ls missing.txt";
export const FAIL_EXIT = 2;
export const EDIT_FILE = "README.md";
export const EDIT_OLD = "hello world";
export const WRITE_FILE = "notes.txt";
/** The project's README before the edit. */
export const README_TEXT = "# Farm project\n\nhello world\n";

/** The lines notes.txt gets. */
export function writeContent(m: Markers): string {
  return `${m.write} first line\nsecond line\n`;
}

/** The user prompts of run `id`. */
export function prompts(s: Scenario): { main: string; followup: string; subagent: string } {
  const m = markers(s.id);
  return {
    main:
      `Farm task farmtask${s.id}: run ${SHELL_CMD}, then ${FAIL_CMD}, then change '${EDIT_OLD}'` +
      ` to 'hello ${m.edit}' in ${EDIT_FILE}, then create ${WRITE_FILE}.`,
    followup: `Farm follow-up farmfollow${s.id}: which file did you change?`,
    subagent: `Farm helper farmsub${s.id}: run echo ${m.subagent} and report back.`,
  };
}

/** What a request says, whatever its wire protocol. */
export interface View {
  tools: Tool[];
  /** User prompt texts in order (tool results excluded). */
  userTexts: string[];
  /** For each user prompt, how many tool results follow it. */
  resultsAfter: number[];
  /** Texts of the tool results in order, where the wire's reader keeps them (Chat Completions). */
  results?: string[];
  /** System prompt text. */
  system: string;
  /** A JSON schema the reply must follow, when the request asks for JSON. */
  jsonSchema?: Schema;
}

/** The mock's answer to one request. */
export type Reply =
  | { kind: "text"; text: string; turn: string }
  | { kind: "tool"; tool: Tool; args: Record<string, unknown>; text: string; turn: string };

/** The harnesses' own compaction prompts (Claude Code, Codex, Gemini and Qwen, opencode, pi). */
const SUMMARY_RE =
  /summary of the conversation|summari[sz]e (the|this) conversation|conversation to summari[sz]e|checkpoint (compaction|summary)|state_snapshot|continuing our conversation/i;

/** Decides the reply to a request seen as `v`, for scenario `s` in `project`. */
export function decide(s: Scenario, v: View, project: string): Reply {
  const m = markers(s.id);
  if (v.jsonSchema) {
    return { kind: "text", text: JSON.stringify(fillSchema(v.jsonSchema)), turn: "json" };
  }
  const tags = [`farmsub${s.id}`, `farmfollow${s.id}`, `farmtask${s.id}`];
  let at = -1;
  for (let i = v.userTexts.length - 1; i >= 0 && at < 0; i--) {
    if (tags.some((t) => v.userTexts[i].includes(t))) at = i;
  }
  const last = v.userTexts.at(-1) ?? "";
  const lastTagged = at >= 0 && at === v.userTexts.length - 1;
  if (
    (!lastTagged && SUMMARY_RE.test(last)) ||
    (!v.tools.length && /summari[sz]/i.test(v.system) && at >= 0)
  ) {
    const body = `Summary ${m.summary}: the farm session listed the project, ${FAIL_CMD} failed, ` +
      `${EDIT_FILE} was edited and ${WRITE_FILE} written.`;
    const text = /state_snapshot/.test(last + v.system)
      ? `<state_snapshot>\n<overall_goal>${body}</overall_goal>\n</state_snapshot>`
      : `<analysis>Farm session.</analysis>\n<summary>\n${body}\n</summary>`;
    return { kind: "text", text, turn: "compact" };
  }
  if (at < 0 || !v.tools.length) return { kind: "text", text: "Farm reply.", turn: "other" };
  const prompt = v.userTexts[at];
  const n = v.resultsAfter[at];
  const plan = prompt.includes(tags[0])
    ? subPlan(s, v.tools, project)
    : prompt.includes(tags[1])
    ? []
    : mainPlan(s, v.tools, project);
  const turn = prompt.includes(tags[0])
    ? "subagent"
    : prompt.includes(tags[1])
    ? "followup"
    : "main";
  const step = plan[n];
  if (step) return { kind: "tool", ...step, turn };
  const text = turn === "subagent"
    ? `Helper done: ${m.subagent}.`
    : turn === "followup"
    ? `Answer ${m.followup}: ${EDIT_FILE} now says hello ${m.edit}.`
    : `Done: ${FAIL_CMD} failed with exit ${FAIL_EXIT}, ${EDIT_FILE} and ${WRITE_FILE} changed. Marker ${m.answer}.`;
  return { kind: "text", text, turn };
}

type Call = { tool: Tool; args: Record<string, unknown>; text: string };

/** The main turn's calls for this tool list. */
export function mainPlan(s: Scenario, tools: Tool[], project: string): Call[] {
  const m = markers(s.id);
  const shell = pick(tools, "shell");
  const read = pick(tools, "read");
  const edit = pick(tools, "edit") ?? pick(tools, "write");
  const write = pick(tools, "write") ?? (edit && isPatch(edit) ? edit : undefined);
  const agent = pick(tools, "agent");
  const readme = `${project}/${EDIT_FILE}`;
  const change = { old: EDIT_OLD, new: `hello ${m.edit}` };
  const out: Call[] = [];
  for (const step of s.steps) {
    if ((step === "shell" || step === "fail") && shell) {
      const cmd = step === "shell" ? SHELL_CMD : FAIL_CMD;
      out.push({ tool: shell, args: shellArgs(shell, cmd, project), text: `Running ${cmd}.` });
    } else if (step === "edit" && edit) {
      if (read && !isPatch(edit)) {
        out.push({ tool: read, args: readArgs(read, readme, project), text: "Reading README.md." });
      }
      const whole = README_TEXT.replace(EDIT_OLD, change.new);
      const args = editArgs(edit, readme, EDIT_FILE, change, whole, project);
      out.push({ tool: edit, args, text: "Editing README.md." });
    } else if (step === "write" && write) {
      const args = writeArgs(
        write,
        `${project}/${WRITE_FILE}`,
        WRITE_FILE,
        writeContent(m),
        project,
      );
      out.push({ tool: write, args, text: `Writing ${WRITE_FILE}.` });
    } else if (step === "subagent" && agent) {
      const args = agentArgs(agent, prompts(s).subagent, s.agentType, project);
      out.push({ tool: agent, args, text: "Asking a helper agent." });
    }
  }
  return out;
}

function subPlan(s: Scenario, tools: Tool[], project: string): Call[] {
  const shell = pick(tools, "shell");
  const cmd = `echo ${markers(s.id).subagent}`;
  return shell
    ? [{ tool: shell, args: shellArgs(shell, cmd, project), text: `Running ${cmd}.` }]
    : [];
}
