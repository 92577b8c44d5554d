/**
 * A call of the `deja` tool: its arguments checked, the mode run against the
 * current index, the answer as one text block.
 *
 * Argument problems (an argument of the wrong type or length, lib/mcp/args.ts;
 * no or an unknown mode, the mode's argument missing, an unknown harness, a
 * limit out of range) and library errors come back as results with
 * `isError: true`, so the model can correct its call; they never end the
 * server. The index is opened read-only for each call, so a `deja index`
 * running beside the server is seen at the next call; without an index the
 * answer is one line telling the user to run `deja index` (the server never
 * builds one). `remember` appends to the notes file and indexes it, as
 * `deja remember` does.
 *
 * @module
 */
import { existsSync } from "node:fs";
import type { Env } from "../../core/model.ts";
import { asIndexError, deletedLine, indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { appendNote, remember, splitTags } from "../memory/notes.ts";
import { parsers } from "../../parsers/mod.ts";
import type { ToolResult } from "./protocol.ts";
import { MAX_LIMIT, type Mode, MODES, NEEDS, TOOL } from "./tool.ts";
import { recallText } from "./recall.ts";
import {
  blameAnswer,
  contextText,
  type Filters,
  fixAnswer,
  howResult,
  SMALL_BUDGET,
} from "./answers.ts";
import { questionInstead } from "../cli/question.ts";
import { howCmd } from "../cli/cmd_how.ts";
import { oneLineForAgent } from "./_fit.ts";
import { freshen, lockedLine, refreshOff } from "../fresh/freshen.ts";
import { olderRedaction } from "../fresh/revised.ts";
import { argProblem, errorArg, wellFormedArgs } from "./args.ts";
import { harnessId } from "../../core/registry.ts";
import { projectArg, sameFolder } from "../project_path.ts";
import { Q } from "../schema.ts";
import { sanitizeToWords } from "../../core/terminal.ts";
import { byteLength } from "../../core/text.ts";
import { QUESTION } from "../query.ts";

/** What a call needs from the process: environment, working directory, a log. */
export interface CallContext {
  env: Env;
  /** Directory relative paths resolve against; a note's default project. */
  cwd: string;
  /** Unexpected failures are written here (stderr). */
  log(text: string): void;
  /** Epoch ms "now" (tests). */
  now?: number;
  /**
   * Epoch ms the server started: the conversations of its folder begun since (or, when none,
   * the one written to last since: a resumed one) run now, the one calling the tool among
   * them ({@link runningHere}); no mode answers from them as past sessions (trial 66: the
   * agent's own question came back as the best past session).
   */
  since?: number;
}

/** How recently a session was written to for {@link runningHere} to take it as the caller's. */
export const RUNNING_MS = 15 * 60_000;

/**
 * The row ids of the conversations running now in the server's folder (written to within
 * {@link RUNNING_MS}): those begun since the server started, else the one written to last
 * since then (a resumed conversation), with their subagents.
 */
export function runningHere(store: Store, ctx: CallContext): Set<number> {
  if (ctx.since === undefined) return new Set();
  // A store that keeps whole seconds (Crush) stamps a turn written as the server started a
  // little before it (trial 69): the second the server started counts, no earlier one (trial
  // 119 F3: a conversation begun a second before the server, 2 s of slack, counted as begun
  // since it started, so it stayed "running now" after a newer one began).
  const from = Math.floor(ctx.since / 1000) * 1000;
  const since = Math.max(from, (ctx.now ?? Date.now()) - RUNNING_MS);
  /** Per root session written to: when it started, when it was last written. */
  const roots = new Map<number, { started: number | null; updated: number }>();
  for (const r of Q.sessionsUpdatedSince.all(store, { since })) {
    // Its folder exactly: a window open in a folder inside it is another conversation.
    if (!r.project || !sameFolder(r.project, ctx.cwd)) continue;
    // A subagent the conversation started writes after it: the conversation is its root.
    const root = r.parent
      ? Q.sessionByKey.get(store, { harness: r.harness, native_id: r.parent })
      : undefined;
    const id = root?.id ?? r.id;
    const started = root ? root.started : r.started;
    const had = roots.get(id);
    roots.set(id, { started, updated: Math.max(r.updated, had?.updated ?? 0) });
  }
  // Every conversation begun in the folder since the server started is running now: the one
  // that started it (a harness starts its servers as a conversation begins, and one cleared
  // or begun anew keeps them), or another window in the same folder, no past session either
  // (trial 70: "the last written" swapped with whichever window typed last). A resumed
  // conversation began before: then the one written to last.
  const begun = [...roots].filter(([, r]) => r.started !== null && r.started >= from)
    .map(([id]) => id);
  let last: number | undefined;
  let at = -Infinity;
  for (const [id, r] of roots) if (r.updated > at) [last, at] = [id, r.updated];
  const picks = begun.length ? begun : last === undefined ? [] : [last];
  if (!picks.length) return new Set();
  // The conversations and their subagents, all left out.
  return new Set(Q.withChildren.all(store, { ids: JSON.stringify(picks) }).map((r) => r.id));
}

/** A text answer. */
export function answer(text: string): ToolResult {
  return { content: [{ type: "text", text }] };
}

/** An error answer the model can act on. */
export function failure(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** A problem with the call's arguments. */
class ArgError extends Error {}

/** Inline freshen budget of one tool call in milliseconds (the rest goes to a background run). */
export const MCP_BUDGET_MS = 400;

/** The answer while the first index is being built in the background. */
export const BUILDING =
  "deja is building its index for the first time (in the background, started just now): call " +
  "again in a minute.";

/** The one-line answer when there is no index to read. */
export const NO_INDEX =
  "deja has no index yet: ask the user to run `deja index` in a terminal (it reads the session " +
  "stores of the coding agents on this machine), then call again.";

/** Runs one call of the `deja` tool with `args` (see the module doc). */
export async function callDeja(
  sent: Record<string, unknown>,
  ctx: CallContext,
): Promise<ToolResult> {
  try {
    // A lone surrogate in a text goes no further than here (trial 131 F3).
    const args = wellFormedArgs(sent);
    const bad = argProblem(args);
    if (bad) return failure(bad);
    const mode = modeOf(args.mode);
    const input = inputOf(args, mode);
    // Throwaway and excluded projects are left out as the CLI leaves them out without --junk.
    const f: Filters = filtersOf(args, ctx.env.home);
    f.hide = { env: ctx.env, here: ctx.cwd, project: f.project, auto: true };
    if (mode === "remember") return withIgnored(await rememberNote(input, args, ctx), args, mode);
    const fresh = refreshOff(ctx.env)
      ? undefined
      : await freshen(ctx.env, parsers, { budgetMs: MCP_BUDGET_MS });
    if (fresh?.state === "no_index" && fresh.background) {
      // An index deleted though it held sessions (lib/store.ts deletedIndex): said, with what
      // went with it, not "for the first time".
      return answer(
        fresh.deleted
          ? `deja: ${
            deletedLine(indexPath(ctx.env), fresh.deleted, " in the background now")
          }: call again in a minute.`
          : BUILDING,
      );
    }
    // A store met locked a moment ago (trial 119 F1: "Nothing in past sessions matches", no hint).
    const note = fresh?.locked
      ? `\n\n(deja: ${lockedLine(fresh.locked)}; ask again shortly.)`
      : fresh?.state === "catching_up"
      ? `\n\n(deja's index is catching up: ${fresh.pending} ${fresh.reread ? "" : "changed "}${
        fresh.pending === 1 ? "store is" : "stores are"
      } being read${
        fresh.reread ? " again by a newer reader" : ""
      } in the background; the newest work may be missing — ask again shortly.)`
      : fresh?.state === "damaged"
      ? `\n\n(deja's index was found damaged: answers may miss sessions; the user can run ` +
        "'deja index --rebuild' to build a new one.)"
      : "";
    const res = withIndex(ctx, (store) => {
      // Text an older secrets redaction wrote is given to no model (trial 129 F3: the first
      // recall after an upgrade returned passwords the new rules mask).
      const older = olderRedaction(store);
      if (older) return answer(heldBack(older, Boolean(fresh?.background)));
      // What the conversation calling the tool said or ran a moment ago is no history to any
      // mode (trial 70: `how` said a script "ran 1 time" in it, `fix` "seen in 1 session").
      const running = runningHere(store, ctx);
      const g: Filters = { ...f, leaveOut: running };
      switch (mode) {
        case "recall":
          return answer(
            recallText(store, input, { ...g, env: ctx.env, now: ctx.now, cwd: ctx.cwd, running })
              .text,
          );
        case "context":
          return answer(contextText(store, input, f, ctx.env.home, running));
        case "blame":
          return answer(blameAnswer(store, input, f, ctx.cwd, ctx.env.home));
        case "fix":
          return answer(fixAnswer(store, input, g));
        case "how":
          return answer(howOrSearch(store, input, g, ctx));
      }
    });
    if (note && !res.isError && res.content[0]) res.content[0].text += note;
    return withIgnored(res, args, mode);
  } catch (caught) {
    const e = asIndexError(caught, indexPath(ctx.env)); // only the index is a database here
    if (e instanceof ArgError) return failure(e.message);
    if (e instanceof DejaError) return failure(e.message + (e.hint ? ` (${e.hint})` : ""));
    ctx.log(`deja mcp: ${(e as Error)?.stack ?? e}\n`);
    return failure(`deja failed: ${(e as Error)?.message ?? e}`);
  }
}

/**
 * The answer with a line naming the arguments the tool does not take, which were not applied
 * (trial 62: `since` on recall was dropped in silence, so the agent believed it filtered).
 */
function withIgnored(res: ToolResult, args: Record<string, unknown>, mode: Mode): ToolResult {
  const known = TOOL.inputSchema.properties as Record<string, unknown>;
  const ignored = Object.keys(args).filter((k) => !(k in known));
  const unused = Object.keys(args).filter((k) => k in known && !usedBy(mode, k, args));
  if ((!ignored.length && !unused.length) || res.isError || !res.content[0]) return res;
  if (ignored.length) {
    res.content[0].text += `\n\n(Not applied: ${
      ignored.slice(0, 5).map((k) => oneLineForAgent(k, 40)).join(", ")
    } — the tool takes ${Object.keys(known).join(", ")}.)`;
  }
  // A field the schema lists that this mode does not read (trial 96 F10: `limit` and
  // `harness` on remember were dropped in silence).
  if (unused.length) {
    res.content[0].text += `\n\n(Not applied: ${unused.join(", ")} — mode ${mode} does not take ${
      unused.length === 1 ? "it" : "them"
    }.)`;
  }
  return res;
}

/** The fields of the schema each mode reads besides its own (`NEEDS`) and `mode`. */
const FILTERS: Record<Mode, readonly string[]> = {
  recall: ["project", "harness", "limit"],
  context: ["project", "harness"],
  blame: ["project", "harness", "limit"],
  fix: ["project", "harness", "limit"],
  how: ["project", "harness", "limit"],
  remember: ["project", "tags"],
};

/**
 * True when mode `mode` reads argument `k` as given: its own field, `query` standing in for it
 * when that is absent, or one of its filters. An empty value (`""`, null) is as absent.
 */
function usedBy(mode: Mode, k: string, args: Record<string, unknown>): boolean {
  const v = args[k];
  if (v === undefined || v === null || v === "") return true;
  if (k === "mode" || k === NEEDS[mode].field || FILTERS[mode].includes(k)) return true;
  return k === "query" && str(args[NEEDS[mode].field]) === undefined;
}

/**
 * Mode `how` as `deja how` answers the same words (lib/cli/question.ts `questionInstead`,
 * the dispatcher's rule): a question (`did we deploy`, `how did we deploy`: the mode's
 * name typed first is the command's name) or prose that no command holds is searched
 * instead, as mode recall, and the answer says so.
 */
function howOrSearch(store: Store, what: string, f: Filters, ctx: CallContext): string {
  const typed = what.trim().split(/\s+/);
  const words = typed.length > 1 && typed[0].toLowerCase() === "how" ? typed.slice(1) : typed;
  let how: { text: string; found: boolean } | undefined;
  const asked = questionInstead({ name: "how", ...howCmd }, words, () => {
    how = howResult(store, words.join(" "), f);
    return how.found;
  });
  if (!asked) return (how ?? howResult(store, words.join(" "), f)).text;
  const head = `Searched the question instead (as mode recall): ${
    oneLineForAgent(asked.join(" "), 200)
  }\n`;
  // Within how's budget, the line above included.
  const budget = SMALL_BUDGET - byteLength(head);
  const o = {
    ...f,
    env: ctx.env,
    now: ctx.now,
    cwd: ctx.cwd,
    budget,
    running: f.leaveOut,
  };
  return head + recallText(store, asked.join(" "), o).text;
}

function modeOf(v: unknown): Mode {
  const list = MODES.join(", ");
  if (v === undefined || v === null || v === "") {
    throw new ArgError(`mode is required: one of ${list}`);
  }
  const m = String(v).trim().toLowerCase();
  if (!(MODES as readonly string[]).includes(m)) {
    throw new ArgError(`unknown mode '${oneLineForAgent(String(v), 40)}': use one of ${list}`);
  }
  return m as Mode;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() ? v : undefined;
}

/** The mode's main argument; `query` stands in for any of them. */
function inputOf(args: Record<string, unknown>, mode: Mode): string {
  const need = NEEDS[mode];
  const typed = str(args[need.field]) ?? str(args.query);
  if (typed === undefined) throw new ArgError(`mode ${mode} needs ${need.field}: ${need.what}`);
  // A control character between two words parts them (trial 16: `redis\u0000git` was searched
  // as `redisgit`); a terminal's colour codes go whole (trial 18: a note kept `[31m`).
  const v = sanitizeToWords(typed);
  if (!v.trim()) throw new ArgError(`mode ${mode} needs ${need.field}: ${need.what}`);
  return need.field === "error" ? errorArg(v) : v;
}

/**
 * The `project` argument, or undefined when it names none: models fill an optional string
 * with "" (trial 16: a note was saved under an empty project; trial 18: "" refused), and a
 * value of spaces or control characters alone is as empty.
 */
function projectOf(args: Record<string, unknown>): string | undefined {
  const p = str(args.project);
  return p === undefined || !sanitizeToWords(p).trim() ? undefined : p.trim();
}

function filtersOf(args: Record<string, unknown>, home: string): Filters {
  const f: Filters = {};
  const h = args.harness;
  if (h !== undefined && h !== null && h !== "") {
    const list = (Array.isArray(h) ? h : String(h).split(",")).map((x) => String(x).trim())
      .filter(Boolean);
    const ids = parsers.map((p) => p.id);
    const named = list.map((x) => {
      const id = harnessId(x);
      if (!id || (!ids.includes(id) && id !== "deja")) {
        throw new ArgError(`unknown harness '${oneLineForAgent(x, 40)}': one of ${ids.join(", ")}`);
      }
      return id;
    });
    if (named.length) f.harness = named;
  }
  const p = projectOf(args);
  if (p) f.project = projectArg(p, home);
  if (args.limit !== undefined && args.limit !== null && args.limit !== "") {
    const n = Number(args.limit);
    if (!Number.isInteger(n) || n < 1) {
      throw new ArgError(`limit takes a whole number from 1 to ${MAX_LIMIT}`);
    }
    f.limit = Math.min(n, MAX_LIMIT);
  }
  return f;
}

/** The answer while `n` stores an older secrets redaction read are still to be read again. */
export function heldBack(n: number, background: boolean): string {
  const stores = n === 1 ? "1 store" : `${n} stores`;
  // Nothing reading it (the refresh off, a read-only index): no "ask again" loop (trial 133 F10).
  return background
    ? `deja's index is being read again under new secret-redaction rules (${stores}): nothing ` +
      "is answered from it until then, so no secret the new rules mask reaches you. Ask again " +
      "in a few seconds."
    : `deja's index holds text ${stores} gave under older secret-redaction rules, and nothing ` +
      "is reading it again now: nothing is answered from it, so no secret the new rules mask " +
      "reaches you. The user can run 'deja index' in a terminal to read it again; until then " +
      "there is no point asking again.";
}

function withIndex(ctx: CallContext, fn: (store: Store) => ToolResult): ToolResult {
  let store: Store;
  try {
    store = Store.open(indexPath(ctx.env), { readOnly: true, busyMs: 3000 });
  } catch (e) {
    if (e instanceof DejaError && /^no index/.test(e.message)) return answer(NO_INDEX);
    throw e;
  }
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

async function rememberNote(
  text: string,
  args: Record<string, unknown>,
  ctx: CallContext,
): Promise<ToolResult> {
  const tags = splitTags(args.tags);
  const opts = { project: projectOf(args), tags, cwd: ctx.cwd, now: ctx.now };
  if (!existsSync(indexPath(ctx.env))) {
    const a = appendNote(ctx.env, text, opts);
    return answer(
      a.already
        ? `Already saved as note ${a.id} under ${a.note.project}: nothing written; ` +
          `\`deja forget --note ${a.id}\` removes it.`
        : `Saved note ${a.id} under ${a.note.project} in ${a.path}; it becomes searchable once ` +
          `deja's index exists (\`deja index\` builds it, and so does a background run the ` +
          `other modes start); \`deja forget --note ${a.id}\` removes it.`,
    );
  }
  const r = await remember(ctx.env, text, opts);
  // Said as the CLI says it (trial 62: the agent was not told its note lost a token).
  const kinds = Object.entries(r.redacted ?? {});
  const redacted = kinds.length
    ? ` Secrets were redacted from it before it was written (${
      kinds.map(([k, n]) => `${n} ${k}`).join(", ")
    }): it holds [redacted:…] in their place.`
    : "";
  // Said as the CLI says them on stderr (trial 96 F4: an agent was told of neither).
  const asked = QUESTION.test(text)
    ? " It reads like a question: mode remember keeps notes, it does not search (mode recall " +
      `searches past sessions); if it was meant as a search, \`deja forget --note ${r.id}\` ` +
      "removes it."
    : "";
  const unmatched = r.unmatched === undefined
    ? ""
    : ` No indexed project matches '${
      oneLineForAgent(r.unmatched, 200)
    }': the note is filed under that name, which no project's session start shows (project ` +
      "takes an indexed project's directory or a part of its path).";
  if (r.already) {
    // The same note again (trial 98 F8): the one kept is named, no second copy written.
    return answer(
      `Already remembered as note ${r.id} under ${r.note.project} (written ${r.note.ts}): ` +
        `nothing written; \`deja forget --note ${r.id}\` removes it.` + redacted + unmatched,
    );
  }
  return answer(
    (r.indexed
      ? `Remembered note ${r.id} under ${r.note.project} (${r.session}), in ${r.path}; ` +
        `searches find it now; \`deja forget --note ${r.id}\` removes it.`
      : `Saved note ${r.id} under ${r.note.project} in ${r.path}; not indexed yet (${
        r.error ?? "unknown reason"
      }): ${
        r.retry ?? "the next `deja index` picks it up"
      }; \`deja forget --note ${r.id}\` removes it.`) +
      redacted + unmatched + asked,
  );
}
