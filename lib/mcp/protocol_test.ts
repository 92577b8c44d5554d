import { assert, assertEquals } from "../../tests/_assert.ts";
import { handleLine, type Handlers, negotiate, PROTOCOL_VERSIONS, type Reply } from "./protocol.ts";

function handlers(log: string[] = []): Handlers {
  return {
    info: { name: "deja", version: "9.9.9" },
    instructions: "call it",
    tools: [{ name: "deja" }],
    call: (name, args) => {
      if (args.boom) throw new Error("kaboom");
      return Promise.resolve({
        content: [{ type: "text", text: `${name}:${JSON.stringify(args)}` }],
      });
    },
    log: (t) => log.push(t),
  };
}

const rpc = (o: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", ...o });
const code = (r: Reply | null) => (r && "error" in r ? r.error.code : null);

Deno.test("negotiate answers the client's revision when spoken, else the newest", () => {
  assertEquals(negotiate("2024-11-05"), "2024-11-05");
  assertEquals(negotiate("2025-06-18"), "2025-06-18");
  assertEquals(negotiate("2031-01-01"), PROTOCOL_VERSIONS[0]);
  assertEquals(negotiate(undefined), PROTOCOL_VERSIONS[0]);
});

Deno.test("initialize returns the revision, tools capability, server info and instructions", async () => {
  const r = await handleLine(
    rpc({ id: 1, method: "initialize", params: { protocolVersion: "2025-03-26" } }),
    handlers(),
  );
  assertEquals(r, {
    jsonrpc: "2.0",
    id: 1,
    result: {
      protocolVersion: "2025-03-26",
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: "deja", version: "9.9.9" },
      instructions: "call it",
    },
  });
});

Deno.test("handleLine answers a parse error with a null id when the line is not JSON", async () => {
  const r = await handleLine('{"jsonrpc":"2.0","id":7,', handlers());
  assertEquals(code(r), -32700);
  assert(r && "id" in r && r.id === null, "id null: it cannot be read (JSON-RPC 2.0)");
  assertEquals(await handleLine("   ", handlers()), null, "a blank line is no message");
});

Deno.test("handleLine rejects batches, non-objects, a wrong jsonrpc and a null id with -32600", async () => {
  const h = handlers();
  assertEquals(code(await handleLine("[]", h)), -32600);
  assertEquals(code(await handleLine("42", h)), -32600);
  const wrong = await handleLine(JSON.stringify({ jsonrpc: "1.0", id: 3, method: "ping" }), h);
  assertEquals([code(wrong), wrong && "id" in wrong ? wrong.id : null], [-32600, 3]);
  const nul = await handleLine(rpc({ id: null, method: "ping" }), h);
  assertEquals([code(nul), nul && "id" in nul ? nul.id : "missing"], [-32600, null]);
  const batch = await handleLine("[]", h);
  assertEquals(batch && "id" in batch ? batch.id : "missing", null);
  assertEquals(code(await handleLine(rpc({ id: 4 }), h)), -32600);
});

Deno.test("handleLine stays silent for notifications and for responses sent to it", async () => {
  const h = handlers();
  assertEquals(await handleLine(rpc({ method: "notifications/initialized" }), h), null);
  assertEquals(await handleLine(rpc({ method: "notifications/cancelled", params: {} }), h), null);
  assertEquals(await handleLine(rpc({ method: "no/such/notification" }), h), null);
  assertEquals(await handleLine(rpc({ id: 5, result: {} }), h), null);
});

Deno.test("handleLine answers ping, lists the tools and calls one", async () => {
  const h = handlers();
  assertEquals(await handleLine(rpc({ id: "p", method: "ping" }), h), {
    jsonrpc: "2.0",
    id: "p",
    result: {},
  });
  const list = await handleLine(rpc({ id: 2, method: "tools/list", params: {} }), h);
  assertEquals(list && "result" in list ? list.result : null, { tools: [{ name: "deja" }] });
  const call = await handleLine(
    rpc({ id: 3, method: "tools/call", params: { name: "deja", arguments: { mode: "how" } } }),
    h,
  );
  assertEquals(call && "result" in call ? call.result : null, {
    content: [{ type: "text", text: 'deja:{"mode":"how"}' }],
  });
});

Deno.test("handleLine maps unknown methods, unknown tools and bad params to JSON-RPC errors", async () => {
  const h = handlers();
  assertEquals(code(await handleLine(rpc({ id: 1, method: "resources/list" }), h)), -32601);
  assertEquals(
    code(await handleLine(rpc({ id: 1, method: "tools/list", params: [1] }), h)),
    -32602,
  );
  const call = (params: unknown) => handleLine(rpc({ id: 1, method: "tools/call", params }), h);
  assertEquals(code(await call({ name: "other" })), -32602);
  assertEquals(code(await call({})), -32602);
  assertEquals(code(await call({ name: "deja", arguments: "recall" })), -32602);
});

Deno.test("handleLine reports a failing handler as -32603 and logs it", async () => {
  const log: string[] = [];
  const r = await handleLine(
    rpc({ id: 9, method: "tools/call", params: { name: "deja", arguments: { boom: 1 } } }),
    handlers(log),
  );
  assertEquals(code(r), -32603);
  assert(log.join("").includes("kaboom"), log.join(""));
});
