//! The site's own pages as HTML text: the index (standings, crosstable, head to head, each with
//! its columns explained in words), one page per entrant (its row and its games) and the list of
//! every game. Pure text building: the caller writes the files. Everything shown is escaped, so
//! an entrant named `<script>` is a name, not code.

use std::fmt::Write as _;

use crate::standings::places;
use crate::standings::report;
use crate::standings::row::GameRow;
use crate::standings::table::Standings;

/// What the pages link to: each entrant's page and each game's page (None when the game's
/// record gave no page; the reason is shown instead).
pub struct Links<'a> {
    /// File name of each entrant's page under `entrants/`, in standings order.
    pub entrant_files: &'a [String],
    /// Per row (same order as the rows): the game page's file name under `games/`, or why
    /// there is none.
    pub game_pages: &'a [Result<String, String>],
}

/// `<`, `>`, `&` and quotes escaped for text and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page frame shared by every page of the site: the replay viewer's colours and header,
/// readable from 390 px up: on a phone (at most 420 px) the tables of the standings, head to head
/// and games turn into one card per row (`Phone`), only the crosstable stays a grid.
pub fn frame(title: &str, home: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{t}</title>\n<link rel=\"icon\" href=\"data:,\">\n\
<style>{style}</style>\n</head>\n<body>\n<header><h1>{t}</h1><nav><a href=\"{home}\">standings</a> \
<a href=\"{home_dir}games.html\">every game</a>{deck}</nav></header>\n<main>\n{body}</main>\n</body>\n</html>\n",
        t = esc(title),
        home_dir = home.trim_end_matches("index.html"),
        deck = crate::replay::deck::TOGGLE,
        style = style(),
    )
}

/// The site's style sheet with the four-colour deck's (the live page and the web seat use it
/// too).
pub fn style() -> String {
    format!("{STYLE}{}", crate::replay::deck::STYLE)
}

