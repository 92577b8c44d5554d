/**
 * A store in a folder deja may not open (permission denied) is named as unreadable, with the
 * permission hint, by `deja index`, `deja sources` and `deja doctor` alike (trial 127 F6: aider's
 * history in an unreadable folder was "up to date" for `deja index`, and `deja sources` called it
 * "absent" and "unreadable" at once).
 *
 * Root reads every folder whatever its mode: as root, deja runs here without the capabilities
 * that let it (`capsh --drop`), as the trial did.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { uid } from "../core/runtime.ts";
import { exactly, FROM_SOURCE, hermeticEnv } from "./_env.ts";
import { runWith } from "./_cli_io.ts";
import { removeTemp, tempDir } from "./_tmp.ts";
import { listProjects, tinyStore, tinyVars } from "./_crush_tiny.ts";

const NAME = ".aider.chat.history.md";
const HINT = "deja cannot read it: check its permissions for the user running deja";

const asRoot = uid() === 0;
const capsh = asRoot && spawnSync("capsh", ["--help"], { encoding: "utf8" }).status === 0;

/** Runs deja as a user whom a folder's mode binds (root without its capabilities). */
function runDenied(
  root: string,
  args: string[],
  vars: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  if (!asRoot) return runWith(args, vars);
  const deja = [...FROM_SOURCE, ...args];
  const argv = [
    "capsh",
    "--drop=cap_dac_override,cap_dac_read_search",
    "--",
    "-c",
    'exec "$0" "$@"',
    ...deja,
  ];
  const r = spawnSync(...exactly(argv, hermeticEnv(root, vars)), { encoding: "utf8", cwd: root });
  return Promise.resolve({ code: r.status ?? 2, out: r.stdout, err: r.stderr });
}

Deno.test({
  name:
    "aider's history in a folder deja may not open is named unreadable by index, sources and doctor",
  ignore: asRoot && !capsh,
  fn: async () => {
    const dir = tempDir("deja-unreadroot-");
    chmodSync(dir, 0o755);
    const aider = join(dir, "aider");
    try {
      mkdirSync(join(dir, "home"), { recursive: true });
      mkdirSync(aider);
      const history = join(aider, NAME);
      writeFileSync(
        history,
        "# aider chat started at 2026-11-20 09:15:00\n\n#### fix the quokkaparser  \n\nan answer\n",
      );
      const vars = {
        HOME: join(dir, "home"),
        DEJA_HOME: join(dir, "deja"),
        DEJA_AIDER_ROOT: aider,
        NO_COLOR: "1",
        TZ: "UTC",
      };
      assertEquals((await runWith(["index", "--quiet"], vars)).code, 0);
      chmodSync(aider, 0o000);
      try {
        const idx = await runDenied(dir, ["index"], vars);
        assertEquals(idx.code, 2, idx.out + idx.err); // its one store failed
        const all = idx.out + idx.err;
        assertStringIncludes(all, `error: ${history}: EACCES: permission denied`);
        assertStringIncludes(all, HINT);
        const src = await runDenied(dir, ["sources", "--json"], vars);
        assertEquals(src.code, 0, src.err);
        const h = JSON.parse(src.out).harnesses.find((x: { harness: string }) =>
          x.harness === "aider"
        );
        assertEquals(h.unreadable, 1, JSON.stringify(h));
        assertEquals(h.roots, [{ path: history, exists: false, unreadable: true }]);
        assertStringIncludes(h.last_error, `${history}: cannot be read now: EACCES`);
        assertStringIncludes(h.last_error, HINT);
        const text = (await runDenied(dir, ["sources"], vars)).out;
        const line = text.split("\n").find((l) => l.startsWith("aider")) ?? "";
        assertStringIncludes(line, `unreadable ${history}`);
        assert(!line.includes("absent"), line);
        const doc = await runDenied(dir, ["doctor"], vars);
        assertStringIncludes(doc.out + doc.err, `${history}: cannot be read now: EACCES`);
      } finally {
        chmodSync(aider, 0o755);
      }
    } finally {
      removeTemp(dir);
    }
  },
});

// Trial 127 F7: Crush's folder of projects made unreadable gave four permission errors under
// senpi, which only looks for its folder in every project other harnesses know, and Crush was
// "up to date".
Deno.test({
  name: "a folder of Crush projects deja may not open is named under Crush, not senpi",
  ignore: asRoot && !capsh,
  fn: async () => {
    const dir = tempDir("deja-unreadcrush-");
    chmodSync(dir, 0o755);
    const projects = join(dir, "projects");
    const app = join(projects, "app");
    const db = join(app, ".crush", "crush.db");
    try {
      mkdirSync(join(dir, "home"), { recursive: true });
      mkdirSync(join(dir, "crush"), { recursive: true });
      mkdirSync(join(app, ".crush"), { recursive: true });
      tinyStore(db, ["a", "b"]);
      listProjects(dir, [app]);
      const vars = { ...tinyVars(dir), NO_COLOR: "1" };
      const first = await runWith(["index", "--quiet"], vars);
      assertEquals(first.code, 0, first.err);
      chmodSync(projects, 0o000);
      try {
        const idx = await runDenied(dir, ["index"], vars);
        const all = idx.out + idx.err;
        assertEquals(idx.code, 2, all); // its one store failed
        // Named under Crush's own line.
        const lines = all.split("\n");
        const at = lines.findIndex((l) => l.startsWith("crush "));
        assertStringIncludes(lines[at + 1] ?? "", `error: ${db}: EACCES: permission denied`);
        assertStringIncludes(all, HINT);
        assert(!all.includes("senpi"), all);
        assert(!all.includes(".senpi"), all);
        const src = await runDenied(dir, ["sources", "--json"], vars);
        const by = (id: string) =>
          JSON.parse(src.out).harnesses.find((x: { harness: string }) => x.harness === id);
        assertEquals([by("crush").unreadable, by("crush").errors], [1, 0]);
        assertEquals([by("senpi").unreadable, by("senpi").errors], [0, 0]);
      } finally {
        chmodSync(projects, 0o755);
      }
    } finally {
      removeTemp(dir);
    }
  },
});
