/**
 * The answers of the `context`, `blame`, `fix` and `how` modes as text for a
 * model: what the work-memory library found (lib/memory), cleaned, framed as
 * data from past sessions, and cut to a byte budget (frame included). A
 * negative answer is one unframed sentence.
 *
 * @module
 */
import { nameChain } from "../memory/renames.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { AmbiguousSession, NoSessionMatch, shortRef } from "../sessions.ts";
import { DejaError } from "../../core/errors.ts";
import { isDirSync } from "../../core/fs.ts";
import { CTX_BUDGET, sessionDigest } from "../memory/digest.ts";
import { type Missed, pickSession } from "../memory/pick.ts";
import { defaultHidden, type HideOptions, searchHiding } from "../search/sessions.ts";
import {
  blame,
  blameFolder,
  type BlameSession,
  earlierWords,
  lineWords,
  shellReadWords,
  shownChanges,
} from "../memory/blame.ts";
import { foundPath, matchLabel, splitLine } from "../memory/paths.ts";
import { describeSession } from "../memory/last.ts";
import { findFixes, fixRecord, NOT_CHECKED, projectsElsewhere } from "../memory/fix.ts";
import { editChange, type FixEdit } from "../memory/fix_edits.ts";
import { enclosingProject, type HowResult, howRuns, runsStatus } from "../memory/how.ts";
import { localTime, sessionTime } from "../memory/text.ts";
import { bodyBudget, fitBlocks, framed, oneLineForAgent } from "./_fit.ts";
import { byteLength, commandOneLine, plural, tilde } from "../../core/text.ts";
import { MAX_LIMIT } from "./tool.ts";
import { projectHolds } from "../project_path.ts";

/** Largest `context` answer in bytes, frame included: 8 KiB. */
export const CONTEXT_BUDGET = CTX_BUDGET;
/** Largest `blame` answer in bytes, frame included: 8 KiB. */
export const BLAME_BUDGET = 8 * 1024;
/** Largest `fix` and `how` answers in bytes, frame included: 4 KiB. */
export const SMALL_BUDGET = 4 * 1024;

/** Filters a call may carry. */
export interface Filters {
  harness?: string[];
  project?: string;
  limit?: number;
  /** What to leave out (the commands' rule: `defaultHidden`, lib/search/sessions.ts). */
  hide?: HideOptions;
  /** Sessions left out without a word: the conversation calling the tool (lib/mcp/call.ts `runningHere`). */
  leaveOut?: ReadonlySet<number>;
}

/**
 * The sessions `f` leaves out: `defaultHidden` of its `hide` (for `project`), and its
 * `leaveOut` silently (never counted in a "left out" hint).
 */
function hiddenOf(
  store: Store,
  f: Filters,
  over: { project?: string; harness?: string[] } = {},
) {
  if (!f.hide) return undefined;
  const h = defaultHidden(store, {
    ...f.hide,
    project: "project" in over ? over.project : f.hide.project,
  });
  // Sessions of another harness than `harness` names, or of a project `project` does not,
  // as the conversation's own (trial 96: `fix` and `how` checked `harness` and never applied
  // it; trial 98 F1: nor did `fix` apply `project`).
  const harness = "harness" in over ? over.harness : f.harness;
  const project = "project" in over ? over.project : f.project;
  const others = harness?.length || project
    ? Q.sessionPlaces.all(store, {}).filter((r) =>
      (harness?.length && !harness.includes(r.harness)) ||
      (project && !projectHolds(r.project, project))
    ).map((r) => r.id)
    : [];
  for (const id of [...(f.leaveOut ?? []), ...others]) {
    h.add(id);
    h.silent.add(id);
  }
  return h;
}

/**
 * A negative answer `said` under `harness` or `project`, led by the filters it holds under and
 * followed by what the same call finds without them (`found`: how many, 0 when nothing), as
 * mode recall says it; `said` as it is without a filter (trial 96: `context` under `harness`
 * said no session matched words five sessions held; trial 98 F6: `fix` opened "That error was
 * never seen", the filter told only after).
 */
