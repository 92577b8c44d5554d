/**
 * The digest of one session: what was asked, what was concluded, what ran,
 * what changed, how it ended — as Markdown within a byte budget, ready to
 * paste into a prompt, and as data. `deja ctx`, the MCP `context` mode, the
 * session-start hook and `handoff` all build on {@link sessionDigest}.
 *
 * @module
 */
import { copiedIn, copiedText } from "./copied.ts";
import type { Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { Q } from "../schema.ts";
import { lastSegment } from "../../core/paths.ts";
import type { CommandAtRow, EventRow, SessionRow } from "../rows.ts";
import { shortRef } from "../sessions.ts";
import { tokens } from "../query.ts";
import {
  BARE_OUTCOME,
  checkedNext,
  concludes,
  COULD_NOT_READ,
  DIAGNOSIS,
  displayPath,
  HEDGED,
  INFERENCE,
  localTime,
  PASS_CLAIM,
  reportsProblem,
  RETRACTS,
  sentences,
  sessionTime,
  TEST_COMMAND,
  UNCONFIRMED,
} from "./text.ts";
import { byteLength, commandOneLine, firstLineOf, oneLine } from "../../core/text.ts";
import { clipText, fillLists, fitMarkdown, inlineCode, type ListItem } from "./_fill.ts";
import { describeSession, DESCRIPTION_CHARS } from "./last.ts";
import {
  failureLine,
  type Outcome,
  outcomeLabel,
  outcomeOf,
  runError,
  runFacts,
} from "./outcome.ts";
import {
  type MoveCommand,
  moveCommands,
  movedWords,
  movesAfter,
  resolvedIn,
  toldMoves,
} from "./moves.ts";
import { isCut, sessionEnding } from "./ending.ts";
import { sessionDamage } from "../store_damage.ts";
import { runEnd, stoppedEnd, stoppedRun } from "../../core/run_end.ts";
import { callHeadline } from "../render.ts";

/** Default budget of `deja ctx` and the MCP `context` mode: 8 KiB. */
export const CTX_BUDGET = 8 * 1024;
/** Smallest digest budget in bytes: a smaller one is raised to it. */
export const CTX_MIN_BUDGET = 256;

/** Options of {@link sessionDigest}. */
export interface DigestOptions {
  /** Words of the question the digest answers: decisions holding them are kept first. */
  query?: string;
  /**
   * Upper bound of `markdown` in UTF-8 bytes (default {@link CTX_BUDGET}; at least
   * {@link CTX_MIN_BUDGET}).
   */
  budgetBytes?: number;
  /** Home directory, shown as `~` in paths outside the project. */
  home?: string;
  /**
   * Where the work stands comes first: the Outcome may take two fifths of the budget before
   * the lists, not one (the session start and a handoff; trial 73 F9: at 2 KiB the Decisions
   * took 1.2 KB and the compaction's Next Step was cut).
   */
  outcomeFirst?: boolean;
}

/** A command of the session, identical runs folded together. */
export interface DigestCommand {
  /** The shell command as recorded. */
  command: string;
  /** How many times it ran. */
  runs: number;
  /** How many of those runs failed (outcome.ts: exit status, error result, or output). */
  failures: number;
  /** How many were stopped before their end: interrupted or aborted (core/run_end.ts). */
  stopped: number;
  /** Exit status of the last run (null when the store does not say). */
  exit: number | null;
  /** True when the last run failed. */
  failed: boolean;
  /** The last run's outcome: `unknown` when neither the store nor the output says. */
  outcome: Outcome;
  /** Epoch ms of the last run, when known. */
  time: number | null;
  /**
   * The last run's status in words, as `show` and `how` say it (outcome.ts `outcomeLabel`):
   * `exit 0`, `exit 1 of grep`, `timed out after 2m 0.0s`, `in background`, `exit unknown`.
   */
  status: string;
  /**
   * When the last run failed: the first line of its output that reports the failure
   * (outcome.ts `errorLine`), absent when none does (trial 71: a handoff said `git pull`
   * failed with exit 128, not that git needed to be told how to reconcile the branches).
   */
  error?: string;
}

/**
 * A file the session changed (failed edits and writes left out), its own
 * changes and those its subagents made (a Kimi `Task`, a Claude Code `Task`
 * agent: the parent handed the work over, so the change is part of what the
 * session did).
 */
export interface DigestFile {
  /** Path as recorded. */
  path: string;
  /** The session's own edit and write calls (one however many spans a call recorded). */
  edits: number;
  writes: number;
  /** Edits and writes its subagents made (at any depth, up to {@link MAX_SUBAGENTS}). */
  subagent_edits: number;
  subagent_writes: number;
  /** A command of the session removed it after its last change (`rm`, `git rm`: ./moves.ts). */
  removed?: boolean;
  /** A command of the session moved it after its last change, to this path (as typed). */
  moved_to?: string;
  /** `moved_to` may be a folder it went into (./moves.ts `LaterMove.unsure`; trial 97 F2). */
  unsure?: true;
}

/** A file the session tried to edit or write, every try failed ({@link Digest.failedChanges}). */
export interface FailedChange {
  path: string;
  edits: number;
  writes: number;
  /**
   * Why the last of them failed: the first line of its result (trial 73: "you must read the
   * file before editing it", "file not found" went unsaid); absent when it has none.
   */
  why?: string;
}

/**
 * Marks the files of `byPath` that a command of session `sid` that did not fail removed or
 * moved after their last change there (./moves.ts `movesAfter`).
 */
function movedAfter(
  store: Store,
  sid: number,
  project: string | null,
  byPath: Map<string, DigestFile>,
  lastChange: ReadonlyMap<string, number>,
  rows: readonly MoveCommand[],
): void {
  for (const [k, m] of movesAfter(store, sid, project, lastChange, rows)) {
    Object.assign(byPath.get(k)!, m);
  }
}

/**
 * Subagents whose file changes join their parent's digest: a session that
 * spawned more is summarised from its first ones (by start), so a swarm of
 * agents cannot make one digest read thousands of rows.
 */
export const MAX_SUBAGENTS = 50;

/** What {@link sessionDigest} returns; the lists are complete, `markdown` is bounded. */
export interface Digest {
  /**
   * The Markdown digest, at most `budgetBytes` UTF-8 bytes, cleaned as it is printed (controls
   * removed, frame tags neutralised: core/frame.ts `cleanForAgent`).
   */
  markdown: string;
  /** UTF-8 length of `markdown`. */
  bytes: number;
  /** True when something was shortened or left out to meet the budget. */
  truncated: boolean;
  session: SessionRow;
  /** The first user turn that asks for something (not a greeting, not a mere yes). */
  problem: string | null;
  /** User turns after {@link problem} that ask for more (not a mere yes), and a last short answer. */
  laterRequests: number;
  /** The last of them; null when there is none. */
  lastRequest: string | null;
  /** Assistant sentences that conclude something, in session order. */
  decisions: string[];
  commands: DigestCommand[];
  /** Calls the store says never ran (refused, denied, cancelled), with why. */
  notRun: NotRunCall[];
  files: DigestFile[];
  /** Files the session's own edits or writes all failed on: nothing of them changed. */
  failedChanges: FailedChange[];
  /**
   * The session's subagents, each with what it was asked (trial 73: a Codex parent's handoff
   * never said that its subagent did the work, with the failures).
   */
  subagents: Array<{ id: string; ref: string; about: string }>;
  /**
   * The last substantial assistant turn; led by the user's last message when
   * that one reports a problem ("does not work", a pasted error) and is not
   * the opening problem itself; and led by a note when the session's last turn was
   * interrupted (by the user, where the store says so), its last reply stopped
   * unfinished, or a command run after the reply failed or never finished.
   */
  outcome: string | null;
}

/**
 * A day of notes kept with `deja remember` (harness `deja`): the notes, newest last as kept.
 * A note is no request and awaits no answer (trial 66: the last note of a day was given as
 * "The user's last message, not answered yet").
 */
function notesDigest(
  store: Store,
  session: SessionRow,
  budget: number,
  opts: DigestOptions,
): Digest {
  const notes = Q.eventsOfSession.all(store, { session: session.id })
    .filter((e) => e.kind === "user").map((e) => e.text.trim()).filter(Boolean);
  const q = new Set(tokens(opts.query ?? ""));
  const items: ListItem[] = notes.map((n, i) => ({
    line: `- ${oneLine(n, 300)}`,
    order: i,
    rank: tokens(n).filter((t) => q.has(t)).length * 1000 + i,
  }));
  const filled = fillLists({
    budget,
    head: header(session, describeSession(store, session), opts.home, false),
    problem: null,
    later: null,
    outcome: null,
    lists: [{ title: "Notes", items }],
  });
  const fit = fitMarkdown(filled.markdown, budget);
  return {
    markdown: fit.markdown,
    bytes: byteLength(fit.markdown),
    truncated: filled.truncated || fit.cut,
    session,
    problem: null,
    laterRequests: 0,
    lastRequest: null,
    decisions: [],
    commands: [],
    notRun: [],
    files: [],
    failedChanges: [],
    subagents: [],
    outcome: null,
  };
}

/**
 * Builds the digest of the session with index row id `sessionRowId`.
 *
 * @throws {DejaError} (exit 1) when no session has that row id.
 */
export function sessionDigest(
  store: Store,
  sessionRowId: number,
  opts: DigestOptions = {},
): Digest {
  const session = Q.sessionById.get(store, { id: sessionRowId });
  if (!session) throw new DejaError(`no session with row id ${sessionRowId}`, undefined, 1);
  const budget = Math.max(CTX_MIN_BUDGET, opts.budgetBytes ?? CTX_BUDGET);
  if (session.harness === "deja") return notesDigest(store, session, budget, opts);
  let ending: ReturnType<typeof sessionEnding> | undefined;
  const events = eventsOf(
    store,
    sessionRowId,
    () =>
      (ending ??= sessionEnding(store, session, eventsOf(store, sessionRowId).between(START))) ===
        "call_unfinished",
  );
  const first = find(events.of("user"), request) ?? find(events.of("user"), () => true);
  const problem = first?.text.trim() ?? null;
  // A long session's first request is not all it was about (trial 43: aider-69's Problem was
  // "create an .aidar.json file" of twelve requests that built a whole project).
  let laterRequests = 0;
  let lastRequest: string | null = null;
  /** The session's last message from the user, a mere yes or no too. */
  let final: EventRow | undefined;
  for (const e of events.of("user", first?.seq)) {
    if (said(e) && !THANKS.test(e.text.trim())) final = e;
    if (!laterRequest(e)) continue;
    laterRequests++;
    lastRequest = e.text.trim();
    final = undefined;
  }
  // The last word is the user's answer, however short (trial 50: a "no" to "Should I drop
  // them now?" vanished, and the handoff said to carry on).
  if (final) {
    laterRequests++;
    lastRequest = final.text.trim();
  }
  let lastTestRun: { seq: number; command: string; failed: boolean; label: string } | undefined;
  const commands = foldCommands(
    Q.commandsInOrder.iterate(store, { session: sessionRowId }),
    (r, facts) => {
      if (!TEST_COMMAND.test(r.command)) return;
      const failed = outcomeOf(facts) === "failed";
      lastTestRun = { seq: r.seq, command: r.command, failed, label: outcomeLabel(facts) };
    },
    (call) => Q.resultText.get(store, { session: sessionRowId, call })?.text ?? null,
  );
  // What ran after a reply is read when asked; the commands themselves a row at a time.
  const after: After = {
    runs: (after) => Q.commandsAfter.iterate(store, { session: sessionRowId, after }),
    doubts: (reply, limited) => doubts(store, sessionRowId, reply, lastTestRun, limited),
  };
  // A request nothing answered, the session's only one, is its outcome too, as `show` says
  // (trial 32: ctx had none; not for a store that keeps no replies at all).
  // Its store's last record cut off: the reply to the last request was being written (trial
  // 71: show said "ended mid-reply", ctx "not answered yet").
  const cutOff = () => sessionEnding(store, session, events.between(START)) === "mid_reply";
  const found = findOutcome(events, first, after, cutOff) ??
    (sessionEnding(store, session, events.between(START)) === "unanswered"
      ? "No reply followed the request: the session ends on it."
      : toolsOnly(events));
  // Known only from a copy in its subagent's store, its last reply is where the copy stops
  // (trial 103 F11: a mid-task line was given as the outcome).
  const copy = copiedIn(store, session);
  const outcome = copy
    ? `${copiedText(copy.ref, true)}.${found ? ` Where the copy stops: ${found}` : ""}`
    : found;
  // "All tests pass now" where the session's last test run failed is no decision (trial 50:
  // the digest said so beside its own `pytest → exit 1 ✗`).
  const lastTest = commands.findLast((c) => TEST_COMMAND.test(c.command));
  const decisions = findDecisions(events).filter((d) => !lastTest?.failed || !PASS_CLAIM.test(d));
  const refused = notRun(store, sessionRowId);
  const { files, failed } = changedFiles(store, sessionRowId, session.project);

  // A session without a title is named by its first prompt: the Problem says it already
  // (trial 32: the same words in bold and under "## Problem").
  const name = describeSession(store, session);
  const head = header(
    session,
    name && problem && oneLine(problem, DESCRIPTION_CHARS) === name ? null : name,
    opts.home,
    // As `show` says it (trials 34, 35: ctx gave no sign its digest held text no longer there).
    !!sessionDamage(Q.sourceByPath.get(store, { path: session.source }), session.native_id)
      ?.kept_as_indexed,
  );
  const q = new Set(tokens(opts.query ?? ""));
  const score = (s: string) => tokens(s).filter((t) => q.has(t)).length;
  // A decision the Outcome quotes is said there (trial 75: the same sentence twice in 2 KiB).
  const flatOutcome = outcome ? oneLine(outcome, 1 << 20) : "";
  const decisionItems: ListItem[] = decisions
    .filter((d) => !(d.length >= 40 && flatOutcome.includes(oneLine(d, 1 << 20))))
    .map((d, i) => ({
      line: `- ${oneLine(d, 300)}`,
      order: i,
      rank: score(d) * 1000 + i, // query words first, then later (final) conclusions
    }));
  const commandItems: ListItem[] = commands.map((c, i) => ({
    line: `- ${inlineCode(oneLine(commandOneLine(c.command), 160))} → ${status(c)}${
      c.error ? ` — ${oneLine(c.error, 140)}` : ""
    }`,
    order: i,
    rank: (c.failures ? 1_000_000 : 0) + i,
  }));
  // Calls that never ran (refused, denied, cancelled): what the user said no to is part of
  // the story a handoff tells (trial 15: ctx left them out).
  const refusedItems: ListItem[] = refused.map((r, i) => ({
    line: `- ${inlineCode(oneLine(commandOneLine(r.command), 160))}${
      r.reason ? ` — ${oneLine(r.reason, 120)}` : ""
    }`,
    order: i,
    rank: i,
  }));
  const fileItems: ListItem[] = files.map((f, i) => ({
    line: `- ${displayPath(f.path, session.project, opts.home)} (${counts(f)})`,
    order: i,
    rank: -i,
  }));
  // Edits and writes that all failed (trial 46: a README edit that never went through was
  // said nowhere, beside a reply claiming "README fixed").
  const failedItems: ListItem[] = failed.map((f, i) => ({
    line: `- ${displayPath(f.path, session.project, opts.home)} (${
      [
        f.edits && `${f.edits} edit${f.edits === 1 ? "" : "s"}`,
        f.writes && `${f.writes} write${f.writes === 1 ? "" : "s"}`,
      ]
        .filter(Boolean).join(", ")
    }, nothing changed)${f.why ? ` — ${f.why}` : ""}`,
    order: i,
    rank: -i,
  }));
  const subagents = Q.childrenOf.all(store, { harness: session.harness, parent: session.native_id })
    .map((c) => ({
      id: c.native_id,
      ref: shortRef(store, c.harness, c.native_id),
      about: oneLine(describeSession(store, c) ?? "", 120),
    }));
  const subagentItems: ListItem[] = subagents.map((c, i) => ({
    line: `- ${c.ref}${c.about ? `: ${c.about}` : ""}`,
    order: i,
    rank: -i,
  }));
  const filled = fillLists({
    budget,
    ...(opts.outcomeFirst ? { outcomeShare: 0.4 } : {}),
    head,
    problem,
    later: [
      laterRequests ? refusedFirst(events, first) : null,
      laterText(laterRequests, lastRequest, outcome),
    ].filter(Boolean).join("\n\n") || null,
    outcome,
    lists: [
      { title: "Decisions", items: decisionItems },
      { title: "Commands", items: commandItems },
      { title: "Not run", items: refusedItems },
      { title: "Files changed", items: fileItems },
      { title: "Changes that failed", items: failedItems },
      { title: "Subagents ('deja ctx <id>' digests one)", items: subagentItems },
    ],
  });
  // Measured as printed; a cut inside a code block closes it (`deja ctx redis --budget 100`,
  // user trial 2026-12) and ends on a newline as an uncut digest does.
  const fit = fitMarkdown(filled.markdown, budget);
  const markdown = fit.markdown;
  const truncated = filled.truncated || fit.cut;
  return {
    markdown,
    bytes: byteLength(markdown),
    truncated,
    session,
    problem,
    laterRequests,
    lastRequest,
    decisions,
    commands,
    notRun: refused,
    files,
    failedChanges: failed,
    subagents,
    outcome,
  };
}

/** A call the store says never ran, with the first line of what its result said. */
export interface NotRunCall {
  /** The call as recorded (`rm -rf build`; `edit <path>` for a file tool). */
  command: string;
  /** The result's first line (`Permission to use Bash … has been denied.`), or null. */
  reason: string | null;
}

/**
 * The calls of the session whose result says they never ran (core/model.ts `notRun`: refused,
 * denied, cancelled), in order, identical ones once.
 */
function notRun(store: Store, session: number): NotRunCall[] {
  const out = new Map<string, NotRunCall>();
  for (const e of Q.notRunResults.iterate(store, { session })) {
    if (!e.call_id) continue;
    const call = Q.callText.get(store, { session, call: e.call_id });
    if (!call) continue;
    const command = callHeadline(call.text);
    const reason = firstLineOf(e.text) ?? null;
    out.delete(command);
    out.set(command, { command, reason });
  }
  return [...out.values()];
}

/** Before the first seq and after the last. */
const START = Number.MIN_SAFE_INTEGER;
const END = Number.MAX_SAFE_INTEGER;

/**
 * One session's events as the digest reads them: from the index a row at a time, one kind or
 * one stretch at a time, never the session whole. A session of a million events read whole
 * took `ctx` to about 480 MB, and the hooks and `handoff` digest sessions too (issue 18).
 */
interface Events {
  /** The events of `kind` after seq `after`, in order. */
  of(kind: string, after?: number): Iterable<EventRow>;
  /** The same, the last first. */
  backFrom(kind: string, after?: number): Iterable<EventRow>;
  /** Every event after seq `from` and before seq `to`, in order. */
  between(from: number, to?: number): Iterable<EventRow>;
  /** Whether an assistant turn or call comes after seq `after`. */
  actedAfter(after: number): boolean;
  /**
   * Tool calls after seq `after`, and the file edits and writes among them that went through;
   * `unfinished` when the session ends on one of them that no result followed.
   */
  workAfter(after: number): Work;
}

/** What {@link Events.workAfter} counts. */
interface Work {
  /** Calls that ran, or were made and got no result: not those refused or denied. */
  calls: number;
  edits: number;
  writes: number;
  unfinished?: boolean;
  /** Calls after it that never ran (refused, denied: the digest's Not run). */
  notRun?: number;
}

/**
 * {@link Events} of session `session`; `endsOnCall` says whether it ends on a tool call no
 * result followed (lib/memory/ending.ts `call_unfinished`), asked only when calls are counted.
 */
function eventsOf(store: Store, session: number, endsOnCall: () => boolean = () => false): Events {
  return {
    of: (kind, after = START) => Q.eventsOfKindAfter.iterate(store, { session, kind, after }),
    backFrom: (kind, after = START) =>
      Q.eventsOfKindBackFrom.iterate(store, { session, kind, after }),
    between: (from, to = END) => Q.eventsBetweenSeqs.iterate(store, { session, from, to }),
    actedAfter: (after) => Q.actedAfter.get(store, { session, after }) !== undefined,
    workAfter(after) {
      let calls = 0;
      const ids: string[] = [];
      for (const c of Q.eventsOfKindAfter.iterate(store, { session, kind: "tool_call", after })) {
        calls++;
        if (c.call_id) ids.push(c.call_id);
      }
      // Most digests ask after their last reply, which no call follows: no file row is read.
      if (!calls) return { calls, edits: 0, writes: 0 };
      // A call the user refused or the harness denied did not run (trial 103 F6: "then 2 more
      // tool calls ran" where one of the two was listed under Not run).
      const refused = new Set<string>();
      for (const e of Q.notRunResults.iterate(store, { session })) {
        if (e.seq > after && e.call_id && ids.includes(e.call_id)) refused.add(e.call_id);
      }
      calls -= ids.filter((id) => refused.has(id)).length;
      if (!calls) return { calls, edits: 0, writes: 0, notRun: refused.size };
      const done = new Set<string>();
      for (const f of Q.filesInOrder.iterate(store, { session })) {
        if (f.seq > after && !f.failed && f.op !== "read") done.add(`${f.event_id} ${f.op}`);
      }
      const ops = [...done].map((k) => k.split(" ")[1]);
      return {
        calls,
        edits: ops.filter((o) => o === "edit").length,
        writes: ops.filter((o) => o !== "edit").length,
        ...(endsOnCall() ? { unfinished: true } : {}),
        ...(refused.size ? { notRun: refused.size } : {}),
      };
    },
  };
}

/** The first of `rows` that `ok` accepts; the rest are not read. */
function find<T>(rows: Iterable<T>, ok: (row: T) => boolean): T | undefined {
  for (const r of rows) if (ok(r)) return r;
  return undefined;
}

/** Words a person or the model wrote, not blank and not a tag the harness put in (`<command-name>`). */
const typed = (e: EventRow) => e.text.trim() !== "" && !/^\s*</.test(e.text);

/**
 * The user turn that opens the work: said to the model, and neither a mere yes nor a greeting
 * (trial 51: "Start the migration", under 20 characters, was passed over for the fourth
 * message, "stop waiting, run the tests").
 */
const request = (e: EventRow) => laterRequest(e) && !GREETING.test(e.text.trim());

/** A turn that only greets: "hi", "hello there!". */
const GREETING =
  /^(?:hi|hello|hey|hiya|yo|howdy|greetings|good (?:morning|afternoon|evening))(?:\s+(?:there|all|again|everyone|claude|gemini|codex))?[\s,.!]*$/i;

/** A reply that only agrees or lets the work go on: "ok", "yes please", "continue". */
const ACK =
  /^(?:(?:y|ye[sp]|yeah|ok(?:ay)?|k|sure|fine|thanks?|thank you|ty|cool|great|perfect|nice|good|lgtm|continue|proceed|go(?: ahead| on)?|do it|please|sounds good|looks good|right|correct|no|nope|n)[\s,.!]*)+$/i;

/**
 * A user turn after the first request that asks for more: typed, and not a mere yes or go on
 * (trial 47: "git status", "now run the tests", "does not work" went uncounted, under 20
 * characters).
 */
const laterRequest = (e: EventRow) => said(e) && !ACK.test(e.text.trim());

/**
 * A message the user wrote to the model: typed, not `!cmd` (a command the user ran in the
 * harness's shell mode), a harness's `[…]` notice or a setting of the harness (`/model`).
 */
const said = (e: EventRow) => {
  const t = e.text.trim();
  return typed(e) && !/^!/.test(t) && !/^\[[^\]]*\]$/.test(t) && !HARNESS_COMMAND.test(t);
};

