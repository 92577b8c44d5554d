/**
 * The two recall blocks: where the last session in this project left off
 * (session start), and past sessions about what the person just asked (per
 * prompt). Each returns the block's text (unframed) and the keys that mark it
 * as said, or null when there is nothing worth saying.
 *
 * Prompt rule: the prompt's words the index holds are weighed by rarity
 * (idf = ln(events / events holding the word), half as much again for words
 * of identifiers such as `REDIS_URL`); stop words and filler ("cannot",
 * "still") never count. A word with idf ≥ 2 (1.5 for an identifier's) is
 * informative. With at least two informative words, or one that counts alone
 * (weighing 3 or more, and an identifier's or no common English word:
 * `quokkamatic`, not `shows`), the weightiest (up to {@link QUERY_WORDS}) are
 * searched in this project, and only a literal match counts (tiers exact,
 * session, substring, stemmed, error), several words held in one event, not
 * spread over a session's. When they match nothing so, the prompt's words one
 * event of this project holds most of (three or more, or two with a name among
 * them: a long prompt's weightiest words are often everyday ones), then fewer: the
 * ones this project holds, each of those left out in turn, the two weightiest,
 * the weightiest alone when it counts alone; none of these leaves out a word of
 * an identifier, the prompt's topic (a pasted `configmap/web-config` no session
 * here holds leaves nothing to say). Not the two weightiest alone first: the
 * word that names the task is often one the history uses a lot (trial 9, a k3s
 * project: "add redis to the kubernetes cluster" searched "cluster kubernetes",
 * redis weighing 4.8 against 6.1 and 5.8, and left out the session titled "Add
 * Redis" that `deja search` ranked first). A subagent whose parent the index
 * lacks is never recalled (Gemini CLI's background skill extraction, whose
 * prompt lists other sessions), but for a Claude Code compaction, whose summary
 * stands for its parent. At most two sessions are shown, never the agent's own
 * and never one already recalled in this agent session.
 *
 * @module
 */
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { search, type SearchResult } from "../search.ts";
import { matchRows } from "../search/retrieve.ts";
import { ftsAny, STOP_WORDS, tokens } from "../query.ts";
import { sessionDigest } from "../memory/digest.ts";
import { describeSession } from "../memory/last.ts";
import { endingText, tailEnding } from "../memory/ending.ts";
import { gist } from "../memory/text.ts";
import { byteLength, charactersEnd, oneLine } from "../../core/text.ts";
import { isEnglish } from "../search/english.ts";
import { projectExactLike } from "../project_path.ts";
import { stripFrames } from "../../core/frame.ts";
import type { SessionRow } from "../rows.ts";
import {
  citable,
  type Current,
  day,
  fitLines,
  problemAfter,
  projectSessions,
  type Said,
  shortId,
  stripControls,
} from "./_util.ts";

/** A Claude Code compaction agent's id (`<session>/agent-acompact-<hex>`). */
const COMPACTION = /\/agent-acompact-[0-9a-f]+$/;

/**
 * Row ids of the subagents of `project` (and the folders under it) whose parent the index
 * lacks, but for Claude Code's compactions (their summary stands for the parent).
 */
function automated(store: Store, project: string): number[] {
  const like = `${projectExactLike(project)}%`;
  return Q.orphanSubagents.all(store, { project: like })
    .filter((s) => !COMPACTION.test(s.native_id)).map((s) => s.id);
}

/** Tiers whose results match the words as written (or their forms). */
const LITERAL = new Set(["exact", "session", "substring", "stemmed", "error"]);
/** Words looked up per prompt at most. */
const MAX_WORDS = 40;

/**
 * Characters of a prompt its words are taken from, at most: the first {@link MAX_WORDS} are
 * in them, and a pasted log of megabytes is not split whole (trial 109 F7: a 14 MB prompt took
 * 1.6 s to weigh, unloaded, and at load ~10 its hook ran out of time).
 */
export const PROMPT_CHARS = 64 * 1024;

/** Events at most a word may be in for the agent's own session's share of them to be taken off. */
const OWN_DOCS = 64;

/** Informative words of a prompt searched at most (each costs the search a pass over its sessions). */
export const QUERY_WORDS = 4;

/**
 * The tags that put a note before the others at session start (`deja remember --tag gotcha`):
 * on the `#tag` line parsers/deja.ts `noteText` ends a tagged note with.
 */
