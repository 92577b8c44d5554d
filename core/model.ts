/**
 * The unified model every parser produces and every command consumes.
 *
 * Times are epoch **milliseconds** throughout, whatever unit the store used
 * (see {@link toMillis} in `parsers/_time.ts`). Paths are absolute.
 *
 * @module
 */

/** What an event is. */
/**
 * What an event is. `notice` is the harness speaking in the session, not the
 * model: an error or warning it showed (Copilot CLI `session.error`), a turn the
 * user interrupted or a local slash command's output (Claude Code), indexed so
 * pasting the message finds the session (ranked below what people and the model
 * said), never shown as the assistant's or the user's words.
 */
export type EventKind = "user" | "assistant" | "tool_call" | "tool_result" | "summary" | "notice";

/** One replaced span of a file: `old` was replaced by `new` in `path`. */
export interface EditSpan {
  /** Absolute path of the file edited. */
  path: string;
  /** The text that was there before (what `deja restore` hands back). */
  old: string;
  /** The text put in its place. */
  new: string;
}

/** A whole-file write (or lines written in place of a symbol). */
export interface WriteSpan {
  /** Absolute path of the file written. */
  path: string;
  /** The content written. */
  content: string;
}

/** What a tool call means, decoded from the harness's arguments. */
export interface ToolCallInfo {
  /** Tool name exactly as the harness wrote it (`Bash`, `exec_command`, `bash`, ...). */
  name: string;
  /** Call id that links the call to its result, when the store has one. */
  id?: string;
  /** Decoded arguments (a JSON string inside JSON is decoded once more). */
  input?: unknown;
  /** The shell command, when the call runs one. */
  command?: string;
  /** Files the call read (absolute where the store lets us resolve them). */
  paths?: string[];
  /** Spans the call replaced. */
  edits?: EditSpan[];
  /** Content the call wrote. */
  writes?: WriteSpan[];
}

/** What a tool result says about its call. */
export interface ToolResultInfo {
  /** The id of the call this result answers. */
  callId?: string;
  /** Exit status of a shell command, when the store records one. */
  exit?: number;
  /** True when the harness marked the result as an error. */
  isError?: boolean;
  /**
   * True when the store says the call never ran (cancelled, refused, never
   * approved: Continue's `canceled` state, Copilot's denied permission, Crush's
   * call refused for invalid parameters).
   * `isError` is set with it, so a reader that knows only that still counts
   * nothing as changed or succeeded; `show` says `not run` instead of `failed`.
   */
  notRun?: boolean;
  /** Replaced spans known only from the result (Crush `lsp_replace_symbol` metadata). */
  edits?: EditSpan[];
  /**
   * The whole content a write replaced, when the store records it (Claude Code's Write
   * `toolUseResult` of `type: "update"`: `originalFile`): what `deja restore` gives back.
   */
  overwritten?: string;
  /**
   * The call was a write that made the file: nothing was there before it (Claude Code's Write
   * `toolUseResult` of `type: "create"`). `deja restore` says so of its span (trial 110 F6).
   */
  created?: boolean;
}

/** One event of a session, in order. */
export interface Event {
  kind: EventKind;
  /** Text shown and indexed. Tool calls may leave it empty: the indexer renders one. */
  text: string;
  /** Epoch milliseconds, when known. */
  time?: number;
  /**
   * Dedupe key within its session. A later event with the same key replaces the
   * earlier one (Claude Code writes several records per API response).
   */
  key?: string;
  /** Set on `tool_call` events. */
  tool?: ToolCallInfo;
  /** Set on `tool_result` events. */
  result?: ToolResultInfo;
  /**
   * Set on an `assistant` event whose reply the harness never finished: the stream
   * stopped, was cancelled or failed mid-way (Crush: a message with no `finish` part, or
   * one whose reason is `canceled` or `error`). Stored as `{"cut":true}` in `events.data`.
   */
  cut?: boolean;
  /**
   * The model that wrote this reply, on the events of a reply (`assistant`, its
   * `tool_call`s, a `summary` it wrote) when the store records the model per
   * message: a session that switched model mid-way says which reply is whose.
   * Placeholders that name no model (Claude Code's `<synthetic>` on an API
   * error) are left out (parsers/_util.ts `modelName`). The index keeps it only
   * where it changes (`events.model`, `sessions.models`).
   */
  model?: string;
}

/**
 * One session, or one chunk of it: a parser may yield the same session id
 * several times; the indexer appends each chunk's events in order and merges
 * the metadata (non-empty fields win; `started` is the minimum, `updated` the
 * maximum).
 */
