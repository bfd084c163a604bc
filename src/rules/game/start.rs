//! A game that starts from given scores (`play --scores`), to reach late-game situations (the
//! 400 minimum bid that rises with a player's score, the last hand before the target) without
//! playing the hands before them.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::Game;
use crate::rules::score::{contract_winner, individual_winner};
use crate::rules::{BySeat, ByTeam, RulesKind};

/// The largest starting score either way. The four games end near their targets (31, 41,
/// 61), so a million is far beyond any real game, and a hand's points added to it stay far
/// from `i32`'s limits (`-2147483648:0` once wrapped round to a win).
pub const START_SCORE_LIMIT: i32 = 1_000_000;

/// Scores at the start of a game: per partnership in classic and Egyptian, per player in 400
/// and Forty-One. Written as `{"teams": [A, B]}` or `{"seats": [A, B, C, D]}` in a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum StartScores {
    Teams([i32; 2]),
    Seats([i32; 4]),
}

impl fmt::Display for StartScores {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartScores::Teams([a, b]) => write!(f, "{a}:{b}"),
            StartScores::Seats([a, b, c, d]) => write!(f, "{a},{b},{c},{d}"),
        }
    }
}

/// `A:B` (partnerships 0 and 1) or `A,B,C,D` (seats 0 to 3), the form `Display` writes.
impl std::str::FromStr for StartScores {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || {
            format!("'{text}' is not a list of scores: write A:B for the two partnerships (classic, egyptian) or A,B,C,D for the four players (400, 41), like 30:25 or 35,20,10,5")
        };
        let nums = |sep: char| -> Result<Vec<i32>, String> {
            text.split(sep)
                .map(|n| n.trim().parse::<i32>().map_err(|_| bad()))
                .collect()
        };
        if text.contains(':') {
            let v = nums(':')?;
            <[i32; 2]>::try_from(v)
                .map(StartScores::Teams)
                .map_err(|_| bad())
        } else {
            let v = nums(',')?;
            <[i32; 4]>::try_from(v)
                .map(StartScores::Seats)
                .map_err(|_| bad())
        }
    }
}

impl Game {
    /// The game before its first deal, starting from `scores` instead of zero. The scores must
    /// be of the game's kind, within [`START_SCORE_LIMIT`], and leave the game undecided: only
    /// scores under which the game would already be over are refused (in 400 a player at the
    /// target whose partner is not positive has not won yet: docs/rules.md#individual-partner).
    pub fn with_scores(mut self, scores: StartScores) -> Result<Game, String> {
        let target = self.rules.target;
        let values: &[i32] = match &scores {
            StartScores::Teams(t) => t,
            StartScores::Seats(s) => s,
        };
        if let Some(s) = values
            .iter()
            .find(|s| s.unsigned_abs() > START_SCORE_LIMIT.unsigned_abs())
        {
            return Err(format!(
                "a starting score of {s} is out of range: give scores from -{START_SCORE_LIMIT} to {START_SCORE_LIMIT}"
            ));
        }
        let over = |winner: Option<crate::rules::Team>| {
            match winner {
            Some(t) => Err(format!(
                "with these scores partnership {} has already won (target {target}): give scores under which the game is still open",
                t.index()
            )),
            None => Ok(()),
        }
        };
        match (self.rules.kind(), scores) {
            (RulesKind::Contract(_), StartScores::Teams(t)) => {
                over(contract_winner(target, ByTeam(t)))?;
                self.team_scores = ByTeam(t);
            }
            (RulesKind::Individual(i), StartScores::Seats(s)) => {
                over(individual_winner(i, target, BySeat(s)))?;
                self.seat_scores = BySeat(s);
            }
            (RulesKind::Contract(_), StartScores::Seats(_)) => {
                return Err("these rules score per partnership: give two scores as A:B".into())
            }
            (RulesKind::Individual(_), StartScores::Teams(_)) => {
                return Err("these rules score per player: give four scores as A,B,C,D".into())
            }
        }
        Ok(self)
    }