const PRIORITY_TAG = /(?:^|\s)#(?:gotcha|important|warning|critical|pinned|pin)(?=\s|$)/i;

/**
 * Notes kept with `deja remember` for the project (those tagged as warnings first, then newest first), as list lines within
 * `budget` bytes, and how many older ones did not fit (trial 66: of 13 notes the newest 3
 * were shown and nothing said ten more were kept, an "IMPORTANT: never …" among them).
 */
function notesLines(store: Store, notes: SessionRow[], budget: number): string {
  const head = "Notes kept for this project (deja remember):";
  const pinned: string[] = [];
  const rest: string[] = [];
  // A note held twice (a notes file copied to another data folder, both indexed: trial 66)
  // is said once.
  const said = new Set<string>();
  for (const s of notes) {
    const evs = Q.eventsOfSession.all(store, { session: s.id });
    for (const e of evs.filter((e) => e.kind === "user").reverse()) {
      const line = `- ${oneLine(stripControls(e.text), 200)}`;
      if (!said.has(line)) (PRIORITY_TAG.test(e.text) ? pinned : rest).push(line);
      said.add(line);
    }
  }
  // A note tagged as a warning comes first, whatever its age (trial 68 F7: a `gotcha` note was
  // among the older ones left unsaid behind three routine notes).
  const items = [...pinned, ...rest];
  const more = (n: number) =>
    `- … and ${n} more note${n === 1 ? "" : "s"} (deja search --harness deja <words> finds them)`;
  let text = fitLines([head, ...items], budget);
  let shown = text.split("\n").length - 1;
  if (shown < items.length) {
    text = fitLines([head, ...items], budget - byteLength(more(items.length)) - 1);
    shown = text.split("\n").length - 1;
    if (shown > 0) text += `\n${more(items.length - shown)}`;
  }
  return shown > 0 ? text : "";
}

/**
 * The digest of the newest other session of the project `dir` is in (or of
 * `current` itself with `self`, after a compaction), within `budget` bytes,
 * after the project's newest notes (`deja remember`, at most a fifth of the
 * budget).
 */
export function contextBlock(
  store: Store,
  dir: string,
  current: Current,
  seen: Set<string>,
  budget: number,
  opts: { self?: boolean; home?: string } = {},
): Said | null {
  let target: SessionRow | undefined;
  let lead: string;
  let notes = "";
  if (opts.self && current.rows.size) {
    target = Q.sessionById.get(store, { id: Math.min(...current.rows) });
    lead = "This session before it was compacted (commands, files, decisions):";
  } else {
    const found = projectSessions(store, dir, 12, opts.home ?? current.home);
    const list = found?.sessions ?? [];
    // The newest other session only: a second start in one agent session (resume, clear)
    // gets nothing rather than an older session. One where nothing was done (no reply, no
    // call: a "Hello?" the provider refused) left nothing off (trial 66: its digest was the
    // whole start context of the project), nor did a greeting answered with one (trial 69:
    // "hi" / "Hello! How can I help you today?" stood for the session that read the README).
    // A subagent is part of a session, not where the user left off (one whose parent the index
    // lacks is listed on its own: Gemini's background skill extraction, trial 73), but for a
    // Claude Code compaction, whose summary of its parent stands for it (trial 75).
    target = list.find((s) =>
      s.harness !== "deja" && (!s.parent || COMPACTION.test(s.native_id)) &&
      citable(current, s.id) && s.native_id !== current.id &&
      Q.didSomething.get(store, { session: s.id }) !== undefined
    );
    const kept = list.filter((s) => s.harness === "deja" && !current.hidden.has(s.id));
    notes = notesLines(store, kept, Math.floor(budget / 5));
    lead = "";
  }
  if (!target || seen.has(`ctx:${target.id}`)) {
    return notes && !seen.has(`notes:${dir}`) ? { text: notes, keys: [`notes:${dir}`] } : null;
  }
  if (!lead) {
    lead = `Where the last session in this project left off (whole digest: deja ctx ${
      shortId(store, target.harness, target.native_id)
    }):`;
  }
  const head = notes ? `${notes}\n\n${lead}` : lead;
  const room = budget - byteLength(head) - 1;
  if (room < 256) return null;
  const d = sessionDigest(store, target.id, {
    budgetBytes: room,
    home: opts.home,
    outcomeFirst: true,
  });
  if (!d.problem && !d.decisions.length && !d.commands.length && !d.files.length) return null;
  return {
    text: `${head}\n${stripControls(d.markdown)}`,
    keys: [`ctx:${target.id}`, ...(notes ? [`notes:${dir}`] : [])],
  };
}

