// Drives Debian's Chromium through puppeteer-core on the live page of a running tournament
// (tests/slow/live_page.rs starts the tournament and reads what this writes).
//
// usage: node live.mjs URL OUT_DIR CHROMIUM
//
// Meanwhile it keeps every byte of the page's event stream (/events) as a spectator's browser
// gets it, so the test can check that no hidden card was ever sent. Writes OUT_DIR/live.json:
// the progress and standings text before and after a game finished, whether the page fits at
// 1280 and 390 px, the four-colour deck, what the page wrote to its
// console, whether an entrant's page and a finished game's replay page opened, and the events.
import fs from "node:fs";
import path from "node:path";
import puppeteer from "puppeteer-core";
import { deck, pressToggle } from "./deck-lib.mjs";

const [url, outDir, chromium] = process.argv.slice(2);
const limit = (ms, what) => new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms));

// The raw stream, read to its end (the server ends it when the run is over).
const events = [];
const stream = (async () => {
  const res = await fetch(url + "events");
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    events.push(decoder.decode(value, { stream: true }));
  }
})();

const out = { console: [], errors: [] };
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
});
try {
  const page = await browser.newPage();
  page.on("console", (m) => out.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => out.errors.push(String(e)));
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(() => document.getElementById("progress").dataset.done !== undefined, { timeout: 60000 });
  const read = () => page.evaluate(() => ({
    done: Number(document.getElementById("progress").dataset.done),
    progress: document.getElementById("progress").textContent,
    standings: document.getElementById("standings").innerText,
  }));
  out.before = await read();
  // The four-colour deck, turned on from the keyboard, on the cards of a game in progress,
  // and still on after a reload.
  out.deckBefore = await deck(page);
  await pressToggle(page);
  await page.waitForFunction(() => document.querySelector(".table-view .card"), { timeout: 120000, polling: 20 });
  out.deckOn = await deck(page);
  await page.reload({ waitUntil: "load" });
  await page.waitForFunction(() => document.getElementById("progress").dataset.done !== undefined, { timeout: 60000 });
  out.deckReloaded = await deck(page);
  // A game's page is linked once both games of its duplicate pair have ended (they share
  // their deals): wait for a whole pair, games 0 and 1 with one job.
  await page.waitForFunction(
    (d) => Number(document.getElementById("progress").dataset.done) > Math.max(d, 1),
    { timeout: 240000 },
    out.before.done,
  );
  out.after = await read();
  // Whether the page fits its window (issue 40): the document, and every box that would
  // scroll sideways inside it.
  const fit = () => page.evaluate(() => ({
    width: window.innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
    wide: [...document.querySelectorAll("body *")]
      .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible")
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${e.scrollWidth} > ${e.clientWidth}`),
  }));
  out.fit1280 = await fit();
  await page.screenshot({ path: path.join(outDir, "live-1280.png") });
  await page.setViewport({ width: 390, height: 844 });
  out.fit390 = await fit();
  await page.screenshot({ path: path.join(outDir, "live-390.png") });
  await page.setViewport({ width: 1280, height: 900 });
  // An entrant's page, through the standings' link, and a finished game's replay.
  const entrant = await page.$eval("#standings a", (a) => a.href);
  await page.goto(entrant, { waitUntil: "load" });
  out.entrantTitle = await page.title();
  const game = await page.$eval("td a[href*='games/']", (a) => a.href);
  await page.goto(game, { waitUntil: "load" });
  out.gameStep = await page.$eval("#step", (e) => e.textContent);
} catch (e) {
  out.errors.push(`driver: ${e.message}`);
} finally {
  await browser.close();
}
try {
  await Promise.race([stream, limit(900000, "the event stream did not end in 15 minutes")]);
} catch (e) {
  out.errors.push(`stream: ${e.message}`);
}
out.events = events.join("");
fs.writeFileSync(path.join(outDir, "live.json"), JSON.stringify(out));
process.exit(0);
