// Drives Debian's Chromium through puppeteer-core on replay pages (tests/slow/replay_story.rs writes
// the pages and reads what this writes).
//
// usage: node replay.mjs CONFIG.json
//
// CONFIG: {"out": DIR, "chromium": PATH, "widths": [1280, 390],
//          "pages": [{"tag": "classic", "url": "file:///...html", "steps": [0, 40, 56]}]}
// For every page, width and step it opens URL#step=N, reads what the page shows (the running
// count, the verdict, the trick list, the legend, the hands' order, captions, 400's scores and
// bid rules) and saves a screenshot DIR/TAG-step-N-WIDTH.png. Writes DIR/replay.json: the
// snapshots, and every console message and page error.
import fs from "node:fs";
import path from "node:path";
import puppeteer from "puppeteer-core";

const config = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = { console: [], errors: [], snapshots: [] };

function read() {
  const $ = (id) => document.getElementById(id);
  const txt = (id) => ($(id) ? $(id).textContent : null);
  const box = (e) => {
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return { w: r.width, h: r.height, shown: !e.hidden && r.width > 0 && r.height > 0 };
  };
  const style = (sel) => {
    const e = document.querySelector(sel);
    if (!e) return null;
    const s = getComputedStyle(e);
    return { background: s.backgroundColor, shadow: s.boxShadow, title: e.title };
  };
  const tricks = $("tricks");
  const verdict = $("verdict");
  const bidRules = $("bid-rules");
  return {
    step: txt("step"),
    progress: txt("progress-count"),
    progressBox: box($("progress-count")),
    verdict: {
      shown: !verdict.hidden,
      text: verdict.textContent,
      verdict: verdict.getAttribute("data-verdict"),
      seats: Array.from(verdict.querySelectorAll("span[data-verdict]")).map((e) => e.getAttribute("data-verdict")),
      box: box(verdict),
    },
    tricks: {
      count: tricks.querySelectorAll("li").length,
      // The list shows every trick: it has no scroll box of its own.
      scrolls: tricks.scrollHeight > tricks.clientHeight + 1 || getComputedStyle(tricks).overflowY !== "visible",
    },
    legend: {
      text: $("legend").innerText,
      box: box($("legend")),
      trump: style("#legend .card.trump"),
      winner: style("#legend .card.winner"),
      costShown: !$("legend-cost").hidden,
    },
    tableTrump: style("#table .card.trump"),
    tableWinner: style("#trick .card.winner"),
    costs: Array.from(document.querySelectorAll("#tricks sup.cost")).map((e) => ({ text: e.textContent, title: e.title })),
    hands: [0, 1, 2, 3].map((s) => Array.from(document.querySelectorAll("#seat-" + s + "-cards .card")).map((e) => e.getAttribute("data-card"))),
    faces: Array.from(document.querySelectorAll("#table .card")).map((e) => ({ card: e.getAttribute("data-card"), text: e.textContent, title: e.title })),
    lastMove: txt("last-move"),
    contract: txt("contract"),
    bidRules: {
      shown: !bidRules.hidden,
      text: bidRules.textContent,
      minBid: bidRules.getAttribute("data-min-bid"),
      needed: bidRules.getAttribute("data-bid-sum-needed"),
      sum: bidRules.getAttribute("data-bid-sum"),
      box: box(bidRules),
    },
    seatScores: [0, 1, 2, 3].map((s) => {
      const e = document.querySelector("#seat-" + s + "-head .seat-score");
      return e ? e.getAttribute("data-score") : null;
    }),
    scores: $("scores").innerText,
    width: window.innerWidth,
    fits: document.documentElement.scrollWidth <= window.innerWidth,
  };
}

const browser = await puppeteer.launch({
  executablePath: config.chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND"],
});
try {
  const page = await browser.newPage();
  page.on("console", (m) => out.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => out.errors.push(String(e)));
  for (const p of config.pages) {
    for (const width of config.widths) {
      await page.setViewport({ width, height: 900 });
      for (const step of p.steps) {
        // A new document each time: the page reads its fragment when it loads.
        await page.goto("about:blank");
        await page.goto(`${p.url}#step=${step}`, { waitUntil: "load" });
        const snap = await page.evaluate(read);
        snap.tag = p.tag;
        snap.at = step;
        out.snapshots.push(snap);
        await page.screenshot({ path: path.join(config.out, `${p.tag}-step-${step}-${width}.png`), fullPage: true });
      }
    }
  }
} catch (e) {
  out.errors.push(`driver: ${e.message}`);
} finally {
  await browser.close();
}
fs.writeFileSync(path.join(config.out, "replay.json"), JSON.stringify(out));
process.exit(0);