function underFilters(
  f: Filters,
  said: string,
  found: () => number,
  unit = "session",
  /** Say that nothing is found without the filters either. */
  sayNone = true,
): string {
  const fields = [f.harness?.length ? "harness" : "", f.project ? "project" : ""].filter(Boolean);
  if (!fields.length) return said;
  const given = [
    f.harness?.length ? `harness ${f.harness.join(", ")}` : "",
    f.project ? `project ${oneLineForAgent(f.project, 200)}` : "",
  ].filter(Boolean).join(" and ");
  const n = found();
  const without = fields.join(" and ");
  const tail = n
    ? ` Without ${without}: ${plural(n, unit)}, so the filter left nothing (call again ` +
      `without ${without}).`
    : sayNone
    ? ` Nor without ${without}.`
    : "";
  return `In ${given}: ${said[0].toLowerCase()}${said.slice(1)}${tail}`;
}

const day = (ms: number | null | undefined) => localTime(ms).slice(0, 10);

/** The digest of the session `query` names (an id prefix, else the best search hit). */
export function contextText(
  store: Store,
  query: string,
  f: Filters,
  home: string,
  /** Sessions running now in the agent's project (lib/mcp/call.ts `runningHere`): not picked by words. */
  running: ReadonlySet<number> = new Set(),
): string {
  let picked;
  const missed: Missed = { hidden: 0 };
  const opts = { harness: f.harness, project: f.project, ...(f.hide ? searchHiding(f.hide) : {}) };
  try {
    picked = pickSession(store, query, { ...opts, leaveOut: running }, missed);
    // A session where nothing was done (the question asked, no reply: the harness quit) is
    // passed over for the next that did something (trial 68: the same question asked before
    // was digested as "No reply followed the request", above the session with the fix).
    const asked = new Set(running);
    for (let i = 0; i < 3 && picked?.via === "search"; i++) {
      // A day of notes is no conversation: never passed over (trial 69).
      if (picked.session.harness === "deja") break;
      if (Q.answered.get(store, { session: picked.session.id }) !== undefined) break;
      asked.add(picked.session.id);
      const next = pickSession(store, query, { ...opts, leaveOut: asked });
      if (!next) break;
      picked = next;
    }
    // Only the running conversation holds the words: said, not digested back to it.
    if (!picked && running.size) {
      const alone = pickSession(store, query, opts);
      if (alone?.via === "search" && running.has(alone.session.id)) {
        return `No past session matches "${
          oneLineForAgent(query, 200)
        }": only a conversation running now in this folder holds the words, most likely this ` +
          "one.";
      }
    }
  } catch (e) {
    // An id no session has (pick.ts): an error, with the agent's way on.
    if (e instanceof NoSessionMatch) {
      throw new DejaError(e.message, "copy an id from mode recall, or give words to search");
    }
    // A prefix several ids share: the candidates, their titles framed as recorded text.
    if (e instanceof AmbiguousSession) throw ambiguity(e);
    throw e;
  }
  if (!picked && missed.common) {
    // As `deja ctx` says it (trial 69: "No past session matches" of `hello`, which recall found).
    return `"${
      oneLineForAgent(query, 200)
    }" holds only common words, which name no one session: give words that name the work, or an id from mode recall.`;
  }
  if (!picked) {
    if (f.harness?.length || f.project) {
      const all = () =>
        pickSession(store, query, {
            ...opts,
            harness: undefined,
            project: undefined,
            leaveOut: running,
          })
          ? 1
          : 0;
      return underFilters(f, `No past session matches "${oneLineForAgent(query, 200)}".`, all);
    }
    const none = missed.absent?.length
      ? ` (${missed.absent.map((w) => `'${oneLineForAgent(w, 60)}'`).join(", ")} ${
        missed.absent.length === 1 ? "is" : "are"
      } in no searchable text)`
      : "";
    return `No past session matches "${
      oneLineForAgent(query, 200)
    }"${none}. Try mode recall first.`;
  }
  const ref = shortRef(store, picked.session.harness, picked.session.native_id);
  // An id names its session whatever the filters (trial 96 F10: `harness` dropped unsaid).
  const unfiltered = [f.harness?.length ? "harness" : "", f.project ? "project" : ""]
    .filter(Boolean).join(" and ");
  const how = picked.via !== "search"
    ? unfiltered ? ` (named by its id: ${unfiltered} not applied)` : ""
    : picked.tier === "relevance"
    ? ` (nothing matched the words exactly${
      picked.absent?.length
        ? `, ${
          picked.absent.map((w) => `'${oneLineForAgent(w, 60)}'`).join(", ")
        } in no searchable text`
        : ""
    }: the nearest session by relevance)`
    : " (best match for the words)";
  const head = `session ${ref}${how}`;
  const d = sessionDigest(store, picked.session.id, {
    query: picked.via === "search" ? query : undefined,
    budgetBytes: bodyBudget(CONTEXT_BUDGET) - byteLength(head) - 1,
    home,
  });
  return framed(`${head}\n${d.markdown}`, CONTEXT_BUDGET);
}

