import { assert, assertEquals, assertRejects, assertThrows } from "../tests/_assert.ts";
import { execFileSync } from "node:child_process";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NotRegularFileError, readBytes, readBytesSync, readHeadSync } from "./fsread.ts";
import { openStore, StoreError } from "./sqlite_read.ts";
import { readJsonDocument } from "../parsers/_json_doc.ts";
import { readJsonl } from "../parsers/_jsonl.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { makeEnv } from "./runtime.ts";
import { tempDir } from "../tests/_tmp.ts";

function specials(): { dir: string; fifo: string; zero: string; file: string } {
  const dir = tempDir("deja-fsread-");
  execFileSync("mkfifo", [join(dir, "fifo")]);
  symlinkSync("/dev/zero", join(dir, "zero"));
  writeFileSync(join(dir, "file"), "0123456789");
  return { dir, fifo: join(dir, "fifo"), zero: join(dir, "zero"), file: join(dir, "file") };
}

const unix = Deno.build.os !== "windows";

Deno.test({
  name: "readBytes refuses a FIFO and a link to /dev/zero at once, without blocking or reading",
  ignore: !unix,
  async fn() {
    const s = specials();
    try {
      const e1 = await assertRejects(() => readBytes(s.fifo, 1 << 20), NotRegularFileError);
      assertEquals(e1.message, `${s.fifo} is a FIFO, not a regular file`);
      const e2 = assertThrows(() => readBytesSync(s.zero, 1 << 20), NotRegularFileError);
      assertEquals(e2.message, `${s.zero} is a character device, not a regular file`);
      assertThrows(() => readHeadSync(s.fifo, 20), NotRegularFileError);
    } finally {
      rmSync(s.dir, { recursive: true, force: true });
    }
  },
});

Deno.test("readBytes caps by the bytes it read and follows links to regular files", async () => {
  const s = specials();
  try {
    symlinkSync(s.file, join(s.dir, "link"));
    assertEquals(new TextDecoder().decode(await readBytes(join(s.dir, "link"), 10)), "0123456789");
    const e = await assertRejects(() => readBytes(s.file, 9));
    assertEquals((e as { code?: string }).code, "EFBIG");
    assertEquals(readBytesSync(s.file, 100).length, 10);
  } finally {
    rmSync(s.dir, { recursive: true, force: true });
  }
});

Deno.test({
  name: "a parser meeting a FIFO or a device counts it unreadable, saying what it is",
  ignore: !unix,
  async fn() {
    const s = specials();
    const env = makeEnv({ HOME: s.dir });
    try {
      for (const [path, kind] of [[s.fifo, "FIFO"], [s.zero, "character device"]]) {
        const ctx = new SourceCtx(env, 0, undefined, 0);
        assertEquals(await readJsonDocument(path, path, ctx), undefined);
        assertEquals(ctx.counts, { unreadable: 1 });
        assert(ctx.examples.some((x) => x.includes(`is a ${kind}, not a regular file`)));
        const lines = readJsonl(path, new SourceCtx(env, 0, undefined, 0));
        assertThrows(() => lines.next(), NotRegularFileError); // a plain generator: thrown at once
        const err = assertThrows(() => openStore(path, env), StoreError) as StoreError;
        assertEquals(err.reason, "unreadable");
        assertEquals(err.message, `${path} is a ${kind}, not a regular file`);
      }
    } finally {
      rmSync(s.dir, { recursive: true, force: true });
    }
  },
});
