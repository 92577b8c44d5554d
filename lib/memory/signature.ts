/**
 * Error signatures: an error line with what changes from run to run taken
 * out, so the same error seen in another checkout, on another day, with
 * another process id still matches.
 *
 * Normalisation (in this order): terminal colour codes are removed; quote characters become spaces (the quoted
 * word stays: `'lodash'` in "cannot find module 'lodash'" is what makes the
 * error specific); paths (anything with a `/` or `\` in it, `~/…`, `C:\…`) and
 * file names (`name.ext`) are removed; a Kubernetes pod name keeps only its
 * workload (`forgejo-5f4d46f74-hwbtn` -> `forgejo`), and so does a name with a dashed id of
 * letters and digits (`forgejo-abc123` -> `forgejo`); hex (`0x1f`, hashes of 7+
 * hex digits with a digit in them, uuids) and numbers are removed; the rest is lower
 * case letters, one space between words.
 *
 * @module
 */
import { sanitizeForTerminal } from "../redact.ts";

/** Largest error text looked at: 1 MiB (its first {@link ERROR_TEXT_HEAD} and its last part when longer). */
export const ERROR_TEXT_MAX = 1 << 20;
/** What of a longer error text's start is looked at. */
export const ERROR_TEXT_HEAD = 64 << 10;

/**
 * `text` within {@link ERROR_TEXT_MAX}: its first {@link ERROR_TEXT_HEAD} and its last part,
 * where a log's error usually is (trial 14: a 1.1 MB dump ending in the error was cut at 1
 * MiB, and "no line of that text reports an error"). Null when it fits. `deja fix` and the
 * MCP tool's fix mode read a pasted error through it.
 */
export function errorTextWithin(text: string): string | null {
  if (text.length <= ERROR_TEXT_MAX) return null;
  return text.slice(0, ERROR_TEXT_HEAD) + "\n" +
    text.slice(text.length - (ERROR_TEXT_MAX - ERROR_TEXT_HEAD));
}

/**
 * Longest line of a pasted error read, in characters: a longer one (a minified stack, one
 * JSON log line) is cut to its start. Several of the expressions below look back over a run
 * of letters at every place of it: a 100,000-character line took 17 s, a 2 MB one minutes,
 * and MCP's one server waited behind it (trial 62).
 */
export const ERROR_LINE_MAX = 2_000;

/** `text` with each line cut to {@link ERROR_LINE_MAX} characters (the same text when none is longer). */
export function linesWithin(text: string): string {
  if (text.length <= ERROR_LINE_MAX) return text;
  return text.replace(/[^\r\n]{2001,}/g, (l) => l.slice(0, ERROR_LINE_MAX));
}

/** Words that mark a line as reporting an error. */
const ERROR_WORDS =
  /\b(?:error|errors|err|fail|failed|failure|fatal|panic|exception|traceback|denied|refused|cannot|can't|could not|couldn't|unable|not found|no such|unknown|undefined|invalid|missing|unexpected|expected|timed out|timeout|segmentation|abort(?:ed)?|conflict|rejected|forbidden|unauthorized|not recognized|is not|does not|did not|no module named|no required module)\b/i;

/**
 * Error lines whose words {@link ERROR_WORDS} miss, as languages print them: an exception's
 * name glued into one word (`ModuleNotFoundError: No module named 'motor'`,
 * `java.lang.NullPointerException`, `NoMethodError`, Elixir's `** (ArgumentError)`), and
 * Rust's `thread 'main' panicked at`. Case matters: the name is CamelCase.
 */
const ERROR_SHAPES = /(?:^|[^\w])[A-Z][A-Za-z0-9]*(?:Error|Exception)\b|\bpanicked at\b/;

/** A line that is an exception's name alone (`MalformedYAMLError`, `KeyError:`, `java.io.IOException`), in any case. */
const EXCEPTION_NAME = /^[A-Za-z_][\w.$]*?[A-Za-z0-9_](?:error|exception)\s*:?$/i;

/** A count of none (`0 errors`, `no failures`): no error said (trial 39: a test log's PASS lines). */
const NONE_COUNT = /\b(?:0|no|zero)\s+(?:errors?|failures?|failed|warnings?)\b/gi;

/**
 * {@link ERROR_WORDS} in the languages shells and runtimes most often speak besides English
 * (Portuguese, Spanish, French, German; trial 55: `erro: não foi possível abrir o arquivo` was
 * "no line of that text reports an error"). Whole words only: letters with accents count as
 * letters around them.
 */
