/**
 * What the work-memory commands (ctx, blame, restore, fix, how, last) share:
 * the harness filter option, the `--junk` option and its hint, opening the
 * index for one command, and the JSON shape of a session.
 *
 * @module
 */
import type { Args, OptionSpec } from "./common.ts";
import { isoTime } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import { indexPath, Store } from "../store.ts";
import { Q } from "../schema.ts";
import { DejaError } from "../../core/errors.ts";
import { shortRef } from "../sessions.ts";
import { type SessionRow } from "../rows.ts";
import { defaultHidden } from "../search/sessions.ts";
import { harnessId } from "../../core/registry.ts";
import { unknownHarness } from "./suggest.ts";
import { loadRemotes } from "../remote/config.ts";
import { parseSince, SINCE_FORMS, SPAN } from "../query.ts";
import { isUndated } from "../session_time.ts";

/** `--harness` (repeatable) and `--project`, as search spells them. */
export const FILTER_OPTIONS: Record<string, OptionSpec> = {
  harness: {
    type: "string",
    value: "<id>",
    description: "only sessions of this harness: its id or product name (claude-code); repeatable",
    multiple: true,
  },
  project: {
    type: "string",
    value: "<text>",
    description: "only projects whose path contains this (., ../x: from the current directory)",
  },
  from: {
    type: "string",
    value: "<name|local>",
    description: "only sessions of this machine ('local') or of this remote ('deja remote list')",
  },
  model: {
    type: "string",
    value: "<text>",
    description: "only sessions whose model's name contains this (qwen, gpt-5, opus)",
  },
};

/**
 * `--junk`: what every command that lists sessions or their work takes to show
 * throwaway projects too (the rule: `defaultHidden` in lib/search/sessions.ts).
 */
export const JUNK_OPTION: Record<string, OptionSpec> = {
  junk: {
    type: "boolean",
    description: "include sessions of throwaway projects (temp dirs, eval sandboxes)",
  },
};

/** `--since`: only what is this recent (`search` and `last` read it alike: {@link timeOpt}). */
export const SINCE_OPTION: Record<string, OptionSpec> = {
  since: {
    type: "string",
    value: "<30d|date>",
    description:
      "only events this recent (30d, 12h, 2w, 3mo, 45m for minutes, a date, or yesterday, last week…)",
  },
};

/**
 * A time bound option (`--since`, forget's `--before`) as epoch ms and as typed; both
 * undefined when it was not given. Read by lib/query.ts `parseSince`.
 *
 * @throws {DejaError} exit 2 when its value is no time
 */
export function timeOpt(a: Args, name: string): { ms?: number; text?: string } {
  const text = typeof a.values[name] === "string" ? a.values[name] as string : undefined;
  if (text === undefined) return {};
  const ms = parseSince(text);
  if (ms === undefined) {
    // The word that went to the positionals, wherever it stands: a unit (`--since 2 weeks`,
    // trial 17b; `deja search docker --since 2 weeks`, trial 18a) is written as one word with
    // the number, other words (`--since last week` unquoted) are quoted with it.
    const next = a.positionals.find((p) => parseSince(`${text} ${p}`) !== undefined);
    const unit = next && SPAN.test(`${text.trim()} ${next}`) ? next.toLowerCase() : undefined;
    const hint = unit
      ? `write the number and its unit as one word: --${name} ${text.trim()}${
        unit.startsWith("mo") ? "mo" : unit.startsWith("mi") ? "m" : unit[0]
      }`
      : next
      ? `quote the words: --${name} '${text} ${next}'`
      : undefined;
    throw new DejaError(`--${name} takes ${SINCE_FORMS}, not '${text}'`, hint, 2);
  }
  return { ms, text };
}

/** The session filter a work-memory command was given (`--harness`, `--project`, `--from`, `--junk`). */
export interface SessionFilter {
  /** Checked against the parser list. */
  harness?: string[];
  project?: string;
  /** As typed; checked against the remotes when the filter is applied ({@link hiddenOf}). */
  from?: string;
  /** `--model`: a text one of the session's models holds. */
  model?: string;
  junk: boolean;
}

/** Reads the filter options. @throws {DejaError} exit 2 on an unknown harness */
export function parseFilter(a: Args): SessionFilter {
  return {
    harness: harnessOpt(a),
    project: a.values.project as string | undefined,
    from: typeof a.values.from === "string" ? a.values.from : undefined,
    model: typeof a.values.model === "string" && a.values.model.trim()
      ? a.values.model.trim()
      : undefined,
    junk: Boolean(a.values.junk),
  };
}

/**
 * The row ids a command leaves out by default, for the filter's `junk`,
 * `project` and `from`.
 *
 * @throws {DejaError} exit 2 when `from` is neither 'local' nor a remote
 */
export function hiddenOf(store: Store, f: SessionFilter, io: Pick<IO, "env" | "cwd">): Set<number> {
  return defaultHidden(store, {
    env: io.env,
    junk: f.junk,
    here: io.cwd,
    project: f.project,
    from: f.from === undefined ? undefined : checkFrom(f.from, io),
    model: f.model,
  });
}