/** Largest candidate list in an ambiguity error, frame included: 2 KiB. */
const CANDIDATES_BUDGET = 2 * 1024;

/** {@link AmbiguousSession} for a model: one line per candidate, the titles in the frame. */
function ambiguity(e: AmbiguousSession): DejaError {
  const head = `'${oneLineForAgent(e.ref, 80)}' matches ${e.more ? "at least " : ""}${
    plural(e.total, "session")
  }: call mode context again with one of these ids as query`;
  const lines = e.candidates.map((c) =>
    `- ${c.ref} · ${c.harness} · ${localTime(c.time)} · ${
      oneLineForAgent(c.title ?? "(no title)", 100)
    }`
  );
  const left = e.total - e.candidates.length;
  if (left > 0 || e.more) lines.push(`${e.more ? "at least " : ""}${left} more: a longer prefix`);
  return new DejaError(`${head}\n${framed(lines.join("\n"), CANDIDATES_BUDGET)}`);
}

/** Sessions that touched `typed` (a path, optionally `path:line`), newest first. */
export function blameAnswer(
  store: Store,
  typed: string,
  f: Filters,
  cwd: string,
  home: string,
): string {
  // A trailing :N is a line number unless the whole text names an existing file.
  const t = typed.trim();
  const at = splitLine(t, cwd);
  const path = at.path;
  const hidden = f.hide && defaultHidden(store, f.hide);
  const r = blame(store, path, {
    cwd,
    line: at.line,
    harness: f.harness,
    project: f.project,
    limit: f.limit ?? 10,
    hidden,
  });
  // A folder is answered as the CLI answers it: blame takes a file, and those under it that
  // sessions touched are named (trial 132 F4: "No past session read or changed app" of a folder
  // one of whose files a session edited and two it read).
  const folder = r.sessions.length ? undefined : folderAnswer(store, r.target, path, hidden, home);
  if (folder) return folder;
  // Sessions of throwaway or excluded projects left out are said, as recall, how and fix say
  // them (trial 16: blame hid them without a word).
  const left = r.hidden
    ? ` ${
      plural(r.hidden, "session")
    } of throwaway or excluded projects left out (give project, a part of their path, to read them).`
    : "";
  if (!r.sessions.length && (f.harness?.length || f.project)) {
    const all = () =>
      blame(store, path, {
        cwd,
        line: at.line,
        limit: 1,
        hidden: f.hide && defaultHidden(store, { ...f.hide, project: undefined }),
      }).listed;
    return underFilters(f, `No past session read or changed ${oneLineForAgent(path, 300)}.`, all);
  }
  if (!r.sessions.length) {
    return r.hidden
      ? `Only hidden sessions read or changed ${
        oneLineForAgent(tilde(r.target, home), 300)
      }:${left}`
      : `No past session read or changed ${oneLineForAgent(tilde(r.target, home), 300)}.`;
  }
  const head = [
    `blame ${oneLineForAgent(tilde(foundPath(r, path), home), 300)}: ${matchLabel(r)}, ${
      plural(r.listed, "session")
    }, newest first.${left}`,
  ];
  if (r.line) {
    head.push(
      r.line.text === null
        ? `line ${r.line.number}: not used (${r.line.note})`
        : `line ${r.line.number}: ${oneLineForAgent(r.line.text, 160)}`,
    );
  }
  const blocks = r.sessions.map((s) => blameBlock(store, s, home, r.line?.text != null));
  const tail = (shown: number) =>
    r.listed > shown
      ? `${
        r.listed - shown
      } more: narrow with project or harness; mode context with an id reads one`
      : "";
  return framed(
    fitBlocks(head.join("\n"), blocks, tail, bodyBudget(BLAME_BUDGET)).text,
    BLAME_BUDGET,
  );
}

