import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { csi } from "./output.ts";
import { fixCmd, fixData, parseFix } from "./cmd_fix.ts";
import { fixAnswer } from "../mcp/answers.ts";
import { FRAME_PREAMBLE } from "../../core/frame.ts";

const ID = "f1c50000-1111-4222-8333-444455556666";
const ERROR = "Error: Cannot find module 'express'";
const OPTS = { limit: 3, junk: false };

function fixture() {
  return indexSessions([{
    id: ID,
    cwd: "/w/svc",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "the server does not start" },
      { bash: "node server.js", out: ERROR, exit: 1 },
      { bash: "npm install express", out: "added 60 packages", exit: 0 },
      { bash: "node server.js", out: "listening", exit: 0 },
    ],
  }]);
}

Deno.test("fix parses its text (or '-' for stdin) and --limit, and refuses no text", () => {
  assertEquals(parseFix({ values: {}, positionals: ["Error:", "boom"] }), {
    text: "Error: boom",
    limit: 3,
    junk: false,
    json: false,
  });
  assertEquals(parseFix({ values: { limit: "1" }, positionals: ["-"] }).text, null);
  assertThrows(() => parseFix({ values: {}, positionals: [" "] }), DejaError);
  assertThrows(() => parseFix({ values: { limit: "x" }, positionals: ["boom"] }), DejaError);
});

