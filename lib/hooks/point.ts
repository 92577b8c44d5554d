/**
 * Point-of-action recall: before a shell command, what earlier runs of the
 * same command in this project went through; before an edit, which earlier
 * sessions changed the same file and why; after a failure, what ran next the
 * last times that error came up and did not bring it back. One short block
 * each (the caller frames and bounds it), or null when there is nothing worth
 * saying.
 *
 * Worth saying: a command when an earlier run failed or the turn after its
 * last run concluded something; a file when an earlier session changed the
 * same absolute path; a failure when
 * a candidate fix succeeded at least once outside the agent's own session.
 *
 * @module
 */
import { isUndated, newerFirst, shownTime, timeRank } from "../session_time.ts";
import type { Store } from "../store.ts";
import type { CommandRunRow } from "../rows.ts";
import { Q } from "../schema.ts";
import { lastSegment } from "../../core/paths.ts";
import { absoluteTarget } from "../memory/paths.ts";
import { movedWords, movesAfter } from "../memory/moves.ts";
import { findFixes, fixRecord, NOT_CHECKED, projectsElsewhere } from "../memory/fix.ts";
import { editChange } from "../memory/fix_edits.ts";
import { outcomeLabel, runError, runFacts, runFailed } from "../memory/outcome.ts";
import { checkedNext, concludes, displayPath, gist, sentences } from "../memory/text.ts";
import { byteLength, commandOneLine, firstLineOf, oneLine, plural } from "../../core/text.ts";
import { fnv64 } from "./state.ts";
import {
  citable,
  type Current,
  day,
  fitLines,
  likeEscape,
  problemAfter,
  projectSessions,
  type Said,
  shortId,
  stripControls,
} from "./_util.ts";

/** Commands that only look around: never worth a note. */
const LOOKING = new Set(
  ("ls ll la cat less more head tail pwd echo printf which whereis type file stat wc du df " +
    "find fd tree ps top env printenv whoami id date true false clear history man grep rg ag " +
    "sed awk jq sort uniq cut tr diff basename dirname realpath readlink sleep cd").split(" "),
);
const GIT_LOOKING = new Set(
  ("status diff log show branch remote blame reflog describe rev-parse ls-files ls-tree " +
    "shortlog grep config").split(" "),
);

/** A shell command as compared across sessions: white space collapsed, a leading `cd <dir> &&` dropped. */
export function normalCommand(command: string): string {
  let c = command.replace(/\s+/g, " ").trim();
  for (let i = 0; i < 3; i++) {
    const m = /^cd\s+(?:"[^"]*"|'[^']*'|[^\s;&|]+)\s*(?:&&|;)\s*(.+)$/.exec(c);
    if (!m) break;
    c = m[1];
  }
  return c;
}

