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
 * prompt history, each a source of its own) generation 4. The last full run records it (`meta` last_index);
 * a `deja index` over an index of another generation runs in full (discovery
 * included) rather than answering "nothing changed" from the stat pass.
 */
export const READERS = 4;

/** The line `deja --version` prints (the launcher checks for `deja <digit>`). */
export const VERSION_LINE = `deja ${VERSION}\n`;

/** True for the arguments that ask for the version alone: `version`, `--version`, `-V`. */
export function asksVersion(argv: readonly string[]): boolean {
  return argv.length === 1 && ["version", "--version", "-V"].includes(argv[0]);
}
