/**
 * `fix`: what ran after the same error before, in sessions where it did not
 * come back.
 *
 * Method: the error lines of the pasted text become signatures
 * (signature.ts). Tool results holding them are found through the full-text
 * index and checked line by line (terminal colour codes ignored, a JSON string
 * decoded); a line that is the error itself is preferred: when some hold it so,
 * those holding it only inside a longer, different error are left out (`file
 * not found` in `"yq": executable file not found`). A hit counts when its call
 * is a command that did not succeed: it failed (outcome.ts), or the store
 * records no status for it — its output holding an error line is the evidence
 * then (Crush and Claude Code record no status for a run that went well) — or
 * a file action (read, edit, write) whose result was an error (fix_actions.ts).
 * In each such session the last failing occurrence is taken (the last holding
 * the error's specific names, when one does); when no later result holds the
 * error again and something ran after it, the candidate fix is what followed
 * (fix_actions.ts `followed`): after a command, the next command, or, when that
 * one failed too, the first later run of the failing command that did not fail
 * (a re-run after an edit: the files changed in between are the fix); after a
 * file action, the next command or file action (a view of the right path). A
 * candidate that failed every time it ran, or never finished (a call with no
 * result: the session ended on it), is dropped (it fixed nothing). Candidates are ranked by
 * the number of sessions, then by how often they succeeded (exit 0), then by
 * how often they ran with no status (`exit unknown`, counted apart: neither a
 * success nor a failure), then by recency.
 *
 * @module
 */
import { datedFirst, hasFileTime, isUndated, newerFirst, timeRank } from "../session_time.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { sameProject } from "../project_path.ts";
import type { SessionRow } from "../rows.ts";
import { tokens } from "../query.ts";
import {
  codeSignatures,
  errorSignatures,
  leavesOut,
  LEFT_OUT,
  lineSignatures,
  linesWithin,
  otherKind,
  passingRun,
  quotedNames,
  reworded,
  specificNames,
  tally,
} from "./signature.ts";
import { oneLine } from "../../core/text.ts";
import { adapt, type Adapted } from "./fix_adapt.ts";
import {
  formOf,
  generalForm,
  type Hit,
  hits,
  holdsAll,
  holdsName,
  holdsNames,
  REPORTED,
  unseen,
} from "./fix_hits.ts";
import {
  aboutFailure,
  type Action,
  actionsOf,
  type Followed,
  followed,
  inputChange,
  looksOnly,
  sameRun,
} from "./fix_actions.ts";
import { editsBetween, type FixEdit } from "./fix_edits.ts";
import { replayedIn } from "../replays.ts";
import { shortRef } from "../sessions.ts";
import { isEnglish } from "../search/english.ts";
import { countsAsHidden } from "../search/sessions.ts";

/** One time a candidate followed the error. */
export interface FixExample {
  harness: string;
  /** Native id of the session. */
  session: string;
  sessionRowId: number;
  /** Epoch ms of the command that followed, when known. */
  time: number | null;
  /** The command (or `<op> <path>` file action) that failed with the error. */
  failed: string;
  /**
   * Commands run after the error (after a failed file action: file actions too), the candidate
   * first (at most 3).
   */
  then: string[];
  /** Files edited or written between the failure and the candidate. */
  edited: string[];
  /** Those changes, each short (fix_edits.ts), at most 5. */
  edits: FixEdit[];
}

/** A command that followed the error where the error did not come back. */
/** What a fix not checked is told with: the command that failed never ran again after it. */
export const NOT_CHECKED = "not checked: what failed never ran again after it";

