//! What a call is worth: the score my side expects from it over the sampled deals, under the
//! game's own scoring (the rules core's [`contract_score`] and [`individual_score`]), so
//! that a bid is made when its expected score beats passing, not when the mean of tricks
//! clears a margin. A failed contract costs the bid and gives the defenders their tricks
//! while a made one scores the tricks taken, so the trade-off turns well above an even
//! chance of making: a mean with a margin cannot see that, the distribution can.

use super::match_end::{totals, Horizon, GAME};
use super::throw_in::Bidding;
use crate::rules::score::{contract_score, contract_winner, individual_score, individual_winner};
use crate::rules::{
    BySeat, ByTeam, Call, ContractRules, IndividualRules, Level, Move, Seat, Strain, Team, Thirteen,
};

/// Tricks a double-dummy declarer takes that a real one does not (the solver sees every
/// card, the table does not), for my side's contracts and the opponents': a deal's solved
/// tricks count as that many less the edge, shared between the two whole counts either side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    pub ours: f64,
    pub theirs: f64,
}

impl Edge {
    pub const fn both(e: f64) -> Edge {
        Edge { ours: e, theirs: e }
    }
}

/// Measured in 24 games against the C sample bot (12 classic, 12 Egyptian, pimc at
/// `--ms 50`): the declaring side took its double-dummy par (`replay --analyze`) less 0.34
/// tricks on average when pimc declared (124 hands) and less 1.14 when the C bot did (71).
/// Counting the opponents' contracts 1.1 tricks short made pimc pass and double more and
/// did worse in Egyptian (3-9 and 329-462 points against C, where 0.5 gave 4-8 and
/// 344-348). The other way is right: a call's samples read only my partner's bids, so they
/// deal the opponents random hands, not the hands their bids describe, and their contracts
/// look weaker than they are; with half a trick off them pimc passed and let the C bot
/// declare 50 of 83 classic hands (12 games, seed 2, `--ms 50`; the bot's par was 1.8 tricks
/// above its bid on average). Counting them a trick above the samples, the same games had
/// 41 contracts each, pimc made 32 of its 41 and won 8-4 (was 7-5; the points a hand stayed
/// level within the noise).
pub const DECLARER_EDGE: Edge = Edge {
    ours: 0.35,
    theirs: -1.0,
};

/// Tricks the opponents' contract takes beyond what my samples give them when I weigh a
/// double. The samples for a call read only my partner's bids (see `decide`), so they deal
/// the opponents random hands, not the hands their bid describes, and their contract looks
/// weaker than it is: in 12 Egyptian games against the C sample bot (seed 2, `--ms 50`)
/// pimc doubled 43 of the bot's 48 contracts and 24 of the 43 were made, each scoring the
/// declarers twice their tricks (Egyptian: "Doubled and redoubled contracts multiply the
/// declaring side's score by 2 or 4"). A double must beat passing with this much doubt.
pub const DOUBLE_DOUBT: f64 = 1.5;

/// My side's tricks declaring (and leading) in each strain, one row per deal: solved
/// double-dummy, or estimated (then fractional: see `decide`).
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub strains: Vec<Strain>,
    pub tricks: Vec<Vec<f64>>,
    /// The match before this hand, when known: a contract that ends the game is worth
    /// [`GAME`] more to the winners.
    pub game: Option<MatchState>,
}

/// The target and each side's score before the hand (classic and Egyptian), mine first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchState {
    pub target: i32,
    pub ours: i32,
    pub theirs: i32,
    /// Where the hand stands against the hand cap ([`super::match_end`]).
    pub horizon: Horizon,
}

impl MatchState {
    /// The declaring side's score before the hand.
    fn declarers(&self, ours: bool) -> i32 {
        if ours {
            self.ours
        } else {
            self.theirs
        }
    }