/** True for commands that only inspect (ls, cat, git status…): no note for those. */
export function onlyLooks(command: string): boolean {
  const words = normalCommand(command).split(" ");
  const first = (words[0] ?? "").replace(/^.*\//, "");
  if (!first || LOOKING.has(first)) return true;
  if (first === "git") {
    return GIT_LOOKING.has(words.find((w, i) => i > 0 && !w.startsWith("-")) ?? "");
  }
  return false;
}

/** The first concluding sentence said after event `seq`, before the next user turn or call. */
function concludedAfter(store: Store, sid: number, seq: number): string | null {
  const win = Q.eventsBetween.all(store, { session: sid, from: seq + 1, to: seq + 40 });
  for (const e of win) {
    // Up to the next request or the next call: what follows another call is about that one.
    if (e.kind === "user" || e.kind === "tool_call") break;
    if (e.kind !== "assistant" || !e.text.trim()) continue;
    // Not a guess the reply then set out to check (trial 55: "the pod was restarted
    // recently, which explains why it's going down. Let me check the logs").
    const s = sentences(e.text).find((x) => concludes(x) && !checkedNext(x, e.text));
    if (s) return oneLine(stripControls(s), 200);
  }
  return null;
}

/** What earlier runs of `command` in the project of `dir` went through. */
export function commandNote(
  store: Store,
  command: string,
  dir: string,
  current: Current,
): Said | null {
  const norm = normalCommand(command);
  if (!norm || norm.length > 2000 || onlyLooks(norm)) return null;
  const project = projectSessions(store, dir, 1, current.home)?.project;
  if (!project) return null;
  // The command's longest word narrows the scan (one instr per row); the text decides.
  const longest = norm.split(" ").reduce((a, b) => (b.length > a.length ? b : a), "");
  const like = likeEscape(project) + "%";
  const rows = Q.commandsHolding.all(store, { text: longest, project: like }).filter((r) =>
    citable(current, r.session_id) && normalCommand(r.command) === norm
  );
  if (!rows.length) return null;
  // Oldest first, an undated session's time below every dated one: the last is the latest dated run.
  rows.sort((a, b) => newerFirst(timeRank(b.time, isUndated(b)), timeRank(a.time, isUndated(a))));
  const sessions = new Set(rows.map((r) => r.session_id));
  const failed = rows.filter((r) => runFailed(runFacts(r))).length;
  const last = rows[rows.length - 1];
  const runs = Q.commandsInOrder.all(store, { session: last.session_id });
  const lastRun = runs.filter((r) => normalCommand(r.command) === norm).at(-1);
  const after = lastRun ? concludedAfter(store, last.session_id, lastRun.seq) : null;
  if (!failed && !after) return null;
  const status = outcomeLabel(runFacts(last));
  const fails = failed ? `; ${failed} of ${plural(rows.length, "run")} failed` : "";
  // What the last failed run printed as its error (trial 75: `kustomize` not installed, said
  // as "exit 127" alone).
  const lastFailed = rows.findLast((r) => runFailed(runFacts(r)));
  const cause = lastFailed && causeOf(store, lastFailed);
  const text = `\`${oneLine(norm, 120)}\` ran in ${plural(sessions.size, "earlier session")} ` +
    // `failed by its output (exit 0)` is not put in parentheses again (trial 75 F9).
    `here, last ${day(last.time)}${
      status.includes("(") ? `: ${status}` : ` (${status})`
    }${fails}.` +
    (cause ? ` It failed with: ${oneLine(cause, 160)}` : "") + (after ? ` After it: ${after}` : "");
  return { text, keys: [`cmd:${fnv64(norm)}`] };
}

/**
 * The note for a file whose earlier changes all failed (trial 75: `frontend-deployment.yaml`,
 * whose edit and write failed on "you must read the file before editing it" and "modified
 * since it was last read", got no note): the newest failure's session and what it said.
 */
function failedNote(
  store: Store,
  target: string,
  /** `target`'s spellings ({@link spellings}). */
  paths: string[],
  dir: string,
  current: Current,
  home?: string,
): Said | null {
  const fails = paths.flatMap((p) => Q.failedChangesAt.all(store, { path: p }))
    .filter((t) => citable(current, t.session_id));
  const ids = [...new Set(fails.map((t) => t.session_id))];
  if (!ids.length) return null;
  const rows = Q.sessionsByIds.all(store, { ids: JSON.stringify(ids) })
    .filter((s) => s.native_id !== current.id);
  const ok = new Map(rows.map((s) => [s.id, s]));
  const newest = fails.filter((t) => ok.has(t.session_id))
    .sort((a, b) => newerFirst(a.time ?? 0, b.time ?? 0) || b.seq - a.seq)[0];
  if (!newest) return null;
  const s = ok.get(newest.session_id)!;
  const said = newest.call_id
    ? Q.resultText.get(store, { session: s.id, call: newest.call_id })?.text
    : undefined;
  const why = firstLineOf(said);
  const project = projectSessions(store, dir, 1, home)?.project;
  const shown = displayPath(target, project, home);
  const text =
    `Changes of \`${oneLine(shown, 120)}\` failed in ${plural(ok.size, "earlier session")} (last ${
      day(newest.time ?? s.updated)
    }, ${s.harness} ${shortId(store, s.harness, s.native_id)})` +
    (why ? `: ${oneLine(stripControls(why), 200)}` : ".");
  return { text, keys: [`file:${target}`] };
}

/**
 * `path` and, for a Windows path, its other spellings: either separator, either drive case,
 * and any the index holds of the same file whatever its separators and letter case (trial 85:
 * a harness wrote `…\\!/VAULT-CONVENTIONS.md`, a path typed lower-cased was missed): those
 * only when `wide`, a scan of the file rows by name, asked only when the others found nothing.
 */
function spellings(store: Store, path: string, wide = true): string[] {
  const m = /^([A-Za-z]):[\\/]/.exec(path);
  if (!m) return [path];
  const rest = path.slice(2);
  const out = new Set<string>([path]);
  for (const d of [m[1].toUpperCase(), m[1].toLowerCase()]) {
    out.add(`${d}:${rest.replaceAll("/", "\\")}`);
    out.add(`${d}:${rest.replaceAll("\\", "/")}`);
  }
  if (!wide) return [...out];
  const folded = (p: string) => p.replaceAll("\\", "/").toLowerCase();
  const name = lastSegment(path);
  const like = `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}`;
  for (const r of Q.filePathsLike.all(store, { like })) {
    if (folded(r.path) === folded(path)) out.add(r.path);
  }
  return [...out];
}

/** The line a failed run's output says what went wrong with ({@link runError}). */
function causeOf(store: Store, r: CommandRunRow): string | null {
  return runError(
    runFacts(r),
    r.call_id,
    (call) => Q.resultText.get(store, { session: r.session_id, call })?.text,
  );
}

/**
 * The gist of the assistant turn just before event `seq` (within its user turn), else just
 * after, named as such: "Before it:" or "After it:" (trial 48 read "Then: the file creation
 * failed" of a sentence said before a write that succeeded). A reply after it is read with
 * what refutes it (trial 75 F2): the changes of that turn that failed, and the user's next
 * message when it reports a problem ("does not work").
 */
function reasonAround(store: Store, sid: number, seq: number): string | null {
  const win = Q.eventsBetween.all(store, { session: sid, from: seq - 40, to: seq + 40 });
  let before: string | null = null;
  let turnStart = Math.max(0, seq - 40);
  for (const e of win) {
    if (e.seq < seq) {
      if (e.kind === "user") [before, turnStart] = [null, e.seq];
      else if (e.kind === "assistant" && e.text.trim()) before = e.text;
    } else if (e.seq > seq) {
      if (before || e.kind === "user") break;
      if (e.kind === "assistant" && e.text.trim()) return afterIt(store, sid, turnStart, e);
    }
  }
  return before ? `Before it: ${gist(stripControls(before))}` : null;
}

/** "After it:" and the reply's gist, with what refutes it ({@link reasonAround}). */
function afterIt(
  store: Store,
  sid: number,
  turnStart: number,
  reply: { seq: number; text: string },
): string {
  const failed = Q.failedChangesIn.all(store, { session: sid, from: turnStart, to: reply.seq })
    .map((f) => `\`${oneLine(lastSegment(f.path), 60)}\``);
  // Said before the reply's gist, which the hook's budget may cut.
  const yet = failed.length
    ? `, though changes of ${plural(failed.length, "file")} in that turn had failed (${
      failed.slice(0, 3).join(", ")
    }${failed.length > 3 ? ", …" : ""})`
    : "";
  const next = problemAfter(store, sid, reply.seq, 120);
  return `After it${yet}: ${gist(stripControls(reply.text))}` +
    (next ? ` The user's next message: “${next}”` : "");
}

/**
 * Which earlier sessions changed the file `path` names (the same absolute
 * path: an indexed lookup, so a common file name costs nothing), and the
 * reason given around the newest change.
 */
export function fileNote(
  store: Store,
  path: string,
  dir: string,
  current: Current,
  home?: string,
): Said | null {
  const target = absoluteTarget(path, dir);
  // A Windows path as any harness spells it: `C:\x`, `c:\x`, `C:/x` (trial 75: Claude Code
  // wrote `C:\` and `c:\`, Crush `C:/` on one machine; the note fired for one spelling only).
  const changesOf = (paths: string[]) =>
    paths.flatMap((p) => Q.fileChangesAt.all(store, { path: p }))
      .filter((t) => citable(current, t.session_id));
  let paths = spellings(store, target, false);
  let changes = changesOf(paths);
  if (!changes.length && /^[A-Za-z]:/.test(target)) {
    changes = changesOf(paths = spellings(store, target));
  }
  if (!changes.length) return failedNote(store, target, paths, dir, current, home);
  const ids = [...new Set(changes.map((t) => t.session_id))];
  const rows = Q.sessionsByIds.all(store, { ids: JSON.stringify(ids) });
  const ok = new Map(rows.filter((s) => s.native_id !== current.id).map((s) => [s.id, s]));
  // The newest change by its own time, else its session's dated one; an undated one's last.
  const rank = (t: (typeof changes)[number]) => {
    const s = ok.get(t.session_id)!;
    return t.time !== null ? t.time : timeRank(shownTime(s), isUndated(s));
  };
  const newest = changes.filter((t) => ok.has(t.session_id))
    .sort((a, b) => newerFirst(rank(a), rank(b)) || b.seq - a.seq)[0];
  if (!newest) return null;
  const s = ok.get(newest.session_id)!;
  const why = reasonAround(store, s.id, newest.seq);
  const project = projectSessions(store, dir, 1, home)?.project;
  const shown = displayPath(target, project, home);
  // That session removed or moved it after (trial 49: `deja blame` said so, this note did not).
  const lastSeq = Math.max(...changes.filter((t) => t.session_id === s.id).map((t) => t.seq));
  const later = movesAfter(store, s.id, s.project, new Map([[target, lastSeq]])).get(target);
  const fate = later?.removed
    ? " It removed the file later."
    : later?.moved_to
    ? ` It moved the file later ${oneLine(movedWords(later), 120)}.`
    : "";
  const text = `\`${oneLine(shown, 120)}\` was changed in ${plural(ok.size, "earlier session")}` +
    ` (last ${day(newest.time ?? s.updated)}, ${s.harness} ${
      shortId(store, s.harness, s.native_id)
    }).${fate}` +
    (why ? ` ${why}` : "") + ` (deja blame ${oneLine(shown, 80)} for more)`;
  return { text, keys: [`file:${target}`] };
}

/** What ran next the last times the error in `output` came up, where it did not come back. */
export function fixNote(
  store: Store,
  output: string,
  current: Current,
  seen: Set<string>,
  budget: number,
  dir?: string,
): Said | null {
  const text = output.length > 16_384
    ? output.slice(0, 2048) + "\n" + output.slice(-14_000)
    : output;
  // Every caller's output is a failed command's (lib/hooks/run.ts failureText, Crush's failure).
  const res = findFixes(store, text, { limit: 4, hidden: current.hidden, failed: true });
  // Another error of its kind (another module missing) is not "this error came up before".
  if (res.status !== "found" || res.generalOnly) return null;
  const key = `fix:${fnv64(res.signatures.join("|"))}`;
  if (seen.has(key)) return null;
  // A run that followed only the error's general form, where the error names something
  // (a file, a module), is no fix of this one: `deja fix` says so beside it; the hook, which
  // cannot, leaves it out (trial 27: a `mv` of another project offered for "File not found").
  // Where the sessions holding every name found no fix, one holding some of them (the file,
  // not the line number: trial 66, a newer session that hit `WinSetup.psm1:148` and stopped
  // silenced the fix of `WinSetup.psm1`) is offered still.
  const usable = res.fixes.filter((f) =>
    f.succeeded + f.unknown + f.gone > 0 && f.examples.some((e) => citable(current, e.sessionRowId))
  );
  const fixes =
    (!res.specific
      ? usable
      : usable.some((f) => f.specific)
      ? usable.filter((f) => f.specific)
      : usable.filter((f) => f.partly)).slice(0, 2);
  if (!fixes.length) return null;
  // A fix from another project says which (trial 62: a Windows `pwsh` run offered in a k3s
  // project as if it were its own).
  const here = dir === undefined
    ? undefined
    : projectSessions(store, dir, 1, current.home)?.project ?? dir;
  const away = projectsElsewhere(
    store,
    fixes.flatMap((f) => f.examples.slice(0, 1).map((e) => e.sessionRowId)),
    here,
  );
  const lines = [
    `This error came up before (${
      plural(res.seen, "session")
    }). What ran next and did not bring it back:`,
  ];
  for (const f of fixes) {
    const ex = f.examples[0];
    const other = ex && away.get(ex.sessionRowId);
    // What was edited before it ran is the fix of a re-run (trial 16: "run it again" alone),
    // said first: the edit, then the run that passed (trial 38: "after X failed once Y was
    // edited" read as if the edit had made it fail).
    // trial 105 F4: a fix that is the change before a re-run says the change (the replaced
    // words and their replacement, short), then the re-run (`rerun`; `command` is the edit).
    const first = f.edits?.[0] ? editChange(f.edits[0], 40) : "";
    const more = (f.edits?.length ?? 0) - 1;
    const change = first && more > 0 ? `${first}, ${plural(more, "more change")}` : first;
    const edited = ex?.edited.length
      ? `edit ${ex.edited.slice(0, 2).map(lastSegment).join(", ")}${change ? ` (${change})` : ""}${
        ex.edited.length > 2 ? ` and ${ex.edited.length - 2} more` : ""
      }${f.ranNext !== undefined ? "" : ", then run "}`
      : "";
    // trial 106 F4: another command that ran after the change is no check of it: said after.
    const line = (width: number) =>
      `- ${
        f.ranNext !== undefined && edited
          ? `${edited} (${plural(f.sessions, "session")}; then ran \`${
            oneLine(commandOneLine(f.ranNext), Math.min(60, width))
          }\`, no re-run`
          : `${edited}\`${oneLine(commandOneLine(f.rerun ?? f.command), width)}\` (${
            plural(f.sessions, "session")
          }, ${fixRecord(f)}`
      }${f.checked ? "" : `, ${NOT_CHECKED}`}, last ${day(f.last)}${
        ex ? `; after \`${oneLine(normalCommand(ex.failed), Math.min(80, width))}\` failed` : ""
      }${other ? `; in another project, ${oneLine(other, Math.min(80, width))}` : ""})`;
    // Long commands are cut shorter rather than the line left out (a caveat in full, trial 48).
    const room = budget - byteLength(lines.join("\n")) - 1;
    const full = line(120);
    lines.push(
      byteLength(full) <= room ? full : line(Math.max(40, 120 - (byteLength(full) - room))),
    );
  }
  const body = fitLines(lines, budget);
  return body.includes("\n") ? { text: stripControls(body), keys: [key] } : null;
}
