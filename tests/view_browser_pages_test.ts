/**
 * `deja view`'s script and stylesheet in a real browser (Debian's Chromium, driven by
 * playwright-core) on a small fixture index: what a person does on a page and sees (trial 95).
 * Skipped, with a message saying so, where Chromium is not installed.
 */
import { assert, assertEquals } from "./_assert.ts";
import { existsSync } from "node:fs";
import { memIndex } from "./_search_fixture.ts";
import { startView } from "../lib/view/server.ts";
import { CHROMIUM, CHROMIUM_FLAGS as FLAGS } from "./_browser.ts";

const present = existsSync(CHROMIUM);
if (!present) {
  console.log(`view_browser_pages_test: skipped: no Chromium at ${CHROMIUM}`);
}

const AT = Date.parse("2026-11-01T10:00:00Z");

/** 40 lines of a tool's output, `line` at the 34th: folded on the page. */
const LONG = [...Array(40).keys()].map((i) => i === 33 ? "layer 7: qdrant 2.1G" : `layer ${i}`)
  .join("\n");

/** A server on a fixture index and a browser page; both closed when disposed. */
async function world() {
  const idx = await memIndex([
    {
      id: "sess-tools",
      project: "/home/dev/a-rather-long-project-directory-name/that-goes-on-and-on/app",
      at: AT,
      events: [
        ["user", `why is the image so large\n${LONG}`],
        {
          kind: "tool_call",
          text: "",
          tool: { name: "Bash", id: "c1", command: "du -sh layers" },
          time: AT + 60e3,
        },
        { kind: "tool_result", text: LONG, result: { callId: "c1", exit: 0 }, time: AT + 70e3 },
        ...[...Array(30).keys()].map((i) => ({
          kind: "assistant" as const,
          text: `step ${i} docker`,
          time: AT + 80e3 + i * 1e3,
        })),
      ],
    },
    {
      id: "agent-1",
      parent: "sess-tools",
      project: "/home/dev/app",
      at: AT + 65e3,
      events: [["user", "subagent measures the layers"]],
    },
    {
      id: "sess-redis",
      project: "/home/dev/other",
      at: AT - 86_400_000,
      events: [["user", "why does redis drop the docker connection"], {
        kind: "tool_call",
        text: "",
        tool: {
          name: "Write",
          id: "w1",
          writes: [{ path: "/home/dev/other/config/redis/redis-server.conf", content: "port 1\n" }],
        },
        time: AT - 86_400_000 + 60e3,
      }],
    },
  ]);
  const srv = await startView({ env: idx.env, now: () => AT + 3_600_000 });
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  const errors: string[] = [];
  return {
    srv,
    browser,
    errors,
    async page(width = 1200) {
      const p = await browser.newPage({ viewport: { width, height: 800 } });
      p.on("pageerror", (e) => errors.push(e.message));
      return p;
    },
    async [Symbol.asyncDispose]() {
      await browser.close();
      await srv.close();
      idx.cleanup();
    },
  };
}

const opts = { ignore: !present, sanitizeOps: false, sanitizeResources: false };

// Trial 95 F1: the hit's output had no id, and stayed folded at the bottom of the page.
Deno.test({
  ...opts,
  name: "view opens a session at a hit in a folded tool output: unfolded and in view",
  async fn() {
    await using w = await world();
    const page = await w.page();
    await page.goto(`${w.srv.url}session?h=mem&id=sess-tools#e2`);
    assertEquals(await page.$eval("#e2", (d) => (d as unknown as { open: boolean }).open), true);
    const [top, bottom] = await page.$eval("#e2", (d) => {
      const r = d.getBoundingClientRect();
      return [r.top, r.bottom];
    });
    assert(top < 800 && bottom > 100, `the output is not in view: ${top} to ${bottom}`);
    // A hit in a prompt's folded tail: the fold inside its event opens.
    await page.goto(`${w.srv.url}session?h=mem&id=sess-tools#e0`);
    assertEquals(
      await page.$eval("#e0 details", (d) => (d as unknown as { open: boolean }).open),
      true,
    );
    // A hit inside a subagent: its link names `agent-1/e0`, percent-encoded in the address.
    await page.goto(`${w.srv.url}session?h=mem&id=sess-tools#agent-1%2Fe0`);
    assertEquals(
      await page.$eval("#agent-1", (d) => (d as unknown as { open: boolean }).open),
      true,
    );
    assertEquals(w.errors, []);
  },
});

