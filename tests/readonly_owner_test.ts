/**
 * An index its owner made read-only (`chmod -w`, the folder or the file alone) is read as it
 * is and left read-only (trial 32, as a user who is not root: every read command failed with
 * "attempt to write a readonly database" and a hint to rebuild, and any command that opened
 * the index made the folder and the file writable again, unsaid). Root writes whatever the
 * modes say, so as root the compiled binary runs as an unprivileged user through setpriv.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exactly } from "./_env.ts";
import { uid } from "../core/runtime.ts";
import { binary } from "./_binary.ts";
import { tempDir } from "./_tmp.ts";
import { claudeLine } from "./_memory.ts";
import { Store } from "../lib/store.ts";

const canDropPrivileges = uid() !== 0 ||
  spawnSync("setpriv", ["--version"], { encoding: "utf8" }).status === 0;

const SID = "6b6b6b6b-0000-4000-8000-000000000006";

Deno.test({
  name: "an index made read-only by its owner is searched as it is and stays read-only",
  ignore: !canDropPrivileges,
  fn: () => {
    const base = tempDir("deja-ro-owner-");
    chmodSync(base, 0o755);
    const projects = join(base, "projects");
    mkdirSync(join(projects, "-w-ro"), { recursive: true });
    writeFileSync(
      join(projects, "-w-ro", `${SID}.jsonl`),
      claudeLine(0, "the snarkwidget cache evicts too early", SID) + "\n",
    );
    for (const d of [projects, join(projects, "-w-ro")]) chmodSync(d, 0o755);
    const bin = binary();
    chmodSync(join(bin, ".."), 0o755);
    // Open to everyone: deja makes DEJA_HOME there itself, as the user it runs as.
    const home = join(base, "home");
    mkdirSync(home, { mode: 0o777 });
    chmodSync(home, 0o777);
    const deja = join(home, "deja");
    const env = { HOME: home, DEJA_HOME: deja, DEJA_CLAUDE_ROOT: projects, NO_COLOR: "1" };
    const run = (...args: string[]) =>
      spawnSync(
        ...exactly(
          uid() === 0
            ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", bin, ...args]
            : [bin, ...args],
          env,
        ),
        { encoding: "utf8", cwd: base },
      );
    const built = run("index");
    assertEquals(built.status, 0, built.stderr);
    // A session written since: a refresh would read it, and cannot.
    writeFileSync(
      join(projects, "-w-ro", "6c6c6c6c-0000-4000-8000-000000000007.jsonl"),
      claudeLine(0, "a later snarkwidget question", "6c6c6c6c-0000-4000-8000-000000000007") +
        "\n",
    );
    const index = join(deja, "index.db");
    const mode = (p: string) => statSync(p).mode & 0o777;
    // The file alone, then the folder too.
    for (const folder of [false, true]) {
      chmodSync(index, 0o400);
      if (folder) chmodSync(deja, 0o500);
      try {
        const found = run("snarkwidget");
        assertEquals(found.status, 0, found.stderr);
        assertStringIncludes(found.stdout, "snarkwidget");
        assertStringIncludes(found.stderr, "read-only");
        assert(!found.stderr.includes("--rebuild"), found.stderr);
        const shown = run("show", SID.slice(0, 8), "--no-refresh");
        assertEquals(shown.status, 0, shown.stderr);
        assertStringIncludes(shown.stdout, "snarkwidget");
        const idx = run("index");
        assertEquals(idx.status, 2, idx.stderr);
        assertStringIncludes(
          idx.stderr,
          folder ? "the index's folder may not be written" : "the index file is read-only",
        );
        // A forget that cannot remove the session records nothing (trial 33: its tombstone was
        // written, and the next writable index removed the session).
        const forget = run("forget", "--session", SID.slice(0, 8));
        assertEquals(forget.status, 2, forget.stderr);
        assert(!existsSync(join(deja, "tombstones.jsonl")), "no tombstone written");
        const doc = run("doctor");
        assertStringIncludes(doc.stderr, `index (its ${folder ? "folder" : "file"} is read-only)`);
        // Left as its owner made it, and nothing made beside it (trial 33: a reader's `-shm`,
        // as read-only as the file, failed every command once the file was writable again).
        assertEquals(mode(index), 0o400);
        if (folder) assertEquals(mode(deja), 0o500);
        assert(!existsSync(`${index}-shm`) && !existsSync(`${index}-wal`));
      } finally {
        chmodSync(deja, 0o700);
      }
    }
    chmodSync(index, 0o600);
    assertEquals(run("snarkwidget").status, 0);
    // A `-shm` left read-only beside a writable index is named, with the way out.
    writeFileSync(`${index}-shm`, new Uint8Array(32768));
    if (uid() === 0) spawnSync("chown", ["65534:65534", `${index}-shm`]);
    chmodSync(`${index}-shm`, 0o400);
    // Read while the index is up to date (its stat manifest vouches for it); a session
    // written since needs a write, which names the file.
    assertEquals(run("snarkwidget").status, 0);
    writeFileSync(
      join(projects, "-w-ro", "7c6c6c6c-0000-4000-8000-000000000007.jsonl"),
      claudeLine(0, "another snarkwidget question", "7c6c6c6c-0000-4000-8000-000000000007") +
        "\n",
    );
    const stuck = run("snarkwidget");
    assertEquals(stuck.status, 2, stuck.stderr);
    assertStringIncludes(stuck.stderr, "index.db-shm may not be written");
  },
});

Deno.test("opening the index takes group and other permissions away and gives none back", () => {
  const dir = join(tempDir("deja-ro-modes-"), "deja");
  const path = join(dir, "index.db");
  Store.open(path, { create: true }).close();
  const mode = (p: string) => statSync(p).mode & 0o777;
  assertEquals([mode(dir), mode(path)], [0o700, 0o600]);
  // Opened by its owner: others lose what they had, the owner gains nothing (trial 32: a
  // folder made read-only became writable again).
  chmodSync(dir, 0o555);
  chmodSync(path, 0o644);
  try {
    Store.open(path).close();
    assertEquals([mode(dir), mode(path)], [0o500, 0o600]);
  } finally {
    chmodSync(dir, 0o700);
  }
});