/** A last word that answers nothing: "thanks", "great!". */
const THANKS =
  /^(?:(?:thanks?|thank you|ty|great|perfect|cool|nice|awesome|good job|well done)[\s,.!]*)+$/i;

/**
 * Slash commands that set the harness up rather than ask the model for work (Claude Code's,
 * Gemini CLI's and Codex's built-ins; trial 51's `/chrome` was taken for the opening request).
 */
const HARNESS_COMMAND =
  /^\/(?:model|clear|compact|config|settings|help|cost|usage|stats|status|login|logout|resume|exit|quit|permissions|approvals|memory|vim|theme|doctor|mcp|hooks|agents|context|add-dir|privacy-settings|terminal-setup|ide|export|rewind|fast|effort|chrome|bashes|bug|feedback|plugins?|output-style|statusline|sandbox|todos|tasks|upgrade|release-notes|install-github-app|keybindings|extensions|tools|auth|about|copy|directory|editor|restore)\b/i;

/**
 * The line under the Problem that says the session went on to more requests, quoting the last
 * unless the outcome quotes it already; null when the first request was the only one.
 */
function laterText(n: number, last: string | null, outcome: string | null): string | null {
  if (!n || last === null) return null;
  const more = n === 1 ? "Then 1 more request" : `Then ${n} more requests`;
  const quote = oneLine(last, 200);
  // Quoted there, not merely found in it (trial 50: the last request "1" was "quoted under
  // Outcome" because the Outcome held a digit 1).
  const head = oneLine(last, 300).slice(0, 60);
  if (head.length >= 12 && outcome?.includes(head)) {
    return `${more}; the last is quoted under Outcome.`;
  }
  return `${more}${n === 1 ? "" : "; the last"}: “${quote}”`;
}

