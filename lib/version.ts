/**
 * deja's version: the one in deno.json, imported as JSON so it is compiled
 * into the binary (`deno compile`, `bun build --compile`) with no file read
 * at run time.
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };

/** deja's version, e.g. `0.1.0` (deno.json `version`). */
export const VERSION: string = denoJson.version;

/**
 * The generation of deja's store readers, raised when a change reads stores (or
 * parts of them) that an index built before never looked at — Gemini CLI's
 * prompt log was generation 2, links to session files and folders followed
 * everywhere (and Kimi's file times) generation 3, Cursor's workspace databases (their
 * prompt history, each a source of its own) generation 4, Gemini CLI's saved
 * conversations (`checkpoint-<tag>.json`) generation 5. The last full run records it (`meta` last_index);
 * a `deja index` over an index of another generation runs in full (discovery
 * included) rather than answering "nothing changed" from the stat pass.
 */
export const READERS = 5;

/**
 * Each harness's reader revision, raised when a fix changes what its parser
 * makes of a store it read before (a session's project, a call's outcome,
 * records it dropped or misread). The index keeps the revision that read each
 * store (`sources.reader`); the next `deja index` reads a store of another
 * revision again whole (lib/index_source.ts planSource), so a parser fix
 * reaches history indexed before it without `--rebuild`, and only the stores
 * of the harnesses it concerns are read again. A harness not listed is at 0.
 *
 * Raise the number of every harness whose parser a fix changes (a shared
 * module, parsers/_*.ts, concerns each harness that imports it); a test of
 * the fix passes either way, so the reviewer of a parser change checks this.
 */
