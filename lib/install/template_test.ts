import { assertEquals, assertThrows } from "../../tests/_assert.ts";
import { makeEnv } from "../../core/runtime.ts";
import { expandPath, expandVars, TemplateError, templateVars } from "./template.ts";

const env = (vars: Record<string, string>) => makeEnv(vars, "/home/u");
const CRUSH = "${CRUSH_GLOBAL_CONFIG:-${XDG_CONFIG_HOME:-~/.config}/crush}/crush.json";

Deno.test("expandPath takes the first set variable of a nested template", () => {
  assertEquals(expandPath(env({}), CRUSH), "/home/u/.config/crush/crush.json");
  assertEquals(expandPath(env({ XDG_CONFIG_HOME: "/x" }), CRUSH), "/x/crush/crush.json");
  assertEquals(
    expandPath(env({ XDG_CONFIG_HOME: "/x", CRUSH_GLOBAL_CONFIG: "/c" }), CRUSH),
    "/c/crush.json",
  );
});

Deno.test("expandPath treats an empty variable as unset and expands a ~ inside a value", () => {
  assertEquals(
    expandPath(env({ CLAUDE_CONFIG_DIR: "" }), "${CLAUDE_CONFIG_DIR:-~}/.claude.json"),
    "/home/u/.claude.json",
  );
  assertEquals(
    expandPath(env({ CLAUDE_CONFIG_DIR: "~/cc" }), "${CLAUDE_CONFIG_DIR:-~}/.claude.json"),
    "/home/u/cc/.claude.json",
  );
});

Deno.test("expandVars expands a variable without default to nothing and refuses an unclosed one", () => {
  assertEquals(expandVars(env({}), "a${NOPE}b"), "ab");
  assertThrows(() => expandVars(env({}), "${A:-x"), TemplateError);
  assertThrows(() => expandVars(env({}), "${1bad}"), TemplateError);
  assertEquals(templateVars(CRUSH), ["CRUSH_GLOBAL_CONFIG", "XDG_CONFIG_HOME"]);
});