function header(s: SessionRow, name: string | null, home?: string, kept = false): string {
  const project = s.project ? displayPath(s.project, null, home) : "-";
  const when = `${localTime(s.started)} → ${sessionTime(s.updated ?? s.started, s)}`;
  const lines = [`# deja context: ${s.harness} · ${project} · ${s.native_id} · ${when}`];
  if (kept) lines.push("", "_Its store no longer holds it in full: this is what the index kept._");
  if (name) lines.push("", `**${oneLine(name, 200)}**`);
  return lines.join("\n");
}

function status(c: DigestCommand): string {
  const last = c.status;
  // A run stopped before its end neither passed nor failed (trial 46: a `flux reconcile`
  // aborted, then run again, read "exit 0 (2 runs)").
  const runs = c.runs > 1
    ? ` (${c.runs} runs${c.failures ? `, ${c.failures} failed` : ""}${
      c.stopped ? `, ${c.stopped} stopped` : ""
    })`
    : "";
  return (c.failed ? `**${last} ✗**` : last) + runs;
}

function counts(f: DigestFile): string {
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? "" : "s"}`;
  const own: string[] = [];
  if (f.edits) own.push(n(f.edits, "edit"));
  if (f.writes) own.push(n(f.writes, "write"));
  const sub: string[] = [];
  if (f.subagent_edits) sub.push(n(f.subagent_edits, "edit"));
  if (f.subagent_writes) sub.push(n(f.subagent_writes, "write"));
  const by = sub.length ? `${sub.join(", ")} by a subagent` : "";
  const changed = own.length > 0 || sub.length > 0;
  const after = f.removed
    ? "removed later"
    : f.moved_to
    ? `moved ${changed ? "later " : ""}${movedWords(f)}`
    : "";
  return [own.join(", "), by, after].filter(Boolean).join("; ");
}

/** How the session ended (see {@link Digest.outcome}). */
function findOutcome(
  events: Events,
  first: EventRow | undefined,
  runs: After,
  cutOff: () => boolean = () => false,
): string | null {
  const lastReply = (after: number) => {
    let latest: EventRow | undefined;
    for (const e of events.backFrom("assistant", after)) {
      if (!e.text.trim()) continue;
      latest ??= e;
      if (e.text.trim().length >= 40 && typed(e)) return e;
    }
    return latest ?? null;
  };
  const reply = lastReply(START);
  const last = find(events.backFrom("user"), typed);
  const stop = interruption(events, last);
  if (stop) {
    // The note leads; the reply shown is the interrupted turn's own words, else an earlier one's.
    if (!reply) return stop;
    const label = last && reply.seq > last.seq
      ? "The last reply, cut by the interruption: "
      : "The last reply, to an earlier request: ";
    return ended(reply, events, runs, label, stop);
  }
  const unanswered = harnessSaid(events, last);
  if (unanswered) {
    return reply
      ? ended(reply, events, runs, "The last reply, to an earlier request: ", unanswered)
      : unanswered;
  }
  const isFirst = last !== undefined && last.id === first?.id;
  // A request nothing followed yet (the session ends on it: an agent compacting mid-turn, a
  // session left open) is what the next session must not lose (trial 18: PreCompact's digest
  // left out "Now also rename the capybaraqueue module"). A short word (`thanks`) is none.
  if (
    last && !isFirst && !reportsProblem(last.text) && last.text.trim().length >= 20 &&
    !events.actedAfter(last.seq)
  ) {
    const open = cutOff()
      ? `The session ended mid-reply to the user's last message (the reply's record is cut ` +
        `off in its store): “${oneLine(last.text, 300)}”`
      : `The user's last message, not answered yet: “${oneLine(last.text, 300)}”`;
    return reply
      ? `${open}

${ended(reply, events, runs, "The last reply, to an earlier request: ")}`
      : open;
  }
  if (!last || isFirst || !reportsProblem(last.text)) {
    return reply && ended(reply, events, runs, "");
  }
  const quote = oneLine(last.text, 300);
  const line = failureLine(last.text);
  const said = `The user's last message reports a problem: “${quote}”` +
    (line && !quote.includes(oneLine(line, 300)) ? `, with: ${oneLine(line, 200)}` : "");
  const answer = lastReply(last.seq);
  return answer
    ? `${said}\n\n${ended(answer, events, runs, "The last reply: ")}`
    : `${said} (no reply followed)`;
}