export interface FixCandidate {
  /**
   * The command, white space collapsed; for a file action `<op> <path>` (`read /w/app/x.ts`),
   * and so for the change of a file a re-run showed to be the fix (`edit /w/k8s/deploy.yaml`,
   * {@link rerun}).
   */
  command: string;
  /**
   * `command`, or the file action that followed a failed one (`read`, `edit`, `write`), or
   * `edit`/`write` for the change before a passing re-run ({@link rerun}).
   */
  action: Action["kind"];
  /** The file a file action acted on (the first one changed before a {@link rerun}); null for a command. */
  path: string | null;
  /**
   * The failing command run again after files changed, when that re-run is what showed the
   * fix: the fix is then the change ({@link edits}, `action` `edit` or `write`), and this the
   * command to run after making it. Absent otherwise. Trial 105 F4: the re-run was offered as
   * the fix, the edit only a sub-line; an agent taking it ran the failing command again.
   */
  rerun?: string;
  /**
   * Another command that ran after files changed, when the change is the fix and that command
   * no re-run of what failed: the fix is the change ({@link edits}, `action` `edit` or
   * `write`), and this only what ran next, which showed nothing of it. Its runs are what
   * {@link succeeded} and {@link unknown} count. Absent otherwise. Trial 107 F4: `npm run lint`
   * after an edit was offered as the fix of a failing test.
   */
  ranNext?: string;
  /** With {@link rerun} or {@link ranNext}: the changes before it in the newest example (fix_edits.ts). */
  edits?: FixEdit[];
  /** Sessions where it followed the error and the error did not recur. */
  sessions: number;
  /** How many of those runs went well (outcome.ts `ok`: exit 0). */
  succeeded: number;
  /**
   * How many of those runs ran with an outcome unknown (outcome.ts `unknown`: no status and no
   * failure in the output); a call with no result at all counts in neither.
   */
  unknown: number;
  /**
   * How many of those runs were the failing command run again after files changed, failing on
   * another error: this one did not come back (fix_actions.ts `Followed.gone`).
   */
  gone: number;
  /** True when it is the failing command run again (after `edited` changed). */
  retry: boolean;
  /**
   * The failed file action again on the same file with other input, what differed
   * (fix_actions.ts `inputChange`: `limit: 20`); then {@link retry} is false.
   */
  changed?: string;
  /**
   * In some session, what failed ran again after it and did not fail (fix_actions.ts
   * `Followed.checked`): ranked before fixes nothing checked.
   */
  checked: boolean;
  /** Epoch ms of the latest time it followed the error (the session's time when the run has none). */
  last: number | null;
  /** True when `last` is the session's store file's mtime (neither the run nor its session records a time). */
  timeFromFile: boolean;
  /** True when `last` is an undated session's (a shared file's mtime, lib/session_time.ts): ranked below dated ones. */
  undated: boolean;
  /** Up to 3 examples, newest first. */
  examples: FixExample[];
  /** It followed the error in a session holding the error's specific `names` (ranked first). */
  specific: boolean;
  /**
   * It followed the error in a session holding some of those names, not all (the file an
   * error names, not the line number it gives: `WinSetup.psm1` but not `WinSetup.psm1:148`).
   */
  partly?: boolean;
  /**
   * `command` with the name its error quoted put in place of the pasted error's own, when they
   * differ and the command names it (`npm install express` for `'express'` ->
   * `npm install left-pad` for `'left-pad'`): what to run here. Absent otherwise.
   */
  adapted?: Adapted;
  /**
   * The names the error it followed quoted, when it followed the error with other names than
   * the pasted one's (`['cv2']` for `'sklearn'`); absent when it followed the pasted names.
   */
  otherNames?: string[];
}

/** The answer of {@link findFixes}. */
export interface FixResult {
  /**
   * `found`: candidates below; `no_fix`: the error was seen but came back or
   * nothing ran after it; `unseen`: no failing command's output held it;
   * `not_error`: the text has no line that reports an error.
   */
  status: "found" | "no_fix" | "unseen" | "not_error";
  /** One sentence saying the answer, negative answers included. */
  message: string;
  /**
   * True when the error was found only with its own names left out (`Cannot find module`
   * of `Cannot find module 'left-pad'`): another error of its kind, not this one.
   */
  generalOnly?: boolean;
  /**
   * The line `message` quotes as the form a session holds the error in (`, but only in its
   * general form '…'`): recorded text, which a model is handed inside the recall frame
   * (lib/mcp/answers.ts, trial 109 F1); absent when the message quotes none.
   */
  heldForm?: string;
  /** Signatures looked for (one per error line). */
  signatures: string[];
  /**
   * The signatures shown to a person or a model: joined by ` | `, followed by what they
   * leave out when the text held a path, a file name or a number (signature.ts).
   */
  lookedFor: string;
  /** Sessions where a failing command's output held the error. */
  seen: number;
  /**
   * Sessions holding the error that `hidden` left out as throwaway or excluded
   * projects (lib/search/sessions.ts `countsAsHidden`: not those a `--from` or
   * a remote's policy leaves out), for the "--junk shows them" hint.
   */
  hidden: number;
  /** Those sessions, newest first (at most 5), each with its shortest reference (`ref`). */
  seenIn: SeenSession[];
  /** Best first, at most `limit`. */
  fixes: FixCandidate[];
  /**
   * The specific names of the pasted error (signature.ts `specificNames`: quoted words, file
   * names), which the signatures leave out or blur; empty when it holds none.
   */
  names: string[];
  /**
   * Whether the sessions named (`seenIn`, else `mentioned`) hold those names: true when one
   * does, false when they only hold the error's general form, null when there are no names
   * or no sessions. Sessions holding the names are ranked first.
   */
  specific: boolean | null;
  /**
   * `unseen` only: sessions whose events hold the error all the same (pasted into a prompt,
   * quoted, output of a command that did not fail, or reported by the harness in a notice: a
   * provider's error), newest first, at most 5.
   */
  mentioned?: Array<
    {
      harness: string;
      session: string;
      sessionRowId: number;
      title: string | null;
      /** Its matching events hold every one of `names` (true when there are none). */
      specific: boolean;
    }
  >;
}

