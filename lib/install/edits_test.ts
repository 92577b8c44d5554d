import { assert, assertEquals, assertThrows } from "../../tests/_assert.ts";
import {
  commandProgram,
  dejaSubcommand,
  findHooks,
  hookByDeja,
  hookCommand,
  removeHooks,
  removeMcp,
  setHooks,
  setMcp,
  ShapeError,
  writtenByDeja,
} from "./edits.ts";
import type { HookSpec } from "./facts.ts";
import { setListHooks } from "./list_hooks.ts";

const L = "/d/bin/deja-launcher";
const crushSpec: HookSpec[] = [{
  event: "PreToolUse",
  matcher: "^(bash|edit|write|multiedit)$",
  args: ["hook-tool", "--crush"],
  timeout: 10,
}];
const claudeSpecs: HookSpec[] = [
  { event: "SessionStart", args: ["hook-context"], timeout: 10 },
  { event: "PreToolUse", matcher: "Bash|Edit|Write|MultiEdit", args: ["hook-tool"], timeout: 10 },
  { event: "PostToolUse", matcher: "Bash", args: ["hook-tool-after"], timeout: 10 },
];

Deno.test("dejaSubcommand tells hook-tool from hook-tool-after and ignores other programs", () => {
  assertEquals(dejaSubcommand("/x/deja-launcher hook-tool --crush"), "hook-tool");
  assertEquals(dejaSubcommand("'/a b/deja-launcher' hook-tool-after"), "hook-tool-after");
  assertEquals(dejaSubcommand("/usr/local/bin/deja hook-context"), "hook-context");
  // Inside a shell's quoted command (trial 60: not read, so deja's hook ran beside it).
  assertEquals(dejaSubcommand("bash -c 'deja hook-tool-after'"), "hook-tool-after");
  assertEquals(dejaSubcommand(`sh -c "deja hook-prompt; true"`), "hook-prompt");
  assertEquals(dejaSubcommand("deja hook-toolbox"), "hook-toolbox");
  assertEquals(dejaSubcommand("./mine.sh hook-tool"), undefined);
  assertEquals(dejaSubcommand("notdeja hook-tool"), undefined);
  assertEquals(dejaSubcommand(42), undefined);
});

Deno.test("commandProgram unquotes the first word of a shell command", () => {
  assertEquals(
    commandProgram("'/a b/it'\\''s/deja-launcher' hook-tool"),
    "/a b/it's/deja-launcher",
  );
  assertEquals(commandProgram("/x/deja hook-tool"), "/x/deja");
  assertEquals(commandProgram(`"/q q/deja" mcp`), "/q q/deja");
});

Deno.test("setHooks flat adds one entry beside the user's and is a no-op the second time", () => {
  const o: Record<string, unknown> = {
    hooks: { PreToolUse: [{ matcher: "^bash$", command: "./mine.sh" }] },
    other: 1,
  };
  setHooks(o, crushSpec, L, "flat");
  const once = JSON.stringify(o);
  setHooks(o, crushSpec, L, "flat");
  assertEquals(JSON.stringify(o), once);
  assertEquals(o.hooks, {
    PreToolUse: [
      { matcher: "^bash$", command: "./mine.sh" },
      { matcher: "^(bash|edit|write|multiedit)$", command: `${L} hook-tool --crush`, timeout: 10 },
    ],
  });
  assertEquals(o.other, 1);
});

Deno.test("setHooks replaces a deja entry written for an old path in place, keeping extra fields", () => {
  const o: Record<string, unknown> = {
    hooks: {
      PreToolUse: [
        { matcher: "x", command: "/old/deja-launcher hook-tool --crush", timeout: 3, note: "mine" },
        { command: "./mine.sh" },
        { command: "/older/deja-launcher hook-tool --crush" },
      ],
    },
  };
  setHooks(o, crushSpec, L, "flat");
  const list = (o.hooks as Record<string, unknown[]>).PreToolUse;
  assertEquals(list.length, 2, "the duplicate deja entry is gone");
  assertEquals(list[0], {
    matcher: "^(bash|edit|write|multiedit)$",
    command: `${L} hook-tool --crush`,
    timeout: 3, // the user's (trial 102 F2)
    note: "mine",
  });
  assertEquals(list[1], { command: "./mine.sh" });
});

