//! Standings: per-entrant counts from the rows of `results.jsonl`, and ratings fitted on all
//! games (see [`super::ratings`]).
//!
//! Counting: a game counts once for every *distinct* entrant in it. Each distinct entrant on the
//! winning side gets a win, each on the losing side a loss (with `--partners rotate` one game
//! gives wins to both winners); an entrant partnered with itself counts the game once; a draw
//! gives every distinct entrant a draw. Points for/against are the entrant's side's final team
//! score and the other side's. An entrant seated on both sides of one game (only possible with
//! odd seatings) gets that game's win *and* loss, and both sides' points.
//!
//! Rating observations: a game is one observation, side 0 = seats 0 & 2, side 1 = seats 1 & 3,
//! score 1 / 0.5 / 0. The two games of a duplicate pair (the same deals, the partnerships'
//! seats swapped: see [`super::pairs`] for how twins are found) are **one** observation of
//! weight 1 whose score is the mean of the two game scores of the first game's side 0
//! (pentanomial 0, .25, .5, .75, 1), so the luck of the deal cancels. A game whose twin is
//! missing (a run stopped mid-pair) counts singly.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::accuracy::EntrantAccuracy;
use super::pairs::units;
use super::pairwise::{self, Crosstable, HeadToHead, LeaderNote};
use super::places::{self, RankKey, Verdict, Winner};
use super::ratings::{self, Observation, Rating};
use super::tally::{Tally, Totals};
use super::twins::TwinOrder;

pub use super::row::GameRow;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntrantStanding {
    /// Place from 1 (see [`super::places`] for the tie-break), shared by equal entrants.
    #[serde(default)]
    pub place: u64,
    #[serde(default)]
    pub shared_place: bool,
    pub name: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Games this entrant's seat forfeited, by what it did (`timeout`, `exited`, ...;
    /// `unknown` for rows written before the kind was kept).
    pub forfeits: BTreeMap<String, u64>,
    /// Timeout faults at this entrant's seats, forfeited or substituted.
    pub timeouts: u64,
    /// Points: 1 per game won, ½ per draw, over `games`.
    pub score: f64,
    pub points_for: i64,
    pub points_against: i64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    /// The rating fitted to who won the boards of each duplicate pair (see
    /// [`super::boards`]), with its 95% interval; `None` without such pairs.
    pub board_elo: Option<Rating>,
    /// `--analyze`: double-dummy tricks lost per hand per seat (see [`super::accuracy`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dd_lost: Option<EntrantAccuracy>,
    /// `--analyze`: its play in the first against the second game of its duplicate pairs (see
    /// [`super::twins`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twin_order: Option<TwinOrder>,
}

