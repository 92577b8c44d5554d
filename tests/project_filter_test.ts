/**
 * New user, 2026-12: `--project '~/proj/x'` (the form deja itself prints, quoted so the
 * shell leaves `~` alone) matched nothing in search, last and `view --out`, and
 * `--project 'C:/Users/...'` missed a project indexed as `C:\Users\...`. Every command
 * that takes `--project` reads it through one rule (lib/project_path.ts).
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { join } from "node:path";
import { indexSessions } from "./_memory.ts";
import { runMain, withVars } from "./_cli_io.ts";
import { tempDir } from "./_tmp.ts";

/** The home `~/...` names: a temp dir of this test (nothing outside it is read). */
const HOME = tempDir("deja-project-home-");

async function fixture() {
  const ix = await indexSessions([
    {
      id: "11110000-1111-4111-8111-111111111111",
      cwd: `${HOME}/proj/crush-k3s`,
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "deploy the kubectl manifest" }, {
        bash: "kubectl apply -f k3s.yaml",
        out: "ok",
      }],
    },
    {
      id: "22220000-2222-4222-8222-222222222222",
      cwd: "C:\\Users\\user\\Documents\\IDAHO-VAULT",
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "tidy the kubectl notes in the vault" }, {
        bash: "kubectl get pods",
        out: "ok",
      }],
    },
  ]);
  // The sessions' home is HOME (not the index's temp home): `~/...` expands against the env's home.
  const env = withVars({ ...ix.env, home: HOME }, { DEJA_NO_REFRESH: "1", HOME });
  return { ix, env };
}

const KINDS = [
  ["~/proj/crush-k3s", "crush-k3s"],
  ["C:/Users/user/Documents/IDAHO-VAULT", "IDAHO-VAULT"],
  ["C:\\Users\\user\\Documents\\IDAHO-VAULT", "IDAHO-VAULT"],
  ["c:/users/user/documents/idaho-vault", "IDAHO-VAULT"],
];

Deno.test("--project takes ~/... and either slash form of a Windows path in search, last, how and forget", async () => {
  const { ix, env } = await fixture();
  try {
    for (const [project, shown] of KINDS) {
      const search = await runMain(env, ["kubectl", "--project", project, "--json"]);
      assertEquals(search.code, 0, `search --project ${project}: ${search.err}`);
      assertStringIncludes(search.out, shown);
      const last = await runMain(env, ["last", "--project", project, "--json"]);
      assertEquals(last.code, 0, `last --project ${project}: ${last.err}`);
      assertEquals(JSON.parse(last.out).sessions.length, 1, `last --project ${project}`);
      const how = await runMain(env, ["how", "kubectl", "--project", project, "--json"]);
      assertEquals(how.code, 0, `how --project ${project}: ${how.err}`);
      const forget = await runMain(env, ["forget", "--project", project, "--dry-run", "--json"]);
      assertEquals(forget.code, 0, `forget --project ${project}: ${forget.err}`);
      assertStringIncludes(forget.out, shown);
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("view --out --project takes ~/... and a Windows path with forward slashes", async () => {
  const { ix, env } = await fixture();
  try {
    for (const [i, [project]] of KINDS.entries()) {
      const out = join(ix.root, `out${i}`);
      const r = await runMain(env, ["view", "--out", out, "--project", project]);
      assertEquals(r.code, 0, `view --out --project ${project}: ${r.err}`);
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("--project ., ../x and ./x are read against the current directory; a bare name is text (trial 103 F3)", async () => {
  // Trial 103 F3: `deja last --project .` in a project's folder said "no session in the
  // index matches in project ." (the text `.` looked for in the paths), exit 1.
  const { ix, env } = await fixture();
  const other = `${HOME}/proj/other`;
  try {
    for (
      const [project, cwd] of [
        [".", `${HOME}/proj/crush-k3s`],
        ["./", `${HOME}/proj/crush-k3s`],
        ["../crush-k3s", other],
        ["./crush-k3s", `${HOME}/proj`],
        ["..", `${HOME}/proj/crush-k3s/src`],
      ]
    ) {
      const last = await runMain(env, ["last", "--project", project, "--json"], "", cwd);
      assertEquals(last.code, 0, `last --project ${project} in ${cwd}: ${last.err}`);
      assertEquals(JSON.parse(last.out).sessions.length, 1, `last --project ${project}`);
      const search = await runMain(env, ["kubectl", "--project", project, "--json"], "", cwd);
      assertEquals(search.code, 0, `search --project ${project} in ${cwd}: ${search.err}`);
      assertStringIncludes(search.out, "crush-k3s");
    }
    // Elsewhere, `.` is that folder, and the message names it as a path.
    const none = await runMain(env, ["last", "--project", "."], "", other);
    assertEquals(none.code, 1, none.err);
    assertStringIncludes(none.err, `in project ${other}`);
    // A bare name keeps its meaning: text anywhere in the path, wherever deja runs.
    const bare = await runMain(env, ["last", "--project", "crush-k3s", "--json"], "", other);
    assertEquals(JSON.parse(bare.out).sessions.length, 1, bare.err);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a directory given to --project names it and the projects under it, not a sibling that starts alike (trial 105 F1)", async () => {
  // Trial 105 F1: `--project .` in proj/app took in proj/application for last, search, how, ctx
  // and blame; `how` then counted 5 sessions where its own "In <project>" said 2.
  const root = tempDir("deja-project-sib-");
  const ix = await indexSessions(
    [
      ["aaaa0000-0000-4000-8000-000000000105", `${root}/proj/app`],
      ["bbbb0000-0000-4000-8000-000000000105", `${root}/proj/app/sub`],
      ["cccc0000-0000-4000-8000-000000000105", `${root}/proj/application`],
    ].map(([id, cwd], i) => ({
      id,
      cwd,
      start: `2026-11-0${i + 1}T10:00:00Z`,
      turns: [{ user: "run the quokka build" }, { bash: "make quokka", out: "built", exit: 0 }],
    })),
  );
  const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
  try {
    const want = ["aaaa0000", "bbbb0000"];
    for (const [project, cwd] of [[".", `${root}/proj/app`], [`${root}/proj/app/`, root]]) {
      const last = await runMain(env, ["last", "--project", project, "--json"], "", cwd);
      const ids = JSON.parse(last.out).sessions.map((s: { id: string }) => s.id.slice(0, 8));
      assertEquals(ids.sort(), want, `last --project ${project}: ${last.err}`);
      const search = await runMain(env, ["quokka", "--project", project, "--json"], "", cwd);
      const hits = JSON.parse(search.out).results.map((s: { id: string }) => s.id.slice(0, 8));
      assertEquals(hits.sort(), want, `search --project ${project}`);
      const how = await runMain(env, ["how", "make", "--project", project, "--json"], "", cwd);
      assertEquals(JSON.parse(how.out).commands[0].sessions, 2, how.out);
    }
    // A bare name is still text anywhere in the path.
    const bare = await runMain(env, ["last", "--project", "app", "--json"], "", root);
    assertEquals(JSON.parse(bare.out).sessions.length, 3, bare.err);
  } finally {
    ix.cleanup();
  }
});
