/**
 * Did a command fail? One judgement for `show`, `view`, `fix`, `how`, the
 * digests (`ctx`, the session-start hook, the Crush packet), MCP's answers and
 * the hooks' earlier-run hints: each reads its rows through {@link runFacts}
 * and judges them with {@link outcomeOf} (tests/outcome_rule_test.ts holds
 * them to one answer on one session).
 *
 * The store's word comes first: a recorded exit status decides (0 is `ok`,
 * anything else `failed`), and a result the harness marked as an error is
 * `failed`. A status a filter last in the pipeline returned (`| head -30`) is
 * not the command's, so there the output decides as below (trial 10: `railway
 * up --detach 2>&1 | head -30` printed `Invalid RAILWAY_TOKEN` with exit 0, and
 * `fix` called it a fix that succeeded). When the store records neither — a
 * Claude Code Bash run moved to the background, or one of a store that keeps
 * no status at all (a clean Claude Code run is exit 0 by its `toolUseResult`,
 * parsers/_message_blocks.ts); a Crush run aborted or moved to the background
 * has none (one that finished without an `Exit code N` trailer is exit 0) —
 * the output decides: a line that reports a failure the way shells and tools
 * print one makes it `failed`, otherwise it is `unknown` (never `ok`: the
 * agent must not be told a failed command succeeded). A command whose last
 * statement ends in `|| true` has a 0 that says nothing either: its output decides. A
 * question's status 1 (`grep`, `diff`, `test`: nothing matched, they differ,
 * false) is an answer, not a failure: there too the output decides. A call with no result
 * at all (the session ended before it finished) is `unknown` too, labelled
 * `no result`. `fix` counts an `unknown` run apart, neither a success nor a
 * failure (`2/2 no error seen (exit unknown)`), and one with no result in neither
 * (Crush session 093f9963 ended on a `git stash` call, which `fix` once called
 * "succeeded 1/1").
 *
 * @module
 */
import { runEnd, stoppedEnd } from "../../core/run_end.ts";
import { sanitizeForTerminal } from "../../core/terminal.ts";

/** What is known of one run of a command. */
export type Outcome = "ok" | "failed" | "unknown";

/**
 * Programs that, last in a pipeline, only pass on, cut or count what came
 * before them: the pipeline's exit status is theirs, not the command's.
 */
const FILTERS = new Set(
  [
    "head tail grep egrep fgrep rg less more cat tee sort uniq wc cut tr sed awk column jq nl fold",
    "fmt xxd od strings",
    // Windows: cmd's and PowerShell's (trial 11: `npx tsc --noEmit 2>&1 | findstr /i "error"`).
    "findstr find select-string select-object out-string out-host",
  ].join(" ").split(" "),
);

/** Programs whose exit status 1 says only that nothing matched. */
const SEARCHES = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack", "findstr"]);

/**
 * Programs whose exit status 1 is a "no" (files differ, a condition is false, no such
 * program): an answer, not a failure, like a search's (trial 12: `diff a b`, `test -f x`
 * counted failed; trial 13: `which quarkle`).
 */
const QUESTIONS = new Set([...SEARCHES, "diff", "cmp", "test", "[", "[[", "which"]);

/** Programs that, after `&&`, only say what the question before them answered. */
const SAYS = new Set(["echo", "printf", "true", ":"]);

/** The program a command's words run (assignments, `sudo`, `command` and a path left out). */
function programOf(stage: string): string {
  const words = stage.trim().split(/\s+/);
  const name = words.find((w) => !/^\w+=/.test(w) && w !== "sudo" && w !== "command");
  const base = name?.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1) ?? "";
  return base.replace(/\.exe$/i, "");
}

/** Statements of a command: split at newlines, `;` and a lone `&` (quoted text blanked first). */
function statements(command: string): string[] {
  const bare = command.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''");
  // A group's brackets are no part of its statements (trial 17: `(pip install delta; exit 0)`
  // ended in `exit 0)`, not read as the forced 0 it is).
  return bare.split(/\n|;|(?<![<>|&])&(?![>&])/)
    .map((s) => s.trim().replace(/^[({]\s*/, "").replace(/\s*[)}]$/, "").trim()).filter(Boolean);
}