/**
 * The reply shown as the outcome, led by what came after it when that matters: the
 * session's last reply stopped mid-way (`cut`: the harness never finished it), or a
 * command run after the reply failed or never finished. The notes lead, so clipping the
 * text to the budget keeps them. Crush session 093f9963 (trial 9) showed "Let's rebase
 * our changes…" as its outcome although the rebase then failed with exit 128.
 */
function ended(
  reply: EventRow,
  events: Events,
  after: After,
  label: string,
  lead?: string,
): string {
  const notes: string[] = lead ? [lead] : [];
  const runs = after.runs;
  const lastSaid = find(events.backFrom("assistant"), (e) => e.text.trim() !== "");
  if (lastSaid && isCut(lastSaid)) {
    notes.push(
      lastSaid.id === reply.id
        ? "The session ended mid-reply: this last reply stops unfinished."
        : "The session ended mid-reply: its last reply stops unfinished.",
    );
  }
  // The first three said, the rest counted.
  const bad: string[] = [];
  let more = 0;
  let lastBad = -1;
  for (const r of runs(reply.seq)) {
    const facts = runFacts(r);
    const code = () => inlineCode(oneLine(commandOneLine(r.command), 100));
    let note: (() => string) | undefined;
    if (outcomeOf(facts) === "failed") {
      // `failed by its output (exit 0)` says it whole; `exit 128` is said as a failure.
      const label = outcomeLabel(facts);
      note = () => `${code()} ${label.startsWith("failed") ? label : `failed (${label})`}`;
    } else {
      // Stopped while it ran (trial 32): said as such, not as failed.
      const end = runEnd(facts.output ?? facts.head);
      if (stoppedEnd(end)) note = () => `${code()} was ${end}`;
      else if (facts.noResult) note = () => `${code()} never finished (no result)`;
    }
    if (!note) continue;
    lastBad = r.seq;
    if (bad.length < 3) bad.push(note());
    else more++;
  }
  if (bad.length) {
    const then = workText(events.workAfter(lastBad), "more ");
    notes.push(
      `After this reply, ${bad.join("; ")}${more ? `, and ${more} more` : ""}${
        then ? `; then ${then}` : ""
      }.`,
    );
  }
  // A short reply came after the one shown (`Done.`): the one shown is not called the last
  // (trial 12: "The last reply: I will now run the build" after the failed build and a "Done
  // with the checks.").
  const final = lastSaid && lastSaid.seq > reply.seq ? lastSaid : undefined;
  if (!bad.length) {
    // Files changed after the reply shown (aider's edits, proposed in the reply and applied
    // after it; a reply followed by more work): a reply asking to confirm, or announcing the
    // change, is not where the session stopped (trial 43: aider-69's outcome asked "Please
    // confirm" of an edit applied and committed). Nor is one that tools followed and no reply
    // (trial 46: Gemini f3bcbc84 ended on "I'll list the contents of the chats directory").
    const w = events.workAfter(reply.seq);
    if (w.edits || w.writes) notes.push(`After this reply, ${workText(w, "")}.`);
    else if (w.calls && !final) {
      notes.push(`After this reply, ${workText(w, "")}; no reply followed.`);
    }
  }
  if (final) {
    notes.push(`The session's last words, after this reply: “${oneLine(final.text, 160)}”`);
  }
  const limit = limitBefore(events, reply);
  if (limit) notes.push(`Before this reply the harness ${harnessWords(limit, 200)}`);
  // Cut short by a limit, a reply that could not analyze a file it read says so truly (trial
  // 73 F11): only its claim that the tests pass is weighed.
  notes.push(...after.doubts(reply, Boolean(limit)));
  const text = withoutScratchpad(reply.text.trim());
  const name = (l: string) => final ? l.replace(/^The last reply/, "The last longer reply") : l;
  // A summary the harness wrote after the reply (Crush's): where it says the work stands leads
  // (trial 73 F8: its "What needs to be done next" never reached the digest).
  let summary: EventRow | undefined;
  for (const e of events.of("summary", reply.seq)) summary = e;
  const standing = summary && standingOf(summary.text);
  const told = standing ? `As the session's closing summary says:\n${standing}\n\n` : "";
  if (!notes.length) return `${told}${label ? `${label}${text}` : text}`;
  return `${notes.join(" ")}\n\n${told}${name(label || "The last reply: ")}${text}`;
}

