import { assertEquals } from "../tests/_assert.ts";
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "../tests/_tmp.ts";
import process from "node:process";
import { isTerminal, writeAll, writeLost } from "./stdio.ts";
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

Deno.test({
  name: "a write that fails for another reason than a reader gone is kept for the exit status",
  ignore: !existsSync("/dev/full"),
  fn: () => {
    // Trial 59: `deja last --json > /dev/full` exited 0 with nothing written.
    const fd = openSync("/dev/full", "w");
    try {
      writeAll(fd, "some output\n");
      assertEquals(writeLost(fd), "ENOSPC");
    } finally {
      closeSync(fd);
    }
    // A process whose output could not be written exits 1 and says so; one that wrote it, 0.
    const dir = tempDir("deja-stdio-full-");
    const script = join(dir, "probe.ts");
    const here = new URL(".", import.meta.url).pathname;
    writeFileSync(
      script,
      `import { exit, processIO } from "${here}runtime.ts";
       processIO().out("the whole answer\\n");
       exit(0);`,
    );
    const full = openSync("/dev/full", "w");
    try {
      const r = spawnSync(
        ...exactly([process.execPath, "run", "-A", script], hermeticEnv(dir)),
        { encoding: "utf8", stdio: ["ignore", full, "pipe"] },
      );
      assertEquals([r.status, r.stderr], [
        1,
        "deja: the output could not be written whole (ENOSPC)\n",
      ]);
    } finally {
      closeSync(full);
    }
    const ok = spawnSync(
      ...exactly([process.execPath, "run", "-A", script], hermeticEnv(dir)),
      { encoding: "utf8" },
    );
    assertEquals([ok.status, ok.stdout], [0, "the whole answer\n"]);
  },
});
