//! The match's end as pimc's objective counts it: the side the target gives the game to, or, on a
//! capped game's last hand, the side ahead. At the cap the game ends; the partnership with the
//! higher score (in 400/41 the higher total) wins, equal scores are a draw
//! (docs/rules.md#max-hands). That hand is decided by who ends it ahead, whatever the points: a
//! side behind must gamble, a side ahead need not, and a hand that changes nothing (all pass,
//! thrown in) ends the game as it stands. The few hands before it count the lead as a chance of
//! being ahead at the cap ([`Horizon::worth`]): a point is worth more to a close game than to one
//! decided.

use crate::rules::score::leader_at_cap;
use crate::rules::{BySeat, ByTeam, Level, Rules, Team};

/// What winning (or losing) the game outright on this hand is worth against points.
pub const GAME: f64 = 60.0;

/// The hands before the cap (this one not counted) over which the lead counts as a chance of
/// winning: further from the cap, and in uncapped games, the points alone.
pub const EQUITY_HANDS: u32 = 3;

/// Where a hand stands against the game's hand cap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Horizon {
    /// The hands still to be dealt after this one before the cap; `None` where the view does
    /// not say (an older referee), taken as far from it.
    pub after: Option<u32>,
    /// The spread (standard deviation) of one hand's change in the partnerships' difference.
    pub spread: f64,
    /// The hands before the cap over which the lead counts as a chance: [`EQUITY_HANDS`] with
    /// `bot pimc --cap-equity`, else 0 (the last hand alone plays for the game).
    pub equity_hands: u32,
}

impl Horizon {
    /// The horizon of hand `hand_number` (1 for the first deal) under `rules`' cap, the lead
    /// counted as a chance over the [`EQUITY_HANDS`] before the cap if `equity`.
    pub fn new(rules: &Rules, hand_number: Option<u32>, equity: bool) -> Horizon {
        Horizon {
            after: hand_number.map(|n| rules.max_hands.saturating_sub(n)),
            spread: hand_spread(rules),
            equity_hands: if equity { EQUITY_HANDS } else { 0 },
        }
    }

    /// A hand far from any cap: only the target ends the game.
    pub const fn far(spread: f64) -> Horizon {
        Horizon {
            after: None,
            spread,
            equity_hands: 0,
        }
    }

    /// What the partnership totals after this hand are worth to `team` for the game: [`GAME`]
    /// won (the target's winner `by_target`, or on the last hand the side ahead), minus that
    /// lost; within [`Horizon::equity_hands`] of the cap, [`GAME`] times the chance of being
    /// ahead at it less the chance of being behind, the lead's change over the hands to come
    /// taken as normal with [`Horizon::spread`] a hand; further off, nothing.
    pub fn worth(&self, by_target: Option<Team>, totals: ByTeam<i32>, team: Team) -> f64 {
        if by_target.is_some() {
            return game_worth(by_target, team);
        }
        match self.after {
            Some(0) => game_worth(leader_at_cap(totals), team),
            Some(h) if h <= self.equity_hands => {
                let lead = f64::from(totals[team] - totals[team.other()]);
                let z = lead / (self.spread * f64::from(h).sqrt());
                GAME * ahead_less_behind(z)
            }
            _ => 0.0,
        }
    }
}

/// The standard normal distribution's chance above `-z` less its chance below it, by the
/// logistic approximation of slope 1.702 (within 0.02 everywhere: plenty for a chance that is
/// itself a rough model); odd in `z`, as the two sides' chances are.
fn ahead_less_behind(z: f64) -> f64 {
    (0.851 * z).tanh()
}

/// The spread of one hand's change in the partnerships' difference (standard deviation),
/// measured between two pimc builds at `--ms 50` (192 hands of each game, docs/analysis.md):
/// classic 10.9 and 11.5, Egyptian 13.6 and 11.9, so 12 for the contract games; 400 8.0 and
/// Forty-One 3.2 (most of its hands thrown in), about 0.8 times the points of a bid of 5
/// (10 and 5).
pub fn hand_spread(rules: &Rules) -> f64 {
    match &rules.individual {
        Some(ind) => {
            let five = Level::new(5).and_then(|l| ind.points.get(l)).unwrap_or(5);
            (0.8 * f64::from(five)).max(1.0)
        }
        None => 12.0,
    }
}

/// [`GAME`] to `team` winning, minus it to the other side, 0 for a draw or a game going on.
pub fn game_worth(winner: Option<Team>, team: Team) -> f64 {
    match winner {
        Some(t) if t == team => GAME,
        Some(_) => -GAME,
        None => 0.0,
    }
}

