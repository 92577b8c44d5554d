/**
 * The farm's checks on a store: a synthetic Claude Code store that plays the
 * scenario passes every check, and each defect the checks exist for fails the
 * one it should.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertEquals } from "../_assert.ts";
import { claude } from "./harnesses/claude.ts";
import type { Played } from "./play.ts";
import { logChecks, storeChecks } from "./verify.ts";
import { markers, prompts, type Scenario } from "./_mock_script.ts";
import type { LoggedRequest } from "./mock_model.ts";
import { tempDir } from "../_tmp.ts";

const S: Scenario = { id: "v3rify", steps: ["shell", "fail", "edit", "write", "subagent"] };
const M = markers(S.id);
const SID = "aaaaaaaa-0000-4000-8000-000000000001";

/** What to break in the synthetic store. */
interface Defects {
  noExit?: boolean;
  followupElsewhere?: boolean;
  orphanSubagent?: boolean;
  noWrite?: boolean;
}

/** Writes a Claude Code store that played scenario S in `dir`, with `d` broken. */
function store(dir: string, d: Defects = {}): void {
  const project = join(dir, "project");
  mkdirSync(project, { recursive: true });
  const slug = project.replace(/[^a-zA-Z0-9]/g, "-");
  const folder = join(dir, "home/.claude/projects", slug);
  mkdirSync(join(folder, SID, "subagents"), { recursive: true });
  let n = 0;
  const rec = (type: string, content: unknown, extra: Record<string, unknown> = {}, sid = SID) => ({
    type,
    sessionId: sid,
    uuid: `u-${++n}`,
    cwd: project,
    timestamp: `2026-11-29T10:00:${String(n).padStart(2, "0")}.000Z`,
    message: type === "user"
      ? { role: "user", content }
      : { id: `m-${n}`, role: "assistant", model: "mock", content },
    ...extra,
  });
  const use = (id: string, name: string, input: unknown) =>
    rec("assistant", [{ type: "tool_use", id, name, input }]);
  const result = (id: string, content: string, isError = false) =>
    rec("user", [{ type: "tool_result", tool_use_id: id, content, is_error: isError }]);
  const p = prompts(S);
  const main = [
    rec("user", p.main),
    use("t1", "Bash", { command: "ls" }),
    result("t1", "README.md"),
    use("t2", "Bash", { command: "ls missing.txt" }),
    result("t2", `${d.noExit ? "" : "Exit code 2\n"}ls: cannot access 'missing.txt'`, true),
    use("t3", "Edit", {
      file_path: join(project, "README.md"),
      old_string: "hello world",
      new_string: `hello ${M.edit}`,
    }),
    result("t3", "updated"),
    ...(d.noWrite ? [] : [
      use("t4", "Write", {
        file_path: join(project, "notes.txt"),
        content: `${M.write} first line\n`,
      }),
      result("t4", "created"),
    ]),
    rec("assistant", [{ type: "text", text: `Done. Marker ${M.answer}.` }]),
  ];
  const follow = [
    rec("user", p.followup),
    rec("assistant", [{ type: "text", text: `Answer ${M.followup}.` }]),
  ];
  const other = "bbbbbbbb-0000-4000-8000-000000000002";
  const lines = (rs: unknown[]) => rs.map((r) => JSON.stringify(r) + "\n").join("");
  writeFileSync(
    join(folder, `${SID}.jsonl`),
    lines(d.followupElsewhere ? main : [...main, ...follow]),
  );
  if (d.followupElsewhere) {
    writeFileSync(
      join(folder, `${other}.jsonl`),
      lines(follow.map((r) => ({ ...r, sessionId: other }))),
    );
  }
  const side = { isSidechain: true, agentId: "a1" };
  const sub = [
    rec("user", p.subagent, side),
    rec("assistant", [{ type: "text", text: `Helper done: ${M.subagent}.` }], side),
  ];
  const subDir = d.orphanSubagent ? folder : join(folder, SID, "subagents");
  const subSid = d.orphanSubagent ? "cccccccc-0000-4000-8000-000000000003" : SID;
  writeFileSync(
    join(subDir, d.orphanSubagent ? `${subSid}.jsonl` : "agent-a1.jsonl"),
    lines(sub.map((r) => ({ ...r, sessionId: subSid }))),
  );
}

const LOG: LoggedRequest[] = [
  {
    t: "",
    method: "POST",
    path: "/v1/messages",
    route: "anthropic",
    headers: {},
    body: {},
    reply: { turn: "main", tool: "Bash" },
  },
  {
    t: "",
    method: "POST",
    path: "/v1/messages",
    route: "anthropic",
    headers: {},
    body: {},
    reply: { turn: "subagent", text: "x" },
  },
];

async function checks(d: Defects = {}) {
  const dir = tempDir("deja-farmcheck-");
  try {
    store(dir, d);
    const played: Played = { mockUrl: "", env: { HOME: join(dir, "home") }, runs: [], notRun: {} };
    const h = { ...claude, compact: undefined };
    const r = await storeChecks(h, S, dir, played, LOG);
    return Object.fromEntries(r.checks.map((c) => [c.name, c.ok]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

Deno.test("every store check holds when the store recorded the whole scenario", async () => {
  assertEquals(await checks(), {
    marker: true,
    project: true,
    "failed command": true,
    edit: true,
    write: true,
    "second turn": true,
    subagent: true,
    summary: null,
  });
});

Deno.test("the failed-command check fails when the store keeps no exit status", async () => {
  assertEquals((await checks({ noExit: true }))["failed command"], false);
});

Deno.test("the write check fails when no write of notes.txt was recorded", async () => {
  assertEquals((await checks({ noWrite: true })).write, false);
});

Deno.test("the second-turn check fails when the follow-up lands in another session", async () => {
  assertEquals((await checks({ followupElsewhere: true }))["second turn"], false);
});

Deno.test("the subagent check fails when the subagent is not filed under its parent", async () => {
  assertEquals((await checks({ orphanSubagent: true })).subagent, false);
});

Deno.test("the log check fails and lists the hosts when the harness never reached the mock", () => {
  const r = logChecks([{
    t: "",
    method: "CONNECT",
    path: "api.example.com:443",
    route: "outbound",
    headers: {},
    body: null,
  }]);
  assertEquals(r.checks[0].ok, false);
  assertEquals(r.outbound, ["api.example.com:443"]);
  assertEquals(logChecks(LOG).checks[0].ok, true);
});