// Trial 95 F3: after a pause the session page went to the search page mid-word, focus on
// nothing, and the letters typed after were lost. Trial 126 F9: it then searched on Enter only;
// it searches as one types, as the list does, keeping every letter.
Deno.test({
  ...opts,
  name: "view keeps every letter typed in the header box of a session page, searching as it goes",
  async fn() {
    await using w = await world();
    const page = await w.page();
    const at = `${w.srv.url}session?h=mem&id=sess-tools`;
    await page.goto(at);
    await page.click("#q");
    await page.keyboard.type("do");
    await page.waitForURL((u) => u.searchParams.get("q") === "do", { timeout: 5000 });
    await page.keyboard.type("cker");
    await page.waitForURL((u) => u.searchParams.get("q") === "docker");
    assertEquals(await page.inputValue("#q"), "docker");
    await page.waitForSelector(".hit mark");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".hit mark");
    assertEquals(new URL(page.url()).searchParams.get("q"), "docker");
    // On the search page the box keeps the focus, the caret after the words.
    assertEquals(await page.evaluate("document.activeElement && document.activeElement.id"), "q");
    await page.keyboard.type(" step");
    assertEquals(await page.inputValue("#q"), "docker step");
    assertEquals(w.errors, []);
  },
});

// Trial 95 F11: at 380 px the header did not wrap, the search box showed "Se…", and every page
// scrolled sideways.
Deno.test({
  ...opts,
  name: "view at 380 px: no page scrolls sideways, the search box is a usable width",
  async fn() {
    await using w = await world();
    const page = await w.page(380);
    for (
      const path of ["", "search?q=docker", "session?h=mem&id=sess-tools", "stats", "projects"]
    ) {
      await page.goto(w.srv.url + path);
      const [scroll, client] = await page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
      ) as number[];
      assert(scroll <= client, `${path || "list"}: ${scroll} px wide in ${client}`);
      const box = await page.$eval("#q", (q) => q.getBoundingClientRect());
      assert(box.width >= 250 && box.right <= 380, `${path}: box ${box.left} to ${box.right}`);
    }
    assertEquals(w.errors, []);
  },
});

// Trial 99 F3: a filter changed after typing sent the form's old query (or none), and the
// address kept the words but not the filters.
Deno.test({
  ...opts,
  name:
    "view searches the words in the box when a filter changes, and keeps the filters in the address",
  async fn() {
    await using w = await world();
    const page = await w.page();
    const proj = "/home/dev/other";
    const now = () => new URL(page.url());
    const at = (q: string) => (u: URL) => u.searchParams.get("q") === q;
    for (const from of ["search?q=docker", ""]) {
      await page.goto(w.srv.url + from);
      await page.fill("#q", "redis");
      await page.waitForURL(at("redis"));
      await Promise.all([
        page.waitForURL((u) => u.searchParams.has("project")),
        page.selectOption("select[name=project]", proj),
      ]);
      assert(now().pathname.endsWith("/search"), `${from || "list"}: ${page.url()}`);
      assertEquals(now().searchParams.get("q"), "redis", from || "list");
      assertEquals(now().searchParams.get("project"), proj, from || "list");
      assertEquals(await page.inputValue("#q"), "redis");
    }
    await page.goto(`${w.srv.url}?project=${encodeURIComponent(proj)}`);
    await page.fill("#q", "redis");
    await page.waitForURL(at("redis"));
    assertEquals(now().searchParams.get("project"), proj);
    await page.fill("#q", "");
    await page.waitForURL((u) => !u.searchParams.has("q"));
    assertEquals(now().searchParams.get("project"), proj);
    assertEquals(w.errors, []);
  },
});

