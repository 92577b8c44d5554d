import { assert, assertEquals } from "../../tests/_assert.ts";
import { INSTRUCTIONS, MODES, NEEDS, TOOL } from "./tool.ts";

const bytes = (s: string) => new TextEncoder().encode(s).length;

Deno.test("the tool entry stays within 1400 bytes, sent with every request", () => {
  const n = bytes(JSON.stringify(TOOL));
  assert(n <= 1400, `the tools/list entry is ${n} bytes`);
  assert(bytes(INSTRUCTIONS) <= 1024, `the instructions are ${bytes(INSTRUCTIONS)} bytes`);
});

Deno.test("the tool schema and description name every mode and the argument it needs", () => {
  assertEquals([...TOOL.inputSchema.properties.mode.enum], [...MODES]);
  const props = TOOL.inputSchema.properties as Record<string, unknown>;
  for (const m of MODES) {
    const field = NEEDS[m].field;
    assert(field in props, `${m}: ${field} is in the schema`);
    assert(TOOL.description.includes(`${m} + ${field}`), `${m} + ${field} in the description`);
  }
  assertEquals([...TOOL.inputSchema.required], ["mode"]);
});

Deno.test("every property has one JSON type, no union (Gemini refuses a tool declaring one)", () => {
  const props = TOOL.inputSchema.properties as Record<string, { type: unknown; items?: unknown }>;
  for (const [k, v] of Object.entries(props)) {
    assertEquals(typeof v.type, "string", k);
    assertEquals(v.items, undefined, k);
  }
  assert(TOOL.inputSchema.properties.harness.description.includes("comma-separated"));
  assert(TOOL.inputSchema.properties.tags.description.includes("comma-separated"));
});
