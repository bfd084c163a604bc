//! The web seat's page: the seat's hand, the table, the auction, the scores, the previous
//! trick and the time left, with the legal moves as buttons (click, tap, or Tab and Enter).
//! It long-polls `/state` (one answer per change) and posts the chosen move to `/move`; the
//! token of its own address goes with every request. Every text is set as text.

pub const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tarneeb: your seat</title>
<link rel="icon" href="data:,">
<style>{{STYLE}}
#status { font-size: 16px; margin: 10px 0; min-height: 1.4em; }
#turn { font-weight: bold; color: #1d5532; }
.felt { background: radial-gradient(#2f7d4a, #1d5532); color: #f4f4ee; border-radius: 14px;
  padding: 10px 14px; margin: 8px 0; }
.row { margin: 4px 0; }
.card, .call { font-size: 18px; padding: 6px 9px; margin: 3px; border-radius: 6px;
  border: 1px solid #8d8774; background: #fffdf7; color: #222; min-width: 44px; }
.card.red { color: #b3261e; }
button.legal { border: 2px solid #d49b00; box-shadow: 0 0 0 2px #f5d67a; cursor: pointer; }
button:disabled { opacity: 0.55; }
#hand { display: flex; flex-wrap: wrap; }
#note { font-size: 14px; color: #8a5a00; min-height: 1.2em; }
</style>
</head>
<body>
<header><h1>Tarneeb: <span id="who">your seat</span></h1>{{DECK}}</header>
<main>
<div id="status" aria-live="polite">connecting...</div>
<div id="note" aria-live="polite"></div>
<div class="felt">
  <div class="row" id="scores"></div>
  <div class="row" id="contract"></div>
  <div class="row" id="auction"></div>
  <div class="row" id="trick"></div>
  <div class="row" id="previous"></div>
</div>
<h2>Your hand</h2>
<div id="hand"></div>
<div id="calls"></div>
</main>
<script>
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const token = new URLSearchParams(location.search).get("token") || "";
  const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const ORDER = { S: 0, H: 1, C: 2, D: 3 };
  const RANKS = "23456789TJQKA";
  const pretty = (c) => { const s = c.slice(-1); return c.slice(0, -1).replace("T", "10") + (SUITS[s] || s); };
  // A call as shown: a strain in its symbol (8H is 8♥, NT stays NT), the rest as sent.
  const call = (m) => { const b = /^(\d*)(C|D|H|S|NT)$/.exec(m); return b ? b[1] + (SUITS[b[2]] || b[2]) : m; };
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  let version = 0, deadline = null, limit = null, current = null, sentFor = null, gameNo = null;
  // The clock: a day or more is no limit (a seat played by a person has 30 days when no
  // --move-timeout is given; it showed "2592000 s left").
  const clockText = (limitMs, leftMs) => limitMs >= 86400000 ? " \u00b7 no time limit" : " \u00b7 " + Math.max(0, Math.ceil(leftMs / 1000)) + " s left";

  function send(id, move) {
    sentFor = id;
    for (const b of document.querySelectorAll("button")) b.disabled = true;
    fetch("move?token=" + encodeURIComponent(token), { method: "POST", body: JSON.stringify({ id, move }) })
      .then((r) => r.ok ? null : r.text().then((t) => { sentFor = null; draw(current); $("status").textContent = t; }));
  }
  function endText(over) {
    const w = over.winner;
    return (w === null ? "a draw" : "seats " + (w === 0 ? "0 & 2" : "1 & 3") + " won") + " (" + over.reason + "), scores " + over.team_scores.join(" : ");
  }
  // This seat's fault in the game, said plainly (a tournament's seat then waits for the next).
  function faultText(st) {
    if (!st.fault) return "";
    const f = st.fault;
    return "this seat faulted (" + f.kind + ")" + (f.action === "forfeit" ? ": the game is forfeited" : ": the referee played a random move for it");
  }
  function draw(st) {
    // A tournament's seat plays game after game: a new one starts with nothing answered.
    if (st.game !== gameNo) {
      gameNo = st.game;
      sentFor = null;
      delete $("status").dataset.over;
    }
    current = st;
    document.body.dataset.game = st.game;
    document.body.dataset.ended = st.ended;
    if (st.closed) {
      $("hand").replaceChildren(); $("calls").replaceChildren();
      $("status").textContent = "the tournament is over: " + st.ended + (st.ended === 1 ? " game" : " games") + " played here" + (st.last_end ? "; the last " + endText(st.last_end) : "");
      $("status").dataset.closed = "1";
      deadline = null;
      return;
    }
    if (st.seat !== null) $("who").textContent = "you play seat " + st.seat;
    const rq = st.request, v = rq ? rq.view : null;
    const hand = $("hand"), calls = $("calls");
    hand.replaceChildren(); calls.replaceChildren();
    if (st.over) {
      $("status").textContent = (st.fault ? faultText(st) + "; " : "") + "game over: " + endText(st.over) + (st.series ? "; the next game starts here when it is scheduled" : "");
      $("status").dataset.over = "1";
      deadline = null;
      return;
    }
    document.body.dataset.request = rq ? rq.id : "";
    if (!rq && st.waiting) { $("status").textContent = (st.fault ? faultText(st) + "; " : "") + "the next game starts here when it is scheduled"; $("status").dataset.waiting = "1"; deadline = null; return; }
    delete $("status").dataset.waiting;
    const earlier = st.last_fault && st.last_fault.game !== st.game ? "this seat faulted in game " + st.last_fault.game + " (" + st.last_fault.kind + "); " : "";
    if (!rq) { $("status").textContent = (st.fault ? faultText(st) + "; " : earlier) + "waiting for the other seats..."; deadline = null; return; }
    // Answered already: shown, but not playable twice.
    const legal = new Set(rq.id === sentFor ? [] : rq.legal);
    $("status").replaceChildren(el("span", "", "your turn: "), el("span", "", rq.decision), el("span", "", ""));
    $("status").children[2].id = "clock";
    // The seat's own count of what is left (a page opened late does not start the clock
    // again); none means no limit.
    limit = rq.time && rq.time.limit_ms ? rq.time.limit_ms : null;
    deadline = typeof st.left_ms === "number" ? Date.now() + st.left_ms : null;
    if (deadline === null) $("clock").textContent = " \u00b7 no time limit";
    $("scores").textContent = "scores: " + v.team_scores.join(" : ") + (v.seat_scores ? " (players " + v.seat_scores.join(" ") + ")" : "") + " \u00b7 hand " + v.hand_number + ", dealer " + v.dealer;
    $("contract").textContent = v.contract ? "contract: " + v.contract.bid + " by seat " + v.contract.declarer + (v.trump ? ", trump " + (SUITS[v.trump] || v.trump) : "") : "";
    $("auction").textContent = v.auction.length ? "auction: " + v.auction.map((a) => a.seat + ": " + call(a.call)).join("  ") : "";
    const trick = v.current_trick;
    $("trick").textContent = "on the table: " + (trick.cards.length ? trick.cards.map((c, i) => ((trick.leader + i) % 4) + " " + pretty(c)).join("  ") : "nothing yet");
    const prev = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
    $("previous").textContent = prev ? "previous trick: " + prev.cards.map((c, i) => ((prev.leader + i) % 4) + " " + pretty(c)).join("  ") + ", won by seat " + prev.winner : "";
    const cards = v.hand.slice().sort((a, b) => (ORDER[a.slice(-1)] - ORDER[b.slice(-1)]) || (RANKS.indexOf(b.slice(0, -1)) - RANKS.indexOf(a.slice(0, -1))));
    for (const c of cards) {
      const s = c.slice(-1);
      const b = el("button", "card s-" + s + (s === "H" || s === "D" ? " red" : ""), pretty(c));
      b.dataset.move = c;
      const ok = rq.decision === "play" && legal.has(c);
      b.disabled = !ok;
      if (ok) { b.classList.add("legal"); b.onclick = () => send(rq.id, c); }
      hand.append(b);
    }
    if (rq.decision !== "play") {
      for (const m of legal) {
        const b = el("button", "call legal", call(m));
        b.dataset.move = m;
        b.onclick = () => send(rq.id, m);
        calls.append(b);
      }
    }
    // Your turn: the first legal move has the focus, so Enter or Space plays it and Tab
    // walks the others (a disabled card is skipped).
    const first = document.querySelector("button.legal:not(:disabled)");
    if (first) first.focus({ preventScroll: true });
  }
  setInterval(() => {
    const c = $("clock");
    if (c && deadline) c.textContent = clockText(limit, deadline - Date.now());
  }, 250);
  // After a 503 (more pages open on this seat than it serves at once, or the old page of a
  // reload not yet let go) the page asks again, after 0.5 s, then twice as long each time up
  // to 8 s; what it shows, its move buttons included, stays meanwhile (a reload limit must
  // never leave a seat without buttons).
  let backoff = 500;
  async function poll() {
    for (;;) {
      try {
        const r = await fetch("state?since=" + version + "&token=" + encodeURIComponent(token));
        if (r.status === 503) {
          const why = (await r.text()).trim();
          document.body.dataset.busy = String(Number(document.body.dataset.busy || 0) + 1);
          $("note").textContent = why + " (this page asks again in " + Math.ceil(backoff / 1000) + " s)";
          await new Promise((done) => setTimeout(done, backoff));
          backoff = Math.min(backoff * 2, 8000);
          continue;
        }
        backoff = 500;
        $("note").textContent = "";
        if (!r.ok) { $("status").textContent = await r.text(); return; }
        const st = await r.json();
        // A poll that ran out brings nothing new: the page stays as it is (and keeps focus).
        if (st.version === version) continue;
        version = st.version;
        draw(st);
        // The game is over: a seat of one game stops serving, so the page stops asking; a
        // tournament's seat goes on to the next game.
        if ((st.over && !st.series) || st.closed) return;
      } catch (e) {
        if (current && current.over && !current.series) return;
        if (current && current.series) {
          $("status").textContent = "the tournament is over (or the seat was stopped)";
          $("status").dataset.gone = "1";
          return;
        }
        $("status").textContent = "the seat is gone: the game has ended";
        $("status").dataset.gone = "1";
        return;
      }
    }
  }
  poll();
})();
</script>
</body>
</html>
"##;