    /// What the game's standing after the hand is worth to the declaring side when it takes
    /// `tricks` (docs/rules.md#target-check): [`GAME`] if the hand takes it to the target first
    /// (or, on the last hand, leaves it ahead), minus that if the defenders, the lead as a chance
    /// near the cap ([`Horizon::worth`]); a kaboot's instant win is counted by [`contract_diff`]
    /// already.
    fn end(&self, rules: &ContractRules, s: Standing, tricks: u8) -> f64 {
        let before = self.declarers(s.ours);
        let score = contract_score(rules, s.level, s.multiplier, tricks, before);
        let after = ByTeam([
            before + score.declarers,
            self.declarers(!s.ours) + score.defenders,
        ]);
        if score.instant_win {
            return 0.0;
        }
        // The declaring side first.
        let by_target = contract_winner(self.target, after);
        self.horizon.worth(by_target, after, Team::T0)
    }

    /// What a hand that ends without a score (all pass, the hand dealt again) is worth to my
    /// side: the standing as it is, which on the last hand ends the game.
    fn unchanged(&self) -> f64 {
        let now = ByTeam([self.ours, self.theirs]);
        self.horizon.worth(None, now, Team::T0)
    }
}

impl Samples {
    /// The average tricks of each strain.
    pub fn means(&self) -> Vec<f64> {
        (0..self.strains.len()).map(|c| self.mean(c)).collect()
    }

    fn mean(&self, col: usize) -> f64 {
        let n = self.tricks.len().max(1) as f64;
        self.tricks.iter().map(|r| r[col]).sum::<f64>() / n
    }

    /// The strain my side would name (best on average), or the opponents' (worst for me).
    fn best(&self, ours: bool) -> usize {
        let cols = 0..self.strains.len();
        let key = |c: &usize| self.mean(*c) * if ours { 1.0 } else { -1.0 };
        cols.max_by(|a, b| key(a).total_cmp(&key(b))).unwrap_or(0)
    }

    /// The column of `strain`, or (for a number bid, which names none) the best one for the
    /// declaring side.
    fn column(&self, strain: Option<Strain>, ours: bool) -> Option<usize> {
        match strain {
            Some(s) => self.strains.iter().position(|&x| x == s),
            None => (!self.strains.is_empty()).then(|| self.best(ours)),
        }
    }
}

/// The bid standing in the auction: its level, strain, whose it is and its multiplier.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    pub level: Level,
    pub strain: Option<Strain>,
    pub ours: bool,
    pub multiplier: i32,
}

/// My side's score minus the other side's when a side declares `level` with `multiplier`
/// and takes `tricks` (declarer's side), as [`contract_score`] counts it (`before`: the
/// declaring side's score before the hand).
pub fn contract_diff(
    rules: &ContractRules,
    level: Level,
    multiplier: i32,
    tricks: u8,
    before: i32,
) -> f64 {
    let s = contract_score(rules, level, multiplier, tricks, before);
    let game = if s.instant_win { GAME } else { 0.0 };
    f64::from(s.declarers - s.defenders) + game
}

/// The expected score difference for my side when `ours` (my side, or else the opponents)
/// declares `level` in the strain of column `col`, each deal's tricks discounted by `edge`
/// for the declaring side.
fn contract_value(
    rules: &ContractRules,
    samples: &Samples,
    standing: Standing,
    col: usize,
    edge: Edge,
) -> f64 {
    let n = samples.tricks.len().max(1) as f64;
    let sum: f64 = samples
        .tricks
        .iter()
        .map(|row| {
            let mine = row[col].clamp(0.0, 13.0);
            let declarers = if standing.ours { mine } else { 13.0 - mine };
            let at = |t: u8| {
                let before = samples.game.map_or(0, |g| g.declarers(standing.ours));
                let d = contract_diff(rules, standing.level, standing.multiplier, t, before)
                    + samples.game.map_or(0.0, |g| g.end(rules, standing, t));
                if standing.ours {
                    d
                } else {
                    -d
                }
            };
            // Fractional tricks (the edge, or an estimate) share between the two counts
            // either side.
            let edge = if standing.ours {
                edge.ours
            } else {
                edge.theirs
            };
            let t = (declarers - edge).max(0.0);
            let low = t.floor();
            let frac = t - low;
            let low = low as u8;
            (1.0 - frac) * at(low) + frac * at((low + 1).min(13))
        })
        .sum();
    sum / n
}