/** The row ids a command leaves out by default, for its `--junk` and `--project` options. */
export function hiddenFor(store: Store, a: Args, io: IO): Set<number> {
  return defaultHidden(store, {
    env: io.env,
    junk: Boolean(a.values.junk),
    here: io.cwd,
    project: a.values.project as string | undefined,
    from: fromOpt(a, io),
    model: typeof a.values.model === "string" && a.values.model.trim()
      ? a.values.model.trim()
      : undefined,
  });
}

/** The `--from` value, checked against the remotes. @throws {DejaError} naming them */
export function fromOpt(a: Args, io: IO): string | undefined {
  const v = a.values.from;
  return typeof v === "string" ? checkFrom(v, io) : undefined;
}

/** `v` when it is 'local', a remote, or an origin the index holds. @throws {DejaError} naming the remotes */
export function checkFrom(v: string, io: Pick<IO, "env">): string {
  if (v === "local") return v;
  const all = loadRemotes(io.env);
  // A removed remote's sessions stay in the index (until `remote remove --purge`): still a filter.
  if (!all.some((r) => r.name === v) && !indexedOrigin(io, v)) {
    throw new DejaError(
      `--from '${v}' is not 'local' or a remote`,
      all.length
        ? `the remotes are: ${all.map((r) => r.name).join(", ")}`
        : "'deja remote add' adds one",
      2,
    );
  }
  return v;
}

/** True when the index holds sessions from the machine `origin` (false without an index). */
export function indexedOrigin(io: Pick<IO, "env">, origin: string): boolean {
  return peekIndex(io, (store) => Q.anyOfOrigin.get(store, { origin }) !== undefined, false);
}

/** How many sessions from the machine `origin` the index holds (0 without an index). */
export function originSessions(io: Pick<IO, "env">, origin: string): number {
  return peekIndex(io, (store) => Q.sessionsOfOrigin.all(store, { origin }).length, 0);
}

/** `fn` of the index opened read-only, or `none` when it cannot be read. */
function peekIndex<T>(io: Pick<IO, "env">, fn: (store: Store) => T, none: T): T {
  try {
    const store = Store.open(indexPath(io.env), { readOnly: true, busyMs: 500 });
    try {
      return fn(store);
    } finally {
      store.close();
    }
  } catch {
    return none;
  }
}

/**
 * The hint every command prints on stderr when `n` sessions of throwaway or
 * excluded projects were left out of what it shows (nothing when `n` is 0).
 */
export function hiddenHint(io: IO, n: number): void {
  if (!n) return;
  io.err(
    `hint: ${n} session${
      n === 1 ? "" : "s"
    } of throwaway or excluded projects left out; --junk shows the throwaway ones\n`,
  );
}

/**
 * Says on stderr how many sessions `--since` left out because they are undated
 * (a prompt history: only its file's time, lib/session_time.ts); nothing when none.
 */
export function undatedHint(io: IO, n: number, by = "--since"): void {
  if (!n) return;
  // Trial 18a: "left out by 'last march'; without it it is shown" read garbled.
  const one = n === 1;
  io.err(
    `hint: ${n} undated session${one ? "" : "s"} (a prompt history, dated only by a file many ` +
      `sessions share) ${one ? "is" : "are"} left out by ${by}, which cannot place ${
        one ? "it" : "them"
      }; without ${by} ${one ? "it is" : "they are"} listed\n`,
  );
}

/**
 * The `--harness` values as ids, each read by core/registry.ts `harnessId`
 * (any case, `claude-code` style names), comma lists split.
 * @throws {DejaError} exit 2 on an unknown harness
 */
export function harnessOpt(a: Args): string[] | undefined {
  const typed = (a.values.harness as string[] | undefined ?? []).flatMap((h) => h.split(","))
    .map((h) => h.trim()).filter(Boolean);
  const hs: string[] = [];
  for (const h of typed) {
    // registry.json lists the parsers' ids (tests/registry_test.ts): no parser is loaded to check.
    const id = harnessId(h);
    if (!id) throw unknownHarness(h);
    if (!hs.includes(id)) hs.push(id);
  }
  return hs.length ? hs : undefined;
}

/** Runs `fn` with the index open, closing it afterwards. @throws {DejaError} no index */
export function withStore<T>(io: IO, fn: (store: Store) => T): T {
  const store = Store.open(indexPath(io.env));
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** A session as the memory commands print it in JSON (docs/json-output.md). */
export function sessionJson(store: Store, s: SessionRow) {
  return sessionJsonOf(s, shortRef(store, s.harness, s.native_id));
}

/** {@link sessionJson} with the short reference already found (for renderers without the index). */
export function sessionJsonOf(s: SessionRow, shortId: string) {
  return {
    harness: s.harness,
    id: s.native_id,
    short_id: shortId,
    origin: s.origin ?? null,
    project: s.project,
    title: s.title,
    started: isoTime(s.started),
    updated: isoTime(s.updated),
    time_from_file: Boolean(s.time_from_file),
    undated: isUndated(s),
  };
}