// Trial 66: a timeout raised by hand (10 -> 30) went back to 10 when install ran again; trial
// 102 F2: so did one lowered (10 -> 3), and nothing said so.
Deno.test("setHooks keeps the timeout the user set on deja's own entry, says so, and --force sets deja's", () => {
  const hooks = () => ({
    hooks: {
      SessionStart: [{ hooks: [{ type: "command", command: `${L} hook-context`, timeout: 30 }] }],
      PreToolUse: [{
        matcher: "Bash|Edit|Write|MultiEdit",
        hooks: [{ type: "command", command: `/old/deja-launcher hook-tool`, timeout: 2 }],
      }],
    },
  });
  const o: Record<string, unknown> = hooks();
  const kept: unknown[] = [];
  setHooks(o, claudeSpecs, L, "nested", { timeoutKept: (t) => kept.push(t) });
  const h = o.hooks as Record<string, Array<{ hooks: Array<{ timeout: number }> }>>;
  assertEquals(h.SessionStart[0].hooks[0].timeout, 30);
  assertEquals(h.PreToolUse[0].hooks[0].timeout, 2);
  assertEquals(kept, [
    { event: "SessionStart", sub: "hook-context", timeout: 30, deja: 10 },
    { event: "PreToolUse", sub: "hook-tool", timeout: 2, deja: 10 },
  ]);
  const f: Record<string, unknown> = hooks();
  setHooks(f, claudeSpecs, L, "nested", { force: true });
  const fh = f.hooks as Record<string, Array<{ hooks: Array<{ timeout: number }> }>>;
  assertEquals([fh.SessionStart[0].hooks[0].timeout, fh.PreToolUse[0].hooks[0].timeout], [10, 10]);
  const c: Record<string, unknown> = {
    hooks: { PreToolUse: [{ command: `${L} hook-tool --crush`, timeout: 45 }] },
  };
  setHooks(c, crushSpec, L, "flat");
  assertEquals((c.hooks as Record<string, Array<{ timeout: number }>>).PreToolUse[0].timeout, 45);
  // Kimi Code's one list of [[hooks]] tables.
  const k: Record<string, unknown> = {
    hooks: [{ event: "SessionStart", command: `${L} hook-context`, timeout: 25 }],
  };
  setListHooks(k, claudeSpecs, L);
  const list = k.hooks as Array<{ event: string; timeout: number }>;
  assertEquals(list.find((e) => e.event === "SessionStart")?.timeout, 25);
  assertEquals(list.find((e) => e.event === "PreToolUse")?.timeout, 10);
});

Deno.test("setHooks flat finds deja's entry under Crush's other event spellings", () => {
  const o: Record<string, unknown> = {
    hooks: {
      pre_tool_use: [{ command: "/old/deja-launcher hook-tool --crush" }, { command: "./x" }],
    },
  };
  setHooks(o, crushSpec, L, "flat");
  const h = o.hooks as Record<string, unknown[]>;
  assertEquals(h.pre_tool_use, [{
    command: `${L} hook-tool --crush`,
    matcher: "^(bash|edit|write|multiedit)$",
    timeout: 10,
  }, { command: "./x" }]);
  assertEquals(h.PreToolUse, undefined, "no second entry under the canonical name");
});

Deno.test("setHooks nested writes Claude Code's matcher groups and keeps a user's group intact", () => {
  const user = { matcher: "Bash", hooks: [{ type: "command", command: "./lint.sh" }] };
  const o: Record<string, unknown> = { hooks: { PreToolUse: [user] }, model: "opus" };
  setHooks(o, claudeSpecs, L, "nested");
  setHooks(o, claudeSpecs, L, "nested");
  const h = o.hooks as Record<string, unknown[]>;
  assertEquals(h.SessionStart, [{
    hooks: [{ type: "command", command: `${L} hook-context`, timeout: 10 }],
  }]);
  assertEquals(h.PreToolUse, [
    user,
    {
      matcher: "Bash|Edit|Write|MultiEdit",
      hooks: [{ type: "command", command: `${L} hook-tool`, timeout: 10 }],
    },
  ]);
  assertEquals(findHooks(o, "PostToolUse", "nested"), [
    { matcher: "Bash", command: `${L} hook-tool-after`, sub: "hook-tool-after" },
  ]);
});

