//! Swiss pairing: each round, partnerships are paired with others of similar score, never
//! with the same opponent twice where that can be avoided.
//!
//! - **Order.** Partnerships are ranked by their points so far (1 per game won, ½ per draw, over
//!   every game of their matches), ties broken by a fixed order drawn from the tournament seed
//!   (so round 1 is a seeded random pairing, and nothing favours the first `--bot`).
//! - **Bye.** With an odd count, the lowest-ranked partnership among those with the fewest
//!   byes sits the round out, and scores half the points of a match, as if it had drawn every
//!   game: neutral for its rank.
//! - **Pairs.** Top-down, the highest-ranked partnership left meets the highest-ranked one
//!   below it that it has not met, with backtracking when that leaves the rest unpairable; so
//!   opponents come from the same score group (or the next one down when a group is odd or
//!   exhausted). Only when no pairing of the round avoids every repeat (late rounds of a small
//!   field) is a repeat allowed, the fewest the search finds.
//!
//! The pairing is a pure function of the points and the history, which are a pure function of
//! the seed and the results, so a resumed tournament pairs exactly as the interrupted one did.

use std::collections::HashSet;

/// The pairing of one round: matches (higher-ranked side first) and the partnership with the
/// bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub matches: Vec<[usize; 2]>,
    pub bye: Option<usize>,
}

/// Pairs `ranked` (partnerships, best first). `met` holds every pair (lower index first) that
/// has played; `byes[u]` how many rounds partnership `u` has sat out.
pub fn pair_round(ranked: &[usize], met: &HashSet<(usize, usize)>, byes: &[u32]) -> Round {
    let mut players: Vec<usize> = ranked.to_vec();
    let bye = if players.len() % 2 == 1 {
        let fewest = players.iter().map(|&u| byes[u]).min().unwrap_or(0);
        let pos = players
            .iter()
            .rposition(|&u| byes[u] == fewest)
            .unwrap_or(players.len() - 1);
        Some(players.remove(pos))
    } else {
        None
    };
    let key = |a: usize, b: usize| (a.min(b), a.max(b));
    // Without repeats first; then allowing them, fewest first.
    for allowed in 0..=players.len() / 2 {
        let mut budget = 200_000u64;
        let mut used = vec![false; players.len()];
        let mut out = Vec::new();
        if search(
            &players,
            met,
            &key,
            &mut used,
            &mut out,
            allowed,
            &mut budget,
        ) {
            return Round { matches: out, bye };
        }
    }
    // Unreachable in practice (repeats up to every match are allowed above); keep a fallback.
    Round {
        matches: players.chunks_exact(2).map(|c| [c[0], c[1]]).collect(),
        bye,
    }
}

fn search(
    players: &[usize],
    met: &HashSet<(usize, usize)>,
    key: &impl Fn(usize, usize) -> (usize, usize),
    used: &mut [bool],
    out: &mut Vec<[usize; 2]>,
    repeats_left: usize,
    budget: &mut u64,
) -> bool {
    let Some(i) = used.iter().position(|u| !u) else {
        return true;
    };
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    used[i] = true;
    for j in i + 1..players.len() {
        if used[j] {
            continue;
        }
        let repeat = met.contains(&key(players[i], players[j]));
        if repeat && repeats_left == 0 {
            continue;
        }
        used[j] = true;
        out.push([players[i], players[j]]);
        if search(
            players,
            met,
            key,
            used,
            out,
            repeats_left - usize::from(repeat),
            budget,
        ) {
            return true;
        }
        out.pop();
        used[j] = false;
    }
    used[i] = false;
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_top_down_and_avoids_repeats() {
        let none = HashSet::new();
        let r = pair_round(&[3, 1, 0, 2], &none, &[0; 4]);
        assert_eq!(r.matches, [[3, 1], [0, 2]]);
        assert_eq!(r.bye, None);
        // 3 and 1 have met: 3 takes the next one down, and 1 meets 2.
        let met: HashSet<(usize, usize)> = [(1, 3)].into_iter().collect();
        let r = pair_round(&[3, 1, 0, 2], &met, &[0; 5]);
        assert_eq!(r.matches, [[3, 0], [1, 2]]);
        // Backtracking: 3-1 and 0-2 met, 3-0 is free but would leave 1-2, which met too.
        let met: HashSet<(usize, usize)> = [(1, 3), (0, 2), (1, 2)].into_iter().collect();
        let r = pair_round(&[3, 1, 0, 2], &met, &[0; 5]);
        assert_eq!(r.matches, [[3, 2], [1, 0]]);
        // Everything met (four partnerships after three rounds): one repeat is the fewest.
        let all: HashSet<(usize, usize)> = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
            .into_iter()
            .collect();
        let r = pair_round(&[0, 1, 2, 3], &all, &[0; 5]);
        assert_eq!(r.matches.len(), 2);
    }

    #[test]
    fn the_bye_goes_to_the_lowest_without_one() {
        let r = pair_round(&[4, 2, 0, 1, 3], &HashSet::new(), &[0; 5]);
        assert_eq!(r.bye, Some(3));
        let r = pair_round(&[4, 2, 0, 1, 3], &HashSet::new(), &[0, 0, 0, 1, 0]);
        assert_eq!(r.bye, Some(1));
        assert_eq!(r.matches, [[4, 2], [0, 3]]);
    }
}
