/**
 * The optional embeddings rerank (lib/embeddings/) against a local mock
 * endpoint: a node:http server on 127.0.0.1 answering Ollama's `/api/embed`
 * and OpenAI's `/v1/embeddings` with deterministic vectors (words hashed into
 * 64 dimensions; `ocelot` counts as `flaky`, the mock's one "meaning").
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { runMain } from "./_cli_io.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

const SECRET = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2";

/** Bag-of-words vector of `text`, the mock's model. */
function vectorOf(text: string): number[] {
  const v = new Array(64).fill(0);
  for (let w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (w === "ocelot") w = "flaky";
    let h = 7;
    for (const ch of w) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    v[h % 64] += 1;
  }
  return v;
}

/** The mock endpoint: every request body it received, and its URL base. */
async function mock(): Promise<{ server: Server; bodies: string[]; base: string }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => body += c);
    req.on("end", () => {
      bodies.push(body);
      const input: string[] = JSON.parse(body).input;
      const vecs = input.map(vectorOf);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(
        req.url === "/api/embed"
          ? { embeddings: vecs }
          : { data: vecs.map((embedding, index) => ({ index, embedding })) },
      ));
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  return { server, bodies, base: `http://127.0.0.1:${port}` };
}

/** Three Claude Code sessions in a temp dir: the secret in one, `flaky` in two. */
function world(): { dir: string; vars: Record<string, string> } {
  const dir = tempDir("deja-embeddings-");
  const write = (sid: string, texts: Array<[string, string]>) => {
    const proj = join(dir, "claude", "-w-shop");
    mkdirSync(proj, { recursive: true });
    const lines = texts.map(([role, text], i) => {
      const base = {
        sessionId: sid,
        cwd: "/w/shop",
        timestamp: `2026-11-0${sid[0] === "a" ? 1 : 2}T10:0${i}:00Z`,
        uuid: `${sid}-${i}`,
      };
      return JSON.stringify(
        role === "user" ? { ...base, type: "user", message: { role: "user", content: text } } : {
          ...base,
          type: "assistant",
          message: { id: `m${sid}${i}`, role: "assistant", content: [{ type: "text", text }] },
        },
      );
    });
    writeFileSync(join(proj, `${sid}.jsonl`), lines.join("\n") + "\n");
  };
  write("aaaaaaaa-1111-4111-8111-111111111111", [
    ["user", "the flaky flaky flaky parser test broke the build again"],
    ["assistant", "Retried the parser test; flaky it stays."],
  ]);
  write("bbbbbbbb-2222-4222-8222-222222222222", [
    ["user", "flaky ocelot ocelot ocelot"],
    ["assistant", "Ocelot ocelot."],
  ]);
  write("cccccccc-3333-4333-8333-333333333333", [
    ["user", `deploy with the token ${SECRET} to staging`],
    ["assistant", "Deployed to staging."],
  ]);
  return {
    dir,
    vars: {
      HOME: join(dir, "home"),
      DEJA_HOME: join(dir, "deja"),
      DEJA_CLAUDE_ROOT: join(dir, "claude"),
      DEJA_NO_REFRESH: "1",
    },
  };
}

const ids = (json: string) =>
  (JSON.parse(json).results as Array<{ id: string }>).map((r) => r.id.slice(0, 8));