impl EntrantStanding {
    pub fn forfeit_total(&self) -> u64 {
        self.forfeits.values().sum()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standings {
    /// Sorted by place (see [`super::places`]), equal entrants by name.
    pub entrants: Vec<EntrantStanding>,
    /// The winner line: who won, or why no one clearly did.
    pub winner: Option<Winner>,
    /// Rows (games) counted.
    pub games: u64,
    /// Complete duplicate pairs, each one rating observation.
    pub pairs: u64,
    /// Duplicate pairs with hand results, each one board observation.
    pub board_pairs: u64,
    /// Duplicate pairs left out of the boards: neither game forfeited and a row without hand
    /// results (written before they were kept).
    #[serde(default)]
    pub pairs_without_boards: u64,
    pub crosstable: Crosstable,
    /// Every two entrants whose sides met, in standings order.
    pub head_to_head: Vec<HeadToHead>,
    pub leader: Option<LeaderNote>,
    /// The verdict behind the first line, in words and as fields (see [`super::headline`]):
    /// leader, how sure, provisional, entrants not met; set by `headline::apply`, which the
    /// commands call with the schedule's size.
    #[serde(default)]
    pub verdict: Verdict,
    /// A knockout's bracket or a king of the hill's ladder, as printed (set by the caller
    /// that has the schedule: see `tournament::schedule::bracket`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bracket: Vec<String>,
}

/// What an entrant's place is decided on.
pub fn rank_key(e: &EntrantStanding) -> RankKey {
    RankKey {
        name: e.name.clone(),
        elo: e.elo,
        wins: e.wins,
        draws: e.draws,
        games: e.games,
    }
}

/// The rating input derived from the rows: entrant names (order of first appearance in schedule
/// order), observations over their indices, and how many of them are duplicate pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingInput {
    pub names: Vec<String>,
    pub observations: Vec<Observation>,
    pub pairs: u64,
}

/// The observations [`standings`] fits (identical ones merged: see [`super::tally`]).
pub fn rating_input(rows: &[GameRow]) -> RatingInput {
    let t = tally_of(rows).totals();
    RatingInput {
        names: t.names,
        observations: t.observations,
        pairs: t.pairs,
    }
}

fn tally_of(rows: &[GameRow]) -> Tally {
    let mut t = Tally::new();
    for r in rows {
        t.push(r.clone());
    }
    t
}

/// Scores of `entrant` per rating unit, in schedule order: the pentanomial pair score for each
/// complete duplicate pair, the game score (1, .5, 0) for each other game. Units where the
/// entrant is absent or sits on both sides are skipped. This is the SPRT input of a gauntlet of
/// two entrants.
pub fn pair_scores(rows: &[GameRow], entrant: &str) -> Vec<f64> {
    units(rows)
        .into_iter()
        .filter_map(|u| {
            let on0 = u.side0.contains(&entrant);
            let on1 = u.side1.contains(&entrant);
            match (on0, on1) {
                (true, false) => Some(u.score0),
                (false, true) => Some(1.0 - u.score0),
                _ => None,
            }
        })
        .collect()
}

/// Counts and ratings of every entrant in `rows`; see the module documentation.
pub fn standings(rows: &[GameRow]) -> Standings {
    from_totals(tally_of(rows).totals())
}

/// The standings of running totals (rows streamed through a [`Tally`]).
pub fn from_totals(t: Totals) -> Standings {
    let mut table: Vec<EntrantStanding> = t
        .names
        .iter()
        .zip(&t.counts)
        .map(|(name, c)| EntrantStanding {
            place: 0,
            shared_place: false,
            name: name.clone(),
            games: c.games,
            wins: c.wins,
            draws: c.draws,
            losses: c.losses,
            forfeits: c.forfeits.clone(),
            timeouts: c.timeouts,
            score: 0.0,
            points_for: c.points_for,
            points_against: c.points_against,
            elo: 0.0,
            elo_low: 0.0,
            elo_high: 0.0,
            board_elo: None,
            dd_lost: c.accuracy.finish(),
            twin_order: None,
        })
        .collect();
    for (e, o) in table.iter_mut().zip(&t.twin_order) {
        e.twin_order = o.clone();
    }
    let n = t.names.len();
    let fit = ratings::fit_with(n, &t.observations, &ratings::FitOptions::default());
    for (e, r) in table.iter_mut().zip(&fit.ratings) {
        e.elo = r.elo;
        e.elo_low = r.low;
        e.elo_high = r.high;
        if e.games > 0 {
            e.score = (e.wins as f64 + e.draws as f64 / 2.0) / e.games as f64;
        }
    }
    if !t.boards.is_empty() {
        for (e, r) in table.iter_mut().zip(ratings::fit(n, &t.boards)) {
            e.board_elo = Some(r);
        }
    }
    let keys: Vec<RankKey> = table.iter().map(rank_key).collect();
    let order = places::order(&keys);
    let crosstable = Crosstable {
        names: order.iter().map(|&i| t.names[i].clone()).collect(),
        cells: order
            .iter()
            .map(|&i| order.iter().map(|&j| t.cross[i][j]).collect())
            .collect(),
    };
    let head_to_head = pairwise::head_to_head(&t.names, &t.meetings, &fit, &order);
    let leader = pairwise::leader_note(&t.names, &fit, &order);
    let mut entrants: Vec<EntrantStanding> = order.iter().map(|&i| table[i].clone()).collect();
    let sorted: Vec<RankKey> = order.iter().map(|&i| keys[i].clone()).collect();
    for (e, (place, shared)) in entrants.iter_mut().zip(places::assign(&sorted)) {
        (e.place, e.shared_place) = (place, shared);
    }
    let named: Vec<(&str, u64)> = entrants
        .iter()
        .map(|e| (e.name.as_str(), e.place))
        .collect();
    let winner = places::winner(&named, leader.as_ref());
    Standings {
        entrants,
        winner,
        games: t.rows,
        pairs: t.pairs,
        board_pairs: t.board_pairs,
        pairs_without_boards: t.pairs.saturating_sub(t.board_pairs),
        crosstable,
        head_to_head,
        leader,
        verdict: Verdict::default(),
        bracket: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        game: u64,
        pair: Option<u64>,
        seats: [&str; 4],
        winner: Option<u8>,
        scores: [i32; 2],
    ) -> GameRow {
        let seed = 1000 + pair.map_or(game, |p| 500 + p);
        GameRow {
            reason: if winner.is_some() {
                "target"
            } else {
                "hand-cap"
            }
            .to_string(),
            team_scores: scores,
            hands: 12,
            record: format!("games/{game:05}.json"),
            referee_us_per_move: Some(3.5),
            ..GameRow::sample(game, pair, seed, seats, winner)
        }
    }

    fn get<'a>(s: &'a Standings, name: &str) -> &'a EntrantStanding {
        s.entrants.iter().find(|e| e.name == name).unwrap()
    }

    #[test]
    fn counts_without_pairs() {
        let rows = vec![
            row(0, None, ["A", "B", "A", "B"], Some(0), [41, 20]),
            row(1, None, ["B", "A", "B", "A"], Some(1), [10, 41]),
            row(2, None, ["A", "B", "A", "B"], Some(1), [30, 41]),
            row(3, None, ["A", "B", "A", "B"], None, [25, 25]),
        ];
        let s = standings(&rows);
        assert_eq!((s.games, s.pairs), (4, 0));
        let a = get(&s, "A");
        assert_eq!((a.games, a.wins, a.losses, a.draws), (4, 2, 1, 1));
        assert_eq!(
            (a.points_for, a.points_against),
            (41 + 41 + 30 + 25, 20 + 10 + 41 + 25)
        );
        let b = get(&s, "B");
        assert_eq!((b.games, b.wins, b.losses, b.draws), (4, 1, 2, 1));
        assert_eq!((b.points_for, b.points_against), (96, 137));
        // A scored 2.5 of 4 = 0.625: Elo difference −400 log10(0.6) = 88.74 without a prior;
        // the two virtual draws shrink four games toward 0.
        assert_eq!(s.entrants[0].name, "A");
        assert!(a.elo - b.elo > 50.0 && a.elo - b.elo < 88.74, "{s:?}");
        assert!((a.elo + b.elo).abs() < 1e-9);
        assert!(a.elo_low < a.elo && a.elo < a.elo_high);
    }

    #[test]
    fn duplicate_pairs_are_one_observation() {
        // Pair 0: A wins with the deals as team 0, then B wins with the same deals: split, 0.5.
        // Pair 1: A wins both: 1.0. Pair 2 stored out of order, A loses both: 0.0.
        let rows = vec![
            row(0, Some(0), ["A", "B", "A", "B"], Some(0), [41, 12]),
            row(1, Some(0), ["B", "A", "B", "A"], Some(0), [41, 30]),
            row(2, Some(1), ["A", "B", "A", "B"], Some(0), [41, 0]),
            row(3, Some(1), ["B", "A", "B", "A"], Some(1), [5, 41]),
            row(5, Some(2), ["B", "A", "B", "A"], Some(0), [41, 9]),
            row(4, Some(2), ["A", "B", "A", "B"], Some(1), [20, 41]),
        ];
        let input = rating_input(&rows);
        assert_eq!(input.names, ["A", "B"]);
        assert_eq!(input.pairs, 3);
        let scores: Vec<f64> = input.observations.iter().map(|o| o.score0).collect();
        assert_eq!(scores, [0.5, 1.0, 0.0]);
        assert!(input
            .observations
            .iter()
            .all(|o| o.side0 == [0, 0] && o.side1 == [1, 1]));
        assert_eq!(pair_scores(&rows, "A"), [0.5, 1.0, 0.0]);
        assert_eq!(pair_scores(&rows, "B"), [0.5, 0.0, 1.0]);
        let s = standings(&rows);
        assert_eq!((s.games, s.pairs), (6, 3));
        let a = get(&s, "A");
        assert_eq!((a.games, a.wins, a.losses, a.draws), (6, 3, 3, 0));
        assert_eq!(a.points_for, 41 + 30 + 41 + 41 + 9 + 20);
        // Pair scores 0.5, 1, 0 average 0.5: equal ratings.
        assert!(a.elo.abs() < 1e-6, "{s:?}");
    }

    #[test]
    fn incomplete_or_mismatched_pairs_count_singly() {
        let rows = vec![
            row(0, Some(0), ["A", "B", "A", "B"], Some(0), [41, 0]),
            row(1, Some(0), ["A", "C", "A", "C"], Some(0), [41, 0]), // not the same partnerships
            row(2, Some(1), ["A", "B", "A", "B"], None, [30, 30]),   // partner game never finished
        ];
        let input = rating_input(&rows);
        assert_eq!(input.pairs, 0);
        assert_eq!(input.observations.len(), 3);
        assert_eq!(pair_scores(&rows, "B"), [0.0, 0.5]);
    }

    #[test]
    fn rotate_style_seats() {
        // Four entrants, partners rotating; an entrant partnered with itself counts once.
        let rows = vec![
            row(0, None, ["A", "B", "C", "D"], Some(0), [41, 10]), // A+C beat B+D
            row(1, None, ["A", "C", "B", "D"], Some(1), [15, 41]), // C+D beat A+B
            row(2, None, ["A", "D", "C", "B"], None, [20, 20]),    // A+C draw D+B
            row(3, None, ["A", "B", "A", "C"], Some(0), [41, 3]),  // A+A beat B+C
        ];
        let s = standings(&rows);
        let a = get(&s, "A");
        assert_eq!((a.games, a.wins, a.losses, a.draws), (4, 2, 1, 1));
        assert_eq!(
            (a.points_for, a.points_against),
            (41 + 15 + 20 + 41, 10 + 41 + 20 + 3)
        );
        let b = get(&s, "B");
        assert_eq!((b.games, b.wins, b.losses, b.draws), (4, 0, 3, 1));
        let c = get(&s, "C");
        assert_eq!((c.games, c.wins, c.losses, c.draws), (4, 2, 1, 1));
        assert_eq!(
            (c.points_for, c.points_against),
            (41 + 41 + 20 + 3, 10 + 15 + 20 + 41)
        );
        let d = get(&s, "D");
        assert_eq!((d.games, d.wins, d.losses, d.draws), (3, 1, 1, 1));
        let input = rating_input(&rows);
        assert_eq!(input.names, ["A", "B", "C", "D"]);
        assert_eq!(input.observations[3].side0, [0, 0]);
        assert_eq!(input.observations[3].side1, [1, 2]);
        let mean: f64 = s.entrants.iter().map(|e| e.elo).sum::<f64>() / 4.0;
        assert!(mean.abs() < 1e-9);
        assert_eq!(s.entrants.last().unwrap().name, "B");
    }

    #[test]
    fn tied_entrants_share_a_place() {
        // A beats B, B beats C, C beats A, one game each way round: all three at 1 win and 1
        // loss with equal ratings up to rounding noise: they share first place, by name, and
        // nobody is named the winner. D, who lost all, is 4th (places count past the tie).
        let mut rows = Vec::new();
        let mut g = 0;
        for (x, y) in [("A", "B"), ("B", "C"), ("C", "A")] {
            rows.push(row(g, None, [x, y, x, y], Some(0), [41, 0]));
            g += 1;
        }
        for x in ["A", "B", "C"] {
            rows.push(row(g, None, [x, "D", x, "D"], Some(0), [41, 0]));
            g += 1;
        }
        let s = standings(&rows);
        let places: Vec<(u64, bool, &str)> = s
            .entrants
            .iter()
            .map(|e| (e.place, e.shared_place, e.name.as_str()))
            .collect();
        assert_eq!(
            places,
            [
                (1, true, "A"),
                (1, true, "B"),
                (1, true, "C"),
                (4, false, "D")
            ],
            "{s:?}"
        );
        let w = s.winner.unwrap();
        assert_eq!(w.champion, None);
        assert_eq!(
            w.line,
            "No clear winner: A, B and C share first place (equal Elo to 0.1 and equal score)."
        );
        // Equal Elo to 0.1 but a different score is no tie: the score breaks it (B, with a
        // win more, is 1st alone; A and C stay equal at 2=).
        let mut t = s.entrants.clone();
        t[0].elo = 10.04;
        t[1].elo = 9.96;
        t[2].elo = 10.0;
        t[1].wins += 1;
        t[1].games += 1;
        let keys: Vec<RankKey> = t.iter().map(rank_key).collect();
        let order = places::order(&keys);
        assert_eq!(t[order[0]].name, "B");
        let sorted: Vec<RankKey> = order.iter().map(|&i| keys[i].clone()).collect();
        let placed = places::assign(&sorted);
        assert_eq!(placed[0], (1, false));
        assert_eq!(places::rank_cell(placed[1].0, placed[1].1), "2=");
    }

    #[test]
    fn the_winner_line() {
        let rows: Vec<GameRow> = (0..40)
            .map(|g| row(g, None, ["A", "B", "A", "B"], Some(0), [41, 0]))
            .collect();
        let w = standings(&rows).winner.unwrap();
        assert_eq!(w.champion.as_deref(), Some("A"));
        assert!(w.clear);
        assert_eq!(
            w.line,
            "Winner: A, ahead of every other entrant beyond chance."
        );
        let few = standings(&rows[..1]).winner.unwrap();
        assert!(!few.clear);
        assert!(
            few.line
                .starts_with("No clear winner: A is first, but its margin over B"),
            "{}",
            few.line
        );
    }

    #[test]
    fn rows_round_trip_as_json_lines() {
        let r = row(7, Some(3), ["x", "y", "x", "y"], None, [1, -2]);
        let line = serde_json::to_string(&r).unwrap();
        assert!(line.contains("\"team_scores\":[1,-2]") && line.contains("\"winner\":null"));
        assert_eq!(serde_json::from_str::<GameRow>(&line).unwrap(), r);
    }
}
