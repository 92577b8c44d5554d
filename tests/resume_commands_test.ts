/**
 * The command `deja resume` prints for the harnesses whose resume command and
 * `capabilities.resume_cwd` were checked against their own source or CLI
 * (docs/registry/<id>.md, "Resume"): the flag, the id as one argument, and
 * whether the project directory is needed.
 *
 * Each row says what was read. The ids are of the form each parser writes
 * (its fixture's golden ids).
 */
import { assert, assertEquals, assertStringIncludes, assertThrows } from "./_assert.ts";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileSession, indexSessions } from "./_memory.ts";
import { captureIO } from "./_cli_io.ts";
import { DejaError } from "../core/errors.ts";
import { harnessFacts } from "../core/registry.ts";
import { resumeCmd, resumeData, resumeNotes } from "../lib/cli/cmd_resume.ts";

interface Row {
  harness: string;
  id: string;
  argv: string[];
  /** registry.json `capabilities.resume_cwd`. */
  byDir: boolean;
  /** Where the fact was read. */
  from: string;
}

const ROWS: Row[] = [
  {
    harness: "pi",
    id: "0190a1b2-0000-7000-8000-0000000000a1",
    argv: ["pi", "--session", "0190a1b2-0000-7000-8000-0000000000a1"],
    byDir: true,
    from:
      "pi 0.73.1 dist/main.js resolveSessionPath: another project's session is offered as a fork",
  },
  {
    harness: "omp",
    id: "0190b000-0000-7000-8000-0000000000b1",
    argv: ["omp", "--resume", "0190b000-0000-7000-8000-0000000000b1"],
    byDir: false,
    from:
      "omp 18.2.3 dist/cli.js createSessionManager: found in any project, then chdir to its cwd",
  },
  {
    harness: "prime",
    id: "0190c000-0000-7000-8000-0000000000d1",
    argv: ["prime-agent", "--resume", "0190c000-0000-7000-8000-0000000000d1"],
    byDir: true,
    from: "prime-agent core/session-resolver.ts: a match in another cwd is offered as a fork",
  },
  {
    harness: "senpi",
    id: "0190d000-0000-7000-8000-0000000000e1",
    argv: ["senpi", "--session", "0190d000-0000-7000-8000-0000000000e1"],
    byDir: true,
    from: "senpi main.ts resolveSessionPath: another project forks, or fails without a terminal",
  },
  {
    harness: "gjc",
    id: "0190e000-0000-7000-8000-0000000000f1",
    argv: ["gjc", "--resume", "0190e000-0000-7000-8000-0000000000f1"],
    byDir: true,
    from: "gajae-code main.ts createSessionManager: another project forks, or fails",
  },
  {
    harness: "kimchi",
    id: "0190f000-0000-7000-8000-000000000101",
    argv: ["kimchi", "--session", "0190f000-0000-7000-8000-000000000101"],
    byDir: true,
    from: "kimchi runs pi-coding-agent 0.84.1's main, which forks another cwd's session",
  },
  {
    harness: "grok",
    id: "0199a000-0000-7000-8000-00000000000a",
    argv: ["grok", "--resume", "0199a000-0000-7000-8000-00000000000a"],
    byDir: true,
    from: "Grok Build keys sessions/<encoded cwd>/<id>; resume looks under the cwd's folder",
  },
  {
    harness: "factory",
    id: "3d9c2a10-5b6e-4f70-8a91-b2c3d4e5f601",
    argv: ["droid", "--resume", "3d9c2a10-5b6e-4f70-8a91-b2c3d4e5f601"],
    byDir: false,
    from: "droid 0.225.2 loadSession: findSessionFile searches every project folder",
  },
  {
    harness: "kilocode",
    id: "ses_kilo01",
    argv: ["kilo", "-s", "ses_kilo01"],
    byDir: false,
    from:
      "Kilo CLI 7.7.7: -s finds the session in kilo.db by id and moves to its directory (run here)",
  },
  {
    harness: "reasonix",
    id: "2026-03-01-fix-readme",
    argv: ["reasonix", "--resume", "2026-03-01-fix-readme"],
    byDir: true,
    from: "Reasonix internal/cli resolveCLISessionDir: --resume looks in the cwd's project store",
  },
];