/** Most files a folder's answer names. */
const FOLDER_NAMES = 10;

/**
 * The answer to a folder (`target`, typed `typed`): blame takes a file, the files under it
 * sessions touched (lib/memory/blame.ts `blameFolder`, the first {@link FOLDER_NAMES}, those
 * most sessions touched first) and to call blame with one of them; undefined when `target` is
 * no folder here and no session touched a file under it.
 */
function folderAnswer(
  store: Store,
  target: string,
  typed: string,
  hidden: ReadonlySet<number> | undefined,
  home: string,
): string | undefined {
  const under = blameFolder(store, target, hidden);
  const dir = oneLineForAgent(tilde(target, home), 300);
  if (!under.length) {
    return isDirSync(target) || /[/\\]$/.test(typed)
      ? `${dir} is a folder: blame takes a file, and no past session read or changed a file ` +
        "under it. Call blame with the path of a file."
      : undefined;
  }
  const named = under.slice(0, FOLDER_NAMES).map((u) =>
    `${oneLineForAgent(u.inside, 200)} (${plural(u.sessions, "session")})`
  );
  const more = under.length > named.length ? `, … ${under.length - named.length} more` : "";
  return `${dir} is a folder: blame takes a file. Past sessions read or changed ${
    plural(under.length, "file")
  } under it: ${named.join(", ")}${more}. Call blame with one of them, e.g. path ${
    oneLineForAgent(under[0].path, 300)
  }.`;
}

