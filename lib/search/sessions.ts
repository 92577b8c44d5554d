/**
 * Session rows a search needs: loaded once per search, with the parent a
 * subagent's hits are filed under, and which sessions are hidden by default
 * (throwaway and excluded projects).
 *
 * @module
 */
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import type { Env } from "../../core/model.ts";
import type { SessionRow } from "../rows.ts";
import { excludePatterns, isThrowaway, projectMatcher } from "./junk.ts";
import { loadRemotes } from "../remote/config.ts";

/** The columns of a session row a search reads. */
export type SessRow = Pick<
  SessionRow,
  | "id"
  | "harness"
  | "native_id"
  | "project"
  | "title"
  | "started"
  | "updated"
  | "time_from_file"
  | "parent"
  | "events"
  | "origin"
>;

/**
 * Rows read at once on a miss: a session and the ones after it by row id. A relevance-tier
 * query files rows of most sessions, one miss at a time (issue 15: 380 one-row reads a query,
 * ~6 ms); a literal query misses a few times, and a few extra rows cost nothing.
 */
const READ_AHEAD = 64;

/** Session rows by id, and each one's root (its parent when the parent is indexed). */
export class SessionCache {
  private rows = new Map<number, SessRow>();
  private roots = new Map<number, number>();
  /** Per root, the other ids {@link root} filed under it. */
  private children = new Map<number, number[]>();
  private junk = new Map<number, boolean>();

  constructor(private store: Store) {}

  /** Loads the rows of `ids` not loaded yet (one query). */
  load(ids: number[]): void {
    const missing = ids.filter((i) => !this.rows.has(i));
    if (!missing.length) return;
    for (
      const s of Q.sessionsByIds.all(this.store, { ids: JSON.stringify(missing) })
    ) this.rows.set(s.id, s);
  }

  /** The row of session `id` (loaded on demand, with the {@link READ_AHEAD} after it). */
  get(id: number): SessRow | undefined {
    if (!this.rows.has(id)) {
      for (const s of Q.sessionsInRange.all(this.store, { from: id, to: id + READ_AHEAD })) {
        if (!this.rows.has(s.id)) this.rows.set(s.id, s);
      }
    }
    return this.rows.get(id);
  }

  /** Events of session `id` and of the subagents filed under it (after {@link root} saw them). */
  eventsUnder(id: number): number {
    let n = this.get(id)?.events ?? 0;
    for (const child of this.children.get(id) ?? []) n += this.get(child)?.events ?? 0;
    return n;
  }

  /** Ids filed under `id` (itself and the subagents {@link root} mapped to it). */
  members(id: number): number[] {
    return [id, ...this.children.get(id) ?? []];
  }

  /** The id `id`'s hits are filed under: its parent's when the parent is indexed. */
  root(id: number): number {
    let r = this.roots.get(id);
    if (r !== undefined) return r;
    r = id;
    const s = this.get(id);
    if (s?.parent) {
      const p = Q.sessionByKey.get(this.store, { harness: s.harness, native_id: s.parent });
      if (p) {
        this.rows.set(p.id, p);
        r = p.id;
      }
    }
    this.roots.set(id, r);
    if (r !== id) {
      const c = this.children.get(r);
      if (c) c.push(id);
      else this.children.set(r, [id]);
    }
    return r;
  }

  /** The session is throwaway by {@link isThrowawaySession} (notes and `here` never are). */
  throwaway(id: number, env?: Env, here?: string): boolean {
    let j = this.junk.get(id);
    if (j === undefined) {
      const r = this.get(id);
      this.junk.set(id, j = Boolean(r) && isThrowawaySession(r!, env, here));
    }
    return j;
  }
}

/** True when `here` (the directory the person is in) is `project` or inside it. */
function isHere(project: string, here?: string): boolean {
  return Boolean(here) && (here === project || here!.startsWith(project + "/"));
}

/**
 * The one throwaway rule every command applies (search's flag and ranking,
 * the hidden sets of search, last, ctx..., the counts of `deja stats`): a
 * session whose project looks throwaway ({@link isThrowaway}), unless it is a
 * note (`deja remember`: kept on purpose wherever it was saved) or its project
 * is the one the person is in (`here`).
 */
export function isThrowawaySession(
  r: { harness: string; project: string | null | undefined },
  env?: Env,
  here?: string,
): boolean {
  if (r.harness === "deja" || !r.project || isHere(r.project, here)) return false;
  return isThrowaway(r.project, env);
}

/** How many sessions the commands leave out or file elsewhere, and why ({@link hiddenCounts}). */
export interface HiddenCounts {
  /** Top-level sessions of throwaway projects (left out unless `--junk`). */
  throwaway: number;
  /** Top-level sessions of excluded projects still in the index (always left out). */
  excluded: number;
  /** Subagent sessions filed under their indexed parent (never listed on their own). */
  subagents: number;
  /** Subagent sessions whose parent is not indexed (listed on their own). */
  subagentsAlone: number;
}

/**
 * The counts behind every "left out" figure: subagents filed under their
 * parent, then among the other sessions those of excluded projects and those
 * {@link isThrowawaySession} calls throwaway — the same rule as
 * {@link defaultHidden}, so `deja stats` adds up with `deja last --junk` and
 * the hint of `deja last`.
 */