/** An index holding one session of each row, its project `project(row)`. */
async function world(project: (r: Row, root: string) => string | null) {
  const ix = await indexSessions([]);
  for (const r of ROWS) {
    fileSession(ix.store, {
      harness: r.harness,
      native_id: r.id,
      source: `/stores/${r.harness}/${r.id}.jsonl`,
      project: project(r, ix.root),
    });
  }
  return ix;
}

Deno.test("the registry records resume_cwd for every harness resume_commands_test checks", () => {
  for (const r of ROWS) {
    const facts = harnessFacts(r.harness);
    assert(facts, `${r.harness}: no registry entry`);
    assertEquals(facts.resumeCwd, r.byDir, `${r.harness} (${r.from})`);
  }
});

Deno.test("resume prints each checked harness's own command, run in the project directory", async () => {
  const ix = await world((r, root) => join(root, "proj", r.harness));
  try {
    for (const r of ROWS) mkdirSync(join(ix.root, "proj", r.harness), { recursive: true });
    for (const r of ROWS) {
      const d = resumeData(ix.env, `${r.harness}:${r.id}`);
      assertEquals(d.plan.argv, r.argv, `${r.harness} (${r.from})`);
      assertEquals(d.plan.cwd, join(ix.root, "proj", r.harness));
      assertEquals(d.command, `cd ${join(ix.root, "proj", r.harness)} && ${r.argv.join(" ")}`);
      assertEquals(resumeNotes(d.plan), "", r.harness);
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("resume of a session whose project is unknown needs the directory only for the harnesses that look sessions up by it", async () => {
  const ix = await world(() => null);
  try {
    for (const r of ROWS) {
      const c = captureIO(ix.env, false);
      assertEquals(
        await resumeCmd.run({ values: {}, positionals: [`${r.harness}:${r.id}`] }, c.io),
        0,
      );
      assertEquals(c.out(), `${r.argv.join(" ")}\n`, r.harness);
      const json = captureIO(ix.env, false);
      await resumeCmd.run(
        { values: { json: true }, positionals: [`${r.harness}:${r.id}`] },
        json.io,
      );
      assertEquals(JSON.parse(json.out()).needs_cwd, r.byDir, `${r.harness} (${r.from})`);
      if (r.byDir) {
        assertStringIncludes(c.err(), "looks sessions up from the directory it runs in", r.harness);
      } else {
        assertEquals(c.err(), "", `${r.harness} finds the session from anywhere: no note`);
      }
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("resume of a session whose project is gone refuses for a harness that looks it up from there, and runs without it otherwise", async () => {
  const ix = await world((r, root) => join(root, "gone", r.harness));
  try {
    for (const r of ROWS) {
      const gone = join(ix.root, "gone", r.harness);
      if (r.byDir) {
        const e = assertThrows(
          () => resumeData(ix.env, `${r.harness}:${r.id}`),
          DejaError,
        ) as DejaError;
        assertEquals(e.exitCode, 2, r.harness);
        assertStringIncludes(e.message, `the project directory ${gone} is not on this machine`);
      } else {
        const d = resumeData(ix.env, `${r.harness}:${r.id}`);
        assertEquals([d.plan.cwd, d.command], [null, r.argv.join(" ")], r.harness);
        assertStringIncludes(resumeNotes(d.plan), "finds the session from anywhere", r.harness);
      }
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("resume of a Muse Code session prints 'muse resume <id>' and, its directory rule unchecked, says it may need the directory", async () => {
  // `muse resume <id>`: the subcommand third-party launchers run against the CLI
  // (docs/registry/muse.md, "Resume"); whether it finds a session from another directory is not known.
  assertEquals(harnessFacts("muse")?.resumeCwd, null);
  const ix = await indexSessions([]);
  try {
    const id = "01a2b3c4-0000-7000-8000-00000000a001";
    fileSession(ix.store, {
      harness: "muse",
      native_id: id,
      source: `/m/${id}/session.jsonl`,
      project: null,
    });
    const c = captureIO(ix.env, false);
    assertEquals(await resumeCmd.run({ values: {}, positionals: ["muse:01a2b3c4"] }, c.io), 0);
    assertEquals(c.out(), `muse resume ${id}\n`);
    assertStringIncludes(c.err(), "Muse Code may look sessions up from the directory it runs in");
  } finally {
    ix.cleanup();
  }
});

Deno.test("resume of an Oh My Pi session kept under a named profile adds --profile, as omp's own hint does", async () => {
  // omp 18.2.3 searches only the active profile's sessions for --resume <id> (docs/registry/omp.md).
  const ix = await indexSessions([]);
  try {
    const rows = [
      [
        "0190b000-0000-7000-8000-0000000000a1",
        "/h/.omp/profiles/work/agent/sessions/--w--/a.jsonl",
      ],
      [
        "0190b000-0000-7000-8000-0000000000a2",
        "/h/.local/share/omp/profiles/work/sessions/-w/b.jsonl",
      ],
      ["0190b000-0000-7000-8000-0000000000a3", "/h/.omp/agent/sessions/--w--/c.jsonl"],
      [
        "0190b000-0000-7000-8000-0000000000a4",
        "C:\\Users\\u\\.omp\\profiles\\work\\agent\\sessions\\d.jsonl",
      ],
      ["0190b000-0000-7000-8000-0000000000a5", "/h/.omp/profiles/-rm/agent/sessions/--w--/e.jsonl"],
    ];
    for (const [id, source] of rows) {
      fileSession(ix.store, { harness: "omp", native_id: id, source, project: null });
    }
    const argv = (id: string) => resumeData(ix.env, `omp:${id}`).plan.argv;
    assertEquals(argv(rows[0][0]), ["omp", "--profile", "work", "--resume", rows[0][0]]);
    assertEquals(argv(rows[1][0]), ["omp", "--profile", "work", "--resume", rows[1][0]]);
    assertEquals(argv(rows[2][0]), ["omp", "--resume", rows[2][0]]);
    assertEquals(argv(rows[3][0]), ["omp", "--profile", "work", "--resume", rows[3][0]]);
    // A profile name omp would read as a flag is never passed.
    const e = assertThrows(() => argv(rows[4][0]), DejaError) as DejaError;
    assertEquals(e.exitCode, 2);
    assertStringIncludes(e.message, "'-rm' has characters deja will not pass");
  } finally {
    ix.cleanup();
  }
});

// Trial 94 F6: a store read from elsewhere than the harness's home (`DEJA_CODEX_ROOT` on a
// copy) was resumed with a command that looks in `~/.codex` and finds no such session.
Deno.test("resume names the harness's home where the session's store is not the one its command reads", async () => {
  const ix = await indexSessions([]);
  try {
    const home = ix.env.home;
    const id = "019a0000-0000-7000-8000-000000000c01";
    const at = (source: string, harness = "codex", native = id) =>
      fileSession(ix.store, { harness, native_id: native, source, project: null });
    at(join(ix.root, "copy", "codex", "sessions", "2026", "01", "02", `rollout-x-${id}.jsonl`));
    const away = resumeData(ix.env, `codex:${id}`);
    assertEquals(away.plan.env, { CODEX_HOME: join(ix.root, "copy", "codex") });
    assertEquals(away.command, `CODEX_HOME=${join(ix.root, "copy", "codex")} codex resume ${id}`);
    // An archived thread, found under the same home's archived_sessions (trial 100 F4).
    const archived = "019a0000-0000-7000-8000-000000000c04";
    at(
      join(ix.root, "copy", "codex", "archived_sessions", `rollout-z-${archived}.jsonl`),
      "codex",
      archived,
    );
    assertEquals(resumeData(ix.env, `codex:${archived}`).plan.env, {
      CODEX_HOME: join(ix.root, "copy", "codex"),
    });
    const claude = "5fbf3543-0000-4000-8000-000000000c02";
    at(join(ix.root, "cfg", "projects", "-w-app", `${claude}.jsonl`), "claude", claude);
    assertEquals(resumeData(ix.env, `claude:${claude}`).plan.env, {
      CLAUDE_CONFIG_DIR: join(ix.root, "cfg"),
    });
    // Under the home the command reads: nothing to add.
    const mine = "019a0000-0000-7000-8000-000000000c03";
    at(
      join(home, ".codex", "sessions", "2026", "01", "02", `rollout-y-${mine}.jsonl`),
      "codex",
      mine,
    );
    const here = resumeData(ix.env, `codex:${mine}`);
    assertEquals([here.plan.env, here.command], [undefined, `codex resume ${mine}`]);
  } finally {
    ix.cleanup();
  }
});

// Trial 97 F6: Gemini CLI and opencode stores outside their homes, and a Claude root not named
// `projects`, were resumed with a bare command that would not find the session. Trial 130 F1:
// where nothing can reach one, it was still printed (exit 0) beside a warning; it is refused.
Deno.test("resume names GEMINI_CLI_HOME and OPENCODE_DB for stores outside their homes, and refuses where nothing can reach one", async () => {
  const ix = await indexSessions([]);
  try {
    const file = (harness: string, native: string, source: string) =>
      fileSession(ix.store, { harness, native_id: native, source, project: ix.root });
    const at = (harness: string, native: string, source: string) => {
      file(harness, native, source);
      return resumeData(ix.env, `${harness}:${native}`).plan;
    };
    const refused = (harness: string, native: string, source: string) => {
      file(harness, native, source);
      const e = assertThrows(
        () => resumeData(ix.env, `${harness}:${native}`),
        DejaError,
      ) as DejaError;
      assertEquals(e.exitCode, 2);
      return e;
    };
    const chats = (root: string) => join(root, "tmp", "projg", "chats", "session-1.jsonl");
    const gh = at(
      "gemini",
      "763fc74b-0000-4000-8000-000000000001",
      chats(join(ix.root, "gh", ".gemini")),
    );
    assertEquals([gh.env, gh.note], [{ GEMINI_CLI_HOME: join(ix.root, "gh") }, null]);
    // No folder `.gemini` above it: no GEMINI_CLI_HOME reaches it.
    const bare = refused(
      "gemini",
      "763fc74b-0000-4000-8000-000000000002",
      chats(join(ix.root, "stores", "gemini")),
    );
    assertStringIncludes(bare.message, "Gemini CLI would not find this session: its store (");
    assertStringIncludes(
      bare.hint ?? "",
      `once the store is back under ${join(ix.env.home, ".gemini", "tmp")}, 'cd ${ix.root} && ` +
        `gemini --resume 763fc74b-0000-4000-8000-000000000002' reopens it`,
    );
    const db = join(ix.root, "oc", "opencode", "opencode.db");
    assertEquals(at("opencode", "ses_dd74000000000000000001", db).env, { OPENCODE_DB: db });
    // Where opencode opens its database as is: nothing to add.
    const own = join(
      ix.env.get("XDG_DATA_HOME") || join(ix.env.home, ".local", "share"),
      "opencode",
      "opencode.db",
    );
    assertEquals(at("opencode", "ses_dd74000000000000000002", own).env, undefined);
    const mirror = refused(
      "claude",
      "aaaaaaaa-0000-4000-8000-000000000003",
      join(ix.root, "claudeC", "mirror", "-w-app", "x.jsonl"),
    );
    assertStringIncludes(
      mirror.message,
      "projects, or the same under another CLAUDE_CONFIG_DIR)",
    );
    assertStringIncludes(mirror.hint ?? "", "'deja handoff --to <harness> aaaaaaaa'");
  } finally {
    ix.cleanup();
  }
});