/// The expected score of `call` for my side over `samples`, given the standing bid; `None`
/// for a call the samples cannot value (a strain not solved).
pub fn call_value(
    rules: &ContractRules,
    samples: &Samples,
    standing: Option<Standing>,
    call: Call,
    edge: Edge,
) -> Option<f64> {
    let value_of = |s: Standing| {
        let col = samples.column(s.strain, s.ours)?;
        Some(contract_value(rules, samples, s, col, edge))
    };
    match call {
        // If all pass with no bid the hand is dealt again: nothing changes (but the last hand
        // of a capped game is over).
        Call::Pass => match standing {
            Some(s) => value_of(s),
            None => Some(samples.game.map_or(0.0, |g| g.unchanged())),
        },
        Call::Bid(b) => value_of(Standing {
            level: b.level,
            strain: b.strain,
            ours: true,
            multiplier: 1,
        }),
        Call::Double => standing.and_then(|s| {
            let doubt = Edge {
                theirs: edge.theirs - DOUBLE_DOUBT,
                ..edge
            };
            let col = samples.column(s.strain, s.ours)?;
            let doubled = Standing { multiplier: 2, ..s };
            Some(contract_value(rules, samples, doubled, col, doubt))
        }),
        Call::Redouble => standing.and_then(|s| value_of(Standing { multiplier: 4, ..s })),
    }
}

/// The legal call with the best expected score (passing on a tie: it risks nothing more);
/// where passing is not allowed, the best of the rest.
pub fn best_call(
    rules: &ContractRules,
    samples: &Samples,
    standing: Option<Standing>,
    legal: &[Move],
    edge: Edge,
) -> Option<Move> {
    let pass = Move::Call(Call::Pass);
    legal
        .iter()
        .filter_map(|&m| match m {
            Move::Call(c) => call_value(rules, samples, standing, c, edge).map(|v| (m, v)),
            _ => None,
        })
        .max_by(|a, b| {
            a.1.total_cmp(&b.1)
                .then((a.0 == pass).cmp(&(b.0 == pass)))
                .then(level_of(b.0).cmp(&level_of(a.0)))
        })
        .map(|(m, _)| m)
}

fn level_of(m: Move) -> u8 {
    match m {
        Move::Call(Call::Bid(b)) => b.level.get(),
        _ => 0,
    }
}

/// The chance that a player whose expected tricks are `mine` (less `edge`) takes `level` or
/// more: the estimate spread over a trick either side.
fn make_chance(mine: f64, level: u8, edge: f64) -> f64 {
    (mine - edge - f64::from(level) + 1.0).clamp(0.0, 1.0)
}

/// 400 and Forty-One: the seats' scores before the hand, and the target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatScores {
    pub target: i32,
    pub scores: BySeat<i32>,
    /// Where the hand stands against the hand cap ([`super::match_end`]).
    pub horizon: Horizon,
}

impl SeatScores {
    /// [`GAME`] if my bid's points (`delta`, the other seats' scores left as they are: their hands
    /// are unknown) end the game for my partnership, minus that if for the other one
    /// (docs/rules.md#individual-partner, docs/rules.md#individual-both-reach-target).
    fn end(&self, rules: &IndividualRules, me: Seat, delta: i32) -> f64 {
        let mut after = self.scores;
        after[me] += delta;
        let by_target = individual_winner(rules, self.target, after);
        self.horizon.worth(by_target, totals(after), me.team())
    }

