/**
 * How a prepared chunk (lib/prepare.ts) crosses from a parse worker to the
 * writer (lib/parse_worker.ts, lib/parse_run.ts): as two strings, a string
 * crossing a thread for the cost of a copy. `body` is every string of the
 * events, one after the other; `head` is JSON text of the session's fields,
 * one flat array of numbers per chunk (each event's time, flags and the
 * lengths of its strings in `body`) and the results' statuses. The writer
 * cuts the strings out of `body` (slices, not parses) and parses only the
 * small head.
 *
 * Kind, tool, file op and model names go once per chunk in the head's list of names.
 *
 * Measured (issue 18, 100 MB bench corpus, 266 chunks, 46 MB as JSON text;
 * Bun, min of 5-7 on a loaded 2-core machine): as JSON text, 100-135 ms of
 * JSON.stringify on the workers and 130-195 ms of JSON.parse on the writer's
 * thread; structured clones of the objects 340-420 ms; this form 100-145 ms to
 * encode (2.8 MB of head, 38.5 MB of body) and 45-80 ms to decode. Only the
 * events' texts out of band (the rest JSON) decoded in ~90 ms. Compiled binary,
 * full index, 6 runs alternated with the JSON form at load 12-15: the writer's
 * thread 1.51-2.12 s (median 1.98) against 2.07-2.28 (2.09), the workers the
 * same, peak RSS 117-121 MB against 119-122.
 *
 * @module
 */
import type { PreparedChunk, PreparedEvent, PreparedFile } from "./prepare.ts";

/** A prepared chunk on the wire. */
export interface WireChunk {
  head: string;
  body: string;
}

/** A wire chunk's characters (what the pool's credits and collections count). */
export function wireBytes(w: WireChunk): number {
  return w.head.length + w.body.length;
}

/** A string's length in the body; -1: null, -2: absent. */
const NULL = -1;
const ABSENT = -2;

/** `c` on the wire. */
export function encodeChunk(c: PreparedChunk): WireChunk {
  const { events, tokens, ...session } = c;
  const parts: string[] = [];
  const nums: (number | null)[] = [];
  const results: PreparedEvent["result"][] = [];
  const names: string[] = [];
  const index = new Map<string, number>();
  /** A repeated name (kind, tool, op) as its place in the chunk's list of names. */
  const name = (s: string | null) => {
    if (s === null) return nums.push(NULL);
    let n = index.get(s);
    if (n === undefined) index.set(s, n = names.push(s) - 1);
    nums.push(n);
  };
  const put = (s: string | null | undefined) => {
    if (s === null) return nums.push(NULL);
    if (s === undefined) return nums.push(ABSENT);
    parts.push(s);
    nums.push(s.length);
  };
  for (const e of events) {
    nums.push(e.time, e.flags);
    name(e.kind);
    put(e.text);
    put(e.key);
    put(e.longKey);
    name(e.tool);
    put(e.callId);
    put(e.data);
    put(e.command);
    if (e.files) {
      nums.push(e.files.length);
      for (const f of e.files) {
        put(f.path);
        name(f.op);
        put(f.old);
        put(f.new);
      }
    } else nums.push(ABSENT);
    if (e.result) results.push(e.result);
    nums.push(e.result ? 1 : 0);
    name(e.model ?? null);
  }
  parts.push(tokens.join(" "));
  return {
    head: JSON.stringify([session, events.length, nums, results, names]),
    body: parts.join(""),
  };
}

/** The chunk {@link encodeChunk} put on the wire. */
export function decodeChunk(w: WireChunk): PreparedChunk {
  const [session, count, nums, results, names] = JSON.parse(w.head) as [
    Omit<PreparedChunk, "events" | "tokens">,
    number,
    (number | null)[],
    NonNullable<PreparedEvent["result"]>[],
    string[],
  ];
  const body = w.body;
  let at = 0;
  let i = 0;
  let r = 0;
  const take = (): string | null | undefined => {
    const n = nums[i++] as number;
    if (n < 0) return n === NULL ? null : undefined;
    return body.slice(at, at += n);
  };
  const named = (): string | null => {
    const n = nums[i++] as number;
    return n < 0 ? null : names[n];
  };
  const events: PreparedEvent[] = new Array(count);
  for (let k = 0; k < count; k++) {
    const time = nums[i++];
    const flags = nums[i++] as number;
    const e: PreparedEvent = {
      kind: named() as PreparedEvent["kind"],
      text: take() as string,
      time,
      key: take() as string | null,
      tool: null,
      callId: null,
      data: null,
      flags,
    };
    const longKey = take();
    if (longKey !== undefined) e.longKey = longKey as string;
    e.tool = named();
    e.callId = take() as string | null;
    e.data = take() as string | null;
    const command = take();
    if (command !== undefined) e.command = command as string;
    const files = nums[i++] as number;
    if (files >= 0) {
      const list: PreparedFile[] = new Array(files);
      for (let f = 0; f < files; f++) {
        list[f] = {
          path: take() as string,
          op: named() as PreparedFile["op"],
          old: take() as string | null,
          new: take() as string | null,
        };
      }
      e.files = list;
    }
    if (nums[i++] === 1) e.result = results[r++];
    const model = named();
    if (model !== null) e.model = model;
    events[k] = e;
  }
  const words = body.slice(at);
  return { ...session, events, tokens: words ? words.split(" ") : [] } as PreparedChunk;
}
