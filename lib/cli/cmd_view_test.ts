import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../tests/_assert.ts";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import type { Env } from "../../core/model.ts";
import { exportData, exportText, parseView, serveText, serveView, viewCmd } from "./cmd_view.ts";

const ID = "41e40000-1111-4222-8333-444455556666";

function fixture() {
  return indexSessions([{
    id: ID,
    cwd: "/w/shop",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "add a basket" }, { say: "Added the basket page." }],
  }]);
}

/** `env` with refresh on use turned off (the command would freshen the index first). */
const noRefresh = (env: Env): Env => ({
  ...env,
  get: (k: string) => k === "DEJA_NO_REFRESH" ? "1" : env.get(k),
});

const args = (positionals: string[], values: Record<string, string | boolean> = {}) => ({
  values,
  positionals,
});

Deno.test("view parses serving and exporting, and refuses what belongs to the other with exit 2", () => {
  assertEquals(parseView(args([])), { mode: "serve", port: 0, open: true });
  assertEquals(parseView(args([], { port: "8123", "no-open": true })), {
    mode: "serve",
    port: 8123,
    open: false,
  });
  assertEquals(parseView(args(["41e4"], { out: "d", json: true })), {
    mode: "export",
    out: "d",
    target: { ref: "41e4" },
    force: false,
    json: true,
  });
  for (
    const bad of [
      args([], { project: "shop" }),
      args(["41e4"]),
      args([], { port: "70000" }),
      args([], { out: "" }),
      args([], { out: "d" }),
      args(["41e4"], { out: "d", project: "shop" }),
    ]
  ) {
    const e = assertThrows(() => parseView(bad), DejaError);
    assertEquals((e as DejaError).exitCode, 2, e.message);
  }
});

Deno.test("view's run serves on 127.0.0.1, and a port in use is an error with exit 2", async () => {
  const ix = await fixture();
  const busy = createServer();
  try {
    const server = await serveView(ix.env, 0);
    try {
      assert(server.url.startsWith(`http://127.0.0.1:${server.port}/`), server.url);
      assertEquals(serveText(server.url).out, `deja view: ${server.url}\n`);
    } finally {
      await server.close();
    }
    await new Promise<void>((ok) => busy.listen(0, "127.0.0.1", ok));
    const port = (busy.address() as { port: number }).port;
    const e = await assertRejects(() => serveView(ix.env, port), DejaError);
    assertStringIncludes(e.message, `cannot listen on 127.0.0.1:${port} (in use)`);
    assertEquals((e as DejaError).exitCode, 2);
  } finally {
    busy.close();
    ix.cleanup();
  }
});

Deno.test("view --out writes a project's pages; the same line to a terminal and a pipe, JSON with --json", async () => {
  const ix = await fixture();
  try {
    const io = captureIO(ix.env, false).io;
    const first = join(ix.root, "first");
    const a = parseView(args([], { out: first, project: "shop" }));
    assert(a.mode === "export");
    const res = exportData(ix.store, a, io);
    assertEquals([res.out, res.pages, res.masked], [first, 2, 0]);
    assert(existsSync(res.index));
    assertStringIncludes(exportText(res, io), "masked nothing more while writing");

    for (const tty of [true, false]) {
      const dir = join(ix.root, `out-${tty}`);
      const c = captureIO(noRefresh(ix.env), tty);
      assertEquals(await viewCmd.run(args(["41e4"], { out: dir }), c.io), 0);
      assert(
        c.out().startsWith(`deja view: wrote 1 page to ${dir}; open ${dir}/index.html\n`),
        c.out(),
      );
    }
    const json = captureIO(noRefresh(ix.env), false);
    const dir = join(ix.root, "json");
    assertEquals(await viewCmd.run(args(["41e4"], { out: dir, json: true }), json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.out, doc.pages, doc.files.at(-1)], [dir, 1, "app.js"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("view --out of a project the index does not hold is an error with exit 1", async () => {
  const ix = await fixture();
  try {
    const a = parseView(args([], { out: join(ix.root, "x"), project: "nowhere" }));
    assert(a.mode === "export");
    const e = assertThrows(() => exportData(ix.store, a, captureIO(ix.env, false).io), DejaError);
    assertEquals((e as DejaError).exitCode, 1);
  } finally {
    ix.cleanup();
  }
});

Deno.test("view --out --project names the other projects its text matches (trial 120 M4)", async () => {
  // `shop` is the last folder of one project and text of another's path: the one is written,
  // the other named with how to write it (it wrote the one and said nothing of the other).
  const ix = await indexSessions([
    {
      id: ID,
      cwd: "/w/shop",
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "add a basket" }, { say: "Added the basket page." }],
    },
    {
      id: "41e40001-1111-4222-8333-444455556666",
      cwd: "/w/shop-admin",
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "add a login" }, { say: "Added the login page." }],
    },
  ]);
  try {
    const c = captureIO(noRefresh(ix.env), false);
    const dir = join(ix.root, "out");
    assertEquals(await viewCmd.run(args([], { out: dir, project: "shop" }), c.io), 0);
    assertStringIncludes(
      c.err(),
      "deja view: 1 other project holds the text in its path: /w/shop-admin\n" +
        "hint: --project <its whole path> writes another",
    );
    const json = captureIO(noRefresh(ix.env), false);
    const again = join(ix.root, "json");
    assertEquals(
      await viewCmd.run(args([], { out: again, project: "shop", json: true }), json.io),
      0,
    );
    assertEquals(JSON.parse(json.out()).other_projects, ["/w/shop-admin"]);
    // Its whole path writes the other, alone.
    const one = captureIO(noRefresh(ix.env), false);
    const third = join(ix.root, "admin");
    assertEquals(await viewCmd.run(args([], { out: third, project: "/w/shop-admin" }), one.io), 0);
    assertEquals(one.err(), "");
  } finally {
    ix.cleanup();
  }
});