function blameBlock(store: Store, s: BlameSession, home: string, byLine: boolean): string {
  const counts = [
    s.edits && plural(s.edits, "edit"),
    s.writes && plural(s.writes, "write"),
    s.reads && plural(s.reads, "read") + shellReadWords(s.reads, s.shellReads),
    s.failed && `${s.failed} failed`,
  ].filter(Boolean).join(", ") +
    (s.removed ? "; removed later" : s.moved_to ? `; moved later to ${s.moved_to}` : "");
  const line = s.line ? ` · ${lineWords(s.line, s.lineUnsure)}` : "";
  const out = [
    `- ${shortRef(store, s.session.harness, s.session.native_id)} · ${s.session.harness} · ${
      day(s.last ?? s.session.updated)
    } · ${oneLineForAgent(tilde(s.session.project, home), 120)} · ${counts}${line}`,
  ];
  const name = describeSession(store, s.session);
  if (name) out.push(`  ${oneLineForAgent(name, 120)}`);
  // Its history under the names the file had before (trials 97 F1, 100 F1), as the CLI says it.
  if (s.moved_from) {
    out.push(
      `  ${s.copied ? "copied" : "moved"} here from ${
        oneLineForAgent(nameChain(s.moved_from, s.session.project), 160)
      }`,
    );
  }
  if (s.earlier_names && s.moved_by) {
    const words = earlierWords(s, (harness, id) => shortRef(store, harness, id));
    out.push(`  ${oneLineForAgent(words, 240)}`);
  }
  // The changes the CLI lists, with the words around each where it puts them (trial 131 F1:
  // of 4 edits, 3 with words were listed under "4 edits" and no word of the fourth, and a
  // remark said after two edits went under the first of them).
  const { shown, earlier, other } = shownChanges(s, byLine);
  if (byLine && !s.line && s.changes.length) {
    out.push(`  none of its ${plural(s.changes.length, "change")} wrote or replaced the line`);
  }
  for (const { change: c, before, after } of shown) {
    // Several files matched (a bare name, other checkouts): each change names its own, as the
    // CLI does (trial 48: "2 edits" of two README.md files, told apart by neither).
    const where = s.paths.length > 1 ? ` ${oneLineForAgent(tilde(c.path, home), 160)}` : "";
    const all = c.replaceAll ? " (every occurrence)" : "";
    const mark = byLine && c.line ? ` · ${lineWords(c.line, c.lineUnsure)}` : "";
    out.push(`  ${c.op} ${localTime(c.time)}${where}${all}${mark}`);
    if (before) out.push(`    said before: ${oneLineForAgent(before, 240)}`);
    if (after) out.push(`    said after: ${oneLineForAgent(after, 240)}`);
  }
  if (earlier) {
    out.push(
      `  … ${plural(earlier, "earlier change")}${byLine ? " holding it" : ""} not shown`,
    );
  }
  if (other) {
    out.push(
      `  ${plural(other, "other change")} of the file ${other === 1 ? "does" : "do"} not hold it`,
    );
  }
  return out.join("\n");
}

