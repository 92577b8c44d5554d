import { assert } from "./_assert.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generate } from "./embed_fixtures.ts";
import { REPO } from "./_fixture.ts";

Deno.test("the fixtures embedded for deja demo match fixtures/registry", () => {
  const current = readFileSync(join(REPO, "lib/demo_data.gen.ts"), "utf8");
  assert(current === generate(), "lib/demo_data.gen.ts is stale: run 'deno task embed'");
});
