/**
 * Seeded mutations of a store's bytes for the fuzz suite (tests/fuzz_test.ts,
 * `deno task fuzz`): each returns the damaged bytes and the byte span of the
 * original it damaged, so the records outside that span are known intact.
 */

/** The seeded PRNG the bench corpora use (mulberry32): the same seed gives the same stores. */
export { rng } from "../bench/gen_claude.ts";

/** A mutation's result: the new bytes and the damaged span `[from, to)` of the original. */
export interface Mutated {
  bytes: Uint8Array;
  from: number;
  to: number;
}

/** The mutations every text format gets. */
export const TEXT_MUTATIONS = [
  "truncate",
  "flip",
  "invalid_utf8",
  "nul",
  "duplicate_line",
  "swap_lines",
  "long_line",
] as const;
/** The mutations a SQLite store gets. */
export const SQLITE_MUTATIONS = ["damage_page", "truncate"] as const;
/** The mutations a compressed store gets. */
export const ZSTD_MUTATIONS = ["truncate", "flip"] as const;

export type Mutation =
  | typeof TEXT_MUTATIONS[number]
  | typeof SQLITE_MUTATIONS[number]
  | typeof ZSTD_MUTATIONS[number];

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Line starts of `b` (offsets just after each `\n`, plus 0). */
function lineStarts(b: Uint8Array): number[] {
  const out = [0];
  for (let i = 0; i < b.length - 1; i++) if (b[i] === 10) out.push(i + 1);
  return out;
}

/**
 * Applies `m` to `b` at a place chosen by `rand`, never before `minAt` (a
 * store's first bytes: a SQLite header page, a chat's opening).
 */
export function mutate(b: Uint8Array, m: Mutation, rand: () => number, minAt = 0): Mutated {
  const pick = (lo: number, hi: number) => lo + Math.floor(rand() * Math.max(1, hi - lo));
  const at = pick(minAt, b.length);
  switch (m) {
    case "truncate":
      return { bytes: b.slice(0, at), from: at, to: b.length };
    case "flip": {
      const out = b.slice();
      out[at] ^= 1 << Math.floor(rand() * 8);
      return { bytes: out, from: at, to: at + 1 };
    }
    case "invalid_utf8":
      return {
        bytes: concat(b.slice(0, at), new Uint8Array([0xff, 0xfe]), b.slice(at)),
        from: at,
        to: at,
      };
    case "nul":
      return { bytes: concat(b.slice(0, at), new Uint8Array(4), b.slice(at)), from: at, to: at };
    case "damage_page": {
      const out = b.slice();
      const page = 4096 * pick(1, Math.floor(b.length / 4096));
      const off = page + pick(0, 4000);
      for (let i = 0; i < 64 && off + i < out.length; i++) out[off + i] = Math.floor(rand() * 256);
      return { bytes: out, from: off, to: off + 64 };
    }
    default: {
      const starts = lineStarts(b).filter((s) => s >= minAt);
      if (starts.length < 3) return { bytes: b, from: b.length, to: b.length };
      const k = pick(0, starts.length - 2);
      const [s, e] = [starts[k], starts[k + 1]];
      if (m === "duplicate_line") {
        return { bytes: concat(b.slice(0, e), b.slice(s, e), b.slice(e)), from: s, to: e };
      }
      if (m === "long_line") {
        const line = new TextEncoder().encode("x".repeat(2 << 20) + "\n");
        return { bytes: concat(b.slice(0, s), line, b.slice(s)), from: s, to: s };
      }
      const f = starts[k + 2] ?? b.length; // swap_lines: line k and line k+1
      return {
        bytes: concat(b.slice(0, s), b.slice(e, f), b.slice(s, e), b.slice(f)),
        from: s,
        to: f,
      };
    }
  }
}
