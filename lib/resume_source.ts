/**
 * Sessions no resume command reaches, told by the store deja read them from:
 * one table, {@link NOT_REOPENED}, of a harness and a source-path pattern, and
 * what lives there.
 *
 * - `prompts`: a prompt history (Claude Code and Codex `history.jsonl`, Gemini
 *   CLI `tmp/<project>/logs.json`, Kimi CLI `user-history/*.jsonl`, opencode
 *   `prompt-history.jsonl`; parsers/_prompt_history.ts). deja makes a
 *   session of it only when the session's transcript is gone, so the harness
 *   has nothing to reopen: only the prompts remain. `deja handoff` still
 *   carries them on (its digest is built from the index, not the store).
 *
 * - `ide`: an editor's own chat history, which the harness's CLI does not read
 *   (docs/registry/<id>.md, "Store and files"): the Cline and Kilo Code
 *   extensions' `globalStorage/<extension>/tasks/` (the `cline` CLI keeps
 *   `~/.cline/data`, the Kilo CLI `kilo.db`), Cursor's `state.vscdb` composers
 *   (`cursor-agent` keeps `~/.cursor`), the Kiro IDE's `.chat` files and
 *   `sessions/<workspace>/sess_*` (`kiro-cli` resumes only `sessions/cli/`).
 *   The editor is named from the path (`<App>/User/globalStorage`).
 *   Not listed: Amp's legacy editor threads (`amp threads continue` reads
 *   threads from ampcode.com, which may hold them; not checked), Continue's
 *   `~/.continue/sessions` (shared by the extension and `cn`).
 *
 * - `summary`: Copilot CLI's cross-session index `session-store.db`. deja reads
 *   a session from it only when no `session-state/<id>/events.jsonl` (nor a
 *   legacy file) holds it (docs/registry/copilot.md), and `copilot --resume`
 *   reopens a session from that event log: only the summary row remains.
 *
 * - `copy`: a Codex session read from another session's rollout. A forked or
 *   spawned thread's rollout carries a copy of its parent's; when no rollout
 *   of the parent exists deja makes the parent's session of that copy
 *   (docs/registry/codex.md, "Forks and subagents"), so the file is named with
 *   another id than the session's and `codex resume` finds no rollout of it.
 *   The fork itself, whose file it is, still resumes.
 *
 * The id-named prompt histories (`prompt-history-*`: opencode, Kimi CLI,
 * Cursor's workspace prompts) are told by id instead (core/prompt_history.ts).
 *
 * @module
 */
import { closeSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";

/** What lives in a store no resume command reads. */
export type Lives =
  | { kind: "prompts" }
  | { kind: "summary" }
  | { kind: "copy" }
  /** `editor`: its name when the path does not tell; `part`: what in it keeps the chats. */
  | { kind: "ide"; editor: string; part?: string };

/** One row: sessions of `harness` whose source path matches `source`. */
export interface NotReopened {
  harness: string;
  source: RegExp;
  lives: Lives;
  /** Only when this also holds of the session's native id and source (default: always). */
  when?: (id: string, source: string) => boolean;
}

/** The uuid a rollout file is named with (`rollout-<time>-<uuid>.jsonl`). */
const ROLLOUT_ID =
  /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(?:\.zst)?$/i;

/** The thread id of a rollout's first line (`session_meta`), undefined when it cannot be read. */
function firstMetaId(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buf = new Uint8Array(256 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = new TextDecoder().decode(buf.subarray(0, n));
    const end = text.indexOf("\n");
    if (end < 0) return undefined;
    const rec = JSON.parse(text.slice(0, end));
    const id = rec?.type === "session_meta"
      ? rec.payload?.id ?? rec.payload?.session_id
      : undefined;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Separator of either OS, so a store read from a Windows path matches too. */
const SEP = String.raw`[\\/]`;

/** The stores whose sessions no resume command reopens. */
export const NOT_REOPENED: readonly NotReopened[] = [
  // The transcripts are `projects/<folder>/<uuid>.jsonl`; the history sits beside `projects`.
  { harness: "claude", source: re(`${SEP}history\\.jsonl$`), lives: { kind: "prompts" } },
  // The transcripts are `rollout-*.jsonl[.zst]`.
  { harness: "codex", source: re(`${SEP}history\\.jsonl$`), lives: { kind: "prompts" } },
  // gemini.ts never reads a `logs.json` as a chat.
  { harness: "gemini", source: re(`${SEP}logs\\.json$`), lives: { kind: "prompts" } },
  // Sessions with an events log are read from `session-state/`, never from here.
  {
    harness: "copilot",
    source: re(`${SEP}session-store\\.db$`),
    lives: { kind: "summary" },
  },
  // A rollout named with another id: the copy of a parent inside its fork's file.
  {
    harness: "codex",
    source: re(`${SEP}rollout-[^\\/]*\\.jsonl(\\.zst)?$`),
    lives: { kind: "copy" },
    when: (id, source) => {
      // A file named with no id (a copy renamed by hand; trial 71: realdata's rollouts) tells
      // its own thread by its first `session_meta`; read only when a resume asks of one id.
      const own = ROLLOUT_ID.exec(basename(source))?.[1] ?? (id ? firstMetaId(source) : undefined);
      return own !== undefined && own.toLowerCase() !== id.toLowerCase();
    },
  },
  // Histories that name no session, also told by id (`prompt-history-*`); the paths catch
  // the sessions an index made before that name (`history-<md5>`, `prompt-history`).
  {
    harness: "kimi",
    source: re(`${SEP}user-history${SEP}[^\\\\/]+\\.jsonl$`),
    lives: { kind: "prompts" },
  },
  { harness: "opencode", source: re(`${SEP}prompt-history\\.jsonl$`), lives: { kind: "prompts" } },
  {
    harness: "cline",
    source: re(`${SEP}globalStorage${SEP}saoudrizwan\\.claude-dev${SEP}`),
    lives: { kind: "ide", editor: "a VS Code-style editor", part: "the Cline extension" },
  },
  {
    harness: "kilocode",
    source: re(`${SEP}globalStorage${SEP}kilocode\\.kilo-code${SEP}`),
    lives: { kind: "ide", editor: "a VS Code-style editor", part: "the Kilo Code extension" },
  },
  {
    harness: "cursor",
    source: re(`${SEP}(global|workspace)Storage${SEP}state\\.vscdb$`),
    lives: { kind: "ide", editor: "Cursor" },
  },
  {
    harness: "kiro",
    source: re(`${SEP}globalStorage${SEP}kiro\\.kiroagent${SEP}`),
    lives: { kind: "ide", editor: "Kiro" },
  },
  {
    harness: "kiro",
    source: re(
      `${SEP}sessions${SEP}(?!cli${SEP})[^\\\\/]+${SEP}sess_[^\\\\/]+${SEP}messages\\.jsonl$`,
    ),
    lives: { kind: "ide", editor: "Kiro" },
  },
];

/** The editors of `<App>/User/...` folders, by folder name (parsers/_vscode.ts lists the folders read). */
const EDITORS: Record<string, string> = {
  "code": "VS Code",
  "code - insiders": "VS Code Insiders",
  "vscodium": "VSCodium",
  "cursor": "Cursor",
  "windsurf": "Windsurf",
  "kiro": "Kiro",
};

/** The editor whose `User` directory holds `source`, or `fallback`. */
function editorOf(source: string, fallback: string): string {
  const m = new RegExp(`([^\\\\/]+)${SEP}User${SEP}(global|workspace)Storage${SEP}`, "i").exec(
    source,
  );
  return (m && EDITORS[m[1].toLowerCase()]) ?? fallback;
}

function re(s: string): RegExp {
  return new RegExp(s, "i");
}

/**
 * The row for the session `id` of `harness` read from `source`, or undefined when a command may
 * reach it. `id` is the harness's own, as its store names it: a remote's session without its
 * `<origin>:` (lib/remote/label.ts `ownId`).
 */
export function notReopened(harness: string, source: string, id = ""): NotReopened | undefined {
  return NOT_REOPENED.find((r) =>
    r.harness === harness && r.source.test(source) && (!r.when || r.when(id, source))
  );
}

/** Who is asked: the harness's name and the program its resume command runs. */
export interface Asked {
  display: string;
  /** The first word of `capabilities.resume` (`cline`, `cursor-agent`), null when none. */
  program: string | null;
}

/**
 * Why a session read from `source` (matching `row`) is not reopened; `subject` names it ("this
 * session", or "the parent" when a subagent was asked for).
 */
export function notReopenedReason(
  row: NotReopened,
  who: Asked,
  source: string,
  subject = "this session",
): string {
  const display = who.display;
  switch (row.lives.kind) {
    case "prompts":
      return `${subject} is known only from ${display}'s prompt history (${
        basename(source)
      }): only its prompts remain; its transcript is gone, so no command reopens it`;
    case "summary":
      return `${subject} is known only from ${display}'s session index: only its summary row ` +
        `remains in ${basename(source)}; its event log (session-state/<id>/events.jsonl), which ${
          who.program ? `'${who.program} --resume'` : display
        } reopens, is gone, so no command reopens it`;
    case "copy":
      return `${subject}'s own transcript is not on disk: deja read it from the copy inside ` +
        `another session's file (${basename(source)}), and ${
          who.program ? `'${who.program} resume'` : display
        } finds a session only by its own file, so no command reopens it`;
    case "ide": {
      const editor = editorOf(source, row.lives.editor);
      const part = row.lives.part ? ` (${row.lives.part})` : "";
      const reader = who.program ? `'${who.program}'` : `${display}'s command`;
      return `${subject} lives in ${editor}'s chat history${part}, which ${reader} does not ` +
        `read; reopen it there`;
    }
  }
}