/**
 * The question a status 1 answers in a last statement of questions joined by `&&` (`grep -q
 * x f && echo found`, `test -f x && echo yes`: the `&&` part never ran): the first program,
 * when every part is a question or only says what it answered, with no pipe; else null.
 */
function questionChain(last: string): string | null {
  if (last.includes("|")) return null;
  const parts = last.split("&&").map(programOf);
  const first = parts[0]?.toLowerCase() ?? "";
  if (!QUESTIONS.has(first)) return null;
  return parts.slice(1).every((p) => QUESTIONS.has(p.toLowerCase()) || SAYS.has(p))
    ? parts[0]
    : null;
}

/**
 * How the command's status is 0 whatever ran (`|| true`), or null: its last statement ends in
 * `|| true`, `|| :`, `|| exit 0`, or `|| echo …` / `|| printf …` (trial 14: `./deploy.sh ||
 * echo "deploy failed"` printed its error and was `exit 0`, ok). That 0 says nothing of what ran before it, as a filter's
 * says nothing of what it filtered: the output decides ({@link statusOwner}). Trial 12: `rm x
 * || true` was failed for Claude Code (no status; its output) and ok for Codex (exit 0);
 * trial 13: calling it ok hid `make lint || true` printing its errors.
 */
export function statusForcedZero(command: string | null | undefined): string | null {
  if (!command || !command.includes("||")) return null;
  return forcedIn(statements(command).at(-1) ?? "");
}

/** {@link statusForcedZero} of a command's last statement (its quoted text blanked). */
function forcedIn(last: string): string | null {
  if (!last.includes("||")) return null;
  const m = /\|\|\s*(true|:|exit\s+0|echo\b|printf\b)[^|&;]*$/.exec(last);
  return m ? `|| ${m[1].replace(/\s+/, " ")}` : null;
}

/**
 * A last statement after others that only reports (`…; echo rc=$?`, `…; true`, `…; exit 0`,
 * `… > log; cat log`, `…; tail -5 log`): the command's status is its own, and says nothing of
 * what ran before it (trial 17: `set +e; pip install zeta; echo rc=$?` printed `rc=1` and was
 * exit 0, offered by `fix` as a success). Returns `; echo` and the like, else null.
 */
function reporterIn(last: string): string | null {
  const m = /^(echo|printf|true|:|exit\s+0|cat|tail|head)(?:\s|$)/.exec(last);
  return m && !/[|&]/.test(last) ? `; ${m[1].replace(/\s+/, " ")}` : null;
}

/**
 * The program a recorded exit status belongs to when it is not the command's
 * own: the filter last in the command's last pipeline, with no `pipefail`
 * (`railway up 2>&1 | head -30` -> `head`, whose 0 says nothing of `railway`),
 * else null; also a search alone that exits 1 (nothing matched: an answer, not
 * a failure) when `exit` is given. Quoted text is not read for pipes or statements.
 *
 * @example statusOwner("npm test 2>&1 | tail -5") === "tail"
 * @example statusOwner("set -o pipefail; npm test | tail -5") === null
 */
/** A command run by PowerShell: `pwsh …`, `powershell.exe -Command …` ({@link outcomeOf}). */
const POWERSHELL = /^\s*(?:\S*[\\/])?(?:pwsh|powershell)(?:\.exe)?\s/i;

