import { assert, assertEquals } from "../../tests/_assert.ts";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testEnv } from "../../tests/_fixture.ts";
import { claudeLine } from "../../tests/_memory.ts";
import { removeTemp, tempDir } from "../../tests/_tmp.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import { MAX_SKIPPED_AT, sourcesData, sourcesText } from "./cmd_sources.ts";

const claude = parsers.filter((p) => p.id === "claude");
const enc = new TextEncoder();

/** A user line (even numbers are user lines in claudeLine). */
const rec = (sid: string, i: number, text: string) => claudeLine(2 * i, text, sid);

Deno.test("sources names where records were skipped or repaired, and keeps them on the next index", async () => {
  const dir = tempDir("deja-skipsat-");
  try {
    const proj = join(dir, "projects", "-w-app");
    mkdirSync(proj, { recursive: true });
    const env = testEnv(join(dir, "home"), {
      DEJA_HOME: join(dir, "deja"),
      DEJA_CLAUDE_ROOT: join(dir, "projects"),
      DEJA_NO_REFRESH: "1",
    });
    const sid = "aaaaaaaa-0000-4000-8000-000000000001";
    const first = rec(sid, 1, "alpha");
    const [head, tail] = rec(sid, 3, "x MARK y").split("MARK");
    const path = join(proj, `${sid}.jsonl`);
    const badAt = enc.encode(first).length;
    const repairedAt = badAt + "{not json\n".length;
    writeFileSync(
      path,
      new Uint8Array([
        ...enc.encode(first + "{not json\n" + head),
        0xff,
        ...enc.encode(`zebra${tail}`),
      ]),
    );
    // Many bad stores: the harness lists a bounded number of places.
    for (let i = 0; i < 30; i++) {
      const id = `bbbbbbbb-0000-4000-8000-${String(i).padStart(12, "0")}`;
      // A record first: a file of nothing but a bad line is not JSONL at all (one not_jsonl).
      writeFileSync(join(proj, `${id}.jsonl`), rec(id, 1, "ok") + "{x\n");
    }
    await runIndex(env, claude);
    // Another store is added: the next run re-reads it, and the unchanged ones keep their places.
    writeFileSync(join(proj, "cccccccc-0000-4000-8000-000000000001.jsonl"), rec("c", 1, "new"));
    utimesSync(path, new Date(), new Date(Date.now() + 5000)); // touched, not changed
    await runIndex(env, claude);
    const d = await sourcesData(env);
    const h = d.harnesses.find((x) => x.harness === "claude")!;
    assertEquals(h.skipped_at.length, MAX_SKIPPED_AT);
    assert(h.skipped_at.includes(`malformed_json at ${path}@${badAt}`), h.skipped_at.join("\n"));
    assert(
      h.skipped_at.includes(
        `invalid_utf8 at ${path}@${repairedAt}: kept with replacement characters`,
      ),
      h.skipped_at.join("\n"),
    );
    const text = sourcesText(d, { isTTY: false, env }, true);
    assert(text.includes(`skipped malformed_json at ${path}@${badAt}\n`), text);
    assert(text.includes(`repaired invalid_utf8 at ${path}@${repairedAt}`), text);
    assert(/skipped: 31 malformed_json, repaired: 1 invalid_utf8/.test(text), text);
  } finally {
    removeTemp(dir);
  }
});