/** What ran after the same error before, where it did not come back. */
export function fixAnswer(store: Store, error: string, f: Filters): string {
  const r = findFixes(store, error, {
    limit: f.limit ?? 3,
    hidden: hiddenOf(store, f),
    mentions: true,
  });
  if (r.status !== "found") {
    const looked = r.signatures.length ? ` Looked for: ${oneLineForAgent(r.lookedFor, 480)}.` : "";
    // What sessions recorded (their titles, the line the error is held in) is framed below
    // deja's own sentence (trial 109 F1: a title carrying orders was sent as deja's words).
    const recorded = [
      ...(r.heldForm
        ? [`The error as a session holds it: ${oneLineForAgent(r.heldForm, 300)}`]
        : []),
      ...(r.mentioned?.length ? ["Sessions holding it:"] : []),
      ...(r.mentioned ?? []).map((m) =>
        `- ${shortRef(store, m.harness, m.session)} (${m.harness})${
          m.title ? ` ${oneLineForAgent(m.title, 80)}` : ""
        }`
      ),
    ];
    const message = r.heldForm ? r.message.replace(` '${r.heldForm}'`, "") : r.message;
    const said = `${message[0].toUpperCase()}${message.slice(1)}.`;
    // Seen under the filter with no fix: told of the filter only where a fix is seen without.
    const all = () => {
      const wide = findFixes(store, error, {
        limit: 1,
        hidden: hiddenOf(store, f, { project: undefined, harness: undefined }),
      });
      return r.seen && wide.status !== "found" ? 0 : wide.seen;
    };
    const lead = r.status === "not_error" ? said : underFilters(f, said, all, "session", !r.seen);
    const own = `${lead}${looked}`;
    if (!recorded.length) return own;
    return `${own}\n${framed(recorded.join("\n"), SMALL_BUDGET - byteLength(own) - 1)}`;
  }
  // An example from another project than the server's says which (trial 62: a Windows
  // `pwsh` run offered in a k3s project with no word of where it ran).
  // (None under `project`: the project asked for is no other one, trial 98 F7.)
  const here = f.hide?.here && !f.project
    ? enclosingProject(store, f.hide.here, f.hide.env?.home) ?? f.hide.here
    : undefined;
  const away = projectsElsewhere(
    store,
    r.fixes.flatMap((x) => x.examples.map((e) => e.sessionRowId)),
    here,
  );
  const elsewhere = (id: number) => {
    const p = away.get(id);
    return p ? `, in another project, ${oneLineForAgent(p, 120)}` : "";
  };
  // trial 105 F4: a change before a re-run is the fix: said first, with the replaced words and
  // their replacement, then the re-run (as `deja fix` and the failure hook say it).
  const change = (e: FixEdit) => {
    const said = editChange(e, 80, oneLineForAgent);
    return `${e.op} ${oneLineForAgent(e.path, 200)}${said ? `: ${said}` : ""}`;
  };
  const changes = (es: readonly FixEdit[]) =>
    es.slice(0, 2).map(change).join("; ") +
    (es.length > 2 ? `; ${es.length - 2} more changes` : "");
  const blocks = r.fixes.map((x, i) => {
    if (x.rerun !== undefined || x.ranNext !== undefined) {
      // trial 106 F4: another command that ran after the change checked nothing of it.
      const lines = [
        `${i + 1}. ${changes(x.edits ?? [])}; ${
          x.rerun !== undefined
            ? `then run the failing command again: ${oneLineForAgent(commandOneLine(x.rerun), 300)}`
            : `then ran ${
              oneLineForAgent(commandOneLine(x.ranNext ?? ""), 200)
            }, another command, no re-run of what failed`
        }`,
        `   ${plural(x.sessions, "session")}${
          x.rerun !== undefined ? `, re-run ${fixRecord(x)}` : ""
        }, last ${sessionTime(x.last, x, 10)}${x.checked ? "" : `, ${NOT_CHECKED}`}`,
      ];
      for (const e of x.examples) {
        const own = JSON.stringify(e.edits) === JSON.stringify(x.edits)
          ? ""
          : `; ${changes(e.edits)}`;
        lines.push(
          `   after ${oneLineForAgent(e.failed, 120)} failed in ${
            shortRef(store, e.harness, e.session)
          } (${e.harness})${elsewhere(e.sessionRowId)}${own}`,
        );
      }
      return lines.join("\n");
    }
    const lines = [
      `${i + 1}. ${oneLineForAgent(commandOneLine(x.adapted?.command ?? x.command), 300)}${
        x.adapted
          ? ` (for '${x.adapted.to}'; it ran as ${
            oneLineForAgent(commandOneLine(x.command), 200)
          } for '${x.adapted.from}')`
          : x.otherNames
          ? ` (it ran for ${x.otherNames.map((n) => `'${oneLineForAgent(n, 60)}'`).join(", ")})`
          : ""
      }`,
      `   ${plural(x.sessions, "session")}, ${fixRecord(x)}, last ${sessionTime(x.last, x, 10)}${
        x.retry ? ", the failing command run again" : ""
      }${x.checked ? "" : `, ${NOT_CHECKED}`}`,
    ];
    for (const e of x.examples) {
      const edited = e.edited.length ? `; edited ${oneLineForAgent(e.edited.join(", "), 200)}` : "";
      lines.push(
        `   after ${oneLineForAgent(e.failed, 120)} failed in ${
          shortRef(store, e.harness, e.session)
        } (${e.harness})${elsewhere(e.sessionRowId)}${edited}`,
      );
    }
    return lines.join("\n");
  });
  return framed(
    fitBlocks(`fix: ${r.message}`, blocks, () => "", bodyBudget(SMALL_BUDGET)).text,
    SMALL_BUDGET,
  );
}

/**
 * The real invocations of a command, those run in the project the server works in first
 * (the indexed project its directory, `hide.here`, is in; not with `project`), most
 * widely used first.
 */
export function howAnswer(store: Store, what: string, f: Filters): string {
  return howResult(store, what, f).text;
}

