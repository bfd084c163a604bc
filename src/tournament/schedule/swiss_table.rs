//! The table of a Swiss tournament: round by round each entrant's opponent and score, its
//! Swiss points and Buchholz, and its place.
//!
//! Swiss points: 1 a game won, ½ a draw; a bye scores half its round's games (as if every game
//! were drawn: the schedule's own rule). Buchholz: the sum of the Swiss points of the
//! opponents met (a bye adds none). Order: Swiss points, then Buchholz; entrants equal in both
//! share the place (`2=`) and are listed by name. The schedule pairs rounds on its own order
//! (points, then a seeded draw: see `schedule`); this table is what an organiser announces.

use crate::standings::places::{and_list, rank_cell, Winner};
use crate::standings::report::aligned;
use crate::tournament::schedule::{MatchOutcome, Unit};

/// One entrant's (partnership's) line.
#[derive(Clone, Debug, PartialEq)]
pub struct SwissLine {
    pub unit: Unit,
    /// Per round: the opponent and the half points of both (own first), or `None` for a bye.
    pub rounds: Vec<Option<(Unit, [u32; 2])>>,
    /// Swiss points and Buchholz, in half points.
    pub half_points: u32,
    pub buchholz: u32,
    pub place: u64,
    pub shared: bool,
}

/// The table of `units` over the finished Swiss `matches`; a bye scores `bye_half_points`.
pub fn table(units: &[Unit], matches: &[MatchOutcome], bye_half_points: u32) -> Vec<SwissLine> {
    let rounds = matches.iter().map(|m| m.round).max().unwrap_or(0) as usize;
    let mut lines: Vec<SwissLine> = units
        .iter()
        .map(|&unit| SwissLine {
            unit,
            rounds: vec![None; rounds],
            half_points: 0,
            buchholz: 0,
            place: 0,
            shared: false,
        })
        .collect();
    let at = |u: Unit| units.iter().position(|&x| x == u);
    let mut played = vec![vec![false; rounds]; units.len()];
    for m in matches {
        let r = m.round as usize - 1;
        for side in 0..2 {
            if let Some(i) = at(m.sides[side]) {
                let h = [m.half_points[side], m.half_points[1 - side]];
                lines[i].rounds[r] = Some((m.sides[1 - side], h));
                lines[i].half_points += h[0];
                played[i][r] = true;
            }
        }
    }
    for (line, played) in lines.iter_mut().zip(&played) {
        // A round the entrant played no match in, while others did: its bye.
        line.half_points += bye_half_points * played.iter().filter(|&&p| !p).count() as u32;
    }
    let points: Vec<u32> = lines.iter().map(|l| l.half_points).collect();
    for line in &mut lines {
        line.buchholz = line
            .rounds
            .iter()
            .flatten()
            .filter_map(|(o, _)| at(*o))
            .map(|j| points[j])
            .sum();
    }
    lines.sort_by(|a, b| {
        (b.half_points, b.buchholz)
            .cmp(&(a.half_points, a.buchholz))
            .then_with(|| a.unit.cmp(&b.unit))
    });
    for i in 0..lines.len() {
        let key = |l: &SwissLine| (l.half_points, l.buchholz);
        lines[i].place = if i > 0 && key(&lines[i - 1]) == key(&lines[i]) {
            lines[i - 1].place
        } else {
            i as u64 + 1
        };
    }
    for i in 0..lines.len() {
        let same = |j: usize| lines.get(j).is_some_and(|l| l.place == lines[i].place);
        lines[i].shared = (i > 0 && same(i - 1)) || same(i + 1);
    }
    lines
}

fn half(h: u32) -> String {
    if h.is_multiple_of(2) {
        (h / 2).to_string()
    } else {
        format!("{}.5", h / 2)
    }
}

fn unit_name(names: &[String], u: Unit) -> String {
    let name = |i: usize| names.get(i).map_or("?", String::as_str);
    if u[0] == u[1] {
        name(u[0]).to_string()
    } else {
        format!("{}+{}", name(u[0]), name(u[1]))
    }
}

/// The table as text: a header line, then one aligned row per entrant.
pub fn render(names: &[String], lines: &[SwissLine]) -> String {
    let rounds = lines.first().map_or(0, |l| l.rounds.len());
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut header = vec!["rank".to_string(), "entrant".to_string()];
    header.extend((1..=rounds).map(|r| format!("R{r}")));
    header.extend(["points".to_string(), "Buchholz".to_string()]);
    rows.push(header);
    for l in lines {
        let mut row = vec![rank_cell(l.place, l.shared), unit_name(names, l.unit)];
        for r in &l.rounds {
            row.push(match r {
                Some((o, h)) => format!("{} {}-{}", unit_name(names, *o), half(h[0]), half(h[1])),
                None => "bye".to_string(),
            });
        }
        row.push(half(l.half_points));
        row.push(half(l.buchholz));
        rows.push(row);
    }
    let left: Vec<usize> = (1..rounds + 2).collect();
    format!(
        "Swiss table (points: 1 a game won, 1/2 a draw, a bye half its games; Buchholz: the sum of the opponents' points; order: points, then Buchholz, then a shared place):\n{}",
        aligned(&rows, &left)
    )
}