export function statusOwner(
  command: string | null | undefined,
  exit?: number | null,
): string | null {
  // Most commands have no pipe and no search's 1: no parse (`how` and `view` judge every run).
  if (!command || (exit !== 1 && !command.includes("|") && !/[;\n]/.test(command))) return null;
  // The statements are read once: the forced 0, the last pipeline and its program.
  const all = statements(command);
  const lastStatement = all.at(-1) ?? "";
  const forced = forcedIn(lastStatement) ?? (all.length > 1 ? reporterIn(lastStatement) : null);
  if (forced) return exit === undefined || exit === null || exit === 0 ? forced : null;
  const last = lastStatement.split(/&&|\|\|/).map((s) => s.trim()).filter(Boolean).at(-1);
  const stages = last?.split(/\|&?/) ?? [];
  const program = programOf(stages.at(-1) ?? "");
  // A question alone that answered no: its 1 is an answer, not a failure (trial 11: `grep -n
  // wibblify include/*.h` was counted failed; trial 12: `diff`, `test -f`, `grep -q … && …`).
  if (stages.length === 1) {
    if (exit !== 1) return null;
    if (!lastStatement.includes("&&")) return QUESTIONS.has(program.toLowerCase()) ? program : null;
    return lastStatement.includes("||") ? null : questionChain(lastStatement);
  }
  if (/\bpipefail\b/.test(command)) return null;
  // A filter's own failure (`jq` exit 4 on bad input, `tail` on a bad option) is no answer:
  // only its 0, or a search's 1 (nothing matched), leaves the outcome to the output (trial 12).
  const p = program.toLowerCase();
  if (!FILTERS.has(p)) return null;
  return exit === undefined || exit === null || exit === 0 || (exit === 1 && SEARCHES.has(p))
    ? program
    : null;
}

/** The facts about one run, as the index keeps them. */
export interface RunFacts {
  /** Exit status when the store records one, else null. */
  exit: number | null;
  /** The harness marked the result as an error (`commands.is_error`, 0/1 or boolean). */
  isError: boolean | number;
  /** The result's text, when there is one (only read when the above do not decide). */
  output?: string | null;
  /** The store holds the call and no result at all: it never ran or never finished. */
  noResult?: boolean;
  /** The head of its result when the harness marked it an error (where it says it stopped it). */
  head?: string | null;
  /** The command, when known: a status its last filter returned does not count ({@link statusOwner}). */
  command?: string | null;
}

/**
 * A command run as the index's queries select it (lib/schema.ts `commandsInOrder`,
 * `COMMAND_RUN`): its exit, error flag, and (when neither says) its result's text
 * and whether it has a result at all.
 */
export interface RunRow {
  exit: number | null | undefined;
  is_error: number | boolean;
  output?: string | null;
  /** 1 when the call has no tool result (lib/schema.ts `NO_RESULT`). */
  no_result?: number | boolean | null;
  command?: string | null;
  head?: string | null;
}

/** The facts of a run as a query row holds them ({@link RunRow}), for every surface alike. */
export function runFacts(r: RunRow): RunFacts {
  return {
    exit: r.exit ?? null,
    isError: r.is_error === true || Number(r.is_error) === 1,
    output: r.output ?? null,
    noResult: r.no_result === true || r.no_result === 1,
    command: r.command ?? null,
    head: r.head ?? null,
  };
}

/** A non-zero status written into the output by the tool or the harness. */
const STATUS_LINE =
  /^(?:Error: )?Exit code [1-9]\d*\b|^exit status [1-9]\d*\b|\b(?:exited|exit) with (?:code|status) [1-9]\d*\b|^\[Process exited with code [1-9]\d*\]/i;

/**
 * Lines that report a failure, matched on one line with terminal colour codes
 * removed. Each is a shape commands print when they fail; words that also
 * appear in successful output ("0 failed", "error handling", a file named
 * `errors.ts`) are deliberately not enough.
 */
