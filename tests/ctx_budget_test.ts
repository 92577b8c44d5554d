/**
 * `deja ctx --budget` is the largest digest in bytes, counted as printed (new-user report,
 * 2026-12: `deja ctx <query> --budget 256` printed more than 256 bytes). The digest was measured
 * before the human writer neutralised frame-tag spellings in it (`<dejarecall` becomes
 * `(deja-recall)`), so the text printed outgrew the budget and differed from
 * the `--json` markdown; a cut also ended inside a word.
 */
import { assert, assertEquals } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { memIndex } from "./_search_fixture.ts";

const enc = new TextEncoder();
const bytes = (s: string) => enc.encode(s).length;

/** Words the long events are made of: multi-byte, and one a frame-tag spelling. */
const word = (i: number) => i % 5 === 4 ? "<dejarecall" : `wörd${i}日本`;
const words = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => word(from + i)).join(" ");

const SESSION = {
  id: "s-long",
  title: "Kafka lag",
  events: [
    ["user", `the kafka consumer lags behind ${words(0, 400)}`],
    ["assistant", `Therefore we decided to raise the batch size. ${words(400, 400)}`],
    ["user", `it still does not work ${words(800, 300)}`],
    ["assistant", `Fixed: the kafka lag is gone now. ${words(1100, 400)}`],
  ] as Array<["user" | "assistant", string]>,
};

/** Every word of the session (the neutralised spelling as printed). */
const WORDS = new Set(
  SESSION.events.flatMap(([, t]) => t.replaceAll("<dejarecall ", "(deja-recall)").split(/\s+/)),
);

Deno.test("ctx prints a digest within --budget bytes as printed, the same as its JSON markdown, cut after a word", async () => {
  const ix = await memIndex([SESSION]);
  try {
    for (const budget of [undefined, 256, 300, 1000]) {
      const args = ["ctx", "kafka", ...(budget ? ["--budget", String(budget)] : [])];
      const text = await runMain(ix.env, args);
      const json = await runMain(ix.env, [...args, "--json"]);
      assertEquals([text.code, json.code], [0, 0], text.err + json.err);
      const doc = JSON.parse(json.out);
      const limit = budget ?? 8192;
      assertEquals(doc.budget, limit);
      assert(bytes(text.out) <= limit, `${bytes(text.out)} bytes printed over ${limit}`);
      assertEquals(doc.markdown, text.out, `the JSON markdown is what is printed (${limit})`);
      assertEquals(doc.bytes, bytes(text.out));
      assert(doc.truncated, `a long session is cut at ${limit}`);
      assert(text.out.endsWith("\n"));
      // Every section the budget cut ends after a whole word, marked by "…": never on a part.
      for (const m of text.out.matchAll(/(\S+)…\n/g)) {
        const part = [...WORDS].find((w) => w !== m[1] && w.startsWith(m[1]));
        assertEquals(part, undefined, `cut inside a word: '${m[0]}'`);
      }
    }
  } finally {
    ix.cleanup();
  }
});
