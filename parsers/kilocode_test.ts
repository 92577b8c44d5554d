import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Session, SourceRef } from "../core/model.ts";
import { assert, assertEquals, assertRejects } from "../tests/_assert.ts";
import { materialize, parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { StoreError } from "../core/sqlite_read.ts";
import { kilocode } from "./kilocode.ts";
import { tempDir } from "../tests/_tmp.ts";

const FIXTURE = join(REPO, "fixtures/registry/kilocode");

async function fixture(): Promise<
  { sessions: Session[]; skips: Record<string, unknown>; errors: Record<string, string> }
> {
  const fx = materialize(FIXTURE);
  try {
    return await runParser(
      kilocode,
      testEnv(join(fx.root, "__home__"), { DEJA_KILOCODE_ROOT: fx.root }),
    );
  } finally {
    fx.cleanup();
  }
}

function session(list: Session[], id: string): Session {
  const s = list.find((x) => x.id === id);
  assert(s, `session ${id} not found among ${list.map((x) => x.id).join(", ")}`);
  return s;
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir("deja-kilo-");
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function touch(path: string, body: string | Uint8Array = "x"): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, body);
  return path;
}

Deno.test("discover finds kilo.db in XDG data and extension tasks in every editor's kilocode.kilo-code storage", async () => {
  await withTemp(async (home) => {
    touch(join(home, ".local", "share", "kilo", "kilo.db"));
    touch(join(home, ".local", "share", "kilo", "kilo-beta.db"));
    touch(join(home, ".local", "share", "kilo", "opencode.db"));
    touch(
      join(
        home,
        ".config",
        "Code",
        "User",
        "globalStorage",
        "kilocode.kilo-code",
        "tasks",
        "k1",
        "api_conversation_history.json",
      ),
      "[]",
    );
    touch(
      join(
        home,
        ".config",
        "Code",
        "User",
        "globalStorage",
        "rooveterinaryinc.roo-cline",
        "tasks",
        "r1",
        "api_conversation_history.json",
      ),
      "[]",
    );
    const d = await kilocode.discover({ env: testEnv(home), knownProjects: [] });
    const got = d.sources.map((s) => `${s.kind}:${s.path.replace(home, "~")}`);
    assertEquals(got, [
      "sqlite:~/.local/share/kilo/kilo-beta.db",
      "sqlite:~/.local/share/kilo/kilo.db",
      "document:~/.config/Code/User/globalStorage/kilocode.kilo-code/tasks/k1/api_conversation_history.json",
    ]);
    assertEquals(d.sources[1].companions, [join(home, ".local", "share", "kilo", "kilo.db-wal")]);
  });
});

Deno.test("discover reads only the file KILO_DB names, relative to the data dir, when it is set", async () => {
  await withTemp(async (home) => {
    touch(join(home, ".local", "share", "kilo", "kilo.db"));
    touch(join(home, ".local", "share", "kilo", "custom.db"));
    const d = await kilocode.discover({
      env: testEnv(home, { KILO_DB: "custom.db" }),
      knownProjects: [],
    });
    assertEquals(d.sources.map((s) => s.path), [
      join(home, ".local", "share", "kilo", "custom.db"),
    ]);
  });
});

Deno.test("parse reads kilo.db through the opencode reader and files its sessions under kilocode", async () => {
  const { sessions, errors } = await fixture();
  assertEquals(errors, {});
  const s = session(sessions, "ses_kilo01");
  assertEquals(s.harness, "kilocode");
  assertEquals(s.project, "/w/kilo-cli");
  assertEquals(s.title, "Fix the readme");
  const cat = s.events.find((e) => e.tool?.command === "cat missing.txt");
  assert(cat);
  assertEquals(s.events[s.events.indexOf(cat) + 1].result?.exit, 1);
  assertEquals(s.events.flatMap((e) => e.tool?.edits ?? []), [
    { path: "/w/kilo-cli/README.md", old: "hello world", new: "hello zebrafinch" },
  ]);
});

