import { assertEquals } from "../../tests/_assert.ts";
import type { Handlers } from "./protocol.ts";
import { serve } from "./server.ts";

const enc = new TextEncoder();

const echo: Handlers = {
  info: { name: "deja", version: "0" },
  instructions: "",
  tools: [{ name: "deja" }],
  call: (_n, args) => Promise.resolve({ content: [{ type: "text", text: String(args.q) }] }),
  log: () => {},
};

async function* chunks(parts: Array<string | Uint8Array>) {
  for (const p of parts) yield typeof p === "string" ? enc.encode(p) : p;
}

async function run(parts: Array<string | Uint8Array>, maxLine?: number) {
  const out: string[] = [];
  await serve(chunks(parts), (l) => out.push(l), echo, maxLine);
  return out.map((l) => {
    if (!l.endsWith("\n") || l.slice(0, -1).includes("\n")) throw new Error(`not one line: ${l}`);
    return JSON.parse(l);
  });
}

const call = (id: number, q: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "deja", arguments: { q } },
  });

Deno.test("serve joins a message split across reads, a multi-byte character included", async () => {
  const line = enc.encode(call(1, "café ☕") + "\r\n");
  const cut = line.indexOf(0xe2) + 1; // inside the three bytes of ☕
  const out = await run([line.subarray(0, 10), line.subarray(10, cut), line.subarray(cut)]);
  assertEquals(out.map((r) => r.result.content[0].text), ["café ☕"]);
});

Deno.test("serve answers several messages of one read in order", async () => {
  const out = await run([`${call(1, "a")}\n\n${call(2, "b")}\n${call(3, "c")}\n`]);
  assertEquals(out.map((r) => [r.id, r.result.content[0].text]), [[1, "a"], [2, "b"], [3, "c"]]);
});

Deno.test("serve skips an overlong line with a parse error and keeps serving", async () => {
  const out = await run(["x".repeat(300), "y".repeat(300) + "\n" + call(2, "after") + "\n"], 500);
  assertEquals(out[0].error.code, -32700);
  assertEquals(out[1].result.content[0].text, "after");
  assertEquals(out.length, 2);
});

Deno.test("serve answers an unterminated last line when the input ends, then returns", async () => {
  const out = await run([call(1, "a") + "\n" + call(2, "tail")]);
  assertEquals(out.map((r) => r.id), [1, 2]);
  assertEquals(await run([]), []);
});

Deno.test("serve answers a bad line with a parse error and the next one normally", async () => {
  const out = await run(["garbage\n" + call(5, "ok") + "\n"]);
  assertEquals([out[0].error.code, out[1].id], [-32700, 5]);
});
