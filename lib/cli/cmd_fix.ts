/**
 * `deja fix "<error text>"`: what ran after the same error before, where it did not come back.
 * Sessions of throwaway projects are left out as search leaves them out (lib/search/sessions.ts
 * `defaultHidden`; `--junk` shows them), and how many held the error is said.
 *
 * Parse ({@link parseFix}; `-` reads the text from stdin) → run ({@link fixData}) → render
 * ({@link fixJson}, {@link fixText}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtSessionTime, intOpt, isoTime, printJson } from "./common.ts";
import { commandLines, commandOneLine, oneLine, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import type { Store } from "../store.ts";
import { shortRef } from "../sessions.ts";
import { editChange, type FixEdit } from "../memory/fix_edits.ts";
import {
  findFixes,
  type FixExample,
  fixRecord,
  type FixResult,
  NOT_CHECKED,
} from "../memory/fix.ts";
import { hiddenHint, JUNK_OPTION, withStore } from "./_memory.ts";
import { defaultHidden } from "../search/sessions.ts";
import { ERROR_TEXT_HEAD, ERROR_TEXT_MAX, errorTextWithin } from "../memory/signature.ts";

/** Largest text read from stdin: 16 MiB (a log piped whole; its end is kept, see {@link errorTextWithin}). */
const STDIN_MAX = 16 << 20;

export const fixCmd: CommandSpec = {
  refresh: true,
  words: true,
  usage: 'fix "<error text>" | fix - (reads stdin) [--junk] [--limit N] [--json]',
  options: {
    limit: { type: "string", value: "<n>", description: "commands to show (default 3)" },
    ...JUNK_OPTION,
    json: { type: "boolean", description: "print the answer as JSON (docs/json-output.md)" },
  },
  run: runFix,
};

/** What `deja fix` was asked. */
export interface FixArgs {
  /** The error text; null when it is to be read from stdin (`-`). */
  text: string | null;
  /** Most commands to show. */
  limit: number;
  /** `--junk`: look in throwaway projects' sessions too. */
  junk: boolean;
  json: boolean;
}

/** What fix found, each example with the shortest reference of its session. */
export interface FixData extends Omit<FixResult, "fixes" | "mentioned"> {
  fixes: Array<
    Omit<FixResult["fixes"][number], "examples"> & {
      examples: Array<FixExample & { ref: string }>;
    }
  >;
  /** Sessions that hold the error though no failing command printed it (status `unseen`). */
  mentioned: Array<NonNullable<FixResult["mentioned"]>[number] & { ref: string }>;
}

/**
 * Reads `deja fix`'s arguments.
 *
 * @throws {DejaError} when no error text is given, or --limit is not a positive number.
 */
export function parseFix(a: Args): FixArgs {
  const words = a.positionals.join(" ");
  const stdin = words.trim() === "-";
  if (!stdin) errorText(words);
  return {
    text: stdin ? null : words,
    limit: intOpt(a, "limit", 3),
    junk: Boolean(a.values.junk),
    json: Boolean(a.values.json),
  };
}

/** `text` when it holds more than white space. @throws {DejaError} otherwise */
export function errorText(text: string): string {
  if (!text.trim()) {
    throw new DejaError(
      "no error text given",
      'deja fix "<error line>", or pipe it: … | deja fix -',
    );
  }
  return text;
}

/**
 * What ran after the error in `text` before, best first. Sessions of throwaway
 * (unless `junk`) and excluded projects are left out, and counted in `hidden`
 * when they hold the error; the project the person is in (`io.cwd`) never is.
 */
export function fixData(
  store: Store,
  text: string,
  o: { limit: number; junk: boolean },
  io: Pick<IO, "env" | "cwd">,
): FixData {
  const hidden = defaultHidden(store, { env: io.env, junk: o.junk, here: io.cwd });
  const r = findFixes(store, text, { limit: o.limit, mentions: true, hidden });
  return {
    ...r,
    fixes: r.fixes.map((f) => ({
      ...f,
      examples: f.examples.map((e) => ({ ...e, ref: shortRef(store, e.harness, e.session) })),
    })),
    mentioned: (r.mentioned ?? []).map((m) => ({
      ...m,
      ref: shortRef(store, m.harness, m.session),
    })),
  };
}

