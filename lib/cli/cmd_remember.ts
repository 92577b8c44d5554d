/** `deja remember "text"`: a durable note, searchable at once. */
import type { Args, CommandSpec } from "./common.ts";
import { opt, printJson } from "./common.ts";
import { tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { remember } from "../memory/notes.ts";

export const rememberCmd: CommandSpec = {
  usage: 'remember "text" [--project <dir|name>] [--tag <t>]... [--json]',
  options: {
    project: {
      type: "string",
      value: "<dir|name>",
      description: "what the note is about (default: the current directory)",
    },
    tag: { type: "string", value: "<t>", description: "a tag (repeatable)", multiple: true },
    json: { type: "boolean", description: "print the note as JSON (docs/json-output.md)" },
  },
  run: runRemember,
};

async function runRemember(a: Args, io: IO): Promise<number> {
  const text = a.positionals.join(" ").trim();
  if (!text) throw new DejaError("nothing to remember", 'deja remember "the fix was …"');
  const r = await remember(io.env, text, {
    project: opt(a, "project"),
    tags: (a.values.tag as string[] | undefined) ?? [],
    cwd: io.cwd,
  });
  if (a.values.json) {
    printJson(io, {
      note: r.note,
      path: r.path,
      session: r.session,
      indexed: r.indexed,
      error: r.error ?? null,
    });
    return 0;
  }
  io.out(`Remembered under ${tilde(r.note.project, io.env.home)} (${r.session}).\n`);
  if (!r.indexed) {
    io.err(
      `deja: saved to ${r.path}, not indexed yet: ${r.error ?? "unknown reason"}\n` +
        "hint: the next 'deja index' picks it up\n",
    );
  }
  return 0;
}
