import { assertEquals } from "../../tests/_assert.ts";
import { makeEnv } from "../../core/runtime.ts";
import { waitingAtMost } from "./freshen.ts";

// Trial 91 F7: a refresh on use waited the 3 s of a plain run on a locked harness store, in a
// hook whose budget is 500 ms.
Deno.test("a refresh on use waits on a locked harness store no longer than its budget", () => {
  const env = makeEnv({ HOME: "/nonexistent-home", DEJA_HOME: "/nonexistent-deja" });
  const capped = waitingAtMost(env, 500);
  assertEquals(capped.get("DEJA_SQLITE_TIMEOUT_MS"), "500");
  assertEquals(capped.vars?.().DEJA_SQLITE_TIMEOUT_MS, "500");
  assertEquals(capped.get("DEJA_HOME"), "/nonexistent-deja");
  // A shorter wait the person set stays.
  const own = makeEnv({ HOME: "/nonexistent-home", DEJA_SQLITE_TIMEOUT_MS: "100" });
  assertEquals(waitingAtMost(own, 1500).get("DEJA_SQLITE_TIMEOUT_MS"), "100");
});
