import { assertEquals } from "../tests/_assert.ts";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codewhale } from "./codewhale.ts";
import { testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { documentHostileTests, parseDocument } from "../tests/_hostile.ts";
import { tempDir } from "../tests/_tmp.ts";

const meta = {
  id: "cw-t",
  title: "t",
  created_at: "2026-06-01T10:00:00Z",
  updated_at: "2026-06-01T10:01:00Z",
  model: "m",
  workspace: "/w/cw",
};
const text = (role: string, t: string) => ({ role, content: [{ type: "text", text: t }] });
const entry = (
  id: string,
  parent: string | null,
  kind: string,
  fields: Record<string, unknown>,
) => ({
  id,
  ...(parent ? { parent_id: parent } : {}),
  kind,
  ...fields,
  created_at: "2026-06-01T10:00:10Z",
  spawn_depth: 0,
});

function parseDoc(doc: unknown) {
  return parseDocument(codewhale, "cw-t.json", doc);
}

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "codewhale")!;
  const want = JSON.parse(readFileSync(join(entry.fixtureDir, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, codewhale), want);
});

Deno.test("the journal's active branch is read, not the abandoned one, when a journal is present", async () => {
  const { s } = await parseDoc({
    metadata: meta,
    messages: [text("user", "projection only")],
    journal: {
      entries: [
        entry("a", null, "user", { text: "first" }),
        entry("b", "a", "assistant", { text: "abandoned reply" }),
        entry("c", "a", "compaction", { summary: "summary of a" }),
        entry("d", "c", "branch_summary", { branch_id: "b", summary: "the other branch" }),
        entry("e", "d", "message", { message: text("assistant", "kept reply") }),
        entry("f", "e", "system", { content: "framing" }),
      ],
      leaf_id: "f",
    },
  });
  assertEquals(s?.events.map((e) => [e.kind, e.text]), [
    ["user", "first"],
    ["summary", "summary of a"],
    ["summary", "the other branch"],
    ["assistant", "kept reply"],
  ]);
  assertEquals(s?.events[0].time, Date.UTC(2026, 5, 1, 10, 0, 10));
});

Deno.test("messages are read when there is no journal, system and developer roles dropped", async () => {
  const { s, counts } = await parseDoc({
    metadata: { ...meta, parent_session_id: "cw-parent" },
    messages: [
      text("system", "s"),
      text("developer", "d"),
      text("user", "u"),
      text("assistant", "a"),
      text("tool", "?"),
    ],
  });
  assertEquals(s?.events.map((e) => e.text), ["u", "a"]);
  assertEquals([s?.parent, s?.project, s?.started, s?.updated], [
    "cw-parent",
    "/w/cw",
    Date.UTC(2026, 5, 1, 10, 0, 0),
    Date.UTC(2026, 5, 1, 10, 1, 0),
  ]);
  assertEquals(counts.unknown_record, 1);
});

Deno.test("the legacy ~/.deepseek root is read only while ~/.codewhale/sessions does not exist", async () => {
  const home = tempDir("deja-codewhale-home-");
  try {
    mkdirSync(join(home, ".deepseek", "sessions"), { recursive: true });
    writeFileSync(join(home, ".deepseek", "sessions", "old.json"), "{}");
    const legacy = await codewhale.discover({ env: testEnv(home), knownProjects: [] });
    assertEquals(legacy.sources.map((s) => s.path), [
      join(home, ".deepseek", "sessions", "old.json"),
    ]);
    const withHome = await codewhale.discover({
      env: testEnv(home, { CODEWHALE_HOME: "/cw" }),
      knownProjects: [],
    });
    assertEquals([withHome.roots, withHome.sources], [["/cw/sessions"], []]);
    mkdirSync(join(home, ".codewhale", "sessions"), { recursive: true });
    writeFileSync(join(home, ".codewhale", "sessions", "new.json"), "{}");
    writeFileSync(join(home, ".codewhale", "sessions", "offline_queue.json"), "{}");
    const current = await codewhale.discover({ env: testEnv(home), knownProjects: [] });
    assertEquals(current.sources.map((s) => s.path), [
      join(home, ".codewhale", "sessions", "new.json"),
    ]);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

documentHostileTests(codewhale);

Deno.test("a list_dir call names a directory listed, not a file read; read_file reads one", async () => {
  const use = (id: string, name: string) => ({
    type: "tool_use",
    id,
    name,
    input: { path: "src" },
  });
  const { s } = await parseDoc({
    metadata: meta,
    messages: [{ role: "assistant", content: [use("c1", "list_dir"), use("c2", "read_file")] }],
  });
  const tools = s?.events.map((e) => e.tool);
  assertEquals([tools?.[0]?.name, tools?.[0]?.paths, tools?.[0]?.input], ["list_dir", undefined, {
    path: "src",
  }]);
  assertEquals(tools?.[1]?.paths, ["/w/cw/src"]);
});
