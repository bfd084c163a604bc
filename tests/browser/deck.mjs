// The four-colour deck on a published site (tests/slow/standings_site.rs): turned on from the
// keyboard on the index, then a game's replay page opened from disk shows it on (one
// setting for the site, kept in localStorage), still on after a reload, and off again from
// its own toggle.
//
// usage: node deck.mjs OUT_FILE CHROMIUM INDEX_URL GAME_URL
import fs from "node:fs";
import puppeteer from "puppeteer-core";
import { deck, pressToggle } from "./deck-lib.mjs";

const [outFile, chromium, index, game] = process.argv.slice(2);
const out = { console: [], errors: [] };
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--allow-file-access-from-files", "--host-resolver-rules=MAP * ~NOTFOUND"],
});
try {
  const page = await browser.newPage();
  page.on("console", (m) => out.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => out.errors.push(String(e)));
  await page.goto(index, { waitUntil: "load" });
  out.indexBefore = await deck(page);
  await pressToggle(page);
  out.indexAfter = await deck(page);
  await page.goto(game, { waitUntil: "load" });
  out.gameOpened = await deck(page);
  await page.reload({ waitUntil: "load" });
  out.gameReloaded = await deck(page);
  await pressToggle(page);
  out.gameOff = await deck(page);
} catch (e) {
  out.errors.push(`driver: ${e.message}`);
} finally {
  await browser.close();
}
fs.writeFileSync(outFile, JSON.stringify(out));
process.exit(0);
