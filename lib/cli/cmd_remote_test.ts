import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../tests/_assert.ts";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { captureIO } from "../../tests/_cli_io.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { DejaError } from "../../core/errors.ts";
import { csi } from "./output.ts";
import {
  addRemote,
  parseRemote,
  remoteCmd,
  remoteText,
  removeRemote,
  setPolicy,
  syncRemotes,
} from "./cmd_remote.ts";
import { tempDir } from "../../tests/_tmp.ts";

/** A data dir of its own (remotes.json lives there), removed after. */
function scratch() {
  const root = tempDir("deja-remote-cmd-");
  const env = testEnv(join(root, "home"), { DEJA_HOME: join(root, "deja") });
  return { env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const cmd = (positionals: string[], values: Record<string, string | boolean | string[]> = {}) => ({
  values,
  positionals,
});

Deno.test("remote parses each subcommand into its request and refuses what it cannot do", () => {
  assertEquals(
    parseRemote(cmd(["add", "devbox", "me@devbox:2222"], { "path-map": ["/srv/app=/w/app"] })),
    {
      sub: "add",
      json: false,
      name: "devbox",
      host: "me@devbox",
      port: 2222,
      pathMaps: [{ remote: "/srv/app", local: "/w/app" }],
    },
  );
  assertEquals(parseRemote(cmd([])), { sub: "list", json: false });
  assertEquals(parseRemote(cmd(["rm", "devbox"], { purge: true })), {
    sub: "remove",
    json: false,
    name: "devbox",
    purge: true,
  });
  assertEquals(parseRemote(cmd(["sync"])), { sub: "sync", json: false, names: [] });
  assertEquals(parseRemote(cmd(["policy", "devbox"], { "no-auto": true })), {
    sub: "policy",
    json: false,
    name: "devbox",
    noAuto: true,
  });
  for (
    const bad of [
      cmd(["add", "devbox"]),
      cmd(["add", "Dev Box", "me@devbox"]),
      cmd(["add", "devbox", "me@devbox:99999"]),
      cmd(["add", "devbox", "me@devbox"], { "path-map": ["relative=/w"] }),
      cmd(["policy", "devbox"]),
      cmd(["policy", "devbox"], { auto: true, "no-auto": true }),
      cmd(["frobnicate"]),
    ]
  ) {
    assertThrows(() => parseRemote(bad), DejaError);
  }
});

Deno.test("remote's run adds, sets the policy of and removes a remote in remotes.json", () => {
  const s = scratch();
  try {
    const add = parseRemote(cmd(["add", "devbox", "me@devbox"]));
    assert(add.sub === "add");
    assertEquals(addRemote(s.env, add), { name: "devbox", host: "me@devbox", pathMaps: [] });
    assertThrows(() => addRemote(s.env, add), DejaError);
    assertEquals(
      setPolicy(s.env, { sub: "policy", json: false, name: "devbox", noAuto: true }).noAuto,
      true,
    );
    const rm = { sub: "remove" as const, json: false, name: "devbox", purge: false };
    assertEquals(removeRemote(s.env, rm), {
      sub: "remove",
      removed: "devbox",
      purged: false,
      sessions: 0,
    });
    assertThrows(() => removeRemote(s.env, rm), DejaError);
  } finally {
    s.cleanup();
  }
});

Deno.test("remote list prints colour on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const s = scratch();
  try {
    const none = captureIO(s.env, false);
    assertEquals(await remoteCmd.run(cmd(["list"]), none.io), 0);
    assertEquals(
      none.out(),
      "no remotes; add one with 'deja remote add <name> <user@host>[:port]'\n",
    );

    const added = captureIO(s.env, false);
    const add = cmd(["add", "devbox", "me@devbox:2222"], { "path-map": ["/srv/app=/w/app"] });
    assertEquals(await remoteCmd.run(add, added.io), 0);
    assertEquals(
      added.out(),
      "added devbox (me@devbox:2222); run 'deja remote sync devbox' to copy its history\n",
    );

    const tty = captureIO(s.env, true);
    assertEquals(await remoteCmd.run(cmd(["list"]), tty.io), 0);
    assertStringIncludes(tty.out(), csi("1m") + "devbox");

    const pipe = captureIO(s.env, false);
    assertEquals(await remoteCmd.run(cmd(["list"]), pipe.io), 0);
    assertEquals(
      pipe.out(),
      "devbox       me@devbox:2222  0 sessions, never synced\n  /srv/app -> /w/app\n",
    );

    const json = captureIO(s.env, false);
    assertEquals(await remoteCmd.run(cmd(["list"], { json: true }), json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.remotes[0].name, doc.remotes[0].port, doc.remotes[0].last_sync], [
      "devbox",
      2222,
      null,
    ]);
  } finally {
    s.cleanup();
  }
});

Deno.test("remote sync's text keeps each remote's line and its warning or failure in order", () => {
  const base = {
    bytes: 2048,
    files: 3,
    roots: ["/h/.claude/projects"],
    discovery: "deja" as const,
    ms: 1500,
    home: "/h",
    looked: ["/h/.claude/projects"],
    stale: [],
    gone: [],
  };
  const writes = remoteText({
    sub: "sync",
    remotes: [
      { ...base, remote: "a", ok: true, sessions: 4, warning: "1 file unreadable" },
      { ...base, remote: "b", ok: false, sessions: 0, error: "ssh: timed out", hint: "check it" },
    ],
  }, captureIO(testEnv("/h"), false).io);
  assertEquals(writes, [
    { to: "out", text: "a: 3 files changed, 2.0 KiB received in 1.5 s; 4 sessions indexed\n" },
    { to: "err", text: "deja: a: 1 file unreadable\n" },
    { to: "err", text: "deja: b: ssh: timed out\nhint: check it\n" },
  ]);
});

Deno.test("remote's text counts one file and one session in the singular (trial 112 F10)", () => {
  const io = captureIO(testEnv("/h"), false).io;
  const sync = remoteText({
    sub: "sync",
    remotes: [{
      remote: "a",
      ok: true,
      bytes: 1024,
      files: 1,
      roots: ["/h/.codex"],
      discovery: "registry",
      ms: 1000,
      home: "/h",
      looked: ["/h/.codex"],
      stale: [],
      gone: [],
      sessions: 1,
    }],
  }, io);
  assertEquals(sync, [
    { to: "out", text: "a: 1 file changed, 1.0 KiB received in 1.0 s; 1 session indexed\n" },
  ]);
  const list = remoteText({
    sub: "list",
    remotes: [{
      name: "a",
      host: "me@a",
      port: null,
      path_maps: [],
      no_auto: false,
      last_sync: null,
      lag_ms: null,
      last_error: null,
      last_bytes: null,
      last_ms: null,
      discovery: null,
      roots: [],
      stale_roots: [],
      gone_stores: [],
      gone_sessions: 0,
      sessions: 1,
    }],
  }, io);
  assertStringIncludes(list[0].text, "me@a  1 session, never synced");
  const gone = remoteText({ sub: "remove", removed: "a", purged: true, sessions: 1 }, io);
  assertEquals(gone[0].text, "removed a, its mirror and 1 session\n");
});

Deno.test("remote names a refused name or target as typed, its escapes written out (trial 112 F10)", async () => {
  // It said "'n' cannot name a remote" of `n\x1b[31m`: the terminal writer took the escape out.
  const bad = (args: string[]) =>
    (assertThrows(() => parseRemote(cmd(args)), DejaError) as DejaError).message;
  assertEquals(bad(["add", "n\x1b[31m", "me@box"]), '"n\\u001b[31m" cannot name a remote');
  assertEquals(bad(["add", "dev\u202ebox", "me@box"]), '"dev\\u202ebox" cannot name a remote');
  assertEquals(bad(["add", "box", "me@b\nox"]), '"me@b\\nox" is not an SSH target');
  // Printable text keeps its plain quotes.
  assertEquals(bad(["add", "Dev Box", "me@box"]), "'Dev Box' cannot name a remote");
  const s = scratch();
  try {
    const e = await assertRejects(() => syncRemotes(s.env, ["x\x1b]0;t\x07"]), DejaError);
    assertStringIncludes(e.message, 'no remote named "x\\u001b]0;t\\u0007"');
  } finally {
    s.cleanup();
  }
});

Deno.test("remote sync with no remote, or of an unknown one, is an error", async () => {
  const s = scratch();
  try {
    await assertRejects(() => syncRemotes(s.env, []), DejaError);
    const e = await assertRejects(
      () => remoteCmd.run(cmd(["sync", "nowhere"]), captureIO(s.env, false).io),
      DejaError,
    );
    assertStringIncludes(e.message, "no remote named 'nowhere'");
  } finally {
    s.cleanup();
  }
});
