//! The live page: one self-contained HTML document whose script listens to `/events`
//! (server-sent events: the server pushes the state when it changes, the page never polls) and
//! draws the progress, the SPRT, the standings, the games in progress as the table sees them
//! and the games just finished. Every text that came from a bot or an entrant is set as text,
//! never as HTML; the standings arrive as HTML the server escaped.

/// The page, titled with the tournament directory's name.
pub fn live_page(title: &str, league: bool) -> String {
    // The title (a directory's name) last, so no text in it is taken for a placeholder.
    PAGE.replace("{{STYLE}}", &crate::site::pages::style())
        .replace("{{LEAGUE}}", if league { LEAGUE_SECTION } else { "" })
        .replace("{{DECK}}", crate::replay::deck::TOGGLE)
        .replace("{{TITLE}}", &crate::site::pages::esc(title))
}

/// A league's ratings over time: the plot fetched from the server (its own SVG, no script
/// in it) when the page opens and again at most every 5 s while results come.
const LEAGUE_SECTION: &str = r##"<section id="league"><h2>Ratings over time</h2>
<p class="note">Each version's rating after each of its games, with its 95% band (tarneeb league history DIR NAME prints it).</p>
<div id="history">loading...</div></section>
<script>
(() => {
  let at = 0, pending = false;
  async function plot() {
    pending = false; at = Date.now();
    try {
      const r = await fetch("history.svg", { cache: "no-store" });
      if (r.ok) document.getElementById("history").innerHTML = await r.text();
    } catch (e) { /* the next update tries again */ }
  }
  window.leagueUpdate = () => {
    if (pending) return;
    pending = true;
    setTimeout(plot, Math.max(0, 5000 - (Date.now() - at)));
  };
  plot();
})();
</script>
"##;

const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}}: live</title>
<link rel="icon" href="data:,">
<style>{{STYLE}}
#progress { font-size: 16px; margin: 10px 0; font-variant-numeric: tabular-nums; }
#status { font-size: 13px; color: #666; }
.games { display: flex; flex-wrap: wrap; gap: 10px; }
.table-view { background: radial-gradient(#2f7d4a, #1d5532); color: #f4f4ee; border-radius: 12px;
  padding: 8px 12px; min-width: 260px; max-width: 360px; font-size: 14px; }
.table-view h3 { margin: 0 0 4px; font-size: 15px; }
.table-view .card { display: inline-block; background: #fffdf7; color: #222; border-radius: 4px;
  padding: 1px 4px; margin: 1px; font-weight: bold; }
.table-view .card.red { color: #b3261e; }
.calls { color: #dfe9df; }
</style>
</head>
<body>
<header><h1>{{TITLE}}</h1><nav><a href="index.html">live</a> <a href="games.html">every game</a>{{DECK}}</nav></header>
<main>
<div id="progress" aria-live="polite">connecting...</div>
<div id="status"></div>
<div id="sprt"></div>
<h2>Standings</h2>
<div id="standings"></div>
<h2>Games in progress</h2>
<p class="explain">What the table sees: the calls and the cards played in the hand being played, the scores. No hidden card leaves the server before the game ends.</p>
<div id="live" class="games"></div>
<h2>Just finished</h2>
<div id="recent"></div>
{{LEAGUE}}</main>
<script>
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const card = (c) => {
    const s = String(c).slice(-1), r = String(c).slice(0, -1);
    return el("span", "card s-" + s + (s === "H" || s === "D" ? " red" : ""), r + (SUITS[s] || s));
  };
  const secs = (t) => t >= 3600 ? Math.floor(t / 3600) + " h " + Math.round((t % 3600) / 60) + " min"
    : t >= 60 ? Math.floor(t / 60) + " min " + Math.round(t % 60) + " s" : Math.round(t) + " s";
  function draw(st) {
    let p = "games done: " + st.done + (st.total !== null ? " of " + st.total : "");
    if (st.rate !== null) p += " \u00b7 " + st.rate + " games/s";
    if (st.eta_s !== null && !st.over) p += " \u00b7 about " + secs(st.eta_s) + " left";
    if (st.over) p += " \u00b7 finished";
    $("progress").textContent = p;
    $("progress").dataset.done = st.done;
    $("sprt").textContent = st.sprt ? st.sprt.text : "";
    $("standings").innerHTML = st.standings_html;
    const live = $("live");
    live.replaceChildren();
    for (const g of st.live) {
      const v = g.view, box = el("div", "table-view");
      box.dataset.game = g.game;
      box.append(el("h3", "", "game " + g.game + (v.hand_number ? ", hand " + v.hand_number + " (dealer " + v.dealer + ")" : ", starting")));
      box.append(el("div", "", v.names.length ? "seats: " + v.names.map((n, s) => s + " " + (n === null ? "?" : n)).join(", ") : "the bots are starting"));
      if (v.calls.length) box.append(el("div", "calls", "calls: " + v.calls.map((m) => m.seat + ": " + m.move).join("  ")));
      const plays = el("div", "plays");
      const done = v.plays.length - (v.plays.length % 4 || (v.plays.length ? 4 : 0));
      plays.append(el("span", "", "tricks played: " + Math.floor(done / 4) + "; on the table: "));
      for (const m of v.plays.slice(done)) plays.append(card(m.move));
      box.append(plays);
      if (v.team_scores) box.append(el("div", "", "scores: " + v.team_scores.join(" : ") + (v.seat_scores ? " (players " + v.seat_scores.join(" ") + ")" : "")));
      if (v.faults.length) box.append(el("div", "", "faults: " + v.faults.map((f) => "seat " + f[0] + " " + f[1]).join(", ")));
      live.append(box);
    }
    if (!st.live.length) live.append(el("p", "", st.over ? "none: the run is over" : "none right now"));
    const recent = $("recent");
    recent.replaceChildren();
    const list = el("ul");
    for (const r of st.recent) {
      const li = el("li");
      // A game whose duplicate twin is still being played has no page yet (the same deals).
      const a = r.page ? el("a", "", "game " + r.game) : el("span", "", "game " + r.game);
      if (r.page) a.href = r.page; else a.title = "its page appears when its duplicate twin has ended too";
      li.append(a);
      const who = r.seats[0] + " & " + r.seats[2] + " against " + r.seats[1] + " & " + r.seats[3];
      const res = r.winner === null ? "draw" : (r.winner === 0 ? r.seats[0] + " & " + r.seats[2] : r.seats[1] + " & " + r.seats[3]) + " won";
      let t = ": " + who + ", " + res + " " + r.team_scores.join(" : ") + " (" + r.reason + ")";
      if (r.forfeit_seat !== null) t += ", seat " + r.forfeit_seat + " forfeited: " + (r.forfeit_kind || "fault");
      li.append(document.createTextNode(t));
      list.append(li);
    }
    recent.append(list);
  }
  let last = 0;
  const source = new EventSource("events");
  source.onmessage = (e) => { last = Date.now(); draw(JSON.parse(e.data)); $("status").textContent = ""; if (window.leagueUpdate) window.leagueUpdate(); };
  source.addEventListener("end", () => { source.close(); $("status").textContent = "the run is over: this page no longer updates"; });
  source.onerror = () => { $("status").textContent = "connection lost; retrying..."; };
})();
</script>
</body>
</html>
"##;
