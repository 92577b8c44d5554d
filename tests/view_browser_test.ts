/**
 * `deja view` in a real browser: Debian's Chromium (/usr/bin/chromium) driven
 * by playwright-core (its own browser download is not used), against the
 * server on the bundled sample stores. The list shows every sample harness, a
 * search finds a known marker and opens its session at the hit, a session with
 * an edit shows the diff, a request without the token is refused, and no page
 * logs a console error. Screenshots of each page are saved in
 * `dist/view-screenshots/` (or `$DEJA_VIEW_SHOTS`) to be looked at.
 *
 * Skipped, with a message saying so, where Chromium is not installed
 * (`apt-get install -y chromium`).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fixtureVars, layOutFixtures } from "../lib/cli/cmd_demo.ts";
import { runIndex } from "../lib/indexer.ts";
import { parsers } from "../parsers/mod.ts";
import { indexPath, Store } from "../lib/store.ts";
import { startView } from "../lib/view/server.ts";
import { REPO, testEnv } from "./_fixture.ts";
import { CHROMIUM, CHROMIUM_FLAGS as FLAGS } from "./_browser.ts";
import { tempDir } from "./_tmp.ts";

const present = existsSync(CHROMIUM);
if (!present) {
  console.log(
    `view_browser_test: skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`,
  );
}

Deno.test({
  name: "view in Chromium: list, search as you type, session at the hit, diff, token, no errors",
  ignore: !present,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { chromium } = await import("playwright-core");
    const dir = tempDir("deja-view-browser-");
    const shots = Deno.env.get("DEJA_VIEW_SHOTS") ?? join(REPO, "dist", "view-screenshots");
    mkdirSync(shots, { recursive: true });
    layOutFixtures(join(dir, "stores"));
    const env = testEnv(join(dir, "home"), {
      DEJA_HOME: join(dir, "deja"),
      ...fixtureVars(join(dir, "stores")),
    });
    await runIndex(env, parsers);
    const store = Store.open(indexPath(env), { readOnly: true });
    const harnesses = (store.db.prepare("SELECT DISTINCT harness FROM sessions ORDER BY harness")
      .all() as Array<{ harness: string }>).map((r) => r.harness);
    const edited = store.db.prepare(
      `SELECT s.harness AS harness, s.native_id AS id FROM files f JOIN sessions s ON s.id = f.session_id
       WHERE f.op = 'edit' AND f.old IS NOT NULL AND f.old <> '' LIMIT 1`,
    ).get() as { harness: string; id: string };
    store.close();
    const srv = await startView({ env });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    const errors: string[] = [];
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(`${page.url()}: ${m.text()}`);
      });
      page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}`));

      // The list: every sample harness is offered as a filter, sessions are listed.
      await page.goto(srv.url + "?junk=1");
      const offered = await page.$$eval(
        "select[name=harness] option",
        (os) => os.map((o) => o.getAttribute("value") ?? "").filter(Boolean),
      );
      assertEquals(offered.sort(), harnesses);
      assert(harnesses.length >= 20, `only ${harnesses.length} harnesses indexed`);
      assert((await page.$$("table.sessions tbody tr")).length > 20);
      await page.goto(srv.url);
      await page.screenshot({ path: join(shots, "list.png") });

      // Search as you type: a marker one sample session holds; its hit opens the session there.
      await page.fill("#q", "healthcheck");
      await page.waitForSelector(".hit mark");
      assertStringIncludes(await page.textContent("#results") ?? "", "healthcheck");
      await page.screenshot({ path: join(shots, "search.png") });
      await page.click(".hit .snip a");
      await page.waitForLoadState("load");
      const hash = new URL(page.url()).hash;
      assert(/^#e\d+$/.test(hash), page.url());
      const target = await page.textContent(decodeURIComponent(hash));
      assertStringIncludes(target ?? "", "healthcheck");
      await page.screenshot({ path: join(shots, "session.png"), fullPage: true });

      // A session with an edit shows it as a diff.
      await page.goto(
        `${srv.url}session?h=${encodeURIComponent(edited.harness)}&id=${
          encodeURIComponent(edited.id)
        }`,
      );
      assert((await page.$$(".diff .d, .diff .a")).length > 0, "no diff rendered");
      await page.screenshot({ path: join(shots, "session-diff.png"), fullPage: true });

      for (const [name, path] of [["projects", "projects"], ["activity", "stats"]]) {
        await page.goto(srv.url + path);
        await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
      }

      assertEquals(errors, [], "console errors");
      // Without the token: refused.
      const refused = await page.goto(`http://127.0.0.1:${srv.port}/`);
      assertEquals(refused?.status(), 403);
      console.log(`view_browser_test: screenshots in ${shots}`);
    } finally {
      await browser.close();
      await srv.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
