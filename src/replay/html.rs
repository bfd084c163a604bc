//! `tarneeb replay RECORD --html OUT.html`: the verified game as one self-contained page (inline
//! CSS and JavaScript, no network, no other file) that shows the table, the four hands, the
//! auction and the tricks, and steps through every move with buttons and the arrow keys.
//!
//! The game is embedded as the `--json` object in `<script type="application/json" id="game">`.
//! The page reads its URL fragment: `#step=N` shows the state after N steps (a step is one move;
//! every hand also has a step before its first move), `#hand=H` the start of hand H, and
//! `#selftest` makes the page press its own keys and buttons and write what it then showed into
//! `<pre id="selftest-result">` (for headless browser tests through `--dump-dom`).

use serde_json::json;

use crate::analysis::GameAnalysis;

use crate::record::verified::{result_text, VerifiedGame};

/// The page for a verified game.
pub fn render(game: &VerifiedGame) -> String {
    render_with(game, None)
}

/// The page, with the double-dummy analysis (`replay --html --analyze`) beside the play: the
/// par per hand and the declarer's tricks by trump, the cost of each card played and the
/// best cards where it cost tricks.
pub fn render_with(game: &VerifiedGame, analysis: Option<&GameAnalysis>) -> String {
    let analysis_json = script_json(&serde_json::to_string(&analysis).expect("it serializes"));
    let game_json = script_json(&serde_json::to_string(game).expect("a verified game serializes"));
    let result = match (&game.result, &game.aborted) {
        (Some(r), _) => format!("result: {}", result_text(r)),
        (None, reason) => format!(
            "unfinished: the game was aborted ({})",
            reason.as_deref().unwrap_or("no reason given")
        ),
    };
    let meta = json!({
        // As a string: JavaScript's numbers keep 53 bits, and a seed has 64 (a seed copied
        // from the page must reproduce this game).
        "seed": game.header.seed.to_string(),
        "rules": super::text::rules_text(&game.header.rules),
        "result": result,
        "facts": super::story::hand_facts(game),
    });
    let meta_json = script_json(&meta.to_string());
    TEMPLATE
        .replace("{{SEED}}", &game.header.seed.to_string())
        .replace("{{STYLE}}", &format!("{STYLE}{}", super::deck::STYLE))
        .replace("{{DECK}}", super::deck::TOGGLE)
        .replace("{{SCRIPT}}", SCRIPT)
        .replace("{{META_JSON}}", &meta_json)
        .replace("{{GAME_JSON}}", &game_json)
        .replace("{{ANALYSIS_JSON}}", &analysis_json)
}

/// JSON text made safe inside a `<script>` element: no `</` (which could close it) and no
/// `<!--` (which could open an HTML comment there); and no `{{`, which only a string can hold
/// in JSON, so a bot named `{{ANALYSIS_JSON}}` cannot have a later placeholder filled inside
/// its name. All stay valid JSON with the same value.
fn script_json(json: &str) -> String {
    json.replace("</", "<\\/")
        .replace("<!--", "\\u003c!--")
        .replace("{{", "{\\u007b")
}

const TEMPLATE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tarneeb replay, seed {{SEED}}</title>
<style>
{{STYLE}}
</style>
</head>
<body>
<header>
  <h1>Tarneeb replay <span id="game-title"></span></h1>
  <div id="game-info"></div>
  {{DECK}}
</header>
<nav id="controls">
  <label>Hand <select id="hand-select"></select></label>
  <button id="first" type="button" title="start of the hand (Home)">&laquo; First</button>
  <button id="prev" type="button" title="previous move (ArrowLeft)">&#x25C0; Prev</button>
  <button id="next" type="button" title="next move (ArrowRight)">Next &#x25B6;</button>
  <button id="last" type="button" title="end of the hand (End)">Last &raquo;</button>
  <button id="play" type="button" title="play the moves one after another (Space)">&#x25B6; Play</button>
  <label>speed <select id="speed" title="time between moves">
    <option value="2000">2 s</option><option value="1000">1 s</option>
    <option value="500" selected>0.5 s</option><option value="250">0.25 s</option>
    <option value="100">0.1 s</option></select></label>
  <span id="step">no hand</span>
  <span class="hint">keys: &larr; &rarr; move, Space play/pause, Home/End hand start/end, PageUp/PageDown hand</span>
