/**
 * Text helpers of the work-memory modules (general ones are in core/text.ts):
 * sentence splitting, the "this concludes something" markers, path display.
 *
 * @module
 */
import { dirname, isAbsolute, relative } from "node:path";
import { failureLine } from "./outcome.ts";
import { oneLine, tilde } from "../../core/text.ts";
import { localClock } from "../../core/localzone.ts";
import { hasFileTime, isUndated, type Timed } from "../session_time.ts";

/**
 * Words that mark an assistant sentence as concluding something: a cause
 * found, a fix made, a choice taken. Matched case-insensitively on word
 * boundaries.
 */
export const DECISION_MARKERS: readonly string[] = [
  "root cause",
  "fixed by",
  "the fix",
  "fixed",
  "fixes",
  "decided",
  "decide to",
  "because",
  "instead",
  "rather than",
  "turns out",
  "turned out",
  "the problem",
  "the issue",
  "the culprit",
  "the reason",
  "caused by",
  "causing",
  "due to",
  "which means",
  "which explains",
  "works now",
  "now passes",
  "went with",
  "chose",
  "resolved",
  "the solution",
];

const DECISION_RE = new RegExp(
  `\\b(?:${DECISION_MARKERS.map((m) => m.replace(/ /g, "\\s+")).join("|")})\\b`,
  "i",
);

