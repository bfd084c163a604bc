// Reloads a web seat's page many times in quick succession, as an impatient person would,
// then plays a move from the last page (tests/slow/web_seat.rs starts the seat and reads the
// move it sends). Each page is reloaded once it shows the seat's request, so every earlier
// page leaves a long poll pending on the seat when it goes: the ninth such reload in 20 s was
// refused ("too many pages are open") and its page stopped polling with no buttons (issue 39).
//
// Then the limit on pages per seat, which stays: a ninth tab open at once is refused and asks
// again with backoff until a tab closes, then plays.
//
// usage: node reload.mjs URL OUT_FILE CHROMIUM RELOADS
//
// Writes OUT_FILE: the reloads made, each page's count of 503s met (`busy`), the ninth tab's
// note while refused and after, its 503s, the move clicked on it, its status, what the first
// page wrote to the console, the errors.
import fs from "node:fs";
import puppeteer from "puppeteer-core";

const [url, outFile, chromium, reloads] = process.argv.slice(2);
const out = { reloads: 0, busy: [], console: [], errors: [] };
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
});
// The seat's request is on the page with buttons to press.
const ready = () => {
  const b = [...document.querySelectorAll("button.legal")].filter((x) => !x.disabled);
  return document.body.dataset.request === "1" && b.length > 0;
};
try {
  const page = await browser.newPage();
  page.on("console", (m) => out.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => out.errors.push(String(e)));
  await page.goto(url, { waitUntil: "load" });
  for (let i = 0; i <= Number(reloads); i++) {
    if (i > 0) {
      await page.reload({ waitUntil: "load" });
      out.reloads++;
    }
    await page.waitForFunction(ready, { timeout: 120000, polling: 50 });
    out.busy.push(Number(await page.evaluate(() => document.body.dataset.busy || 0)));
  }
  // The limit stays as protection against tabs held open: with this page and 7 more tabs
  // polling, a ninth tab is refused (503) and asks again with backoff; once the first page is
  // closed, the ninth gets in, shows the moves, and its move is played.
  // Each tab in a browser context of its own, as if on 8 machines: one browser opens at most 6
  // connections to a host, and would queue the rest of its polls itself.
  const tabs = [];
  for (let i = 0; i < 7; i++) {
    const t = await (await browser.createBrowserContext()).newPage();
    await t.goto(url, { waitUntil: "load" });
    await t.waitForFunction(ready, { timeout: 120000, polling: 50 });
    tabs.push(t);
  }
  const ninth = await (await browser.createBrowserContext()).newPage();
  ninth.on("pageerror", (e) => out.errors.push(String(e)));
  await ninth.goto(url, { waitUntil: "load" });
  await ninth.waitForFunction(() => Number(document.body.dataset.busy || 0) > 0, { timeout: 120000, polling: 50 });
  out.ninthNote = await ninth.$eval("#note", (e) => e.textContent);
  await page.close();
  // Got in: a poll answered (the note of the refusal cleared) with the buttons shown. The
  // buttons alone may be the page's first draw, from before its polls were refused.
  const gotIn = () => {
    const b = [...document.querySelectorAll("button.legal")].filter((x) => !x.disabled);
    return document.body.dataset.request === "1" && b.length > 0 && document.getElementById("note").textContent === "";
  };
  await ninth.waitForFunction(gotIn, { timeout: 120000, polling: 50 });
  out.ninthBusy = Number(await ninth.evaluate(() => document.body.dataset.busy));
  out.ninthNoteAfter = await ninth.$eval("#note", (e) => e.textContent);
  // The ninth tab's move: the bid 8, clicked.
  out.clicked = await ninth.evaluate(() => {
    const b = [...document.querySelectorAll("button.legal")].find((x) => x.dataset.move === "8" && !x.disabled);
    if (!b) return null;
    b.click();
    return b.dataset.move;
  });
  await ninth.waitForFunction(() => document.body.dataset.request === "", { timeout: 120000, polling: 50 });
  out.final = await ninth.$eval("#status", (e) => e.textContent);
  for (const t of tabs) await t.close();
} catch (e) {
  out.errors.push(`driver: ${e.message}`);
  try { out.lastStatus = await Promise.all((await browser.pages()).map((p) => p.evaluate(() => document.getElementById("status").textContent + " | " + document.getElementById("note").textContent).catch((x) => x.message))); } catch (_) {}
} finally {
  await browser.close();
}
fs.writeFileSync(outFile, JSON.stringify(out));
process.exit(0);
