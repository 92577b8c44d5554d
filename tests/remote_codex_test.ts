/**
 * A remote's Codex sessions and prompt histories, mirrored: the store names each session by
 * the harness's own id, the index by `<remote>:<id>`, and what `resume` and `show` tell from
 * the store (a rollout named with another id is a copy; a prompt history reopens nothing) is
 * told by the harness's id. Real rsync, tests/remote/fake_ssh.sh for ssh.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FAKE_SSH, HAVE_RSYNC, world } from "./_remote.ts";
import { REPO } from "./_fixture.ts";

const FIXTURE = join(REPO, "fixtures", "registry", "codex");
/** An ordinary rollout of the registry fixture (cwd /work/demo). */
const OWN = "019fb79d-cd00-7a11-8a11-0000000000a1";
const OWN_FILE = `sessions/2026/07/31/rollout-2026-07-31T12-00-00-${OWN}.jsonl`;
/** A user's fork whose parent has no rollout of its own: the parent is read from the copy. */
const FORK = "019fb7a2-60e0-7e11-8e11-0000000000e1";
const PARENT = "019fb790-0000-7000-8000-0000000000f0";

Deno.test({
  name:
    "resume of a remote's Codex session gives codex resume over ssh; only a copy or a prompt history is refused (trial 112 F2)",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = world();
    try {
      const codex = join(w.remoteHome, ".codex");
      const day = join(codex, "sessions", "2026", "07", "31");
      mkdirSync(day, { recursive: true });
      writeFileSync(join(codex, OWN_FILE), readFileSync(join(FIXTURE, OWN_FILE)));
      // The fixture's spawned subagent made a user's fork (no parent), of a parent not on disk.
      const lines = readFileSync(
        join(FIXTURE, `archived_sessions/rollout-2026-07-31T12-05-00-${FORK}.jsonl`),
        "utf8",
      ).replaceAll(OWN, PARENT).split("\n");
      const head = JSON.parse(lines[0]);
      head.payload.source = "cli";
      lines[0] = JSON.stringify(head);
      writeFileSync(join(day, `rollout-2026-07-31T12-05-00-${FORK}.jsonl`), lines.join("\n"));
      // opencode's prompt history: its session is `prompt-history`, which nothing reopens.
      const state = join(w.remoteHome, ".local", "state", "opencode");
      mkdirSync(state, { recursive: true });
      writeFileSync(
        join(state, "prompt-history.jsonl"),
        JSON.stringify({ input: "tidy the ledger export", parts: [], mode: "normal" }) + "\n",
      );
      assertEquals((await w.run(["remote", "add", "devbox", "me@devbox:2222"])).code, 0);
      const sync = await w.run(["remote", "sync"]);
      assertEquals(sync.code, 0, sync.err);

      // Its own rollout: reopened there (it said "not on disk ... another session's file").
      const r = await w.run(["resume", "devbox:019fb79d"]);
      assertEquals(r.code, 0, r.err);
      assertEquals(
        r.out,
        `${FAKE_SSH} -t -p 2222 me@devbox 'cd /work/demo && codex resume ${OWN}'\n`,
      );
      // The fork is its file's own session; the parent read from the copy inside it is not.
      const fork = await w.run(["resume", "devbox:019fb7a2"]);
      assertEquals(fork.code, 0, fork.err);
      assertStringIncludes(fork.out, `codex resume ${FORK}'`);
      assertEquals((await w.json(["show", "devbox:019fb7a2"])).copied_in, null);
      const parent = await w.run(["resume", "devbox:019fb790"]);
      assertEquals(parent.code, 2, parent.out);
      assertStringIncludes(
        parent.err,
        `another session's file (rollout-2026-07-31T12-05-00-${FORK}`,
      );
      assertEquals((await w.json(["show", "devbox:019fb790"])).copied_in, `devbox:${FORK}`);
      // A remote's prompt history is refused as a local one is, not sent to ssh.
      const ph = await w.run(["resume", "devbox:prompt-history"]);
      assertEquals(ph.code, 2, ph.out);
      assertStringIncludes(ph.err, "prompt history (prompts typed, kept apart from its sessions)");
    } finally {
      w.cleanup();
    }
  },
});