pub const STYLE: &str = "
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, sans-serif; background: #f3f1ea; color: #222; }
header { padding: 8px 16px; background: #24352b; color: #eee; }
header h1 { margin: 0; font-size: 20px; }
header nav a { color: #cfe8d6; margin-right: 12px; font-size: 14px; }
main { padding: 8px 16px 24px; max-width: 1200px; }
h2 { font-size: 17px; margin: 20px 0 6px; }
p.explain { font-size: 14px; line-height: 1.45; max-width: 75ch; color: #333; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 14px; font-variant-numeric: tabular-nums;
  background: #fffdf7; }
th, td { border: 1px solid #c8c2b0; padding: 3px 6px; text-align: right; }
th { background: #e2ded2; }
td.name, th.name { text-align: left; overflow-wrap: break-word; }
ul.plain { list-style: none; padding: 0; margin: 6px 0 10px; font-size: 15px; }
ul.plain li { margin: 2px 0; }
@media (max-width: 420px) {
  main { padding: 8px 8px 24px; }
  th, td { padding: 2px 4px; }
  table.reflow, table.reflow tbody, table.reflow tr { display: block; }
  table.reflow { background: none; }
  table.reflow tr.head { display: none; }
  table.reflow tr { margin: 0 0 6px; border: 1px solid #c8c2b0; background: #fffdf7;
    padding: 3px 6px; }
  table.reflow td { display: inline-block; border: none; padding: 1px 10px 1px 0;
    text-align: left; white-space: normal; overflow-wrap: anywhere; }
  table.reflow td:empty { display: none; }
  table.reflow td.name { font-weight: bold; }
  table.reflow td[data-label]::before { content: attr(data-label) \": \"; color: #5b5b5b;
    font-weight: normal; }
}
tr.won td.result { color: #1d5532; font-weight: bold; }
tr.lost td.result { color: #9b1c1c; }
a { color: #1d5532; }
a:focus, button:focus, input:focus { outline: 3px solid #d49b00; outline-offset: 1px; }
";

/// A column of links: the column, and the link of the row with each index (None: plain text).
type LinkColumn<'a> = (usize, &'a dyn Fn(usize) -> Option<String>);

/// How a table is laid out on a phone (at most 420 px wide, [`STYLE`]).
#[derive(Clone, Copy, PartialEq)]
enum Phone {
    /// Each row a card of `column value` items that wrap (the header row hidden): the
    /// standings, head to head and the games.
    Reflow,
    /// A grid as on a desktop, narrower cells (the crosstable: a square of short cells).
    Grid,
}

/// A table from rows of cells (the first row is the header); `left` lists the columns of
/// names, `link` turns a cell of column `col` into a link (`href` for the row's index). Each
/// cell carries its column's name (`data-label`), which a reflowed row shows on a phone.
fn table(rows: &[Vec<String>], left: &[usize], link: Option<LinkColumn>, phone: Phone) -> String {
    let mut out = format!(
        "<div class=\"scroll\"><table{}>\n",
        if phone == Phone::Reflow {
            " class=\"reflow\""
        } else {
            ""
        }
    );
    let header: &[String] = rows.first().map_or(&[], |r| r.as_slice());
    for (i, row) in rows.iter().enumerate() {
        out.push_str(if i == 0 {
            "<tr class=\"head\">"
        } else {
            "<tr>"
        });
        for (k, cell) in row.iter().enumerate() {
            let tag = if i == 0 { "th" } else { "td" };
            let class = if left.contains(&k) {
                " class=\"name\""
            } else {
                ""
            };
            let label = match header.get(k) {
                Some(h) if i > 0 && !h.is_empty() && !left.contains(&k) => {
                    format!(" data-label=\"{}\"", esc(h))
                }
                _ => String::new(),
            };
            let text = match link {
                Some((col, href)) if i > 0 && k == col => match href(i - 1) {
                    Some(h) => format!("<a href=\"{}\">{}</a>", esc(&h), esc(cell)),
                    None => esc(cell),
                },
                _ => esc(cell),
            };
            let _ = write!(out, "<{tag}{class}{label}>{text}</{tag}>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table></div>\n");
    out
}

/// The line that opens the standings: who won, or why no one clearly did.
/// Then the verdict in plain words (leader, margin, how sure, what is missing: issue 40).
fn winner_line(s: &Standings) -> String {
    let mut out = match &s.winner {
        Some(w) => format!(
            "<p class=\"winner\"><strong>{}</strong></p>\n",
            esc(&w.line)
        ),
        None => String::new(),
    };
    if !s.verdict.sentence.is_empty() && s.bracket.is_empty() {
        out.push_str(&format!(
            "<p class=\"verdict\">{}</p>\n",
            esc(&s.verdict.sentence)
        ));
    }
    out
}

/// The plain block: each entrant's place, name and record in words, above the table.
fn plain_list(s: &Standings) -> String {
    if s.entrants.is_empty() {
        return String::new();
    }
    let mut out = String::from("<ul class=\"plain\">\n");
    for e in &s.entrants {
        let _ = writeln!(
            out,
            "<li>{} <strong>{}</strong>: {}</li>",
            esc(&places::rank_cell(e.place, e.shared_place)),
            esc(&e.name),
            esc(&report::plain_record(e))
        );
    }
    out.push_str("</ul>\n");
    out
}

fn explain(text: &str) -> String {
    format!("<p class=\"explain\">{}</p>\n", esc(text.trim()))
}

/// The standings table (entrant names linked to their pages under `{base}entrants/`), the
/// note on the leader and the crosstable, without the words that explain them: the live page's
/// part that changes as games finish.
pub fn standings_section(s: &Standings, links: &Links, base: &str) -> String {
    let to_entrant = |i: usize| {
        links
            .entrant_files
            .get(i)
            .map(|f| format!("{base}entrants/{f}"))
    };
    let mut out = winner_line(s);
    out.push_str(&plain_list(s));
    out.push_str(&table(
        &report::table_rows(s),
        &[1],
        Some((1, &to_entrant)),
        Phone::Reflow,
    ));
    if s.leader.is_some() {
        out.push_str(&explain(&report::leader_paragraph(s)));
    }
    if s.entrants.len() > 1 {
        out.push_str("<h3>Crosstable</h3>\n");
        out.push_str(&table(&report::crosstable_rows(s), &[0], None, Phone::Grid));
    }
    out
}

/// The index: the standings with what its columns mean, the leader note, the SPRT, the
/// sandbox, the crosstable and the head-to-head table.
pub fn index(s: &Standings, sprt: Option<&str>, sandbox: &str, links: &Links) -> String {
    let mut body = winner_line(s);
    body.push_str(&plain_list(s));
    let _ = writeln!(
        body,
        "<p>{} games, {} duplicate pairs. {}</p>",
        s.games,
        s.pairs,
        esc(sandbox.trim())
    );
    body.push_str("<h2>Standings</h2>\n");
    let to_entrant = |i: usize| links.entrant_files.get(i).map(|f| format!("entrants/{f}"));
    body.push_str(&table(
        &report::table_rows(s),
        &[1],
        Some((1, &to_entrant)),
        Phone::Reflow,
    ));
    body.push_str(&explain(report::TABLE_LEGEND));
    if s.board_pairs > 0 {
        body.push_str(&explain(report::BOARD_LEGEND));
        body.push_str(&explain(&report::board_count(s)));
    }
    if !s.bracket.is_empty() {
        body.push_str("<h2>Bracket</h2>\n<pre>");
        body.push_str(&esc(&s.bracket.join("\n")));
        body.push_str("</pre>\n");
    }
    if s.leader.is_some() {
        body.push_str(&explain(&report::leader_paragraph(s)));
    }
    if let Some(t) = sprt {
        body.push_str("<h2>SPRT</h2>\n");
        body.push_str(&explain(t));
    }
    if s.entrants.len() > 1 {
        body.push_str("<h2>Crosstable</h2>\n");
        body.push_str(&explain(report::CROSSTABLE_LEGEND));
        body.push_str(&table(&report::crosstable_rows(s), &[0], None, Phone::Grid));
        if !s.head_to_head.is_empty() {
            body.push_str("<h2>Head to head</h2>\n");
            body.push_str(&explain("Each row: the first entrant against the second."));
            body.push_str(&table(
                &report::head_to_head_rows(s),
                &[0, 1],
                None,
                Phone::Reflow,
            ));
            body.push_str(&explain(report::HEAD_TO_HEAD_LEGEND));
        }
    }
    frame("Tournament standings", "index.html", &body)
}

/// How a game went for `name`: the side(s) it sat on and the result from there.
fn result_for(row: &GameRow, name: &str) -> (&'static str, String) {
    let teams: Vec<u8> = (0..2u8)
        .filter(|&t| row.seats[t as usize] == name || row.seats[t as usize + 2] == name)
        .collect();
    match (teams.as_slice(), row.winner) {
        ([_, _], _) => ("", "both sides".into()),
        ([t], Some(w)) if *t == w => ("won", "won".into()),
        ([_], Some(_)) => ("lost", "lost".into()),
        ([_], None) => ("", "draw".into()),
        _ => ("", "-".into()),
    }
}

/// One line per game: its number (linked to its page), the two partnerships, the result, the
/// scores, the hands and any forfeit. With `who`, the result is told from that entrant's side.
fn games_table(
    rows: &[(usize, &GameRow)],
    links: &Links,
    prefix: &str,
    who: Option<&str>,
) -> String {
    let mut out = String::from(
        "<div class=\"scroll\"><table class=\"reflow\">\n<tr class=\"head\"><th>game</th><th class=\"name\">seats 0 &amp; 2</th>\
<th class=\"name\">seats 1 &amp; 3</th><th>result</th><th>scores</th><th>hands</th>\
<th class=\"name\">end</th><th class=\"name\">forfeit</th></tr>\n",
    );
    for &(i, r) in rows {
        let (class, result) = match who {
            Some(name) => result_for(r, name),
            None => (
                "",
                match r.winner {
                    Some(w) => format!("seats {} won", if w == 0 { "0 & 2" } else { "1 & 3" }),
                    None => "draw".into(),
                },
            ),
        };
        let game = match links.game_pages.get(i) {
            Some(Ok(f)) => format!("<a href=\"{prefix}games/{}\">{}</a>", esc(f), r.game),
            Some(Err(why)) => format!("{} <small>(no page: {})</small>", r.game, esc(why)),
            None => r.game.to_string(),
        };
        let forfeit = match (r.forfeit_seat, &r.forfeit_kind) {
            (Some(seat), kind) => format!(
                "seat {seat} ({}): {}",
                esc(&r.seats[seat as usize % 4]),
                esc(kind.as_deref().unwrap_or("fault"))
            ),
            (None, _) => String::new(),
        };
        let _ = writeln!(
            out,
            "<tr class=\"{class}\"><td data-label=\"game\">{game}</td>\
<td class=\"name\" data-label=\"seats 0 &amp; 2\">{} &amp; {}</td>\
<td class=\"name\" data-label=\"seats 1 &amp; 3\">{} &amp; {}</td>\
<td class=\"result\" data-label=\"result\">{}</td><td data-label=\"scores\">{} : {}</td>\
<td data-label=\"hands\">{}</td><td class=\"name\" data-label=\"end\">{}</td>\
<td class=\"name\" data-label=\"forfeit\">{forfeit}</td></tr>",
            esc(&r.seats[0]),
            esc(&r.seats[2]),
            esc(&r.seats[1]),
            esc(&r.seats[3]),
            esc(&result),
            r.team_scores[0],
            r.team_scores[1],
            r.hands,
            esc(&r.reason),
        );
    }
    out.push_str("</table></div>\n");
    out
}

/// The page of entrant `k` (standings order): its row of the table, its forfeits by kind and
/// every game it sat in.
pub fn entrant(s: &Standings, k: usize, rows: &[GameRow], links: &Links) -> String {
    let e = &s.entrants[k];
    let all = report::table_rows(s);
    let mine = vec![all[0].clone(), all[k + 1].clone()];
    let mut body = String::from("<h2>In the standings</h2>\n");
    body.push_str(&table(&mine, &[1], None, Phone::Reflow));
    body.push_str(&explain(report::TABLE_LEGEND));
    if !e.forfeits.is_empty() {
        let kinds: Vec<String> = e.forfeits.iter().map(|(k, n)| format!("{k} {n}")).collect();
        body.push_str(&explain(&format!(
            "Forfeits by kind: {}.",
            kinds.join(", ")
        )));
    }
    let games: Vec<(usize, &GameRow)> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.seats.contains(&e.name))
        .collect();
    let _ = writeln!(body, "<h2>Games ({})</h2>", games.len());
    body.push_str(&explain(
        "Each game with its partnerships (seats 0 and 2 against 1 and 3), the result for this \
         entrant, the final team scores, the hands dealt, how the game ended and, for a forfeit, \
         the seat that broke a rule and how. A game's number opens its replay.",
    ));
    body.push_str(&games_table(&games, links, "../", Some(&e.name)));
    frame(
        &format!("{} in the tournament", e.name),
        "../index.html",
        &body,
    )
}

/// Every game of the site, in the order of the results.
pub fn games(rows: &[GameRow], links: &Links) -> String {
    let all: Vec<(usize, &GameRow)> = rows.iter().enumerate().collect();
    let mut body = format!("<h2>Every game ({})</h2>\n", rows.len());
    body.push_str(&games_table(&all, links, "", None));
    frame("Every game", "index.html", &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::table::standings;

    #[test]
    fn names_are_escaped_everywhere() {
        let evil = "<script>alert(1)</script>";
        let rows = vec![GameRow {
            forfeit_seat: Some(1),
            forfeit_kind: Some("exited".into()),
            reason: "forfeit".into(),
            ..GameRow::sample(0, None, 7, [evil, "b\"q", evil, "b\"q"], Some(0))
        }];
        let s = standings(&rows);
        let files = vec!["0-a.html".to_string(), "1-b.html".to_string()];
        let pages = vec![Ok("000000.html".to_string())];
        let links = Links {
            entrant_files: &files,
            game_pages: &pages,
        };
        for page in [
            index(&s, None, "sandbox: bwrap wide", &links),
            entrant(&s, 0, &rows, &links),
            games(&rows, &links),
        ] {
            // (The page's one script is the four-colour deck's toggle.)
            assert!(!page.contains(evil), "{page}");
            assert!(!page.contains("<script>alert"), "{page}");
            assert!(page.contains("&lt;script&gt;"), "{page}");
            assert!(!page.contains("b\"q"), "{page}");
        }
    }

    #[test]
    fn an_entrants_games_say_its_result() {
        let rows = vec![
            GameRow::sample(0, None, 1, ["a", "b", "a", "b"], Some(0)),
            GameRow::sample(1, None, 2, ["b", "a", "b", "a"], Some(0)),
            GameRow::sample(2, None, 3, ["b", "c", "b", "c"], None),
        ];
        let s = standings(&rows);
        let k = s.entrants.iter().position(|e| e.name == "a").unwrap();
        let files: Vec<String> = (0..s.entrants.len()).map(|i| format!("{i}.html")).collect();
        let pages: Vec<Result<String, String>> = vec![
            Ok("0.html".into()),
            Err("record missing".into()),
            Ok("2.html".into()),
        ];
        let links = Links {
            entrant_files: &files,
            game_pages: &pages,
        };
        let page = entrant(&s, k, &rows, &links);
        assert!(page.contains("Games (2)"), "{page}");
        assert!(page.contains("<tr class=\"won\">"), "{page}");
        assert!(page.contains("<tr class=\"lost\">"), "{page}");
        assert!(page.contains("(no page: record missing)"), "{page}");
        assert!(!page.contains("games/2.html"), "game 2 is not a's: {page}");
        let index = index(&s, Some("SPRT: continue"), "sandbox: none", &links);
        assert!(
            index.contains(&format!("href=\"entrants/{k}.html\"")),
            "{index}"
        );
        assert!(index.contains("SPRT: continue"));
    }
}