    /// What a hand thrown in is worth to `me`: the standing as it is, which on the last hand
    /// ends the game.
    pub fn unchanged(&self, me: Seat) -> f64 {
        self.horizon.worth(None, totals(self.scores), me.team())
    }
}

/// 400 and Forty-One: my expected score from bidding `level`, given my expected tricks in
/// each sampled deal, as [`individual_score`] scores the made and the failed bid; with the
/// match (`game`), a made or failed bid that ends it is worth [`GAME`] more or less (near the
/// target a riskier bid that reaches it beats a safe one that does not, and under 400's
/// partner rule a player at 0 or below bids what makes it positive when the partner is
/// there already).
pub fn individual_value(
    rules: &IndividualRules,
    me: Seat,
    level: Level,
    mine: &[f64],
    edge: f64,
    game: Option<&SeatScores>,
) -> f64 {
    let score = |tricks: u8| {
        // The other seats are taken out of the sum as made bids that reneged: those score and
        // decide nothing under either renege rule.
        let mut reneged = BySeat([true; 4]);
        reneged[me] = false;
        let mut taken = BySeat([13; 4]);
        taken[me] = tricks;
        let s = individual_score(rules, BySeat([level; 4]), taken, reneged);
        match s.instant_winner {
            Some(t) if t == me.team() => GAME,
            Some(_) => -GAME,
            None => {
                let points = s.delta[me];
                f64::from(points) + game.map_or(0.0, |g| g.end(rules, me, points))
            }
        }
    };
    let (made, failed) = (score(level.get()), score(level.get() - 1));
    if mine.is_empty() {
        return failed;
    }
    let p: f64 = mine
        .iter()
        .map(|&m| make_chance(m, level.get(), edge))
        .sum::<f64>()
        / mine.len() as f64;
    // A bid of 13 that decides the game is made only with (near) certainty.
    if rules.thirteen == Thirteen::Instant && level.get() == 13 && p < 0.95 {
        return -GAME;
    }
    p * made + (1.0 - p) * failed
}