Deno.test("embeddings send nothing and search as before when no endpoint is configured", async () => {
  const m = await mock();
  const { dir, vars } = world();
  try {
    const env = testEnv(vars.HOME, vars);
    assertEquals((await runMain(env, ["index", "--quiet"])).code, 0);
    const r = await runMain(env, ["search", "--json", "flaky"]);
    assertEquals(r.code, 0);
    assertEquals(JSON.parse(r.out).embeddings, "off");
    assertEquals(m.bodies.length, 0, "the mock endpoint was called");
    assert(!existsSync(join(vars.DEJA_HOME, "embeddings.db")), "a vectors file was made");
  } finally {
    m.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("embeddings send only redacted text, store vectors 0600 and rerank as the vectors say", async () => {
  const m = await mock();
  const { dir, vars } = world();
  try {
    const plain = testEnv(vars.HOME, vars);
    assertEquals((await runMain(plain, ["index", "--quiet"])).code, 0);
    const before = await runMain(plain, ["search", "--json", "flaky"]);
    assertEquals(ids(before.out).slice(0, 2), ["aaaaaaaa", "bbbbbbbb"], before.out);

    const env = testEnv(vars.HOME, { ...vars, DEJA_EMBED_URL: `${m.base}/api/embed` });
    const idx = await runMain(env, ["index", "--json"]);
    assertEquals(idx.code, 0, idx.err);
    assertEquals(JSON.parse(idx.out).embeddings, { embedded: 3, pending: 0 });
    const sent = m.bodies.join("\n");
    assertStringIncludes(sent, "flaky ocelot");
    assertStringIncludes(sent, "[redacted:");
    assertEquals(sent.includes(SECRET), false, "the secret reached the endpoint");
    const path = join(vars.DEJA_HOME, "embeddings.db");
    assertEquals(statSync(path).mode & 0o777, 0o600);

    const after = await runMain(env, ["search", "--json", "flaky"]);
    assertEquals(after.code, 0, after.err);
    assertEquals(JSON.parse(after.out).embeddings, "used");
    assertEquals(ids(after.out).slice(0, 2), ["bbbbbbbb", "aaaaaaaa"], after.out);
    // A query with the secret in it is redacted before it is sent, too.
    const n = m.bodies.length;
    await runMain(env, ["search", "--json", `token ${SECRET}`]);
    assert(m.bodies.length > n);
    assertEquals(m.bodies.slice(n).join("").includes(SECRET), false);
    // The second index run sends nothing: every vector is current.
    const again = m.bodies.length;
    assertEquals((await runMain(env, ["index", "--quiet"])).code, 0);
    assertEquals(m.bodies.length, again);
  } finally {
    m.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("embeddings configured in embeddings.json speak the OpenAI dialect", async () => {
  const m = await mock();
  const { dir, vars } = world();
  try {
    const cfg = join(vars.HOME, ".config", "deja");
    mkdirSync(cfg, { recursive: true });
    writeFileSync(
      join(cfg, "embeddings.json"),
      JSON.stringify({ url: `${m.base}/v1/embeddings`, model: "mock" }),
    );
    const env = testEnv(vars.HOME, vars);
    assertEquals((await runMain(env, ["index", "--quiet"])).code, 0);
    assertEquals(JSON.parse(m.bodies[0]).model, "mock");
    const r = await runMain(env, ["search", "--json", "flaky"]);
    assertEquals(ids(r.out)[0], "bbbbbbbb", r.out);
  } finally {
    m.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("index and search still work with one warning when the embeddings endpoint is down", async () => {
  const m = await mock();
  const { dir, vars } = world();
  try {
    const url = `${m.base}/api/embed`;
    const env = testEnv(vars.HOME, { ...vars, DEJA_EMBED_URL: url });
    assertEquals((await runMain(env, ["index", "--quiet"])).code, 0);
    await new Promise<void>((ok) => m.server.close(() => ok()));
    const idx = await runMain(env, ["index"]);
    assertEquals(idx.code, 0, idx.err);
    const s = await runMain(env, ["search", "flaky"]);
    assertEquals(s.code, 0, s.err);
    assertStringIncludes(s.out, "aaaaaaaa");
    assertStringIncludes(s.err, `deja: the embeddings endpoint ${url} is unreachable`);
    assertEquals(s.err.split("embeddings endpoint").length - 1, 1, s.err);
    assertStringIncludes(s.err, "hint: search answers from the index alone");
    // A fresh index whose first pass finds the endpoint down: a warning, exit 0.
    rmSync(vars.DEJA_HOME, { recursive: true, force: true });
    const first = await runMain(env, ["index"]);
    assertEquals(first.code, 0, first.err);
    assertStringIncludes(first.err, "is unreachable");
    assertEquals((await runMain(env, ["search", "flaky"])).code, 0);
  } finally {
    m.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