    /// The game before hand `number` (1, 2, ...), as if `number - 1` hands had been dealt: to
    /// rebuild a later hand from a player's view (the hand cap and the view's `hand_number`
    /// count the hands before it). The dealer of that hand is the `first_dealer` given to
    /// [`Game::new`].
    pub fn before_hand(mut self, number: u32) -> Game {
        self.hands_dealt = number.saturating_sub(1);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rules, Seat};

    /// docs/rules.md#individual-partner: a player wins at the target only with a positive
    /// partner, so 41 with a partner at 0 is a game still open; with a partner at 1 it is over.
    /// Classic: a team at the target has won (docs/rules.md#target-check). Scores out of
    /// range are refused before they can wrap.
    #[test]
    fn only_scores_of_a_decided_game_or_out_of_range_are_refused() {
        let four = Rules::preset("400").unwrap();
        let g = |r: &Rules, s: &str| Game::new(r.clone(), Seat::S0).with_scores(s.parse().unwrap());
        assert!(g(&four, "41,10,0,5").is_ok(), "partner at 0: not yet won");
        let e = g(&four, "41,10,1,5").unwrap_err();
        assert!(e.contains("already won"), "{e}");
        let classic = Rules::preset("classic").unwrap();
        assert!(g(&classic, "30:-5").is_ok());
        assert!(g(&classic, &format!("{}:0", classic.target))
            .unwrap_err()
            .contains("already won"));
        for s in ["-2147483648:0", "-1000001:0"] {
            let e = g(&classic, s).unwrap_err();
            assert!(e.contains("out of range"), "{s}: {e}");
        }
        assert!(g(&classic, "-1000000:0").is_ok());
        assert!(g(&four, "0,0,2000000,0")
            .unwrap_err()
            .contains("out of range"));
    }

    #[test]
    fn scores_parse_and_print_alike() {
        for text in ["30:-5", "35,20,10,5"] {
            assert_eq!(text.parse::<StartScores>().unwrap().to_string(), text);
        }
        assert!("30".parse::<StartScores>().is_err());
        assert!("1,2,3".parse::<StartScores>().is_err());
        assert!("a:b".parse::<StartScores>().unwrap_err().contains("A:B"));
    }

    /// A game rebuilt before hand 200 of classic (`max-hands` 200) ends by the hand cap after
    /// that hand: "max-hands: the game ends after this many deals" counts the hands before it.
    #[test]
    fn a_game_before_a_later_hand_counts_the_hands_before_it() {
        use crate::rules::{DealSource, EndReason};
        let rules = Rules::preset("classic").unwrap();
        let cap = rules.max_hands;
        let mut game = Game::new(rules, Seat::from_index(2)).before_hand(cap);
        let mut deals = DealSource::from_seed(3);
        game.deal(deals.next_deal());
        assert_eq!(game.hands_dealt(), cap);
        assert_eq!(game.hand().dealer, Seat::from_index(2));
        while let Some(d) = game.decision() {
            let mv = game.legal_moves().as_slice()[0];
            game.apply(d.seat, mv).unwrap();
            if game.needs_deal() {
                break;
            }
        }
        assert_eq!(game.result().map(|r| r.reason), Some(EndReason::HandCap));
    }

    /// docs/rules.md#individual-min-bid (400: 3 from 30 points): a player at 35 may not bid 2.
    #[test]
    fn a_400_game_from_scores_asks_the_minimum_bid_of_the_score() {
        let rules = Rules::preset("400").unwrap();
        let game = Game::new(rules.clone(), Seat::from_index(3))
            .with_scores(StartScores::Seats([35, 0, 0, 0]))
            .unwrap();
        assert_eq!(game.seat_scores().0, [35, 0, 0, 0]);
        assert!(Game::new(rules.clone(), Seat::from_index(0))
            .with_scores(StartScores::Teams([1, 2]))
            .is_err());
        // At the target with a positive partner the game is over (with a partner at 0 it is
        // not: the test above).
        assert!(Game::new(rules, Seat::from_index(0))
            .with_scores(StartScores::Seats([41, 0, 3, 0]))
            .unwrap_err()
            .contains("target"));
    }
}
