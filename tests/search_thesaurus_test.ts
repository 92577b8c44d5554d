/** The broad thesaurus (lib/search/thesaurus_*.ts) at work: a problem told in other words finds its session. */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-pdf",
    events: [
      ["user", "puppeteer page.pdf() gives empty charts, the canvas is not drawn yet"],
      ["assistant", "Waited for Chart.js to finish its animation before calling page.pdf()."],
    ],
  },
  {
    id: "s-csv",
    events: [
      ["user", "export the users table to csv"],
      ["assistant", "Added an export button that streams the rows as CSV."],
    ],
  },
  {
    id: "s-hidpi",
    events: [
      ["user", "icons and images are blurry on hidpi displays"],
      ["assistant", "Served 2x assets chosen by devicePixelRatio."],
    ],
  },
  {
    id: "s-resize",
    events: [
      ["user", "resize uploaded images to thumbnails"],
      ["assistant", "Added a resize step that writes 200px thumbnails of the images."],
    ],
  },
  {
    id: "s-other",
    events: [["user", "rename the settings page title"], ["assistant", "Renamed it."]],
  },
];

Deno.test("the graphs in an exported report came out blank -> the headless PDF session", () =>
  withMemIndex(HISTORY, (s) => {
    // Shares no content word with s-pdf as typed: graphs ~ charts, exported ~ pdf, blank ~ empty.
    const r = search(s, "the graphs in the exported report came out blank");
    assertEquals(r.results[0]?.id, "s-pdf", r.results.map((x) => x.id).join(" "));
  }));

Deno.test("pictures seem pixelated on retina screens -> the hidpi session, not another about images", () =>
  withMemIndex(HISTORY, (s) => {
    // pictures ~ images (both sessions); pixelated ~ blurry and retina ~ hidpi only in s-hidpi.
    const r = search(s, "pictures seem pixelated on retina screens");
    assertEquals(r.results[0]?.id, "s-hidpi", r.results.map((x) => x.id).join(" "));
  }));