export interface Session {
  /** Harness id (`claude`, `codex`, ...), as in registry.json. */
  harness: string;
  /** The harness's own session id; for a subagent, an id that never equals the parent's. */
  id: string;
  /** Absolute project directory, when known. */
  project?: string;
  title?: string;
  /** Epoch ms. */
  started?: number;
  /** Epoch ms. */
  updated?: number;
  /**
   * Set when `started`/`updated` are a store file's modification time, not a
   * time the harness recorded (its store holds none for this session), by the
   * parser that fell back to the file's time (or `updated` alone, when the store
   * records the start only and the file was written later: a Continue session): `true` when the file holds this
   * session alone and is rewritten as it goes (its mtime is the session's last
   * write), `"shared"` when the file holds many sessions (a prompt history:
   * its mtime is the newest entry's, only an upper bound for this one). Either
   * is shown marked as the file's time (a copied file carries the copy's
   * date); a shared one is undated for ordering (lib/session_time.ts).
   */
  timeFromFile?: true | "shared";
  model?: string;
  /** Native id of the parent session (subagent runs are filed under their parent). */
  parent?: string;
  /** The store file this session was read from. */
  path: string;
  events: Event[];
  /**
   * True when this chunk starts the whole session again (read from the
   * beginning of its store): events the index already holds for it are
   * replaced, not appended to. A resumed read sets it when the store took back
   * what an earlier pass indexed (a Codex rollback).
   */
  whole?: boolean;
  /**
   * True when the events are prompts from a prompt history, tied to a session
   * by its id (parsers/_prompt_history.ts). A session the index holds from
   * another store (its transcript) stays that store's: the prompts add only
   * what it lacks (a prompt whose text a user event of it holds, within
   * core/prompt_history.ts PROMPT_MATCH_MS of its time, adds nothing; lib/ingest.ts).
   */
  prompts?: boolean;
}

/** How a source changes, which decides how it is re-read. */
export type SourceKind =
  /** Append-only lines: resumed from the byte after the last complete line. */
  | "append"
  /** Rewritten in place: re-read when size+mtime change and the content hash differs. */
  | "document"
  /** A SQLite store: re-read from the parser's watermark when the db or its -wal changes. */
  | "sqlite";

/** One store location a parser discovered. */
export interface SourceRef {
  harness: string;
  /** Absolute path of the file or database. */
  path: string;
  kind: SourceKind;
  /** Files whose change also means this source changed (a SQLite `-wal`). */
  companions?: string[];
  /** Facts discovery already knows (a Crush project directory, a Gemini project id). */
  hint?: Record<string, string>;
  /**
   * Other paths the same sessions live under at other times (a Codex rollout
   * and its compressed `.zst` form). When this source is read whole, what the
   * index holds from those paths is dropped first: the sessions are read
   * again from here instead of being added to.
   */
  supersedes?: string[];
}

/** Closed set of reasons a record or file is skipped. Shown by `deja sources`. */
export type SkipReason =
  | "malformed_json"
  | "invalid_utf8"
  | "oversized"
  | "unknown_record"
  | "bad_shape"
  | "unreadable"
  | "locked"
  | "corrupt"
  | "unknown_schema"
  | "empty"
  | "unsupported"
  /** A whole file read as JSONL that is not JSONL at all (random bytes, another format). */
  | "not_jsonl"
  /** A last line the harness is still writing: not lost, read once it is complete. */
  | "partial_line"
  /**
   * Left out on purpose: a record or file the harness writes that is not a
   * conversation (a Claude Code cache warm-up sidechain). Counted, not lost.
   */
  | "not_session"
  /**
   * An event longer than the index keeps (lib/prepare.ts MAX_TEXT, MAX_RESULT; a line too
   * long to read whole): its head and tail are searchable, its middle is not. Counted, not
   * lost: the store still holds it, and `deja show --full` shows what the index kept.
   */
  | "cut_long";

/**
 * What a change in a store's format affects (the categories of a drift report,
 * docs/registry/README.md "Reporting drift"):
 * - `discovery`: finding and opening the sessions (moved folders, new file
 *   names, a database whose tables or required columns are not the ones read);
 * - `session_metadata`: session-level facts (id, project, title, parent, model,
 *   a new session field or column);
 * - `roles`: who speaks (a message role or speaker kind not known);
 * - `content`: what was said and done (a record, item, block or part type not
 *   known, a message-level column);
 * - `timestamps`: time fields and their units.
 */
export type DriftKind = "discovery" | "session_metadata" | "roles" | "content" | "timestamps";

/** The runtime world a parser sees; parsers never read the process environment directly. */
export interface Env {
  /** The user's home directory. */
  home: string;
  /** `process.platform` style name: `linux`, `darwin`, `win32`. */
  platform: string;
  /** Reads an environment variable; empty strings read as undefined. */
  get(name: string): string | undefined;
  /** Every variable, to hand to a child process (absent: the process's own). */
  vars?(): Record<string, string | undefined>;
}

