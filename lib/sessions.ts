/**
 * Finding sessions by what a person types: an id prefix, optionally
 * `harness:prefix`, and the shortest prefix that finds a session again.
 *
 * @module
 */
import { promptHistoryShortLengths } from "../core/prompt_history.ts";
import type { Store } from "./store.ts";
import { DejaError } from "../core/errors.ts";
import { Q } from "./schema.ts";
import { parseSkipExamples } from "./source_state.ts";
import { harnessId, harnessIds } from "../core/registry.ts";
import type { SessionRow } from "./rows.ts";
import { MAX_LIKE_TEXT, overLikeBound } from "./query.ts";
import { describeSession } from "./memory/last.ts";
import { localTime } from "./memory/text.ts";
import { characters, oneLine } from "../core/text.ts";

/** Looks like a session id someone copied: hex/uuid, `harness:id`, or a deja/aider id. */
export function looksLikeId(text: string): boolean {
  return /^(?:[a-z][a-z0-9_]*:\S+|[0-9a-f][0-9a-f-]{5,}|(?:deja|aider)-\S+)$/i.test(text);
}

/**
 * No session has the id (prefix) `ref`: a {@link DejaError} (exit 1) the command
 * line turns into a search hint when `ref` reads as words (`deja show me`).
 */
export class NoSessionMatch extends DejaError {
  constructor(readonly ref: string, hint: string) {
    super(`no session matches '${ref}'`, hint, 1);
  }
}

/**
 * Finds the one session whose native id starts with `prefix` (optionally
 * `harness:prefix`). An exact id wins; so does the one top-level session
 * when every other match is one of its own subagents (Claude Code files a
 * subagent as `<parent id>/agent-…`, so a parent's short id is also a prefix
 * of its subagents'). Every command that takes a session id resolves it
 * here (show, resume, handoff, ctx, `--session`, MCP). `deja:<YYYY-MM-DD>` names the
 * notes of that day (`deja remember`): the one project's, or, when several projects have
 * notes that day, an exit-2 error listing them with their projects (`deja show` as text
 * shows each in turn instead, lib/cli/cmd_show.ts).
 *
 * @throws {NoSessionMatch} (exit 1) when none matches; {@link AmbiguousSession}
 *   (exit 2) when several do, listing them.
 */
export function resolveSession(store: Store, ref: string): SessionRow {
  // An id pasted with the spaces around it (trial 16: `--session ' 093f9963'`).
  ref = ref.trim();
  if (overLikeBound(ref)) {
    throw new DejaError(
      `no session matches '${[...ref].slice(0, 40).join("")}' (${characters(ref)} characters)`,
      `a session id is at most ${MAX_LIKE_TEXT} characters; 'deja last' lists sessions`,
      1,
    );
  }
  // `deja:` with nothing after the colon: no id to look for.
  // A harness prefix in any case (`CLAUDE:5fbf3543`), as the id after it is (SQLite's LIKE).
  const bare = /^([a-z][a-z0-9_-]*):$/i.exec(ref);
  const bareId = bare && harnessId(bare[1]);
  if (bareId) {
    throw new DejaError(
      `'${ref}' names a harness but no session`,
      `put an id after the colon (${bareId}:<id>${
        bareId === "deja" ? " or deja:<YYYY-MM-DD>" : ""
      }); 'deja last --harness ${bareId}' lists its sessions`,
      1,
    );
  }
  const found = lookup(store, ref);
  if (!Array.isArray(found)) return found;
  throw new AmbiguousSession(ref, found, store);
}

/**
 * The session `ref` names, or every row it matches when it names no one
 * session (the caller says so); the checks of {@link resolveSession} on the way.
 *
 * @throws {NoSessionMatch} when none matches.
 */
