/**
 * `deja view` against what trial 137 found: harness names read as the CLI's `--harness` reads
 * them (any case, product names; an unknown one said unknown), and a session a search found by
 * its title alone labelled `title`, as `deja search` labels it.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { indexSessions } from "./_memory.ts";
import { startView } from "../lib/view/server.ts";

const AT = Date.parse("2026-11-01T10:00:00Z");
const ID = "abcd1234-1111-4111-8111-111111111111";

async function fixture() {
  const idx = await indexSessions([{
    id: ID,
    cwd: "/home/dev/app",
    start: "2026-11-01T10:00:00Z",
    title: "Flux Kustomization rollout",
    turns: [{ user: "why does the redis pod restart" }, { say: "It ran out of memory." }],
  }]);
  idx.store.close();
  const srv = await startView({ env: idx.env, token: "k".repeat(32), now: () => AT + 3_600_000 });
  const get = async (path: string) => {
    const r = await fetch(`${srv.url}${path}`);
    return { status: r.status, body: await r.text() };
  };
  return {
    get,
    /** The folder of the session's store file. */
    storeDir: `${idx.root}/claude/-home-dev-app`,
    async [Symbol.asyncDispose]() {
      await srv.close();
      Deno.removeSync(idx.root, { recursive: true });
    },
  };
}

// Trial 137 L2: `/session?h=CLAUDE&id=…` and `h=claude-code` were 404 ("no CLAUDE session"),
// and `harness=nosuch` in a search said "the filter left nothing", where the CLI says
// "unknown harness".
Deno.test("view reads a harness by any name the CLI's --harness takes", async () => {
  await using f = await fixture();
  for (const h of ["claude", "CLAUDE", "claude-code", "Claude-Code"]) {
    for (const id of [ID, ID.slice(0, 8)]) {
      const r = await f.get(`session?h=${h}&id=${id}`);
      assertEquals(r.status, 200, `h=${h} id=${id}: ${r.body.slice(0, 300)}`);
      assertStringIncludes(r.body, "why does the redis pod restart");
    }
  }
  const bad = (await f.get("api/search?q=redis&harness=nosuch")).body;
  assertStringIncludes(bad, "unknown harness &#39;nosuch&#39;");
  assert(!bad.includes("The filter left nothing"), bad);
  // A product name filters as its id does.
  assertStringIncludes((await f.get("api/search?q=redis&harness=Claude-Code")).body, "1 session");
});

// Trial 137 L3: a session a search found by its title alone was listed with "0 hits" and no
// snippet; `deja search` says `title`.
Deno.test("view labels a session found by its title alone 'title', as the CLI does", async () => {
  await using f = await fixture();
  const body = (await f.get(`api/search?q=${encodeURIComponent('"flux kustomization"')}`)).body;
  assertStringIncludes(body, "Flux Kustomization rollout");
  assert(!body.includes("0 hits"), body);
  assertStringIncludes(body, " · title</div>");
});

// Trial 137 M3 (left by its fix): `deja show` says a session's store is gone since and what it
// held is kept; the session page said nothing of it.
Deno.test("view says a session's store is gone since, and that what it held is kept", async () => {
  await using f = await fixture();
  const before = (await f.get(`session?h=claude&id=${ID}`)).body;
  assert(!before.includes("gone since"), before);
  const file = [...Deno.readDirSync(f.storeDir)].find((e) => e.name.startsWith(ID))!;
  Deno.removeSync(`${f.storeDir}/${file.name}`);
  const after = await f.get(`session?h=claude&id=${ID}`);
  assertEquals(after.status, 200);
  assertStringIncludes(
    after.body,
    "its store is gone since: what only it held is kept in the index",
  );
  assertStringIncludes(after.body, "why does the redis pod restart");
});