const LOCAL_ERROR_WORDS =
  /(?<!\p{L})(?:erro|erros|falha|falhou|n[ãa]o foi poss[íi]vel|n[ãa]o encontrad[oa]|inexistente|negad[oa]|fallo|fall[óo]|no se pudo|no encontrad[oa]|no existe|denegado|erreur|[ée]chec|[ée]chou[ée]|introuvable|impossible de|fehler|fehlgeschlagen|nicht gefunden|konnte nicht|verweigert|n[ãa]o [ée] reconhecid[oa]|no se reconoce|n['’]est pas reconnu|nicht als name|aucun fichier ou dossier|non accord[ée]e|speicherzugriffsfehler|impossible d['’]acc[ée]der)(?!\p{L})/iu;

/** True when `line` reports an error ({@link ERROR_WORDS}, {@link LOCAL_ERROR_WORDS} or {@link ERROR_SHAPES}). */
function saysError(line: string): boolean {
  const said = line.replace(NONE_COUNT, "");
  return ERROR_WORDS.test(said) || ERROR_SHAPES.test(said) || LOCAL_ERROR_WORDS.test(said);
}

/**
 * A Kubernetes pod name, `<workload>-<template hash>-<5-char suffix>` (`forgejo-5f4d46f74-hwbtn`):
 * the hash (6-10 characters, a digit among them) and the suffix change with every rollout and
 * restart, so only the workload's name is kept.
 */
