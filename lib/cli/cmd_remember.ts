/**
 * `deja remember "text"`: a durable note, searchable at once.
 *
 * Parse ({@link parseRemember}) → run (`remember`, lib/memory/notes.ts: append and index) →
 * render ({@link rememberJson}, {@link rememberText}, {@link rememberNote}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import { opt, printJson, searchInstead } from "./common.ts";
import { QUESTION } from "../query.ts";
import { tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { remember, type Remembered, splitTags } from "../memory/notes.ts";
import { isWindowsPath } from "../project_path.ts";
import { isAbsolute } from "node:path";

export const rememberCmd: CommandSpec = {
  usage: 'remember "text" [--project <dir|name>] [--tag <t>]... [--json]',
  options: {
    project: {
      type: "string",
      value: "<dir|name>",
      description:
        "what the note is about: an indexed project as deja prints it, a directory (`./x`, `../x`, `~/x`, absolute, or an existing one from here), or an indexed project's folder name or a part of its path (several matching: an error); a name none matches is kept as a name (default: the current directory; empty: an error)",
    },
    tag: {
      type: "string",
      value: "<t>",
      description: "a tag (repeatable; a,b gives two)",
      multiple: true,
    },
    json: { type: "boolean", description: "print the note as JSON (docs/json-output.md)" },
  },
  run: runRemember,
};

/** What `deja remember` was asked. */
export interface RememberArgs {
  /** The note, as typed (secrets are redacted when it is written). */
  text: string;
  /** A directory or a name; the current directory when absent. */
  project?: string;
  tags: string[];
  json: boolean;
}

/**
 * Reads `deja remember`'s arguments.
 *
 * @throws {DejaError} when there is no text.
 */
export function parseRemember(a: Args): RememberArgs {
  const text = a.positionals.join(" ").trim();
  if (!text) throw new DejaError("nothing to remember", 'deja remember "the fix was …"');
  return {
    text,
    project: opt(a, "project"),
    tags: splitTags(a.values.tag),
    json: Boolean(a.values.json),
  };
}

/** The `--json` document (docs/json-output.md, `remember`). */
export function rememberJson(r: Remembered): Record<string, unknown> {
  return {
    note: r.note,
    path: r.path,
    session: r.session,
    id: r.id,
    indexed: r.indexed,
    error: r.error ?? null,
    unmatched: r.unmatched ?? null,
    redacted: r.redacted ?? {},
    already: r.already === true,
  };
}

/**
 * The one line saying where the note went: the note's own id (what `deja forget --note`
 * takes; the day it is filed under is a session of several notes) and its undo.
 */
export function rememberText(r: Remembered, io: Pick<IO, "env">): string {
  // The same note again is the one kept (trial 98 F8): no second copy to forget apart.
  if (r.already) {
    return `already remembered as note ${r.id} for ${tilde(r.note.project, io.env.home)} (${
      r.note.ts.slice(0, 10)
    }): nothing written; undo: deja forget --note ${r.id}\n`;
  }
  return `remembered note ${r.id} for ${tilde(r.note.project, io.env.home)}; ` +
    `undo: deja forget --note ${r.id}\n`;
}

/**
 * What stderr says when the note reads like a question (`deja remember how I fixed …`):
 * it was written all the same (nothing typed is lost), so say so, how to search those
 * words instead and how to take the note back. Empty for any other note.
 */
export function questionNote(text: string, r: Remembered): string {
  if (!QUESTION.test(text) || r.already) return "";
  return `deja: a note was written, although this reads like a question: remember keeps notes, it does not search\n` +
    `hint: ${searchInstead(text.split(/\s+/))}; to undo: deja forget --note ${r.id}\n`;
}

/**
 * What stderr says when `--project` named no indexed project: the note is filed under the
 * name as typed (lib/memory/notes.ts `notePlace`). Empty otherwise.
 */
export function unmatchedNote(r: Remembered): string {
  if (r.unmatched === undefined) return "";
  if (isAbsolute(r.unmatched) || isWindowsPath(r.unmatched)) {
    return `deja: '${r.unmatched}' is no indexed project and no directory here: the note is filed under that path\n` +
      "hint: --project takes the project's directory or a part of its path; deja last lists projects\n";
  }
  return `deja: no indexed project matches '${r.unmatched}': the note is filed under that name\n` +
    "hint: --project takes the project's directory or a part of its path; deja last lists projects\n";
}

/** What stderr says when the note was saved but not indexed (empty when it was). */
export function rememberNote(r: Remembered): string {
  if (r.indexed) return "";
  return `deja: saved to ${r.path}, not indexed yet: ${r.error ?? "unknown reason"}\n` +
    `hint: ${r.retry ?? "the next 'deja index' picks it up"}\n`;
}

async function runRemember(a: Args, io: IO): Promise<number> {
  const args = parseRemember(a);
  // `-` reads the note from stdin, as `deja fix -` does (trial 61: the note was "-").
  if (args.text === "-") {
    args.text = (await io.readStdin(NOTE_STDIN_MAX, 10_000)).trim();
    if (!args.text) {
      throw new DejaError("nothing to remember: stdin was empty", 'deja remember "text"');
    }
  }
  const r = await remember(io.env, args.text, {
    project: args.project,
    tags: args.tags,
    cwd: io.cwd,
  });
  if (args.json) {
    printJson(io, rememberJson(r));
    return 0;
  }
  io.out(rememberText(r, io));
  const unmatched = unmatchedNote(r);
  if (unmatched) io.err(unmatched);
  const asked = questionNote(args.text, r);
  if (asked) io.err(asked);
  const note = rememberNote(r);
  if (note) io.err(note);
  const secrets = redactedNote(r);
  if (secrets) io.err(secrets);
  return 0;
}

/** Most bytes of a note read from stdin (`deja remember -`). */
const NOTE_STDIN_MAX = 1 << 20;

/**
 * What stderr says when secrets were redacted from the note before it was written (trial 61:
 * said nowhere): what was kept is what searches find and the agents read.
 */
export function redactedNote(r: Remembered): string {
  const kinds = Object.entries(r.redacted ?? {});
  if (!kinds.length) return "";
  const n = kinds.reduce((a, [, c]) => a + c, 0);
  return `deja: ${n === 1 ? "1 secret was" : `${n} secrets were`} redacted from the note (${
    kinds.map(([k, c]) => `${c} ${k}`).join(", ")
  }): it holds [redacted:…] in its place\n`;
}