function lookup(store: Store, ref: string): SessionRow | SessionRow[] {
  // A span's id as `deja restore` lists it (`0000000e@41`, lib/cli/cmd_restore.ts `spanId`):
  // the end of its session's id (trial 16: `deja show` of one said no session matches).
  const span = /^([0-9A-Za-z]{8,64})@\d+(?:\.\d+)?$/.exec(ref);
  if (span) {
    const tail = span[1].toLowerCase();
    const ends = Q.sessionsByPrefix.all(store, { like: "%", harness: null })
      .filter((r) => r.native_id.replace(/[^0-9A-Za-z]/g, "").toLowerCase().endsWith(tail));
    if (ends.length === 1) return ends[0];
    if (ends.length) return parentOfAll(ends) ?? ends;
  }
  let harness: string | null = null;
  let prefix = ref;
  const m = /^([a-z][a-z0-9_-]*):(.+)$/i.exec(ref);
  // `<harness>:<id>`, the harness by any name `--harness` takes (`claude-code:5fbf3543`, trial
  // 32); a remote's sessions are `<remote>:<id>` (lib/remote/label.ts), a prefix.
  const named = m ? harnessId(m[1]) : undefined;
  if (m && named) {
    harness = named;
    prefix = m[2];
  }
  // `deja:<YYYY-MM-DD>`: the notes of that day (ids are `<hash>-<day>`, one per project).
  const day = harness === "deja" && /^\d{4}-\d{2}-\d{2}$/.test(prefix);
  const esc = (t: string) => t.replace(/[\\%_]/g, (c) => `\\${c}`);
  const like = day ? `%-${prefix}` : esc(prefix) + "%";
  // A session whose own id starts so comes before a remote's matched only by the machine's
  // name (`cda4b925` of `cda4b925:<id>`; with its colon, `box:`, the name is the remote's):
  // trial 112 F9, a remote named cda4b925 made `deja show cda4b925`, a local id, ambiguous.
  // A remote's session counts by its own id too, beside the local ones (trial 113 F4: a remote
  // named cafe0001 took `cafe0001` from `box:cafe0001-…`; F6: a prefix a local and a remote
  // session share opened the local one and never named the other); the harness's id of a
  // remote's session also finds it (trial 63: `deja show <uuid>` of one indexed as `box:<uuid>`).
  let rows = day ? [] : Q.sessionsByOwnPrefix.all(store, { like, harness, n: prefix.length });
  if (!rows.length) rows = Q.sessionsByPrefix.all(store, { like, harness });
  const exact = rows.filter((r) => r.native_id === prefix);
  if (exact.length === 1) return exact[0];
  // A subagent by its parent's short id (trial 9: `b1ea4a04/sub_8` for
  // `b1ea4a04-95d9-43a8-98ce-189f553b08ca/sub_8`, as lists print it cut).
  const cut = prefix.indexOf("/");
  if (!rows.length && !day && cut > 0 && cut < prefix.length - 1) {
    const child = prefix.slice(cut + 1);
    rows = Q.sessionsByPrefix.all(store, {
      like: `${esc(prefix.slice(0, cut))}%/${esc(child)}%`,
      harness,
    });
    const whole = rows.filter((r) => r.native_id.endsWith(`/${child}`));
    if (whole.length === 1) return whole[0];
  }
  if (!rows.length) {
    // `nosuch:01a2`: say that the part before the colon names neither a harness nor a machine.
    const remote = m && !harness &&
      Q.anyOfOrigin.get(store, { origin: m[1] }) !== undefined;
    // `codex:9eff8ccb` of a Claude Code session: said where it is (trial 32).
    // Subagents under one parent that matches are that one session, as `show` takes it.
    const matched = harness && !day ? Q.sessionsByPrefix.all(store, { like, harness: null }) : [];
    const one = parentOfAll(matched);
    const others = one ? [one] : matched;
    const elsewhere = [...new Set(others.map((r) => r.harness))];
    const hint = m && !harness && !remote
      ? `'${m[1]}' is neither a harness nor a remote (harnesses: ${
        harnessIds().join(", ")
      }; remotes: deja remote list)`
      : elsewhere.length
      ? `no ${harness} session starts so; ${
        elsewhere.length === 1
          ? others.length === 1
            ? `it is ${/^[aeiou]/i.test(elsewhere[0]) ? "an" : "a"} ${
              elsewhere[0]
            } session: deja show ${elsewhere[0]}:${prefix}`
            // Trial 64: `deja show codex:01` was offered as one session; it lists several.
            : `${others.length < 20 ? others.length : "20 or more"} ${
              elsewhere[0]
            } sessions do: 'deja show ${elsewhere[0]}:${prefix}' lists them`
          : `sessions of ${elsewhere.join(", ")} do`
      }`
      // A day typed alone (trial 120 M2: `deja show 2026-12-07` for the notes of that day).
      : /^\d{4}-\d{2}-\d{2}$/.test(ref)
      ? `a day: deja show deja:${ref} shows its notes (deja remember); deja ${ref} lists its sessions`
      : leftOut(store, prefix) ?? "search first: deja <words>";
    throw new NoSessionMatch(ref, hint);
  }
  if (rows.length === 1) return rows[0];
  return parentOfAll(rows) ?? rows;
}