</nav>
<main>
  <div id="table">
    <section id="seat-2" class="seat pos-top"><div id="seat-2-head" class="seat-head"></div><div id="seat-2-cards" class="cards"></div></section>
    <section id="seat-1" class="seat pos-left"><div id="seat-1-head" class="seat-head"></div><div id="seat-1-cards" class="cards"></div></section>
    <section id="center">
      <div id="hand-line">hand <span id="hand-number">-</span> <span id="contract"></span></div>
      <div id="trick"></div>
      <div id="trick-info"></div>
      <div id="progress-count"></div>
      <div id="verdict" hidden></div>
      <div id="last-move"></div>
    </section>
    <section id="seat-3" class="seat pos-right"><div id="seat-3-head" class="seat-head"></div><div id="seat-3-cards" class="cards"></div></section>
    <section id="seat-0" class="seat pos-bottom"><div id="seat-0-head" class="seat-head"></div><div id="seat-0-cards" class="cards"></div></section>
  </div>
  <aside id="side">
    <h2>Auction</h2>
    <ol id="auction"></ol>
    <div id="bid-rules" hidden></div>
    <h2>Scores</h2>
    <div id="scores"></div>
    <div id="dd" hidden><h2>Double-dummy</h2><div id="dd-par"></div><div id="dd-strains"></div></div>
    <h2>Tricks</h2>
    <ol id="tricks"></ol>
    <div id="faults"></div>
    <div id="result"></div>
    <h2>Legend</h2>
    <ul id="legend">
      <li><span class="card trump sample">7&#x2665;</span> a trump card (the hand's trump suit, once named)</li>
      <li><span class="card winner sample">A&#x2660;</span> the card that won the trick on the table</li>
      <li><span class="dealer">D</span> the dealer of the hand &middot; <span class="to-move-sample">yellow frame</span>: the seat to move</li>
      <li>* a move the referee chose for a seat that faulted</li>
      <li id="legend-cost" hidden><sup class="cost">-1</sup> in the trick list: the card cost that many tricks against the best play (double-dummy analysis: every hand seen); the last move's line names the best cards</li>
    </ul>
  </aside>
</main>
<pre id="selftest-result" hidden></pre>
<noscript>This replay needs JavaScript to show the game.</noscript>
<script type="application/json" id="meta">{{META_JSON}}</script>
<script type="application/json" id="game">{{GAME_JSON}}</script>
<script type="application/json" id="analysis">{{ANALYSIS_JSON}}</script>
<script>
{{SCRIPT}}
</script>
</body>
</html>
"##;

