import { chromium } from "playwright-core";
const [url, out] = Deno.args;
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
const p = await b.newPage({ viewport: { width: 1200, height: 900 } });
p.on("console", (m) => console.log("console", m.type(), m.text()));
for (const [name, path] of [["list", ""], ["stats", "stats"], ["projects", "projects"]]) {
  await p.goto(url + path);
  await p.screenshot({ path: `${out}/${name}.png`, fullPage: name !== "list" });
}
await p.goto(url);
await p.fill("#q", "healthcheck");
await p.waitForSelector(".hit");
await p.screenshot({ path: `${out}/search.png` });
await p.click(".hit a.title");
await p.waitForLoadState();
await p.screenshot({ path: `${out}/session.png`, fullPage: true });
console.log(p.url());
await b.close();
