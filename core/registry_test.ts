import { assertEquals } from "../tests/_assert.ts";
import { describeVerification, verification } from "./registry.ts";

Deno.test("verification reads version, method and date from registry.json when the entry has them", () => {
  const v = verification("claude");
  assertEquals(typeof v.version, "string");
  assertEquals(["farm", "real_store", "source", "notes"].includes(v.by ?? ""), true);
  assertEquals(/^\d{4}-\d{2}-\d{2}$/.test(v.date ?? ""), true);
  assertEquals(verification("no_such_harness"), { version: null, by: null, date: null });
});

Deno.test("the verification line names the version first when there is one, else the method", () => {
  assertEquals(
    describeVerification({ version: "2.1.332", by: "farm", date: "2026-11-29" }),
    "2.1.332 (farm run, 2026-11-29)",
  );
  assertEquals(
    describeVerification({ version: null, by: "source", date: "2026-11-29" }),
    "source reading, 2026-11-29",
  );
  assertEquals(describeVerification({ version: null, by: null, date: null }), "not recorded");
});