export const REVISIONS: Readonly<Record<string, number>> = {
  // 1: session 10's fixes (the Claude family's interruptions and local command output, Codex
  // errors, Hermes exit codes, Kimi interruptions, the Cline family's project, Cursor's
  // and opencode's prompt histories). 2 (Claude family): a compaction agent's instruction
  // is a notice. 2 (Codex): a turn_aborted is a notice. 1 (Crush): a call streamed in
  // nameless pieces is joined to the call before it.
  // Session 11 (Claude family, Gemini): a cache warm-up and a checkpoint are counted (not_session).
  // 3 (Claude family: claude, cherrystudio, codebuddy, factory, zcode) and 2 (Kimi): a search or
  // listing call (Glob, Grep, LS) reads no file (parsers/_message_blocks.ts, _kimi_records.ts).
  // The same for the Cline family (2 cline, 2 roo, 3 kilocode: list_files, search_files,
  // list_code_definition_names in parsers/_task_tools.ts) and Kiro (1: ls, glob, grep).
  // 5 (Claude family: claude, cherrystudio, codebuddy, factory; session 13): the IDE's context
  // beside a prompt (<ide_selection>, <ide_opened_file>, <ide_diagnostics>) is a notice
  // (parsers/_message_blocks.ts ideNotices), where before it was dropped.
  // 6 (Claude family, session 13): a file of bookkeeping alone (file-history snapshots,
  // summaries of other sessions) is counted not_session (parsers/_claude_family.ts).
  // 7 (claude), 4 (codex), 4 (gemini; session 14): a prompt history's prompts of a session a
  // transcript holds add only the prompts it lacks, and leave it the transcript's
  // (parsers/_prompt_history.ts marks them `prompts`, lib/ingest.ts).
  // 8 (claude), 7 (cherrystudio, codebuddy, factory; session 15): a reply the harness wrote for
  // a failed API call (<synthetic>, isApiErrorMessage) is a notice, not assistant text.
  // 9 (claude), 8 (cherrystudio, codebuddy, factory), 3 (codewhale, commandcode), 5 (zcode;
  // session 21): a shell result whose toolUseResult shows a clean end is exit 0
  // (parsers/_message_blocks.ts finishedClean; verified in the farm on Claude Code 2.1.332).
  // 10 (claude), 9 (cherrystudio, codebuddy, factory; session 22): a Write's result of type
  // `update` keeps `originalFile`, the file it replaced, which restore gives back.
  // 11 (claude), 10 (cherrystudio, codebuddy, factory), 4 (codewhale, commandcode), 6 (zcode;
  // session 24): a shell result whose output says it went to the background (or was stopped)
  // is no exit 0, whatever toolUseResult lacks (core/run_end.ts).
  // 12 (claude), 11 (cherrystudio, codebuddy, factory; session 30): a file whose messages hold
  // no text is counted `not_session`; and (with 5 for codewhale, commandcode, 7 for zcode) a
  // run stopped while it ran (core/run_end.ts `interrupted by the user`) is no exit 0.
  // 13 (claude), 12 (cherrystudio, codebuddy, factory; session 31): a title naming no session
  // (a leading `summary`) is the next session's, not the one read last.
  // 14 (claude), 13 (cherrystudio, codebuddy, factory), 6 (codewhale, commandcode), 8 (zcode;
  // session 36): an assistant block of a kind no reader knows keeps its text (and is counted).
  // Session 45 (every harness reading parsers/_message_blocks.ts: claude 15, cherrystudio 15,
  // codebuddy 14, factory 14, codewhale 8, commandcode 7, trae 7, zcode 9): the output of a
  // command the person ran in `!` bash mode is a notice (trial 103 F9).
  // Session 47 (the same eight, each raised by one: claude 16, cherrystudio 16, codebuddy 15,
  // factory 15, codewhale 9, commandcode 8, trae 9, zcode 10): an image in a tool result is
  // said, `(image: image/jpeg, 234.9 KiB)`, where the result was blank (trial 112 F7); a
  // Write's result of type `create` says the write made its file (`created`), which restore
  // says of its span (trial 110 F6).
  // Trial 118 F6 (the four reading parsers/_claude_family.ts claudeRecord: claude 17,
  // cherrystudio 17, codebuddy 16, factory 16): an API error's `errorDetails` (the status, the
  // API's message and the request's id) are kept in its notice, where they were dropped.
  claude: 17,
  cherrystudio: 17,
  codebuddy: 16,
  codewhale: 9, // session 13: list_dir reads no file; 7: see codex 7
  commandcode: 8,
  factory: 16,
  trae: 9, // session 11: reads Codex rollouts (parsers/_codex_reader.ts); 4-6: see codex 5-7; 8: codex 8
  zcode: 10, // session 11: reads opencode's store (parsers/_opencode_events.ts)
  codex: 8, // session 11: turn_aborted notices; a fork's copied parent keeps its replies;
  // 5 (session 24): each event keyed (its call id, else its time, kind and text), so a
  // rollout copied under another name adds nothing (parsers/_codex_reader.ts recordKey)
  // 6 (trial 94 F1): an apply_patch answered `apply_patch verification failed` failed
  // (parsers/_responses_items.ts readOutput); it counted as an edit
  // 7 (trial 94 F2, F3; with cherrystudio 14, codewhale 7, continue 4, copilot 4, amp 2, auggie
  // 1, whose apply_patch calls parsers/_responses_items.ts reads too): a patch's `*** Move to:`
  // puts its hunks at the new path, and the renamed or deleted file is a path the call read
  // 8 (trial 105 F8; trae 8): the events of a parent known only from a fork's copy are undated
  // (the copy's lines carry the fork's time, parsers/_codex_rollout.ts orphanCopies)
  crush: 9, // session 11: a call joined from pieces is not run; a provider's finish error is a notice;
  // session 13: a bash result without an `Exit code` line is exit 0; a denied call is not run;
  // the placeholder titles New Session and Untitled Session are no title;
  // 6 (session 36): a write over a file gets the content it replaced from Crush's file history,
  // and one with no result whose file that history never kept failed; 7: that result is said
  // to be empty, not missing (trial 63); 8 (session 43): a turn's error notice names the model
  // that failed (trial 93 F4); 9 (session 45): a reply message left empty is a notice under its
  // model (trial 103 F8)
  hermes: 1,
  kimi: 4, // session 13: the work dir from a <kaos>_<md5> folder or the system prompt's line;
  // 4: a prompt history's session is dated by a shared file (undated, lib/session_time.ts)
  // 4 cline, 4 roo, 5 kilocode (session 29): a task history over 8 MB is read in pieces; one
  // over 256 MB, skipped before, is read (parsers/_task_history.ts streamTask)
  cline: 4,
  roo: 4,
  kilocode: 5, // session 11: reads opencode's store (parsers/_opencode_events.ts)
  cursor: 4, // session 13: workspace prompts dated by a shared file (undated, lib/session_time.ts);
  // 4 (session 45): a NULL composer is counted not_session, not empty (trial 104 F1)
  opencode: 4, // session 11: a command the person ran with ! is theirs, not the agent's;
  // session 13: prompt-history.jsonl's session is dated by a shared file (undated)
  // Session 11's fixes.
  aider: 4, // a y/n question answered no is kept (a declined command did not run); 4 (trial 94
  // F11): an empty SEARCH that created the file aider asked about is a write, not an edit
  // Continue's cancelled (and never approved) calls are not run; Copilot's and Continue's
  // results of calls that never ran carry `notRun`.
  // Session 13: a call that never ran (`notRun`) keeps no command row (lib/ingest.ts).
  // 5 (trial 104 F4): a session whose store records only its creation ends at its file's last
  // save, marked as the file's time (parsers/continue.ts sessionTimes).
  continue: 5,
  copilot: 4,
  // gemini 4, session 13: a saved conversation (checkpoint-<tag>.json) whose chat is gone is read.
  // 5, session 27: a chat over 64 MiB is read in pieces (it was skipped as oversized, and left
  // so: its size and time unchanged, it was never read again).
  // gemini 6, session 28: messages with no id each kept (keyed alike, each replaced the last).
  // 7, session 33: a chat whose project folder names no project takes its `directories`' first.
  // 8, session 34: a shell call of status `success` with no `Exit Code` line exited 0.
  // 9, session 36: a subagent's out-of-turns message (parsers/_gemini_events.ts) is a notice.
  // 10, session 37: an info, error or warning message is a notice (it was dropped).
  // 11, session 41: a `kind: "subagent"` chat in no parent's folder is filed under its folder.
  // 12, session 45: a chat with no project takes the folder its siblings of the same
  // projectHash record (trial 103 F4); a chat cut off inside its messages is one
  // malformed_json, not also empty (trial 101 F6).
  gemini: 12,
  kiro: 1, // ls, glob and grep read no file (parsers/_kiro_tools.ts)
  // Session 13: each reply keeps its model (Event.model); the numbers raised above for it too
  // (claude family, codex, trae, gemini, opencode family, crush, copilot, continue, cursor,
  // commandcode, cline family, aider), and these at 1.
  qwen: 1,
  // 2 (session 45, the pi family reading parsers/_pi_tools.ts): a bash result marked no error
  // with no status of its own exited 0 (trial 104 F3).
  pi: 2,
  gjc: 2,
  kimchi: 2,
  omp: 2,
  openclaw: 2,
  prime: 2,
  senpi: 2,
  deepseek: 1,
  amp: 2,
  muse: 1,
  // Session 13: a directory listing (the `list` tool kind, parsers/_tool_args.ts) reads no file:
  // CodeWhale's and Grok's list_dir, Copilot Chat's list_dir (copilot_listDirectory), and
  // Antigravity's list_dir / grep_search calls and LIST_DIRECTORY steps.
  copilot_chat: 2,
  grok: 1,
  antigravity: 1,
  auggie: 1, // trial 94 F2, F3: see codex 7
  goose: 1, // session 46: a session with no message is counted not_session ('no messages')
};

