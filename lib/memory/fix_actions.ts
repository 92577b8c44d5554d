/**
 * What a session did, in order, as `fix` reads it: the commands it ran and the file actions
 * (read, edit, write) it took, each with how it went. An error can be a failed command's
 * output or a failed file action's result (Crush's `view` of a path that does not exist answers
 * `File not found: /apps/…`, and the next call views the right path), and what followed it is
 * the next command or file action.
 *
 * @module
 */
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { lastSegment } from "../../core/paths.ts";
import { failureLine, type Outcome, outcomeOf, runEnd, runFacts } from "./outcome.ts";

/** One command or file action of a session. */
export interface Action {
  /** `command` for a shell command, else the file action (lib/rows.ts `FileRow.op`). */
  kind: "command" | "read" | "edit" | "write";
  /** The command, or `<op> <path>` for a file action (`edit /w/app/x.ts`). */
  text: string;
  /** The file acted on; null for a command. */
  path: string | null;
  /** Seq of the call's event. */
  seq: number;
  callId: string | null;
  /** A command's outcome (outcome.ts); a file action's is `failed` or `ok`. */
  outcome: Outcome;
  failed: boolean;
  /** The call has no result at all (it never finished; commands only). */
  noResult: boolean;
  /** The harness moved it to the background: its result says nothing of how it ended. */
  background?: boolean;
  /** Epoch ms, when known. */
  time: number | null;
  /** A command's output, where its status leaves the outcome to it (outcome.ts), else null. */
  output?: string | null;
  /** A file action's call input as recorded (JSON, `events.data`), when the store has it. */
  input?: string | null;
}

const FILE_OPS = new Set(["read", "edit", "write"]);