const FAILURE_LINES: readonly RegExp[] = [
  // error: … / fatal: … / ./x.c:3:5: error: … / error[E0425]: … / Error from server (NotFound): …
  /^(?:[^\s:]+:(?:\d+:){0,2}\s*)?(?:error|fatal|panic)\b[^:]{0,40}:\s*\S/i,
  /^npm ERR!/,
  // TypeError: … / ParserError: … / ModuleNotFoundError: … / RuntimeException: …
  /^(?:[\w.$]+\.)?[A-Z]\w*(?:Error|Exception):\s*\S/,
  /^Traceback \(most recent call last\)/,
  /^Uncaught \w*(?:Error|Exception)\b/,
  /\bpanicked at\b/, // Rust: thread 'main' panicked at src/main.rs:2:5:
  /^\*\* \(\w*(?:Error|Exception)\)/, // Elixir: ** (ArgumentError) argument error
  /\bNo such file or directory\b/,
  /\bcommand not found\b/,
  /\bexecutable file not found\b/,
  /\bis not recognized as (?:an internal or external command|(?:the )?name of a cmdlet|a name of a cmdlet)/i,
  /\bPermission denied\b/,
  // The same failures in the languages Windows and glibc most often speak (trial 27: a
  // Portuguese PowerShell's "não é reconhecido como nome de cmdlet" read as no error):
  // PowerShell's and cmd's "not recognized" (pt, es, fr, de), then bash's "command not
  // found", "No such file or directory" and "Permission denied" (pt_BR, pt_PT, es, fr, de).
  /n[ãa]o [ée] reconhecido como (?:(?:o )?nome de (?:um )?cmdlet|um comando interno)|no se reconoce como (?:nombre de un cmdlet|un comando interno)|n'est pas reconnu (?:comme nom d'applet de commande|en tant que commande interne)|wurde nicht als Name eines Cmdlet|ist entweder falsch geschrieben oder\s+konnte nicht gefunden werden/i,
  /\b(?:comando n[ãa]o encontrado|orden no encontrada|commande introuvable|Befehl nicht gefunden)\b|Arquivo ou diret[óo]rio (?:inexistente|n[ãa]o encontrado)|Ficheiro ou (?:pasta|diret[óo]rio) inexistente|No existe el archivo o el directorio|Aucun fichier ou dossier de ce type|Datei oder Verzeichnis nicht gefunden|\bPermiss[ãa]o negada\b|\bPermiso denegado\b|\bPermission non accord[ée]e\b|\bKeine Berechtigung\b/i,
  /^Segmentation fault\b/,
  /^\+ FullyQualifiedErrorId\s*:/, // Windows PowerShell error record
  /^make(?:\[\d+\])?: \*\*\* /,
  // pytest / go test / jest summaries
  /^FAILED\b|^--- FAIL\b|^FAIL\b|\b[1-9]\d* (?:failed|failing)\b|\bFailed: [1-9]\d*\b|\bTests?:\s+[1-9]\d* failed\b/,
  // a build's count of errors: webpack `compiled with 1 error`, tsc `Found 2 errors`, clang `3
  // errors generated.`, eslint `✖ 4 problems (3 errors, 1 warning)`, webpack `ERROR in ./src/x.js`
  // (trial 15: `npm run build 2>&1 | grep -v ERROR | tail -3`, exit 0 of tail, was offered as a fix)
  /\b(?:compiled|built|finished|completed) with [1-9]\d* errors?\b|^Found [1-9]\d* errors?\b|^[1-9]\d* errors? generated\b|\([1-9]\d* errors?, \d+ warnings?\)|^ERROR in\b/i,
  STATUS_LINE,
];

/** Largest part of an output read for failure lines: its head and its tail, 64 KiB each. */
const SCAN = 64 * 1024;

/**
 * The first line of `output` that reports a failure (colour codes removed,
 * trimmed), or null when none does.
 *
 * @example failureLine("x\ncat: a.txt: No such file or directory") ===
 *   "cat: a.txt: No such file or directory"
 */
export function failureLine(output: string | null | undefined): string | null {
  return firstLine(output, FAILURE_LINES);
}

/**
 * The first line of `output` that says what went wrong: as {@link failureLine}, but never a
 * bare exit status (`Exit code 128`, which the run's status already says), else null.
 */
export function errorLine(output: string | null | undefined): string | null {
  return errorLines(output, 1)[0] ?? null;
}

/**
 * {@link errorLine} of a failed run: its query row's output or head (200 characters), else its
 * whole result, which `read` gives by call id (git's `fatal:` comes after its hints).
 */
export function runError(
  facts: RunFacts,
  callId: string | null | undefined,
  read: (call: string) => string | null | undefined,
): string | null {
  return errorLine(facts.output ?? facts.head) ?? (callId ? errorLine(read(callId)) : null);
}

/** The first `n` distinct lines of `output` that {@link errorLine} would take, in order. */
export function errorLines(output: string | null | undefined, n: number): string[] {
  const found: string[] = [];
  if (!output) return found;
  const shapes = FAILURE_LINES.filter((re) => re !== STATUS_LINE);
  const text = output.length > 2 * SCAN
    ? output.slice(0, SCAN) + "\n" + output.slice(-SCAN)
    : output;
  // A terminal's `^C` before the line (`^Cerror: Recipe … terminated`).
  const lines = sanitizeForTerminal(text).split("\n").map((l) => l.trim().replace(/^\^[A-Z]/, ""));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const said = shapes.some((re) => re.test(line))
      ? powerShellMessage(lines, i) ?? line
      : bareErrorClass(lines, i) ?? loggedError(line);
    const cause = said && rootCause(said);
    if (cause && !found.includes(cause) && found.push(cause) >= n) break;
  }
  return found;
}