/** The reader revision of `harness` ({@link REVISIONS}; 0 when not listed). */
export function revisionOf(harness: string): number {
  return (REVISIONS[harness] ?? 0) + REDACTION * 1000;
}

/**
 * The generation of secrets redaction, raised when a rule change masks text that an index
 * built before holds unmasked: every store is read again whole by the next `deja index` (its
 * sessions written anew, redacted by the rules of now), as for a parser revision, since
 * {@link revisionOf} counts it in each harness's revision. 1 (session 49): a password after
 * a login command's `-p`, Discord tokens, Azure SAS signatures, passwords in hashes,
 * annotated assignments, `.netrc` and HTML-escaped quotes (trial 127 F1-F4). 2 (trial 128
 * F2-F4): a letters-only value between HTML-escaped quotes, sshpass's `-p"…"` and `-p` after its
 * own flags, openssl's `pass:'…'`, a login's and 7-Zip's joined `-p…`, a quoted `.netrc`
 * password, PHP's `define('DB_PASSWORD', '…')` and `…_AUTH=` variables (`REDISCLI_AUTH`).
 * 3: a high-entropy value after a key between JSON-escaped quotes (`value: \"…\"`, `\\\"…`:
 * a tool's output holding JSON, a Kubernetes env entry inside it), and a `.env` line's value
 * between them (`STRIPE_WEBHOOK_KEY=\"…\"`), masked between plain quotes only before.
 * 4 (trial 133 F4): a password a sentence names that is letters only and no word (`the
 * password is sEpOhiBsMHucdj`, quoted, mixed case or random-looking), and one after `is:` or
 * `was:`; and a `:` ending the sentence after a word is no longer taken for part of a value.
 */
export const REDACTION = 4;

/** {@link READERS} and {@link REVISIONS} in one string, to tell whether a record was made by these readers. */
export function readersKey(): string {
  return `${READERS} ${REDACTION} ${JSON.stringify(REVISIONS)}`;
}

/** The line `deja --version` prints (the launcher checks for `deja <digit>`). */
export const VERSION_LINE = `deja ${VERSION}\n`;

/** True for the arguments that ask for the version alone: `version`, `--version`, `-V`. */
export function asksVersion(argv: readonly string[]): boolean {
  return argv.length === 1 && ["version", "--version", "-V"].includes(argv[0]);
}
