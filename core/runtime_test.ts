import { assertEquals } from "../tests/_assert.ts";
import { BATCH_VARS, batchVars } from "./runtime.ts";

Deno.test("batchVars adds the JSC tier and mimalloc purge settings to an environment without them", () => {
  assertEquals(batchVars({ HOME: "/h", UNSET: undefined }), {
    HOME: "/h",
    BUN_JSC_useFTLJIT: "0",
    MIMALLOC_PURGE_DELAY: "-1",
  });
});

Deno.test("batchVars keeps a setting the caller chose and adds only the missing one", () => {
  assertEquals(batchVars({ HOME: "/h", MIMALLOC_PURGE_DELAY: "10" }), {
    HOME: "/h",
    MIMALLOC_PURGE_DELAY: "10",
    BUN_JSC_useFTLJIT: "0",
  });
});

Deno.test("batchVars asks for no relaunch when every setting is there (the relaunched process)", () => {
  assertEquals(batchVars({ HOME: "/h", ...BATCH_VARS }), undefined);
});
