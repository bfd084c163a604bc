//! The standings as text: the table with its columns explained under it, the crosstable, the
//! head-to-head table and the note on the leader. `--json` prints [`Standings`] instead.

use std::fmt::Write as _;

use super::accuracy;
use super::places;
use super::table::{EntrantStanding, Standings};
use super::verdict::SprtTracker;

/// Columns of `rows` aligned (the first row is the header), two spaces apart; columns listed in
/// `left` are left-aligned, the others right-aligned. Every line has the same width.
pub fn aligned(rows: &[Vec<String>], left: &[usize]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0usize; cols];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        for (k, w) in widths.iter().enumerate() {
            let cell = row.get(k).map_or("", String::as_str);
            if k > 0 {
                out.push_str("  ");
            }
            if left.contains(&k) {
                let _ = write!(out, "{cell:<w$}");
            } else {
                let _ = write!(out, "{cell:>w$}");
            }
        }
        out.push('\n');
    }
    out
}

/// A signed figure with one decimal, never `-0.0`.
pub fn signed(x: f64) -> String {
    let text = format!("{x:+.1}");
    if text == "-0.0" {
        "+0.0".into()
    } else {
        text
    }
}

/// The Elo of a head-to-head score: a score of 0 or 1 has no finite Elo, and a bound of the
/// interval at 0 or 1 is unbounded.
fn score_elo(score: f64, elo: f64) -> String {
    if score <= 0.0 {
        "all lost: no finite Elo".into()
    } else if score >= 1.0 {
        "all won: no finite Elo".into()
    } else {
        signed(elo)
    }
}

fn score_interval(low: f64, elo_low: f64, high: f64, elo_high: f64) -> String {
    let low = if low <= 0.0 {
        "-inf".into()
    } else {
        signed(elo_low)
    };
    let high = if high >= 1.0 {
        "+inf".into()
    } else {
        signed(elo_high)
    };
    format!("[{low}, {high}]")
}

fn points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

/// The main table: one line per entrant.
pub fn render_table(s: &Standings) -> String {
    aligned(&table_rows(s), &[1])
}

/// The cells of [`render_table`], its header first (the text and the HTML site share them).
pub fn table_rows(s: &Standings) -> Vec<Vec<String>> {
    let header = [
        "rank",
        "entrant",
        "games",
        "won",
        "drawn",
        "lost",
        "forfeits",
        "timeouts",
        "score",
        "pts for",
        "pts against",
        "Elo",
        "95% interval",
    ];
    let boards = s.board_pairs > 0;
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|h| h.to_string()).collect()];
    if boards {
        rows[0].extend(["board Elo".to_string(), "95% interval".to_string()]);
    }
    let dd = s.entrants.iter().any(|e| e.dd_lost.is_some());
    if dd {
        rows[0].extend(["DD lost/hand".to_string(), "95% interval".to_string()]);
    }
    for e in &s.entrants {
        let mut board = Vec::new();
        if let (true, Some(b)) = (boards, &e.board_elo) {
            board.push(signed(b.elo));
            board.push(format!("[{}, {}]", signed(b.low), signed(b.high)));
        }
        rows.push(vec![
            places::rank_cell(e.place, e.shared_place),
            e.name.clone(),
            e.games.to_string(),
            e.wins.to_string(),
            e.draws.to_string(),
            e.losses.to_string(),
            e.forfeit_total().to_string(),
            e.timeouts.to_string(),
            format!("{:.1}%", 100.0 * e.score),
            e.points_for.to_string(),
            e.points_against.to_string(),
            signed(e.elo),
            format!("[{}, {}]", signed(e.elo_low), signed(e.elo_high)),
        ]);
        rows.last_mut().expect("a row").extend(board);
        if dd {
            rows.last_mut()
                .expect("a row")
                .extend(accuracy::cells(e.dd_lost.as_ref()));
        }
    }
    rows
}

