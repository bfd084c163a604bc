// Opens pages in Debian's Chromium through puppeteer-core at a desktop and a phone width and
// reads whether each fits (tests/slow/standings_site.rs and live_page.rs read what it writes).
//
// usage: node fit.mjs OUT_FILE CHROMIUM URL...
//
// Writes OUT_FILE: per URL and width (1280x800, 390x844) the document's scrollWidth, the
// viewport's width and every box that scrolls sideways (its class, the first row of the table
// inside, its scrollWidth and clientWidth), with what the page wrote to its console and the
// errors.
import fs from "node:fs";
import puppeteer from "puppeteer-core";

const [outFile, chromium, ...urls] = process.argv.slice(2);
const out = { pages: [], console: [], errors: [] };
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
});
try {
  const page = await browser.newPage();
  page.on("console", (m) => out.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => out.errors.push(String(e)));
  for (const url of urls) {
    for (const [width, height] of [[1280, 800], [390, 844]]) {
      await page.setViewport({ width, height });
      await page.goto(url, { waitUntil: "load", timeout: 60000 });
      out.pages.push(await page.evaluate((url) => {
        // Every element wider inside than its box (a table scrolling in its box, a line
        // sticking out): what a reader scrolls sideways.
        const wide = [...document.querySelectorAll("body *")]
          .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible")
          .map((e) => ({
            tag: e.tagName.toLowerCase(),
            class: e.className,
            first: (e.querySelector("tr") || e).innerText.slice(0, 60),
            scrollWidth: e.scrollWidth,
            clientWidth: e.clientWidth,
          }));
        const text = document.body.innerText;
        return {
          url,
          width: window.innerWidth,
          scrollWidth: document.documentElement.scrollWidth,
          wide,
          // Where the words come on the page: the headline's and the table's first offsets.
          headlineTop: (document.querySelector(".winner, .verdict") || { offsetTop: -1 }).offsetTop,
          plainTop: (document.querySelector(".plain") || { offsetTop: -1 }).offsetTop,
          tableTop: (document.querySelector("table") || { offsetTop: -1 }).offsetTop,
          hasText: text.length,
        };
      }, url));
    }
  }
} catch (e) {
  out.errors.push(`driver: ${e.message}`);
} finally {
  await browser.close();
}
fs.writeFileSync(outFile, JSON.stringify(out, null, 1));
process.exit(0);
