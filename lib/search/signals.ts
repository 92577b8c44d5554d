/**
 * Signals read from an event's text when it is written, kept as bits in
 * `events.flags`, and used by ranking: a conclusion ("the root cause was",
 * "fixed by", "we decided") lifts an event, a session whose last word is
 * giving up ranks lower, a pasted dump in a user turn is not what the person
 * typed, an error result is where a pasted error should be found.
 *
 * @module
 */

/** An assistant or summary text states a conclusion. */
export const CONCLUSION = 1;
/** An assistant text gives up or reverts without a result. */
export const GAVE_UP = 2;
/** A user turn that is a pasted dump (log, stack trace, file) rather than words typed. */
export const PASTE = 4;
/** A tool result that failed (the harness said so), or a user turn that reports an error. */
export const ERROR = 8;
/**
 * Not a signal of the text: an event the index keeps that its store no longer holds (cut off
 * the end of a session file; lib/index_source.ts `fateOf`). A later read that misses it is no
 * deletion; one that returns it again clears the bit (the event is written over).
 */
export const KEPT = 16;

const CONCLUSION_RE =
  /\b(?:root cause|the (?:real )?(?:fix|problem|issue|culprit|cause|bug) (?:was|is)|fixed (?:by|it|the|this|that|now)|(?:is|was|are|were|now) fixed|(?:this|that|it) (?:fixes|fixed)|turned out|it was because|was caused by|(?:we|i) decided|decided to|decision:|works now|now works|is working now|resolved (?:by|it|the)|the solution (?:was|is)|solved (?:by|it)|went with|chose to|the answer (?:was|is))\b/i;

const GAVE_UP_RE =
  /\b(?:(?:i|we) (?:wasn't|was not|weren't|couldn't|could not|can't|cannot|am not|are not) (?:able to )?(?:fix|find|get|resolve|reproduce|figure out|make)|giving up|give up on|gave up|let's (?:abandon|drop|stop)|i'll stop here|(?:i've |i have )?reverted (?:all|my|the|these) changes|not able to (?:fix|resolve)|unable to (?:fix|resolve|find)|no luck|didn't work either|still (?:failing|broken) after)\b/i;

/**
 * Either of the two above, in one pass: most replies hold neither, and one scan of a reply
 * costs about what each of the two costs alone (issue 18: the 100 MB bench corpus's 6 MB of
 * replies, Bun, 23 ms against 42 for both).
 */
const EITHER_RE = new RegExp(
  `\\b(?:${[CONCLUSION_RE, GAVE_UP_RE].map((r) => r.source.slice(5, -3)).join("|")})\\b`,
  "i",
);

const ERROR_RE =
  /(?:Error|Exception)\b|error\[|Traceback \(most|panic:|fatal:|FAILED|ENOENT|EACCES|ECONNREFUSED|Segmentation fault|command not found|No such file/;

const FUNCTION_WORDS = /\b(?:the|a|an|and|to|of|is|it|this|that|i|we|you|in|for|but|why|how)\b/gi;

/**
 * The flag bits of one event.
 *
 * @param kind event kind (`user`, `assistant`, `tool_result`, ...).
 * @param failed a tool result the harness marked as an error or with a non-zero exit.
 */
export function eventFlags(kind: string, text: string, failed = false): number {
  let f = 0;
  if (kind === "assistant" || kind === "summary") {
    if (!EITHER_RE.test(text)) return f;
    if (CONCLUSION_RE.test(text)) f |= CONCLUSION;
    if (kind === "assistant" && GAVE_UP_RE.test(text)) f |= GAVE_UP;
  } else if (kind === "user") {
    if (isPaste(text)) f |= PASTE;
    if (text.length < 20_000 && ERROR_RE.test(text)) f |= ERROR;
  } else if (kind === "tool_result" && failed) {
    f |= ERROR;
  }
  return f;
}

/**
 * A line a program wrote: it starts with a timestamp, a clock time, a log
 * level, or a stack frame (`    at f (file:1:2)`, `  File "x.py", line 3`).
 */
const LOG_LINE =
  /^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\[?\d{2}:\d{2}:\d{2}\b|\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN(?:ING)?|ERROR|FATAL|CRITICAL)\b|at \S|File ")/;

/**
 * A pasted dump: long, many lines, and either few of the small words people
 * write between their own words (under 1 in 25 words), or most lines written
 * by a program (a log whose messages are prose is still a log).
 */
export function isPaste(text: string): boolean {
  if (text.length < 800) return false;
  const lines = text.split("\n");
  if (lines.length < 10) return false;
  const words = text.match(/\S+/g)?.length ?? 0;
  const small = text.slice(0, 20_000).match(FUNCTION_WORDS)?.length ?? 0;
  if (words > 0 && small / Math.min(words, 4000) < 0.04) return true;
  const head = lines.slice(0, 400).filter((l) => l.trim());
  return head.filter((l) => LOG_LINE.test(l)).length * 2 > head.length;
}
