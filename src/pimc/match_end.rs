//! The match's end as pimc's objective counts it: the side the target gives the game to, or,
//! on a capped game's last hand, the side ahead. BRIEF "max-hands": "At the cap the game ends;
//! the partnership with the higher score (in 400/41 the higher total) wins, equal scores are a
//! draw". That hand is decided by who ends it ahead, whatever the points: a side behind must
//! gamble, a side ahead need not, and a hand that changes nothing (all pass, thrown in) ends
//! the game as it stands.

use crate::rules::score::leader_at_cap;
use crate::rules::{BySeat, ByTeam, Team};

/// What winning (or losing) the game outright on this hand is worth against points.
pub const GAME: f64 = 60.0;

/// The game's winner at the end of a hand with these partnership totals: the side the target
/// gives it to (`by_target`), else, on the game's last hand (`last`), the side ahead.
pub fn winner_after(by_target: Option<Team>, totals: ByTeam<i32>, last: bool) -> Option<Team> {
    by_target.or_else(|| if last { leader_at_cap(totals) } else { None })
}

/// [`GAME`] to `team` winning, minus it to the other side, 0 for a draw or a game going on.
pub fn game_worth(winner: Option<Team>, team: Team) -> f64 {
    match winner {
        Some(t) if t == team => GAME,
        Some(_) => -GAME,
        None => 0.0,
    }
}

