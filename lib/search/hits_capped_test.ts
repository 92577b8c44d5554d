import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { memIndex } from "../../tests/_search_fixture.ts";
import { runMain } from "../../tests/_cli_io.ts";
import { search } from "../search.ts";

// Trial 32: "5000 hits" for 80,000 matching results, said as exact.
Deno.test("a session matching more events than a search reads says its count is a floor", async () => {
  const many: Array<["user" | "assistant", string]> = [];
  for (let i = 0; i < 5200; i++) many.push(["assistant", `checked the quillfeather cache ${i}`]);
  const idx = await memIndex([
    { id: "many-1", project: "/w/many", events: many },
    { id: "few-1", project: "/w/few", events: [["user", "the quillfeather cache is cold"]] },
  ]);
  try {
    const store = idx.open();
    try {
      const r = search(store, "quillfeather", {});
      const byId = new Map(r.results.map((x) => [x.id, x]));
      assert(byId.get("many-1")?.hitsCapped, JSON.stringify(byId.get("many-1")?.hits));
      const n = byId.get("many-1")?.hits ?? 0;
      assert(n > 4000 && n <= 5000, `${n}`);
    } finally {
      store.close();
    }
    const text = await runMain(idx.env, ["quillfeather", "--no-refresh"]);
    assertStringIncludes(text.out, "+ hits");
    const json = JSON.parse(
      (await runMain(idx.env, ["quillfeather", "--json", "--no-refresh"])).out,
    );
    const few = json.results.find((x: { id: string }) => x.id === "few-1");
    assertEquals(few?.hits_capped, true, "every session of a capped read counts a floor");
    const alone = JSON.parse((await runMain(idx.env, ["cold", "--json", "--no-refresh"])).out);
    assertEquals(alone.results[0].hits_capped, false);
  } finally {
    idx.cleanup();
  }
});