/**
 * A subagent's parent as a list names it: its shortest reference, or its id with
 * `(not indexed)` when the index does not hold it, as `deja view` says (trial 112 F10: a remote's
 * Gemini CLI subagent of no known parent was listed as `subagent of gemini:box:unknown`, a
 * reference to nothing).
 */
function parentRef(store: Store, harness: string, parent: string): string {
  return Q.sessionByKey.get(store, { harness, native_id: parent })
    ? shortRef(store, harness, parent)
    : `${parent} (not indexed)`;
}

/** One session an ambiguous reference matched, as {@link AmbiguousSession} lists it. */
export interface Candidate {
  /** Its shortest reference ({@link shortRef}). */
  ref: string;
  harness: string;
  /** Native session id. */
  id: string;
  /** Last activity (else start), epoch ms; null when the store kept none. */
  time: number | null;
  /** The title, else the first typed prompt ({@link describeSession}); null when neither. */
  title: string | null;
  project: string | null;
}

/** Candidates {@link AmbiguousSession} lists at most. */
export const CANDIDATES_SHOWN = 8;

/**
 * A session reference (an id prefix) that matches several sessions: exit 2,
 * the message listing the newest {@link CANDIDATES_SHOWN} of them one a line
 * (`<ref>  <harness>  <date>  <title>`), so a person or an agent picks one
 * instead of deja picking for them. A subagent filed under its parent's id
 * (`<parent id>/…`) whose parent is also matched is left out (the parent names
 * it); one with an id of its own is listed, said to be a subagent. `show`, `ctx`, `resume`, `handoff`, `view`,
 * `--session` and MCP mode context all end in it (lib/memory/pick.ts); the
 * `--json` error adds {@link candidates} (docs/json-output.md, "Errors").
 */
export class AmbiguousSession extends DejaError {
  /** The sessions listed, newest first. */
  readonly candidates: Candidate[];
  /** How many sessions matched (parents only); `more` when the query's page was full. */
  readonly total: number;
  /** True when more sessions may match than {@link total} counts (a full page). */
  readonly more: boolean;

