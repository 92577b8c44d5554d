/**
 * Building a {@link Session} value without `undefined` fields: a parser
 * passes what it found and only the values it has are set.
 *
 * @module
 */
import type { Event, Session } from "../core/model.ts";

/** Optional session metadata; `undefined` and empty strings are left out. */
export interface SessionMeta {
  project?: string;
  title?: string;
  model?: string;
  parent?: string;
  /** Epoch ms. */
  started?: number;
  /** Epoch ms. */
  updated?: number;
}

/** A session of `harness` with the metadata that is present. */
export function newSession(
  harness: string,
  id: string,
  path: string,
  events: Event[],
  meta: SessionMeta = {},
): Session {
  const s: Session = { harness, id, path, events };
  for (const [k, v] of Object.entries(meta) as Array<[keyof SessionMeta, string | number]>) {
    if (v !== undefined && v !== "") (s as unknown as Record<string, unknown>)[k] = v;
  }
  return s;
}

/**
 * Sets `started` / `updated` of `s` to the earliest and latest of its event
 * times and `extra` times (undefined ones ignored); leaves them unset when
 * there is none.
 */
export function spanTimes(s: Session, ...extra: Array<number | undefined>): Session {
  const times = [...s.events.map((e) => e.time), ...extra].filter((t): t is number =>
    t !== undefined
  );
  if (times.length) [s.started, s.updated] = [Math.min(...times), Math.max(...times)];
  return s;
}
