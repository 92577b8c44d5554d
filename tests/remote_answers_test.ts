/**
 * A remote's sessions in the answers: `deja remote policy <name> --no-auto`
 * keeps them out of every hook as it does out of MCP; sessions left out by
 * `--from` are not counted as "throwaway or excluded"; `deja resume` of a
 * remote's session says where it ran and gives the ssh command that reopens
 * it there. Real rsync, tests/remote/fake_ssh.sh for ssh.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { SourcesData } from "../lib/cli/cmd_sources.ts";
import { FAKE_SSH, HAVE_RSYNC, OTHER, SVC, world, writeClaude } from "./_remote.ts";

/** Syncs a remote holding SVC and OTHER, its /w/svc mapped to `<root>/clone/svc` here. */
async function synced() {
  const w = world();
  const clone = join(w.root, "clone", "svc");
  writeClaude(w.remoteHome, SVC);
  writeClaude(w.remoteHome, OTHER);
  writeClaude(w.home, { ...OTHER, id: "10ca1000-0000-4000-8000-000000000001", cwd: "/w/here" });
  const add = await w.run([
    "remote",
    "add",
    "devbox",
    "me@devbox:2222",
    "--path-map",
    `/w/svc=${clone}`,
  ]);
  assertEquals(add.code, 0, add.err);
  const sync = await w.run(["remote", "sync"]);
  assertEquals(sync.code, 0, sync.err);
  return { w, clone };
}

Deno.test({
  name: "hooks leave out a remote whose policy is --no-auto (commands, edits, session start)",
  ignore: !HAVE_RSYNC,
  async fn() {
    const { w, clone } = await synced();
    try {
      const base = { cwd: clone };
      const events: Array<[string, Record<string, unknown>]> = [
        ["hook-tool", { ...base, tool_name: "Bash", tool_input: { command: "node server.js" } }],
        ["hook-tool", {
          ...base,
          tool_name: "Edit",
          tool_input: { file_path: `${clone}/server.js` },
        }],
        ["hook-context", { ...base, hook_event_name: "SessionStart", source: "startup" }],
      ];
      const said = async (name: string, ev: Record<string, unknown>, sid: string) =>
        (await w.run([name], {}, { stdin: JSON.stringify({ ...ev, session_id: sid }) })).out;
      // With the default policy the mapped remote session is recalled where the clone is.
      for (const [name, ev] of events) {
        const out = await said(name, ev, "before");
        assertStringIncludes(out, "deja-recall", `${name} ${JSON.stringify(ev.tool_input)}`);
      }
      assertEquals((await w.run(["remote", "policy", "devbox", "--no-auto"])).code, 0);
      for (const [name, ev] of events) {
        assertEquals(await said(name, ev, "after"), "", `${name} speaks of a --no-auto remote`);
      }
      // The CLI still shows it.
      assertStringIncludes((await w.run(["blame", `${clone}/server.js`, "--junk"])).out, "devbox:");
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name: "sessions --from leaves out are not counted as throwaway or excluded in the hint",
  ignore: !HAVE_RSYNC,
  async fn() {
    const { w, clone } = await synced();
    try {
      for (
        const args of [
          ["last", "--from", "local"],
          ["blame", `${clone}/server.js`, "--from", "local"],
          ["search", "gizmotron", "--from", "local"],
          ["how", "node", "--from", "local"],
        ]
      ) {
        const r = await w.run(args);
        assert(!/left out/.test(r.err), `deja ${args.join(" ")}: ${r.err}`);
      }
      assertEquals((await w.json(["last", "--from", "local"])).hidden ?? 0, 0);
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name: "resume of a remote's session says where it ran and gives the ssh command that reopens it",
  ignore: !HAVE_RSYNC,
  async fn() {
    const { w, clone } = await synced();
    try {
      const r = await w.run(["resume", `devbox:${OTHER.id.slice(0, 8)}`]);
      assertEquals(r.code, 0, r.err);
      // The world's ssh is the one DEJA_SSH names (a stand-in): resume uses it too.
      assertEquals(
        r.out,
        `${FAKE_SSH} -t -p 2222 me@devbox 'cd /srv/other && claude --resume ${OTHER.id}'\n`,
      );
      assertStringIncludes(r.err, "this session ran on devbox (me@devbox)");
      // A mapped project: its remote path is given back.
      const j = await w.json(["resume", `devbox:${SVC.id}`]);
      assertEquals(j.origin, "devbox");
      assertEquals(j.id, SVC.id);
      assertEquals(j.remote_cwd, "/w/svc");
      assertEquals(j.clone, null, "no clone on this machine yet");
      assertEquals(j.argv, [
        FAKE_SSH,
        "-t",
        "-p",
        "2222",
        "me@devbox",
        `cd /w/svc && claude --resume ${SVC.id}`,
      ]);
      // With the clone here, it is named, and handoff is the way to carry the work over.
      mkdirSync(clone, { recursive: true });
      const c = await w.run(["resume", `devbox:${SVC.id.slice(0, 8)}`]);
      assertEquals(c.code, 0, c.err);
      assertStringIncludes(c.out, `${FAKE_SSH} -t -p 2222 me@devbox`);
      assertStringIncludes(c.err, `cloned here (${clone})`);
      assertStringIncludes(c.err, "deja handoff");
      assertEquals((await w.json(["resume", `devbox:${SVC.id}`])).clone, clone);
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name: "sources counts a remote's stores under the remote, not under this machine's harness",
  ignore: !HAVE_RSYNC,
  async fn() {
    const { w } = await synced();
    try {
      assertEquals((await w.run(["index"])).code, 0);
      const j = await w.json(["sources"]) as unknown as SourcesData;
      const claude = j.harnesses.find((h) => h.harness === "claude")!;
      assertEquals([claude.indexed, claude.sessions], [1, 1], "only the local session");
      assertEquals(j.remotes.length, 1);
      assertEquals(j.remotes[0].remote, "devbox");
      assertEquals(j.remotes[0].sessions, 2);
      assertEquals(j.remotes[0].harnesses.map((h) => h.harness), ["claude"]);
      const text = (await w.run(["sources"])).out;
      assert(/^devbox \(remote\)\s+2 stores\s+2 sessions/m.test(text), text);
      assert(/^claude\s+1 store\s+1 session\s/m.test(text), text);
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name:
    "a remote's session is found by the id its harness gave it; a harness's name names no remote",
  ignore: !HAVE_RSYNC,
  async fn() {
    const { w } = await synced();
    try {
      // Trial 63: the full id, and claude:<prefix>, said "no session matches".
      for (const ref of [SVC.id, SVC.id.slice(0, 8), `claude:${SVC.id.slice(0, 8)}`]) {
        const j = await w.json(["show", ref]);
        assertEquals([j.id, j.origin], [`devbox:${SVC.id}`, "devbox"], ref);
      }
      // A local session of that id is still the one found first.
      const local = "10ca1000-0000-4000-8000-000000000001";
      assertEquals((await w.json(["show", local.slice(0, 8)])).id, local);
      const bad = await w.run(["remote", "add", "claude", "me@devbox:2222"]);
      assertEquals(bad.code, 2);
      assertStringIncludes(bad.err, "'claude' names a harness (claude)");
      const alias = await w.run(["remote", "add", "claude-code", "me@devbox:2222"]);
      assertEquals(alias.code, 2, alias.err);
    } finally {
      w.cleanup();
    }
  },
});