/** The `--json` document (docs/json-output.md, `fix`). */
export function fixJson(d: FixData): Record<string, unknown> {
  return {
    status: d.status,
    message: d.message,
    signatures: d.signatures,
    names: d.names,
    specific: d.specific,
    seen: d.seen,
    hidden: d.hidden,
    seen_in: d.seenIn.map((x) => ({
      harness: x.harness,
      session: x.session,
      short_id: x.ref,
      specific: x.specific,
    })),
    fixes: d.fixes.map((f) => ({
      command: f.command,
      action: f.action,
      path: f.path,
      ...(f.rerun !== undefined ? { rerun: f.rerun } : {}),
      ...(f.ranNext !== undefined ? { ran_next: f.ranNext } : {}),
      ...(f.edits !== undefined ? { edits: f.edits.map(editJson) } : {}),
      sessions: f.sessions,
      succeeded: f.succeeded,
      unknown: f.unknown,
      gone: f.gone,
      retry: f.retry,
      ...(f.changed ? { changed: f.changed } : {}),
      checked: f.checked,
      specific: f.specific,
      ...(f.adapted ? { adapted: f.adapted } : {}),
      ...(f.otherNames ? { other_names: f.otherNames } : {}),
      last: isoTime(f.last),
      time_from_file: f.timeFromFile,
      examples: f.examples.map((e) => ({
        harness: e.harness,
        session: e.session,
        short_id: e.ref,
        time: isoTime(e.time),
        failed: e.failed,
        then: e.then,
        edited: e.edited,
        edits: e.edits.map(editJson),
      })),
    })),
    mentioned: d.mentioned.map((m) => ({
      harness: m.harness,
      session: m.session,
      short_id: m.ref,
      title: m.title,
      specific: m.specific,
    })),
  };
}

/** A change of a file as `--json` gives it (docs/json-output.md, `fixes[].edits[]`). */
function editJson(e: FixEdit): Record<string, unknown> {
  return { path: e.path, op: e.op, old: e.old, new: e.new };
}

/**
 * The lead of a fix that is a change made before the failing command ran again (trial 105 F4):
 * each change (two at most, the rest counted), then the re-run that showed it worked; or, when
 * another command ran next (trial 106 F4), that command, said to show nothing of the change.
 */
function editLead(
  f: FixData["fixes"][number],
  c: ReturnType<typeof colors>,
  home: string,
): string[] {
  const edits = f.edits ?? [];
  const out = edits.slice(0, 2).map((e) => `  ${c.bold(editLine(e, home))}`);
  if (edits.length > 2) out.push(c.dim(`  and ${edits.length - 2} more changes`));
  if (f.rerun !== undefined) {
    out.push(`  then run again: ${c.bold(oneLine(commandOneLine(f.rerun), 140))}`);
  } else {
    out.push(c.dim(
      `    then ran ${oneLine(commandOneLine(f.ranNext ?? ""), 100)}: another command, no ` +
        "re-run of what failed",
    ));
  }
  return out;
}

/** `edit ~/k8s/deploy.yaml: apps/v1beta1 → apps/v1` (a write whose old text is unknown: its file). */
function editLine(e: FixEdit, home: string): string {
  const change = editChange(e, 60);
  return `${e.op} ${tilde(e.path, home)}${change ? `: ${change}` : ""}`;
}

