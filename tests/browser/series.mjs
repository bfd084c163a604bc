// Plays a tournament's web seat (`tournament --bot NAME=web`) in Debian's Chromium through
// puppeteer-core for GAMES games in a row on the same page: clicks a legal move whenever the
// page offers one, and after each game's end waits on the same page for the next game
// (tests/slow/web_seat_tournament.rs starts the tournament).
//
// usage: node series.mjs URL OUT_FILE CHROMIUM GAMES
//
// Writes OUT_FILE: the moves clicked per game (by the page's game number), the games ended,
// the page's last status, what it wrote to its console and the errors.
import fs from "node:fs";
import puppeteer from "puppeteer-core";

const [url, outFile, chromium, gamesArg] = process.argv.slice(2);
const games = Number(gamesArg);
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
  await page.setViewport({ width: 390, height: 844 });
  await page.goto(url, { waitUntil: "load" });
  // The page counts the games ended on it (body's data-ended) and says when the tournament
  // is over (status's data-closed): a game's end mark alone can be gone before a poll sees
  // it, when the next game starts at once.
  let last = "";
  out.clicks = {};
  for (let turn = 0; turn < 20000; turn++) {
    const state = await page.waitForFunction((last, games) => {
      const st = document.getElementById("status");
      if (st.dataset.closed) return "closed";
      if (Number(document.body.dataset.ended || 0) >= games) return "done";
      if (st.dataset.gone) return "gone";
      const id = document.body.dataset.game + ":" + (document.body.dataset.request || "");
      const b = [...document.querySelectorAll("button.legal")].filter((x) => !x.disabled);
      return document.body.dataset.request && id !== last && b.length ? "move" : false;
    }, { timeout: 180000, polling: 50 }, last, games);
    const got = await state.jsonValue();
    if (got === "gone") throw new Error("the seat went away before the tournament's end");
    if (got !== "move") break;
    const [game, id, pick] = await page.evaluate(() => {
      const b = [...document.querySelectorAll("button.legal")].filter((x) => !x.disabled);
      const one = b[Math.floor(Math.random() * b.length)];
      one.click();
      return [document.body.dataset.game, document.body.dataset.request, one.dataset.move];
    });
    last = game + ":" + id;
    (out.clicks[game] = out.clicks[game] || []).push(pick);
  }
  out.ended = await page.evaluate(() => Number(document.body.dataset.ended || 0));
  out.final = await page.$eval("#status", (e) => e.textContent);
} catch (e) {
  out.errors.push(`driver: ${e.message}`);
} finally {
  await browser.close();
}
fs.writeFileSync(outFile, JSON.stringify(out));
process.exit(0);