/// The winner on Swiss points (the Elo table beside it may order the field otherwise).
pub fn winner(names: &[String], lines: &[SwissLine]) -> Option<Winner> {
    let first: Vec<String> = lines
        .iter()
        .filter(|l| l.place == 1)
        .map(|l| unit_name(names, l.unit))
        .collect();
    let top = lines.first()?;
    Some(if first.len() > 1 {
        let refs: Vec<&str> = first.iter().map(String::as_str).collect();
        Winner {
            champion: None,
            clear: false,
            line: format!(
                "No clear winner: {} share first place in the Swiss ({} points, Buchholz {}).",
                and_list(&refs),
                half(top.half_points),
                half(top.buchholz)
            ),
        }
    } else {
        Winner {
            champion: Some(first[0].clone()),
            clear: true,
            line: format!(
                "Winner of the Swiss: {} with {} points (Buchholz {}).",
                first[0],
                half(top.half_points),
                half(top.buchholz)
            ),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(round: u64, a: usize, b: usize, h: [u32; 2]) -> MatchOutcome {
        MatchOutcome {
            round,
            sides: [[a, a], [b, b]],
            half_points: h,
            points: [0, 0],
            winner: usize::from(h[1] > h[0]),
            decided_by: "games",
        }
    }

    #[test]
    fn six_entrants_by_hand() {
        // Six entrants A-F, three rounds of one game a match.
        // R1: A beat D, B drew E, C beat F. R2: A beat C, B beat F, E beat D.
        // R3: A drew B, C beat E, D beat F.
        // Points: A 2.5, B 2, C 2, D 1, E 1.5, F 0.
        // Buchholz: A = D 1 + C 2 + B 2 = 5; B = E 1.5 + F 0 + A 2.5 = 4;
        // C = F 0 + A 2.5 + E 1.5 = 4; D = A 2.5 + E 1.5 + F 0 = 4; E = B 2 + D 1 + C 2 = 5;
        // F = C 2 + B 2 + D 1 = 5.
        // Order: A 1; B and C 2= (2 points, Buchholz 4 each); E 4; D 5; F 6.
        let names: Vec<String> = ["A", "B", "C", "D", "E", "F"].map(String::from).to_vec();
        let units: Vec<Unit> = (0..6).map(|i| [i, i]).collect();
        let matches = [
            m(1, 0, 3, [2, 0]),
            m(1, 1, 4, [1, 1]),
            m(1, 2, 5, [2, 0]),
            m(2, 0, 2, [2, 0]),
            m(2, 1, 5, [2, 0]),
            m(2, 4, 3, [2, 0]),
            m(3, 0, 1, [1, 1]),
            m(3, 2, 4, [2, 0]),
            m(3, 3, 5, [2, 0]),
        ];
        let lines = table(&units, &matches, 1);
        let got: Vec<(String, u64, bool, u32, u32)> = lines
            .iter()
            .map(|l| {
                (
                    names[l.unit[0]].clone(),
                    l.place,
                    l.shared,
                    l.half_points,
                    l.buchholz,
                )
            })
            .collect();
        let want = [
            ("A", 1, false, 5, 10),
            ("B", 2, true, 4, 8),
            ("C", 2, true, 4, 8),
            ("E", 4, false, 3, 10),
            ("D", 5, false, 2, 8),
            ("F", 6, false, 0, 10),
        ]
        .map(|(n, p, s, h, b)| (n.to_string(), p, s, h, b));
        assert_eq!(got, want);
        let text = render(&names, &lines);
        let rows: Vec<&str> = text.lines().collect();
        assert!(rows[1].starts_with("rank  entrant  R1"), "{text}");
        assert_eq!(
            rows[2],
            "   1  A        D 1-0      C 1-0  B 0.5-0.5     2.5         5"
        );
        assert_eq!(
            rows[3],
            "  2=  B        E 0.5-0.5  F 1-0  A 0.5-0.5       2         4"
        );
        assert_eq!(
            winner(&names, &lines).unwrap().line,
            "Winner of the Swiss: A with 2.5 points (Buchholz 5)."
        );
    }

    #[test]
    fn a_bye_scores_half_its_games() {
        // Three entrants, one round: A beat B 2-0 (two games), C sat out: 1 point (half of 2).
        let units: Vec<Unit> = (0..3).map(|i| [i, i]).collect();
        let lines = table(&units, &[m(1, 0, 1, [4, 0])], 2);
        let c = lines.iter().find(|l| l.unit == [2, 2]).unwrap();
        assert_eq!((c.half_points, c.buchholz, c.rounds[0]), (2, 0, None));
        let names: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
        assert!(
            render(&names, &lines).contains("  C        bye"),
            "{}",
            render(&names, &lines)
        );
    }
}
