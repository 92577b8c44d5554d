import { assert, assertEquals } from "../tests/_assert.ts";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../tests/_tmp.ts";
import { walChecksum, walDamage } from "./wal_check.ts";

const PAGE = 512;

/** A log of `frames` pages (the last a commit), salts `salts`, checksums as SQLite writes them. */
function wal(frames: number, big = false, salts: [number, number] = [0x1234, 0x5678]): Uint8Array {
  const out = new Uint8Array(32 + frames * (24 + PAGE));
  const v = new DataView(out.buffer);
  v.setUint32(0, big ? 0x377f0683 : 0x377f0682);
  v.setUint32(4, 3007000);
  v.setUint32(8, PAGE);
  v.setUint32(16, salts[0]);
  v.setUint32(20, salts[1]);
  let sum = walChecksum(out.subarray(0, 24), big, [0, 0]);
  v.setUint32(24, sum[0]);
  v.setUint32(28, sum[1]);
  for (let i = 0; i < frames; i++) {
    const at = 32 + i * (24 + PAGE);
    v.setUint32(at, i + 1);
    v.setUint32(at + 4, i === frames - 1 ? frames : 0);
    v.setUint32(at + 8, salts[0]);
    v.setUint32(at + 12, salts[1]);
    for (let j = 0; j < PAGE; j++) out[at + 24 + j] = (i * 31 + j) & 0xff;
    sum = walChecksum(out.subarray(at, at + 8), big, sum);
    sum = walChecksum(out.subarray(at + 24, at + 24 + PAGE), big, sum);
    v.setUint32(at + 16, sum[0]);
    v.setUint32(at + 20, sum[1]);
  }
  return out;
}

function write(bytes: Uint8Array): string {
  const p = join(tempDir(), "store.db-wal");
  writeFileSync(p, bytes);
  return p;
}

Deno.test("walDamage: a log absent, empty, or whole (either byte order) is not damaged", () => {
  assertEquals(walDamage(join(tempDir(), "none.db-wal")), null);
  assertEquals(walDamage(write(new Uint8Array(0))), null);
  assertEquals(walDamage(write(wal(5))), null);
  assertEquals(walDamage(write(wal(5, true))), null);
});

Deno.test("walDamage: a byte changed in one frame's page is damage, named by its frame", () => {
  const bytes = wal(5);
  bytes[32 + 2 * (24 + PAGE) + 24 + 100] ^= 0xff;
  assertEquals(walDamage(write(bytes)), "frame 3 of 5 fails its checksum");
  const big = wal(5, true);
  big[32 + 4 * (24 + PAGE) + 24] ^= 1;
  assertEquals(walDamage(write(big)), "frame 5 of 5 fails its checksum");
});

Deno.test("walDamage: a log cut inside a frame is damage; cut at a frame's end is not", () => {
  const bytes = wal(5);
  const half = bytes.subarray(0, 32 + 2 * (24 + PAGE) + 300);
  assert(walDamage(write(half))?.startsWith("its last frame is cut short"));
  assertEquals(walDamage(write(bytes.subarray(0, 32 + 3 * (24 + PAGE)))), null);
  assertEquals(walDamage(write(bytes.subarray(0, 20))), "its header is cut short");
});

Deno.test("walDamage: frames an earlier log left (other salts) after the last valid one end it cleanly", () => {
  const now = wal(2);
  const old = wal(5, false, [0x9999, 0x5678]);
  const bytes = old.slice();
  bytes.set(now, 0);
  assertEquals(walDamage(write(bytes)), null);
  // ... even when that earlier log's last frame is cut short.
  assertEquals(walDamage(write(bytes.subarray(0, bytes.length - 100))), null);
});

Deno.test("walDamage: a header that is not a log's, or fails its checksum, is damage", () => {
  const bytes = wal(3);
  bytes[0] = 0;
  assertEquals(walDamage(write(bytes)), "its header is not a write-ahead log's");
  const sum = wal(3);
  sum[16] ^= 1;
  assertEquals(walDamage(write(sum)), "its header fails its checksum");
});
