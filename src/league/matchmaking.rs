//! Which two versions play the next duplicate pair: the pair whose result would tell the most.
//!
//! A pair's two games are played on the same deals with the partnerships' seats swapped (as in
//! a tournament's duplicate pairs), so the league compares two versions (each partners itself,
//! or with rotating partners another version, chosen by the source). What a pair of games between `i` and `j` tells is, to first order, the Fisher
//! information of one more result about their rating difference, `p (1 − p)` with `p` the
//! expected score, weighed by how unsure the two ratings still are (their variances, from the
//! fitted intervals; a version without games gets a wide prior). So new versions and close
//! ratings come first, and a pair that has met often gives way (its variance has shrunk). A cap
//! on any version's share of recent games keeps one newcomer from taking every table while the
//! others' ratings age.
//!
//! Pure: the caller passes what it knows, the choice is deterministic (ties go to the older
//! versions).

use crate::standings::ratings::expected_score;

/// The Elo half-width taken for a version that has not played: about the spread of a field
/// of bots from random to strong.
pub const UNRATED_HALF_WIDTH: f64 = 400.0;

/// What matchmaking knows of one active version.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub elo: f64,
    /// Half the 95% interval's width (Elo); [`UNRATED_HALF_WIDTH`] without games.
    pub half_width: f64,
    /// Games among the recent ones (see [`pick`]'s `recent_total`) this version played.
    pub recent: u64,
}

impl Candidate {
    fn variance(&self) -> f64 {
        let sd = self.half_width.clamp(1.0, UNRATED_HALF_WIDTH * 4.0) / 1.96;
        sd * sd
    }
}

/// The value of one more pair between `a` and `b`, having met `met` times already.
pub fn value(a: &Candidate, b: &Candidate, met: u64) -> f64 {
    let p = expected_score(a.elo - b.elo);
    p * (1.0 - p) * (a.variance() + b.variance()) / (1.0 + met as f64).sqrt()
}

/// The indices of the two candidates to play next, or `None` with fewer than two. `met(i, j)`
/// counts the pairs `i` and `j` played; `recent_total` is how many recent games the `recent`
/// counts are out of, and a version above `max_share` of them sits out while another pair is
/// possible.
pub fn pick(
    cands: &[Candidate],
    met: impl Fn(usize, usize) -> u64,
    recent_total: u64,
    max_share: f64,
) -> Option<(usize, usize)> {
    let over =
        |c: &Candidate| recent_total > 0 && c.recent as f64 > max_share * recent_total as f64;
    let mut best: Option<(bool, f64, (usize, usize))> = None;
    for i in 0..cands.len() {
        for j in i + 1..cands.len() {
            let capped = over(&cands[i]) || over(&cands[j]);
            let v = value(&cands[i], &cands[j], met(i, j));
            // Uncapped pairs first, then the highest value; the first found wins ties.
            let better = match best {
                None => true,
                Some((bc, bv, _)) => (bc && !capped) || (bc == capped && v > bv),
            };
            if better {
                best = Some((capped, v, (i, j)));
            }
        }
    }
    best.map(|(_, _, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(elo: f64, half_width: f64) -> Candidate {
        Candidate {
            elo,
            half_width,
            recent: 0,
        }
    }

    #[test]
    fn a_new_version_plays_first() {
        // Two settled versions and a newcomer: the newcomer meets the one closest to the
        // field's middle (both settled ones are equally far from its unrated 0).
        let cands = [c(100.0, 40.0), c(-100.0, 40.0), c(0.0, UNRATED_HALF_WIDTH)];
        let (i, j) = pick(&cands, |_, _| 10, 0, 0.5).unwrap();
        assert!(i == 2 || j == 2, "the newcomer plays: {i} {j}");
    }

    #[test]
    fn close_ratings_before_far_ones() {
        let cands = [c(0.0, 50.0), c(30.0, 50.0), c(600.0, 50.0)];
        assert_eq!(pick(&cands, |_, _| 0, 0, 0.5), Some((0, 1)));
    }

    #[test]
    fn pairs_that_met_often_give_way() {
        let cands = [c(0.0, 50.0), c(10.0, 50.0), c(60.0, 50.0)];
        let met = |i: usize, j: usize| if (i, j) == (0, 1) { 100 } else { 0 };
        assert_ne!(pick(&cands, met, 0, 0.5), Some((0, 1)));
    }

    #[test]
    fn the_share_cap_lets_others_play_but_never_stops_the_league() {
        let mut cands = [c(0.0, UNRATED_HALF_WIDTH), c(0.0, 50.0), c(0.0, 50.0)];
        cands[0].recent = 90;
        assert_eq!(pick(&cands, |_, _| 0, 100, 0.6), Some((1, 2)));
        // With two versions every game has both: the cap cannot be kept and is not.
        assert_eq!(pick(&cands[..2], |_, _| 0, 100, 0.6), Some((0, 1)));
        assert_eq!(pick(&cands[..1], |_, _| 0, 100, 0.6), None);
    }
}