/// The legal bid with the best expected score (the lower one on a tie). A bid scores only if
/// the hand is played ([`Bidding::played`]): a strong hand bids what gets it played when that
/// is worth more than nothing, where the best bid for its tricks alone would likely have
/// thrown the hand in.
pub fn best_individual(
    rules: &IndividualRules,
    me: Seat,
    legal: &[Move],
    mine: &[f64],
    edge: f64,
    game: Option<&SeatScores>,
    bidding: Option<&Bidding>,
) -> Option<Move> {
    legal
        .iter()
        .filter_map(|&m| match m {
            Move::Call(Call::Bid(b)) => {
                let played = bidding.map_or(1.0, |a| a.played(rules, me, b.level));
                // Thrown in, the hand changes nothing (and ends a capped game as it stands).
                let unplayed = game.map_or(0.0, |g| g.unchanged(me));
                let value = if played > 0.0 {
                    played * individual_value(rules, me, b.level, mine, edge, game)
                        + (1.0 - played) * unplayed
                } else {
                    unplayed
                };
                Some((m, value))
            }
            _ => None,
        })
        .max_by(|a, b| a.1.total_cmp(&b.1).then(level_of(b.0).cmp(&level_of(a.0))))
        .map(|(m, _)| m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Bid, Rules, Suit};

    const SPADES: Strain = Strain::Trump(Suit::Spades);
    const HEARTS: Strain = Strain::Trump(Suit::Hearts);

    fn lv(n: u8) -> Level {
        Level::new(n).unwrap()
    }

    fn bid(n: u8, strain: Option<Strain>) -> Move {
        Move::Call(Call::Bid(Bid {
            level: lv(n),
            strain,
        }))
    }

    fn classic() -> ContractRules {
        Rules::classic().contract.unwrap()
    }

    fn egyptian() -> ContractRules {
        Rules::egyptian().contract.unwrap()
    }

    /// Deals where my side takes `tricks` in spades (and 3 in hearts).
    fn spades(tricks: &[u8]) -> Samples {
        Samples {
            strains: vec![SPADES, HEARTS],
            tricks: tricks.iter().map(|&t| vec![f64::from(t), 3.0]).collect(),
            game: None,
        }
    }

    fn classic_bids(from: u8) -> Vec<Move> {
        let mut legal = vec![Move::Call(Call::Pass)];
        legal.extend((from..=13).map(|n| bid(n, None)));
        legal
    }

    #[test]
    fn all_the_top_trumps_bid_and_a_hopeless_hand_passes() {
        // Classic scoring (docs/rules.md#contract-scoring): a made contract scores the tricks
        // taken, so a sure 12 tricks bids the lowest level (7); a failed one costs the bid.
        let strong = spades(&[12, 12, 13, 12]);
        let choice = best_call(&classic(), &strong, None, &classic_bids(7), Edge::both(0.5));
        assert_eq!(choice, Some(bid(7, None)));
        let hopeless = spades(&[3, 4, 5, 4]);
        let choice = best_call(
            &classic(),
            &hopeless,
            None,
            &classic_bids(7),
            Edge::both(0.5),
        );
        assert_eq!(choice, Some(Move::Call(Call::Pass)));
    }

    #[test]
    fn a_contract_whose_failure_ends_the_game_for_the_opponents_is_not_bid() {
        // docs/rules.md#target, docs/rules.md#target-check, docs/rules.md#contract-scoring: target
        // 31, checked at the end of a hand; failed, the opponents score the tricks they took. 8
        // tricks in 7 deals of 10, 6 in 3: bidding 7 is worth 0.7 * 8 - 0.3 * (7 + 7) = +1.4
        // against passing's 0 (a new deal).
        let deals = spades(&[8, 8, 8, 8, 8, 8, 8, 6, 6, 6]);
        let choice = best_call(&classic(), &deals, None, &classic_bids(7), Edge::both(0.0));
        assert_eq!(choice, Some(bid(7, None)));
        // The opponents at 28: set, they take 7 tricks and the game.
        let near = Samples {
            game: Some(MatchState {
                target: 31,
                ours: 0,
                theirs: 28,
                horizon: Horizon::far(12.0),
            }),
            ..deals.clone()
        };
        let choice = best_call(&classic(), &near, None, &classic_bids(7), Edge::both(0.0));
        assert_eq!(choice, Some(Move::Call(Call::Pass)));
        // My side at 23: made, 8 tricks take it to 31 and the game, well worth the risk.
        let mine = Samples {
            game: Some(MatchState {
                target: 31,
                ours: 23,
                theirs: 0,
                horizon: Horizon::far(12.0),
            }),
            ..spades(&[8, 8, 8, 8, 6, 6, 6, 6, 6, 6])
        };
        let choice = best_call(&classic(), &mine, None, &classic_bids(7), Edge::both(0.0));
        assert_eq!(choice, Some(bid(7, None)));
        let without = Samples { game: None, ..mine };
        let choice = best_call(
            &classic(),
            &without,
            None,
            &classic_bids(7),
            Edge::both(0.0),
        );
        assert_eq!(choice, Some(Move::Call(Call::Pass)));
    }

    #[test]
    fn a_sure_thirteen_bids_thirteen_for_the_kaboot_bonus() {
        // docs/rules.md#contract-kaboot: a made 13 scores 26, where a lower bid taking all 13
        // scores 16.
        let all = spades(&[13, 13, 13, 13]);
        let choice = best_call(&classic(), &all, None, &classic_bids(7), Edge::both(0.0));
        assert_eq!(choice, Some(bid(13, None)));
        // With two deals in four short of 13 the risk of "-16 and the other team scores
        // double" is not worth it: bid low and keep the 16 of a kaboot.
        let nearly = spades(&[13, 13, 12, 12]);
        let choice = best_call(&classic(), &nearly, None, &classic_bids(7), Edge::both(0.0));
        assert_eq!(choice, Some(bid(7, None)));
    }

    #[test]
    fn the_made_or_failed_trade_off_turns_where_the_scores_say() {
        // Classic: 8 made scores 8; failed at 7 tricks it costs 8 and the defenders score 6
        // (docs/rules.md#contract-scoring: failed, the bid is lost and the opponents score the
        // tricks they took), so bidding 8 over an opponent's 7 needs more than an even chance.
        // Against an opponent's 7 (their 13 - 8 = 5 tricks fail: +8+7 for me when passing) taking 8
        // in half the deals does not pay.
        let over = Some(Standing {
            level: lv(7),
            strain: None,
            ours: false,
            multiplier: 1,
        });
        let only = |t: &[u8]| Samples {
            strains: vec![SPADES],
            tricks: t.iter().map(|&t| vec![f64::from(t)]).collect(),
            game: None,
        };
        let even = only(&[7, 8, 7, 8]);
        let pass = call_value(&classic(), &even, over, Call::Pass, Edge::both(0.0)).unwrap();
        let eight = call_value(
            &classic(),
            &even,
            over,
            Call::Bid(Bid {
                level: lv(8),
                strain: None,
            }),
            Edge::both(0.0),
        )
        .unwrap();
        // Pass: they take 13 - 7 = 6 or 13 - 8 = 5 of their 7: they fail, I score 7 or 8
        // and they lose 7: +14.5 on average. Bid 8: made 8 or failed (-8 - 6): -3.
        assert_eq!(pass, 14.5);
        assert_eq!(eight, -3.0);
        // The declarer's edge: 8 tricks double-dummy are 8 or 7 at the table.
        let sure = only(&[8, 8, 8, 8]);
        let v = |edge| {
            call_value(
                &classic(),
                &sure,
                None,
                Call::Bid(Bid {
                    level: lv(8),
                    strain: None,
                }),
                Edge::both(edge),
            )
            .unwrap()
        };
        assert_eq!(v(0.0), 8.0);
        assert_eq!(v(0.5), 0.5 * 8.0 + 0.5 * (-8.0 - 6.0));
    }

    #[test]
    fn egyptian_bids_name_their_strain_and_doubles_multiply() {
        // Egyptian: doubled and redoubled contracts multiply the declaring side's score by 2 or 4,
        // made or failed (docs/rules.md#doubled-scoring).
        let s = spades(&[10, 10, 10, 10]);
        let legal = [
            Move::Call(Call::Pass),
            bid(8, Some(HEARTS)),
            bid(8, Some(SPADES)),
        ];
        assert_eq!(
            best_call(&egyptian(), &s, None, &legal, Edge::both(0.0)),
            Some(bid(8, Some(SPADES)))
        );
        // The opponents' 8 hearts: they take 13 - 3 = 10; doubled it scores them 20, and
        // with the doubt of a double (1.5 tricks more for them) 22 or 24.
        let theirs = Some(Standing {
            level: lv(8),
            strain: Some(HEARTS),
            ours: false,
            multiplier: 1,
        });
        let pass = call_value(&egyptian(), &s, theirs, Call::Pass, Edge::both(0.0)).unwrap();
        let double = call_value(&egyptian(), &s, theirs, Call::Double, Edge::both(0.0)).unwrap();
        assert_eq!((pass, double), (-10.0, -23.0));
    }

    #[test]
    fn a_double_needs_the_contract_to_fail_by_more_than_the_doubt() {
        // Egyptian: doubling multiplies the declarers' score "made or failed": a failed 8
        // doubled costs them 16 (the defenders score their tricks undoubled), a made one
        // scores them twice their tricks. The samples give the opponents' 8 hearts 7 tricks
        // (my side 6): one down is not enough to double, the opponents' bid says they hold
        // more than random hands; three down (5 tricks) is.
        let theirs = Some(Standing {
            level: lv(8),
            strain: Some(HEARTS),
            ours: false,
            multiplier: 1,
        });
        let legal = [Move::Call(Call::Pass), Move::Call(Call::Double)];
        let hearts = |mine: f64| Samples {
            strains: vec![SPADES, HEARTS],
            tricks: vec![vec![3.0, mine]; 4],
            game: None,
        };
        let call = |mine| best_call(&egyptian(), &hearts(mine), theirs, &legal, Edge::both(0.0));
        assert_eq!(call(6.0), Some(Move::Call(Call::Pass)));
        assert_eq!(call(8.0), Some(Move::Call(Call::Double)));
    }

    #[test]
    fn individual_bids_weigh_the_points_table() {
        // 400 (docs/rules.md#individual-points): a made 5 wins 10 points, a made 4 only 4, and a
        // failed bid loses its points.
        let rules = Rules::four_hundred().individual.unwrap();
        let legal: Vec<Move> = (2..=13).map(|n| bid(n, None)).collect();
        let me = Seat::S0;
        // About 5.5 tricks: 5 is likely, and worth 10.
        let choice = best_individual(&rules, me, &legal, &[5.5, 5.6, 5.4], 0.0, None, None);
        assert_eq!(choice, Some(bid(5, None)));
        // Two tricks at best: bid 2, not 5.
        let choice = best_individual(&rules, me, &legal, &[2.0, 2.2, 1.9], 0.0, None, None);
        assert_eq!(choice, Some(bid(2, None)));
        // Four tricks expected: a bid of 5 fails and loses its 10 points.
        assert_eq!(
            individual_value(&rules, me, lv(5), &[4.0], 0.0, None),
            -10.0
        );
        // 13 decides the game in 400: never on a doubtful hand.
        assert_eq!(
            individual_value(&rules, me, lv(13), &[12.5], 0.0, None),
            -GAME
        );
    }

    #[test]
    fn individual_bids_reach_for_the_target_when_the_match_is_near() {
        // 400: 41 or more wins with a positive partner (docs/rules.md#individual-partner); a made 5
        // scores 10, a made 6 12 (docs/rules.md#individual-points). At 30, a made 5 (10 points)
        // stops at 40 while a made 6 (12) reaches 42 and wins: with a 6 made about two times in
        // three, 6 is bid near the target and 5 far from it.
        let rules = Rules::four_hundred().individual.unwrap();
        let legal: Vec<Move> = (3..=13).map(|n| bid(n, None)).collect();
        let me = Seat::S0;
        let mine = [6.0, 6.0, 6.0];
        let at = |scores: [i32; 4]| SeatScores {
            target: 41,
            scores: BySeat(scores),
            horizon: Horizon::far(12.0),
        };
        let near = at([30, 0, 10, 0]);
        let far = at([0, 0, 10, 0]);
        let choice =
            |g: Option<&SeatScores>| best_individual(&rules, me, &legal, &mine, 0.35, g, None);
        assert_eq!(choice(None), Some(bid(5, None)));
        assert_eq!(choice(Some(&far)), Some(bid(5, None)));
        assert_eq!(choice(Some(&near)), Some(bid(6, None)));
        // The partner rule: my partner has 45, I have -3. A made 3 leaves me at 0, not "more
        // than 0", and the game goes on; a made 4 (4 points) wins it, and is bid on a hand
        // that makes it most of the time. With the option "(option: 0 or more)" a made 3
        // wins already.
        let partner_there = at([-3, 0, 45, 0]);
        let mine = [4.2, 4.2];
        let choice =
            |g: Option<&SeatScores>| best_individual(&rules, me, &legal, &mine, 0.35, g, None);
        assert_eq!(choice(None), Some(bid(3, None)));
        assert_eq!(choice(Some(&partner_there)), Some(bid(4, None)));
        let mut zero_ok = rules.clone();
        zero_ok.partner = crate::rules::PartnerRule::NonNegative;
        let made_3 = individual_value(&zero_ok, me, lv(3), &mine, 0.35, Some(&partner_there));
        assert_eq!(made_3, 3.0 + GAME);
        let made_3 = individual_value(&rules, me, lv(3), &mine, 0.35, Some(&partner_there));
        assert_eq!(made_3, 3.0);
    }

    #[test]
    fn the_last_bidder_bids_what_gets_a_strong_hand_played() {
        // Forty-One: the bids must total 11 whatever the scores, else the hand is thrown in
        // unscored (docs/rules.md#individual-bid-sum); bids 1-6 score their face value, 7-13 double
        // it (docs/rules.md#individual-points). The others bid 1, 1 and 2: my 6 (worth 6 for about
        // 7 tricks) would throw the hand in, 7 gets it played and is worth 14 made two times in
        // three.
        let rules = Rules::forty_one().individual.unwrap();
        let legal: Vec<Move> = (1..=13).map(|n| bid(n, None)).collect();
        let me = Seat::S3;
        let mine = [7.0, 7.0];
        let last = Bidding {
            bids: BySeat([Some(lv(1)), Some(lv(1)), Some(lv(2)), None]),
            scores: BySeat([0; 4]),
        };
        let choice = |l| best_individual(&rules, me, &legal, &mine, 0.35, None, l);
        assert_eq!(choice(None), Some(bid(6, None)));
        assert_eq!(choice(Some(&last)), Some(bid(7, None)));
        // A weak hand does not bid 7 to be played: the hand is thrown in (a 1, worth nothing).
        let weak = [2.0, 2.0];
        let choice = best_individual(&rules, me, &legal, &weak, 0.35, None, Some(&last));
        assert_eq!(choice, Some(bid(1, None)));
    }

    #[test]
    fn an_earlier_bidder_bids_up_for_the_hand_to_be_played() {
        // Forty-One: the bids must total 11 or more, else the hand is thrown in unscored
        // (docs/rules.md#individual-bid-sum). The third to bid after 1 and 1, one bid to come
        // (`throw_in::NEXT_BID`): with my 2 the hand is played only if the last bids 7 or more
        // (0.008), with 3 if 6 or more (0.021), with 7 if 2 or more (0.666). A hand that expects 3
        // tricks bids 3, not the 2 it bids when the hand is sure to be played, one that expects 4
        // bids 4, not 3; one that expects 8 bids its 7 (14 points) either way. The first to bid
        // never bids less than it would without the throw-in.
        let rules = Rules::forty_one().individual.unwrap();
        let legal: Vec<Move> = (1..=13).map(|n| bid(n, None)).collect();
        let third = Bidding {
            bids: BySeat([Some(lv(1)), Some(lv(1)), None, None]),
            scores: BySeat([0; 4]),
        };
        let first = Bidding {
            bids: BySeat([None; 4]),
            scores: BySeat([0; 4]),
        };
        let level = |me, n: f64, b: Option<&Bidding>| {
            best_individual(&rules, me, &legal, &[n, n], 0.35, None, b).map(level_of)
        };
        for (n, sure, third_bids) in [(3.0, 2, 3), (4.0, 3, 4), (8.0, 7, 7)] {
            assert_eq!(
                level(Seat::S2, n, None),
                Some(sure),
                "{n} tricks, sure to be played"
            );
            assert_eq!(
                level(Seat::S2, n, Some(&third)),
                Some(third_bids),
                "{n} tricks, third"
            );
        }
        for n in [2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0] {
            assert!(level(Seat::S1, n, Some(&first)) >= level(Seat::S1, n, None));
        }
        let p = |b: &Bidding, n| b.played(&rules, Seat::S2, lv(n));
        for (n, want) in [(2, 0.008), (3, 0.021), (7, 0.666)] {
            assert!((p(&third, n) - want).abs() < 1e-9, "{n}: {}", p(&third, n));
        }
    }
}