/** The commands and file actions of session `sid`, in order (one action per file call). */
export function actionsOf(store: Store, sid: number): Action[] {
  const out: Action[] = Q.commandsInOrder.all(store, { session: sid }).map((r) => {
    const facts = runFacts(r);
    // Exit 0 that printed a failure line did not go well ({@link okButSaidError}).
    const run = outcomeOf(facts);
    const outcome = okButSaidError({ outcome: run, output: facts.output }) ? "failed" : run;
    return {
      kind: "command",
      text: String(r.command),
      path: null,
      seq: r.seq,
      callId: r.call_id ?? null,
      outcome,
      failed: outcome === "failed",
      noResult: facts.noResult === true,
      ...(runEnd(facts.output)?.startsWith("in background") ? { background: true } : {}),
      time: r.time ?? null,
      output: facts.output ?? null,
    };
  });
  const calls = new Set(out.map((a) => a.callId).filter((c) => c !== null));
  for (const f of Q.filesInOrder.all(store, { session: sid })) {
    if (!FILE_OPS.has(f.op) || (f.call_id !== null && calls.has(f.call_id))) continue;
    if (f.call_id !== null) calls.add(f.call_id);
    const failed = f.failed === 1;
    out.push({
      kind: f.op as Action["kind"],
      text: `${f.op} ${f.path}`,
      path: f.path,
      seq: f.seq,
      callId: f.call_id ?? null,
      outcome: failed ? "failed" : "ok",
      failed,
      noResult: false,
      time: f.time ?? null,
      input: f.input,
    });
  }
  return out.sort((a, b) => a.seq - b.seq);
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * What runs a program for a project without naming it first: `python -m X`, `npx X`,
 * `./node_modules/.bin/X`, `uv run X`, `poetry run X` and their kin run `X` (trial 106 F3:
 * `python -m pytest tests/test_x.py` after a failed `pytest tests/test_x.py` was no re-run).
 */
const LAUNCHER =
  /^(?:python[\d.]*\s+-m|py\s+-m|npx|bunx|pnpx|(?:pnpm|yarn|bun|npm)\s+exec(?:\s+--)?|(?:uv|poetry|pipenv|pdm|hatch|rye)\s+run|bundle\s+exec)\s+(?=[^-\s])|^(?:\.\/)?node_modules\/\.bin\//;

/**
 * A command as the program it runs is called bare, white space collapsed: a launcher before it
 * ({@link LAUNCHER}) left out, as is a leading `cd <dir> &&`. Two commands of the same form run
 * the same check.
 *
 * @example runForm("python3 -m pytest  tests/x.py") // "pytest tests/x.py"
 */
export function runForm(command: string): string {
  let t = norm(command).replace(/^(?:cd\s+\S+\s*(?:&&|;)\s*)+/, "");
  for (let before = ""; before !== t;) [before, t] = [t, t.replace(LAUNCHER, "")];
  return t;
}

/** True when commands `a` and `b` run the same check, spelt alike or not ({@link runForm}). */
export function sameRun(a: string, b: string): boolean {
  return norm(a) === norm(b) || runForm(a) === runForm(b);
}

/**
 * What `again`, a file action of the same kind and path as `failed`, was called with
 * differently (`limit: 20`): each input field whose value differs or is new, and
 * `without <field>` for one it left out; "" when the inputs are the same, null when either
 * input is unknown. The file's path is no difference (the actions name the same file).
 * Trial 27: a Read refused as too large, read again with `"limit": 20`, was called "the same
 * command run again", the difference that fixed it hidden.
 */
export function inputChange(failed: Action, again: Action): string | null {
  const fields = (a: Action) => {
    try {
      const v = a.input ? JSON.parse(a.input) : null;
      return v && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : null;
    } catch {
      return null;
    }
  };
  const before = fields(failed), after = fields(again);
  if (!before || !after) return null;
  const shown = (v: unknown) => {
    const t = typeof v === "string" ? v : JSON.stringify(v) ?? String(v);
    return t.length > 60 ? `${t.slice(0, 59)}…` : t;
  };
  const out: string[] = [];
  for (const [k, v] of Object.entries(after)) {
    if (v === again.path || JSON.stringify(v) === JSON.stringify(before[k])) continue;
    out.push(`${k}: ${shown(v)}`);
  }
  for (const k of Object.keys(before)) {
    if (!(k in after) && before[k] !== failed.path) out.push(`without ${k}`);
  }
  return out.join(", ");
}

/** Rules switched off, to show what they change (tests only). */
export const ABLATE_FIX = {
  /** Any action after the user's next request may be the fix, not only an attempt at the failed one. */
  askedAfter: false,
  /** After a failed edit or write, an action on another file may be the fix. */
  otherFiles: false,
};

/**
 * What followed the failed action `failed` (the error's last occurrence in the session), from
 * `actions` (the session's, in order), or null when nothing did. After a failed command: the
 * next command, or, when that one failed too, the first later run that did not fail of the
 * failing command (a re-run after an edit: the files changed in between are the fix) or of
 * that next command in other words (the same program and subcommand: a corrected attempt),
 * whichever came first; a passing re-run after other commands that did not fail, and no
 * edit, gives the last of those (what made it pass; `then` shows the re-run after it).
 * After a failed file action: the next action of any kind (after a failed edit or write, of
 * that file), or, when that one failed too, the first later one of the same kind that did not
 * (a view or edit of the right path).
 */
export function followed(
  actions: Action[],
  failed: Action,
  at: number,
  asked = Infinity,
): Followed | null {
  // After the user's next request (`asked`, the seq of the first user turn after the error),
  // only an attempt at the failed action itself: what else ran answers the request (trial 27:
  // a Read refused as too large, the user's "1", then `which op …` for a 1Password plan,
  // offered as the fix).
  const related = (a: Action) =>
    failed.kind === "command"
      ? a.kind === "command" && (sameRun(a.text, failed.text) || sameAttempt(a, failed))
      : a.kind === failed.kind && a.path === failed.path;
  // A command that only looks around (`ls -la`, `cat x`, `git status`) fixes nothing: after a
  // failed command it is passed over (trial 18b: `fix` offered `ls -la …` as the fix).
  // A re-run of the failed command itself stays (its success after an edit is the answer).
  // After a failed edit or write, only what touches that file (a file action on it, a command
  // naming it): the tool refused the change ("read the file before editing it", "old_string
  // not found"), and the next change of another file is the work going on (trial 66: an `mv`
  // of another file offered as the fix of "you must read the file before editing it").
  const name = failed.path ? lastSegment(failed.path).toLowerCase() : "";
  const aboutIt = (a: Action) =>
    a.kind === "command"
      ? !!name && a.text.toLowerCase().includes(name)
      : sameName(a.path, failed.path);
  const later = actions.filter((a) =>
    a.seq > at && (a.seq < asked || ABLATE_FIX.askedAfter || related(a)) &&
    (failed.kind !== "command" ||
      (a.kind === "command" && (!looksOnly(a.text) || sameRun(a.text, failed.text)))) &&
    (ABLATE_FIX.otherFiles || (failed.kind !== "edit" && failed.kind !== "write") || aboutIt(a))
  );
  if (!later.length) return null;
  const same = (a: Action) =>
    failed.kind === "command" ? sameRun(a.text, failed.text) : a.kind === failed.kind;
  const first = later[0];
  const rerun = first.failed ? later.find((a) => !a.failed && same(a)) : undefined;
  // What ran right after failed too: its own attempt done again, in other words, that did
  // not fail (trial 12: `pip install saltbushh` failed, `pip install saltbush==1.0` worked),
  // unless a passing re-run of the failed command came first.
  const corrected = first.failed && failed.kind === "command" && !same(first)
    ? later.find((a) => !a.failed && a !== first && sameAttempt(a, first))
    : undefined;
  const changedBefore = (until: number) =>
    actions.some((a) =>
      a.seq > at && a.seq < until && !a.failed && (a.kind === "edit" || a.kind === "write")
    );
  // The first re-run after edits, failing on another error: this error's fix is the edits
  // before it, not all those made until a re-run passed.
  const retried = failed.kind === "command" ? later.find(same) : undefined;
  if (
    retried?.failed && !retried.noResult && changedBefore(retried.seq) &&
    (!corrected || corrected.seq > retried.seq)
  ) {
    const i = later.indexOf(retried);
    return { next: retried, then: later.slice(i, i + 3), checked: true, gone: true };
  }
  let next = corrected && (!rerun || corrected.seq < rerun.seq) ? corrected : rerun ?? first;
  // A passing re-run after commands that changed something: the last of them that did not
  // fail is what made it pass (trial 14: `pip install reqeusts` and `pip3 install --user
  // requests` failed, `python -m pip install … requests` worked, and the re-run of `python
  // app.py` was offered as the fix).
  // Where files were edited in between, the edits are the fix and the re-run shows it worked
  // (a real Crush session: `Invoke-Pester` after editing the tests, with a `Get-Command`
  // listing between).
  if (rerun && next === rerun && failed.kind === "command") {
    const until = rerun.seq;
    const edited = changedBefore(until);
    const between = later.filter((a) =>
      a.seq < until && !a.failed && a.kind === "command" && !same(a)
    );
    if (!edited && between.length) next = between[between.length - 1];
  }
  const i = later.indexOf(next);
  // Checked: the failing command (or an attempt of it in other words) ran again, whatever
  // else it then said, as its error did not come back (the caller's rule; trial 20: `pytest`
  // failing on another error after `pip install pyyaml` was "not checked"); a failed file
  // action done again, right (not a look around after it).
  // A file action again on a file of the same name (another folder: the right path); one on
  // another file is the work going on, no check (trial 52: a read of `…\1` that did not exist,
  // then a read of `1Password_md.ajson`, was "succeeded 1/1" with no caveat).
  const again = (a: Action) =>
    failed.kind === "command"
      ? same(a) || sameAttempt(a, failed)
      : a.kind === failed.kind && !a.failed && sameName(a.path, failed.path);
  const checked = later.slice(i).some(again);
  return { next, then: later.slice(i, i + 3), checked };
}

/** The words of an action's text a relation is read by: no flags, no shell glue, lower case. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[\s/\\'"`=,;:|&()<>[\]{}]+/)
    .filter((w) => w.length > 1 && !w.startsWith("-") && /\p{L}/u.test(w));
}

/**
 * True when `next`, what ran after the failed action `failed` where nothing checked it (the
 * failed one never ran again), is about that error: it names what the error names (`names`,
 * `npm install left-pad` after `Cannot find module 'left-pad'`) or what the failed action
 * acted on, past its program (`kubectl delete pod web-1` after `kubectl logs web-1`). The next
 * step of other work is no fix (trial 93: `cd … && just status` after a missing `yq`; a read
 * of another file after "File does not exist"; `Get-Content` of another file after one the
 * shell split at its space).
 */
export function aboutFailure(next: Action, failed: Action, names: readonly string[]): boolean {
  // A path by its last two parts (a file's by its name): the folders above them are where all
  // the work is (trial 98 F3: a read of another file of the project the error's message named
  // was "about" it).
  const lastTwo = (w: string) => w.split(/[/\\]/).slice(-2).join("/");
  const words = next.kind === "command"
    ? wordsOf(programOf(next.text).join(" ").split(" ").map(lastTwo).join(" "))
    : wordsOf(next.path ? lastSegment(next.path) : next.text);
  // Whole (`x.yaml`) and by the parts of a compound name (`fixup-quuxfeed`).
  const said = new Set([...words, ...words.flatMap((w) => w.split(/[-_.]+/))]);
  const named = names.flatMap((n) => wordsOf(n));
  const [p1, s1, rest] = programOf(failed.text);
  const acted = failed.kind === "command"
    ? wordsOf(rest.split(" ").map(lastTwo).join(" "))
    : failed.path
    ? wordsOf(lastSegment(failed.path))
    : [];
  if ([...named, ...acted].some((w) => said.has(w))) return true;
  // The failed program told to do something else (`npm dedupe` after `npm run build`) or run
  // otherwise (`quokkatest --clean` after `quokkatest`); the same program on another target
  // (`Get-Content` of another file) is other work.
  if (failed.kind !== "command" || next.kind !== "command") return false;
  const [p2, s2] = programOf(next.text);
  return p1 === p2 &&
    (s1 && s2 ? s1 !== s2 : !rest.split(" ").some((w) => w && !w.startsWith("-")));
}

/**
 * A command's program (its last path part, lower case), its subcommand (a plain word) or "",
 * and the rest of it: `[npm, run, build]`, `[get-content, "", "README\ 1.md"]`.
 */
function programOf(text: string): [string, string, string] {
  let words = norm(text).replace(/^(?:cd\s+\S+\s*(?:&&|;)\s*)+/, "").split(" ");
  while (words.length > 1 && /^\w+=/.test(words[0])) words = words.slice(1);
  const prog = (words[0] ?? "").replace(/^.*[/\\]/, "").toLowerCase();
  const sub = /^[a-z][a-z-]*$/.test(words[1] ?? "") ? words[1] : "";
  return [prog, sub, words.slice(sub ? 2 : 1).join(" ")];
}

/**
 * True when command `a` does what command `b` tried, in other words: the same program and
 * subcommand (`pip install saltbush==1.0` after `pip install saltbushh`), not a look-around.
 */
function sameAttempt(a: Action, b: Action): boolean {
  // Past a leading `cd <dir> &&` and assignments: every command of a Crush session starts
  // `cd /Users/… &&`, which named no program (the real store's `kustomize` error then took
  // `cd … && just status` for a corrected attempt of `cd … && yq …`).
  const head = (t: string) => {
    let words = runForm(t).split(" ");
    while (words.length > 1 && /^\w+=/.test(words[0])) words = words.slice(1);
    // A program given its script after a flag (`pwsh -Command "…"`, `bash -c '…'`, `python -c`):
    // the script's first word too, or every script it ran was an attempt of every other (trial
    // 98 F2: a Pester run was "checked" as a re-run of a failed `pwsh -Command "$path=…"`).
    const at = words.findIndex((w, i) => i > 0 && !w.startsWith("-"));
    if (at > 1) {
      const script = words[at].replace(/^["'`]+/, "").split(/[;=(]/)[0].toLowerCase();
      return [words[0], words[at - 1], script].join(" ");
    }
    return words.slice(0, 2).join(" ");
  };
  return !looksOnly(a.text) && head(a.text) === head(b.text);
}

/** Programs that only read or print: run alone, they change nothing a fix could be. */
const LOOKS = new Set([
  "ls",
  "ll",
  "dir",
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "pwd",
  "cd",
  "echo",
  "printf",
  "which",
  "whereis",
  "type",
  "file",
  "stat",
  "find",
  "grep",
  "rg",
  "ag",
  "tree",
  "wc",
  "du",
  "df",
  "ps",
  "env",
  "printenv",
  "whoami",
  "id",
  "uname",
  "date",
  "sort",
  "uniq",
  "cut",
  "awk",
  "jq",
  "get-childitem",
  "get-content",
  "select-string",
  "nl",
  "tac",
  "xxd",
  "od",
  "hexdump",
  "bat",
  "realpath",
  "readlink",
  "basename",
  "dirname",
]);

/** Git subcommands that only read. */
const GIT_LOOKS = new Set(["status", "log", "diff", "show", "blame", "remote", "rev-parse"]);

/**
 * Other programs' subcommands that only read (trial 100 F3: `kubectl get pods -A` after a failed
 * `kubectl apply -f deploy.yaml` was offered as its fix).
 */
const SUB_LOOKS: Readonly<Record<string, ReadonlySet<string>>> = {
  kubectl: new Set([
    "get",
    "describe",
    "logs",
    "explain",
    "top",
    "version",
    "api-resources",
    "cluster-info",
  ]),
  docker: new Set(["ps", "images", "logs", "inspect", "version", "info"]),
  npm: new Set(["ls", "list", "view", "outdated", "help"]),
  pip: new Set(["list", "show", "freeze"]),
  pip3: new Set(["list", "show", "freeze"]),
};

/**
 * True when every part of a shell command (split on `&&`, `||`, `;` and `|`) runs a program of
 * {@link LOOKS} or a reading git subcommand: the command looks around and changes nothing.
 * `sed -i`, `find -delete`, `awk` writing with `>` and any redirection to a file are changes.
 */
export function looksOnly(command: string): boolean {
  if (/(?:^|[^>&0-9])>{1,2}\s*[^&\s]/.test(command.replace(/2>&1|>\s*\/dev\/null/g, ""))) {
    return false;
  }
  const parts = command.split(/&&|\|\||;|\|/).map((p) => p.trim()).filter(Boolean);
  if (!parts.length) return false;
  return parts.every((p) => {
    // A loop's or a test's own words run nothing (`for f in *.yaml`, `do head $f`, `done`).
    if (/^(?:for|while|until|if|elif)\s/.test(p) || /^(?:done|fi|else|then|do)$/.test(p)) {
      return true;
    }
    const words = p.replace(/^(?:do|then|else)\s+/, "")
      .replace(/^(?:sudo\s+)?(?:[A-Z_][A-Z0-9_]*=\S*\s+)*/, "").split(/\s+/);
    const prog = (words[0] ?? "").replace(/^.*[/\\]/, "").toLowerCase();
    if (prog === "git") {
      return GIT_LOOKS.has(words.find((w, i) => i > 0 && !w.startsWith("-")) ?? "");
    }
    if (prog === "find" && /\s-(?:delete|exec)/.test(p)) return false;
    // `sed` prints unless told to edit in place (`-i`, `-ni`, `-i.bak`, `--in-place`; trial
    // 100 F3: `sed -n 1,40p` of another file was offered as a fix).
    if (prog === "sed") return !/\s-(?:[a-zA-Z]*i|-in-place)/.test(p);
    const subs = SUB_LOOKS[prog];
    if (subs) return subs.has(words.find((w, i) => i > 0 && !w.startsWith("-")) ?? "");
    return LOOKS.has(prog);
  });
}

/** The answer of {@link followed}. */
export interface Followed {
  /** The candidate fix. */
  next: Action;
  /** It and the actions after it (at most 3). */
  then: Action[];
  /**
   * What failed ran again at or after `next` (the failing command itself, or an attempt of it
   * in other words), or a failed file action was done again right: the fix was checked. False
   * when the session went on without it (trial 19: `git stash` in a session that ended "the
   * build error is still there", `just status` where `yq` was never run again).
   */
  checked: boolean;
  /**
   * `next` is the failing command run again after files were changed, failing on another error
   * (this one is gone: the caller took the error's last occurrence): the changes before it
   * fixed this error, whatever passed later (trial 52: Crush fd7da67c's `Invoke-Pester` re-run
   * after one edit of the tests failed three times more on other errors before it passed).
   */
  gone?: boolean;
}

/**
 * A run taken for a success (exit 0, or no failure line its status left to it) whose own output
 * still reports an error: it failed, as far as what follows it is concerned (trial 24, a Crush
 * session: PowerShell's `Import-Module …` printed "ParserError … was not loaded" in colour
 * codes and CRLF lines, and was offered as the fix of a failing test that "succeeded 1/1").
 */
export function okButSaidError(a: Pick<Action, "outcome" | "output">): boolean {
  return a.outcome === "ok" && failureLine(a.output) !== null;
}

/** True when two recorded paths end in the same file name (any case, either separator). */
function sameName(a: string | null, b: string | null): boolean {
  return lastSegment(a ?? "").toLowerCase() === lastSegment(b ?? "").toLowerCase();
}
