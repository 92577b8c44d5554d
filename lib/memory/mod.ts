/**
 * Work memory: what past sessions decided, ran and changed, for the CLI, the
 * MCP server, the hooks and handoff. Every function takes an open
 * {@link Store} (or, for notes, an {@link Env}) and returns data; rendering is
 * the caller's.
 *
 * | function          | answers                                                        |
 * | ----------------- | -------------------------------------------------------------- |
 * | `pickSession`     | which session an id prefix or a query means                    |
 * | `sessionDigest`   | a bounded Markdown digest of one session, and its parts        |
 * | `blame`           | which sessions touched a file (and a line), and why            |
 * | `listSpans`       | the text agents replaced in a file; `writeSpan` writes one out |
 * | `findFixes`       | what ran after an error where it did not come back            |
 * | `howRuns`         | the real invocations of a tool, by sessions                    |
 * | `lastSessions`    | the most recent sessions                                       |
 * | `remember`        | append a durable note and index it                             |
 *
 * @module
 */
export {
  CTX_BUDGET,
  type Digest,
  type DigestCommand,
  type DigestFile,
  type DigestOptions,
  sessionDigest,
} from "./digest.ts";
export { type Picked, pickSession } from "./pick.ts";
export {
  blame,
  type BlameChange,
  type BlameOptions,
  type BlameResult,
  type BlameSession,
} from "./blame.ts";
export { listSpans, type RestoreList, type RestoreSpan, writeSpan } from "./restore.ts";
export { findFixes, type FixCandidate, type FixExample, type FixResult } from "./fix.ts";
export { type HowCommand, type HowOptions, type HowResult, howRuns } from "./how.ts";
export { type LastOptions, lastSessions } from "./last.ts";
export {
  appendNote,
  type Note,
  type NoteOptions,
  noteProject,
  remember,
  type Remembered,
} from "./notes.ts";
export { errorSignatures, signature } from "./signature.ts";
export { type FileTouch, findTouches, type PathMatch } from "./paths.ts";