/**
 * A long error that chains its causes (Go's `a: b: c`, a wrapped exception) from its last
 * named error on, where the root cause is (trial 73: kustomize's `accumulating resources: …
 * MalformedYAMLError: yaml: line 1: …` was cut before it).
 */
function rootCause(line: string): string {
  if (line.length <= 160) return line;
  let at = -1;
  for (const m of line.matchAll(/\b[A-Z]\w*(?:Error|Exception)\b:/g)) at = m.index;
  return at > 40 ? `…${line.slice(at)}` : line;
}

/**
 * PowerShell's message for the error record whose trailer is line `i` (`+ CategoryInfo …`, `+
 * FullyQualifiedErrorId …`): the line before its `At line:1 char:1` (trial 73: `Get-Content : A
 * positional parameter cannot be found…` was said as `+ FullyQualifiedErrorId : Positional…`).
 */
function powerShellMessage(lines: readonly string[], i: number): string | null {
  if (!/^\+ (?:FullyQualifiedErrorId|CategoryInfo)\s*:/.test(lines[i])) return null;
  for (let j = i - 1; j > 0 && j >= i - 12; j--) {
    // `At line:1 char:1`, `At C:\x.ps1:12 char:5`, in the system's language too (`No
    // linha:1 caractere:1`, `En línea: 1 Carácter: 1`).
    if (!/^(?:\S+ )?(?:\S+:\s?\d+|.*:\d+)\s+\S+:\s?\d+$/.test(lines[j])) continue;
    // The message may wrap over a few lines, up from the `At` line to a blank one.
    let k = j - 1;
    while (k > 0 && k > j - 4 && lines[k - 1] !== "") k--;
    return lines.slice(k, j).join(" ").trim() || null;
  }
  return null;
}

/**
 * PowerShell 7's error: the class alone on its line (`ParserError:`), the message on a later
 * `| …` line of its `Line |` block (trial 73: `Missing closing ')' in expression.` went unsaid).
 */
function bareErrorClass(lines: readonly string[], i: number): string | null {
  const m = /^((?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)):$/.exec(lines[i]);
  if (!m) return null;
  for (let j = i + 1; j < lines.length && j <= i + 8; j++) {
    const said = /^\|\s*(.*[^\s~].*)$/.exec(lines[j])?.[1];
    if (said && !/^[~\s]*$/.test(said)) return `${m[1]}: ${said.trim()}`;
  }
  return null;
}

/**
 * The error a structured log line records at level error (zap, logrus, pino, slog: `{"level":
 * "error", "msg": …, "error": …}`): its `error` (or `err`), else its message; null for any
 * other line (trial 71: a pasted kustomize-controller log said its failure only so).
 */
function loggedError(line: string): string | null {
  if (
    !line.startsWith("{") ||
    !/"(?:level|severity|lvl)"\s*:\s*"(?:error|fatal|panic|critical)"/i.test(line)
  ) {
    return null;
  }
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(line);
  } catch {
    return null;
  }
  const said = [rec.error, rec.err, rec.msg, rec.message].find((v) =>
    typeof v === "string" && v.trim() !== ""
  );
  return typeof said === "string" ? said.trim() : null;
}

function firstLine(output: string | null | undefined, shapes: readonly RegExp[]): string | null {
  if (!output) return null;
  const text = output.length > 2 * SCAN
    ? output.slice(0, SCAN) + "\n" + output.slice(-SCAN)
    : output;
  for (const raw of sanitizeForTerminal(text).split("\n")) {
    const line = raw.trim();
    if (line && shapes.some((re) => re.test(line))) return line;
  }
  return null;
}

/**
 * A status that is not the command's own, in words: `exit 0 of head`, `exit 1 of grep`,
 * `exit 0 (|| true)` ({@link statusOwner} names `owner`).
 */
