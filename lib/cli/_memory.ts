/**
 * What the work-memory commands (ctx, blame, restore, fix, how, last) share:
 * the harness filter option, opening the index for one command, and the JSON
 * shape of a session.
 *
 * @module
 */
import type { Args, OptionSpec } from "./common.ts";
import { isoTime } from "./common.ts";
import type { IO } from "../runtime.ts";
import { DejaError, indexPath, Store } from "../store.ts";
import { type SessionRow, shortRef } from "../sessions.ts";
import { parsers } from "../../parsers/mod.ts";

/** `--harness` (repeatable) and `--project`, as search spells them. */
export const FILTER_OPTIONS: Record<string, OptionSpec> = {
  harness: {
    type: "string",
    value: "<id>",
    description: "only sessions of this harness (repeatable)",
    multiple: true,
  },
  project: {
    type: "string",
    value: "<text>",
    description: "only projects whose path contains this",
  },
};

/** The `--harness` values, each checked against the parser list. @throws {DejaError} */
export function harnessOpt(a: Args): string[] | undefined {
  const hs = a.values.harness as string[] | undefined;
  for (const h of hs ?? []) {
    if (!parsers.some((p) => p.id === h)) {
      throw new DejaError(`unknown harness '${h}'`, "'deja sources' lists them", 2);
    }
  }
  return hs?.length ? hs : undefined;
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
  return {
    harness: s.harness,
    id: s.native_id,
    short_id: shortRef(store, s.harness, s.native_id),
    project: s.project,
    title: s.title,
    started: isoTime(s.started),
    updated: isoTime(s.updated),
  };
}
