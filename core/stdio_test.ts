import { assertEquals } from "../tests/_assert.ts";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "../tests/_tmp.ts";
import process from "node:process";
import { isTerminal, writeAll } from "./stdio.ts";
import { exactly, hermeticEnv } from "../tests/_env.ts";

Deno.test("writeAll writes every byte of a large text to a descriptor", () => {
  const dir = tempDir("deja-stdio-");
  try {
    const file = join(dir, "out");
    const fd = openSync(file, "w");
    const text = "é-line\n".repeat(200_000);
    writeAll(fd, text);
    closeSync(fd);
    assertEquals(readFileSync(file, "utf8"), text);
  } finally {
    // tempDir removes it when the module ends
  }
});

Deno.test("writeAll ends quietly when the descriptor cannot be written", () => {
  const dir = tempDir("deja-stdio-");
  try {
    const fd = openSync(join(dir, "ro"), "w");
    closeSync(fd);
    writeAll(fd, "nobody reads this\n"); // EBADF: no throw
  } finally {
    // tempDir removes it when the module ends
  }
});

Deno.test("isTerminal is false for a pipe and a file, and processIO writes through them", () => {
  const dir = tempDir("deja-stdio-");
  try {
    const script = join(dir, "probe.ts");
    const here = new URL(".", import.meta.url).pathname;
    writeFileSync(
      script,
      `import { processIO } from "${here}runtime.ts";
       import { isTerminal } from "${here}stdio.ts";
       const io = processIO();
       io.out(JSON.stringify([isTerminal(1), isTerminal(2), io.isTTY, io.errTTY]) + "\\n");
       io.err("to stderr\\n");`,
    );
    const r = spawnSync(
      ...exactly([process.execPath, "run", "-A", script], hermeticEnv(dir)),
      { encoding: "utf8" },
    );
    assertEquals(r.stdout, "[false,false,false,false]\n");
    assertEquals(r.stderr, "to stderr\n");
    assertEquals(typeof isTerminal(1), "boolean");
  } finally {
    // tempDir removes it when the module ends
  }
});
