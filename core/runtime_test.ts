import { assertEquals } from "../tests/_assert.ts";
import { BATCH_VARS, batchVars } from "./runtime.ts";

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
