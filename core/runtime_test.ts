import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assert, assertEquals } from "../tests/_assert.ts";
import { tempDir } from "../tests/_tmp.ts";
import { BATCH_VARS, batchVars, readFd } from "./runtime.ts";

Deno.test("batchVars adds the JSC settings to an environment without them", () => {
  assertEquals(batchVars({ HOME: "/h", UNSET: undefined }), {
    HOME: "/h",
    BUN_JSC_useFTLJIT: "0",
    BUN_JSC_useWarmUpMarkedBlocks: "0",
  });
});

Deno.test("batchVars keeps a setting the caller chose and adds the others", () => {
  assertEquals(batchVars({ HOME: "/h", BUN_JSC_useFTLJIT: "1" }), {
    HOME: "/h",
    BUN_JSC_useFTLJIT: "1",
    BUN_JSC_useWarmUpMarkedBlocks: "0",
  });
});

Deno.test("batchVars asks for no relaunch when the caller set every setting", () => {
  assertEquals(
    batchVars({ HOME: "/h", BUN_JSC_useFTLJIT: "1", BUN_JSC_useWarmUpMarkedBlocks: "1" }),
    undefined,
  );
});

Deno.test("batchVars asks for no relaunch when every setting is there (the relaunched process)", () => {
  assertEquals(batchVars({ HOME: "/h", ...BATCH_VARS }), undefined);
});

Deno.test("readFd gives done each piece read once, never the text so far, and stops when done", async () => {
  // Trial 109 F7: done given the text so far made each read copy it whole; a 14 MB event
  // at load ~10 was cut by the wait after 5-7 MB.
  const file = join(tempDir("deja-readfd-"), "event.json");
  const event = JSON.stringify({ prompt: "é".repeat(300_000) + '\\"}' });
  writeFileSync(file, event + "\n" + "x".repeat(200_000));
  const fd = openSync(file, "r");
  const pieces: string[] = [];
  try {
    const text = await readFd(fd, 16 * 1024 * 1024, 60_000, (piece) => {
      pieces.push(piece);
      return pieces.join("").includes("}\nx");
    });
    assert(pieces.length > 2, `${pieces.length} pieces`);
    assertEquals(pieces.join(""), text);
    assert(text.startsWith(event), "the event whole");
    assert(text.length < event.length + 200_000, "reading stopped at the end of the event");
  } finally {
    closeSync(fd);
  }
});