/** The answer as text: the commands with their record, or why there is none (colour on a terminal). */
export function fixText(d: FixData, io: Pick<IO, "isTTY" | "env">): string {
  const c = colors(io);
  if (d.status !== "found") {
    const named = d.mentioned.map((m) =>
      `  ${c.cyan(m.ref)}  ${m.harness}${m.title ? `  ${oneLine(m.title, 80)}` : ""}\n`
    ).join("");
    return `${d.message}\n${named}` +
      // Not echoed whole (trial 54: 50 kB pasted, 48 kB printed back).
      (d.signatures.length ? c.dim(`looked for: ${oneLine(d.lookedFor, 300)}\n`) : "") +
      (d.mentioned.length || d.seenIn.length
        ? c.dim(`deja show ${(d.mentioned[0] ?? d.seenIn[0]).ref} to read it\n`)
        : "");
  }
  const out = [d.message];
  for (const f of d.fixes) {
    const lead = f.rerun !== undefined || f.ranNext !== undefined
      ? editLead(f, c, io.env.home)
      : null;
    out.push(
      "",
      ...(lead ?? []),
      // A command of several lines flush left, as it pastes (an indented `EOF` ends no
      // here-document, trial 12).
      ...(lead ? [] : ((ls) => ls.length > 1 ? ls.map((l) => c.bold(l)) : [`  ${c.bold(ls[0])}`])(
        commandLines(f.adapted?.command ?? f.command, 140),
      )),
      // Offered for this error's name, the command as it ran for the other (trial 14: `npm
      // install express` offered verbatim for `'left-pad'`).
      ...(f.adapted
        ? [
          c.dim(
            `    for '${f.adapted.to}'; it ran as ${
              oneLine(f.command, 100)
            } for '${f.adapted.from}'`,
          ),
        ]
        : f.otherNames
        ? [c.dim(`    it ran for ${f.otherNames.map((n) => `'${oneLine(n, 60)}'`).join(", ")}`)]
        : []),
      c.dim(
        `    ${f.sessions} session${f.sessions === 1 ? "" : "s"}${
          // The record of another command that ran next says nothing of the change (trial 106 F4).
          f.ranNext !== undefined ? "" : `, ${lead ? "re-run " : ""}${fixRecord(f)}`}, last ${
          fmtSessionTime(f.last, f)
        }${
          lead
            ? ""
            : f.retry
            ? ", the same command run again"
            : f.changed
            ? `, the same ${f.action} with ${oneLine(f.changed, 80)}`
            : ""
        }${f.checked ? "" : `, ${NOT_CHECKED}`}${
          // Where the error was seen with its own names, a fix from a session that saw only
          // its general form says so (trial 13: another test's fix read as this one's).
          d.specific && !f.specific ? ", after the error in its general form only" : ""}`,
      ),
    );
    for (const e of f.examples) {
      out.push(
        `    after ${c.red(oneLine(commandOneLine(e.failed), 80))} failed in ${
          c.cyan(e.ref)
        } ${e.harness}`,
      );
      // An edit fix's own example's changes are its lead; another session's are said.
      if (lead && e.edits.length && JSON.stringify(e.edits) !== JSON.stringify(f.edits)) {
        for (const x of e.edits.slice(0, 2)) out.push(`      ${editLine(x, io.env.home)}`);
      } else if (!lead && e.edited.length) {
        out.push(`      edited ${e.edited.map((p) => tilde(p, io.env.home)).join(", ")}`);
      }
    }
  }
  return out.join("\n") + "\n";
}

async function runFix(a: Args, io: IO): Promise<number> {
  const args = parseFix(a);
  const whole = args.text ?? errorText(await io.readStdin(STDIN_MAX, 10_000));
  const cut = errorTextWithin(whole);
  if (cut !== null) {
    io.err(
      `deja: the text is ${(whole.length / 1e6).toFixed(1)} MB; its first 64 KB and last ` +
        `${((ERROR_TEXT_MAX - ERROR_TEXT_HEAD) / 1024).toFixed(0)} KB are read${
          whole.length >= STDIN_MAX ? " (stdin stopped at 16 MiB)" : ""
        }\n`,
    );
  }
  const text = cut ?? whole;
  const d = withStore(io, (store) => fixData(store, text, args, io));
  if (args.json) printJson(io, fixJson(d));
  else {
    io.out(fixText(d, io));
    hiddenHint(io, d.hidden);
  }
  return d.status === "found" ? 0 : 1;
}
