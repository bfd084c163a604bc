// Plays a `play --bot web` seat in Debian's Chromium through puppeteer-core, as a person
// would: waits for the page to offer legal moves, clicks one of them (the highlighted
// buttons) or makes it from the keyboard (Space on the focused move, Tab and Enter), until
// the page says the game is over (tests/slow/web_seat.rs starts the game).
//
// usage: node seat.mjs URL OUT_FILE CHROMIUM [SHOTS_PREFIX]
//
// Writes OUT_FILE: the moves made (clicked or keyed; `keyed` counts the keyboard's), what the page wrote to its console, the errors, and
// whether a request without the token was refused.
import fs from "node:fs";
import puppeteer from "puppeteer-core";
import { deck, pressToggle } from "./deck-lib.mjs";

const [url, outFile, chromium, shots] = process.argv.slice(2);
const out = { clicks: [], keyed: 0, console: [], errors: [] };
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
});
try {
  const noToken = await fetch(url.split("?")[0] + "state");
  out.withoutToken = noToken.status;
  const page = await browser.newPage();
  page.on("console", (m) => out.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => out.errors.push(String(e)));
  page.on("error", (e) => out.errors.push(`crashed: ${e}`));
  await page.setViewport({ width: 390, height: 844 });
  await page.goto(url, { waitUntil: "load" });
  let shot = 0, last = "";
  for (let turn = 0; turn < 5000; turn++) {
    // A new request (its id differs from the last answered) with moves to click, or the end.
    const ready = (last) => {
      if (document.getElementById("status").dataset.over) return "over";
      if (document.getElementById("status").dataset.gone) return "gone";
      const id = document.body.dataset.request || "";
      const b = [...document.querySelectorAll("button.legal")].filter((x) => !x.disabled);
      return id !== "" && id !== last && b.length ? "move" : false;
    };
    // Chromium now and then reports the frame detached while the page is fine: look again.
    let state = null;
    for (let tries = 0; state === null; tries++) {
      try {
        state = await page.waitForFunction(ready, { timeout: 120000, polling: 50 }, last);
      } catch (e) {
        if (tries >= 5 || !/detached/.test(e.message)) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const got = await state.jsonValue();
    if (got === "over") break;
    if (got === "gone") throw new Error("the seat went away before the game's end");
    if (shots && shot < 2) {
      await page.screenshot({ path: `${shots}-${shot === 0 ? 390 : 1280}.png` });
      shot++;
      await page.setViewport({ width: 1280, height: 900 });
    }
    // The four-colour deck, turned on from the keyboard at the first move, is still on
    // after a reload (the rest of the game is played with it).
    if (turn === 0) {
      out.deckBefore = await deck(page);
      await pressToggle(page);
      out.deckOn = await deck(page);
      await page.reload({ waitUntil: "load" });
      await page.waitForFunction(ready, { timeout: 120000, polling: 50 }, last);
      out.deckReloaded = await deck(page);
    }
    // One move in three is clicked; the others are made from the keyboard as a person
    // would: Space on the move that has the focus when the turn comes, or Tab (from the top
    // of the page) to a legal move and Enter.
    let id, pick;
    if (turn % 3 === 0) {
      // Chosen and clicked in the page in one step, so a redraw cannot come in between.
      [id, pick] = await page.evaluate(() => {
        const b = [...document.querySelectorAll("button.legal")].filter((x) => !x.disabled);
        const one = b[Math.floor(Math.random() * b.length)];
        one.click();
        return [document.body.dataset.request, one.dataset.move];
      });
    } else {
      const focused = () => {
        const a = document.activeElement;
        return a && a.matches("button.legal:not(:disabled)") ? [document.body.dataset.request, a.dataset.move] : null;
      };
      let key = "Space";
      if (turn % 3 === 2) {
        key = "Enter";
        const legal = await page.$$eval("button.legal:not(:disabled)", (b) => b.length);
        const want = Math.floor(Math.random() * legal);
        await page.evaluate(() => document.activeElement && document.activeElement.blur());
        for (let seen = -1, presses = 0; seen < want; presses++) {
          if (presses > 200) throw new Error(`Tab never reached legal move ${want} of ${legal}`);
          await page.keyboard.press("Tab");
          if (await page.evaluate(focused)) seen++;
        }
      }
      const at = await page.evaluate(focused);
      if (!at) throw new Error(`no legal move has the focus for ${key} (request ${last} answered last)`);
      [id, pick] = at;
      await page.keyboard.press(key);
      out.keyed++;
    }
    last = id;
    out.clicks.push(pick);
  }
  out.final = await page.$eval("#status", (e) => e.textContent);
} catch (e) {
  out.errors.push(`driver: ${e.message}`);
  try { const ps = await browser.pages(); out.pages = await Promise.all(ps.map((p) => p.evaluate(() => location.href + " | " + document.getElementById("status")?.textContent).catch((x) => "eval: " + x.message))); } catch (x) { out.pages = "pages: " + x.message; }
  try { out.lastUrl = browser.pages ? (await browser.pages()).map((p) => p.url()) : null; } catch (_) {}
} finally {
  await browser.close();
}
fs.writeFileSync(outFile, JSON.stringify(out));
process.exit(0);
