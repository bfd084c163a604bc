// Drives Debian's Chromium through puppeteer-core on a running league's live page
// (tests/slow/league.rs starts `tarneeb league run --serve` and reads what this writes).
//
// usage: node league.mjs URL OUT_DIR CHROMIUM VERSIONS
//
// Waits until the page's "Ratings over time" plot has a line for VERSIONS versions, then
// waits for the plot to change as more games finish (the page fetches it again while results
// come). Writes OUT_DIR/league.json: the versions plotted before and after, the lines' point
// counts, whether any script came with the plot, the page's width at 1280 and 390 px, and what
// the page wrote to its console.
import fs from "node:fs";
import path from "node:path";
import puppeteer from "puppeteer-core";

const [url, outDir, chromium, versions] = process.argv.slice(2);
const out = { console: [], errors: [] };
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
});
const plotted = (page) => page.evaluate(() => {
  const lines = [...document.querySelectorAll("#history svg polyline.history")];
  return {
    versions: lines.map((l) => l.dataset.version),
    points: lines.map((l) => l.getAttribute("points").trim().split(/\s+/).length),
    scripts: document.querySelectorAll("#history script").length,
  };
});
try {
  const page = await browser.newPage();
  page.on("console", (m) => out.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => out.errors.push(String(e)));
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(
    (n) => document.querySelectorAll("#history svg polyline.history").length >= n,
    { timeout: 240000, polling: 200 },
    Number(versions),
  );
  out.before = await plotted(page);
  const total = (p) => p.points.reduce((a, b) => a + b, 0);
  await page.waitForFunction(
    (before) => [...document.querySelectorAll("#history svg polyline.history")]
      .map((l) => l.getAttribute("points").trim().split(/\s+/).length)
      .reduce((a, b) => a + b, 0) > before,
    { timeout: 240000, polling: 200 },
    total(out.before),
  );
  out.after = await plotted(page);
  out.width1280 = await page.evaluate(() => document.documentElement.scrollWidth);
  await page.screenshot({ path: path.join(outDir, "league-1280.png"), fullPage: true });
  await page.setViewport({ width: 390, height: 900 });
  out.width390 = await page.evaluate(() => document.querySelector("#history svg").getBoundingClientRect().width);
  await page.screenshot({ path: path.join(outDir, "league-390.png"), fullPage: true });
} catch (e) {
  out.errors.push(`driver: ${e.message}`);
} finally {
  await browser.close();
}
fs.writeFileSync(path.join(outDir, "league.json"), JSON.stringify(out));
process.exit(0);