export function hiddenCounts(store: Store, env: Env, here?: string): HiddenCounts {
  const excluded = projectMatcher(excludePatterns(env));
  const out: HiddenCounts = { throwaway: 0, excluded: 0, subagents: 0, subagentsAlone: 0 };
  for (const r of Q.sessionKinds.all(store, {})) {
    if (r.alone) out.subagentsAlone++;
    if (r.sub) out.subagents++;
    else if (excluded(r.project)) out.excluded++;
    else if (isThrowawaySession(r, env, here)) out.throwaway++;
  }
  return out;
}

/**
 * Row ids of the sessions a search leaves out: those of projects matching
 * `exclude`, and, when `throwaway` is set, those of throwaway projects —
 * except notes (`deja remember`) and the project the person is in (`here`,
 * a directory: the project equals it or holds it).
 */
export function hiddenSessions(
  store: Store,
  exclude: string[],
  throwaway: boolean,
  env?: Env,
  here?: string,
): number[] {
  const excluded = projectMatcher(exclude);
  const verdict = new Map<string, boolean>();
  const out: number[] = [];
  for (
    const r of Q.sessionProjects.all(store, {})
  ) {
    if (excluded(r.project)) {
      out.push(r.id);
      continue;
    }
    if (!throwaway || r.harness === "deja") continue;
    let v = verdict.get(r.project);
    if (v === undefined) {
      v = isThrowawaySession(r, env, here);
      verdict.set(r.project, v);
    }
    if (v) out.push(r.id);
  }
  return out;
}

/** Options of {@link defaultHidden}. */
export interface HideOptions {
  /** The environment: exclusion patterns, home and TMPDIR. */
  env: Env;
  /** `--junk`: show throwaway projects too (excluded ones stay hidden). */
  junk?: boolean;
  /** The directory the person is in: its project is never throwaway to them. */
  here?: string;
  /** A `--project` filter: naming a project shows it, throwaway or not. */
  project?: string;
  /** `--from`: only sessions of this machine (`local`) or of this remote. */
  from?: string;
  /** `--model`: only sessions one of whose replies' models holds this (any case). */
  model?: string;
  /** Answering a hook or an agent (MCP): remotes whose policy is `--no-auto` are left out. */
  auto?: boolean;
}

/**
 * The search options that apply {@link defaultHidden}'s rule inside a search
 * (`search()` calls {@link hiddenSessions} with them).
 */
export function searchHiding(
  o: HideOptions,
): { hideThrowaway: boolean; exclude: string[]; here?: string; env: Env; origins: OriginRule } {
  return {
    hideThrowaway: !o.junk,
    exclude: excludePatterns(o.env),
    here: o.here,
    env: o.env,
    origins: { from: o.from, auto: o.auto, model: o.model },
  };
}

/** Which machines' sessions to show (see {@link HideOptions}). */
export interface OriginRule {
  from?: string;
  auto?: boolean;
  /** Only sessions one of whose models holds this text (`--model`). */
  model?: string;
}

/**
 * Row ids of sessions `rule` leaves out: those not from `rule.from` (`local`
 * or a remote's name), and with `rule.auto` those of remotes whose policy is
 * `--no-auto` (lib/remote/config.ts).
 */
export function originHidden(store: Store, env: Env, rule: OriginRule): number[] {
  const out: number[] = [];
  if (rule.from) {
    const origin = rule.from === "local" ? null : rule.from;
    out.push(...Q.sessionsNotOfOrigin.all(store, { origin }).map((r) => r.id));
  }
  if (rule.model) {
    out.push(...Q.sessionsNotOfModel.all(store, { text: rule.model }).map((r) => r.id));
  }
  if (rule.auto) {
    let quiet: string[] = [];
    try {
      quiet = loadRemotes(env).filter((r) => r.noAuto).map((r) => r.name);
    } catch { /* a broken remotes file: no policy to apply */ }
    for (const origin of quiet) {
      out.push(...Q.sessionsOfOrigin.all(store, { origin }).map((r) => r.id));
    }
  }
  return out;
}

/**
 * The one rule every command that lists sessions or what they did applies
 * (search, ctx, last, blame, restore, how; the MCP modes): row ids of the
 * sessions of excluded projects, and of throwaway projects unless `junk` or a
 * `project` filter is given (notes and the project the person is in are
 * kept). A session someone names by id is shown whatever this says.
 */
export function defaultHidden(store: Store, o: HideOptions): HiddenSessions {
  const out = new HiddenSessions(
    hiddenSessions(store, excludePatterns(o.env), !o.junk && !o.project, o.env, o.here),
  );
  // A session --from or a policy leaves out stays out with --junk too: never counted.
  for (const id of originHidden(store, o.env, o)) {
    out.silent.add(id);
    out.add(id);
  }
  return out;
}

/**
 * The row ids {@link defaultHidden} leaves out, and among them the `silent`
 * ones: left out because the person asked (`--from`) or a remote's policy
 * says so (`--no-auto`). Only the others — throwaway and excluded projects —
 * are counted in the "left out; --junk shows them" hint.
 */
export class HiddenSessions extends Set<number> {
  /** Ids left out by a filter the person gave or a policy: never counted in the hint. */
  readonly silent = new Set<number>();
}

/**
 * True when session row `id` is left out by `hidden` and counts towards the
 * hint about throwaway or excluded projects (see {@link HiddenSessions}).
 */
export function countsAsHidden(hidden: ReadonlySet<number> | undefined, id: number): boolean {
  if (!hidden?.has(id)) return false;
  return !(hidden instanceof HiddenSessions && hidden.silent.has(id));
}
