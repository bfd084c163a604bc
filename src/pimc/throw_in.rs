//! 400 and Forty-One: whether the hand is played at all. In 400 the four bids must total 11, 12, 13
//! or 14 by the highest score at the table, in Forty-One 11 whatever the scores; otherwise the hand
//! is thrown in unscored (docs/rules.md#individual-bid-sum).
//!
//! A bid scores only if the hand is played, so a bid is worth its expected score times the
//! chance that the four bids reach the total. The last to bid knows that chance (0 or 1). An
//! earlier bidder does not know the bids to come: each is taken from [`NEXT_BID`], what pimc
//! bids (raised to that bidder's minimum), independently of the hands. Between two pimc the
//! bids were so low that 264 of 320 hands of Forty-One were thrown in (bench/pimc_versions.sh
//! at `--ms 50`, 80 games of 4 hands): each bid what was best for its own expected tricks, and
//! only the last bidder looked at whether the hand would be played.

use crate::rules::auction::individual_sum;
use crate::rules::{BySeat, IndividualRules, Level, Seat};

/// The share of each bid among pimc's bids in Forty-One (minimum 1), before this module: 1280
/// bids of 320 hands, 80 games against the previous pimc (bench/pimc_versions.sh, `--ms 50`),
/// 7 and more counted as 7. In 400 (minimum 2), the same table with 1 raised to 2 gives 2:
/// 65%, 3: 18%, 4: 10%, 5: 5.5%, where pimc bid 2: 63%, 3: 19%, 4: 8%, 5: 8.5% (1920 bids of
/// 480 hands).
pub const NEXT_BID: [(u8, f64); 7] = [
    (1, 0.334),
    (2, 0.312),
    (3, 0.180),
    (4, 0.098),
    (5, 0.055),
    (6, 0.013),
    (7, 0.008),
];

/// The auction of a 400 or Forty-One hand so far, as the next bidder sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bidding {
    /// The bids made (`None`: that seat has not bid yet).
    pub bids: BySeat<Option<Level>>,
    /// Each player's score: the total needed and each bidder's minimum rise with them.
    pub scores: BySeat<i32>,
}

impl Bidding {
    /// The chance that the hand is played if `me` bids `level`: 0 or 1 for the last to bid,
    /// else over the bids still to come, each from [`NEXT_BID`] (at least that bidder's
    /// minimum bid).
    pub fn played(&self, rules: &IndividualRules, me: Seat, level: Level) -> f64 {
        let highest = self.scores.0.iter().copied().max().unwrap_or(0);
        let mut bids = BySeat(self.bids.0.map(|b| b.unwrap_or(level)));
        bids[me] = level;
        let to_come: Vec<Seat> = Seat::ALL
            .into_iter()
            .filter(|&s| s != me && self.bids[s].is_none())
            .collect();
        // Each bidder to come: its possible bids with their chances.
        let choices: Vec<Vec<(Level, f64)>> = to_come
            .iter()
            .map(|&s| {
                let least = rules.min_bid.at(self.scores[s]).max(1);
                let mut out: Vec<(Level, f64)> = Vec::new();
                for &(b, p) in &NEXT_BID {
                    let Some(l) = Level::new(b.max(least)) else {
                        continue;
                    };
                    match out.last_mut() {
                        Some(last) if last.0 == l => last.1 += p,
                        _ => out.push((l, p)),
                    }
                }
                out
            })
            .collect();
        let mut played = 0.0;
        let mut total = 0.0;
        let mut at = vec![0; choices.len()];
        loop {
            let mut p = 1.0;
            for (i, &s) in to_come.iter().enumerate() {
                let (l, q) = choices[i][at[i]];
                bids[s] = l;
                p *= q;
            }
            let (sum, needed) = individual_sum(rules, bids, highest);
            total += p;
            if sum >= needed {
                played += p;
            }
            // The next combination of the bids to come (an odometer); done when it wraps.
            let Some(i) = (0..at.len()).find(|&i| at[i] + 1 < choices[i].len()) else {
                break;
            };
            at[i] += 1;
            at[..i].iter_mut().for_each(|a| *a = 0);
        }
        played / total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn lv(n: u8) -> Level {
        Level::new(n).unwrap()
    }

    #[test]
    fn the_last_bidder_knows_whether_the_hand_is_played() {
        // docs/rules.md#individual-bid-sum: Forty-One needs 11 whatever the scores. The others bid
        // 1, 1 and 2: 6 throws the hand in, 7 gets it played.
        let rules = Rules::forty_one().individual.unwrap();
        let b = Bidding {
            bids: BySeat([Some(lv(1)), Some(lv(1)), Some(lv(2)), None]),
            scores: BySeat([0; 4]),
        };
        assert_eq!(b.played(&rules, Seat::S3, lv(6)), 0.0);
        assert_eq!(b.played(&rules, Seat::S3, lv(7)), 1.0);
        // docs/rules.md#individual-bid-sum (400: 11, 12, 13 or 14 by the highest score, below 30,
        // from 30, 40, 50): at 45 the hand needs 13, so 9.
        let rules = Rules::four_hundred().individual.unwrap();
        let at_45 = Bidding {
            scores: BySeat([0, 45, 0, 0]),
            ..b
        };
        assert_eq!(at_45.played(&rules, Seat::S3, lv(8)), 0.0);
        assert_eq!(at_45.played(&rules, Seat::S3, lv(9)), 1.0);
    }

    #[test]
    fn an_earlier_bidder_counts_the_bids_to_come() {
        // Forty-One, the others bid 2 and 3, seat 3 bids after me. With my 4 the hand needs 2
        // or more from it: 1 - 0.334; with my 5, 1 or more: certain; with my 1, 5 or more:
        // 0.055 + 0.013 + 0.008.
        let rules = Rules::forty_one().individual.unwrap();
        let b = Bidding {
            bids: BySeat([Some(lv(2)), Some(lv(3)), None, None]),
            scores: BySeat([0; 4]),
        };
        let p = |n| b.played(&rules, Seat::S2, lv(n));
        assert!((p(4) - (1.0 - 0.334)).abs() < 1e-9, "{}", p(4));
        assert!((p(5) - 1.0).abs() < 1e-9);
        assert!((p(1) - 0.076).abs() < 1e-9, "{}", p(1));
        // 400: seat 3 at 35 bids at least 3 ("<30: 2; 30-39: 3"), and the hand needs 12
        // (highest score 35): with my 4, 3 or more, certain; with my 3, 4 or more.
        let rules = Rules::four_hundred().individual.unwrap();
        let b = Bidding {
            scores: BySeat([0, 0, 0, 35]),
            ..b
        };
        let p = |n| b.played(&rules, Seat::S2, lv(n));
        assert!((p(4) - 1.0).abs() < 1e-9);
        assert!(
            (p(3) - (0.098 + 0.055 + 0.013 + 0.008)).abs() < 1e-9,
            "{}",
            p(3)
        );
        // The first bidder, three bids to come: the chance grows with my bid, and is certain
        // once the three need only bid their minimum, 1.
        let first = Bidding {
            bids: BySeat([None; 4]),
            scores: BySeat([0; 4]),
        };
        let rules = Rules::forty_one().individual.unwrap();
        let p: Vec<f64> = (1..=13)
            .map(|n| first.played(&rules, Seat::S1, lv(n)))
            .collect();
        assert!(p.windows(2).all(|w| w[0] <= w[1]), "{p:?}");
        assert!(p[0] > 0.1 && p[0] < 0.2, "{p:?}");
        assert_eq!(p[7], 1.0, "8 and three 1s make 11");
        assert!(p[6] < 1.0);
    }
}