export function exitOf(exit: number | null, owner: string): string {
  return owner.startsWith("||") || owner.startsWith(";")
    ? `exit ${exit} (${owner})`
    : `exit ${exit} of ${owner}`;
}

export { runEnd };

/** The outcome of one run (see the module's rules). */
export function outcomeOf(r: RunFacts): Outcome {
  // Stopped while it ran: it neither passed nor failed (trial 32: `failed ✗`).
  if (stoppedEnd(runEnd(r.output ?? r.head))) return "unknown";
  const recorded = r.exit !== null && r.exit !== undefined;
  const owned = recorded && statusOwner(r.command, r.exit) !== null;
  if (recorded && !owned) {
    // PowerShell's 0 says nothing of a script's errors, which it prints and goes on (trial
    // 25: `pwsh -Command "& lint.ps1"`, exit 0, whose output says `'Invoke-ScriptAnalyzer' is
    // not recognized`, was offered as the fix of that same error): its output then says.
    if (r.exit === 0 && POWERSHELL.test(r.command ?? "") && failureLine(r.output) !== null) {
      return "failed";
    }
    return r.exit === 0 ? "ok" : "failed";
  }
  // A harness that marks a non-zero exit as an error says no more than the filter's status
  // (trial 11: `… | findstr` matched nothing, exit 1, and the type check it filtered passed).
  if ((r.isError === true || r.isError === 1) && !(owned && r.exit !== 0)) return "failed";
  return failureLine(r.output) !== null ? "failed" : "unknown";
}

/** True when the run failed ({@link outcomeOf} says `failed`). */
export function runFailed(r: RunFacts): boolean {
  return outcomeOf(r) === "failed";
}

/**
 * A run whose status says it succeeded while its output reports an error, as listings name
 * it, the status after it (trial 38: `failed (exit 0)` read as a contradiction).
 */
export const BY_OUTPUT = "failed by its output";

/**
 * A short status for people and agents: `exit N` when the exit status is
 * recorded, `failed` when the run failed without one, `no result` when the
 * call has none (it never finished), `exit unknown` otherwise.
 */
export function outcomeLabel(r: RunFacts): string {
  const end = runEnd(r.output ?? r.head);
  if (stoppedEnd(end)) return end!;
  if (end?.startsWith("timed out") && outcomeOf(r) === "failed") {
    return r.exit !== null && r.exit !== undefined ? `${end} (exit ${r.exit})` : end;
  }
  if (end?.startsWith("in background") && (r.exit === null || r.exit === undefined)) return end;
  if (r.exit !== null && r.exit !== undefined) {
    const owner = statusOwner(r.command, r.exit);
    if (!owner) {
      return outcomeOf(r) === "failed" && r.exit === 0 ? `${BY_OUTPUT} (exit 0)` : `exit ${r.exit}`;
    }
    // Failed by its output behind a status that says nothing (trial 12: `exit 0 of tail ✗`).
    return outcomeOf(r) === "failed"
      ? `${BY_OUTPUT} (${exitOf(r.exit, owner)})`
      : exitOf(r.exit, owner);
  }
  if (outcomeOf(r) === "failed") return "failed";
  return r.noResult ? "no result" : "exit unknown";
}

/**
 * How a command's runs went, for people and agents: `2 ok`, `1 failed, 1 exit
 * unknown`, `1 no result` (counts of {@link outcomeOf}; zero counts left out). `noResult`:
 * of the `unknown` ones, the calls that got no result at all, said as such (trial 103 F7:
 * "1 exit unknown" of a call that never finished, which ctx calls "no result").
 *
 * @param wrap styles one part (colour on a terminal), given its outcome.
 */
export function outcomeMix(
  n: Record<Outcome, number> & { noResult?: number },
  wrap: (text: string, o: Outcome) => string = (t) => t,
): string {
  const none = Math.min(n.noResult ?? 0, n.unknown);
  return ([
    ["ok", "ok", n.ok],
    ["failed", "failed", n.failed],
    ["unknown", "exit unknown", n.unknown - none],
    ["unknown", "no result", none],
  ] as const)
    .filter(([, , k]) => k > 0).map(([o, label, k]) => wrap(`${k} ${label}`, o)).join(", ");
}