const STYLE: &str = r##"
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, sans-serif; background: #f3f1ea; color: #222; }
header { padding: 8px 16px; background: #24352b; color: #eee; }
header h1 { margin: 0; font-size: 20px; }
#game-info { font-size: 13px; opacity: 0.85; }
#controls { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 8px 16px;
  background: #e2ded2; border-bottom: 1px solid #c8c2b0; }
#controls button { font-size: 15px; padding: 4px 10px; cursor: pointer; }
#step { font-weight: bold; margin-left: 8px; font-variant-numeric: tabular-nums; }
.hint { font-size: 12px; color: #666; margin-left: auto; }
main { display: flex; gap: 16px; padding: 16px; align-items: flex-start; }
#table { flex: 1; display: grid; grid-template-columns: 1fr 1.2fr 1fr;
  grid-template-rows: auto minmax(220px, auto) auto; gap: 10px; padding: 14px;
  background: radial-gradient(#2f7d4a, #1d5532); border-radius: 18px; min-width: 640px; }
.pos-top { grid-column: 2; grid-row: 1; }
.pos-left { grid-column: 1; grid-row: 2; }
#center { grid-column: 2; grid-row: 2; }
.pos-right { grid-column: 3; grid-row: 2; }
.pos-bottom { grid-column: 2; grid-row: 3; }
.seat { background: rgba(255,255,255,0.12); border-radius: 10px; padding: 6px; color: #fff;
  border: 2px solid transparent; align-self: center; }
.seat.to-move { border-color: #ffd54a; }
.seat-head { font-size: 13px; margin-bottom: 4px; }
.seat-head .name { font-weight: bold; }
.team-0 .team { color: #9fd3ff; }
.team-1 .team { color: #ffc09f; }
.dealer { display: inline-block; background: #ffd54a; color: #222; border-radius: 50%;
  width: 18px; height: 18px; text-align: center; font-weight: bold; font-size: 12px; line-height: 18px; }
.cards { display: flex; flex-wrap: wrap; gap: 3px; min-height: 34px; }
.card { display: inline-block; min-width: 30px; padding: 4px 3px; background: #fff; color: #111;
  border: 1px solid #999; border-radius: 5px; text-align: center; font-weight: bold; font-size: 15px; }
.card.red { color: #c8102e; }
/* Two marks that never look alike: a trump card is tinted gold all over; the trick's winner
   has a thick green ring. The legend shows both. */
.card.trump { background: #ffe89a; }
.card.winner { box-shadow: 0 0 0 3px #22c55e; }
#center { display: flex; flex-direction: column; align-items: center; justify-content: center; color: #fff; }
#hand-line { font-size: 14px; margin-bottom: 6px; }
#trick { position: relative; width: 190px; height: 150px; }
#trick .card { position: absolute; font-size: 18px; min-width: 38px; padding: 8px 4px; }
#trick .seat-0 { left: 76px; bottom: 0; }
#trick .seat-1 { left: 0; top: 52px; }
#trick .seat-2 { left: 76px; top: 0; }
#trick .seat-3 { right: 0; top: 52px; }
#trick-info, #last-move, #progress-count { font-size: 13px; min-height: 18px; margin-top: 4px; text-align: center; }
#verdict { font-size: 14px; font-weight: bold; margin-top: 4px; padding: 3px 8px; border-radius: 6px; text-align: center; }
#verdict.made { background: #1f7a3f; border: 1px solid #9be3b4; }
#verdict.failed { background: #8a1c1c; border: 1px solid #f2a1a1; }
#verdict.none { background: rgba(0,0,0,0.25); }
#verdict span.made { color: #9be3b4; }
#verdict span.failed { color: #ffb3b3; }
#bid-rules { font-size: 13px; color: #444; margin: 4px 0; }
#legend { margin: 0; padding-left: 0; list-style: none; font-size: 12px; }
#legend li { margin: 3px 0; }
#legend .card { font-size: 12px; min-width: 24px; padding: 1px 2px; }
.to-move-sample { border: 2px solid #ffd54a; border-radius: 4px; padding: 0 3px; background: #2f7d4a; color: #fff; }
.seat-score { color: #e8e8e8; }
#side { width: 300px; background: #fff; border: 1px solid #d3cdb9; border-radius: 10px; padding: 10px; font-size: 14px; }
#side h2 { font-size: 15px; margin: 8px 0 4px; }
#auction, #tricks { margin: 0; padding-left: 24px; }
/* A long auction scrolls; the trick list never does: all 13 tricks are in sight. */
#auction { max-height: 220px; overflow-y: auto; }
#auction li.current, #tricks li.current { background: #fff2b3; }
#scores div { margin: 2px 0; }
.delta { color: #555; }
#faults, #result { margin-top: 8px; }
#faults div { color: #a00; }
#tricks .card { font-size: 12px; min-width: 24px; padding: 1px 2px; }
sup.cost { color: #c8102e; font-size: 10px; font-weight: bold; }
.bid { color: #ffd54a; font-weight: bold; }
/* A narrow window (a phone, a side panel): the table above the side panel, the seats in one
   column around the trick, smaller cards, no key hints. */
@media (max-width: 820px) {
  header { padding: 6px 10px; }
  header h1 { font-size: 17px; }
  #controls { padding: 6px 10px; gap: 6px; }
  #controls button { font-size: 14px; padding: 4px 7px; }
  .hint { display: none; }
  main { flex-direction: column; padding: 8px; gap: 8px; }
  #table { min-width: 0; width: 100%; grid-template-columns: 1fr 1fr; grid-template-rows: auto auto auto auto;
    gap: 6px; padding: 8px; }
  .pos-top { grid-column: 1 / 3; grid-row: 1; }
  .pos-left { grid-column: 1; grid-row: 2; }
  .pos-right { grid-column: 2; grid-row: 2; }
  #center { grid-column: 1 / 3; grid-row: 3; }
  .pos-bottom { grid-column: 1 / 3; grid-row: 4; }
  .card { min-width: 24px; font-size: 13px; padding: 3px 2px; }
  #side { width: 100%; }
}
"##;

const SCRIPT: &str = r##"
"use strict";
(function () {
  const G = JSON.parse(document.getElementById("game").textContent);
  const META = JSON.parse(document.getElementById("meta").textContent);
  const A = JSON.parse(document.getElementById("analysis").textContent);
  // The analysis of hand `number` (null without --analyze or for a hand not played out).
  const ddHand = (number) => (A ? A.hands.find((x) => x.number === number) || null : null);
  const $ = (id) => document.getElementById(id);
  const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const TRUMP_NAMES = { S: "spades \u2660", H: "hearts \u2665", D: "diamonds \u2666", C: "clubs \u2663", NT: "no trump" };
  // Per hand, from the rules (src/replay/story.rs): the players' scores at the deal, their
  // minimum bids and the bid total needed (400 and Forty-One; null fields elsewhere).
  const FACTS = META.facts || [];
  const RANKS = "AKQJT98765432";

  // Every position: [hand index, moves made]. A hand has moves.length + 1 positions.
  const positions = [];
  const handStart = [];
  G.hands.forEach(function (h, hi) {
    handStart.push(positions.length);
    for (let k = 0; k <= h.moves.length; k++) positions.push([hi, k]);
  });
  let pos = 0;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // A card as the page shows it: QS -> Q\u2660, TD -> 10\u2666 (in captions too).
  function cardText(card) {
    const c = String(card).toUpperCase();
    const rank = c.slice(0, -1), suit = c.slice(-1);
    return (rank === "T" ? "10" : rank) + (SUITS[suit] || suit);
  }
  function cardEl(card, trump) {
    const c = String(card).toUpperCase();
    const suit = c.slice(-1);
    const e = el("span", "card s-" + suit + (suit === "H" || suit === "D" ? " red" : "") + (suit === trump ? " trump" : ""), cardText(c));
    e.setAttribute("data-card", c);
    e.title = cardText(c) + (suit === trump ? " (trump)" : "");
    return e;
  }
  // A hand in the order it is shown: its suits black and red in turn as far as the suits it
  // holds allow (\u2660 \u2665 \u2663 \u2666), high cards first, so the two red suits never sit
  // side by side unless nothing else is left.
  function displayOrder(cards) {
    const up = cards.map((c) => String(c).toUpperCase());
    const has = (s) => up.some((c) => c.slice(-1) === s);
    const blacks = ["S", "C"].filter(has), reds = ["H", "D"].filter(has);
    const [a, b] = blacks.length >= reds.length ? [blacks, reds] : [reds, blacks];
    const order = [];
    a.forEach((s, i) => { order.push(s); if (i < b.length) order.push(b[i]); });
    const rank = (c) => RANKS.indexOf(c.slice(0, -1));
    return up.slice().sort((x, y) => order.indexOf(x.slice(-1)) - order.indexOf(y.slice(-1)) || rank(x) - rank(y));
  }
  function botName(s) {
    const b = (G.bots || []).find((x) => x.seat === s);
    if (!b) return "seat " + s;
    if (b.name) return b.name + (b.version ? " " + b.version : "");
    return (b.command || []).join(" ") || "(no hello)";
  }
  // A call with its strain as a symbol: 8H -> 8♥, 13NT -> 13 NT; other calls unchanged.
  function callText(move) {
    const t = String(move);
    const m = /^(\d+)(NT|[SHDC])$/i.exec(t);
    if (!m) return t;
    const strain = m[2].toUpperCase();
    return m[1] + (strain === "NT" ? " NT" : SUITS[strain]);
  }
  // A move as the page writes it: cards and strains with suit symbols.
  function moveText(m) {
    if (m.decision === "play") return cardText(m.move);
    if (m.decision === "call") return callText(m.move);
    if (m.decision === "trump") return TRUMP_NAMES[String(m.move).toUpperCase()] || String(m.move);
    return String(m.move);
  }
  // The tricks a contract or a 400 bid needs: its number (8H -> 8).
  function level(bid) { return parseInt(String(bid), 10); }
  function endHow(e) {
    return { played: "played", "all-passed": "all passed: no score", "thrown-in": "thrown in: no score", "bid-sum-too-low": "bids too low in total: no score" }[e.end] || e.end;
  }
  function signed(n) { return n > 0 ? "+" + n : String(n); }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }

  // Header and hand selector.
  $("game-title").textContent = "seed " + META.seed;
  $("game-info").textContent = G.referee + " \u00b7 record format " + G.format + " \u00b7 rules: " + META.rules +
    " \u00b7 first dealer " + G.first_dealer + " \u00b7 " + G.hands.length + " hands \u00b7 verified";
  G.hands.forEach(function (h, hi) {
    const o = el("option", "", "hand " + h.number + " (dealer " + h.dealer + ", " + h.moves.length + " moves)");
    o.value = String(hi);
    $("hand-select").appendChild(o);
  });
  $("legend-cost").hidden = !A;

  function render() {
    if (positions.length === 0) {
      $("step").textContent = "the record holds no hand";
      $("result").textContent = META.result;
      return;
    }
    const [hi, k] = positions[pos];
    const h = G.hands[hi];
    const made = h.moves.slice(0, k);
    let lastCall = -1, trumpMove = -1;
    h.moves.forEach(function (m, i) {
      if (m.decision === "call") lastCall = i;
      if (m.decision === "trump") trumpMove = i;
    });
    const plays = made.filter((m) => m.decision === "play").map((m) => ({ seat: m.seat, card: String(m.move).toUpperCase(), sub: m.substituted }));
    const playedSet = new Set(plays.map((p) => p.card));
    const auctionDone = k > lastCall;
    const trumpKnown = h.trump && (trumpMove >= 0 ? k > trumpMove : auctionDone);
    const trump = trumpKnown ? h.trump : null;

    $("step").textContent = "hand " + h.number + ", move " + k + "/" + h.moves.length;
    $("hand-number").textContent = String(h.number);
    $("hand-select").value = String(hi);

    // Tricks.
    const p = plays.length;
    const complete = Math.floor(p / 4);
    const won = [0, 0, 0, 0];
    for (let t = 0; t < complete && t < h.tricks.length; t++) won[h.tricks[t].winner]++;
    const trickEl = $("trick");
    clear(trickEl);
    let info = "";
    if (p > 0) {
      const t = Math.floor((p - 1) / 4);
      const cur = plays.slice(4 * t, p);
      const done = cur.length === 4;
      const ti = h.tricks[t];
      cur.forEach(function (pl) {
        const c = cardEl(pl.card, trump);
        c.className += " seat-" + pl.seat;
        if (done && ti && ti.winner === pl.seat) c.className += " winner";
        c.setAttribute("data-seat", String(pl.seat));
        trickEl.appendChild(c);
      });
      info = "trick " + (t + 1) + (ti ? ", led by seat " + ti.leader : "") + (done && ti ? ": won by seat " + ti.winner : "");
    }
    $("trick-info").textContent = info;

    // The running count against the contract (or each 400 bid), and at the hand's end its
    // outcome: made or failed, by how much.
    const facts = FACTS[hi] || {};
    const atEnd = k === h.moves.length && h.end;
    const bids400 = h.bids && h.bids.every((b) => b !== null) ? h.bids : null;
    let progress = "";
    if (trump && h.contract && h.tricks.length) {
      const d = h.contract.declarer % 2, n = level(h.contract.bid);
      progress = "team " + d + ": " + (won[d] + won[d + 2]) + " of " + n + " \u00b7 team " + (1 - d) + ": " +
        (won[1 - d] + won[3 - d]) + " (" + (14 - n) + " to defeat it)";
    } else if (trump && bids400 && h.tricks.length) {
      progress = [0, 1, 2, 3].map((s) => "seat " + s + ": " + won[s] + " of " + bids400[s]).join(" \u00b7 ");
    }
    $("progress-count").textContent = progress;
    const verdictEl = $("verdict");
    clear(verdictEl);
    verdictEl.hidden = !atEnd;
    verdictEl.className = "none";
    verdictEl.removeAttribute("data-verdict");
    if (atEnd) {
      if (h.end.end !== "played") {
        verdictEl.textContent = "hand " + h.number + ": " + endHow(h.end);
      } else if (h.contract) {
        const d = h.contract.declarer % 2, n = level(h.contract.bid), got = won[d] + won[d + 2];
        const made = got >= n;
        verdictEl.className = made ? "made" : "failed";
        verdictEl.setAttribute("data-verdict", made ? "made" : "failed");
        verdictEl.textContent = "team " + d + (made ? " made " : " failed ") + callText(h.contract.bid) +
          (made ? ": " + got + " tricks" + (got > n ? " (" + (got - n) + " over)" : ", exactly") : " by " + (n - got) + ": " + got + " tricks");
      } else if (bids400) {
        [0, 1, 2, 3].forEach(function (s) {
          const made = won[s] >= bids400[s];
          const part = el("span", made ? "made" : "failed", "seat " + s + (made ? " made " + bids400[s] : " failed " + bids400[s] + " by " + (bids400[s] - won[s])) + " (" + won[s] + ")");
          part.setAttribute("data-seat", String(s));
          part.setAttribute("data-verdict", made ? "made" : "failed");
          if (s > 0) verdictEl.appendChild(document.createTextNode(" \u00b7 "));
          verdictEl.appendChild(part);
        });
      }
      if (h.end.instant_winner !== undefined && h.end.instant_winner !== null) {
        verdictEl.appendChild(document.createTextNode(" \u00b7 team " + h.end.instant_winner + " wins the game on this hand"));
      }
    }
    // 400 and Forty-One: the players' scores (at the deal, then at the hand's end).
    const seatNow = atEnd && h.end.seat_scores ? h.end.seat_scores : facts.seat_scores || null;

    // Seats.
    const toMove = k < h.moves.length ? h.moves[k].seat : null;
    for (let s = 0; s < 4; s++) {
      const seatEl = $("seat-" + s);
      seatEl.className = "seat " + ["pos-bottom", "pos-left", "pos-top", "pos-right"][s] + " team-" + (s % 2) + (toMove === s ? " to-move" : "");
      const head = $("seat-" + s + "-head");
      clear(head);
      head.appendChild(el("span", "name", "seat " + s + " \u00b7 " + botName(s)));
      head.appendChild(document.createTextNode(" "));
      head.appendChild(el("span", "team", "team " + (s % 2)));
      if (h.dealer === s) {
        head.appendChild(document.createTextNode(" "));
        const d = el("span", "dealer", "D");
        d.id = "dealer-marker";
        d.title = "dealer";
        head.appendChild(d);
      }
      head.appendChild(document.createTextNode(" \u00b7 tricks " + won[s]));
      if (h.bids) {
        // 400 and Forty-One: each player's own bid, beside the tricks it must reach.
        const bid = made.find((m) => m.decision === "call" && m.seat === s);
        const b = el("span", "bid", " / bid " + (bid ? bid.move : "-"));
        b.setAttribute("data-bid", bid ? String(bid.move) : "");
        head.appendChild(b);
      }
      if (seatNow) {
        const sc = el("span", "seat-score", " \u00b7 score " + seatNow[s]);
        sc.setAttribute("data-score", String(seatNow[s]));
        head.appendChild(sc);
      }
      const cardsEl = $("seat-" + s + "-cards");
      clear(cardsEl);
      // The order of the cards still held, so the colours alternate as the suits run out.
      const held = h.hands[s].filter((c) => !playedSet.has(String(c).toUpperCase()));
      displayOrder(held).forEach((c) => cardsEl.appendChild(cardEl(c, trump)));
    }

    // Auction: the throw-in decisions and calls made so far.
    const auctionEl = $("auction");
    clear(auctionEl);
    made.forEach(function (m, i) {
      if (m.decision !== "call" && m.decision !== "throw-in") return;
      const li = el("li", i === k - 1 ? "current" : "", "seat " + m.seat + ": " + callText(m.move) + (m.decision === "throw-in" ? " (throw-in)" : "") + (m.substituted ? " *" : ""));
      li.setAttribute("data-seat", String(m.seat));
      li.setAttribute("data-move", String(m.move));
      auctionEl.appendChild(li);
    });

    // 400 and Forty-One: the lowest bid each player may make and the total the bids need.
    const bidRules = $("bid-rules");
    bidRules.hidden = !facts.min_bid;
    if (facts.min_bid) {
      const mins = facts.min_bid;
      const same = mins.every((v) => v === mins[0]);
      let t = "minimum bid " + (same ? String(mins[0]) : mins.map((v, s) => "seat " + s + ": " + v).join(", ")) +
        " (by each player's score) \u00b7 the bids must total " + facts.bid_sum_needed + " or more";
      if (auctionDone && facts.bid_sum !== null && facts.bid_sum !== undefined) t += "; they total " + facts.bid_sum;
      bidRules.textContent = t;
      bidRules.setAttribute("data-min-bid", mins.join(","));
      bidRules.setAttribute("data-bid-sum-needed", String(facts.bid_sum_needed));
      bidRules.setAttribute("data-bid-sum", auctionDone && facts.bid_sum !== null ? String(facts.bid_sum) : "");
    }

    // Contract and trump.
    let contract = "";
    if (auctionDone && h.contract) {
      const names = { 1: "", 2: " doubled", 4: " redoubled" };
      const mult = h.contract.multiplier in names ? names[h.contract.multiplier] : " x" + h.contract.multiplier;
      contract = "\u00b7 contract " + callText(h.contract.bid) + mult + " by seat " + h.contract.declarer + " (team " + (h.contract.declarer % 2) + ")";
    } else if (auctionDone && h.bids) {
      contract = "\u00b7 bids " + h.bids.map((b, s) => s + ": " + (b === null ? "-" : b)).join(", ");
    } else if (k <= lastCall) {
      contract = "\u00b7 auction";
    }
    if (trump) contract += " \u00b7 trump " + (TRUMP_NAMES[trump] || trump);
    $("contract").textContent = contract;
    const ha = ddHand(h.number);
    $("dd").hidden = !ha;
    if (ha) {
      const after = p > 0 ? ha.cards[p - 1].side_tricks_after : ha.par;
      $("dd-par").textContent = "team " + ha.side + ": par " + ha.par + ", took " + ha.taken + "; now " + after + " with best play";
      $("dd-strains").textContent = ha.strains.length ? "declarer's tricks by trump: " + ha.strains.map((x) => x.strain + " " + x.tricks).join(", ") : "";
    }

    // Last move.
    if (k > 0) {
      const m = h.moves[k - 1];
      const verb = { call: "calls", "throw-in": "decides", trump: "names trump", play: "plays" }[m.decision] || m.decision;
      let dd = "";
      const ha = ddHand(h.number);
      if (ha && m.decision === "play") {
        const v = ha.cards[made.filter((x) => x.decision === "play").length - 1];
        if (v) dd = v.cost === 0 ? " \u00b7 a best card" : " \u00b7 cost " + v.cost + " trick" + (v.cost > 1 ? "s" : "") + " (best: " + v.best.map(cardText).join(" ") + ")";
      }
      $("last-move").textContent = "seat " + m.seat + " " + verb + " " + moveText(m) + (m.substituted ? " (chosen by the referee)" : "") + " \u00b7 " + m.ms + " ms" + dd;
    } else {
      $("last-move").textContent = "seat " + h.dealer + " dealt";
    }

    // Tricks list: the completed ones.
    const tricksEl = $("tricks");
    clear(tricksEl);
    for (let t = 0; t < complete && t < h.tricks.length; t++) {
      const ti = h.tricks[t];
      const li = el("li", t === complete - 1 && p % 4 === 0 ? "current" : "", "");
      li.appendChild(document.createTextNode("seat " + ti.leader + ": "));
      const ha = ddHand(h.number);
      ti.cards.forEach((c, i) => {
        li.appendChild(cardEl(c, trump));
        const v = ha ? ha.cards[4 * t + i] : null;
        if (v && v.cost > 0) {
          const mark = el("sup", "cost", "-" + v.cost);
          mark.title = cardText(c) + " cost " + v.cost + " trick" + (v.cost > 1 ? "s" : "") + " against the best play (double-dummy: every hand seen); best: " + v.best.map(cardText).join(" ");
          li.appendChild(mark);
        }
        li.appendChild(document.createTextNode(" "));
      });
      li.appendChild(document.createTextNode("\u2192 seat " + ti.winner));
      tricksEl.appendChild(li);
    }

    // Scores: the totals before the hand, and its result at its end.
    const scoresEl = $("scores");
    clear(scoresEl);
    let before = [0, 0], seatBefore = null;
    for (let j = hi - 1; j >= 0; j--) {
      if (G.hands[j].end) { before = G.hands[j].end.team_scores; seatBefore = G.hands[j].end.seat_scores || null; break; }
    }
    const teams = atEnd ? h.end.team_scores : before;
    for (let t = 0; t < 2; t++) {
      const line = el("div", "", "team " + t + " (seats " + t + " & " + (t + 2) + "): " + teams[t]);
      line.setAttribute("data-team", String(t));
      if (atEnd) line.appendChild(el("span", "delta", " (" + signed(h.end.team_delta[t]) + ")"));
      scoresEl.appendChild(line);
    }
    const seatScores = atEnd ? h.end.seat_scores : seatBefore || facts.seat_scores || null;
    if (seatScores) {
      scoresEl.appendChild(el("div", "", "players: " + seatScores.map((v, s) => s + ": " + v).join(", ")));
    }
    if (atEnd) {
      scoresEl.appendChild(el("div", "delta", "hand " + h.number + " ended: " + endHow(h.end)));
    }

    // Faults of the hand, and the result at the end of the game.
    const faultsEl = $("faults");
    clear(faultsEl);
    (hi === 0 ? G.faults : []).concat(h.faults).forEach(function (f) {
      faultsEl.appendChild(el("div", "", "fault: seat " + f.seat + " " + f.kind + " (" + f.action + "): " + f.detail));
    });
    $("result").textContent = pos === positions.length - 1 ? META.result : "";
  }

  function go(n) {
    if (positions.length === 0) return;
    pos = Math.max(0, Math.min(positions.length - 1, n));
    render();
  }
  function handIndex() { return positions.length ? positions[pos][0] : 0; }
  function handEnd(hi) { return handStart[hi] + G.hands[hi].moves.length; }
  const actions = {
    next: () => go(pos + 1),
    prev: () => go(pos - 1),
    first: () => { const hi = handIndex(); go(pos === handStart[hi] && hi > 0 ? handStart[hi - 1] : handStart[hi]); },
    last: () => { const hi = handIndex(); go(pos === handEnd(hi) && hi + 1 < G.hands.length ? handEnd(hi + 1) : handEnd(hi)); },
    nextHand: () => { const hi = handIndex(); if (hi + 1 < G.hands.length) go(handStart[hi + 1]); },
    prevHand: () => { const hi = handIndex(); go(pos === handStart[hi] && hi > 0 ? handStart[hi - 1] : handStart[hi]); },
  };
  // Autoplay: one move per tick at the chosen speed, stopping at the last move.
  let timer = null;
  function stopPlay() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("play").innerHTML = "&#x25B6; Play";
  }
  function startPlay() {
    stopPlay();
    if (pos >= positions.length - 1) go(0);
    timer = setInterval(function () {
      if (pos >= positions.length - 1) { stopPlay(); return; }
      go(pos + 1);
    }, Number($("speed").value) || 500);
    $("play").innerHTML = "&#x23F8; Pause";
  }
  actions.toggle = () => (timer === null ? startPlay() : stopPlay());
  $("play").addEventListener("click", actions.toggle);
  $("speed").addEventListener("change", () => { if (timer !== null) startPlay(); });
  ["next", "prev", "first", "last"].forEach((id) => $(id).addEventListener("click", actions[id]));
  $("hand-select").addEventListener("change", (e) => go(handStart[Number(e.target.value)] || 0));
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "SELECT" || e.target.tagName === "INPUT")) return;
    const a = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last", PageDown: "nextHand", PageUp: "prevHand", " ": "toggle" }[e.key];
    if (!a || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    actions[a]();
  });

  // What the page shows, read back from the page itself (for the self-test).
  function shown(action) {
    const cards = (sel) => Array.from(document.querySelectorAll(sel + " [data-card]")).map((c) => c.getAttribute("data-card"));
    return {
      action: action,
      step: $("step").textContent,
      hand: $("hand-number").textContent,
      trick: cards("#trick"),
      seats: [0, 1, 2, 3].map((s) => cards("#seat-" + s + "-cards")),
      auction: Array.from(document.querySelectorAll("#auction li")).map((li) => li.textContent),
      scores: Array.from($("scores").children).map((d) => d.textContent),
      bids: [0, 1, 2, 3].map((s) => { const b = document.querySelector("#seat-" + s + "-head .bid"); return b ? b.getAttribute("data-bid") : null; }),
      // The page fits the window: nothing sticks out sideways.
      width: window.innerWidth,
      fits: document.documentElement.scrollWidth <= window.innerWidth,
      playing: timer !== null,
    };
  }
  function selftest(presses) {
    const out = [shown("load")];
    const key = (k) => document.body.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
    for (let i = 0; i < presses; i++) key("ArrowRight");
    out.push(shown("ArrowRight x" + presses));
    $("next").click(); out.push(shown("click next"));
    $("prev").click(); out.push(shown("click prev"));
    key("ArrowLeft"); out.push(shown("ArrowLeft"));
    $("last").click(); out.push(shown("click last"));
    $("first").click(); out.push(shown("click first"));
    $("speed").value = "100";
    $("play").click(); out.push(shown("click play"));
    const r = $("selftest-result");
    const startPos = pos;
    // Let autoplay run three ticks, then pause with the Space key.
    setTimeout(function () {
      const moved = pos - startPos;
      key(" ");
      const paused = shown("Space");
      paused.autoplayed = moved;
      out.push(paused);
      r.textContent = JSON.stringify({ presses: presses, snapshots: out });
      r.hidden = false;
    }, 350);
  }

  const hash = location.hash.replace(/^#/, "");
  const m = /^(step|hand|selftest)(?:=(\d+))?$/.exec(hash);
  if (m && m[1] === "step" && m[2] !== undefined) {
    go(Number(m[2]));
  } else if (m && m[1] === "hand" && m[2] !== undefined) {
    const hi = G.hands.findIndex((h) => h.number === Number(m[2]));
    go(hi >= 0 ? handStart[hi] : 0);
  } else {
    go(0);
  }
  if (m && m[1] === "selftest") {
    // Default: through the first hand's calls to its first card play.
    let presses = m[2] !== undefined ? Number(m[2]) : 0;
    if (m[2] === undefined && G.hands.length) {
      const first = G.hands[0].moves.findIndex((x) => x.decision === "play");
      presses = first >= 0 ? first + 1 : G.hands[0].moves.length;
    }
    selftest(presses);
  }
})();
"##;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_the_script() {
        let s = script_json(r#"{"name":"</script><!--x"}"#);
        assert!(!s.contains("</"));
        assert!(!s.contains("<!--"));
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["name"], "</script><!--x");
    }

    /// A bot names itself: a name holding a later placeholder must stay a name.
    #[test]
    fn script_json_leaves_no_placeholder_to_fill() {
        let s = script_json(r#"{"name":"{{ANALYSIS_JSON}} {{{x}}}"}"#);
        assert!(!s.contains("{{"), "{s}");
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["name"], "{{ANALYSIS_JSON}} {{{x}}}");
    }
}
