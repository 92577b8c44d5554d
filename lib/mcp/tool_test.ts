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

Deno.test("the schema declares what tags and harness accept: a list or one 'a,b' string", () => {
  const props = TOOL.inputSchema.properties;
  for (const k of ["tags", "harness"] as const) {
    assertEquals([...props[k].type].sort(), ["array", "string"], k);
    assertEquals(props[k].items.type, "string", k);
  }
});