/**
 * Words that say little about a topic however rare a corpus makes them
 * (prompts are full of them: "cannot", "wrong", "still").
 */
const FILLER = new Set(
  ("able actually add added again also anything bad because best better broken call called " +
    "cannot cant " +
    "change changes check could didnt doesnt done dont else error errors everything fail failed " +
    "failing fails fine first fix fixed " +
    "get gets getting give going good got help idea instead issue just know last like look " +
    "looks make maybe mean means might need needs new next now old one please pretty probably " +
    "problem right run runs same see seem seems should show something still sure tell thing " +
    "things think time times today tried try trying use used using want wants way why work " +
    "working works would wrong yesterday yet").split(" "),
);

/** The index tokens of the prompt's identifier-like words (`REDIS_URL`, `chex-mix-timer`, `v1.2`, `fooBar`). */
function technical(prompt: string): Set<string> {
  const out = new Set<string>();
  for (const raw of prompt.split(/\s+/)) {
    const w = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (/[_./\\-]|\d|\p{Ll}\p{Lu}|^\p{Lu}{2,}/u.test(w)) { for (const t of tokens(w)) out.add(t); }
  }
  return out;
}

/**
 * The prompt's words the index holds, most telling first: `idf` = ln(events /
 * events holding the word), `weight` = idf, half as much again for a word of
 * an identifier. Stop words and {@link FILLER} are left out.
 */
export function promptWords(
  store: Store,
  prompt: string,
  /**
   * Row ids of the agent's own session: a rare word counts by the other sessions holding it
   * (trial 68: `crashing`, only in the live transcript, was searched, the live session left
   * out, and nothing was said).
   */
  own: ReadonlySet<number> = new Set(),
): Array<{ word: string; idf: number; weight: number; technical: boolean }> {
  const n = Math.max(1, Q.eventCount.get(store, {})!.n);
  const head = prompt.slice(0, charactersEnd(prompt, PROMPT_CHARS));
  const tech = technical(head);
  const words = [...new Set(tokens(head))]
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w) && !FILLER.has(w) && !/^\d{1,3}$/.test(w))
    .slice(0, MAX_WORDS);
  const out = [];
  for (const word of words) {
    const r = Q.termDocs.get(store, { term: word });
    let df = r?.doc ?? 0;
    // Only a rare word's weight moves by what one session holds; a common one is not counted.
    if (df > 0 && df <= OWN_DOCS && own.size) {
      df -= Q.matchDocsIn.get(store, { match: ftsAny([[word]]), ids: JSON.stringify([...own]) })!.n;
    }
    if (df <= 0) continue;
    const idf = Math.log(n / df);
    const t = tech.has(word);
    out.push({ word, idf, weight: t ? idf * 1.5 : idf, technical: t });
  }
  return out.sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : 1));
}

/**
 * Whether a prompt's word is one to search alone: weighing 3 or more, and a name rather than
 * a word of every day (an identifier's, or none of lib/search/english.ts): trial 18's
 * `quokkamatic`, not `builds` or `shows` (trial 109 F8: a session that said "shows" once
 * was recalled for "kubectl get pods shows CrashLoopBackOff", nothing else of it held here).
 */
function alone(w: { word: string; weight: number; technical: boolean }): boolean {
  return w.weight >= 3 && (w.technical || !isEnglish(w.word));
}

/** The prompt without deja's frames, harness wrappers and slash commands. */
export function promptText(prompt: string): string {
  const t = stripFrames(prompt)
    .replace(/<(hook_context|system-reminder)>[\s\S]*?<\/\1>/g, "")
    .trim();
  return /^\/[\w:-]+\s*$/.test(t) ? "" : t;
}

/**
 * Past sessions of this project about `prompt`, within `budget` bytes (see
 * the module's prompt rule).
 */
