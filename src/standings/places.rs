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
//! how its final was decided (see `tournament::schedule::bracket`).

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use super::pairwise::LeaderNote;

/// What places are decided on, for each entrant.
#[derive(Clone, Debug, PartialEq)]
pub struct RankKey {
    pub name: String,
    pub elo: f64,
    pub wins: u64,
    pub draws: u64,
    pub games: u64,
}

/// Tenths of Elo, as printed.
fn tenths(elo: f64) -> i64 {
    (elo * 10.0).round() as i64
}

/// `a` against `b` in the tie-break order: `Less` when `a` ranks higher.
fn by_standing(a: &RankKey, b: &RankKey) -> Ordering {
    tenths(b.elo).cmp(&tenths(a.elo)).then_with(|| {
        // (2w + d) / 2g compared without division; no games scores 0.
        let num = |e: &RankKey| u128::from(2 * e.wins + e.draws);
        let den = |e: &RankKey| u128::from(2 * e.games.max(1));
        (num(b) * den(a)).cmp(&(num(a) * den(b)))
    })
}

/// The order of `table` (indices), highest first; ties listed by name.
pub fn order(table: &[RankKey]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..table.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&table[a], &table[b]);
        by_standing(a, b).then_with(|| a.name.cmp(&b.name))
    });
    order
}

/// The place of each of `sorted` keys (already in [`order`]) and whether it is shared.
pub fn assign(sorted: &[RankKey]) -> Vec<(u64, bool)> {
    let mut places = Vec::with_capacity(sorted.len());
    let mut place = 1;
    for i in 0..sorted.len() {
        if i > 0 && by_standing(&sorted[i - 1], &sorted[i]) != Ordering::Equal {
            place = i as u64 + 1;
        }
        places.push(place);
    }
    (0..sorted.len())
        .map(|i| {
            let same = |j: usize| places.get(j) == Some(&places[i]);
            (places[i], (i > 0 && same(i - 1)) || same(i + 1))
        })
        .collect()
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

/// The winner of entrants given as (name, place) in order (see the module documentation).
pub fn winner(sorted: &[(&str, u64)], leader: Option<&LeaderNote>) -> Option<Winner> {
    let &(first, _) = sorted.first()?;
    let tied: Vec<&str> = sorted.iter().filter(|e| e.1 == 1).map(|e| e.0).collect();
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
            champion: Some(first.to_string()),
            clear: false,
            line: format!(
                "No clear winner: {first} is first, but its margin over {} ({:+.1} Elo) is within chance.",
                l.closest, l.margin
            ),
        },
        _ => Winner {
            champion: Some(first.to_string()),
            clear: true,
            line: if sorted.len() > 1 {
                format!("Winner: {first}, ahead of every other entrant beyond chance.")
            } else {
                format!("Winner: {first} (the only entrant).")
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
pub fn rank_cell(place: u64, shared: bool) -> String {
    if shared {
        format!("{place}=")
    } else {
        place.to_string()
    }
}

/// Two entrants that have not played each other, and the entrants each of them has played.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NotMet {
    pub a: String,
    pub b: String,
    /// Entrants that have played both `a` and `b`, in standings order; empty when only a longer
    /// chain of games (or none) links them.
    pub through: Vec<String>,
    /// Whether any chain of games links them (else their difference is not measured at all).
    pub linked: bool,
}

/// The verdict behind the first line, for `--json` and the pages.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The first entrant of the table (`None` without entrants, or with the first place
    /// shared).
    pub leader: Option<String>,
    /// The entrant closest to the leader, relative to the error of their difference.
    pub closest: Option<String>,
    /// "clearly ahead", "probably ahead", "too close to call", "level", "the only entrant",
    /// "shared first place" or "no games".
    pub sureness: String,
    /// The leader's fitted margin over `closest` in Elo, with a 95% interval.
    pub margin: Option<f64>,
    pub margin_low: Option<f64>,
    pub margin_high: Option<f64>,
    /// The chance, by the fit, that the leader is stronger than `closest`.
    pub chance_stronger: Option<f64>,
    /// Games played, and the games of the whole schedule when known.
    pub games_played: u64,
    pub games_scheduled: Option<u64>,
    /// Fewer games than the schedule holds: the order can still change.
    pub provisional: bool,
    /// The leader and every entrant it has not played.
    pub not_met: Vec<NotMet>,
    /// Entrants that have played no game.
    pub unplayed: Vec<String>,
    /// The verdict as one plain sentence (the second line of the text report).
    pub sentence: String,
}

/// "not met: A and C have not played each other; the margin is inferred through B".
pub fn not_met_text(m: &NotMet) -> String {
    let how = if !m.through.is_empty() {
        let through: Vec<&str> = m.through.iter().map(String::as_str).collect();
        format!("the margin is inferred through {}", and_list(&through))
    } else if m.linked {
        "the margin is inferred through a longer chain of games".to_string()
    } else {
        "no chain of games links them, so their difference is not measured".to_string()
    };
    format!(
        "not met: {} and {} have not played each other; {how}",
        m.a, m.b
    )
}