const POD = /\b([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*)-(?=[a-z]*\d)[a-z0-9]{6,10}-[a-z0-9]{5}\b/g;

/**
 * A generated id glued to a name by a dash, letters and digits of five or more
 * (`forgejo-abc123`, a bare pod or a replica set `forgejo-7c9d8b6f5d`): only the name is kept,
 * as of a {@link POD} name.
 */
const ID_SUFFIX = /\b([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*)-(?=[a-z]*\d)[a-z0-9]{5,}\b/g;

/** `text`, pod names and dashed ids cut to the name they carry ({@link POD}, {@link ID_SUFFIX}). */
function workloads(text: string): string {
  return text.replace(POD, "$1").replace(ID_SUFFIX, "$1");
}

/** Signatures too common to mean anything on their own. */
const GENERIC = new Set([
  "error",
  "exit code",
  "error exit code",
  "command failed",
  "failed",
  "fatal error",
  "traceback most recent call last",
  "process exited with code",
  "command exited with code",
  "exit status",
  "error exit status",
  // A test framework's own words around any assertion (trial 77: Pester's `But was:` and
  // `at <ScriptBlock>, …: line N` matched an unrelated module's failure, "specific").
  "but was",
  "expected but was",
  "at scriptblock",
  "at scriptblock line",
  "expected received",
  "but got",
  "expected but got",
  "assertion failed",
]);

/**
 * The signature of one line (see the module's normalisation).
 *
 * @example signature(`"kustomize": executable file not found in $PATH`) ===
 *   "kustomize executable file not found in path"
 */
export function signature(line: string): string {
  return sanitizeForTerminal(line.length > ERROR_LINE_MAX ? line.slice(0, ERROR_LINE_MAX) : line)
    // git's prefixes of a message it wraps over lines (`hint: Updates were rejected because
    // the remote contains work that you do not` / `hint: have locally.`, trial 9): the line's
    // words are the message's.
    .replace(/^\s*(?:hint|remote):\s+/i, "")
    // The shell that reports it (`bash: gh: command not found`, `/bin/bash: line 1: gh: …`,
    // `zsh: …`): the error is the same whichever printed it (trial 10).
    .replace(/^\s*(?:\S*\/)?(?:ba|z|da|k)?sh:\s*(?:line \d+:\s*)?/i, "")
    // A name before the message that the message quotes again (PowerShell's one-line form,
    // `Invoke-ScriptAnalyzer: The term 'Invoke-ScriptAnalyzer' is not recognized …`, whose
    // multi-line form prints the name on a line of its own, trial 27): the message is the error.
    .replace(/^\s*([^\s:'"`]+) ?:\s+(?=.*['"`\u2018\u201c]\1['"`\u2019\u201d])/u, "")
    .replace(/["'`\u2018\u2019\u201c\u201d]/g, " ")
    .replace(/(?:[A-Za-z]:)?[^\s/\\]*[/\\][^\s]*/g, " ")
    .replace(/~[^\s]*/g, " ")
    .replace(POD, "$1")
    .replace(ID_SUFFIX, "$1")
    .replace(/\b[\w@+-]+\.[A-Za-z][A-Za-z0-9]{0,5}\b/g, " ")
    .replace(/\b0x[0-9a-f]+\b/gi, " ")
    .replace(/\b(?=[0-9a-f-]*\d)[0-9a-f]{7,}(?:-[0-9a-f]{4,})*\b/gi, " ")
    // A short name with digits in it is a name (`cv2`, `utf8`, `node18`, Rust's `E0425`);
    // other digits change from run to run (trial 15: `No module named cv2` was `named cv`).
    .replace(
      /[\p{L}\d]*\d[\p{L}\d]*/gu,
      (w) => /^\p{L}{1,6}\d{1,4}$/u.test(w) ? w : w.replace(/\d+/g, " "),
    )
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    // npm wrote `npm ERR!` before v10 and `npm error` since: one error either way.
    .replace(/\berr\b/g, "error")
    // Python 2 and 3.5 raise ImportError where 3.6 and later raise ModuleNotFoundError, for
    // one error (trial 17: `ImportError: No module named 'requests'` was never seen).
    .replace(/\bimporterror(?= no module named\b)/g, "modulenotfounderror");
}

/**
 * An error code of the errno kind (`ERESOLVE`, `ENOENT`, `EADDRINUSE`): E and four or more
 * capitals, a name tools keep while their wording around it changes.
 */
const ERROR_CODE = /\bE[A-Z]{4,}\b/g;

/**
 * The error codes in `text` as signatures (`code eresolve`), for a last look when
 * no line's own signature is seen: npm's `ERESOLVE unable to resolve dependency tree` became
 * `ERESOLVE could not resolve`, and every version prints `code ERESOLVE` beside it (trial 18b).
 */
export function codeSignatures(text: string): string[] {
  return [...new Set([...text.matchAll(ERROR_CODE)].map((m) => `code ${m[0].toLowerCase()}`))];
}

/**
 * True when the signatures of `text`'s error lines leave out something it holds that changes
 * from run to run (a path, a file name, a number), so an answer that shows the signatures
 * can say so instead of seeming to ignore it (`segmentation fault in libfoo.so`).
 */
export function leavesOut(text: string): boolean {
  return text.split(/\r?\n/).some((l) => saysError(l) && /[/\\~]|\w\.[A-Za-z]|\d/.test(l));
}

/**
 * A quoted name of 2 to 120 characters; a quote inside a word is an apostrophe (trial 15:
 * `Can't resolve './utils'` named `'t resolve '`).
 */
const QUOTED =
  /(?<![\p{L}\p{N}])(["'`\u2018\u201c\u00ab\u201e\u201a])([^"'`\u2019\u201d\u00bb\u201c\u2018\n]{2,120})["'`\u2019\u201d\u00bb\u201c\u2018](?![\p{L}\p{N}])/gu;

/**
 * A shell's "command not found", in English and the languages it most often speaks: the name
 * comes before the words, unquoted (`bash: docker: command not found`; trial 61: not read).
 */
const NOT_FOUND_COMMAND =
  /(?:^|\s)(?:ba|z|da)?sh: (?:line \d+: |linha \d+: |línea \d+: )?([\w.+-]{2,60}): (?:command not found|comando não encontrado|orden no encontrada|commande introuvable|Befehl nicht gefunden)/gu;

/**
 * The names errors print without quotes, where they say what is missing: Go's `no required
 * module provides package github.com/gorilla/mux;` (trial 17: the fix of `spf13/cobra` was
 * given as one for it), Python 2's `ImportError: No module named cv2` and npm's `404 Not
 * Found - GET https://registry.npmjs.org/lodahs`. Group 2, as {@link QUOTED}'s.
 */
const UNQUOTED =
  /\b(no required module provides package |[Nn]o module named |404 Not Found - GET https?:\/\/registry\.npmjs\.org\/)([\w.-]+(?:\/[\w.-]+)*?)(?=[;,:]?(?:\s|$))/g;

/** An npm package's scoped name (`@types/node`): a name, not a path. */
export const SCOPED = /^@[\w.-]+\/[\w.-]+$/;

/** `raw` as a name: a scoped package whole, else the last part of a path (lower case). */
function nameOf(raw: string): string {
  const t = raw.trim();
  return SCOPED.test(t) || GO_IMPORT.test(t) ? t.toLowerCase() : lastPart(workloads(raw));
}

/**
 * A Go import path (`github.com/x/y`, `golang.org/x/sync/errgroup`): a name whole, its last
 * part alone names nothing (trial 18: `github.com/x/y` was read as `y`, too short to look
 * for, and the fix of `github.com/pkg/errors` was given as specific).
 */
const GO_IMPORT = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:\/[\w.~-]+)+$/i;

/**
 * The specific names of `text`'s error lines, which signatures leave out or blur so one error
 * matches in any checkout: quoted words (`'left-pad'`; a pod name or a dashed id as the name it
 * carries, `"forgejo-5f4d46f74-hwbtn"` -> `forgejo`, as signatures take it), and the last
 * part of each path or file name (`/w/app/index.js` -> `index.js`); lower case, deduplicated, in order. A session that
 * holds the error's signature but none of these holds only its general form.
 *
 * @example specificNames("Error: Cannot find module 'left-pad'") // ["left-pad"]
 */
export function specificNames(text: string): string[] {
  const out = new Set<string>();
  for (const line of linesWithin(text).split(/\r?\n/)) {
    if (!saysError(line)) continue;
    const clean = sanitizeForTerminal(line);
    for (const m of [...clean.matchAll(QUOTED), ...clean.matchAll(UNQUOTED)]) out.add(nameOf(m[2]));
    for (const m of clean.matchAll(/(?:[A-Za-z]:)?[^\s/\\'"`]*[/\\][^\s'"`]*/g)) {
      const p = m[0].replace(/[.,:;)]+$/, "");
      if (GO_IMPORT.test(p)) out.add(p.toLowerCase());
      else if (!SCOPED.test(m[0])) out.add(lastPart(m[0]));
    }
    // Whole dotted names (`app.test.js`, `redis.infra.svc.cluster.local`), not pieces of them
    // (trial 39: `cluster.local` was said to be missing from a session holding the host whole).
    for (
      const m of clean.matchAll(/(?<![\w@+.-])[\w@+-]+(?:\.[\w@+-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}\b/g)
    ) {
      out.add(lastPart(m[0]));
    }
  }
  return [...out].filter((n) => n.length >= 2 && /\p{L}/u.test(n));
}

/** A name an error line quotes: its last part ({@link specificNames}) and whether it is a path. */
export interface Quoted {
  /** Lower case, its last part when a path (`'./lib/config'` -> `config`). */
  name: string;
  /** As quoted (`./lib/config`, `left-pad`). */
  raw: string;
  /** A file's path (`/w/app/server.js`, `./config`, `~/x`), not a bare name (`express`). */
  path: boolean;
}

/**
 * The names quoted in `text`'s error lines: what the error is about (`Cannot find module
 * 'express'` is about a package; `Cannot find module '/w/app/server.js'` about a file, another
 * problem with the same words around it, trial 14).
 */
export function quotedNames(text: string): Quoted[] {
  const out: Quoted[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!saysError(line)) continue;
    const clean = sanitizeForTerminal(line);
    const found = [...clean.matchAll(NOT_FOUND_COMMAND)].map((m) => ["", "", m[1]]);
    for (const m of [...clean.matchAll(QUOTED), ...clean.matchAll(UNQUOTED), ...found]) {
      const raw = m[2].trim();
      const name = nameOf(raw);
      if (name.length < 2 || !/\p{L}/u.test(name) || out.some((q) => q.raw === raw)) continue;
      // A path starts at a root, a drive, `.` or `~` (or holds `\`); `lodash/fp` is a
      // package's module, as `@types/node` a package (trial 17).
      out.push({ name, raw, path: /^(?:[/.~]|[A-Za-z]:[\\/])|\\/.test(raw) });
    }
  }
  return out;
}

/**
 * The names `text` prints where its errors say what is missing, unquoted ({@link UNQUOTED}):
 * what a matched line without a name of its own is about (`npm ERR! code E404` above the
 * `404 Not Found - GET …/left-padd` line).
 */
export function unquotedNames(text: string): Quoted[] {
  const out: Quoted[] = [];
  for (const m of sanitizeForTerminal(text).matchAll(UNQUOTED)) {
    const raw = m[2].trim();
    if (raw.length >= 2 && !out.some((q) => q.raw === raw)) {
      out.push({ name: nameOf(raw), raw, path: false });
    }
  }
  return out;
}

/**
 * True when the names two error lines quote are of different kinds: every one of `a` a path and
 * every one of `b` a bare name, or the other way round (neither quoting any: false).
 */
export function otherKind(a: readonly Quoted[], b: readonly Quoted[]): boolean {
  if (!a.length || !b.length) return false;
  const paths = (q: readonly Quoted[]) => q.every((x) => x.path);
  const bare = (q: readonly Quoted[]) => q.every((x) => !x.path);
  return (paths(a) && bare(b)) || (bare(a) && paths(b));
}

/** The last part of a path (`/w/app/index.js` -> `index.js`), lower case, trailing punctuation cut. */
function lastPart(s: string): string {
  const parts = s.trim().split(/[/\\]/).filter(Boolean);
  return (parts[parts.length - 1] ?? "").replace(/[.,:;)]+$/, "").toLowerCase();
}

/** What an answer says after the signatures when {@link leavesOut}. */
export const LEFT_OUT = "paths, file names and numbers left out, so it matches anywhere";

/** True when a signature is long and specific enough to look for. */
export function usable(sig: string): boolean {
  return sig.split(" ").length >= 2 && !GENERIC.has(sig);
}

/**
 * The signatures of the lines of `text` that report an error (at most
 * `max`, deduplicated, in order).
 */
export function errorSignatures(text: string, max = 5): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    // A test run's tally names no error: its numbers gone, it is the passing run's tally too
    // (trial 75: `Passed: 1 Failed: 3 …` "came back" in `Passed: 4 Failed: 0`).
    if (tally(line)) continue;
    // An exception's name alone is one to look for, however typed (trial 53: `deja fix
    // MalformedYAMLError` said no line of it reported an error; trial 54: nor of
    // `MalformedYAMLError:`, `malformedyamlerror`, `KeyError`).
    const name = EXCEPTION_NAME.test(line.trim());
    if (!name && !saysError(line)) continue;
    const sig = signature(line);
    if (!(usable(sig) || name) || !sig || out.includes(sig)) continue;
    out.push(sig);
    if (out.length >= max) break;
  }
  return out;
}

/**
 * The lines of an event's text, a JSON string held in it decoded: a provider's error quoted
 * inside a JSON body (`{"raw":"{\n  \"message\": \"Invalid 'input[3].name': …\"`, a
 * Crush notice) is split on its `\n` and its `\"` read as quotes, so its message is a line of
 * its own. Only a line holding an escaped quote is decoded (a Windows path `C:\new` is not).
 */
export function textLines(text: string): string[] {
  return text.split(/\r?\n/).flatMap((l) =>
    l.includes('\\"')
      ? l.replace(
        /\\(["\\/nrt])/g,
        (_, c) => c === "n" ? "\n" : c === "t" ? " " : c === "r" ? "" : c,
      )
        .split("\n")
      : [l]
  );
}

/** Words a test runner's tally is made of, its numbers aside. */
const TALLY_WORDS = new Set(
  "passed failed failures failing skipped pending inconclusive errors error total tests test ran in s ms sec secs seconds xfailed xpassed warnings warning deselected broken ok not run runs pass fail suites suite assertions of and took completed"
    .split(" "),
);

/** True when `line` is a test run's tally (`Passed: 1 Failed: 3 Skipped: 0`, `3 failed, 2 passed in 0.5s`). */
export function tally(line: string): boolean {
  if (!/\d/.test(line)) return false;
  const words = line.toLowerCase().replace(/[\d.]+/g, " ").match(/[a-z]+/g);
  return !!words && words.length >= 2 && words.every((w) => TALLY_WORDS.has(w));
}

/**
 * True when `text` holds a test run's tally saying nothing failed (`Failed: 0`, `0 failed`) and
 * none saying something did: a passing run, no error (trial 77: a pasted passing Pester run was
 * "seen, but nothing that followed fixed it").
 */
export function passingRun(text: string): boolean {
  const lines = text.split(/\r?\n/).filter(tally);
  const zero = /\bfail(?:ed|ures?|ing)?\s*:?\s*0\b|\b0\s+(?:failed|failures?|failing)\b/i;
  // `3 failed`, not the `4` of `Passed: 4 Failed: 0` before its label.
  const some =
    /\bfail(?:ed|ures?|ing)?\s*:?\s*[1-9]|\b[1-9]\d*\s+(?:failed|failures?|failing)\b(?!\s*:)/i;
  return lines.some((l) => zero.test(l)) && !lines.some((l) => some.test(l));
}

/** The usable signatures of every line of a command's output (one per line, {@link textLines}). */
export function lineSignatures(text: string): string[] {
  const out = new Set<string>();
  for (const line of textLines(text)) {
    if (tally(line)) continue;
    const sig = signature(line);
    if (usable(sig)) out.add(sig);
  }
  return [...out];
}

/**
 * Words that only say "an error happened" (`error`, `fatal`, `uncaught`…): common to every
 * error line, so they never make one error distinct from another.
 */
export const SAYS_ERROR = new Set([
  "error",
  "errors",
  "err",
  "fatal",
  "panic",
  "exception",
  "warning",
  "failed",
  "failure",
  "uncaught",
  "unhandled",
]);

const LEAD =
  /^(?:(?:error|err|fatal|panic|exception|warning|failed|failure|uncaught|unhandled)\s+)+/;

/**
 * The signature without leading words that only say "error" (`error`,
 * `fatal`, `uncaught exception`…), when at least three words remain; else
 * the signature itself. A pasted line often carries such a prefix that the
 * tool's own output lacks, or the other way round.
 */
export function core(sig: string): string {
  const c = sig.replace(LEAD, "");
  return c !== sig && c.split(" ").length >= 3 ? c : sig;
}

/**
 * How closely an output line's signature matches the error's, when {@link sameError}: the
 * share of the longer one's words the shorter holds (1 when they are the same). A short error
 * held in a longer, different one (`file not found` in `yq executable file not found in path`)
 * scores low.
 */
export function matchShare(outputSig: string, errorSig: string): number {
  const o = ` ${outputSig} `;
  const e = o.includes(` ${errorSig} `) ? errorSig : core(errorSig);
  const a = outputSig.split(" ").length;
  const b = (o.includes(` ${e} `) ? e : errorSig).split(" ").length;
  return Math.min(a, b) / Math.max(a, b);
}

/** The {@link matchShare} from which a line is the error itself, not a longer error holding it. */
export const CLOSE_MATCH = 0.6;

/**
 * True when an output line's signature and the error's signature are the
 * same error: the output holds the error (or its {@link core}), or the error
 * holds an output line of at least three words that is most of its {@link core} ({@link CLOSE_MATCH}).
 */
export function sameError(outputSig: string, errorSig: string): boolean {
  const o = ` ${outputSig} `;
  if (o.includes(` ${errorSig} `) || o.includes(` ${core(errorSig)} `)) return true;
  // The error holding a line of the output: that line must be most of it. A pasted
  // `"helm": executable file not found in $PATH` holds `file not found` (a failed edit's
  // `file not found: …/helm-release.yaml`), another error (trial 14: fix named that edit).
  const words = outputSig.split(" ").length;
  return ` ${errorSig} `.includes(o) && words >= 3 &&
    words / core(errorSig).split(" ").length >= CLOSE_MATCH;
}

/**
 * Words that carry no error of their own. Not lib/query.ts STOP_WORDS: that list drops
 * `please`, and with it `RAILWAY_TOKEN is valid, deploying` read as `… please check that your
 * RAILWAY_TOKEN is valid` said again (3 of 5 words).
 */
const FILLER = new Set(
  "a an the is are was were be been it its this that these those your you we i to of in on at for and or with has have had as by"
    .split(" "),
);

/**
 * True when an output line says the error again in other words: it holds at
 * least three of the error's words that say which error it is (neither
 * {@link SAYS_ERROR} nor filler), and most of them ({@link CLOSE_MATCH}).
 * `invalid railway token please check that it is valid and has access` says
 * `unauthorized please check that your railway token is valid` again (trial 10:
 * `fix` offered the run that printed it as the fix).
 */
export function reworded(outputSig: string, errorSig: string): boolean {
  const words = new Set(
    errorSig.split(" ").filter((w) => w.length > 1 && !FILLER.has(w) && !SAYS_ERROR.has(w)),
  );
  if (words.size < 3) return false;
  const out = new Set(outputSig.split(" "));
  const held = [...words].filter((w) => out.has(w)).length;
  return held >= 3 && held / words.size >= CLOSE_MATCH;
}
