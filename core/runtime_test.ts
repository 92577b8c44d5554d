import { assertEquals } from "../tests/_assert.ts";
import { BATCH_VARS, batchVars } from "./runtime.ts";

Deno.test("batchVars adds the JSC tier setting to an environment without it", () => {
  assertEquals(batchVars({ HOME: "/h", UNSET: undefined }), {
    HOME: "/h",
    BUN_JSC_useFTLJIT: "0",
  });
});

Deno.test("batchVars keeps a setting the caller chose", () => {
  assertEquals(batchVars({ HOME: "/h", BUN_JSC_useFTLJIT: "1" }), undefined);
});

Deno.test("batchVars asks for no relaunch when every setting is there (the relaunched process)", () => {
  assertEquals(batchVars({ HOME: "/h", ...BATCH_VARS }), undefined);
});