Deno.test("fix's run finds the command that followed the error where it did not come back", async () => {
  const ix = await fixture();
  try {
    const d = fixData(ix.store, ERROR, OPTS, { env: ix.env, cwd: "/" });
    assertEquals(d.status, "found");
    assertEquals(d.fixes[0].command, "npm install express");
    assert(ID.startsWith(d.fixes[0].examples[0].ref));
    // Another module: seen only in its general form, and said to be (trial 13).
    const koa = fixData(ix.store, "Error: Cannot find module 'koa'", OPTS, {
      env: ix.env,
      cwd: "/",
    });
    assertEquals([koa.status, koa.specific], ["found", false]);
    assertStringIncludes(koa.message, "but only with other names");
    assertEquals(
      fixData(ix.store, "Error: ENOSPC: no space left on device", OPTS, { env: ix.env, cwd: "/" })
        .status,
      "unseen",
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("fix prints colour on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  try {
    const tty = captureIO(ix.env, true);
    assertEquals(await fixCmd.run({ values: {}, positionals: [ERROR] }, tty.io), 0);
    assertStringIncludes(tty.out(), csi("1m") + "npm install express");

    const pipe = captureIO(ix.env, false, [], ERROR + "\n");
    assertEquals(await fixCmd.run({ values: {}, positionals: ["-"] }, pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assertStringIncludes(pipe.out(), "\n  npm install express\n");
    assertStringIncludes(pipe.out(), "    after node server.js failed in ");

    const json = captureIO(ix.env, false);
    assertEquals(await fixCmd.run({ values: { json: true }, positionals: [ERROR] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.status, doc.fixes[0].command], ["found", "npm install express"]);
    assertEquals(doc.fixes[0].examples[0].session, ID);

    // Another package's error: the command for this one first, then what ran (trial 14).
    const koa = captureIO(ix.env, false);
    const koaArgs = { values: {}, positionals: ["Error: Cannot find module 'koa'"] };
    assertEquals(await fixCmd.run(koaArgs, koa.io), 0);
    assertStringIncludes(
      koa.out(),
      "\n  npm install koa\n    for 'koa'; it ran as npm install express for 'express'\n",
    );
    const koaJson = captureIO(ix.env, false);
    await fixCmd.run({ ...koaArgs, values: { json: true } }, koaJson.io);
    assertEquals(JSON.parse(koaJson.out()).fixes[0].adapted.command, "npm install koa");
    const agent = fixAnswer(ix.store, "Error: Cannot find module 'koa'", {});
    assertStringIncludes(agent, "1. npm install koa (for 'koa'; it ran as npm install express");

    const never = captureIO(ix.env, false);
    const full = { values: {}, positionals: ["Error: ENOSPC: no space left on device"] };
    assertEquals(await fixCmd.run(full, never.io), 1);
    assertStringIncludes(never.out(), "that error was never seen");
  } finally {
    ix.cleanup();
  }
});

Deno.test("fix with nothing on stdin is an error", async () => {
  const ix = await fixture();
  try {
    const e = await assertRejects(
      () => fixCmd.run({ values: {}, positionals: ["-"] }, captureIO(ix.env, false, [], "").io),
      DejaError,
    );
    assertStringIncludes(e.message, "no error text given");
  } finally {
    ix.cleanup();
  }
});

Deno.test("fix names the session it saw the error in when nothing fixed it (text, JSON, MCP)", async () => {
  const id = "9e110000-1111-4222-8333-444455556666";
  const ix = await indexSessions([{
    id,
    cwd: "/w/gh",
    start: "2026-11-02T10:00:00Z",
    turns: [
      { user: "open a pull request" },
      { bash: "gh pr create", out: "bash: gh: command not found", exit: 127 },
    ],
  }]);
  try {
    const text = "gh: command not found";
    const pipe = captureIO(ix.env, false);
    assertEquals(await fixCmd.run({ values: {}, positionals: [text] }, pipe.io), 1);
    assertStringIncludes(pipe.out(), `seen in 1 session (${id.slice(0, 8)}), but nothing`);
    assertStringIncludes(pipe.out(), `deja show ${id.slice(0, 8)} to read it`);
    const json = captureIO(ix.env, false);
    await fixCmd.run({ values: { json: true }, positionals: [text] }, json.io);
    const doc = JSON.parse(json.out());
    assertEquals(doc.status, "no_fix");
    assertEquals(doc.seen_in, [
      { harness: "claude", session: id, short_id: id.slice(0, 8), specific: true },
    ]);
    const mcp = fixAnswer(ix.store, text, {});
    assertStringIncludes(mcp, `Seen in 1 session (${id.slice(0, 8)})`);
  } finally {
    ix.cleanup();
  }
});

Deno.test("fix says its signature left the file name out rather than seem to ignore it", async () => {
  const ix = await fixture();
  try {
    const pipe = captureIO(ix.env, false);
    await fixCmd.run({ values: {}, positionals: ["segmentation fault in libfoo.so"] }, pipe.io);
    assertStringIncludes(
      pipe.out(),
      "looked for: segmentation fault in (paths, file names and numbers left out, so it matches anywhere)",
    );
    assertStringIncludes(fixAnswer(ix.store, "gh: command not found", {}), "gh command not found.");
    // A long paste is not echoed back whole (trial 54: 50 kB in, 48 kB out).
    const big = captureIO(ix.env, false);
    await fixCmd.run({ values: {}, positionals: [`Error: ${"abc def ".repeat(6000)}`] }, big.io);
    const looked = big.out().split("\n").find((l) => l.startsWith("looked for: "));
    assert(looked !== undefined && looked.length <= 320, String(looked?.length));
  } finally {
    ix.cleanup();
  }
});

Deno.test("fix says a session holds only the error's general form when it lacks the pasted names", async () => {
  // Found on realdata/kimi: a README heading "Cannot find module" answered a pasted
  // "Cannot find module 'left-pad'" as if that error had been seen.
  const general = "a1a00000-1111-4222-8333-444455556666";
  const named = "b2b00000-1111-4222-8333-444455556666";
  const ix = await indexSessions([
    {
      id: general,
      cwd: "/w/docs",
      start: "2026-11-03T10:00:00Z",
      turns: [{ user: "write the readme" }, { say: '### "Cannot find module"\nRun npm ci.' }],
    },
    {
      id: named,
      cwd: "/w/app",
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "it says Error: Cannot find module 'left-pad' here" }, { say: "ok" }],
    },
  ]);
  try {
    const paste = "Error: Cannot find module 'left-pad'";
    const both = fixData(ix.store, paste, OPTS, { env: ix.env, cwd: "/" });
    assertEquals(both.names, ["left-pad"]);
    assertEquals(both.specific, true);
    // The older session holding 'left-pad' comes first (the search narrows to it).
    assertEquals(both.mentioned.map((m) => [m.ref, m.specific])[0], [named.slice(0, 8), true]);
    const only = fixData(ix.store, "Error: Cannot find module 'is-odd'", OPTS, {
      env: ix.env,
      cwd: "/",
    });
    assertEquals(only.specific, false);
    assertEquals(only.mentioned.map((m) => m.ref).includes(general.slice(0, 8)), true);
    assertStringIncludes(
      only.message,
      "only in its general form 'Cannot find module', not 'is-odd'",
    );
    const json = captureIO(ix.env, false);
    await fixCmd.run({
      values: { json: true },
      positionals: ["Error: Cannot find module 'is-odd'"],
    }, json.io);
    const doc = JSON.parse(json.out());
    assertEquals([doc.specific, doc.names, doc.mentioned[0].specific], [false, ["is-odd"], false]);
    // To a model, the line a session holds is recorded text: framed after deja's sentence
    // (trial 109 F1).
    const mcp = fixAnswer(ix.store, "Error: Cannot find module 'is-odd'", {});
    assertStringIncludes(mcp, "only in its general form, not 'is-odd'.");
    assertStringIncludes(
      mcp,
      `${FRAME_PREAMBLE}\nThe error as a session holds it: Cannot find module\n`,
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("fix leaves out a throwaway project's sessions and counts them, unless junk or the person is there", async () => {
  const scratch = "7e3a0000-1111-4222-8333-444455556666";
  const ix = await indexSessions([{
    id: scratch,
    cwd: "/tmp/tmp.Xk2p9Qa1/svc",
    start: "2026-11-02T10:00:00Z",
    turns: [
      { bash: "node server.js", out: ERROR, exit: 1 },
      { bash: "npm install express", out: "added 60 packages", exit: 0 },
    ],
  }]);
  try {
    const io = { env: ix.env, cwd: "/" };
    const hidden = fixData(ix.store, ERROR, OPTS, io);
    assertEquals([hidden.status, hidden.hidden, hidden.fixes.length], ["unseen", 1, 0]);
    // Not "never seen": the error is there, in a hidden session.
    assertEquals(
      hidden.message,
      "only hidden sessions hold that error: 1 session of throwaway or excluded projects",
    );
    const shown = fixData(ix.store, ERROR, { ...OPTS, junk: true }, io);
    assertEquals([shown.status, shown.hidden], ["found", 0]);
    assertEquals(shown.fixes[0].command, "npm install express");
    const there = fixData(ix.store, ERROR, OPTS, { ...io, cwd: "/tmp/tmp.Xk2p9Qa1/svc" });
    assertEquals([there.status, there.hidden], ["found", 0]);
    const text = captureIO(ix.env, false);
    assertEquals(await fixCmd.run({ values: {}, positionals: [ERROR] }, text.io), 1);
    assertStringIncludes(text.err(), "1 session of throwaway or excluded projects left out");
    assertStringIncludes(text.err(), "--junk shows");
  } finally {
    ix.cleanup();
  }
});

Deno.test("a fix from a session that saw the error only in its general form says so", async () => {
  // Trial 13: the fix of another test (`test_payments.py`) was offered for
  // `FAILED tests/test_quarkle.py::test_build` with nothing in the text to say so.
  const ix = await indexSessions([
    {
      id: "f1f10001-0000-4000-8000-000000000001",
      cwd: "/w/quarkle",
      start: "2026-08-01T10:00:00Z",
      turns: [
        {
          bash: "pytest tests/test_quarkle.py",
          out: "FAILED tests/test_quarkle.py::test_build - AssertionError",
          exit: 1,
        },
      ],
    },
    {
      id: "f1f10002-0000-4000-8000-000000000002",
      cwd: "/w/pay",
      start: "2026-08-02T10:00:00Z",
      turns: [
        {
          bash: "pytest tests/test_payments.py",
          out: "FAILED tests/test_payments.py::test_refund - AssertionError",
          exit: 1,
        },
        { edit: "/w/pay/refund.py", old: "amount", new: "-amount" },
        { bash: "pytest tests/test_payments.py", out: "1 passed", exit: 0 },
      ],
    },
  ]);
  try {
    const d = fixData(
      ix.store,
      "FAILED tests/test_quarkle.py::test_build - AssertionError",
      OPTS,
      { env: ix.env, cwd: "/" },
    );
    assertEquals([d.status, d.specific, d.fixes[0]?.specific], ["found", true, false]);
    const io = captureIO(ix.env, false);
    assertEquals(
      await fixCmd.run({
        values: {},
        positionals: ["FAILED tests/test_quarkle.py::test_build - AssertionError"],
      }, io.io),
      0,
    );
    assertStringIncludes(io.out(), "after the error in its general form only");
  } finally {
    ix.cleanup();
  }
});

Deno.test("fix - reads a long log's end, where its error is, and says what it read", async () => {
  // Trial 14: a 1.1 MB dump ending in the error was cut at 1 MiB from its start.
  const ix = await fixture();
  try {
    const log = "building step ok\n".repeat(70_000) + ERROR + "\n";
    const io = captureIO(ix.env, false, [], log);
    assertEquals(await fixCmd.run({ values: {}, positionals: ["-"] }, io.io), 0);
    assertStringIncludes(io.out(), "npm install express");
    assertStringIncludes(io.err(), "its first 64 KB and last 960 KB are read");
  } finally {
    ix.cleanup();
  }
});

Deno.test("trial 105 F4: a fix that is an edit before a re-run leads with the edit (text, JSON, MCP)", async () => {
  // After the failure: two look-arounds, the edit `apps/v1beta1` -> `apps/v1`, the same apply
  // again, which passed. The answer led with `kubectl apply -f deploy.yaml` itself, "the same
  // command run again", and `fixes[0].command` was that failing command.
  const id = "f4f40105-1111-4222-8333-444455556666";
  const err =
    'error: unable to recognize "deploy.yaml": no matches for kind "Deployment" in version "apps/v1beta1"';
  const ix = await indexSessions([{
    id,
    cwd: "/w/k8s",
    start: "2026-11-30T22:00:00Z",
    turns: [
      { user: "deploy it" },
      { bash: "kubectl apply -f deploy.yaml", out: err, exit: 1 },
      { bash: "kubectl get deployments -A", out: "No resources found" },
      { bash: "sed -n 1,20p deploy.yaml", out: "apiVersion: apps/v1beta1\nkind: Deployment" },
      {
        edit: "/w/k8s/deploy.yaml",
        old: "apiVersion: apps/v1beta1\nkind: Deployment",
        new: "apiVersion: apps/v1\nkind: Deployment",
      },
      { bash: "kubectl apply -f deploy.yaml", out: "deployment.apps/web created", exit: 0 },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await fixCmd.run({ values: {}, positionals: [err] }, pipe.io), 0);
    assertStringIncludes(
      pipe.out(),
      "\n  edit /w/k8s/deploy.yaml: apiVersion: apps/v1beta1 → apiVersion: apps/v1\n" +
        "  then run again: kubectl apply -f deploy.yaml\n" +
        "    1 session, re-run 1/1 no error seen (exit unknown), last ",
    );
    assert(!pipe.out().includes("the same command run again"), pipe.out());

    const json = captureIO(ix.env, false);
    assertEquals(await fixCmd.run({ values: { json: true }, positionals: [err] }, json.io), 0);
    const f = JSON.parse(json.out()).fixes[0];
    assertEquals(
      [f.command, f.action, f.path, f.rerun, f.retry],
      [
        "edit /w/k8s/deploy.yaml",
        "edit",
        "/w/k8s/deploy.yaml",
        "kubectl apply -f deploy.yaml",
        true,
      ],
    );
    const change = {
      path: "/w/k8s/deploy.yaml",
      op: "edit",
      old: "apiVersion: apps/v1beta1",
      new: "apiVersion: apps/v1",
    };
    assertEquals(f.edits, [change]);
    assertEquals(f.examples[0].edits, [change]);
    assertEquals(f.examples[0].edited, ["/w/k8s/deploy.yaml"]);

    const agent = fixAnswer(ix.store, err, {});
    assertStringIncludes(
      agent,
      "1. edit /w/k8s/deploy.yaml: apiVersion: apps/v1beta1 → apiVersion: apps/v1; then run the failing command again: " +
        "kubectl apply -f deploy.yaml\n   1 session, re-run 1/1 no error seen",
    );
  } finally {
    ix.cleanup();
  }
});