/// What the columns of [`render_table`] mean, in two lines (each column is explained once in
/// docs/competitions.md, "Reading the standings").
pub const TABLE_LEGEND: &str = "Columns: score: 1 per win, 1/2 per draw, over games; forfeits: games lost for breaking a rule.\nElo: a rating from every result (mean 0; 100 more means 64% expected), and its 95% interval.\n";

/// What the board columns mean, when there are any.
pub const BOARD_LEGEND: &str = "board Elo: the same rating from who did better with the same cards at the two tables of a\nduplicate pair (the luck of the deal taken out).\n";

/// How many duplicate pairs the boards columns stand on, and how many they leave out.
pub fn board_count(s: &Standings) -> String {
    let mut line = format!(
        "boards: {} of {} duplicate pairs scored",
        s.board_pairs, s.pairs
    );
    if s.pairs_without_boards > 0 {
        line.push_str(&format!(
            "; {} pairs without hand results (rows written before they were kept) are left out",
            s.pairs_without_boards
        ));
    }
    line + ".\n"
}

/// The plain block under the first line: the verdict in one sentence, then each entrant's
/// place and record in words (issue 40: what an organiser reads without the columns).
pub fn plain_block(s: &Standings) -> String {
    let mut out = String::new();
    if !s.verdict.sentence.is_empty() && s.bracket.is_empty() {
        out.push_str(&s.verdict.sentence);
        out.push('\n');
    }
    let rows: Vec<Vec<String>> = s
        .entrants
        .iter()
        .map(|e| {
            let record = plain_record(e);
            vec![
                format!("  {}", places::rank_cell(e.place, e.shared_place)),
                e.name.clone(),
                record,
            ]
        })
        .collect();
    for line in aligned(&rows, &[1, 2]).lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// An entrant's record in words: "won 4, drew 1, lost 3 of 8 games (56.2%)" (the plain block's
/// and the site's).
pub fn plain_record(e: &EntrantStanding) -> String {
    if e.games == 0 {
        return "no games played yet".to_string();
    }
    let drew = if e.draws > 0 {
        format!(", drew {}", e.draws)
    } else {
        String::new()
    };
    format!(
        "won {}{drew}, lost {} of {} games ({:.1}%)",
        e.wins,
        e.losses,
        e.games,
        100.0 * e.score
    )
}

/// The heading of the statisticians' part of the text report.
pub const DETAILS_HEADING: &str =
    "\nDetails (every column is explained in docs/competitions.md, \"Reading the standings\"):\n";

/// The note on the leader with what it cannot say yet: entrants not met, a provisional run.
pub fn leader_paragraph(s: &Standings) -> String {
    let Some(l) = &s.leader else {
        return String::new();
    };
    let mut text = leader_text(l, s.entrants.len());
    for m in &s.verdict.not_met {
        text.push_str(&format!(
            "Not met: {} and {} have not played each other, so their difference is the fit's inference, not a result: {}.\n",
            m.a,
            m.b,
            places::not_met_text(m)
                .split_once("; ")
                .map_or("", |x| x.1)
        ));
    }
    if let (true, Some(m)) = (s.verdict.provisional, s.verdict.games_scheduled) {
        text.push_str(&format!(
            "Provisional: {} of {m} games played; the order can still change.\n",
            s.verdict.games_played
        ));
    }
    text
}

/// The short table of the default report: rank, entrant, games, won, drawn, lost, forfeits,
/// score and Elo (and DD lost/hand with `--analyze`), without intervals or boards.
pub fn short_table_rows(s: &Standings) -> Vec<Vec<String>> {
    let dd = s.entrants.iter().any(|e| e.dd_lost.is_some());
    let mut header: Vec<String> = [
        "rank", "entrant", "games", "won", "drawn", "lost", "forfeits", "score", "Elo",
    ]
    .iter()
    .map(|h| h.to_string())
    .collect();
    if dd {
        header.push("DD lost/hand".into());
    }
    let mut rows = vec![header];
    for e in &s.entrants {
        let mut row = vec![
            places::rank_cell(e.place, e.shared_place),
            e.name.clone(),
            e.games.to_string(),
            e.wins.to_string(),
            e.draws.to_string(),
            e.losses.to_string(),
            e.forfeit_total().to_string(),
            format!("{:.1}%", 100.0 * e.score),
            signed(e.elo),
        ];
        if dd {
            let cells = accuracy::cells(e.dd_lost.as_ref());
            row.push(cells.into_iter().next().unwrap_or_default());
        }
        rows.push(row);
    }
    rows
}

/// What the default report ends with: where the rest is.
pub const MORE_LINE: &str = "\nMore: `tarneeb standings DIR --detail` adds each rating's 95% interval, board Elo, the\ncrosstable, head to head (pentanomial counts, LOS, fitted differences), the twin-order test and\nwhat each column means.\n";

/// The forfeits by kind, one line per entrant that forfeited (empty when none did).
fn forfeits_by_kind(s: &Standings) -> String {
    let forfeits: Vec<String> = s
        .entrants
        .iter()
        .filter(|e| !e.forfeits.is_empty())
        .map(|e| {
            let kinds: Vec<String> = e.forfeits.iter().map(|(k, n)| format!("{k} {n}")).collect();
            format!("  {}: {}", e.name, kinds.join(", "))
        })
        .collect();
    if forfeits.is_empty() {
        return String::new();
    }
    let mut out = String::from("\nForfeits by kind:\n");
    for f in forfeits {
        out.push_str(&f);
        out.push('\n');
    }
    out
}

fn bracket_lines(s: &Standings) -> String {
    let mut out = String::new();
    if !s.bracket.is_empty() {
        out.push('\n');
        for line in &s.bracket {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The text report for `detail` or not. Without it (issue 40: what a reader who has never
/// heard of LOS needs): the first line, the plain block, the games, the short table, the
/// forfeits by kind, an entrant the twin-order test flags, the bracket and where the rest is.
/// With it, [`render`].
pub fn render_with(s: &Standings, detail: bool) -> String {
    if detail {
        return render(s);
    }
    let mut out = String::new();
    if let Some(w) = &s.winner {
        out.push_str(&w.line);
        out.push('\n');
    }
    out.push_str(&plain_block(s));
    out.push_str(&format!(
        "{} games, {} duplicate pairs\n\n",
        s.games, s.pairs
    ));
    out.push_str(&aligned(&short_table_rows(s), &[1]));
    out.push_str(&forfeits_by_kind(s));
    out.push_str(&super::twins::render_flags(
        &s.entrants
            .iter()
            .map(|e| (e.name.clone(), e.twin_order.clone()))
            .collect::<Vec<_>>(),
    ));
    out.push_str(&bracket_lines(s));
    out.push_str(MORE_LINE);
    out
}

/// The whole text report (`--detail`): the first line and the plain block, then under
/// "Details" the table, legend, forfeits by kind, crosstable, head to head, leader.
pub fn render(s: &Standings) -> String {
    let mut out = String::new();
    if let Some(w) = &s.winner {
        out.push_str(&w.line);
        out.push('\n');
    }
    out.push_str(&plain_block(s));
    out.push_str(&format!("{} games, {} duplicate pairs\n", s.games, s.pairs));
    out.push_str(DETAILS_HEADING);
    out.push_str(&render_table(s));
    out.push('\n');
    out.push_str(TABLE_LEGEND);
    if s.board_pairs > 0 {
        out.push_str(BOARD_LEGEND);
        out.push_str(&board_count(s));
    }
    if s.entrants.iter().any(|e| e.dd_lost.is_some()) {
        out.push_str(accuracy::LEGEND);
    }
    out.push_str(&super::twins::render(
        &s.entrants
            .iter()
            .map(|e| (e.name.clone(), e.twin_order.clone()))
            .collect::<Vec<_>>(),
    ));
    out.push_str(&forfeits_by_kind(s));
    if s.entrants.len() > 1 {
        out.push('\n');
        out.push_str(&render_crosstable(s));
        if !s.head_to_head.is_empty() {
            out.push('\n');
            out.push_str(&render_head_to_head(s));
        }
    }
    if s.leader.is_some() {
        out.push('\n');
        out.push_str(&leader_paragraph(s));
    }
    out.push_str(&bracket_lines(s));
    out
}

/// The report as the commands print it: the text of [`render`] and the SPRT line, or with
/// `json` one JSON object (the [`Standings`] plus `sprt`), ending with a newline.
pub fn full(s: &Standings, sprt: Option<&SprtTracker>, sandboxes: &[String], json: bool) -> String {
    full_with(s, sprt, sandboxes, json, true)
}

/// [`full`], its text with the details (`--detail`) or without ([`render_with`]).
pub fn full_with(
    s: &Standings,
    sprt: Option<&SprtTracker>,
    sandboxes: &[String],
    json: bool,
    detail: bool,
) -> String {
    if json {
        let mut v = serde_json::to_value(s).expect("standings are JSON");
        v["sprt"] = sprt.map_or(serde_json::Value::Null, SprtTracker::to_json);
        v["sandbox"] = serde_json::json!(sandboxes);
        return serde_json::to_string_pretty(&v).expect("JSON") + "\n";
    }
    let mut text = render_with(s, detail) + &sandbox_line(sandboxes);
    if let Some(t) = sprt {
        text.push('\n');
        text.push_str(&t.describe());
        text.push('\n');
    }
    text
}

/// The line under the standings that says which sandbox the games ran in, with a warning when
/// some ran without one.
pub fn sandbox_line(sandboxes: &[String]) -> String {
    let warning = if sandboxes.iter().any(|s| !s.starts_with("bwrap")) {
        " (WARNING: games without a sandbox: a bot could have read hidden cards or disturbed other bots)"
    } else {
        ""
    };
    format!("sandbox: {}{warning}\n", sandboxes.join(", "))
}

/// What the crosstable shows.
pub const CROSSTABLE_LEGEND: &str = "Crosstable: the row entrant's points against the column entrant (1 a win, 1/2 a draw) / games.\n";

/// Entrant by entrant: the row entrant's points against the column entrant, `points/games`.
pub fn render_crosstable(s: &Standings) -> String {
    format!("{CROSSTABLE_LEGEND}{}", aligned(&crosstable_rows(s), &[0]))
}

/// The cells of [`render_crosstable`], its header (column numbers) first.
pub fn crosstable_rows(s: &Standings) -> Vec<Vec<String>> {
    let c = &s.crosstable;
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut header = vec![String::new()];
    header.extend((1..=c.names.len()).map(|i| i.to_string()));
    rows.push(header);
    for (i, name) in c.names.iter().enumerate() {
        let mut row = vec![format!("{} {name}", i + 1)];
        for (j, cell) in c.cells[i].iter().enumerate() {
            row.push(if i == j {
                "x".into()
            } else if cell.games == 0 {
                "-".into()
            } else {
                format!("{}/{}", points(cell.points), cell.games)
            });
        }
        rows.push(row);
    }
    rows
}

/// Every two entrants that met, first against second.
pub fn render_head_to_head(s: &Standings) -> String {
    format!(
        "Head to head: the first entrant against the second.\n{}\n{}",
        aligned(&head_to_head_rows(s), &[0, 1]),
        HEAD_TO_HEAD_LEGEND
    )
}

/// The cells of [`render_head_to_head`], its header first.
pub fn head_to_head_rows(s: &Standings) -> Vec<Vec<String>> {
    let header = [
        "entrant",
        "against",
        "pairs",
        "games",
        "0/.25/.5/.75/1",
        "score",
        "Elo",
        "95% interval",
        "LOS",
        "fitted diff",
        "95% interval",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|h| h.to_string()).collect()];
    for h in &s.head_to_head {
        let p = h.pentanomial;
        rows.push(vec![
            h.a.clone(),
            h.b.clone(),
            h.pairs.to_string(),
            h.single_games.to_string(),
            format!("{}/{}/{}/{}/{}", p[0], p[1], p[2], p[3], p[4]),
            format!("{:.1}%", 100.0 * h.score.score),
            score_elo(h.score.score, h.score.elo),
            score_interval(h.score.low, h.score.elo_low, h.score.high, h.score.elo_high),
            h.score
                .los
                .map_or("n/a".into(), |l| format!("{:.1}%", 100.0 * l)),
            signed(h.rating_diff),
            format!(
                "[{}, {}]",
                signed(h.rating_diff_low),
                signed(h.rating_diff_high)
            ),
        ]);
    }
    rows
}

/// What the columns of [`render_head_to_head`] mean.
pub const HEAD_TO_HEAD_LEGEND: &str = "Columns: 0/.25/.5/.75/1: how many pairs (or single games) scored each; LOS: the chance that the\nfirst is the stronger; fitted diff: their two ratings' difference, from every game they played.\n";

pub fn leader_text(l: &super::pairwise::LeaderNote, k: usize) -> String {
    if signed(l.margin) == "+0.0" {
        return format!(
            "Note: {} and {} are level at the top (+0.0 Elo apart): the order at the top is not settled.\n",
            l.leader, l.closest
        );
    }
    if l.clear {
        format!(
            "{} leads every other entrant beyond chance: its smallest margin, {:+.1} Elo over {}, is {:.2} standard errors ({:.2} needed among {k} entrants).\n",
            l.leader, l.margin, l.closest, l.z, l.z_needed
        )
    } else {
        format!(
            "Note: {} leads, but its margin over {} ({:+.1} Elo, {:.2} standard errors) is within what chance gives among {k} entrants ({:.2} needed): the order at the top is not settled.\n",
            l.leader, l.closest, l.margin, l.z, l.z_needed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::row::GameRow;
    use crate::standings::table::standings;

    fn row(game: u64, seats: [&str; 4], winner: Option<u8>, scores: [i32; 2]) -> GameRow {
        GameRow {
            team_scores: scores,
            hands: 12,
            ..GameRow::sample(game, None, game, seats, winner)
        }
    }

    #[test]
    fn the_boards_section_counts_the_pairs_without_boards() {
        // Two duplicate pairs; the second's rows hold no hand results: 1 of 2 scored, 1 left
        // out, said under the board columns and in the JSON.
        let mut rows = Vec::new();
        for (p, deltas) in [(0u64, vec![[10, -10]]), (1, vec![])] {
            for (k, seats) in [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
                .iter()
                .enumerate()
            {
                let mut r = GameRow::sample(2 * p + k as u64, Some(p), 50 + p, *seats, Some(0));
                r.hand_deltas = deltas.clone();
                rows.push(r);
            }
        }
        let s = standings(&rows);
        assert_eq!((s.pairs, s.board_pairs, s.pairs_without_boards), (2, 1, 1));
        let text = render(&s);
        assert!(
            text.contains("boards: 1 of 2 duplicate pairs scored; 1 pairs without hand results (rows written before they were kept) are left out.\n"),
            "{text}"
        );
    }

    #[test]
    fn a_level_top_is_not_called_a_lead() {
        // Two entrants with one win each: level; the note said "a leads, but its margin over
        // b (+0.0 Elo ...)".
        let rows = vec![
            row(0, ["a", "b", "a", "b"], Some(0), [41, 0]),
            row(1, ["a", "b", "a", "b"], Some(1), [0, 41]),
        ];
        let text = render(&standings(&rows));
        assert!(
            text.contains("Note: a and b are level at the top (+0.0 Elo apart)"),
            "{text}"
        );
        assert!(!text.contains("a leads"), "{text}");
    }

    #[test]
    fn no_placeholder_figures() {
        // A rounding −0 is printed +0.0; a score of 1 has no Elo ("+1199.8" before), an
        // interval reaching 0 or 1 is open.
        assert_eq!(signed(-0.04), "+0.0");
        assert_eq!(signed(-0.06), "-0.1");
        // A 400-0 record: no finite Elo, said as such (it read "too few games").
        assert_eq!(score_elo(1.0, 1199.8), "all won: no finite Elo");
        assert_eq!(score_elo(0.0, -1199.8), "all lost: no finite Elo");
        assert_eq!(score_elo(0.75, 190.8), "+190.8");
        assert_eq!(score_interval(0.2, -240.8, 1.0, 1199.8), "[-240.8, +inf]");
        let rows = vec![
            row(0, ["alpha", "b", "alpha", "b"], Some(0), [41, -8]),
            row(1, ["alpha", "b", "alpha", "b"], Some(0), [41, 12]),
        ];
        let text = render_head_to_head(&standings(&rows));
        assert!(!text.contains("1199.8"), "{text}");
        assert!(
            text.contains("all won: no finite Elo") && text.contains("n/a"),
            "{text}"
        );
    }

    #[test]
    fn the_default_report_is_the_plain_block_and_the_short_table() {
        // Issue 40: "Elo intervals, pentanomial counts, LOS, fitted differences and the t-test
        // and the legends only with --detail"; without it, the first line, the plain block
        // and a short table, then where the rest is.
        let rows = vec![
            row(0, ["alpha", "b", "alpha", "b"], Some(0), [41, -8]),
            row(1, ["alpha", "b", "alpha", "b"], Some(1), [12, 41]),
            row(2, ["alpha", "b", "alpha", "b"], Some(0), [41, 33]),
        ];
        let s = standings(&rows);
        let short = render_with(&s, false);
        let body = short
            .strip_suffix(MORE_LINE)
            .expect("where the rest is, at the end");
        assert!(
            short.contains("  1  alpha  won 2, lost 1 of 3 games (66.7%)\n"),
            "{short}"
        );
        assert!(
            short.contains(
                "\nrank  entrant  games  won  drawn  lost  forfeits  score    Elo\n   1  alpha        3"
            ),
            "{short}"
        );
        for detail in [
            "95% interval",
            "0/.25/.5/.75/1",
            "LOS",
            "fitted diff",
            "Crosstable",
            "Columns:",
            "Details (",
            "Note:",
        ] {
            assert!(!body.contains(detail), "{detail} without --detail: {short}");
        }
        // --detail: all of it, the plain block first as before.
        let detail = render_with(&s, true);
        assert_eq!(detail, render(&s));
        assert!(detail.starts_with(&short[..short.find("\nrank").unwrap()]));
        for part in [
            "95% interval",
            "0/.25/.5/.75/1",
            "LOS",
            "fitted diff",
            "Crosstable",
        ] {
            assert!(detail.contains(part), "{part} with --detail: {detail}");
        }
        // The legends are one or two short lines each.
        for legend in [
            TABLE_LEGEND,
            BOARD_LEGEND,
            CROSSTABLE_LEGEND,
            HEAD_TO_HEAD_LEGEND,
            accuracy::LEGEND,
            super::super::twins::LEGEND,
        ] {
            assert!(legend.lines().count() <= 2, "{legend}");
            assert!(legend.lines().all(|l| l.len() <= 100), "{legend}");
        }
    }

    #[test]
    fn table_is_aligned() {
        let rows = vec![
            row(0, ["alpha", "b", "alpha", "b"], Some(0), [41, -8]),
            row(1, ["alpha", "b", "alpha", "b"], Some(1), [12, 41]),
            row(2, ["alpha", "b", "alpha", "b"], Some(0), [41, 33]),
        ];
        let text = render_table(&standings(&rows));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(
            lines[0].starts_with("rank  entrant  games  won  drawn  lost  forfeits  timeouts"),
            "{text}"
        );
        assert!(lines[0].ends_with("95% interval"), "{text}");
        assert!(
            lines[1].starts_with("   1  alpha        3    2      0     1         0         0  66.7%       94           66"),
            "{text}"
        );
        assert!(lines.iter().all(|l| l.len() == lines[0].len()), "{text}");
        assert!(render_table(&standings(&[])).lines().count() == 1);
    }
}