/** A session that held the error, named so `deja show`/`deja ctx` can open it. */
export interface SeenSession {
  harness: string;
  /** Native id of the session. */
  session: string;
  sessionRowId: number;
  /** Shortest unique prefix of the id (lib/sessions.ts `shortRef`). */
  ref: string;
  /** Its matching events hold every one of the error's `names` (true when there are none). */
  specific: boolean;
}

/**
 * `n sessions`, naming the first of `list` (`1 session (a1b2c3d4)`, `3 sessions, latest
 * a1b2c3d4`); when only some of the `n` hold the error's `names`, the first is one of those,
 * ranked first, and said so (`5 sessions, dc3d92ac with 'image-repository.yaml'`), not called
 * the latest.
 */
function seenPhrase(n: number, list: SeenSession[], names: string[], specific: number): string {
  if (n === 1) return `1 session${list[0] ? ` (${list[0].ref})` : ""}`;
  if (!list[0]) return `${n} sessions`;
  if (specific > 0 && specific < n) {
    return `${n} sessions, ${list[0].ref} with ${
      names.slice(0, 3).map((x) => `'${oneLine(x, 60)}'`).join(", ")
    }`;
  }
  return `${n} sessions, latest ${list[0].ref}`;
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * True when `a` is a change (an edit or write that did not fail) about what failed: of a file
 * the failure named or acted on (`aboutFailure`), or whose recorded input holds a name the
 * error gives (`quux_total` of `assert quux_total(2) == 4` in the edit of calc.py).
 */
function changeAbout(a: Action, failed: Action, names: readonly string[]): boolean {
  if ((a.kind !== "edit" && a.kind !== "write") || a.failed) return false;
  if (aboutFailure(a, failed, names)) return true;
  const input = a.input?.toLowerCase();
  return !!input && names.some((n) => n.length > 3 && input.includes(n.toLowerCase()));
}

/**
 * What ran next failed too (another error: a lint run, a probe), and nothing ran the failed
 * command again: a change made later of what the failure was about (a file it named or acted
 * on, `aboutFailure`), before the person's next request, then a command that did not fail, is
 * the fix: that command as what ran next, the change before it its lead (`ranNext`). Trial
 * 107 F3, trial 108 F3 (a real Crush session): `Import-Module WinSetup.psm1` failed with a
 * ParserError, a lint run and a probe failed on other errors, `$Name:` was edited to
 * `$($Name):` in WinSetup.psm1, and Pester passed; `fix` said nothing that followed fixed it.
 * Null when there is no such change, or no command went well after it.
 */
function changedLater(
  acts: Action[],
  failed: Action,
  at: number,
  asked: number | undefined,
  names: readonly string[],
): Followed | null {
  if (failed.kind !== "command") return null;
  const before = (a: Action) => a.seq > at && a.seq < (asked ?? Infinity);
  const change = acts.find((a) => before(a) && changeAbout(a, failed, names));
  if (!change) return null;
  const i = acts.findIndex((a) =>
    a.seq > change.seq && before(a) && a.kind === "command" && !a.failed && !a.noResult &&
    !a.background && !looksOnly(a.text)
  );
  if (i < 0) return null;
  return { next: acts[i], then: acts.slice(i, i + 3), checked: false };
}

/**
 * A candidate that is the failing command run again after files changed ({@link
 * FixCandidate.rerun}) told as the change, the newest example's: `edit <path>` with its
 * {@link FixCandidate.edits}, the re-run kept in `rerun` (trial 105 F4); one that is another
 * command run after files changed, the same, that command kept in `ranNext` (trial 106 F4).
 * Others as they are.
 */
function asEdit(c: FixCandidate): FixCandidate {
  if (c.rerun === undefined && c.ranNext === undefined) return c;
  const ex = [...c.examples].sort((a, b) => (b.time ?? 0) - (a.time ?? 0))[0];
  const first = ex?.edits[0];
  if (!first) return c;
  return {
    ...c,
    command: `${first.op} ${first.path}`,
    action: first.op,
    path: first.path,
    ...(c.rerun !== undefined ? { rerun: c.command } : { ranNext: c.command }),
    edits: ex.edits,
  };
}

/**
 * Candidates shown as the same command merged into one (trial 17: `pip install pyyaml`, run
 * for `'yaml'` and adapted from the fix of `'requests'`, was listed twice as "1 session"):
 * their counts added, the first's wording kept, a command that ran as shown before one
 * adapted to it.
 */
function mergeShown(list: FixCandidate[]): FixCandidate[] {
  const by = new Map<string, FixCandidate>();
  // (A change another command followed apart from the same change a re-run checked: their
  // counts are of different runs.)
  const shown = (c: FixCandidate) =>
    (c.ranNext !== undefined ? "next\0" : "") + norm(c.adapted?.command ?? c.command);
  for (const c of [...list].sort((a, b) => Number(!!a.adapted) - Number(!!b.adapted))) {
    const into = by.get(shown(c));
    if (!into) {
      by.set(shown(c), c);
      continue;
    }
    into.sessions += c.sessions;
    into.succeeded += c.succeeded;
    into.unknown += c.unknown;
    into.gone += c.gone;
    into.specific ||= c.specific;
    into.checked ||= c.checked;
    into.examples.push(...c.examples);
    if (timeRank(c.last, c.undated) > timeRank(into.last, into.undated)) {
      [into.last, into.undated, into.timeFromFile] = [c.last, c.undated, c.timeFromFile];
    }
  }
  return [...by.values()];
}

/**
 * Looks up what followed the error in `errorText` (see the module's method).
 *
 * @param limit candidates returned at most (default 3).
 * @param hidden session row ids left out (the CLI's and MCP's default: throwaway and excluded
 *   projects, lib/search/sessions.ts `defaultHidden`; a hook's policy: remotes under
 *   `--no-auto`); those holding the error are counted in `hidden`.
 * @param mentions when no failing command's output holds the error, look for the sessions
 *   that hold it as text all the same (`mentioned`; one more full-text pass, left to
 *   commands a person or an agent asked, not to hooks).
 * @param failed `errorText` is what a command that failed printed (a hook's tool output):
 *   its lines are the error by the command's word when none reports one, as when asked
 *   (trial 20: `ZORB-E42: quux linker exploded at stage 3` after `Exit code 1` was answered
 *   by `deja fix` and never by the tool hook).
 */
export function findFixes(
  store: Store,
  errorText: string,
  opts: { limit?: number; hidden?: ReadonlySet<number>; mentions?: boolean; failed?: boolean } = {},
): FixResult {
  errorText = linesWithin(errorText);
  const codes = codeSignatures(errorText);
  // A bare code (`deja fix ERESOLVE`) is looked for as its code.
  const own = errorSignatures(errorText);
  let signatures = own.length ? own : codes;
  // Asked (`mentions`: a person or an agent), a text whose lines name no error
  // (`Read-only file system`, `No module named 'yaml'`, trial 9) is the error by their word
  // when a failed command's output holds its lines; else it is said to name none.
  let askedHits: Hit[] | undefined;
  // A passing run's output names no error, whatever lines it shares with a failing one.
  const passing = !signatures.length && passingRun(errorText);
  if (!signatures.length && !passing && (opts.mentions || opts.failed)) {
    const asked = lineSignatures(errorText).slice(0, 5);
    const found = asked.length ? hits(store, asked) : [];
    if (found.length) [signatures, askedHits] = [asked, found];
  }
  const names = specificNames(errorText);
  // A line quoting a name of another kind is another error in the same words: a missing
  // file (`Cannot find module '/w/app/server.js'`) is no missing package (`'express'`, trial 14).
  const mine = quotedNames(errorText);
  let otherKinds = 0;
  const fit = (hs: Hit[]) => hs.filter((h) => !otherKind(mine, h.quoted) || (otherKinds++, false));
  let lookedFor = signatures.join(" | ") +
    (signatures.length && leavesOut(errorText) ? ` (${LEFT_OUT})` : "");
  // No line names an error, yet the harness reported it as one (trial 93 F6: "Prompt is too
  // long", "Your organization must be verified to generate reasoning summaries" were "no
  // error", though `deja search` found them as the harness's notices).
  if (!signatures.length && !passing && opts.mentions) {
    const lines = lineSignatures(errorText).slice(0, 5);
    const r = lines.length
      ? unseen(store, lines, names, opts.hidden, new Set(), mine, "", REPORTED)
      : undefined;
    if (r?.mentioned?.length) return { ...r, lookedFor: lines.join(" | "), hidden: 0 };
  }
  if (!signatures.length) {
    return {
      hidden: 0,
      status: "not_error",
      message: passing
        ? "that reads as a passing test run (its tally says nothing failed): no error to fix"
        : errorText.split(/\r?\n/).some(tally)
        ? "a test run's tally (`Passed: 1 Failed: 3`) names no error: give the lines of the " +
          "failing test's output (its assertion or exception)"
        : "no line of that text reports an error (nothing like 'error', 'not found', " +
          "'failed', 'denied', 'KeyError:' with a specific message)",
      signatures,
      lookedFor,
      seen: 0,
      seenIn: [],
      fixes: [],
      names,
      specific: null,
    };
  }
  const bySession = new Map<number, Hit[]>();
  const left = new Set<number>();
  let seenHits = fit(askedHits ?? hits(store, signatures));
  // No line's own signature seen: its error codes, which outlive a tool's wording.
  const extra = codes.filter((c) => !signatures.includes(c));
  let viaCode = "";
  if (!seenHits.length && extra.length) {
    seenHits = fit(hits(store, extra));
    if (seenHits.length) {
      lookedFor += `; then its code: ${extra.join(" | ")}`;
      const named = extra.map((c) => c.slice("code ".length).toUpperCase()).join(", ");
      viaCode = ` (by its code ${named}: the wording differs)`;
    }
  }
  // Nor its code: the error with its own names left out (`Cannot find module 'left-pad'` ->
  // `Cannot find module`), as another session met it (trial 13: the fix of `'express'`
  // was "never seen" for `'left-pad'`). Its sessions hold only the general form, and say so.
  let generalOnly = false;
  if (!seenHits.length && names.length) {
    const named = new Set(names.flatMap((n) => tokens(n)));
    // A program's prefix before the message (`exec: "kubectl": …`, Go's form) is left out too:
    // the same error printed by another program lacks it (trial 98 F4: `"kustomize":
    // executable file not found`, exit 127, was "no command failed with that error").
    const prefixes = new Set(
      errorText.split(/\r?\n/).map((l) => /^\s*([a-z]+):\s/i.exec(l)?.[1]?.toLowerCase())
        .filter((p): p is string => !!p),
    );
    const general = [
      ...new Set(
        signatures.flatMap((sig) => {
          const g = sig.split(" ").filter((w) => !named.has(w));
          return prefixes.has(g[0]) ? [g.join(" "), g.slice(1).join(" ")] : [g.join(" ")];
        }).filter((g) => g.split(" ").length >= 2 && !signatures.includes(g)),
      ),
    ];
    if (general.length) seenHits = fit(hits(store, general));
    if (seenHits.length) {
      lookedFor += `; then without its names: ${general.join(" | ")}`;
      generalOnly = true;
    }
  }
  if (otherKinds) {
    lookedFor +=
      `; lines quoting ${mine[0].path ? "a bare name, not a path," : "a path, not a name,"}` +
      " left out";
  }
  for (const h of seenHits) {
    if (opts.hidden?.has(h.sessionId)) {
      if (countsAsHidden(opts.hidden, h.sessionId)) left.add(h.sessionId);
      continue;
    }
    bySession.set(h.sessionId, [...(bySession.get(h.sessionId) ?? []), h]);
  }
  // The error's own words no dictionary holds (`quuxfeed`, `kustomize`): what it is about. Read
  // only where a next step nothing checked is weighed (the dictionary is split on first use, a
  // cost every failure hook would pay).
  let rareWords: string[] | undefined;
  const rare = () =>
    rareWords ??= [...new Set(signatures.flatMap((g) => g.split(" ")))]
      // (Four letters or more, as the dictionary holds them: `get` of `Get-Content : …` is no
      // name, trial 100 F3; a short name the error quotes is among its names.)
      .filter((w) => w.length > 3 && /\p{L}/u.test(w) && !isEnglish(w));
  const found = new Map<string, FixCandidate>();
  let seen = 0;
  const seenRows: SessionRow[] = [];
  const specificIn = new Set<number>();
  const sessions = new Map<number, SessionRow>();
  const ids = JSON.stringify([...bySession.keys()]);
  for (const s of Q.sessionsByIds.all(store, { ids })) {
    sessions.set(s.id, s);
  }
  // A session holding a copy of another's calls (lib/replays.ts: a resumed session, a
  // compaction subagent) and that session are one line of work, followed once: in the one
  // with more actions (the copy that went on), else in the original. Each copy of the error
  // counted, the original's fix was counted again; the original alone, a re-run that passed
  // in the resumed copy went unseen (trial 20).
  const actsOf = new Map([...bySession.keys()].map((sid) => [sid, actionsOf(store, sid)]));
  const lines = new Map<number, number[]>();
  for (const sid of bySession.keys()) {
    const owner = replayedIn(store, sid).values().next().value ?? sid;
    lines.set(owner, [...(lines.get(owner) ?? []), sid]);
  }
  for (const [owner, line] of lines) {
    const keep = line.reduce((a, b) => {
      const d = actsOf.get(b)!.length - actsOf.get(a)!.length;
      return d > 0 || (d === 0 && b === owner) ? b : a;
    });
    for (const sid of line) if (sid !== keep) bySession.delete(sid);
  }
  for (const [sid, list] of bySession) {
    const acts = actsOf.get(sid)!;
    const actionOf = (h: Hit) =>
      h.callId === null ? undefined : acts.find((a) => a.callId === h.callId && a.outcome !== "ok");
    const failing = list.filter((h) => actionOf(h)).sort((a, b) => a.seq - b.seq);
    if (!failing.length) continue;
    seen++;
    seenRows.push(sessions.get(sid)!);
    // Where the session holds the pasted error with its names, that occurrence is the one
    // followed (not the same error about another file later on), and only it can come back.
    const named = names.length ? failing.filter((h) => holdsAll(h.text, names)) : [];
    if (holdsNames(list, names)) specificIn.add(sid);
    const occurrences = named.length ? named : failing;
    const recurs = named.length ? list.filter((h) => holdsAll(h.text, names)) : list;
    const last = occurrences[occurrences.length - 1];
    if (recurs.some((h) => h.seq > last.seq)) continue; // the error came back
    const failedAct: Action = actionOf(last)!;
    const asked = Q.userSeqs.all(store, { session: sid }).find((u) => u.seq > last.seq)?.seq;
    // What the failure is about (its names, its quoted words, its rare words): made once, when
    // first asked, for every action weighed against it.
    let aboutNames: string[] | undefined;
    const about = () => aboutNames ??= [...names, ...last.quoted.map((q) => q.raw), ...rare()];
    const followedBy = followed(acts, failedAct, last.seq, asked);
    if (!followedBy) continue;
    const after = followedBy.next.failed && !followedBy.checked && !followedBy.gone
      ? changedLater(acts, failedAct, last.seq, asked, about()) ?? followedBy
      : followedBy;
    const next = after.next;
    // Nothing checked it (the failed action never ran again): what ran next is a fix only when
    // it is about the error, or files changed before it (the edits may be the fix).
    // Files changed count only when a change is about what failed (trial 110 F5: an edit of
    // README.md, then `pytest`, offered as the fix of `KeyError: 'APP_PORT'` in server.py; the
    // edit that fixed an earlier error offered for a later `ls` of a missing folder).
    if (
      !after.checked && !after.gone &&
      !aboutFailure(next, failedAct, about()) &&
      !acts.some((a) => a.seq > last.seq && a.seq < next.seq && changeAbout(a, failedAct, about()))
    ) continue;
    // The error back in other words in the output of what ran next, whose status does not say
    // it went well (trial 10: `railway up … | head -30`, exit 0 of head, printed `Invalid
    // RAILWAY_TOKEN. Please check that it is valid` after `Unauthorized. Please check that your
    // RAILWAY_TOKEN is valid`, and was offered as the fix).
    if (
      !after.gone && next.outcome !== "ok" && next.output && saysAgain(next.output, signatures)
    ) continue;
    const s = sessions.get(sid)!;
    const key = norm(next.text);
    // A file action again on the same file, called otherwise (`limit: 20`): not the same run.
    const change = next.kind !== "command" && key === norm(failedAct.text)
      ? inputChange(failedAct, next) || null
      : null;
    // The failing check run again, spelt alike or not (`python -m pytest` for `pytest`).
    const retry = (next.kind === "command" && failedAct.kind === "command"
      ? sameRun(next.text, failedAct.text)
      : key === norm(failedAct.text)) && !change;
    const fileRows = Q.filesInOrder.all(store, { session: sid });
    const edits = editsBetween(fileRows, last.seq, next.seq);
    // trial 105 F4: the failing command run again after files changed: the change is the fix,
    // the re-run the check (made the lead below, {@link asEdit}); one grouped apart from a bare
    // re-run, which fixed nothing it did.
    const byEdit = retry && failedAct.kind === "command" && edits.length > 0;
    // trial 106 F4: files changed, then another command passed: the change is still what fixed
    // it, that command only what ran next (it checked nothing of the change).
    const editFirst = !retry && failedAct.kind === "command" && next.kind === "command" &&
      edits.length > 0;
    const slot = byEdit ? `edit\0${key}` : editFirst ? `next\0${key}` : key;
    const c = found.get(slot) ?? {
      // One line as its words (spacing folded, as runs are grouped); several as recorded, to paste.
      command: next.text.trim().includes("\n") ? next.text : key,
      action: next.kind,
      path: next.path,
      sessions: 0,
      succeeded: 0,
      unknown: 0,
      gone: 0,
      retry,
      ...(byEdit ? { rerun: key } : editFirst ? { ranNext: key } : {}),
      ...(change ? { changed: change } : {}),
      checked: false,
      last: null,
      timeFromFile: false,
      undated: false,
      examples: [],
      specific: false,
    };
    c.sessions++;
    c.checked ||= after.checked;
    if (specificIn.has(sid)) {
      c.specific = true;
    } else {
      if (
        names.some((n) =>
          list.some((h) => holdsName(h.text, n))
        )
      ) c.partly = true;
      if (!byEdit && !editFirst) c.adapted ??= adapt(c.command, last.quoted, mine);
      // The names the error it followed quoted, where they are not the pasted error's (trial
      // 15: `pip install opencv-python`, the fix of `'cv2'`, listed for `'sklearn'` unlabelled).
      const other = last.quoted.map((q) => q.raw).filter((r) => !mine.some((m) => m.raw === r));
      if (mine.length && other.length) c.otherNames ??= other.slice(0, 3);
    }
    if (after.gone) c.gone++;
    else if (next.outcome === "ok") c.succeeded++;
    // A run sent to the background says nothing of how it ended (trial 15: `pip install pandas`
    // in the background, failed later, was "no error seen").
    else if (next.outcome === "unknown" && !next.noResult && !next.background) c.unknown++;
    // The latest by a dated time; an undated session's only when none is dated.
    const at = next.time ?? s.updated ?? s.started ?? null;
    const sessionTime = next.time === null;
    const undated = sessionTime && isUndated(s);
    if (timeRank(at, undated) >= timeRank(c.last, c.undated)) {
      [c.last, c.undated, c.timeFromFile] = [at, undated, sessionTime && hasFileTime(s)];
    }
    c.examples.push({
      harness: s.harness,
      session: s.native_id,
      sessionRowId: s.id,
      time: next.time,
      failed: failedAct.text,
      then: after.then.map((x) => x.text),
      edited: editedBetween(store, sid, last.seq, next.seq),
      edits,
    });
    found.set(slot, c);
  }
  // A next command that failed or never finished every time it followed the error fixed nothing.
  const fixes = mergeShown([...found.values()].map(asEdit)).filter((c) =>
    c.succeeded + c.unknown + c.gone > 0
  )
    .sort((
      a,
      b,
    ) =>
      Number(b.specific) - Number(a.specific) || Number(b.checked) - Number(a.checked) ||
      b.sessions - a.sessions ||
      b.succeeded - a.succeeded || b.unknown - a.unknown || b.gone - a.gone ||
      newerFirst(timeRank(a.last, a.undated), timeRank(b.last, b.undated))
    ).slice(0, opts.limit ?? 3);
  for (const f of fixes) {
    f.examples = f.examples.sort((a, b) => (b.time ?? 0) - (a.time ?? 0)).slice(0, 3);
  }
  const seenIn = seenRows.sort((a, b) =>
    Number(specificIn.has(b.id)) - Number(specificIn.has(a.id)) || datedFirst(a, b)
  ).slice(0, 5)
    .map((s) => ({
      harness: s.harness,
      session: s.native_id,
      sessionRowId: s.id,
      ref: shortRef(store, s.harness, s.native_id),
      specific: specificIn.has(s.id),
    }));
  const specific = names.length && seen ? specificIn.size > 0 : null;
  const firstHits = bySession.get(seenIn[0]?.sessionRowId) ?? [];
  const general = specific === false ? generalForm(firstHits, names, generalOnly) : "";
  const heldForm = general ? formOf(firstHits) : undefined;
  if (fixes.length) {
    return {
      status: "found",
      message: `seen in ${
        seenPhrase(seen, seenIn, names, specificIn.size)
      }${general}${viaCode}; what ran next where it did not come back:`,
      signatures,
      lookedFor,
      seen,
      hidden: left.size,
      seenIn,
      fixes,
      names,
      specific,
      ...(generalOnly ? { generalOnly } : {}),
      ...(heldForm ? { heldForm } : {}),
    };
  }
  // Seen failing only with other names, nothing fixed it there, and a session holds the
  // error word for word, its names and all (pasted in a prompt, quoted): that session is the
  // answer, the other names' failure said after it (trial 139 H1: `exec: "docker": executable
  // file not found in %PATH%` pasted in a prompt was passed over for an unrelated `"kustomize":
  // executable file not found` session; with a leading `Error: ` the general form missed and
  // the pasted session was named).
  if (seen && generalOnly && opts.mentions) {
    const leftExact = new Set<number>();
    const exact = unseen(store, signatures, names, opts.hidden, leftExact, mine);
    if (exact.mentioned?.some((m) => m.specific)) {
      return {
        ...exact,
        message: `${exact.message}; a command failed with it only with other names, in ${
          seenPhrase(seen, seenIn, names, specificIn.size)
        }`,
        lookedFor,
        hidden: leftExact.size,
      };
    }
  }
  return seen
    ? {
      status: "no_fix",
      message: `seen in ${seenPhrase(seen, seenIn, names, specificIn.size)}${general}${viaCode}${
        // One "but" a sentence (trial 18b: "…, but only in its general form …, but nothing").
        general ? "; nothing" : ", but nothing"} that followed fixed it ` +
        "(the error came back, what ran next failed too or never finished, or nothing ran after " +
        "it but other work)",
      ...(heldForm ? { heldForm } : {}),
      signatures,
      lookedFor,
      seen,
      hidden: left.size,
      seenIn,
      fixes,
      names,
      specific,
    }
    : hiddenOnly(
      {
        ...unseen(
          store,
          signatures,
          names,
          opts.mentions ? opts.hidden : "skip",
          left,
          mine,
          errorText,
        ),
        lookedFor,
        hidden: left.size,
      },
    );
}

/**
 * An answer that found nothing while hidden sessions hold the error says so, rather than
 * "never seen" (the sessions exist; `--junk` shows the throwaway ones).
 */
function hiddenOnly(r: FixResult): FixResult {
  if (!r.hidden || r.mentioned?.length) return r;
  const n = r.hidden;
  return {
    ...r,
    message: `only hidden sessions hold that error: ${n} session${n === 1 ? "" : "s"} of ` +
      "throwaway or excluded projects",
  };
}

/** Whether a line of `output` says one of the errors `signatures` again in other words. */
function saysAgain(output: string, signatures: readonly string[]): boolean {
  return lineSignatures(output).some((o) => signatures.some((e) => reworded(o, e)));
}

/**
 * How a candidate's runs went, for people and agents: `succeeded 1/2, 1/2 no error seen (exit
 * unknown)` (runs with no status of their own are neither counted as succeeded nor as failed;
 * `exit unknown` as `how`, `ctx` and `show` say it, trial 11).
 */
export function fixRecord(
  f: Pick<FixCandidate, "succeeded" | "unknown" | "sessions"> & { gone?: number },
): string {
  // A run whose store records no exit status (Claude Code's that went well) is no failure:
  // "succeeded 0/1, 1 exit unknown" read as one (trial 9). As short: hooks have 512 bytes.
  const quiet = `${f.unknown}/${f.sessions} no error seen (exit unknown)`;
  const gone = f.gone ? `${f.gone}/${f.sessions} free of this error, failed on another` : "";
  const said = [
    f.succeeded || (!f.unknown && !gone) ? `succeeded ${f.succeeded}/${f.sessions}` : "",
    f.unknown ? quiet : "",
    gone,
  ];
  return said.filter(Boolean).join(", ");
}

function editedBetween(store: Store, sid: number, from: number, to: number): string[] {
  const rows = Q.filesInOrder.all(store, { session: sid });
  const paths = rows.filter((r) => r.op !== "read" && r.failed !== 1 && r.seq > from && r.seq < to)
    .map((r) => r.path);
  return [...new Set(paths)];
}

/**
 * The projects of the sessions of row ids `ids` that are not `here`'s (see
 * {@link sameProject}), by row id: where a fix the hook or MCP offers ran, said when it is not
 * the asker's project. Empty when `here` is unknown.
 */
export function projectsElsewhere(
  store: Store,
  ids: readonly number[],
  here: string | undefined,
): Map<number, string> {
  const out = new Map<number, string>();
  if (here === undefined || !ids.length) return out;
  for (const r of Q.sessionsByIds.all(store, { ids: JSON.stringify([...new Set(ids)]) })) {
    if (r.project && !sameProject(r.project, here)) out.set(r.id, r.project);
  }
  return out;
}