  /**
   * @param opts.all `rows` are every match (not a page of {@link PREFIX_PAGE}): their count is exact.
   * @param opts.hint the hint instead of "name one: …" (`deja forget` names `--all-matches` too).
   */
  constructor(
    readonly ref: string,
    rows: SessionRow[],
    store: Store,
    opts: { all?: boolean; hint?: string } = {},
  ) {
    // A subagent named under a parent listed is that parent's; one with an id of its own is
    // listed too (trial 93 F8), said to be a subagent.
    const top = rows.filter((r) =>
      r.parent === null || !r.native_id.startsWith(r.parent) ||
      !rows.some((p) => p.harness === r.harness && p.native_id === r.parent)
    );
    const more = !opts.all && rows.length >= PREFIX_PAGE;
    const candidates = top.slice(0, CANDIDATES_SHOWN).map((r) => ({
      ref: shortRef(store, r.harness, r.native_id),
      harness: r.harness,
      id: r.native_id,
      time: r.updated ?? r.started,
      title: r.parent === null
        ? describeSession(store, r)
        : `subagent of ${parentRef(store, r.harness, r.parent)}: ${describeSession(store, r)}`,
      project: r.project,
    }));
    const day = /^deja:\d{4}-\d{2}-\d{2}$/i.test(ref);
    const lines = candidateLines(candidates, day);
    const left = top.length - candidates.length;
    if (more) lines.push(left > 0 ? `  … at least ${left} more` : "  … perhaps more");
    else if (left > 0) lines.push(`  … ${left} more`);
    super(
      `'${ref}' matches ${more ? "at least " : ""}${top.length} sessions:\n${lines.join("\n")}`,
      opts.hint ??
        (day
          // Trial 105 F7: which form shows them all, and that each project's is a session.
          ? `each project's notes of a day are a session of their own: name one by its id; ` +
            `'deja show ${ref}' (as text, not --json: one document is one session) shows ` +
            "them all in turn"
          : "name one: each line starts with an id that names it alone (harness:id works too)"),
      2,
    );
    this.candidates = candidates;
    this.total = top.length;
    this.more = more;
  }
}

/** `<ref>  <harness>  <date time>  <title>`, columns aligned, two spaces in. */
function candidateLines(cs: Candidate[], day: boolean): string[] {
  const w = (f: (c: Candidate) => string) => Math.max(...cs.map((c) => f(c).length));
  const refW = w((c) => c.ref);
  const harnessW = w((c) => c.harness);
  return cs.map((c) => {
    const title = oneLine(c.title ?? "(no title, no prompt)", 60);
    const where = day && c.project ? ` (${c.project})` : "";
    return `  ${c.ref.padEnd(refW)}  ${c.harness.padEnd(harnessW)}  ${
      localTime(c.time)
    }  ${title}${where}`;
  });
}

/** Rows a prefix query returns at most (Q.sessionsByPrefix); a full page may hide more. */
const PREFIX_PAGE = 20;

/**
 * The one top-level row of `rows` when all the others are its subagents (at
 * any depth, through rows of the same list), else undefined.
 */
function parentOfAll(rows: SessionRow[]): SessionRow | undefined {
  const roots = rows.filter((r) => r.parent === null);
  if (roots.length !== 1 || rows.length >= PREFIX_PAGE) return undefined;
  const root = roots[0];
  const under = new Set([root.native_id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows) {
      if (r.harness !== root.harness || under.has(r.native_id)) continue;
      // Only a subagent named under its parent's id (`<id>/sub_8`), which no prefix of the
      // parent's tells apart; one with an id of its own that shares a prefix is another
      // session (trial 93 F8: `ctx 019d924` digested the parent 019d9249 of Codex's 019d924b).
      if (r.parent !== null && under.has(r.parent) && r.native_id.startsWith(root.native_id)) {
        under.add(r.native_id);
        grew = true;
      }
    }
  }
  return rows.every((r) => r.harness === root.harness && under.has(r.native_id)) ? root : undefined;
}

/**
 * The shortest prefix of `id` (8, 12, 16 or 24 characters, else the whole id; of a remote's
 * session those of its own id after `<remote>:`;
 * a prompt-history session's stem and 8, 12 or 16 characters of its part,
 * core/prompt_history.ts) that {@link resolveSession} maps back to this session; `harness:id` when
 * even the whole id is ambiguous across harnesses.
 */
