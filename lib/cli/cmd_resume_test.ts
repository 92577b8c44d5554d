import {
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../tests/_assert.ts";
import { tmpdir } from "node:os";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "../store.ts";
import { claudeLines, fileSession, indexSessions } from "../../tests/_memory.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { tempDir } from "../../tests/_tmp.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { parseResume, resumeCmd, resumeData, resumeNotes } from "./cmd_resume.ts";

const ID = "4e500000-1111-4222-8333-444455556666";
// The project directory must exist: harnesses look their sessions up from there.
const CWD = tmpdir();

/** One Claude Code session of `CWD`, in the store under `~/.claude/projects` or (`atHome` false) elsewhere. */
function fixture(atHome = true) {
  return indexSessions(
    [
      { id: ID, cwd: CWD, start: "2026-11-01T10:00:00Z", turns: [{ user: "pick this up later" }] },
    ],
    [],
    { atHome },
  );
}

Deno.test("resume parses its session reference and --exec, and refuses none with exit 2", () => {
  assertEquals(parseResume({ values: { exec: true }, positionals: ["4e5"] }), {
    ref: "4e5",
    exec: true,
    json: false,
  });
  const e = assertThrows(() => parseResume({ values: {}, positionals: [] }), DejaError);
  assertEquals((e as DejaError).exitCode, 2);
});

Deno.test("resume's run plans the harness's own command in the project directory", async () => {
  const ix = await fixture();
  try {
    const d = resumeData(ix.env, "4e5");
    assertEquals([d.plan.harness, d.plan.id, d.plan.cwd], ["claude", ID, CWD]);
    assertEquals(d.plan.argv, ["claude", "--resume", ID]);
    assertEquals(d.command, `cd ${CWD} && claude --resume ${ID}`);
  } finally {
    ix.cleanup();
  }
});

Deno.test("resume prints the same line to a terminal and a pipe, and the plan with --json", async () => {
  const ix = await fixture();
  try {
    for (const tty of [true, false]) {
      const c = captureIO(ix.env, tty);
      assertEquals(await resumeCmd.run({ values: {}, positionals: ["4e5"] }, c.io), 0);
      assertEquals(c.out(), `cd ${CWD} && claude --resume ${ID}\n`);
      assertEquals(c.err(), "");
    }
    const json = captureIO(ix.env, false);
    assertEquals(await resumeCmd.run({ values: { json: true }, positionals: ["4e5"] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.id, doc.cwd, doc.origin, doc.host], [ID, CWD, null, null]);
    assertEquals(doc.command, `cd ${CWD} && claude --resume ${ID}`);
  } finally {
    ix.cleanup();
  }
});

// Trial 130 F1: a store in no folder the command reads (no CLAUDE_CONFIG_DIR reaches a Claude
// store not under `projects`) was printed with "the command will not find it" on stderr and exit 0,
// so `eval "$(deja resume …)"` ran a command that failed.
Deno.test("resume refuses with exit 2 and nothing on stdout a session whose store its command does not read", async () => {
  const ix = await fixture(false);
  try {
    for (const values of [{}, { exec: true }, { json: true }]) {
      const c = captureIO(ix.env, false);
      const e = await assertRejects(
        () => resumeCmd.run({ values, positionals: ["4e5"] }, c.io),
        DejaError,
      ) as DejaError;
      assertEquals([e.exitCode, c.out()], [2, ""]);
      assertStringIncludes(e.message, "Claude Code would not find this session: its store (");
      assertStringIncludes(e.message, "is in no folder claude's command reads (");
      assertStringIncludes(e.message, "or the same under another CLAUDE_CONFIG_DIR)");
      // What would work: the command once the store is where Claude Code looks, or a handoff.
      assertStringIncludes(
        e.hint ?? "",
        `once the store is back under ${join(ix.env.home, ".claude", "projects")}, ` +
          `'cd ${CWD} && claude --resume ${ID}' reopens it`,
      );
      assertStringIncludes(e.hint ?? "", "'deja handoff --to <harness> 4e500000'");
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("resume says when it reopens a subagent's parent or a remote's session", () => {
  const base = { harness: "claude", cwd: null, argv: ["ssh"], origin: null };
  assertEquals(resumeNotes({ ...base, asked: "a", id: "a" }), "");
  assertStringIncludes(
    resumeNotes({ ...base, asked: "child", id: "parent" }),
    "deja: child is a subagent; resuming its parent\n",
  );
  const remote = resumeNotes({
    ...base,
    asked: "abcdef0123",
    id: "abcdef0123",
    origin: "devbox",
    remote: { host: "me@devbox", port: null, cwd: "/srv/app", clone: "/w/app" },
  });
  assertStringIncludes(remote, "ran on devbox (me@devbox)");
  assertStringIncludes(remote, "'deja handoff --to <harness> devbox:abcdef01'");
});

Deno.test("resume of an unknown session is an error with exit 1", async () => {
  const ix = await fixture();
  try {
    const e = await assertRejects(
      () => resumeCmd.run({ values: {}, positionals: ["ffff"] }, captureIO(ix.env, false).io),
      DejaError,
    );
    assertEquals((e as DejaError).exitCode, 1);
  } finally {
    ix.cleanup();
  }
});

Deno.test("resume of a prompt history says no command reopens it, with exit 2 and a hint to read it", async () => {
  const ix = await indexSessions([
    {
      id: "prompt-history-0a1b",
      cwd: CWD,
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "a prompt typed, whose transcript is gone" }],
    },
  ]);
  try {
    const e = assertThrows(() => resumeData(ix.env, "prompt-history-0a1b"), DejaError) as DejaError;
    assertEquals(e.exitCode, 2);
    assertStringIncludes(e.message, "prompt history");
    assertStringIncludes(e.hint ?? "", "deja show");
  } finally {
    ix.cleanup();
  }
});

/** A session filed by hand (the parsers' rows), whose project deja knows as `project`. */
function file(store: Store, harness: string, id: string, project: string | null): void {
  fileSession(store, { harness, native_id: id, source: `/stores/${harness}/${id}.jsonl`, project });
}

Deno.test("resume of a session whose project is unknown says so when the harness looks sessions up by directory, and --exec refuses", async () => {
  const ix = await fixture();
  try {
    file(ix.store, "kimi", "b1ea4a04-0000-4000-8000-000000000001", null);
    file(ix.store, "codex", "019da910-0000-7000-8000-000000000001", null);
    const c = captureIO(ix.env, false);
    assertEquals(await resumeCmd.run({ values: {}, positionals: ["b1ea4a04"] }, c.io), 0);
    assertEquals(c.out(), "kimi --session b1ea4a04-0000-4000-8000-000000000001\n");
    assertStringIncludes(c.err(), "deja: this session's project directory is not known");
    assertStringIncludes(c.err(), "Kimi CLI looks sessions up from the directory it runs in");
    const json = captureIO(ix.env, false);
    await resumeCmd.run({ values: { json: true }, positionals: ["b1ea4a04"] }, json.io);
    assertEquals(JSON.parse(json.out()).needs_cwd, true);
    const e = await assertRejects(
      () => resumeCmd.run({ values: { exec: true }, positionals: ["b1ea4a04"] }, c.io),
      DejaError,
    );
    assertEquals((e as DejaError).exitCode, 2);
    assertStringIncludes((e as DejaError).hint ?? "", "run it from the project directory");
    // Codex finds a session by id from anywhere: no note.
    const cx = captureIO(ix.env, false);
    assertEquals(await resumeCmd.run({ values: {}, positionals: ["019da910"] }, cx.io), 0);
    assertEquals(cx.out(), "codex resume 019da910-0000-7000-8000-000000000001\n");
    assertEquals(cx.err(), "");
  } finally {
    ix.cleanup();
  }
});

Deno.test("resume never looks another system's project path up relative to the current directory", async () => {
  const ix = await fixture();
  const here = Deno.cwd();
  try {
    const win = "C:/Apps/MRA022626 - Copy/Marine-Response-Repo";
    file(ix.store, "claude", "c1a0de00-0000-4000-8000-00000000c0de", win);
    file(ix.store, "codex", "019d0000-0000-7000-8000-00000000c0de", "c:\\Apps\\repo");
    // The trial's trap: a relative directory of that name in the current directory.
    mkdirSync(join(ix.root, win), { recursive: true });
    Deno.chdir(ix.root);
    const e = assertThrows(() => resumeData(ix.env, "c1a0de00"), DejaError) as DejaError;
    assertEquals(e.exitCode, 2);
    assertStringIncludes(
      e.message,
      `this session ran on another system (its project ${win} is a Windows path)`,
    );
    assertStringIncludes(e.message, "resume cannot cd there");
    const d = resumeData(ix.env, "019d0000");
    assertEquals([d.plan.cwd, d.command], [
      null,
      "codex resume 019d0000-0000-7000-8000-00000000c0de",
    ]);
    assertStringIncludes(resumeNotes(d.plan), "ran on another system");
  } finally {
    Deno.chdir(here);
    ix.cleanup();
  }
});

Deno.test("resume of a harness that finds sessions from anywhere runs without a gone project directory, with a note", async () => {
  const ix = await fixture();
  try {
    file(ix.store, "codex", "019d1111-0000-7000-8000-000000000001", join(ix.root, "gone"));
    const d = resumeData(ix.env, "019d1111");
    assertEquals(d.plan.cwd, null);
    assertStringIncludes(
      resumeNotes(d.plan),
      `the project directory ${join(ix.root, "gone")} is not on this machine`,
    );
    // --exec says the same note before it runs the command (a stand-in `codex` on PATH).
    const bin = join(ix.root, "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "codex"), "#!/bin/sh\nexit 7\n", { mode: 0o755 });
    const path = Deno.env.get("PATH");
    Deno.env.set("PATH", bin);
    try {
      const c = captureIO(ix.env, false);
      assertEquals(
        await resumeCmd.run({ values: { exec: true }, positionals: ["019d1111"] }, c.io),
        7,
      );
      assertStringIncludes(c.err(), "is not on this machine (removed, moved");
    } finally {
      if (path === undefined) Deno.env.delete("PATH");
      else Deno.env.set("PATH", path);
    }
  } finally {
    ix.cleanup();
  }
});

/** Claude Code's folder for a directory (docs/registry/claude.md). */
const folderOf = (dir: string) => dir.replace(/[^A-Za-z0-9]/g, "-");

/**
 * A Claude Code store under `~/.claude/projects` (where its command reads) with one session
 * recorded in `cwd`, filed under the folder `folder`.
 */
async function claudeFiledUnder(root: string, folder: string, cwd: string, id: string) {
  const projects = join(root, "home", ".claude", "projects");
  const dir = join(projects, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${id}.jsonl`),
    claudeLines({ id, cwd, start: "2026-11-01T10:00:00Z", turns: [{ user: "go on" }] }).join(
      "\n",
    ) + "\n",
  );
  const env = testEnv(join(root, "home"), {
    DEJA_HOME: join(root, "deja"),
    DEJA_CLAUDE_ROOT: projects,
    TZ: "UTC",
  });
  await runIndex(env, parsers, { only: ["claude"] });
  return env;
}

Deno.test("resume runs Claude Code from the directory its session folder names when the recorded cwd is another", async () => {
  // Regression (trial on copied stores): `cd <recorded cwd> && claude --resume <id>` fails when the
  // file lies under another project folder: Claude Code looks it up under the folder of the cwd.
  const root = tempDir("deja-resume-folder-");
  try {
    const app = join(root, "w", "app");
    const sub = join(app, "pkg");
    mkdirSync(sub, { recursive: true });
    const id = "4e500000-1111-4222-8333-4444555566aa";
    const env = await claudeFiledUnder(root, folderOf(app), sub, id);
    const d = resumeData(env, "4e500000-1111-4222-8333-4444555566aa");
    assertEquals(d.plan.cwd, app);
    assertStringIncludes(d.plan.note ?? "", `Claude Code filed this session under ${app}`);
    assertStringIncludes(d.plan.note ?? "", `not its recorded directory ${sub}`);
    assertEquals(d.command, `cd ${app} && claude --resume ${id}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("resume warns, on stderr and in --json, when no directory here is the one a Claude Code session's folder names", async () => {
  const root = tempDir("deja-resume-folder-");
  try {
    const app = join(root, "w", "app");
    mkdirSync(app, { recursive: true });
    const id = "4e500000-1111-4222-8333-4444555566bb";
    const folder = "-gone-elsewhere-app";
    const env = await claudeFiledUnder(root, folder, app, id);
    const c = captureIO(env, false);
    assertEquals(
      await resumeCmd.run(
        { values: {}, positionals: ["4e500000-1111-4222-8333-4444555566bb"] },
        c.io,
      ),
      0,
    );
    assertEquals(c.out(), `cd ${app} && claude --resume ${id}\n`);
    assertStringIncludes(
      c.err(),
      `deja: Claude Code filed this session under the folder ${folder}`,
    );
    assertStringIncludes(c.err(), `looks under ${folderOf(app)} and may not find it`);
    const json = captureIO(env, false);
    await resumeCmd.run({
      values: { json: true },
      positionals: ["4e500000-1111-4222-8333-4444555566bb"],
    }, json.io);
    const doc = JSON.parse(json.out());
    assertEquals(doc.cwd, app);
    assertStringIncludes(doc.note, `under the folder ${folder}`);
    assertEquals(doc.needs_cwd, false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
