/**
 * A remote's sessions in the answers that come unasked (hooks) and in the
 * hints: `deja remote policy <name> --no-auto` keeps them out of every hook as
 * it does out of MCP, and sessions left out by `--from` are not counted as
 * "throwaway or excluded". Real rsync, tests/remote/fake_ssh.sh for ssh.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { HAVE_RSYNC, SVC, world, writeClaude } from "./_remote.ts";

/** Syncs a remote holding SVC, mapped to /home/me/svc here. */
async function synced() {
  const w = world();
  writeClaude(w.remoteHome, SVC);
  const add = await w.run([
    "remote",
    "add",
    "devbox",
    "devbox",
    "--path-map",
    "/w/svc=/home/me/svc",
  ]);
  assertEquals(add.code, 0, add.err);
  const sync = await w.run(["remote", "sync"]);
  assertEquals(sync.code, 0, sync.err);
  return w;
}

Deno.test({
  name: "hooks leave out a remote whose policy is --no-auto (commands, edits, session start)",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = await synced();
    try {
      const base = { session_id: "live-1", cwd: "/home/me/svc" };
      const events: Array<[string, Record<string, unknown>]> = [
        ["hook-tool", { ...base, tool_name: "Bash", tool_input: { command: "node server.js" } }],
        ["hook-tool", {
          ...base,
          tool_name: "Edit",
          tool_input: { file_path: "/home/me/svc/server.js" },
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
      assertStringIncludes((await w.run(["blame", "/home/me/svc/server.js"])).out, "devbox:");
    } finally {
      w.cleanup();
    }
  },
});

Deno.test({
  name: "sessions --from leaves out are not counted as throwaway or excluded in the hint",
  ignore: !HAVE_RSYNC,
  async fn() {
    const w = await synced();
    try {
      for (
        const args of [
          ["last", "--from", "local"],
          ["blame", "/home/me/svc/server.js", "--from", "local"],
          ["search", "gizmotron", "--from", "local"],
          ["how", "node", "--from", "local"],
        ]
      ) {
        const r = await w.run(args);
        assert(!/left out/.test(r.err), `deja ${args.join(" ")}: ${r.err}`);
      }
      const junk = await w.json(["last", "--from", "local"]);
      assertEquals(junk.hidden ?? 0, 0);
    } finally {
      w.cleanup();
    }
  },
});