export function promptBlock(
  store: Store,
  prompt: string,
  dir: string,
  current: Current,
  seen: Set<string>,
  budget: number,
): Said | null {
  const text = promptText(prompt);
  if (text.length < 8) return null;
  const words = promptWords(store, text, current.rows).filter((w) =>
    w.idf >= (w.technical ? 1.5 : 2)
  );
  if (!(words.length >= 2 || (words[0] && alone(words[0])))) return null;
  const project = projectSessions(store, dir, 1, current.home)?.project;
  if (!project) return null;
  const fresh = (r: SearchResult["results"][number]) =>
    citable(current, r.rowid) && r.id !== current.id && r.parent !== current.id &&
    !seen.has(`recall:${r.rowid}`);
  const opts = {
    project,
    limit: 6,
    snippets: 2,
    leaveOut: new Set([...current.hidden, ...automated(store, project)]),
    nearest: false,
  };
  /**
   * The sessions holding every word of `q` literally, in one event when there are several
   * (trial 109 F8: `gives` and `deploy`, in two events of a session about other things).
   */
  const find = (q: string[], limit = opts.limit) => {
    const r = search(store, q.join(" "), { ...opts, limit });
    return LITERAL.has(r.tier) ? r.results.filter((h) => q.length === 1 || !h.spread) : [];
  };
  // Every informative word (up to QUERY_WORDS); then fewer, never leaving out a word of an
  // identifier (`configmap/web-config`, `ingress.networking.k8s.io`): the prompt's topic, so
  // a match without it is on the asking's words alone (trial 109 F8: "gives deploy" was all
  // a pasted `kubectl apply` list left when its objects' words matched nothing here).
  const top = words.slice(0, QUERY_WORDS);
  const keeps = (kept: string[]) => top.every((w) => !w.technical || kept.includes(w.word));
  let query = top.map((w) => w.word);
  let found = find(query);
  // Nothing so: the words of the prompt one event of this project holds most of (trial 113
  // F7: "Forgejo keeps crashing again in the k3s cluster, the pod restarts every few minutes"
  // weighed `few`, `minutes`, `keeps`, `restarts` first, and no event held those four, nor
  // three, nor the two weightiest, where the session's first prompt held `forgejo`, `keeps`,
  // `k3s` and `cluster`).
  if (!found.length && words.length > 1) {
    const most = mostHeld(store, words.slice(0, MOST_WORDS), opts);
    if (most) {
      query = most;
      found = find(query);
    }
  }
  // Only the words this project's sessions hold, then without one of them, the weightiest
  // first: a rare word of the asking (`decide`, `remind`) held elsewhere stood in the way
  // (trials 48, 49: "what did we decide about REDIS_URL" said nothing where "what about
  // REDIS_URL" named the session).
  if (!found.length && top.length > 1) {
    const held = top.filter((w) => find([w.word], 1).length);
    if (held.length > 1 || (held.length === 1 && alone(held[0]))) {
      const names = held.map((w) => w.word);
      if (held.length < top.length && keeps(names)) {
        query = names;
        found = find(query);
      }
      for (let i = 0; !found.length && held.length > 2 && i < held.length; i++) {
        const fewer = names.filter((_, k) => k !== i);
        if (!keeps(fewer)) continue;
        query = fewer;
        found = find(query);
      }
    }
  }
  const two = words.slice(0, 2).map((w) => w.word);
  if (!found.length && words.length > 2 && keeps(two)) {
    query = two;
    found = find(query);
  }
  // Still nothing literal: the weightiest word alone when it is one that counts alone (trial
  // 18: "what version of quokkamatic" said nothing, `version` held by no session of it).
  if (!found.length && words.length > 1 && alone(words[0]) && keeps([words[0].word])) {
    query = [words[0].word];
    found = find(query);
  }
  const hits = found.filter((r) => (r.project ?? "").startsWith(project) && fresh(r)).slice(0, 2);
  if (!hits.length) return null;
  const lines = [
    `Past sessions in this project on "${query.join(" ")}" (deja ctx <id> for a digest):`,
  ];
  for (const h of hits) {
    const row = Q.sessionByKey.get(store, { harness: h.harness, native_id: h.id });
    const name = h.title || (row && describeSession(store, row));
    const title = name ? oneLine(stripControls(name), 90) : "(untitled)";
    // A session of a folder under this one says which (trial 62: sessions of sub-projects
    // were listed "in this project" with no path, so the agent could not tell them apart).
    const below = h.project && h.project !== project ? `, in ${oneLine(h.project, 80)}` : "";
    lines.push(
      `- ${title} (${h.harness}, ${day(h.updated ?? h.started)}${below}, id ${
        shortId(store, h.harness, h.id)
      })`,
    );
    for (const s of h.snippets) {
      const t = oneLine(stripControls(s.text), 220); // stripControls() drops the \x01/\x02 match marks
      if (t) lines.push(`  > ${t}`);
    }
    const c = conclusion(store, h.rowid);
    if (c) lines.push(`  ${c}`);
    const end = row && endedLine(store, row);
    if (end) lines.push(`  ${end}`);
  }
  const body = fitLines(lines, budget);
  if (body.split("\n").length < 2) return null;
  const shown = hits.filter((h) => body.includes(`id ${shortId(store, h.harness, h.id)})`));
  return { text: body, keys: shown.map((h) => `recall:${h.rowid}`) };
}