/** A plan or a question, not a conclusion: "Let me check …", "Let's see if it is resolved". */
const NOT_CONCLUDING = /^(?:now,?\s+|ok(?:ay)?,?\s+|great!?\s+)?(?:let me|let's|let us)\b|\?$/i;

/** A lead-in to what follows ("Try this instead:"), not a sentence of its own. */
const FRAGMENT = /[:,;–—-]\s*$/;

/**
 * An offer to look into it, not a choice taken: "I'll help you investigate why …", "I will
 * start by checking …" (trial 38: handed on as decisions). "I will freeze the clock instead
 * of sleeping" is a choice, and stays.
 */
const OFFER =
  /^(?:now,?\s+|ok(?:ay)?,?\s+)?(?:i'll|i’ll|i will|i'm going to|i’m going to|i am going to)\s+(?:help|start|begin|first|look|check|investigate|examine|analy[sz]e|review|explore|search|read|dig|trace|debug|orient|gather|scan|survey|map)\b/i;

/**
 * An exclamation or a heading of a few words that only announces: "I see the issue!", "The
 * issue is now clear!", "The Solution That Worked" (trial 38: handed on as decisions).
 */
function announces(s: string): boolean {
  const words = s.match(/[\p{L}\p{N}'’]+/gu)?.length ?? 0;
  return words <= 5 && (/!\s*$/.test(s) || !/[.!?)"'”`]\s*$/.test(s));
}

/**
 * True when `sentence` holds one of the {@link DECISION_MARKERS} and is a
 * complete sentence: not a plan ("Let me …"), an offer to look ("I'll help you
 * investigate …"), a question, a lead-in ending in ':' that only introduces a
 * list, or a few words that only announce ("I see the issue!").
 */
export function concludes(sentence: string): boolean {
  const s = sentence.trim();
  // An unchecked to-do (`[ ] Identify the root cause …`, trial 50) is work left, not done; a
  // condition ("If you're using Claude Code instead, it adds nothing.") settles nothing.
  if (/^\[ ?\]/.test(s) || /^(?:if|unless|when|whether)\b/i.test(s)) return false;
  return DECISION_RE.test(s) && !NOT_CONCLUDING.test(s) && !FRAGMENT.test(s) &&
    !OFFER.test(s) && !announces(s) && !HEDGED.test(s) && !NAMES_ONLY.test(s);
}

/**
 * A guess, not a conclusion: "which probably explains …", "it seems the pod restarted"
 * (trial 48: "I see the main pod was restarted recently which explains why it's going down",
 * a guess the session disproved, handed on as a decision).
 */
export const HEDGED =
  /\b(?:probably|perhaps|maybe|possibly|likely|might|may be|could be|seems?|seemed|appears? to|looks like|i (?:think|suspect|guess|assume))\b/i;

/** A few words that name a finding and say nothing of it: "I see the issue.", "Found the problem." */
const NAMES_ONLY =
  /^(?:(?:ok(?:ay)?|ah|now),?\s+)?(?:i (?:can )?(?:see|found|know|get|understand)|found|got|that's|that is|this is|there's|here's)\s+(?:the|a)\s+(?:real\s+)?(?:issue|problem|culprit|reason|fix|cause|solution)(?:\s+(?:now|here))?[.!]?$/i;

/**
 * A reply that takes back what the one before it concluded: "Actually, I was wrong", "that
 * wasn't the cause" (trial 49: the digest kept the conclusion so taken back).
 */
export const RETRACTS =
  /\b(?:(?:scrap|scratch) (?:that|this|it|[\w.-]+(?=\s*[:;,—–-]))|never ?mind|revert(?:ing)? (?:the|that|my) [\w-]+ (?:choice|decision|idea|plan)|(?:that|the [\w-]+) (?:idea|plan|choice) is abandoned|i was (?:wrong|mistaken)|i misread|my (?:earlier|previous|first) (?:assumption|diagnosis|guess|analysis|conclusion) was (?:wrong|incorrect)|that (?:was(?:n't| not)|is(?:n't| not)) (?:it|the (?:cause|issue|problem|reason))|that(?:'s| is| was) not (?:right|correct)|(?:i|that) was incorrect)\b/i;

/**
 * Markers that read a conclusion out of what was just seen ("the directory is empty, which
 * means the file creation failed"): an inference the work that follows may overturn (trial
 * 48: the files were written the next moment). The digest keeps such a sentence only from a
 * reply no tool call follows (lib/memory/digest.ts).
 */
/**
 * A diagnosis: what the trouble is ("the issue is with a malformed YAML file", "the root
 * cause was …"), a guess until the work checks it.
 */
export const DIAGNOSIS =
  /\b(?:(?:the|this|that) (?:real |actual |main )?(?:issue|problem|cause|culprit|bug|error)s? (?:is|are|was|were|lies|comes|seems)|root cause)\b/i;

/** An outcome claimed with nothing of what was done: "The issue has been resolved." */
export const BARE_OUTCOME =
  /^(?:the |this |that |all )?(?:issue|problem|error|bug|task|it)s? (?:(?:has|have) )?(?:is |are )?(?:now )?(?:been )?(?:resolved|fixed|addressed|solved|done)[.!]?$/i;

/** A reply that goes on to check what it said: "Let me check the logs", "I'll verify it". */
export const GOES_TO_CHECK =
  /\b(?:let me|let's|i'll|i will|i need to|next,? i)\s+(?:now\s+)?(?:check|look|verify|see|inspect|investigate|confirm|examine|dig|test|review)\b/i;

/**
 * True when `sentence`, an inference or a diagnosis, is followed in `text` (the reply holding
 * it) by the reply setting out to check it: a step of the work, not a conclusion (trials 53,
 * 54, 55: "… restarted recently, which explains why it's going down. Let me check the logs").
 */
export function checkedNext(sentence: string, text: string): boolean {
  if (!INFERENCE.test(sentence) && !DIAGNOSIS.test(sentence)) return false;
  const at = text.indexOf(sentence);
  return at >= 0 && GOES_TO_CHECK.test(text.slice(at + sentence.length));
}

export const INFERENCE =
  /\b(?:which|that)\s+(?:means|explains|would explain|is causing|causes|is why)\b/i;

// `do not` / `don't` only after a subject: at a sentence's start it is an instruction ("stop,
// do not run that", trial 33), not a report.
const NOT_WORKING =
  /\b(?:(?:does|did|is|was|are|(?<=\b(?:it|they|we|i|you|this|that|which|these|those|tests?|still|also|just|really|but)\s)do)(?:n't|n’t| not) (?:work|help|fix|change|solve|run|build|compile|pass|load|start)|not working|no longer works?|still (?:fails?|failing|broken|not|doesn't|does not|the same|get|getting|see|seeing|happens|wrong|crash(?:es|ing)|there)|same (?:error|problem|issue|result|thing)|(?:fails|failed|failing|broken|crash(?:es|ed|ing)|conflicts? with|wrong|nothing happen(?:s|ed)?))\b/i;

/**
 * True when a user's message reports that something is not working: "does
 * not work", "still fails", "same error", "conflicts with …", or a pasted
 * line that reports a failure (outcome.ts {@link failureLine}).
 */
export function reportsProblem(text: string): boolean {
  return NOT_WORKING.test(text) || failureLine(text) !== null;
}

/**
 * Splits prose into sentences: fenced code blocks and indented code are
 * dropped, list markers and heading marks removed, then each line is split
 * after `.`, `!` or `?` followed by white space. Sentences keep their order.
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (fenced || /^( {4}|\t)/.test(raw)) continue;
    const line = raw.replace(/^\s*(?:[-*+]|\d+[.)]|#{1,6}|>)\s+/, "").trim();
    if (!line) continue;
    for (const s of line.split(/(?<=[.!?])\s+(?=\S)/)) {
      const t = s.trim();
      if (t) out.push(t);
    }
  }
  return out;
}

/**
 * The gist of an assistant turn in at most `n` characters: its first
 * concluding sentence when it has one, else its opening.
 */
export function gist(text: string, n = 240): string {
  const ss = sentences(text);
  // "The issue has been resolved." claims an outcome and says nothing of it: a conclusion
  // after it is the gist (trial 66: a hook's "concluded:" line said only that, and the lead-in
  // "To summarize what I did to fix the problem:" the list after it was cut from).
  const at = ss.findIndex((x) => concludes(x) && !BARE_OUTCOME.test(x.trim()));
  let i = at >= 0 ? at : ss.findIndex(concludes);
  if (i < 0) return oneLine(ss.length ? ss.join(" ") : text, n);
  // A conclusion of a word or two says what, not why: the sentences after it come along
  // (trial 54: blame's "said after: Fixed." lost "The issue was that `place-items` …"), up to
  // a lead-in whose list is not part of a sentence.
  let out = ss[i];
  while (out.split(/\s+/).length < 6 && i + 1 < ss.length && !/:$/.test(ss[i + 1])) {
    out += ` ${ss[++i]}`;
  }
  return oneLine(out, n);
}

/**
 * `path` for display: relative to `project` when inside it, else with the
 * home directory as `~` when `home` is given, else as stored.
 */
export function displayPath(path: string, project?: string | null, home?: string): string {
  // Relative to the project, unless the "project" is a filesystem root (a note
  // filed under "/"), where a relative path would read as a different one.
  if (project && isAbsolute(project) && isAbsolute(path) && dirname(project) !== project) {
    const rel = relative(project, path);
    if (rel && !rel.startsWith("..") && !isAbsolute(rel)) return rel;
  }
  return home && path ? tilde(path, home) : path;
}

/** Said after a session's time when it is the store file's mtime (the store records none). */
export const FILE_TIME_MARK = "(file time)";

/**
 * Said instead of {@link FILE_TIME_MARK} when that file holds many sessions, a prompt
 * history: the time is its newest prompt's, not this session's (lib/session_time.ts
 * isUndated), and the session is listed after the dated ones. (User trial 2026-12: an own
 * file's Kimi session and a prompt history read `(file time)` alike at the two ends of
 * `last`, with no cue why.)
 */
export const UNDATED_MARK = "(undated: prompt history)";

/**
 * A session's time for people: {@link localTime} of `ms` (cut to `chars`, e.g. 10 for the
 * day), followed by {@link FILE_TIME_MARK} when the session is dated by its own store
 * file's modification time, or {@link UNDATED_MARK} when by a file many sessions share
 * (`time_from_file` of its row, `timeFromFile` of a search hit or a parsed session;
 * lib/session_time.ts hasFileTime, isUndated): that is when the file was last written,
 * which a copy or a restore of the store moves to the day it was made. Every command
 * showing a session's time uses it.
 */
export function sessionTime(
  ms: number | null | undefined,
  s: Pick<Timed, "time_from_file" | "timeFromFile">,
  chars?: number,
): string {
  const text = localTime(ms).slice(0, chars);
  if (!ms || !hasFileTime(s)) return text;
  return `${text} ${isUndated(s) ? UNDATED_MARK : FILE_TIME_MARK}`;
}

/**
 * `YYYY-MM-DD HH:MM` in the local zone (`HH:MM:SS` with `seconds`), or `-`: read from the
 * system's zone file (core/localzone.ts), which spares a cold command the runtime's zone set-up.
 */
export function localTime(ms: number | null | undefined, seconds = false): string {
  if (!ms) return "-";
  const d = localClock(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${
    p(d.getUTCHours())
  }:${p(d.getUTCMinutes())}${seconds ? `:${p(d.getUTCSeconds())}` : ""}`;
}

/** A command that runs a test suite. */
export const TEST_COMMAND =
  /\b(?:pytest|jest|vitest|mocha|rspec|phpunit|tox|nox|go test|cargo test|(?:npm|yarn|pnpm|bun)(?: run)? test|deno test|mvn test|gradle test|make test|dotnet test)\b/;

/** A sentence saying the tests pass: "All tests pass now", "the tests are green". */
export const PASS_CLAIM =
  /\b(?:tests? (?:now )?pass(?:es|ing)?|tests? (?:are|is) (?:now )?(?:passing|green)|pass(?:es)? now)\b/i;

/**
 * A claim of not having read something, with what follows it up to the end of its clause: "I
 * was unable to analyze the `setup-vault` action's `action.yml`", "couldn't open config.yaml".
 */
export const COULD_NOT_READ =
  /\b(?:unable to|could ?n[o']t|can ?n[o']t|failed to|(?:was|were)(?: not|n't) able to|did ?n[o']t (?:get to|manage to)|never got to)\s+(?:fully |properly |actually )?(?:read|analy[sz]e|open|access|inspect|examine|review|view|see|load|look (?:at|into)|check)\b(?:[^.,;:!?\n]|[.,:!?](?=\w)){0,160}/gi;

/**
 * A reply that calls what it says unconfirmed: "to confirm this hypothesis", "not verified"
 * (trial 50: its causes were handed on as decisions, no test ever run).
 */
export const UNCONFIRMED =
  /\b(?:hypothes[ie]s|to confirm (?:this|that|it|the)|not (?:yet )?(?:verified|confirmed|tested)|unverified|untested)\b/i;
