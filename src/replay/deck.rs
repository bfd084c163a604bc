//! The optional four-colour deck, the same on every page that shows cards (the replay viewer,
//! the live page, the web seat, the published site): a checkbox that colours spades black,
//! hearts red, diamonds blue and clubs green, remembered in the browser's localStorage (one
//! setting for every page of the same origin; a page whose storage is off keeps it for
//! itself). A page marks each card with its suit's class (`s-S`, `s-H`, `s-D`, `s-C`) and
//! puts [`STYLE`] in its style sheet and [`TOGGLE`] where the control goes.

/// The four colours, on `<html class="four-colour">` only (stronger than a page's own
/// two-colour rule for red suits).
pub const STYLE: &str = "
html.four-colour .card.s-S { color: #111111; }
html.four-colour .card.s-H { color: #c8102e; }
html.four-colour .card.s-D { color: #1f5fd1; }
html.four-colour .card.s-C { color: #17803d; }
.deck-toggle { font-size: 13px; margin: 0 10px; white-space: nowrap; }
.deck-toggle input { width: 18px; height: 18px; vertical-align: middle; }
";

/// The control and its script (text set as text; the key is the only thing stored).
pub const TOGGLE: &str = r#"<label class="deck-toggle"><input type="checkbox" id="four-colour"> four-colour deck</label>
<script>
(function () {
  "use strict";
  const KEY = "tarneeb-four-colour", box = document.getElementById("four-colour");
  const set = (on) => { document.documentElement.classList.toggle("four-colour", on); box.checked = on; };
  let on = false;
  try { on = localStorage.getItem(KEY) === "1"; } catch (e) { on = false; }
  set(on);
  box.addEventListener("change", () => {
    set(box.checked);
    try { localStorage.setItem(KEY, box.checked ? "1" : "0"); } catch (e) { /* this page only */ }
  });
  // Another tab of the same origin changed it: follow.
  window.addEventListener("storage", (e) => { if (e.key === KEY) set(e.newValue === "1"); });
})();
</script>"#;
