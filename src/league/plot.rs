//! A plot of rating histories as SVG: one line per version (its rating after each of its games,
//! the league's game number across), its 95% band shaded. Plain SVG, no script, so a page or
//! a file shows it offline and nothing is fetched from the network.

use super::db::HistoryPoint;

const W: f64 = 720.0;
const H: f64 = 320.0;
const PAD_L: f64 = 56.0;
const PAD_R: f64 = 140.0;
const PAD_Y: f64 = 24.0;
const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
];

/// Text safe inside SVG/HTML.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG of each named history (empty histories are left out; an empty plot says so).
pub fn svg(series: &[(String, Vec<HistoryPoint>)]) -> String {
    let shown: Vec<&(String, Vec<HistoryPoint>)> =
        series.iter().filter(|(_, h)| !h.is_empty()).collect();
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" width=\"100%\" role=\"img\" aria-label=\"ratings over time\" style=\"max-width:{W}px;font:12px sans-serif\">\n"
    );
    if shown.is_empty() {
        out.push_str("<text x=\"20\" y=\"40\">no rated games yet</text>\n</svg>\n");
        return out;
    }
    let finite = |v: f64, or: f64| if v.is_finite() { v } else { or };
    let points = shown.iter().flat_map(|(_, h)| h.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (u64::MAX, 0u64, f64::MAX, f64::MIN);
    for p in points {
        x0 = x0.min(p.game);
        x1 = x1.max(p.game);
        y0 = y0.min(finite(p.low, p.elo)).min(p.elo);
        y1 = y1.max(finite(p.high, p.elo)).max(p.elo);
    }
    // Bands of the first games are hundreds of Elo wide: clip them to a readable range.
    let spread = shown
        .iter()
        .flat_map(|(_, h)| h.iter().map(|p| p.elo.abs()))
        .fold(50.0, f64::max);
    y0 = y0.max(-2.0 * spread);
    y1 = y1.min(2.0 * spread);
    if x1 == x0 {
        x1 = x0 + 1;
    }
    let sx = |g: u64| PAD_L + (g - x0) as f64 / (x1 - x0) as f64 * (W - PAD_L - PAD_R);
    let sy = |e: f64| {
        let e = e.clamp(y0, y1);
        H - PAD_Y - (e - y0) / (y1 - y0) * (H - 2.0 * PAD_Y)
    };
    out.push_str(&format!(
        "<line x1=\"{PAD_L}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n<text x=\"4\" y=\"{2:.1}\">0 Elo</text>\n",
        sy(0.0),
        W - PAD_R,
        sy(0.0) + 4.0
    ));
    out.push_str(&format!(
        "<text x=\"4\" y=\"{:.1}\">{:+.0}</text>\n<text x=\"4\" y=\"{:.1}\">{:+.0}</text>\n",
        sy(y1) + 4.0,
        y1,
        sy(y0) + 4.0,
        y0
    ));
    out.push_str(&format!(
        "<text x=\"{PAD_L}\" y=\"{:.1}\">game {x0}</text>\n<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">game {x1}</text>\n",
        H - 4.0,
        W - PAD_R,
        H - 4.0
    ));
    // End labels pushed apart (14 px) where versions end at nearly the same rating.
    let mut label_y: Vec<(usize, f64)> = shown
        .iter()
        .enumerate()
        .map(|(k, (_, h))| (k, sy(h.last().expect("not empty").elo) + 4.0))
        .collect();
    label_y.sort_by(|a, b| a.1.total_cmp(&b.1));
    for i in 1..label_y.len() {
        label_y[i].1 = label_y[i].1.max(label_y[i - 1].1 + 14.0);
    }
    label_y.sort_by_key(|&(k, _)| k);
    for (k, (name, h)) in shown.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let upper = h
            .iter()
            .map(|p| format!("{:.1},{:.1}", sx(p.game), sy(finite(p.high, y1))));
        let lower = h
            .iter()
            .rev()
            .map(|p| format!("{:.1},{:.1}", sx(p.game), sy(finite(p.low, y0))));
        let band: Vec<String> = upper.chain(lower).collect();
        out.push_str(&format!(
            "<polygon points=\"{}\" fill=\"{colour}\" fill-opacity=\"0.12\" stroke=\"none\"/>\n",
            band.join(" ")
        ));
        let line: Vec<String> = h
            .iter()
            .map(|p| format!("{:.1},{:.1}", sx(p.game), sy(p.elo)))
            .collect();
        out.push_str(&format!(
            "<polyline class=\"history\" data-version=\"{0}\" points=\"{1}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"><title>{0}</title></polyline>\n",
            escape(name),
            line.join(" ")
        ));
        let last = h.last().expect("not empty");
        out.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"{colour}\">{} {:+.0}</text>\n",
            W - PAD_R + 6.0,
            label_y[k].1,
            escape(name),
            last.elo
        ));
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(game: u64, elo: f64) -> HistoryPoint {
        HistoryPoint {
            game,
            games: game as i64 + 1,
            elo,
            low: elo - 100.0,
            high: f64::INFINITY,
        }
    }

    #[test]
    fn one_line_per_version_with_names_escaped_and_no_script() {
        let s = svg(&[
            ("a@1".into(), vec![p(0, 10.0), p(2, 30.0)]),
            ("<b>@1".into(), vec![p(1, -10.0)]),
            ("c@1".into(), Vec::new()),
        ]);
        assert_eq!(s.matches("<polyline").count(), 2);
        assert!(s.contains("data-version=\"&lt;b&gt;@1\""));
        assert!(
            !s.contains("<b>")
                && !s.contains("<script")
                && !s.contains("NaN")
                && !s.contains("inf")
        );
        assert!(svg(&[]).contains("no rated games yet"));
    }
}