// Trial 99 F12: at 380 px a project's file counts sat off to the right of a table that
// scrolled, and the list's event count was a bare number once its column head was hidden.
Deno.test({
  ...opts,
  name: "view at 380 px: a project's file counts and the list's event counts are in view and named",
  async fn() {
    await using w = await world();
    const page = await w.page(380);
    await page.goto(`${w.srv.url}project?p=${encodeURIComponent("/home/dev/other")}`);
    const cells = await page.evaluate(
      `[...document.querySelectorAll("table.files td.num")].map((td) =>
        [td.getBoundingClientRect().right, getComputedStyle(td, "::after").content])`,
    ) as Array<[number, string]>;
    assertEquals(cells.length, 5);
    for (const [right, after] of cells) {
      assert(right <= 380, `a count at ${right} px`);
      assert(/edits|writes|reads|failed|sessions/.test(after), after);
    }
    await page.goto(w.srv.url);
    const events = await page.evaluate(
      `getComputedStyle(document.querySelector("table.sessions td.num"), "::after").content`,
    );
    assertEquals(events, '" events"');
    assertEquals(w.errors, []);
  },
});

// Trial 99 F7: a hit deep in a long output opened the output at its top; the match was neither
// in view nor marked.
Deno.test({
  ...opts,
  name: "view marks a hit inside a long tool output and scrolls the output to it",
  async fn() {
    await using w = await world();
    const page = await w.page();
    await page.goto(`${w.srv.url}search?q=qdrant`);
    // The hit's link names the text its snippet marks.
    assert(await page.$(".snip a[href*='&hl=qdrant#e']"), "no &hl= on the hit's link");
    await page.goto(`${w.srv.url}session?h=mem&id=sess-tools&hl=qdrant#e2`);
    await page.waitForSelector("#e2 mark.hl");
    const [inPre, inView, text] = await page.evaluate(
      `(() => { const m = document.querySelector("#e2 mark.hl"); const r = m.getBoundingClientRect();
        const p = m.closest("pre").getBoundingClientRect();
        return [r.top >= p.top && r.bottom <= p.bottom, r.top >= 0 && r.bottom <= innerHeight,
          m.textContent]; })()`,
    ) as [boolean, boolean, string];
    assertEquals([inPre, inView, text.toLowerCase()], [true, true, "qdrant"]);
    assertEquals(w.errors, []);
  },
});

// Trial 99 F8: `docker desk`, Enter, `top` typed on a session page searched "docker deskp": the
// keys typed while the search page opened were lost.
Deno.test({
  ...opts,
  name: "view keeps the keys typed after Enter while the search page opens",
  async fn() {
    await using w = await world();
    const page = await w.page();
    await page.goto(`${w.srv.url}session?h=mem&id=sess-tools`);
    await page.click("#q");
    await page.keyboard.type("docker lay");
    await page.keyboard.press("Enter");
    await page.keyboard.type("ers");
    await page.waitForURL((u) => u.pathname.endsWith("/search"));
    await page.waitForURL((u) => u.searchParams.get("q") === "docker layers", { timeout: 5000 });
    assertEquals(await page.inputValue("#q"), "docker layers");
    // Back is the session's page again.
    await page.goBack();
    await page.waitForSelector("#e2");
    assert(page.url().includes("session?h=mem"), page.url());
    assertEquals(w.errors, []);
  },
});