/// Each partnership's total of its players' scores (in 400/41 the higher total wins at the cap:
/// docs/rules.md#max-hands).
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
        let after = if last { Some(0) } else { None };
        classic_call_at(tricks, ours, theirs, after)
    }

    /// The same with `after` hands to come before the cap (`None`: no cap in sight).
    fn classic_call_at(tricks: &[u8], ours: i32, theirs: i32, after: Option<u32>) -> Option<Move> {
        let samples = Samples {
            strains: vec![Strain::Trump(Suit::Spades)],
            tricks: tricks.iter().map(|&t| vec![f64::from(t)]).collect(),
            game: Some(MatchState {
                target: 31,
                ours,
                theirs,
                horizon: Horizon {
                    after,
                    spread: 12.0,
                    equity_hands: EQUITY_HANDS,
                },
            }),
        };
        let mut legal = vec![Move::Call(Call::Pass)];
        legal.extend((7..=13).map(bid));
        let rules = Rules::classic().contract.unwrap();
        best_call(&rules, &samples, None, &legal, Edge::both(0.0))
    }

    #[test]
    fn the_last_hand_is_bid_to_end_the_game_ahead() {
        // docs/rules.md#max-hands: at the cap the side with the higher score wins. Classic scoring
        // (docs/rules.md#contract-scoring): made, the declarers score the tricks they won; failed,
        // they lose the bid and the defenders score theirs; target 31. Behind 20 to 25 with 7 made
        // in 3 deals of 10: a bid of 7 loses 7.4 points on average and is passed, except on the
        // last hand, where passing loses the game for sure and the bid wins it three times in ten.
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
        // docs/rules.md#individual-bid-sum: Forty-One's bids must total 11 or more, else the hand
        // is thrown in unscored; docs/rules.md#max-hands: in 400/41 the higher total wins at the
        // cap. The others bid 3, 2 and 3 and I bid last: 3 gets the hand played, 1 or 2 throws it
        // in.
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
                horizon: Horizon {
                    after: last.then_some(0),
                    spread: 4.0,
                    equity_hands: 0,
                },
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
        // docs/rules.md#max-hands (at the cap the higher score wins) and
        // docs/rules.md#contract-scoring. The opponents declared 7, my side leads 20 to 18, the cap
        // is 4 hands. Made, they score at least 7 and lead; set, they lose 7 and I score my tricks.
        // Before the last hand neither reaches 31 with 6 or 7 of my tricks; on it, setting the
        // contract is the game, and letting it make loses it.
        let at = |hand: u32, cap: u32| {
            let json = format!(
                r#"{{"seat":0,"dealer":3,"hand":[],"cards_left":[13,13,13,13],"hand_number":{hand},
                    "contract":{{"declarer":1,"bid":"7","multiplier":1}},"team_scores":[20,18]}}"#
            );
            worth(&capped(cap), &serde_json::from_str(&json).unwrap(), true).unwrap()
        };
        // Far from the cap (5 hands to come) the hand counts its points; on the last one the
        // game besides.
        let (far, last) = (at(3, 8), at(4, 4));
        assert_eq!(last[7] - far[7], GAME);
        assert_eq!(last[6] - far[6], -GAME);
        // One hand to come: the lead after the hand counts as a chance of being ahead at the
        // cap, between the two (set: 27 to 11; made: 20 to 25 at least).
        let third = at(3, 4);
        assert!(far[7] < third[7] && third[7] < last[7], "{third:?}");
        assert!(last[6] < third[6] && third[6] < far[6], "{third:?}");
        // Without the cap's clock (an older referee's view), no hand is near the cap.
        let json = r#"{"seat":0,"dealer":3,"hand":[],"cards_left":[13,13,13,13],
            "contract":{"declarer":1,"bid":"7","multiplier":1},"team_scores":[20,18]}"#;
        assert_eq!(
            worth(&capped(4), &serde_json::from_str(json).unwrap(), false).unwrap(),
            far
        );
    }

    #[test]
    fn ahead_on_the_hand_before_the_last_a_risky_contract_is_passed() {
        // docs/rules.md#max-hands (at the cap the side ahead wins) and
        // docs/rules.md#contract-scoring (made, the declarers score their tricks; failed, they lose
        // the bid and the defenders score theirs). Ahead 10 to 0, 8 tricks in 7 deals of 10 and 6
        // in 3: far from the cap a bid of 7 is worth 0.7 * 8 - 0.3 * 14 = +1.4 over passing, and is
        // bid.
        let good = [8, 8, 8, 8, 8, 8, 8, 6, 6, 6];
        assert_eq!(classic_call_at(&good, 10, 0, None), Some(bid(7)));
        assert_eq!(classic_call_at(&good, 10, 0, Some(4)), Some(bid(7)));
        // One hand before the cap, failing leaves my side behind (3 to 7) with one hand to
        // play, where passing keeps the lead of 10: the game's chances favour the pass.
        assert_eq!(
            classic_call_at(&good, 10, 0, Some(1)),
            Some(Move::Call(Call::Pass))
        );
        // Behind 0 to 10, passing keeps the deficit: the bid is the better chance.
        assert_eq!(classic_call_at(&good, 0, 10, Some(1)), Some(bid(7)));
    }

    fn capped(hands: u32) -> Rules {
        let mut rules = Rules::classic();
        rules.max_hands = hands;
        rules
    }

    #[test]
    fn near_the_cap_a_lead_counts_as_the_chance_of_being_ahead_at_it() {
        // docs/rules.md#max-hands: at the cap the side with the higher score wins. Hand 3 of 4 has
        // one hand to come: a lead of one hand's spread (12 in classic) is ahead at the cap with a
        // chance of about 0.84, behind 0.16.
        let rules = capped(4);
        let at = |hand: u32, lead: i32| {
            Horizon::new(&rules, Some(hand), true).worth(None, ByTeam([lead, 0]), Team::T0)
        };
        assert_eq!(at(3, 0), 0.0);
        assert!((at(3, 12) / GAME - 0.68).abs() < 0.02, "{}", at(3, 12));
        assert_eq!(at(3, -12), -at(3, 12));
        // The same lead is worth less with more hands to come, and nothing more than
        // EQUITY_HANDS hands from the cap (or in a game whose cap is far).
        assert!(at(1, 12) < at(2, 12) && at(2, 12) < at(3, 12) && at(3, 12) < GAME);
        assert!(at(1, 12) > 0.0);
        let far = Horizon::new(&capped(5), Some(1), true);
        assert_eq!(far.worth(None, ByTeam([12, 0]), Team::T0), 0.0);
        assert_eq!(
            Horizon::new(&rules, None, true).worth(None, ByTeam([12, 0]), Team::T0),
            0.0
        );
        // 400's hands spread less than classic's: the same lead counts for more.
        let four_hundred = Rules {
            max_hands: 4,
            ..Rules::four_hundred()
        };
        let h = Horizon::new(&four_hundred, Some(3), true);
        assert!(h.worth(None, ByTeam([12, 0]), Team::T0) > at(3, 12));
        // Without `--cap-equity` only the last hand counts the game.
        let off = Horizon::new(&rules, Some(3), false);
        assert_eq!(off.worth(None, ByTeam([12, 0]), Team::T0), 0.0);
        let last = Horizon::new(&rules, Some(4), false);
        assert_eq!(last.worth(None, ByTeam([12, 0]), Team::T0), GAME);
    }

    fn lv(n: u8) -> Level {
        Level::new(n).unwrap()
    }

    #[test]
    fn the_game_is_won_by_the_target_or_on_the_last_hand_by_the_side_ahead() {
        // docs/rules.md#max-hands: equal scores are a draw; 400/41 compare totals.
        let t = |a, b| ByTeam([a, b]);
        let (last, far) = (
            Horizon::new(&capped(4), Some(4), false),
            Horizon::new(&capped(8), Some(1), false),
        );
        assert_eq!(far.worth(None, t(20, 25), Team::T0), 0.0);
        assert_eq!(last.worth(None, t(20, 25), Team::T0), -GAME);
        assert_eq!(last.worth(None, t(20, 25), Team::T1), GAME);
        assert_eq!(last.worth(None, t(20, 20), Team::T0), 0.0);
        assert_eq!(last.worth(Some(Team::T0), t(31, 35), Team::T0), GAME);
        assert_eq!(far.worth(Some(Team::T1), t(31, 35), Team::T0), -GAME);
        assert_eq!(totals(BySeat([5, -3, 7, 10])), t(12, 7));
        assert_eq!(game_worth(Some(Team::T1), Team::T1), GAME);
        assert_eq!(game_worth(Some(Team::T1), Team::T0), -GAME);
        assert_eq!(game_worth(None, Team::T0), 0.0);
    }
}
