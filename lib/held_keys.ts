/**
 * What a session held before a store was read again: the keys of its events as 32-bit hashes
 * (a session of a million events takes 12 MB, not the ~80 MB of its keys), their places, and
 * the time of its latest event. lib/index_source.ts weighs a read against them (`fateOf`).
 *
 * @module
 */
import { fnv1a32 } from "../core/text.ts";
import { Q } from "./schema.ts";
import type { Store } from "./store.ts";
import { KEPT } from "./search/signals.ts";

/** The keys of the events a session held, as 32-bit hashes, and the time of its last event. */
export interface HeldKeys {
  /** The hashes, sorted. */
  sorted: Int32Array;
  /** The place in the session (by seq) of each hash of {@link sorted}. */
  places: Int32Array;
  /** The seq of the event at each place. */
  seqs: Int32Array;
  /** 1 at each place whose event its store no longer held (lib/search/signals.ts KEPT). */
  kept: Uint8Array;
  /** Its latest event time (epoch ms; -Infinity when none has a time). */
  latest: number;
  /** The time of the event at each place (epoch ms; NaN when it has none). */
  times: Float64Array;
}

/** Collects {@link HeldKeys} from rows in seq order. */
class Collect {
  hashes: number[] = [];
  seqs: number[] = [];
  kept: number[] = [];
  times: number[] = [];
  latest = -Infinity;
  add(key: string, time: number | null, seq: number, flags: number): void {
    this.hashes.push(fnv1a32(key) | 0);
    this.seqs.push(seq);
    this.times.push(time ?? NaN);
    this.kept.push(flags & KEPT ? 1 : 0);
    if (time !== null && time > this.latest) this.latest = time;
  }
  done(): HeldKeys {
    const h = Int32Array.from(this.hashes);
    const places = Int32Array.from(h.keys()).sort((x, y) => h[x] - h[y]);
    return {
      sorted: places.map((i) => h[i]),
      places,
      seqs: Int32Array.from(this.seqs),
      kept: Uint8Array.from(this.kept),
      latest: this.latest,
      times: Float64Array.from(this.times),
    };
  }
}

/** {@link HeldKeys} of the sessions of store `path`, by session (`harness\u0000native id`). */
export function heldKeys(store: Store, path: string): Map<string, HeldKeys> {
  const lists = new Map<string, Collect>();
  for (const r of Q.eventKeysOfSource.iterate(store, { source: path })) {
    const k = `${r.harness}\u0000${r.native_id}`;
    let list = lists.get(k);
    if (!list) lists.set(k, list = new Collect());
    list.add(r.key, r.time, r.seq, r.flags);
  }
  return new Map([...lists].map(([k, c]) => [k, c.done()]));
}

/** {@link HeldKeys} of one session (its events with keys). */
export function sessionHeldKeys(store: Store, harness: string, id: string): HeldKeys {
  const c = new Collect();
  for (const r of Q.eventKeysOfSession.iterate(store, { harness, native_id: id })) {
    if (r.key !== null) c.add(r.key, r.time, r.seq, r.flags);
  }
  return c.done();
}

/** The place of hash `h` in the session `held` describes; -1 when it held none. */
export function heldPlace(held: HeldKeys, h: number): number {
  let lo = 0, hi = held.sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (held.sorted[mid] === h) return held.places[mid];
    if (held.sorted[mid] < h) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
