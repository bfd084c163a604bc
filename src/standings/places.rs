//! Places, ties and the line that names the winner.
//!
//! Order and tie-break, in this order: the Elo as printed (to 0.1: two ratings that differ
//! only in digits not shown are equal, so floating-point noise never decides a place), then
//! the game score (wins plus half the draws over games, compared exactly). Entrants equal in
//! both share a place, printed `3=` and listed by name; the next place is counted past them
//! (two at `3=` are followed by 5).
//!
//! The winner line: "No clear winner" when the first place is shared, or when the leader's
//! margin is within chance (see [`super::pairwise::leader_note`]), each with its reason;
//! otherwise "Winner: NAME". A knockout or king of the hill names its champion instead, with
//! how its final was decided (see `tournament::bracket`).

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use super::pairwise::LeaderNote;
use super::table::EntrantStanding;

/// Tenths of Elo, as printed.
fn tenths(elo: f64) -> i64 {
    (elo * 10.0).round() as i64
}

/// `a` against `b` in the tie-break order: `Less` when `a` ranks higher.
fn by_standing(a: &EntrantStanding, b: &EntrantStanding) -> Ordering {
    tenths(b.elo).cmp(&tenths(a.elo)).then_with(|| {
        // (2w + d) / 2g compared without division; no games scores 0.
        let num = |e: &EntrantStanding| u128::from(2 * e.wins + e.draws);
        let den = |e: &EntrantStanding| u128::from(2 * e.games.max(1));
        (num(b) * den(a)).cmp(&(num(a) * den(b)))
    })
}

/// The order of `table` (indices), highest first; ties listed by name.
pub fn order(table: &[EntrantStanding]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..table.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&table[a], &table[b]);
        by_standing(a, b).then_with(|| a.name.cmp(&b.name))
    });
    order
}

/// Sets `place` and `shared_place` of entrants already in [`order`].
pub fn assign(sorted: &mut [EntrantStanding]) {
    let mut place = 1;
    for i in 0..sorted.len() {
        if i > 0 && by_standing(&sorted[i - 1], &sorted[i]) != Ordering::Equal {
            place = i as u64 + 1;
        }
        sorted[i].place = place;
    }
    for i in 0..sorted.len() {
        let same = |j: usize| sorted.get(j).is_some_and(|e| e.place == sorted[i].place);
        sorted[i].shared_place = (i > 0 && same(i - 1)) || same(i + 1);
    }
}

/// Who won, for the first line of the standings and their JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Winner {
    /// The winner: the sole first place, or a knockout's or king of the hill's champion;
    /// `None` when the first place is shared.
    pub champion: Option<String>,
    /// Whether the win is beyond chance (a champion of a bracket won its matches: true).
    pub clear: bool,
    /// The line as printed.
    pub line: String,
}

/// The winner of `sorted` entrants (see the module documentation).
pub fn winner(sorted: &[EntrantStanding], leader: Option<&LeaderNote>) -> Option<Winner> {
    let first = sorted.first()?;
    let tied: Vec<&str> = sorted
        .iter()
        .filter(|e| e.place == 1)
        .map(|e| e.name.as_str())
        .collect();
    if tied.len() > 1 {
        return Some(Winner {
            champion: None,
            clear: false,
            line: format!(
                "No clear winner: {} share first place (equal Elo to 0.1 and equal score).",
                and_list(&tied)
            ),
        });
    }
    Some(match leader {
        Some(l) if !l.clear => Winner {
            champion: Some(first.name.clone()),
            clear: false,
            line: format!(
                "No clear winner: {} is first, but its margin over {} ({:+.1} Elo) is within chance.",
                first.name, l.closest, l.margin
            ),
        },
        _ => Winner {
            champion: Some(first.name.clone()),
            clear: true,
            line: if sorted.len() > 1 {
                format!("Winner: {}, ahead of every other entrant beyond chance.", first.name)
            } else {
                format!("Winner: {} (the only entrant).", first.name)
            },
        },
    })
}

/// `a`, `a and b`, `a, b and c`.
pub fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The rank column: `3`, or `3=` for a shared place.
pub fn rank_cell(e: &EntrantStanding) -> String {
    if e.shared_place {
        format!("{}=", e.place)
    } else {
        e.place.to_string()
    }
}
