//! Rating units from result rows: a complete duplicate pair (two games on the same deals with
//! the partnerships' seats swapped) is one unit, every other game is a unit of its own.
//!
//! A pair is keyed by its deals, not by its `pair` number alone: the number is the deal set's
//! index within one tournament, so two tournaments pooled by `tarneeb standings A B` both have
//! a pair 0. The key is the deal set's seed (derived from the tournament seed and the deal
//! set's index, so it differs between tournaments with different seeds), the deal set's index,
//! the fingerprint of recorded deals when `--deals-from` supplied them, and the two
//! partnerships. Games with the same key are matched in schedule order, one with each seating,
//! so pooling two tournaments on the same seed and entrants still keeps every pair; a game on
//! other deals is never its twin, and a game whose twin is missing counts singly.

use std::collections::BTreeMap;

use super::row::GameRow;

/// One rating unit, in names: side 0, side 1, side 0's score (mean of the pair's two games from
/// side 0's point of view), and the rows it holds (one, or a pair's first then second game).
pub struct Unit<'a> {
    pub side0: [&'a str; 2],
    pub side1: [&'a str; 2],
    pub score0: f64,
    pub rows: Vec<&'a GameRow>,
}

impl Unit<'_> {
    pub fn is_pair(&self) -> bool {
        self.rows.len() == 2
    }
}

/// Side 0's score in a game: 1, 0.5 or 0.
pub fn game_score0(row: &GameRow) -> f64 {
    match row.winner {
        Some(0) => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// The entrants of team `t` (seats t and t + 2).
pub fn team(row: &GameRow, t: usize) -> [&str; 2] {
    [row.seats[t].as_str(), row.seats[t + 2].as_str()]
}

fn sorted2(s: [&str; 2]) -> [&str; 2] {
    let mut s = s;
    s.sort_unstable();
    s
}

/// What makes two games twins: the same deals and the same two partnerships.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PairKey<'a> {
    pub seed: u64,
    pub deal_set: u64,
    pub deals: Option<&'a str>,
    /// The two partnerships (each sorted), in sorted order.
    pub partnerships: [[&'a str; 2]; 2],
}

/// The key of a duplicate game, and whether it seats the key's first partnership as team 0;
/// `None` for a game without duplicate.
pub fn pair_key(row: &GameRow) -> Option<(PairKey<'_>, bool)> {
    let deal_set = row.pair?;
    let (a, b) = (sorted2(team(row, 0)), sorted2(team(row, 1)));
    let first_is_team0 = a <= b;
    let partnerships = if first_is_team0 { [a, b] } else { [b, a] };
    Some((
        PairKey {
            seed: row.seed,
            deal_set,
            deals: row.deals.as_deref(),
            partnerships,
        },
        first_is_team0,
    ))
}

/// Rows in schedule order (stable: rows of pooled tournaments with the same game number keep
/// their input order).
pub fn sorted_rows(rows: &[GameRow]) -> Vec<&GameRow> {
    let mut v: Vec<&GameRow> = rows.iter().collect();
    v.sort_by_key(|r| r.game);
    v
}

/// The rating units of `rows`, in schedule order of each unit's first game.
pub fn units(rows: &[GameRow]) -> Vec<Unit<'_>> {
    let rows = sorted_rows(rows);
    // Per key: the games seating the first partnership as team 0, and the others.
    let mut groups: BTreeMap<PairKey<'_>, [Vec<usize>; 2]> = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        if let Some((key, first)) = pair_key(r) {
            groups.entry(key).or_default()[usize::from(!first)].push(i);
        }
    }
    // twin[i] = Some(j): rows i < j form a pair, reported at i; j is then skipped.
    let mut twin: Vec<Option<usize>> = vec![None; rows.len()];
    let mut taken = vec![false; rows.len()];
    for [a, b] in groups.values() {
        for (&x, &y) in a.iter().zip(b) {
            let (i, j) = (x.min(y), x.max(y));
            twin[i] = Some(j);
            taken[j] = true;
        }
    }
    let mut out = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        if taken[i] {
            continue;
        }
        match twin[i] {
            None => out.push(Unit {
                side0: team(r, 0),
                side1: team(r, 1),
                score0: game_score0(r),
                rows: vec![r],
            }),
            Some(j) => {
                let second = rows[j];
                // The twin seats the partnerships the other way round: its team 1 is our team 0.
                let s = 1.0 - game_score0(second);
                out.push(Unit {
                    side0: team(r, 0),
                    side1: team(r, 1),
                    score0: (game_score0(r) + s) / 2.0,
                    rows: vec![r, second],
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A duplicate game of tournament `t` (seed 10 t + deal set), X at team 0.
    fn row(t: u64, game: u64, x: &str, y: &str, winner: u8) -> GameRow {
        GameRow::sample(
            game,
            Some(game / 2),
            10 * t + game / 2,
            [x, y, x, y],
            Some(winner),
        )
    }

    fn tournament(t: u64) -> Vec<GameRow> {
        // Two pairs: A wins both games of pair 0 (score 1), splits pair 1 (score .5).
        vec![
            row(t, 0, "A", "B", 0),
            row(t, 1, "B", "A", 1),
            row(t, 2, "A", "B", 0),
            row(t, 3, "B", "A", 0),
        ]
    }

    #[test]
    fn pooled_tournaments_keep_every_pair() {
        // Two tournaments with their own seeds: both number their pairs 0 and 1.
        let mut rows = tournament(1);
        rows.extend(tournament(2));
        let u = units(&rows);
        assert_eq!(u.len(), 4, "every pair kept");
        assert!(u.iter().all(Unit::is_pair));
        let scores: Vec<f64> = u.iter().map(|u| u.score0).collect();
        assert_eq!(scores, [1.0, 1.0, 0.5, 0.5]);
        // The same seed twice (a tournament re-run into another directory): the games on the
        // same deals are matched one seating with the other, still four pairs.
        let mut rows = tournament(1);
        rows.extend(tournament(1));
        let u = units(&rows);
        assert_eq!(u.len(), 4);
        assert!(u.iter().all(Unit::is_pair));
    }

    #[test]
    fn games_on_different_deals_are_never_twins() {
        // Tournament 1 stopped after game 0, tournament 2 after game 1: each has one game of
        // its "pair 0", seated the other way round, but on other deals.
        let rows = vec![row(1, 0, "A", "B", 0), row(2, 1, "B", "A", 0)];
        let u = units(&rows);
        assert_eq!(u.len(), 2);
        assert!(u.iter().all(|u| !u.is_pair()));
        // Recorded deals (--deals-from) with the same seed and deal set but other cards.
        let mut a = row(1, 0, "A", "B", 0);
        let mut b = row(1, 1, "B", "A", 0);
        a.deals = Some("00aa".into());
        b.deals = Some("00bb".into());
        assert!(units(&[a.clone(), b.clone()]).iter().all(|u| !u.is_pair()));
        b.deals = a.deals.clone();
        assert!(units(&[a, b])[0].is_pair());
    }
}