/** {@link howAnswer}'s text, and whether any command held the words. */
export function howResult(
  store: Store,
  what: string,
  f: Filters,
): { text: string; found: boolean } {
  return howText(store, what, f);
}

function howText(store: Store, what: string, f: Filters): { text: string; found: boolean } {
  const here = !f.project && f.hide?.here
    ? enclosingProject(store, f.hide.here, f.hide.env?.home)
    : undefined;
  const runs = (project: string | undefined, harness: string[] | undefined) =>
    howRuns(store, what, {
      project,
      limit: f.limit ?? 8,
      hidden: hiddenOf(store, f, { project, harness }),
      ...(here === undefined ? {} : { here }),
    });
  const r = runs(f.project, f.harness);
  if (!r.commands.length) {
    return { text: noCommand(r, f, () => runs(undefined, undefined).total), found: false };
  }
  const blocks = r.commands.map((c) => {
    // The user's own runs (`!` shell mode) said as theirs (trial 103 F9).
    const mix = runsStatus(c, "the user");
    // Calls none of which got a result were made, not run (trial 103 F7).
    return `- ${oneLineForAgent(commandOneLine(c.command), 300)}\n  ${
      c.noResult === c.runs ? "called" : "ran"
    } ${plural(c.runs, "time")} in ${plural(c.sessions, "session")}, last ${
      sessionTime(c.last, c, 10)
    } in ${c.latest.ref} (${c.latest.harness}${c.here ? ", this project" : ""}); runs: ${mix}`;
  });
  const where = f.project
    ? ""
    : !r.here
    ? ", from every project (the server's directory is in no indexed project)"
    : r.totalHere
    ? `, those run in this project (${oneLineForAgent(r.here, 200)}) first`
    : `; none ran in this project (${oneLineForAgent(r.here, 200)}): these ran elsewhere`;
  // The most `limit` takes, or cut for size before it, no larger limit shows more (trial 96 F8).
  const limit = f.limit ?? 8;
  const tail = (shown: number) =>
    r.total <= shown
      ? ""
      : `${r.total - shown} more: ${
        shown < r.commands.length
          ? `the answer holds ${SMALL_BUDGET / 1024} KiB: narrower words or project`
          : limit >= MAX_LIMIT
          ? "narrower words or project"
          : "a larger limit"
      }`;
  const text = framed(
    fitBlocks(
      `how: commands holding ${r.words.join(" ")}${where}`,
      blocks,
      tail,
      bodyBudget(SMALL_BUDGET),
    )
      .text,
    SMALL_BUDGET,
  );
  return { text, found: true };
}

/**
 * Mode how's answer when no command was shown, as `deja how` says it (lib/cli/_filtered.ts):
 * whether hidden sessions hold one, whether the project is why, else how to widen.
 */
function noCommand(r: HowResult, f: Filters, withoutFilters: () => number): string {
  const words = r.shown.map((w) => `'${oneLineForAgent(w, 80)}'`).join(" and ");
  // Symbols alone (`%`, trial 62: "No command holds ." named nothing): as the CLI says it.
  if (!r.words.length) {
    return "Nothing to look for: the text holds no word. Give the words a command would hold.";
  }
  const none = r.hidden
    ? `Only hidden sessions hold a command with ${words}`
    : `No command holds ${words}`;
  const hidden = r.hidden
    ? ` ${plural(r.hidden, "session")} of throwaway or excluded projects were left out.`
    : "";
  const widen = ` Try fewer words (a command must hold every one), a "quoted phrase" for words ` +
    `in order, or mode recall to search them in what was said.`;
  if (!f.project && !f.harness?.length) return `${none}.${hidden}${r.hidden ? "" : widen}`;
  let all = 0;
  const said = underFilters(f, `${none}.`, () => all = withoutFilters(), "command");
  return all ? said : `${said}${hidden}${r.hidden ? "" : widen}`;
}