Deno.test("setHooks nested takes deja's item out of a group it shares with the user's", () => {
  const o: Record<string, unknown> = {
    hooks: {
      PreToolUse: [{
        matcher: "Bash",
        hooks: [{ type: "command", command: "./lint.sh" }, {
          type: "command",
          command: "/o/deja-launcher hook-tool",
        }],
      }],
    },
  };
  setHooks(o, [claudeSpecs[1]], L, "nested");
  const list = (o.hooks as Record<string, Array<Record<string, unknown>>>).PreToolUse;
  assertEquals(list[0].hooks, [{ type: "command", command: "./lint.sh" }]);
  assertEquals(list.length, 2);
  assertEquals((list[1].hooks as Array<Record<string, unknown>>)[0].command, `${L} hook-tool`);
});

Deno.test("removeHooks takes only deja's items and leaves pruning to wire.ts", () => {
  const o: Record<string, unknown> = {};
  setHooks(o, claudeSpecs, L, "nested");
  (o.hooks as Record<string, unknown[]>).PreToolUse.unshift({ hooks: [{ command: "./mine" }] });
  assertEquals(removeHooks(o, "nested", claudeSpecs), 3);
  assertEquals((o.hooks as Record<string, unknown>).PreToolUse, [{
    hooks: [{ command: "./mine" }],
  }]);
  const only: Record<string, unknown> = { a: 1 };
  setHooks(only, crushSpec, L, "flat");
  assertEquals(removeHooks(only, "flat", crushSpec), 1);
  assertEquals(removeHooks({ hooks: { X: [] } }, "flat", crushSpec), 0);
});

Deno.test("hookByDeja: only a launcher followed by exactly the args deja writes", () => {
  const spec = crushSpec[0];
  assert(hookByDeja(hookCommand(L, spec.args), crushSpec));
  assert(hookByDeja(hookCommand("/old/deja-launcher", spec.args), crushSpec), "an older path");
  assert(!hookByDeja(hookCommand(L, spec.args) + " | tee /tmp/log", crushSpec));
  assert(!hookByDeja(hookCommand(L, [...spec.args, "--mine"]), crushSpec));
  assert(!hookByDeja(`${L} ${spec.args[0]}`, crushSpec), "a bare subcommand is the user's");
  assert(!hookByDeja(hookCommand("/usr/bin/deja", spec.args), crushSpec), "a deja binary");
});

Deno.test("setMcp keeps the user's servers and extra fields of deja's; removeMcp removes only deja's", () => {
  const o: Record<string, unknown> = {
    mcp: { other: { command: "x" }, deja: { command: "/old/deja", disabled: true } },
  };
  setMcp(o, ["mcp", "deja"], { type: "stdio", command: L, args: ["mcp"] });
  assertEquals(o.mcp, {
    other: { command: "x" },
    deja: { command: L, disabled: true, type: "stdio", args: ["mcp"] },
  });
  assert(removeMcp(o, ["mcp", "deja"], { type: "stdio", command: L, args: ["mcp"] }));
  assertEquals(o.mcp, { other: { command: "x" } });
  const want = { command: L, args: ["mcp"] };
  const foreign = { mcpServers: { deja: { command: "/usr/bin/python3" } } };
  assert(
    !removeMcp(foreign, ["mcpServers", "deja"], want),
    "a 'deja' server that runs something else stays",
  );
  const tuned = { command: "/x/deja-launcher", args: ["mcp", "--mine"], env: { A: "1" } };
  assert(!writtenByDeja(tuned, want), "other args or an env: the user's");
  assert(!writtenByDeja({ ...want, env: { A: "1" } }, want));
  assert(!writtenByDeja({ command: L }, want), "args missing");
  assert(writtenByDeja({ command: "/old/deja-launcher", args: ["mcp"], disabled: true }, want));
});

Deno.test("edits refuse a value of the wrong type where deja has to write", () => {
  assertThrows(() => setMcp({ mcp: [] }, ["mcp", "deja"], { command: L }), ShapeError);
  assertThrows(() => setHooks({ hooks: "no" }, crushSpec, L, "flat"), ShapeError);
  assertThrows(() => setHooks({ hooks: { PreToolUse: {} } }, crushSpec, L, "flat"), ShapeError);
});