/** The prompt's weightiest words {@link mostHeld} looks for together (of at most {@link MAX_WORDS}). */
const MOST_WORDS = 12;

/** Events {@link mostHeld} reads, the best by BM25 of any of the words. */
const MOST_EVENTS = 200;

/**
 * Of `words` (weightiest first), those one event of `opts.project` holds most of by weight,
 * the sessions `opts.leaveOut` names left out: three or more, or two of which one is a name
 * (an identifier's word, or no common English word: `forgejo`, `k3s`), weightiest first, and
 * every identifier's word among them; undefined when no event holds so many. One FTS read of the events holding any of them.
 */
function mostHeld(
  store: Store,
  words: ReadonlyArray<{ word: string; weight: number; technical: boolean }>,
  opts: { project: string; leaveOut: ReadonlySet<number> },
): string[] | undefined {
  const rows = matchRows(store, ftsAny(words.map((w) => [w.word])), {
    project: opts.project,
    hideSessionIds: [...opts.leaveOut],
  }, MOST_EVENTS);
  if (!rows.length) return undefined;
  const texts = Q.eventTexts.all(store, { ids: JSON.stringify(rows.map((r) => r.event_id)) });
  let best: typeof words[number][] = [];
  let bestWeight = 0;
  for (const t of texts) {
    const has = new Set(tokens(t.text));
    const held = words.filter((w) => has.has(w.word));
    const name = held.some((w) => w.technical || !isEnglish(w.word));
    if (held.length < 2 || (held.length === 2 && !name)) continue;
    // No identifier's word left out, as the fallbacks before (trial 109 F8).
    if (words.some((w) => w.technical && !held.includes(w))) continue;
    const weight = held.reduce((n, w) => n + w.weight, 0);
    if (weight > bestWeight) [best, bestWeight] = [held, weight];
  }
  return best.length ? best.map((w) => w.word) : undefined;
}

/**
 * How a recalled session ended when that leaves its last request unanswered or its work
 * unfinished (calls with no reply after them too: trial 89 F5, a failed command the last word),
 * with the harness's error after it (trial 85 F8: a session whose only answer was "Prompt is
 * too long" was recalled on the user's pasted error alone, as if handled).
 */
function endedLine(store: Store, row: SessionRow): string | null {
  const t = tailEnding(store, row);
  if (!t || !t.ending) return null;
  const said = t.notice ? ` (the harness: “${gist(stripControls(t.notice), 120)}”)` : "";
  return `ended: ${endingText(t.ending)}${said}`;
}

/** Words of a reply that offers a guess, not a finding. */
const HEDGED =
  /\b(?:likely|probably|possibly|perhaps|might (?:be|have)|may (?:be|have)|could be|I (?:think|suspect|believe|guess)|my (?:guess|hypothesis)|hypothes[ie]s|presumably|seems? to|appears? to)\b/i;

/** The gist of the session's last concluding assistant turn, labelled, or null. */
function conclusion(store: Store, sessionRowId: number): string | null {
  const sig = Q.sessionSignals.get(store, { ids: JSON.stringify([sessionRowId]) });
  if (sig?.concluded == null) return null;
  const rows = Q.eventsBetween.all(store, {
    session: sessionRowId,
    from: sig.concluded,
    to: sig.concluded,
  });
  if (!rows[0]) return null;
  // With the user's next message when it reports a problem (trial 85 F4: "Updated to `Alt+M`.
  // That should work" was quoted as the outcome, the user's "does not work" left out).
  const next = problemAfter(store, sessionRowId, sig.concluded, 100);
  // A reply that hedges (`here's why it likely broke`) guessed, and is said to (trial 93 F10:
  // an unverified hypothesis was labelled "concluded").
  const label = HEDGED.test(rows[0].text.slice(0, 600)) ? "guessed" : "concluded";
  return `${label}: ${gist(stripControls(rows[0].text), 200)}` +
    (next ? ` (the user's next message: “${next}”)` : "");
}
