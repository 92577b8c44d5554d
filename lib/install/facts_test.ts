import { assert, assertEquals } from "../../tests/_assert.ts";
import { checkInstallFacts, findTarget, targetNames } from "./facts.ts";

const good = {
  target: "x",
  detect: ["~/.x"],
  mcp: { file: "~/.x/c.json", key: ["mcp", "deja"], entry: { command: "{launcher}" } },
  skill: { file: "~/.x/s/SKILL.md", text: "skill" },
  auto: {
    target: "x-auto",
    file: "~/.x/c.json",
    style: "flat",
    hooks: [{ event: "PreToolUse", args: ["hook-tool"], timeout: 5 }],
  },
};

Deno.test("checkInstallFacts accepts a well-formed install field and an absent one", () => {
  assertEquals(checkInstallFacts("x", good), []);
  assertEquals(checkInstallFacts("x", undefined), []);
});

Deno.test("checkInstallFacts names each malformed part", () => {
  const bad = (patch: Record<string, unknown>) => checkInstallFacts("x", { ...good, ...patch });
  const one = (patch: Record<string, unknown>, want: string) => {
    const p = bad(patch);
    assert(p.some((l) => l.includes(want)), `expected '${want}' in ${JSON.stringify(p)}`);
  };
  one({ target: "X Bad" }, "install.target");
  one({ detect: [] }, "install.detect");
  one({ mcp: { file: "~/c", key: ["deja"], entry: { command: "{launcher}" } } }, "install.mcp.key");
  one({ mcp: { file: "~/c", key: ["a", "b"], entry: { command: "/usr/bin/deja" } } }, "{launcher}");
  one({ mcp: { file: "${UNCLOSED", key: ["a", "b"], entry: { c: "{launcher}" } } }, "unclosed");
  one({ skill: { file: "/home/me/s.md", text: "skill" } }, "must use ~");
  one({ command: { file: "~/c.md", text: "no-such-text" } }, "install.command.text");
  one({ auto: { ...good.auto, style: "deep" } }, "install.auto.style");
  one({ auto: { ...good.auto, hooks: [{ event: "E", args: ["mcp"], timeout: 5 }] } }, "hook-");
  one(
    { auto: { ...good.auto, hooks: [{ event: "E", args: ["hook-x"], timeout: 0.5 }] } },
    "timeout",
  );
  one({ auto: { ...good.auto, retired: {} } }, "install.auto.retired must be a list");
  one({ auto: { ...good.auto, retired: [{ event: "E", args: ["mcp"] }] } }, "retired[0].args");
  one(
    { auto: { ...good.auto, retired: [{ event: "PreToolUse", args: ["hook-tool"] }] } },
    "still wired",
  );
  assertEquals(
    checkInstallFacts("x", {
      ...good,
      auto: { ...good.auto, retired: [{ event: "PreCompact", args: ["hook-precompact"] }] },
    }),
    [],
  );
  one({ auto: { ...good.auto, needs: { name: "X Code", why: "w" } } }, "install.auto.needs");
  one(
    { auto: { ...good.auto, needs: { name: "X", detect: ["/home/x"], why: "w" } } },
    "must use ~",
  );
  assertEquals(checkInstallFacts("x", "nope"), ["x: install must be an object"]);
});

Deno.test("findTarget knows the plain and -auto targets and the claude alias", () => {
  for (const n of ["claude-code", "claude-auto", "crush", "crush-auto"]) {
    assert(targetNames().includes(n), n);
  }
  assertEquals(findTarget("claude")?.name, "claude-code");
  assertEquals(findTarget("crush-auto")?.auto, true);
  assertEquals(findTarget("crush-auto")?.harness.harness, "crush");
  assertEquals(findTarget("nope"), undefined);
});