/** A header of a summary's section: `## Next steps`, `**What needs to be done next:**`, `9. Next Step:`. */
const SECTION_HEAD = /^(?:#{1,6}\s+\S.*|\*\*[^*\n]+\*\*:?\s*|\d+\.\s+[^\n]{1,60}:\s*)$/;
/** A section that says where the work stands. */
const STANDING_HEAD =
  /\bnext\b|\bpending\b|\bremaining\b|\bcurrent (?:work|state|status)\b|\bto ?do\b|\bopen (?:issues|questions)\b/i;

/**
 * The sections of a summary that say where the work stands (next steps, pending tasks, current
 * work), at most 800 characters; null when it has none.
 */
export function standingOf(summary: string): string | null {
  const lines = summary.split("\n");
  const out: string[] = [];
  let keep = false;
  for (const line of lines) {
    // A table's row of its own (Crush: `| **Next steps** | • … <br>• … |`).
    const row = /^\|\s*\**([^|*]+?)\**\s*\|(.+)\|\s*$/.exec(line.trim());
    if (row) {
      if (STANDING_HEAD.test(row[1])) {
        out.push(`${row[1].trim()}: ${row[2].replace(/<br\s*\/?>/gi, " ").trim()}`);
      }
      continue;
    }
    if (SECTION_HEAD.test(line.trim())) keep = STANDING_HEAD.test(line);
    if (keep) out.push(line);
  }
  const text = out.join("\n").trim();
  return text ? clipText(text, 800) : null;
}

/**
 * A reply without the model's `<analysis>` scratchpad when a `<summary>` follows it, the
 * summary's tags taken off: Claude Code's compaction replies (trial 71: the Outcome of a
 * compaction was its analysis, and the summary's "Current Work" and "Next Step" were cut).
 */
export function withoutScratchpad(text: string): string {
  const m = /^\s*<analysis>[\s\S]*?<\/analysis>\s*<summary>\s*([\s\S]*?)\s*(?:<\/summary>\s*)?$/i
    .exec(text);
  return m && m[1].trim() ? whereItStands(m[1].trim()) : text;
}

/** The sections of a compaction summary that say where the work stands. */
const STANDING = /^\d+\.\s*(?:current work|(?:optional )?next steps?|pending tasks)\s*:/i;

/**
 * A compaction summary's numbered sections with "Pending Tasks", "Current Work" and "Next
 * Step" first: what whoever continues needs, which a budget would cut at its end.
 */
function whereItStands(summary: string): string {
  const parts = summary.split(/\n(?=\d+\.\s+[^\n]*:\s*$)/m);
  const first = parts.filter((p) => STANDING.test(p));
  if (!first.length) return summary;
  return [...first, ...parts.filter((p) => !STANDING.test(p))].join("\n");
}

/** A harness's notice that it stopped the work at a limit (Gemini's subagent runner). */
const LIMIT_NOTICE =
  /\b(?:exceeded the (?:time limit|maximum number of (?:turns|steps))|ran out of (?:turns|steps|time)|turn limit|step limit)\b/i;

/**
 * The harness's notice of a limit reached between the last request before `reply` and it
 * (trial 71: Gemini twynek's reply that it could not analyze a file followed "You have exceeded
 * the maximum number of turns", which the digest left out), else null.
 */
function limitBefore(events: Events, reply: EventRow): string | null {
  const asked = find(events.backFrom("user"), (e) => e.seq < reply.seq)?.seq ?? START;
  let said: string | null = null;
  for (const e of events.of("notice", asked)) {
    if (e.seq >= reply.seq) break;
    if (LIMIT_NOTICE.test(e.text)) said = e.text;
  }
  return said;
}

/** What {@link ended} reads of the session beyond the reply it shows. */
interface After {
  /** The commands run after seq `after`, in order. */
  runs(after: number): Iterable<CommandAtRow>;
  /**
   * Notes on what the reply says and the record before it contradicts ({@link doubts}); with
   * `limited` (the harness stopped the work first) not its claims of files it could not read.
   */
  doubts(reply: EventRow, limited?: boolean): string[];
}

/**
 * What `reply` says that the session's own record contradicts, said beside it: it could not
 * read a file the session read without error before it (trial 51: Gemini twynek's last reply
 * "I was unable to analyze the `setup-vault` action's `action.yml`" after its `read_file` of
 * that file returned it whole), or the tests pass where the session's last test run, before
 * the reply, failed (trial 50). A run that failed after the reply is said by {@link ended}.
 */
function doubts(
  store: Store,
  session: number,
  reply: EventRow,
  lastTest: { seq: number; command: string; failed: boolean; label: string } | undefined,
  limited = false,
): string[] {
  const notes: string[] = [];
  const text = reply.text;
  if (lastTest?.failed && lastTest.seq < reply.seq && PASS_CLAIM.test(text)) {
    const label = lastTest.label.startsWith("failed")
      ? lastTest.label
      : `failed (${lastTest.label})`;
    notes.push(
      `This reply says the tests pass, but the session's last test run, ${
        inlineCode(oneLine(commandOneLine(lastTest.command), 100))
      }, ${label} before it and none ran after.`,
    );
  }
  /** Each file a claim names, with the claim's own words (trial 71: "unable to analyze" was
   * said as "could not read"). */
  if (limited) return notes;
  const named = new Map<string, string>();
  for (const m of text.matchAll(COULD_NOT_READ)) {
    for (const f of fileNames(m[0])) if (!named.has(f)) named.set(f, m[0].trim());
  }
  if (!named.size) return notes;
  const seen = new Set<string>();
  for (const r of Q.readsBefore.iterate(store, { session, before: reply.seq })) {
    const base = lastSegment(r.path).toLowerCase();
    const claim = named.get(base);
    if (claim === undefined || seen.has(base)) continue;
    seen.add(base);
    notes.push(
      `This reply says “${oneLine(claim, 160)}”, but the session read ${
        inlineCode(r.path)
      } without error${r.time ? ` at ${localTime(r.time)}` : ""}, before it.`,
    );
  }
  return notes;
}

/** The file names (a name with an extension, lower-cased) a claim holds, quoted or not. */
function fileNames(claim: string): string[] {
  return [...claim.matchAll(/[\w.-]*\w\.[A-Za-z][A-Za-z0-9]{0,7}\b/g)]
    .map((m) => lastSegment(m[0]).toLowerCase()).filter((n) => !/^(?:e\.g|i\.e|etc)\b/.test(n));
}

/**
 * The outcome of a session that holds no reply but tool calls (trial 46: Crush 7e39705f ran
 * fourteen and said nothing; its digest had no Outcome): what ran after its last request.
 */
function toolsOnly(events: Events): string | null {
  const last = find(events.backFrom("user"), typed);
  const w = events.workAfter(last?.seq ?? START);
  if (!w.calls) return null;
  return `No reply in the session; after ${last ? "its last request" : "it began"}, ${
    workText(w, "")
  }.`;
}

/**
 * Tool calls counted by `w`, and the file writes and edits among them ("" when none): what
 * the session did after the last failure said of it (trial 42: "After this reply, `git
 * config …` failed" closed a digest whose session then wrote three files and edited a
 * fourth), or after its last reply. `more` leads "tool call" when calls were named before.
 */
function workText(w: Work, more: string): string {
  if (!w.calls) return "";
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? "" : "s"}`;
  const files = [w.writes && n(w.writes, "file write"), w.edits && n(w.edits, "file edit")]
    .filter(Boolean).join(" and ");
  // The session ends on a call no result followed (trial 85 F7: "8 more tool calls ran" where
  // the eighth never got its result, and show said so): not said to have run.
  const one = w.calls === 1;
  const tail = !w.unfinished
    ? ""
    : one
    ? ", and no result followed it"
    : ", the last with no result";
  const refused = w.notRun ? ` (and ${n(w.notRun, "call")} not run)` : "";
  return `${n(w.calls, `${more}tool call`)} ${
    w.unfinished ? one ? "was made" : "were made" : "ran"
  }${files ? `, ${files} among them` : ""}${tail}${refused}`;
}

/**
 * The `notice` texts parsers give an interrupted turn, and whether the store
 * says the user did it: Claude Code's `[Request interrupted by user]` (and `…
 * for tool use]`, parsers/_message_blocks.ts) does; Kimi's `[Step
 * interrupted]` (parsers/_kimi_records.ts, wire `StepInterrupted`) is written
 * for a cancel and for a failed step alike, so it does not; Codex's `[Turn
 * aborted: interrupted]` (parsers/_codex_reader.ts, `turn_aborted` with reason
 * `interrupted`) does.
 */
function interruptedBy(text: string): "user" | "unknown" | null {
  const t = text.trim();
  if (/^\[Request interrupted by user[^\]]*\]$/.test(t)) return "user";
  if (/^\[Turn aborted: interrupted\]$/.test(t)) return "user";
  if (t === "[Step interrupted]") return "unknown";
  return null;
}

/**
 * A note when the session's last turn was interrupted: an interruption notice
 * after the last request (`last`, the user's last message) with no assistant
 * words after it. Says when, by whom where the store says so, how many
 * requests in a row ended so (realdata kimi 0be84c98: the same prompt sent five
 * times, each step interrupted, while ctx showed the reply to the request
 * before them as the outcome), and the last request itself.
 */
function interruption(events: Events, last: EventRow | undefined): string | null {
  if (!last) return null;
  const isStop = (e: EventRow) => e.kind === "notice" && interruptedBy(e.text) !== null;
  const stopAfter = (from: number, to: number) => {
    let stop: EventRow | undefined;
    for (const e of events.between(from, to)) {
      if (isStop(e)) stop = e;
      else if (stop && e.kind === "assistant" && e.text.trim()) stop = undefined;
    }
    return stop;
  };
  const stop = stopAfter(last.seq, END);
  if (!stop) return null;
  // Earlier requests that also ended interrupted, back to one that did not.
  let n = 1;
  let to = last.seq;
  for (const ask of events.backFrom("user")) {
    if (ask.seq >= to || !typed(ask)) continue;
    if (!stopAfter(ask.seq, to)) break;
    n++;
    to = ask.seq;
  }
  const by = interruptedBy(stop.text) === "user"
    ? "interrupted by the user"
    : "interrupted (the store does not say whether by the user or by a failed step)";
  const when = stop.time ? ` at ${localTime(stop.time)}` : "";
  const row = n > 2
    ? `, as were the ${n - 1} requests before it`
    : n === 2
    ? ", as was the request before it"
    : "";
  return `The session's last turn was ${by}${when}${row}; last request: “${
    oneLine(last.text, 200)
  }”.`;
}

/**
 * What the harness said in notice `text`, quoted, after "the harness": `said: “…”`, or for an
 * error `reported an error: “…”` with the `Error:` or `API error:` mark left outside the
 * quotation marks: the parsers put it before messages their stores keep bare (trial 73 F13:
 * “Error: developer is not one of …” quoted words the store does not hold); `when` goes
 * before the colon.
 */
export function harnessWords(text: string, max: number, when = ""): string {
  const t = text.trim();
  const mark = /^(api )?error:\s*/i.exec(t);
  if (!mark || mark[0].length === t.length) return `said${when}: “${oneLine(t, max)}”`;
  return `reported ${mark[1] ? "an API error" : "an error"}${when}: “${
    oneLine(t.slice(mark[0].length), max)
  }”`;
}

/**
 * A note when the last request got no reply and the harness said why (a
 * `notice` after it, no assistant words: realdata codex 019da908, whose
 * provider refused the request with an error that `show` prints while ctx
 * had no outcome at all).
 */
function harnessSaid(events: Events, last: EventRow | undefined): string | null {
  if (!last) return null;
  let notice: EventRow | undefined;
  for (const e of events.between(last.seq)) {
    if (e.kind === "assistant" && e.text.trim()) return null;
    if (e.kind === "notice" && e.text.trim()) notice = e;
  }
  if (!notice) return null;
  const when = notice.time ? ` at ${localTime(notice.time)}` : "";
  return `The last request got no reply; the harness ${harnessWords(notice.text, 300, when)} ` +
    `(last request: “${oneLine(last.text, 200)}”).`;
}

/**
 * A note when the first request, followed by others, got no reply and no work, only a notice
 * of the harness (trial 54: Crush 7e39705f's "create AGENTS.md" got "Error: Bad Request …";
 * five hours later an `ls` and tool calls, and the digest read as if the work went on).
 */
function refusedFirst(events: Events, first: EventRow | undefined): string | null {
  if (!first) return null;
  let notice: EventRow | undefined;
  let worked = false;
  /** The last event of the turn, a notice of an error: the turn ended on it. */
  let endedOn: EventRow | undefined;
  for (const e of events.between(first.seq)) {
    if (e.kind === "user" && said(e)) break;
    if ((e.kind === "assistant" && e.text.trim()) || e.kind === "tool_call") worked = true;
    if (e.kind === "notice" && e.text.trim()) notice ??= e;
    if (e.text.trim() || e.kind === "tool_call") {
      endedOn = e.kind === "notice" && /^(?:api )?error\b/i.test(e.text.trim()) ? e : undefined;
    }
  }
  const at = (e: EventRow) => e.time ? ` at ${localTime(e.time)}` : "";
  // Its work stopped on the harness's error, and the user asked again (trial 57: Crush
  // 0d21b928's first turn ended on OpenRouter's 400 before "Please try again").
  if (worked) {
    return endedOn
      ? `Its turn ended on the harness's error${at(endedOn)}: “${
        oneLine(endedOn.text.trim().replace(/^(?:api )?error:\s*/i, ""), 300)
      }”`
      : null;
  }
  if (!notice) return null;
  return `It got no reply; the harness ${harnessWords(notice.text, 300, at(notice))}`;
}

/**
 * Concluding assistant sentences, deduplicated, in order. A sentence that only infers from
 * what was just seen ({@link INFERENCE}) counts from a reply no tool call follows before the
 * next request: said in the middle of the work, the work went on to test it.
 */
function findDecisions(events: Events): string[] {
  const seen = new Set<string>();
  const found: Array<{ s: string; at: number; inferred: boolean }> = [];
  for (const e of events.of("assistant")) {
    // A reply that calls itself unconfirmed concludes nothing.
    if (UNCONFIRMED.test(e.text)) continue;
    // A reply that takes back the last conclusion before it: that one is none.
    if (RETRACTS.test(e.text) && found.at(-1)?.at !== undefined && found.at(-1)!.at < e.seq) {
      found.pop();
    }
    for (const s of sentences(e.text)) {
      if (s.length < 15 || s.length > 600 || !concludes(s) || RETRACTS.test(s)) continue;
      const key = s.toLowerCase().replace(/\W+/g, " ").trim();
      if (seen.has(key)) continue;
      seen.add(key);
      // An inference or a diagnosis the same reply then sets out to check is a step of the
      // work (trial 53: "… restarted recently, which explains why it's going down. Let me
      // check the logs"; trial 54: "the issue is with a malformed YAML file … Let me check
      // the file"), and so is a diagnosis of a reply that calls its own account likely (trial
      // 54: "here's why commit f89d24a likely caused test failures: … The problem is …").
      const inferred = INFERENCE.test(s);
      if (checkedNext(s, e.text)) continue;
      if (DIAGNOSIS.test(s) && HEDGED.test(e.text.slice(0, Math.max(0, e.text.indexOf(s))))) {
        continue;
      }
      // "The issue has been resolved." says nothing the Outcome does not (trial 54).
      if (BARE_OUTCOME.test(s.trim())) continue;
      found.push({ s, at: e.seq, inferred });
    }
  }
  // Read after the loop above: its statement is the one these use.
  const first = (kind: string, after: number) => find(events.of(kind, after), () => true)?.seq;
  /**
   * Whether a tool call follows seq `at` before the next request, or that request reports a
   * problem (trial 50: "the pod was restarted, which explains why it's going down", then the
   * user's output showing there was no restart).
   */
  const overturned = (at: number) => {
    const ask = find(events.of("user", at), typed);
    if (ask && reportsProblem(ask.text)) return true;
    const call = first("tool_call", at);
    if (call === undefined) return false;
    return ask === undefined || call < ask.seq;
  };
  return found.filter((d) => !d.inferred || !overturned(d.at)).map((d) => d.s);
}

/** The session's commands in order of last run, identical commands folded. */
function foldCommands(
  rows: Iterable<CommandAtRow>,
  each?: (r: CommandAtRow, facts: ReturnType<typeof runFacts>) => void,
  output?: (call: string) => string | null,
): DigestCommand[] {
  const byKey = new Map<string, DigestCommand>();
  for (const r of rows) {
    const command = String(r.command).trim();
    const key = command.replace(/\s+/g, " ");
    const exit = r.exit ?? null;
    const facts = runFacts(r);
    each?.(r, facts);
    const outcome = outcomeOf(facts);
    const failed = outcome === "failed";
    const c = byKey.get(key) ??
      {
        command,
        runs: 0,
        failures: 0,
        stopped: 0,
        exit: null,
        failed: false,
        outcome,
        time: null,
        status: "",
      };
    c.status = outcomeLabel(facts);
    c.runs++;
    if (failed) c.failures++;
    if (!failed && stoppedRun(facts.output ?? facts.head)) c.stopped++;
    c.exit = exit;
    c.failed = failed;
    const error = failed && output ? runError(facts, r.call_id, output) : null;
    if (error) c.error = oneLine(error, 200);
    else delete c.error;
    c.outcome = outcome;
    c.time = r.time ?? c.time;
    // At the place of its last run (trial 12: a test that failed early and passed at the
    // end was listed first, among the commands that ran before the fix).
    byKey.delete(key);
    byKey.set(key, c);
  }
  return [...byKey.values()];
}

/**
 * The key under which a subagent's `path` joins the parent's files: the
 * parent's relative path that `path` ends with, when the parent recorded it
 * relative and the subagent absolute (realdata/kimi b1ea4a04: the parent wrote
 * `backend/app/routes/referrals.py`, its subagent `/home/user/backend/app/…`);
 * else `path` itself.
 */
/** A path recorded absolute on any system: `/…`, `C:\…`, `C:/…`, `\\server\…`. */
const isAbsolute = (p: string) => /^(?:\/|[A-Za-z]:[\\/]|\\\\)/.test(p);

export function sameFile(byPath: Map<string, DigestFile>, path: string): string {
  if (byPath.has(path) || !isAbsolute(path)) return path;
  const slashed = path.replaceAll("\\", "/");
  for (const key of byPath.keys()) {
    if (!isAbsolute(key) && slashed.endsWith("/" + key.replaceAll("\\", "/"))) return key;
  }
  return path;
}

/**
 * Files edited or written (not failed), in order of first change: the
 * session's own, then those only its subagents (the first {@link MAX_SUBAGENTS}
 * by start) changed.
 */
function changedFiles(
  store: Store,
  sid: number,
  project: string | null,
): { files: DigestFile[]; failed: FailedChange[] } {
  const byPath = new Map<string, DigestFile>();
  /** The session's own edits and writes that failed, a call once, in order. */
  const failed: Array<{ path: string; op: string; seq: number; why?: string }> = [];
  // A call counts once per file however many spans it recorded (a Cursor edit_file's diff chunks).
  const counted = new Set<string>();
  /** The seq of the session's own last change of each file. */
  const lastChange = new Map<string, number>();
  // A change refused before it ran is under "Not run", not a change that failed (trial 105 F8:
  // Crush's denied `.gitignore` edit was listed under both).
  const notRun = new Set(
    [...Q.notRunResults.iterate(store, { session: sid })].map((e) => e.call_id),
  );
  const add = (id: number, own: boolean) => {
    for (const r of Q.filesInOrder.all(store, { session: id })) {
      if (r.op === "read") continue;
      if (r.failed === 1) {
        const call = `${r.event_id} ${r.op} ${r.path} failed`;
        if (!own || counted.has(call) || (r.call_id && notRun.has(r.call_id))) continue;
        counted.add(call);
        const why = r.call_id
          ? firstLineOf(Q.resultText.get(store, { session: id, call: r.call_id })?.text)
          : undefined;
        failed.push({
          path: String(r.path),
          op: r.op,
          seq: r.seq,
          ...(why ? { why: oneLine(why.replace(/^(?:Error|error):\s*/, ""), 160) } : {}),
        });
        continue;
      }
      const path = own ? String(r.path) : sameFile(byPath, String(r.path));
      const call = `${r.event_id} ${r.op} ${path}`;
      if (counted.has(call)) continue;
      counted.add(call);
      const f = byPath.get(path) ??
        { path, edits: 0, writes: 0, subagent_edits: 0, subagent_writes: 0 };
      if (r.op === "edit") own ? f.edits++ : f.subagent_edits++;
      else own ? f.writes++ : f.subagent_writes++;
      if (own) lastChange.set(path, r.seq);
      byPath.set(path, f);
    }
  };
  add(sid, true);
  const moving = moveCommands(store, sid);
  if (lastChange.size) movedAfter(store, sid, project, byPath, lastChange, moving);
  // Files the session only moved, by a command (trial 50: three manifests renamed with `mv`
  // were nowhere in the list, their new names only under "Changes that failed").
  const known = new Set([...byPath.keys()].map((k) => resolvedIn(k, project) ?? k));
  for (const r of moving) {
    const told = toldMoves(r.moves, project);
    const either = new Set(told.unsure ?? []);
    for (const pair of [...told.moved, ...either]) {
      const [from, to] = pair;
      const whole = resolvedIn(from, project);
      const there = resolvedIn(to, project);
      // Where a file already listed went is no other file (`mv a b && mv b dir/`).
      if (there) known.add(there);
      if (!whole || known.has(whole)) continue;
      known.add(whole);
      byPath.set(whole, {
        path: whole,
        edits: 0,
        writes: 0,
        subagent_edits: 0,
        subagent_writes: 0,
        moved_to: to,
        ...(either.has(pair) ? { unsure: true as const } : {}),
      });
    }
  }
  const subs = Q.childrenOfMany.all(store, { ids: JSON.stringify([sid]) })
    .sort((a, b) => (a.started ?? 0) - (b.started ?? 0) || a.id - b.id)
    .slice(0, MAX_SUBAGENTS);
  for (const c of subs) add(c.id, false);
  // The tries after the session's last change of the file that went through: a failed try a
  // later change made good is no news, one after it is (trial 94 F13: app.py's failed Edit,
  // after its write and an edit, was left out because the file had changed at all).
  const after = new Map<string, FailedChange>();
  for (const f of failed) {
    if (f.seq < (lastChange.get(f.path) ?? -1)) continue;
    // A file only its subagents changed: their calls are not in this order; as before, no news.
    if (!lastChange.has(f.path) && byPath.has(f.path)) continue;
    const x = after.get(f.path) ?? { path: f.path, edits: 0, writes: 0 };
    if (f.op === "edit") x.edits++;
    else x.writes++;
    if (f.why) x.why = f.why;
    after.set(f.path, x);
  }
  return { files: [...byPath.values()], failed: [...after.values()] };
}