export function shortRef(store: Store, harness: string, id: string): string {
  // A remote's session (`<remote>:<id>`, lib/remote/label.ts): the lengths count in its own id,
  // after the machine's name (trial 101 F9: `box1:a44`, 3 characters of the id, and none of it
  // past a name of 8).
  const m = /^([a-z][a-z0-9_-]*):(.+)$/.exec(id);
  const origin = m && Q.anyOfOrigin.get(store, { origin: m[1] }) ? `${m[1]}:` : "";
  const own = id.slice(origin.length);
  for (const n of promptHistoryShortLengths(own) ?? [8, 12, 16, 24, own.length]) {
    if (n > own.length) continue;
    const prefix = origin + own.slice(0, n);
    try {
      const s = lookup(store, prefix);
      if (!Array.isArray(s) && s.harness === harness && s.native_id === id) return prefix;
    } catch { /* no match at this length */ }
  }
  return `${harness}:${id}`;
}

/**
 * The models session `s` used, in order of first use: `sessions.models` when it
 * switched model (2 or more), else its one model, else none.
 */
export function modelsOf(s: Pick<SessionRow, "model" | "models">): string[] {
  if (s.models) {
    try {
      const list = JSON.parse(s.models);
      if (Array.isArray(list) && list.length && list.every((m) => typeof m === "string")) {
        return list;
      }
    } catch { /* a damaged value: the session's one model below */ }
  }
  return s.model ? [s.model] : [];
}

/** Switches a header names one by one; more are shortened (see {@link modelsLabel}). */
const SWITCHES_SHOWN = 5;

/**
 * The models of a session's replies in the order it switched between them, a model
 * it went back to named again (`a → b → a`): `changes` are its events' `model` values
 * in order (set where the replies' model changes, `Q.modelChanges`), a repeat next to
 * itself and a missing one dropped.
 */
export function modelPath(changes: readonly (string | null | undefined)[]): string[] {
  const path: string[] = [];
  for (const m of changes) if (m && m !== path.at(-1)) path.push(m);
  return path;
}

/** How many times the replies' model changed: one less than the {@link modelPath}'s length, or 0. */
export function switchCount(path: readonly string[]): number {
  return Math.max(0, path.length - 1);
}

/**
 * The models a header shows: the session's {@link modelPath} when known (`a → b → a`;
 * more than 5 switches as `a → b → … → a (7 switches)`), else {@link modelsOf} (a row
 * read without its events); "" when none is known. (User trial 2026-12: from the
 * distinct list, sonnet → opus → sonnet read `claude-sonnet-4-6 → claude-opus-4-6`, as
 * if it ended on opus.)
 */
export function modelsLabel(
  s: Pick<SessionRow, "model" | "models">,
  path: readonly string[] = [],
): string {
  if (!path.length) return modelsOf(s).join(" → ");
  const n = switchCount(path);
  if (n <= SWITCHES_SHOWN) return path.join(" → ");
  return `${path[0]} → ${path[1]} → … → ${path.at(-1)} (${n} switches)`;
}

/**
 * Why the session `prefix` starts is not in the index when a store's read left it out on
 * purpose and named it (a cache warm-up, a file of messages with no text:
 * parsers/_claude_family.ts), or undefined (trial 120 L7, trial 137 L1: `deja show` of one
 * said only "no session matches").
 */
function leftOut(store: Store, prefix: string): string | undefined {
  if (!/^[0-9a-z][0-9a-z-]{3,}$/i.test(prefix)) return undefined;
  for (const row of Q.skipsNaming.all(store, { like: `%(session ${prefix}%` })) {
    const note = parseSkipExamples(row.skipped).find((x) => x.includes(`(session ${prefix}`));
    if (!note) continue;
    const why = note.slice(note.indexOf(": ") + 2).replace(/ \(session [^)]*\)$/, "");
    // A file of messages with no text is no session to index (parsers/_claude_family.ts).
    const lead = why.startsWith("messages with no text")
      ? "it was left out of the index, its store holding only"
      : "it was left out of the index on purpose:";
    return `${lead} ${why} (${row.path}); deja sources --verbose lists what was left out`;
  }
  return undefined;
}
