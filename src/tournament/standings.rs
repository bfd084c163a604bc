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

use super::accuracy::{per_entrant, EntrantAccuracy};
use super::boards::{unit_boards, BoardScale};
use super::pairs::{sorted_rows, team, units};
use super::pairwise::{self, Crosstable, HeadToHead, LeaderNote};
use super::ratings::{self, Observation, Rating};

pub use super::row::GameRow;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntrantStanding {
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
}

impl EntrantStanding {
    pub fn forfeit_total(&self) -> u64 {
        self.forfeits.values().sum()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standings {
    /// Sorted by Elo, highest first (ties by name).
    pub entrants: Vec<EntrantStanding>,
    /// Rows (games) counted.
    pub games: u64,
    /// Complete duplicate pairs, each one rating observation.
    pub pairs: u64,
    /// Duplicate pairs with hand results, each one board observation.
    pub board_pairs: u64,
    pub crosstable: Crosstable,
    /// Every two entrants whose sides met, in standings order.
    pub head_to_head: Vec<HeadToHead>,
    pub leader: Option<LeaderNote>,
}

/// The rating input derived from the rows: entrant names (order of first appearance in schedule
/// order), observations over their indices, and how many of them are duplicate pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingInput {
    pub names: Vec<String>,
    pub observations: Vec<Observation>,
    pub pairs: u64,
}

fn distinct<'a>(names: &[&'a str]) -> Vec<&'a str> {
    let mut v: Vec<&str> = names.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

/// The observations [`standings`] fits.
pub fn rating_input(rows: &[GameRow]) -> RatingInput {
    let mut names: Vec<String> = Vec::new();
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for r in sorted_rows(rows) {
        for s in &r.seats {
            if !index.contains_key(s.as_str()) {
                index.insert(s.as_str(), names.len());
                names.push(s.clone());
            }
        }
    }
    let mut pairs = 0;
    let observations = units(rows)
        .into_iter()
        .map(|u| {
            pairs += u64::from(u.is_pair());
            Observation {
                side0: u.side0.iter().map(|n| index[n]).collect(),
                side1: u.side1.iter().map(|n| index[n]).collect(),
                score0: u.score0,
                weight: 1.0,
            }
        })
        .collect();
    RatingInput {
        names,
        observations,
        pairs,
    }
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
    let input = rating_input(rows);
    let mut table: Vec<EntrantStanding> = input
        .names
        .iter()
        .map(|name| EntrantStanding {
            name: name.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            forfeits: BTreeMap::new(),
            timeouts: 0,
            score: 0.0,
            points_for: 0,
            points_against: 0,
            elo: 0.0,
            elo_low: 0.0,
            elo_high: 0.0,
            board_elo: None,
            dd_lost: None,
        })
        .collect();
    let slot = |name: &str| input.names.iter().position(|n| n == name).unwrap();
    for r in rows {
        for name in distinct(&[&r.seats[0], &r.seats[1], &r.seats[2], &r.seats[3]]) {
            table[slot(name)].games += 1;
            if r.winner.is_none() {
                table[slot(name)].draws += 1;
            }
        }
        for t in 0..2 {
            for name in distinct(&team(r, t)) {
                let e = &mut table[slot(name)];
                e.points_for += i64::from(r.team_scores[t]);
                e.points_against += i64::from(r.team_scores[1 - t]);
                match r.winner {
                    Some(w) if usize::from(w) == t => e.wins += 1,
                    Some(_) => e.losses += 1,
                    None => {}
                }
            }
        }
        if let Some(seat) = r.forfeit_seat.filter(|&s| s < 4) {
            let kind = r.forfeit_kind.clone().unwrap_or_else(|| "unknown".into());
            *table[slot(&r.seats[usize::from(seat)])]
                .forfeits
                .entry(kind)
                .or_default() += 1;
        }
        for (seat, &n) in r.timeouts.iter().enumerate() {
            table[slot(&r.seats[seat])].timeouts += u64::from(n);
        }
    }
    let fit = ratings::fit_with(
        input.names.len(),
        &input.observations,
        &ratings::FitOptions::default(),
    );
    for (e, r) in table.iter_mut().zip(&fit.ratings) {
        e.elo = r.elo;
        e.elo_low = r.low;
        e.elo_high = r.high;
        if e.games > 0 {
            e.score = (e.wins as f64 + e.draws as f64 / 2.0) / e.games as f64;
        }
    }
    for (e, a) in table.iter_mut().zip(per_entrant(rows, &input.names)) {
        e.dd_lost = a;
    }
    let all_units = units(rows);
    let index = |n: &str| slot(n);
    let board_obs: Vec<Observation> = all_units
        .iter()
        .filter_map(|u| {
            let b = unit_boards(u, BoardScale::Points)?;
            Some(Observation {
                side0: u.side0.iter().map(|n| index(n)).collect(),
                side1: u.side1.iter().map(|n| index(n)).collect(),
                score0: b.score(),
                weight: 1.0,
            })
        })
        .collect();
    if !board_obs.is_empty() {
        for (e, r) in table
            .iter_mut()
            .zip(ratings::fit(input.names.len(), &board_obs))
        {
            e.board_elo = Some(r);
        }
    }
    let mut order: Vec<usize> = (0..table.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&table[a], &table[b]);
        b.elo.total_cmp(&a.elo).then_with(|| a.name.cmp(&b.name))
    });
    let sorted_names: Vec<String> = order.iter().map(|&i| input.names[i].clone()).collect();
    let crosstable = pairwise::crosstable(&sorted_names, rows);
    let head_to_head = pairwise::head_to_head(&input.names, &all_units, &fit, &order);
    let leader = pairwise::leader_note(&input.names, &fit, &order);
    let entrants = order.iter().map(|&i| table[i].clone()).collect();
    Standings {
        entrants,
        games: rows.len() as u64,
        pairs: input.pairs,
        board_pairs: board_obs.len() as u64,
        crosstable,
        head_to_head,
        leader,
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
    fn rows_round_trip_as_json_lines() {
        let r = row(7, Some(3), ["x", "y", "x", "y"], None, [1, -2]);
        let line = serde_json::to_string(&r).unwrap();
        assert!(line.contains("\"team_scores\":[1,-2]") && line.contains("\"winner\":null"));
        assert_eq!(serde_json::from_str::<GameRow>(&line).unwrap(), r);
    }
}