/** What discovery found for one harness. */
export interface Discovery {
  /** Directories or files looked at (shown by `deja sources`), whether or not they exist. */
  roots: string[];
  sources: SourceRef[];
  /**
   * Files outside `roots` this discovery reads or looks for (a companion beside
   * a root, the stores a registry file names), whether or not they exist, as
   * {@link DiscoverCtx.rebase} places them: a remote's mirror copies them too
   * (lib/remote/sync.ts), since it copies the roots only.
   */
  wants?: string[];
  /**
   * Directories inside `roots` that stores appear in, stamped by the stat pass
   * (lib/fresh/) whether or not they hold a store now: a store added to or
   * removed from one changes its mtime only, not a root's.
   */
  watch?: string[];
  /**
   * Files this discovery reads to learn where stores are (Crush's
   * `projects.json`, a config naming a state directory), whether or not they
   * exist, stamped by the stat pass (lib/fresh/) like `watch`: an edit made in
   * place changes the file's mtime, not its directory's, and may name a store
   * no stamped directory holds.
   */
  reads?: string[];
  /**
   * Files in the roots left out on purpose because they hold no session, per
   * kind: a phrase saying what they are and why (`deja sources --verbose`).
   */
  notSessions?: Record<string, number>;
}

/** Given to `discover`. */
export interface DiscoverCtx {
  env: Env;
  /** Project directories already known from the index (aider looks for its history there). */
  knownProjects: string[];
  /**
   * Reports a directory or file that exists but could not be read (EACCES and
   * the like); the indexer lists it as an error of the harness. Pass it as
   * `walk`'s `onError`.
   */
  problem?(path: string, error: Error): void;
  /**
   * Where an absolute path read from a store (a project a registry file names)
   * is on this machine: a remote's mirror re-roots the remote's paths under
   * itself (lib/remote/mirror.ts), so a mirror never leads to a local store.
   * Absent: the path as written.
   */
  rebase?(path: string): string;
}

/** Where a parse resumes, and where it tells the indexer it got to. */
export interface ParseCtx {
  env: Env;
  /** Append sources: byte offset to start from (0 = whole file). */
  readonly offset: number;
  /** Parser-owned state saved by the previous pass of this source (e.g. a header's session id). */
  readonly state: unknown;
  /** SQLite sources: the watermark the previous pass returned (parser's own unit); 0 = all. */
  readonly since: number;
  /**
   * SQLite sources read past their watermark: the native ids of the sessions the index holds
   * from this store. A session the store holds that is not among them is read whatever its
   * time (a store put back from an older copy holds sessions older than the watermark that
   * the index lost meanwhile). Absent: the watermark alone decides.
   */
  readonly held?: ReadonlySet<string>;
  /** Records a skipped record; counted per source and shown by `deja sources`. */
  skip(reason: SkipReason, where: string, detail?: string): void;
  /**
   * Notes that the store shows something this parser does not know (a field, a
   * column, a role) *without* skipping anything; counted per source and shown
   * by `deja drift`. A skip of reason `unknown_record` is noted as `content`
   * drift and one of `unknown_schema` as `discovery` drift without this call;
   * call it first, with the same `where`, to file such a skip under another
   * kind.
   *
   * @param where `<path>@<byte offset>` for a JSONL line (`deja drift` re-reads
   *   that one line as the sample), else any locator (`<path>: <table>.<column>`).
   * @param detail what is unknown, the same text for the same change in every
   *   store (`record type foo`, `field bar on session_meta`): notes are grouped
   *   by it.
   * @param sample the smallest JSON value that shows it, when `where` is not a
   *   JSONL line (a column's schema row); it is redacted and cut down before it
   *   is kept.
   */
  drift?(kind: DriftKind, where: string, detail: string, sample?: unknown): void;
  /**
   * Reports the harness version the store says wrote what is read next
   * (Claude Code's `version` on records, Codex's `session_meta.cli_version`,
   * an opencode `session.version`, a Crush store's `schema <goose version>`).
   * Drift noted afterwards carries it; the last one is kept per source.
   */
  version?(version: string): void;
  /**
   * When set, a parser that cuts its chunks by a count of events yields its
   * first chunk after at most this many (a parse worker's first source: the
   * writer, which is busy from its first chunk to the run's end, starts as
   * soon as a few records are read; lib/parse_worker.ts). The chunks after it
   * grow back to the parser's usual size (Claude's family doubles it at each).
   */
  readonly firstChunkEvents?: number;
  /** Append sources: set to the byte just after the last complete line consumed. */
  endOffset?: number;
  /** State to hand to the next pass (JSON-serialisable). */
  endState?: unknown;
  /** SQLite sources: the new watermark. */
  endWatermark?: number;
  /**
   * SQLite sources read past their watermark: the native id of every session
   * the store holds now, read this pass or not. A session the index holds from
   * this store that is not among them was deleted inside it (Crush and
   * opencode delete a session's rows): it goes, as a read of the whole store
   * drops it. Unset, no session goes (a parser that cannot list them).
   */
  endHolds?: string[];
}

/** One harness's format: how to find its stores and read them. */
export interface Parser {
  /** Harness id: `^[a-z][a-z0-9_]*$`, the same in registry.json, fixtures and docs. */
  id: string;
  /** Finds this harness's stores. Must not throw for a missing root. */
  discover(ctx: DiscoverCtx): Promise<Discovery>;
  /**
   * Reads one source. Yields sessions (or chunks of them) in order. Throws only
   * when the whole source cannot be read (the indexer reports it and goes on).
   */
  parse(source: SourceRef, ctx: ParseCtx): AsyncIterable<Session>;
}