/// Each partnership's total of its players' scores (BRIEF "max-hands": "in 400/41 the higher
/// total").
pub fn totals(scores: BySeat<i32>) -> ByTeam<i32> {
    ByTeam(Team::ALL.map(|t| t.seats().iter().map(|&s| scores[s]).sum()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pimc::bid_value::{
        best_call, best_individual, Edge, MatchState, Samples, SeatScores,
    };
    use crate::pimc::play_value::worth;
    use crate::pimc::throw_in::Bidding;
    use crate::rules::{Bid, Call, Level, Move, Rules, Seat, Strain, Suit};

    fn bid(n: u8) -> Move {
        Move::Call(Call::Bid(Bid {
            level: Level::new(n).unwrap(),
            strain: None,
        }))
    }

    /// Classic deals where my side takes `tricks` in spades, the match at `ours` to `theirs`.
    fn classic_call(tricks: &[u8], ours: i32, theirs: i32, last: bool) -> Option<Move> {
        let samples = Samples {
            strains: vec![Strain::Trump(Suit::Spades)],
            tricks: tricks.iter().map(|&t| vec![f64::from(t)]).collect(),
            game: Some(MatchState {
                target: 31,
                ours,
                theirs,
                last,
            }),
        };
        let mut legal = vec![Move::Call(Call::Pass)];
        legal.extend((7..=13).map(bid));
        let rules = Rules::classic().contract.unwrap();
        best_call(&rules, &samples, None, &legal, Edge::both(0.0))
    }

    #[test]
    fn the_last_hand_is_bid_to_end_the_game_ahead() {
        // BRIEF "max-hands": "At the cap the game ends; the partnership with the higher score
        // ... wins". Classic scoring (BRIEF "Classic Tarneeb"): made, the declarers score the
        // tricks they won; failed, they lose the bid and the defenders score theirs; target 31.
        // Behind 20 to 25 with 7 made in 3 deals of 10: a bid of 7 loses 7.4 points on
        // average and is passed, except on the last hand, where passing loses the game for
        // sure and the bid wins it three times in ten.
        let weak = [8, 8, 8, 6, 6, 6, 6, 6, 6, 6];
        assert_eq!(
            classic_call(&weak, 20, 25, false),
            Some(Move::Call(Call::Pass))
        );
        assert_eq!(classic_call(&weak, 20, 25, true), Some(bid(7)));
        // Ahead 25 to 20 with 7 made in 7 deals of 10: the bid is worth +43 (made, 33 reaches
        // the target), except on the last hand, where passing keeps the lead and the game.
        let good = [8, 8, 8, 8, 8, 8, 8, 6, 6, 6];
        assert_eq!(classic_call(&good, 25, 20, false), Some(bid(7)));
        assert_eq!(
            classic_call(&good, 25, 20, true),
            Some(Move::Call(Call::Pass))
        );
        // Level at the last hand: the hand decides the game either way, as a whole game would.
        assert_eq!(classic_call(&good, 20, 20, true), Some(bid(7)));
    }

    #[test]
    fn on_the_last_hand_of_forty_one_a_throw_in_ends_the_game_as_it_stands() {
        // BRIEF "Forty-One": "the bids must total 11 or more" (else the hand is thrown in
        // without score, BRIEF "400"); "max-hands": in 400/41 "the higher total" wins at the
        // cap. The others bid 3, 2 and 3 and I bid last: 3 gets the hand played, 1 or 2 throws
        // it in.
        let rules = Rules::forty_one().individual.unwrap();
        let legal: Vec<Move> = (1..=13).map(bid).collect();
        let level = |scores: [i32; 4], last: bool, tricks: f64| {
            let bidding = Bidding {
                bids: BySeat([None, Some(lv(3)), Some(lv(2)), Some(lv(3))]),
                scores: BySeat(scores),
            };
            let game = SeatScores {
                target: 41,
                scores: BySeat(scores),
                last,
            };
            let mine = [tricks, tricks];
            best_individual(
                &rules,
                Seat::S0,
                &legal,
                &mine,
                0.35,
                Some(&game),
                Some(&bidding),
            )
        };
        // Ahead 2 to 0 with about 3.2 tricks: 3 is made 85% of the time (+3), so it is bid;
        // on the last hand a failed 3 loses the game and a throw-in wins it.
        assert_eq!(level([2, 0, 0, 0], false, 3.2), Some(bid(3)));
        assert_eq!(level([2, 0, 0, 0], true, 3.2), Some(bid(1)));
        // Behind 0 to 2 with about 2.4 tricks: 3 is made 5% of the time and not bid, except
        // on the last hand, where a throw-in loses the game.
        assert_eq!(level([0, 2, 0, 0], false, 2.4), Some(bid(1)));
        assert_eq!(level([0, 2, 0, 0], true, 2.4), Some(bid(3)));
    }

    #[test]
    fn on_the_last_hand_the_card_play_counts_who_ends_ahead() {
        // BRIEF "max-hands" (at the cap "the partnership with the higher score ... wins") and
        // "Classic Tarneeb" scoring. The opponents declared 7, my side leads 20 to 18, the cap
        // is 4 hands. Made, they score at least 7 and lead; set, they lose 7 and I score my
        // tricks. Before the last hand neither reaches 31 with 6 or 7 of my tricks; on it,
        // setting the contract is the game, and letting it make loses it.
        let mut rules = Rules::classic();
        rules.max_hands = 4;
        let at = |hand: u32| {
            let json = format!(
                r#"{{"seat":0,"dealer":3,"hand":[],"cards_left":[13,13,13,13],"hand_number":{hand},
                    "contract":{{"declarer":1,"bid":"7","multiplier":1}},"team_scores":[20,18]}}"#
            );
            worth(&rules, &serde_json::from_str(&json).unwrap()).unwrap()
        };
        let (third, last) = (at(3), at(4));
        assert_eq!(last[7] - third[7], GAME);
        assert_eq!(last[6] - third[6], -GAME);
        // Without the cap's clock (an older referee's view), no hand is the last.
        let json = r#"{"seat":0,"dealer":3,"hand":[],"cards_left":[13,13,13,13],
            "contract":{"declarer":1,"bid":"7","multiplier":1},"team_scores":[20,18]}"#;
        assert_eq!(
            worth(&rules, &serde_json::from_str(json).unwrap()).unwrap(),
            third
        );
    }

    fn lv(n: u8) -> Level {
        Level::new(n).unwrap()
    }

    #[test]
    fn the_game_is_won_by_the_target_or_on_the_last_hand_by_the_side_ahead() {
        // BRIEF "max-hands": "equal scores are a draw"; 400/41: "the higher total".
        let t = |a, b| ByTeam([a, b]);
        assert_eq!(winner_after(None, t(20, 25), false), None);
        assert_eq!(winner_after(None, t(20, 25), true), Some(Team::T1));
        assert_eq!(winner_after(None, t(20, 20), true), None);
        assert_eq!(
            winner_after(Some(Team::T0), t(31, 35), true),
            Some(Team::T0)
        );
        assert_eq!(totals(BySeat([5, -3, 7, 10])), t(12, 7));
        assert_eq!(game_worth(Some(Team::T1), Team::T1), GAME);
        assert_eq!(game_worth(Some(Team::T1), Team::T0), -GAME);
        assert_eq!(game_worth(None, Team::T0), 0.0);
    }
}