// Trial 126 F1: after Back, Chromium put the later page's filter controls on the earlier page,
// over rows of another filter (the box ticked over rows without throwaway projects, the select
// saying crush over gemini rows), and a change then sent that stale filter.
Deno.test({
  ...opts,
  name: "view's filter controls after Back and Forward show the filter of the rows shown",
  async fn() {
    await using w = await world();
    const page = await w.page();
    await page.goto(w.srv.url);
    const shown = async () =>
      JSON.parse(
        await page.evaluate(`(() => {
          const f = document.querySelector("form.filters");
          return JSON.stringify({ project: f.project.value, days: f.days.value,
            junk: f.junk.checked ? "1" : "" });
        })()`) as string,
      );
    const wanted = () => {
      const u = new URL(page.url()).searchParams;
      return {
        project: u.get("project") ?? "",
        days: u.get("days") ?? "",
        junk: u.get("junk") ?? "",
      };
    };
    const steps: Array<() => Promise<unknown>> = [
      () => page.selectOption("select[name=project]", "/home/dev/other"),
      () => page.selectOption("select[name=days]", "7"),
      () => page.check("input[name=junk]"),
    ];
    for (const step of steps) {
      const before = page.url();
      await Promise.all([page.waitForURL((u) => u.href !== before), step()]);
      await page.waitForLoadState("load");
    }
    assertEquals(await shown(), { project: "/home/dev/other", days: "7", junk: "1" });
    for (let i = 0; i < 3; i++) {
      await page.goBack({ waitUntil: "load" });
      assertEquals(await shown(), wanted(), `after Back ${i + 1}: ${page.url()}`);
    }
    for (let i = 0; i < 3; i++) {
      await page.goForward({ waitUntil: "load" });
      assertEquals(await shown(), wanted(), `after Forward ${i + 1}: ${page.url()}`);
    }
    // A page shown again from the back/forward cache keeps its controls as they were left: it
    // sets them back to its rows' filter.
    await page.evaluate(`(() => {
      const f = document.querySelector("form.filters");
      f.days.value = "30";
      f.junk.checked = false;
      window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }));
    })()`);
    assertEquals(await shown(), { project: "/home/dev/other", days: "7", junk: "1" });
    assertEquals(w.errors, []);
  },
});

// Trial 126 F8: at 390 px a long word searched ("Nothing matched “…”", not wrapped) made the page
// 1017 px wide, and the heat map shrank to the window, its labels about 4 px high.
Deno.test({
  ...opts,
  name: "view at 390 px: a long query wraps, the heat map scrolls in its own box at full size",
  async fn() {
    await using w = await world();
    const page = await w.page(390);
    const wide = async (path: string) => {
      const [scroll, client] = await page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
      ) as number[];
      assert(scroll <= client, `${path}: ${scroll} px wide in ${client}`);
    };
    const word = "x".repeat(4800);
    await page.goto(`${w.srv.url}search?q=${word}`);
    await wide("search");
    // Typed, the answer replaces the results: no wider either.
    await page.goto(w.srv.url);
    await page.fill("#q", "y".repeat(300));
    await page.waitForURL((u) => u.searchParams.has("q"));
    await page.waitForSelector("#results .empty");
    await wide("list, typed");
    await page.goto(`${w.srv.url}stats`);
    await wide("stats");
    const [label, boxWidth, boxScroll, left, max] = await page.evaluate(`(() => {
      const svg = document.querySelector("svg.heat");
      const box = svg.parentElement;
      const t = svg.querySelector("text").getBoundingClientRect();
      return [t.height, box.clientWidth, box.scrollWidth, box.scrollLeft,
        box.scrollWidth - box.clientWidth];
    })()`) as number[];
    assert(label >= 10, `the heat map's labels are ${label} px high`);
    assert(boxScroll > boxWidth && boxWidth <= 390, `box ${boxWidth}, content ${boxScroll}`);
    // The latest weeks are in view: the box starts scrolled to its right end.
    assert(max - left <= 1, `scrolled to ${left} of ${max}`);
    assertEquals(w.errors, []);
  },
});

// Trial 126 F9: on a session, a project or the Activity page, typing in the header box searched
// nothing until Enter, where the list searched as one typed.
Deno.test({
  ...opts,
  name: "view searches as one types from every page with the box, not on Enter only",
  async fn() {
    await using w = await world();
    const page = await w.page();
    for (
      const from of [
        "stats",
        "projects",
        `project?p=${encodeURIComponent("/home/dev/other")}`,
        "session?h=mem&id=sess-redis",
      ]
    ) {
      await page.goto(w.srv.url + from);
      await page.click("#q");
      await page.keyboard.type("redis");
      await page.waitForSelector("#results .hit mark", { timeout: 5000 });
      assert(new URL(page.url()).pathname.endsWith("/search"), `${from}: ${page.url()}`);
      assertEquals(new URL(page.url()).searchParams.get("q"), "redis", from);
      assertEquals(await page.evaluate("document.activeElement && document.activeElement.id"), "q");
      // Typing on searches again, in place.
      await page.keyboard.type(" docker");
      await page.waitForURL((u) => u.searchParams.get("q") === "redis docker");
      assertEquals(await page.inputValue("#q"), "redis docker");
    }
    assertEquals(w.errors, []);
  },
});