Deno.test("parse reads an extension task with history_item.json and task_metadata.json like Roo's", async () => {
  const { sessions } = await fixture();
  const s = session(sessions, "1795300000000");
  assertEquals(s.project, "/w/kilo-app");
  assertEquals(s.title, "Install the dependencies");
  assertEquals(s.model, "kilo/auto");
  const call = s.events.find((e) => e.tool?.command === "npm install");
  assert(call);
  const res = s.events[s.events.indexOf(call) + 1];
  assertEquals(res.result, { callId: "toolu_k1", exit: 0, isError: false });
  assertEquals(res.text, "added 3 packages");
  assertEquals(
    s.events.at(-1)?.text,
    "Dependencies installed. Marker: zebrafinch-kilocode-ext-fixture",
  );
});

Deno.test("parse counts a 0-byte kilo.db as empty and yields nothing", async () => {
  await withTemp(async (dir) => {
    const p = touch(join(dir, "kilo.db"), "");
    const src: SourceRef = { harness: "kilocode", path: p, kind: "sqlite" };
    const { sessions, ctx } = await parseOne(kilocode, src, testEnv(dir));
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { empty: 1 });
  });
});

Deno.test("parse throws StoreError corrupt when kilo.db is not a database", async () => {
  await withTemp(async (dir) => {
    const p = touch(
      join(dir, "kilo.db"),
      "this is not sqlite at all, just text padding it out".repeat(4),
    );
    const src: SourceRef = { harness: "kilocode", path: p, kind: "sqlite" };
    const err = await assertRejects(() => parseOne(kilocode, src, testEnv(dir)));
    assert(err instanceof StoreError && err.reason === "corrupt", String(err));
  });
});

Deno.test("parse counts a half-written extension task file and yields nothing for it", async () => {
  await withTemp(async (dir) => {
    const p = touch(
      join(dir, "tasks", "t1", "api_conversation_history.json"),
      '[{"role":"user","content":',
    );
    const src: SourceRef = { harness: "kilocode", path: p, kind: "document" };
    const { sessions, ctx } = await parseOne(kilocode, src, testEnv(dir));
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { malformed_json: 1 });
  });
});

Deno.test("fixture run equals expected.json when DEJA_KILOCODE_ROOT points at the fixture", async () => {
  const entry = loadRegistry().find((e) => e.id === "kilocode");
  assert(entry);
  const want = JSON.parse(await Deno.readTextFile(join(FIXTURE, "expected.json")));
  assertEquals(await fixtureRun(entry, kilocode), want);
});

const FARM = join(REPO, "../shared/realdata/farm/kilo/home/.local/share/kilo");

Deno.test({
  name:
    "the farm's Kilo CLI 7.7.7 store yields the marker, cat missing.txt with exit 1 and the README edit",
  ignore: !existsSync(FARM),
  async fn() {
    const run = await runParser(
      kilocode,
      testEnv("/nonexistent-home", { DEJA_KILOCODE_ROOT: FARM }),
    );
    assertEquals(run.errors, {});
    assertEquals(run.skips, {});
    assertEquals(run.sessions.length, 1);
    const s = run.sessions[0];
    assertEquals(s.project, "/tmp/farm/kilo/proj");
    assert(s.events.some((e) => e.kind === "assistant" && e.text.includes("zebrafinch-kilo")));
    const cat = s.events.find((e) => e.tool?.command === "cat missing.txt");
    assert(cat);
    const res = s.events.find((e) => e.kind === "tool_result" && e.result?.callId === cat.tool?.id);
    assertEquals(res?.result?.exit, 1);
    assertEquals(s.events.flatMap((e) => e.tool?.edits ?? []), [
      { path: "/tmp/farm/kilo/proj/README.md", old: "hello world", new: "hello zebrafinch" },
    ]);
  },
});
