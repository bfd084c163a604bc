//! Property tests of the rules core over random seeds, presets and option combinations.
//!
//! Games are driven from `DealSource::from_seed` (first dealer and deals) with random legal moves
//! from a seeded generator, and checked at every step against oracles written here from
//! docs/rules.md, independently of `src/rules/score.rs`:
//!
//! 1. every game ends within `max-hands` deals, with the result the game-end rules give;
//! 2. every hand conserves the 52 cards, and a played hand is 13 legal tricks;
//! 3. legal moves apply, and moves not in the legal list are rejected without changing the game;
//!    the legal list itself and the auction's course are docs/rules.md's;
//! 4. every scored hand moves the scores by what docs/rules.md's tables say;
//! 5. no seat's view holds another seat's unplayed card;
//!
//! plus text and serde round trips for cards, moves and rules.

use std::collections::HashSet;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use tarneeb_referee::rules::options::PointsTable;
use tarneeb_referee::rules::{
    AuctionForm, Bid, BidForm, BothReach, BySeat, ByTeam, Call, Card, CardSet, ContractRules, Deal,
    DealSource, Decision, DecisionKind, Doubling, EndReason, Game, HandEnd, HandResult,
    IllegalReason, IndividualRules, Kaboot, Level, Move, MoveList, PartnerRule, Rank, Redeal,
    Renege, Rules, Seat, SlowPlay, Steps, Strain, StrainOrder, Suit, Team, Thirteen, ThrowInReason,
    Trick, TrumpChoice,
};

type TestResult<T = ()> = Result<T, TestCaseError>;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        // No regression files next to the tests: a failure prints its minimal input instead.
        failure_persistence: None,
        ..ProptestConfig::with_cases(cases)
    }
}

// ---------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------

fn target() -> impl Strategy<Value = i32> {
    prop_oneof![Just(31), Just(41), Just(51), Just(61), 1i32..80]
}

fn pick<T: Copy>(options: &[T], i: u8) -> T {
    options[i as usize % options.len()]
}

/// Classic or Egyptian, with the contract options varied. Most cases respect the documented
/// option dependencies; some set every option freely and leave it to `validate` to weed out.
fn contract_rules() -> BoxedStrategy<Rules> {
    // strains, c-s-h-d, auction form, doubling, defenders multiplied
    let form = (any::<bool>(), any::<bool>(), 0u8..3, 0u8..3, any::<bool>());
    // trump by first lead, no-trump, trump-first-lead
    let trump = (any::<bool>(), any::<bool>(), any::<bool>());
    // kaboot, instant win only on 13, not when negative
    let kaboot = (0u8..3, any::<bool>(), any::<bool>());
    // dealer-forced-7, all-pass next dealer, weak-hand, long-suit, dakak, out-of-call
    let house = (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    );
    (
        prop::sample::select(vec!["classic", "egyptian"]),
        0u8..8, // 0: the preset as is; 1: options set freely; else: options set consistently
        target(),
        20u32..60,
        form,
        trump,
        kaboot,
        house,
    )
        .prop_map(
            |(name, mode, target, max_hands, form, trump, kaboot, house)| {
                let mut r = Rules::preset(name).expect("a preset");
                r.max_hands = max_hands;
                if mode == 0 {
                    return r;
                }
                let free = mode == 1;
                r.target = target;
                let c = r.contract.as_mut().expect("a contract preset");
                let (strains, cshd, auction, doubling, def_mult) = form;
                c.bids = if strains {
                    BidForm::Strains
                } else {
                    BidForm::Numbers
                };
                c.strain_order = if cshd && (strains || free) {
                    StrainOrder::Cshd
                } else {
                    StrainOrder::CdhsNt
                };
                c.auction = pick(
                    &[
                        AuctionForm::Elimination,
                        AuctionForm::SingleRound,
                        AuctionForm::Open,
                    ],
                    auction,
                );
                c.doubling = if c.auction == AuctionForm::Open || free {
                    pick(
                        &[Doubling::Off, Doubling::Double, Doubling::Redouble],
                        doubling,
                    )
                } else {
                    Doubling::Off
                };
                c.defenders_multiplied = def_mult && (c.doubling != Doubling::Off || free);
                let (first_lead, no_trump, trump_first_lead) = trump;
                c.trump = if first_lead && (!strains || free) {
                    TrumpChoice::FirstLead
                } else {
                    TrumpChoice::DeclarerNames
                };
                let names = c.trump == TrumpChoice::DeclarerNames;
                c.no_trump = no_trump && ((!strains && names) || free);
                c.trump_first_lead = trump_first_lead && (names || free);
                let (k, only_13, not_negative) = kaboot;
                c.kaboot = pick(&[Kaboot::Bonus, Kaboot::InstantWin, Kaboot::None], k);
                let instant = c.kaboot == Kaboot::InstantWin;
                c.instant_win_only_bid_13 = only_13 && (instant || free);
                c.instant_win_not_when_negative = not_negative && (instant || free);
                let (forced, next_dealer, weak, long, dakak, out_of_call) = house;
                c.dealer_forced_7 = forced;
                c.all_pass = if next_dealer {
                    Redeal::NextDealer
                } else {
                    Redeal::SameDealer
                };
                c.throw_in_weak_hand = weak;
                c.throw_in_long_suit = long;
                c.dakak = dakak;
                c.out_of_call = out_of_call;
                r
            },
        )
        .prop_filter("the rules must validate", |r| r.validate().is_ok())
        .boxed()
}

fn table(f: impl Fn(u8) -> Option<i32>) -> PointsTable {
    let mut t = [None; 14];
    for (level, slot) in t.iter_mut().enumerate().skip(1) {
        *slot = f(level as u8);
    }
    PointsTable(t)
}

/// 400 or Forty-One, with the individual options varied; combinations that leave a biddable
/// level without points (say Forty-One's minimum bid 1 with 400's table) fail `validate` and
/// are filtered out.
fn individual_rules() -> BoxedStrategy<Rules> {
    // points table, 13 scores points, min-bid steps, bid-sum steps, sum counts 7+ double
    let scoring = (0u8..3, any::<bool>(), 0u8..3, 0u8..3, any::<bool>());
    // partner non-negative, higher total, play-on margin
    let ending = (any::<bool>(), any::<bool>(), 1i32..20);
    let slow = prop::option::of((
        prop::sample::select(vec![1_000u64, 5_000, 10_000]),
        1u8..4,
        prop::sample::select(vec![Renege::Penalty, Renege::ScoresZero]),
    ));
    (
        prop::sample::select(vec!["400", "41"]),
        0u8..4, // 0: the preset as is
        target(),
        20u32..60,
        scoring,
        ending,
        slow,
    )
        .prop_map(|(name, mode, target, max_hands, scoring, ending, slow)| {
            let mut r = Rules::preset(name).expect("a preset");
            r.max_hands = max_hands;
            if mode == 0 {
                return r;
            }
            r.target = target;
            let i = r.individual.as_mut().expect("an individual preset");
            let (points, thirteen_points, min_bid, bid_sum, big_double) = scoring;
            let four_hundred = [0, 0, 2, 3, 4, 10, 12, 14, 16, 27, 30, 33, 36];
            i.points = match points {
                // 400 (docs/rules.md#individual-points): 2:2 3:3 4:4 5:10 6:12 7:14 8:16 9:27
                // 10:30 11:33 12:36
                0 => table(|b| (2..=12).contains(&b).then(|| four_hundred[b as usize])),
                // Another published table (docs/rules.md#individual-points): x1 for 2-4,
                // x2 for 5-8, x3 for 9-10, x4 for 11-13
                1 => table(|b| {
                    let b = i32::from(b);
                    Some(match b {
                        ..=4 => b,
                        5..=8 => 2 * b,
                        9..=10 => 3 * b,
                        _ => 4 * b,
                    })
                }),
                // Forty-One (docs/rules.md#individual-points): 1-6 face value, 7-13 double
                _ => table(|b| {
                    Some(if b <= 6 {
                        i32::from(b)
                    } else {
                        2 * i32::from(b)
                    })
                }),
            };
            i.thirteen = if thirteen_points {
                Thirteen::Points
            } else {
                Thirteen::Instant
            };
            i.min_bid = match min_bid {
                0 => Steps {
                    base: 2,
                    from: vec![(30, 3), (40, 4), (50, 5)],
                },
                1 => Steps {
                    base: 1,
                    from: vec![],
                },
                _ => Steps {
                    base: 3,
                    from: vec![(20, 4)],
                },
            };
            i.bid_sum = match bid_sum {
                0 => Steps {
                    base: 11,
                    from: vec![(30, 12), (40, 13), (50, 14)],
                },
                1 => Steps {
                    base: 11,
                    from: vec![],
                },
                _ => Steps {
                    base: 6,
                    from: vec![(10, 20)],
                },
            };
            i.sum_counts_big_bids_double = big_double;
            let (non_negative, higher_total, margin) = ending;
            i.partner = if non_negative {
                PartnerRule::NonNegative
            } else {
                PartnerRule::Positive
            };
            i.both_reach_target = if higher_total {
                BothReach::HigherTotal
            } else {
                BothReach::PlayOn
            };
            i.play_on_target = target + margin;
            i.slow_play = slow.map(|(limit_ms, strikes, renege)| SlowPlay {
                limit_ms,
                strikes,
                renege,
            });
            r
        })
        .prop_filter("the rules must validate", |r| r.validate().is_ok())
        .boxed()
}

fn any_rules() -> BoxedStrategy<Rules> {
    prop_oneof![contract_rules(), individual_rules()].boxed()
}

/// Every move of every kind: the universe illegal moves are drawn from.
fn all_moves() -> Vec<Move> {
    Move::all().collect()
}

// ---------------------------------------------------------------------------------------------
// Oracles from docs/rules.md
// ---------------------------------------------------------------------------------------------

/// docs/rules.md#trick-winner: the highest trump in the trick wins it, else the highest card of the
/// suit led.
fn trick_winner(t: &Trick, trump: Option<Suit>) -> Seat {
    let plays: Vec<(Seat, Card)> = t.plays().collect();
    let led = plays[0].1.suit();
    let trumps: Vec<(Seat, Card)> = plays
        .iter()
        .copied()
        .filter(|&(_, c)| Some(c.suit()) == trump)
        .collect();
    let pool = if trumps.is_empty() {
        plays
            .iter()
            .copied()
            .filter(|&(_, c)| c.suit() == led)
            .collect()
    } else {
        trumps
    };
    pool.iter()
        .max_by_key(|&&(_, c)| c.rank())
        .expect("the led card is in the pool")
        .0
}

/// docs/rules.md#contract-scoring, with the multiplier of docs/rules.md#doubled-scoring:
/// `(declarers, defenders, instant win)`.
fn expected_contract_score(
    c: &ContractRules,
    level: i32,
    multiplier: i32,
    won: i32,
    declarers_before: i32,
) -> (i32, i32, bool) {
    let lost = 13 - won;
    let made = won >= level;
    let (declarers, defenders) = if c.kaboot == Kaboot::Bonus && level == 13 {
        // "Bid 13 made: 26. Bid 13 failed: declarers -16, defenders score double their tricks"
        if made {
            (26, 0)
        } else {
            (-16, 2 * lost)
        }
    } else if c.kaboot == Kaboot::Bonus && won == 13 {
        // "All 13 tricks on a bid under 13 ("kaboot"): 16."
        (16, 0)
    } else if made {
        // "made: declarers score the tricks they won, defenders nothing" ("kaboot=none: 13
        // tricks score 13")
        (won, 0)
    } else {
        // "Failed: declarers lose their bid, defenders score the tricks they won."
        (-level, lost)
    };
    // Egyptian: "multiplied for the declaring side by 1, 2 or 4 ... Defenders' points are not
    // multiplied; option: they are."
    let defenders = if c.defenders_multiplied {
        defenders * multiplier
    } else {
        defenders
    };
    // docs/rules.md#contract-instant-win-only-bid-13,
    // docs/rules.md#contract-instant-win-not-when-negative: only when 13 was bid; never while the
    // team's score is negative.
    let instant = c.kaboot == Kaboot::InstantWin
        && won == 13
        && (!c.instant_win_only_bid_13 || level == 13)
        && !(c.instant_win_not_when_negative && declarers_before < 0);
    (declarers * multiplier, defenders, instant)
}

/// docs/rules.md#individual-scoring: per-seat deltas and the instant winner of a bid of 13.
fn expected_individual_score(
    i: &IndividualRules,
    bids: [u8; 4],
    tricks: [u8; 4],
    reneged: [bool; 4],
) -> ([i32; 4], Option<Team>) {
    let mut delta = [0; 4];
    let mut made_13 = None;
    let mut failed_13 = [false; 2];
    for s in Seat::ALL {
        let k = s.index();
        let made = tricks[k] >= bids[k];
        let literal = i
            .slow_play
            .is_some_and(|sp| sp.renege == Renege::ScoresZero);
        if reneged[k] && (made || literal) {
            // "A renege is a penalty and never helps the player who reneges ... a made bid
            // scores nothing, a failed bid still costs its value, and a failed bid of 13 still
            // loses the game ... Option: the literal reading (a renege scores 0 whatever
            // happened)."
            continue;
        }
        if bids[k] == 13 && i.thirteen == Thirteen::Instant {
            // "Bid 13: made, that partnership wins the game at once; failed, the opponents win"
            if made {
                made_13 = Some(s.team());
            } else {
                failed_13[s.team().index()] = true;
            }
            continue;
        }
        let points = i.points.0[bids[k] as usize].expect("validated table");
        delta[k] = if made { points } else { -points };
    }
    let winner = made_13.or(match failed_13 {
        [true, false] => Some(Team::T1),
        [false, true] => Some(Team::T0),
        // "if players of both partnerships failed a bid of 13 on the same hand, the two cancel"
        _ => None,
    });
    (delta, winner)
}

fn steps_at(steps: &Steps, score: i32) -> u32 {
    let mut v = steps.base;
    for &(threshold, value) in &steps.from {
        if score >= threshold {
            v = value;
        }
    }
    u32::from(v)
}

/// The winner at the end of a hand under the target rules, if the game ends there.
fn expected_winner(rules: &Rules, team: ByTeam<i32>, seat: BySeat<i32>) -> Option<Team> {
    let better = |a: i32, b: i32| match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(Team::T0),
        std::cmp::Ordering::Less => Some(Team::T1),
        std::cmp::Ordering::Equal => None,
    };
    if rules.contract.is_some() {
        return match (team.0[0] >= rules.target, team.0[1] >= rules.target) {
            (true, false) => Some(Team::T0),
            (false, true) => Some(Team::T1),
            (true, true) => better(team.0[0], team.0[1]),
            (false, false) => None,
        };
    }
    let i = rules.individual.as_ref().expect("individual rules");
    // "the partnership of a player with 41+ whose partner has more than 0 (option: 0 or more)"
    let best_at = |level: i32| -> [Option<i32>; 2] {
        let mut best = [None; 2];
        for s in Seat::ALL {
            let partner = seat[s.partner()];
            let partner_ok = match i.partner {
                PartnerRule::Positive => partner > 0,
                PartnerRule::NonNegative => partner >= 0,
            };
            if seat[s] >= level && partner_ok {
                let b: &mut Option<i32> = &mut best[s.team().index()];
                *b = Some(b.map_or(seat[s], |x| x.max(seat[s])));
            }
        }
        best
    };
    match best_at(rules.target) {
        [None, None] => None,
        [Some(_), None] => Some(Team::T0),
        [None, Some(_)] => Some(Team::T1),
        [Some(_), Some(_)] => match i.both_reach_target {
            BothReach::HigherTotal => {
                let total = |t: Team| t.seats().iter().map(|&s| seat[s]).sum::<i32>();
                better(total(Team::T0), total(Team::T1))
            }
            // "play on until a player reaches 51 (with a positive partner) or one of the two
            // drops below 41; if both reach 51 together, the higher individual score wins"
            BothReach::PlayOn => match best_at(i.play_on_target) {
                [Some(a), Some(b)] => better(a, b),
                [Some(_), None] => Some(Team::T0),
                [None, Some(_)] => Some(Team::T1),
                [None, None] => None,
            },
        },
    }
}

/// docs/rules.md#contract-throw-in-weak-hand: no ace; no king in a suit of 2+; no queen in 3+; no
/// jack in 4+.
fn is_weak(hand: CardSet) -> bool {
    Suit::ALL.iter().all(|&s| {
        let cards = hand.of_suit(s);
        let n = cards.len();
        let has = |r: Rank| cards.contains(Card::new(r, s));
        let stopper = has(Rank::Ace)
            || (n >= 2 && has(Rank::King))
            || (n >= 3 && has(Rank::Queen))
            || (n >= 4 && has(Rank::Jack));
        !stopper
    })
}

/// docs/rules.md#contract-throw-in-long-suit: 10+ cards in one suit.
fn is_long(hand: CardSet) -> bool {
    Suit::ALL.iter().any(|&s| hand.of_suit(s).len() >= 10)
}

/// docs/rules.md#contract-dakak: 4 or fewer high-card points (A 4, K 3, Q 2, J 1).
fn is_dakak(hand: CardSet) -> bool {
    let points: u32 = hand
        .iter()
        .map(|c| match c.rank() {
            Rank::Ace => 4,
            Rank::King => 3,
            Rank::Queen => 2,
            Rank::Jack => 1,
            _ => 0,
        })
        .sum();
    points <= 4
}

/// docs/rules.md#contract-out-of-call: 9 or more cards in one suit.
fn is_out_of_call(hand: CardSet) -> bool {
    Suit::ALL.iter().any(|&s| hand.of_suit(s).len() >= 9)
}

/// Where a contract auction stands after `calls`, by docs/rules.md.
#[derive(Debug, PartialEq)]
enum AuctionOracle {
    /// Still open: this seat speaks next.
    Next(Seat),
    /// Won: declarer, bid, multiplier.
    Won(Seat, Bid, u8),
    AllPassed,
}

fn auction_oracle(c: &ContractRules, dealer: Seat, calls: &[(Seat, Call)]) -> AuctionOracle {
    let last_bid = calls
        .iter()
        .rposition(|(_, call)| matches!(call, Call::Bid(_)));
    let high = last_bid.map(|k| match calls[k] {
        (s, Call::Bid(b)) => (s, b),
        _ => unreachable!(),
    });
    let since = &calls[last_bid.map_or(0, |k| k + 1)..];
    let multiplier = if since.iter().any(|(_, c)| *c == Call::Redouble) {
        4
    } else if since.iter().any(|(_, c)| *c == Call::Double) {
        2
    } else {
        1
    };
    let passed = |s: Seat| calls.iter().any(|&(x, c)| x == s && c == Call::Pass);
    let done = match c.auction {
        // "each player speaks once"
        AuctionForm::SingleRound => calls.len() == 4,
        // "ends after four calls in a row that are not bids, once a bid exists; four passes
        // with no bid: the same dealer redeals"
        AuctionForm::Open => since.len() >= 4,
        // "a player who passes is out for the rest of the auction; it ends when all but the
        // high bidder have passed"
        AuctionForm::Elimination => {
            let out = Seat::ALL.iter().filter(|&&s| passed(s)).count();
            out == 4 || (out == 3 && high.is_some())
        }
    };
    if done {
        return match high {
            Some((s, b)) => AuctionOracle::Won(s, b, multiplier),
            None => AuctionOracle::AllPassed,
        };
    }
    // "The first to speak in the auction is dealer + 1", then in playing order, skipping
    // players who are out of an elimination auction.
    let mut next = calls.last().map_or(dealer.next(), |&(s, _)| s.next());
    if c.auction == AuctionForm::Elimination {
        while passed(next) {
            next = next.next();
        }
    }
    AuctionOracle::Next(next)
}

/// The legal calls of `seat`, by docs/rules.md and its decisions.
fn expected_calls(
    c: &ContractRules,
    dealt: &BySeat<CardSet>,
    dealer: Seat,
    calls: &[(Seat, Call)],
    seat: Seat,
) -> Vec<Move> {
    let high = calls.iter().rev().find_map(|&(s, call)| match call {
        Call::Bid(b) => Some((s, b)),
        _ => None,
    });
    let since_bid: Vec<Call> = calls
        .iter()
        .rev()
        .take_while(|(_, call)| !matches!(call, Call::Bid(_)))
        .map(|&(_, call)| call)
        .collect();
    let team_dakak = |s: Seat| c.dakak && (is_dakak(dealt[s]) || is_dakak(dealt[s.partner()]));
    let min_level = if team_dakak(seat) {
        8
    } else if team_dakak(seat.next()) {
        5
    } else {
        7
    };
    let strains: Vec<Option<Strain>> = match (c.bids, c.strain_order) {
        (BidForm::Numbers, _) => vec![None],
        (BidForm::Strains, StrainOrder::CdhsNt) => vec![
            Some(Strain::Trump(Suit::Clubs)),
            Some(Strain::Trump(Suit::Diamonds)),
            Some(Strain::Trump(Suit::Hearts)),
            Some(Strain::Trump(Suit::Spades)),
            Some(Strain::NoTrump),
        ],
        (BidForm::Strains, StrainOrder::Cshd) => vec![
            Some(Strain::Trump(Suit::Clubs)),
            Some(Strain::Trump(Suit::Spades)),
            Some(Strain::Trump(Suit::Hearts)),
            Some(Strain::Trump(Suit::Diamonds)),
        ],
    };
    let rank = |b: Bid| {
        let k = strains
            .iter()
            .position(|&x| x == b.strain)
            .expect("a known strain");
        (b.level.get(), k)
    };
    let mut bids = Vec::new();
    let may_bid = !(c.out_of_call && is_out_of_call(dealt[seat]));
    for level in 1..=13u8 {
        for (k, &strain) in strains.iter().enumerate() {
            let bid = Bid {
                level: Level::new(level).expect("1..=13"),
                strain,
            };
            let long_ok = !(c.throw_in_long_suit && is_long(dealt[seat])) || level == 13;
            // Dakak opponents: "from 5 in the lowest strain, or from 6 in any strain"
            let min_ok = level >= min_level && !(min_level == 5 && level == 5 && k > 0);
            let higher = match high {
                None => true,
                Some((_, h)) => {
                    rank(bid) > rank(h)
                        || (c.auction == AuctionForm::SingleRound && seat == dealer && bid == h)
                }
            };
            if may_bid && long_ok && min_ok && higher {
                bids.push(Move::Call(Call::Bid(bid)));
            }
        }
    }
    let mut out = Vec::new();
    let forced = c.dealer_forced_7 && high.is_none() && seat == dealer && !bids.is_empty();
    if !forced {
        out.push(Move::Call(Call::Pass));
    }
    out.extend(bids);
    if let Some((bidder, _)) = high {
        let doubled = since_bid.contains(&Call::Double);
        let redoubled = since_bid.contains(&Call::Redouble);
        // "double (only when the standing bid belongs to an opponent and is not doubled)"
        if c.doubling != Doubling::Off && bidder.team() != seat.team() && !doubled {
            out.push(Move::Call(Call::Double));
        }
        // "redouble (only the doubled side, only once)"
        if c.doubling == Doubling::Redouble && bidder.team() == seat.team() && doubled && !redoubled
        {
            out.push(Move::Call(Call::Redouble));
        }
    }
    out
}

/// The legal moves now, by docs/rules.md (any order).
fn expected_legal(game: &Game, d: Decision) -> Vec<Move> {
    let h = game.hand();
    let rules = game.rules();
    match (d.kind, &rules.contract, &rules.individual) {
        (DecisionKind::ThrowIn, _, _) => vec![Move::ThrowIn, Move::Keep],
        (DecisionKind::Call, Some(c), _) => {
            expected_calls(c, &h.dealt, h.dealer, &h.auction.calls, d.seat)
        }
        // "Minimum bid by the bidder's own score ... Maximum 13"; "no pass"
        (DecisionKind::Call, None, Some(i)) => {
            let min = steps_at(&i.min_bid, game.seat_scores()[d.seat]) as u8;
            (min..=13)
                .map(|l| {
                    Move::Call(Call::Bid(Bid {
                        level: Level::new(l).expect("1..=13"),
                        strain: None,
                    }))
                })
                .collect()
        }
        // "The declarer names the trump suit"; "Option no-trump"
        (DecisionKind::Trump, Some(c), _) => {
            let mut v: Vec<Move> = Suit::ALL
                .iter()
                .map(|&s| Move::Trump(Strain::Trump(s)))
                .collect();
            if c.no_trump {
                v.push(Move::Trump(Strain::NoTrump));
            }
            v
        }
        // "follow suit if able; otherwise any card" (and trump-first-lead)
        (DecisionKind::Play, _, _) => {
            let held = h.held[d.seat];
            let mut cards = match h.trick.plays().next() {
                Some((_, led)) if !held.of_suit(led.suit()).is_empty() => held.of_suit(led.suit()),
                _ => held,
            };
            if let (Some(c), Some(contract), Some(Strain::Trump(t))) =
                (&rules.contract, h.contract, h.trump)
            {
                let first_lead = h.tricks.is_empty() && h.trick.is_empty();
                if c.trump_first_lead
                    && first_lead
                    && d.seat == contract.declarer
                    && !held.of_suit(t).is_empty()
                {
                    cards = held.of_suit(t);
                }
            }
            cards.iter().map(Move::Play).collect()
        }
        _ => Vec::new(),
    }
}

/// Property 3: the legal list is docs/rules.md's, and a contract auction is where it says.
fn check_legal_list(game: &Game, d: Decision, legal: &MoveList) -> TestResult {
    let h = game.hand();
    if let (DecisionKind::Call, Some(c)) = (d.kind, &game.rules().contract) {
        prop_assert_eq!(
            auction_oracle(c, h.dealer, &h.auction.calls),
            AuctionOracle::Next(d.seat),
            "calls {:?}",
            h.auction.calls
        );
    }
    if let (DecisionKind::Call, Some(_)) = (d.kind, &game.rules().individual) {
        // "Each player bids once, in turn from dealer + 1"
        let made = h.bids.0.iter().filter(|b| b.is_some()).count();
        prop_assert_eq!(d.seat, h.dealer.plus(1 + made));
    }
    let expected: HashSet<Move> = expected_legal(game, d).into_iter().collect();
    let got: HashSet<Move> = legal.iter().copied().collect();
    prop_assert_eq!(
        got,
        expected,
        "legal moves of seat {} at {:?}; calls {:?}; hand {}",
        d.seat,
        d.kind,
        h.auction.calls,
        h.held[d.seat]
    );
    Ok(())
}

/// After a call in a contract auction: the auction ended exactly when docs/rules.md says, with
/// the contract it gives.
fn check_after_call(game: &Game, c: &ContractRules, result: Option<&HandResult>) -> TestResult {
    let h = game.hand();
    match auction_oracle(c, h.dealer, &h.auction.calls) {
        AuctionOracle::Next(seat) => {
            prop_assert!(result.is_none(), "the hand ended mid-auction");
            let d = game.decision();
            prop_assert_eq!(
                d.map(|d| (d.seat, d.kind)),
                Some((seat, DecisionKind::Call))
            );
        }
        AuctionOracle::AllPassed => {
            prop_assert!(
                matches!(result.map(|r| r.end), Some(HandEnd::AllPassed { .. })),
                "four passes must end the hand: {:?}",
                result
            );
        }
        AuctionOracle::Won(declarer, bid, multiplier) => {
            prop_assert!(result.is_none());
            let contract = h.contract;
            prop_assert_eq!(
                contract.map(|k| (k.declarer, k.bid, k.multiplier)),
                Some((declarer, bid, multiplier))
            );
            // The declarer names the trump (classic) or leads at once.
            let kind = if bid.strain.is_none() && c.trump == TrumpChoice::DeclarerNames {
                DecisionKind::Trump
            } else {
                DecisionKind::Play
            };
            let d = game.decision();
            prop_assert_eq!(d.map(|d| (d.seat, d.kind)), Some((declarer, kind)));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The game driver
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Default)]
struct Checks {
    /// Property 2: card conservation at every decision and legal tricks at every hand end.
    cards: bool,
    /// Property 3: illegal moves rejected without effect, every legal move applies.
    illegal: bool,
    /// Property 4: score deltas against the tables.
    scores: bool,
    /// Property 5: views.
    views: bool,
    /// Sometimes give one seat a whole suit, so that 13-trick hands (kaboot, bid 13) happen.
    rig: bool,
}

/// Gives one seat all 13 cards of one suit by swapping cards with the other seats.
fn rig(deal: Deal, rules: &Rules, rng: &mut Pcg64) -> Deal {
    let mut hands = deal.hands();
    let lucky = Seat::from_index(rng.gen_range(0..4));
    let suit = match &rules.individual {
        Some(i) if rng.gen_bool(0.5) => i.trump,
        _ => Suit::ALL[rng.gen_range(0..4)],
    };
    for other in Seat::ALL {
        if other == lucky {
            continue;
        }
        for c in hands[other].of_suit(suit) {
            let give = hands[lucky]
                .minus(CardSet::suit(suit))
                .lowest()
                .expect("the lucky seat still holds another suit");
            hands[other].remove(c);
            hands[other].insert(give);
            hands[lucky].remove(give);
            hands[lucky].insert(c);
        }
    }
    Deal::new(hands).expect("swaps keep a valid deal")
}

/// A random legal move, leaning towards passes and low bids in auctions (so contracts are
/// sometimes made) and sometimes playing the highest legal card.
fn choose(game: &Game, d: Decision, legal: &MoveList, rng: &mut Pcg64) -> Move {
    let moves = legal.as_slice();
    match d.kind {
        DecisionKind::Call if rng.gen_bool(0.6) => moves[rng.gen_range(0..moves.len().min(3))],
        DecisionKind::Play if rng.gen_bool(0.3) => {
            let trump = game.hand().trump.and_then(Strain::trump);
            *moves
                .iter()
                .max_by_key(|m| match m {
                    Move::Play(c) => (Some(c.suit()) == trump, c.rank()),
                    _ => (false, Rank::Two),
                })
                .expect("a legal move")
        }
        _ => moves[rng.gen_range(0..moves.len())],
    }
}

/// Cards each seat has played this hand, from the completed tricks and the current one.
fn played_by(game: &Game) -> TestResult<[CardSet; 4]> {
    let h = game.hand();
    let mut played = [CardSet::EMPTY; 4];
    let tricks = h
        .tricks
        .iter()
        .map(|(t, _)| t)
        .chain(std::iter::once(&h.trick));
    for t in tricks {
        for (s, c) in t.plays() {
            prop_assert!(
                !played[s.index()].contains(c),
                "{c} played twice by seat {s}"
            );
            played[s.index()].insert(c);
        }
    }
    Ok(played)
}

/// Property 2 at one decision: held + played = dealt for each seat, the hands are disjoint and
/// the deal holds the 52 cards.
fn check_cards(game: &Game) -> TestResult {
    let h = game.hand();
    let played = played_by(game)?;
    let mut all_dealt = CardSet::EMPTY;
    let mut all_held = CardSet::EMPTY;
    let mut all_played = CardSet::EMPTY;
    for s in Seat::ALL {
        let (held, dealt, p) = (h.held[s], h.dealt[s], played[s.index()]);
        prop_assert_eq!(dealt.len(), 13, "seat {} was dealt {}", s, dealt);
        prop_assert!(held.intersect(p).is_empty(), "seat {s} holds a played card");
        prop_assert_eq!(held.union(p), dealt, "seat {}: held + played != dealt", s);
        prop_assert!(all_held.intersect(held).is_empty(), "held sets overlap");
        prop_assert!(all_dealt.intersect(dealt).is_empty(), "dealt sets overlap");
        // Each seat plays one card per trick: all have played the same number of cards, plus
        // one for those already in the current trick.
        let in_current = u32::from(h.trick.card_of(s).is_some());
        prop_assert_eq!(p.len(), h.tricks.len() as u32 + in_current);
        all_dealt = all_dealt.union(dealt);
        all_held = all_held.union(held);
        all_played = all_played.union(p);
    }
    prop_assert_eq!(all_dealt, CardSet::FULL);
    prop_assert_eq!(all_held.union(all_played), CardSet::FULL);
    prop_assert_eq!(h.played, all_played);
    prop_assert!(h.tricks.len() <= 13);
    prop_assert!(h.trick.len() < 4, "a complete trick was left on the table");
    Ok(())
}

/// Property 2 at the end of a played hand: 13 tricks, each seat one card per trick from its
/// own hand, following suit when able, led by the previous winner and won as docs/rules.md says.
fn check_played_hand(game: &Game) -> TestResult<[u8; 4]> {
    let rules = game.rules();
    let h = game.hand();
    prop_assert_eq!(h.tricks.len(), 13);
    prop_assert!(h.trick.is_empty());
    let trump = h.trump;
    let first_leader = match (&rules.contract, h.contract) {
        // "The declarer leads the first trick." / "the declarer leads"
        (Some(c), Some(contract)) => {
            let first_card = h.tricks[0].0.plays().next().expect("a card").1;
            let expected_trump = match (contract.bid.strain, c.trump) {
                // Egyptian: "trump is the bid's strain"
                (Some(strain), _) => Some(strain),
                // "the suit of the declarer's first lead becomes trump"
                (None, TrumpChoice::FirstLead) => Some(Strain::Trump(first_card.suit())),
                (None, TrumpChoice::DeclarerNames) => trump,
            };
            prop_assert_eq!(trump, expected_trump);
            prop_assert!(trump.is_some(), "a played hand without a trump decision");
            if trump == Some(Strain::NoTrump) {
                prop_assert!(
                    c.no_trump || c.bids == BidForm::Strains,
                    "No Trump named without the option"
                );
            }
            contract.declarer
        }
        // 400: "Hearts are always trump" ... "Dealer + 1 leads the first trick."
        (None, None) => {
            let i = rules.individual.as_ref().expect("individual rules");
            prop_assert_eq!(trump, Some(Strain::Trump(i.trump)));
            h.dealer.next()
        }
        _ => {
            prop_assert!(false, "contract set in an individual game or missing");
            unreachable!()
        }
    };
    let trump_suit = trump.and_then(Strain::trump);
    let mut held = h.dealt;
    let mut leader = first_leader;
    let mut won = [0u8; 4];
    for (k, (t, winner)) in h.tricks.iter().enumerate() {
        prop_assert_eq!(t.leader, leader, "trick {} led by the wrong seat", k);
        prop_assert_eq!(t.len(), 4);
        let plays: Vec<(Seat, Card)> = t.plays().collect();
        let led = plays[0].1.suit();
        let mut seen = [false; 4];
        for (i, &(s, c)) in plays.iter().enumerate() {
            prop_assert_eq!(s, leader.plus(i));
            prop_assert!(!seen[s.index()], "seat {s} played twice to trick {k}");
            seen[s.index()] = true;
            prop_assert!(
                held[s].contains(c),
                "seat {s} played {c}, which it did not hold"
            );
            if c.suit() != led {
                prop_assert!(
                    held[s].of_suit(led).is_empty(),
                    "seat {s} played {c} on a {led} lead while holding {}",
                    held[s].of_suit(led)
                );
            }
            // docs/rules.md#contract-trump-first-lead: the declarer's first lead must be a trump if
            // they hold one.
            if let (0, 0, Some(c_rules), Some(t)) = (k, i, &rules.contract, trump_suit) {
                if c_rules.trump_first_lead && !held[s].of_suit(t).is_empty() {
                    prop_assert_eq!(c.suit(), t, "declarer's first lead must be a trump");
                }
            }
            held[s].remove(c);
        }
        let expected = trick_winner(t, trump_suit);
        prop_assert_eq!(
            *winner,
            expected,
            "trick {} {:?} with trump {:?}",
            k,
            plays,
            trump
        );
        won[expected.index()] += 1;
        leader = expected;
    }
    for s in Seat::ALL {
        prop_assert!(held[s].is_empty());
        prop_assert_eq!(h.held[s], CardSet::EMPTY);
    }
    prop_assert_eq!(h.tricks_won.0, won);
    Ok(won)
}

/// Property 4 for a played contract hand.
fn check_contract_score(
    game: &Game,
    c: &ContractRules,
    result: &HandResult,
    won: [u8; 4],
    before: ByTeam<i32>,
) -> TestResult {
    let h = game.hand();
    let contract = h.contract.expect("a played contract hand has a contract");
    // The contract from the calls: the last bid, doubled or redoubled after it.
    let calls = &h.auction.calls;
    let last = calls
        .iter()
        .rposition(|(_, call)| matches!(call, Call::Bid(_)))
        .expect("a won auction has a bid");
    let (declarer, bid) = match calls[last] {
        (s, Call::Bid(b)) => (s, b),
        _ => unreachable!(),
    };
    let after = &calls[last + 1..];
    let multiplier = if after.iter().any(|(_, c)| *c == Call::Redouble) {
        4
    } else if after.iter().any(|(_, c)| *c == Call::Double) {
        2
    } else {
        1
    };
    prop_assert_eq!(contract.declarer, declarer);
    prop_assert_eq!(contract.bid, bid);
    prop_assert_eq!(contract.multiplier, multiplier);
    let team = declarer.team();
    let tricks: i32 = team.seats().iter().map(|s| i32::from(won[s.index()])).sum();
    let (decl, def, instant) = expected_contract_score(
        c,
        i32::from(bid.level.get()),
        i32::from(multiplier),
        tricks,
        before[team],
    );
    let what = format!(
        "bid {bid} x{multiplier} by seat {declarer}, {tricks} tricks, score before {}",
        before[team]
    );
    prop_assert_eq!(result.team_delta[team], decl, "declarers: {}", what);
    prop_assert_eq!(result.team_delta[team.other()], def, "defenders: {}", what);
    prop_assert_eq!(result.instant_winner, instant.then_some(team), "{}", what);
    prop_assert_eq!(result.seat_delta.0, [0; 4]);
    Ok(())
}

/// Property 4 for a played 400 / Forty-One hand.
fn check_individual_score(
    game: &Game,
    i: &IndividualRules,
    result: &HandResult,
    won: [u8; 4],
    strikes: [u8; 4],
) -> TestResult {
    let h = game.hand();
    let mut bids = [0u8; 4];
    for s in Seat::ALL {
        bids[s.index()] = h.bids[s].expect("a played hand has four bids").get();
    }
    // Ten-second rule: "a player with 2 strikes in one hand reneges".
    let reneged = strikes.map(|n| i.slow_play.is_some_and(|sp| n >= sp.strikes));
    prop_assert_eq!(result.reneged.0, reneged, "strikes {:?}", strikes);
    prop_assert_eq!(h.strikes.0, strikes);
    let (delta, instant) = expected_individual_score(i, bids, won, reneged);
    let what = format!("bids {bids:?}, tricks {won:?}, reneged {reneged:?}");
    prop_assert_eq!(result.seat_delta.0, delta, "{}", what);
    prop_assert_eq!(result.instant_winner, instant, "{}", what);
    prop_assert_eq!(result.team_delta.0, [0; 2]);
    Ok(())
}

/// The sum of 400 / Forty-One bids and the total needed, from docs/rules.md.
fn bid_sum(i: &IndividualRules, game: &Game, seat_before: BySeat<i32>) -> (u32, u32) {
    let sum = Seat::ALL
        .iter()
        .map(|&s| {
            let b = u32::from(game.hand().bids[s].expect("four bids").get());
            // "Option: count bids of 7+ double in that total."
            if i.sum_counts_big_bids_double && b >= 7 {
                2 * b
            } else {
                b
            }
        })
        .sum();
    let highest = seat_before.0.iter().copied().max().expect("four seats");
    (sum, steps_at(&i.bid_sum, highest))
}

/// Property 5: each seat's view holds its own cards and no other seat's unplayed card.
fn check_views(game: &Game) -> TestResult {
    thread_local! {
        /// Refilled for every view checked, so it always holds another seat's, hand's or
        /// game's view when `view_into` overwrites it (the referee reuses one like this).
        static REUSED: std::cell::RefCell<tarneeb_referee::rules::View> =
            std::cell::RefCell::new(tarneeb_referee::rules::View::empty());
    }
    let h = game.hand();
    for s in Seat::ALL {
        let v = game.view(s);
        let reused = REUSED.with_borrow_mut(|r| {
            game.view_into(s, r);
            r.clone()
        });
        prop_assert_eq!(&reused, &v, "view_into over an old view");
        prop_assert_eq!(v.seat, s);
        prop_assert_eq!(v.hand, h.held[s]);
        for o in Seat::ALL {
            prop_assert_eq!(v.cards_left[o], h.held[o].len());
        }
        let text = serde_json::to_string(&v).expect("a view serializes");
        prop_assert!(
            !text.contains('\\'),
            "no escapes expected in a view: {}",
            text
        );
        // The string tokens of the JSON text (keys and values) are the odd pieces between
        // quotes. Calls like "7C" (seven clubs) read like cards: those under "call" and "bid"
        // must be calls, and are left out of the card search.
        let mut shown = CardSet::EMPTY;
        let mut key = "";
        for token in text.split('"').skip(1).step_by(2) {
            if key == "call" || key == "bid" {
                prop_assert!(Move::parse(DecisionKind::Call, token).is_ok(), "{}", token);
            } else if let Some(c) = token
                .parse::<Card>()
                .ok()
                .filter(|c| c.to_string() == token)
            {
                shown.insert(c);
            }
            key = token;
        }
        let hidden = Seat::ALL
            .iter()
            .filter(|&&o| o != s)
            .fold(CardSet::EMPTY, |acc, &o| acc.union(h.held[o]));
        prop_assert!(
            shown.intersect(hidden).is_empty(),
            "seat {}'s view shows other seats' unplayed cards {}: {}",
            s,
            shown.intersect(hidden),
            text
        );
    }
    Ok(())
}

/// Property 3 at one decision: a sample of moves that are not legal now (other cards, other
/// calls, other kinds of move, the legal move from the wrong seat) is rejected and changes
/// nothing; every legal move applies to a copy of the game.
fn check_illegal(
    game: &mut Game,
    d: Decision,
    legal: &MoveList,
    universe: &[Move],
    rng: &mut Pcg64,
) -> TestResult {
    let before = format!("{game:?}");
    let right = legal.as_slice()[rng.gen_range(0..legal.len())];
    let mut tries: Vec<(Seat, Move)> = Seat::ALL
        .iter()
        .filter(|&&s| s != d.seat)
        .map(|&s| (s, right))
        .collect();
    let illegal: Vec<Move> = universe
        .iter()
        .copied()
        .filter(|m| !legal.contains(m))
        .collect();
    for _ in 0..10 {
        tries.push((d.seat, illegal[rng.gen_range(0..illegal.len())]));
    }
    if d.kind == DecisionKind::Play {
        // Held cards that may not be played (must follow suit, trump-first-lead).
        let held = game.hand().held[d.seat];
        tries.extend(
            held.minus(game.legal_cards())
                .iter()
                .take(3)
                .map(|c| (d.seat, Move::Play(c))),
        );
    }
    for (seat, mv) in tries {
        let millis = rng.gen_range(0..30_000);
        match game.apply_timed(seat, mv, millis) {
            Ok(_) => prop_assert!(
                false,
                "seat {seat} could make illegal move {mv} ({mv:?}); decision {d:?}, legal {legal:?}"
            ),
            Err(e) => {
                prop_assert_eq!(e.seat, seat);
                if seat != d.seat {
                    prop_assert_eq!(e.reason, IllegalReason::NotYourTurn(d.seat));
                } else if mv.kind() != d.kind {
                    prop_assert_eq!(e.reason, IllegalReason::WrongDecision(d.kind));
                }
            }
        }
        prop_assert_eq!(
            &format!("{game:?}"),
            &before,
            "rejected {} changed the game",
            mv
        );
    }
    for &mv in legal.iter() {
        let mut copy = game.clone();
        let r = copy.apply_timed(d.seat, mv, rng.gen_range(0..30_000));
        prop_assert!(r.is_ok(), "legal move {} rejected: {:?}", mv, r);
    }
    Ok(())
}

/// Every move is rejected while no decision is due (before a deal, after the end).
fn check_all_rejected(game: &mut Game, universe: &[Move], reason: IllegalReason) -> TestResult {
    let before = format!("{game:?}");
    for &mv in universe.iter().step_by(7) {
        for s in Seat::ALL {
            match game.apply(s, mv) {
                Ok(_) => prop_assert!(false, "{mv} accepted with no decision due"),
                Err(e) => prop_assert_eq!(&e.reason, &reason),
            }
        }
    }
    prop_assert_eq!(format!("{game:?}"), before);
    Ok(())
}

/// Whether `seat` may be asked to throw in now under the rules (docs/rules.md#throw-in-asking).
fn check_throw_in_offer(game: &Game, d: Decision) -> TestResult {
    if d.kind != DecisionKind::ThrowIn {
        return Ok(());
    }
    let c = game.rules().contract.as_ref();
    prop_assert!(c.is_some(), "throw-in offered in an individual game");
    let c = c.expect("checked");
    let hand = game.hand().dealt[d.seat];
    prop_assert!(
        (c.throw_in_weak_hand && is_weak(hand)) || (c.throw_in_long_suit && is_long(hand)),
        "seat {} may not throw in {}",
        d.seat,
        hand
    );
    Ok(())
}

/// Plays one whole game from `seed`, checking as it goes; returns the finished game.
fn play(rules: &Rules, seed: u64, checks: Checks) -> TestResult<Game> {
    let universe = all_moves();
    let mut deals = DealSource::from_seed(seed);
    let first = deals.first_dealer();
    let mut game = Game::new(rules.clone(), first);
    let mut rng = Pcg64::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15);
    let slow_play = rules.individual.as_ref().and_then(|i| i.slow_play);
    let mut expected_dealer = first;
    let mut hands_ended = 0u32;
    let mut strikes = [0u8; 4];
    // Seats asked whether they throw in this hand, and whether that list was checked.
    let mut asked: Vec<Seat> = Vec::new();
    let mut asked_checked = false;
    // Our own running scores, from the hand results.
    let mut team_scores = ByTeam([0i32; 2]);
    let mut seat_scores = BySeat([0i32; 4]);
    let step_limit = u64::from(rules.max_hands) * 500;
    let mut steps = 0u64;
    while !game.is_over() {
        steps += 1;
        prop_assert!(steps < step_limit, "no end after {} steps", steps);
        if game.needs_deal() {
            prop_assert_eq!(game.decision(), None);
            prop_assert!(game.legal_moves().is_empty());
            prop_assert_eq!(game.dealer(), expected_dealer);
            prop_assert!(hands_ended < rules.max_hands, "a deal after the hand cap");
            if checks.illegal && rng.gen_ratio(1, 4) {
                check_all_rejected(&mut game, &universe, IllegalReason::NeedsDeal)?;
            }
            let mut deal = deals.next_deal();
            if checks.rig && rng.gen_ratio(1, 4) {
                deal = rig(deal, rules, &mut rng);
            }
            game.deal(deal);
            let h = game.hand();
            prop_assert_eq!(h.dealt, deal.hands());
            prop_assert_eq!(h.held, deal.hands());
            prop_assert_eq!(h.dealer, expected_dealer);
            prop_assert_eq!(h.number, hands_ended + 1);
            prop_assert_eq!(game.hands_dealt(), hands_ended + 1);
            strikes = [0; 4];
            asked.clear();
            asked_checked = false;
            continue;
        }
        let d = game.decision().expect("a decision while the game is on");
        let legal = game.legal_moves();
        prop_assert!(!legal.is_empty(), "no legal move for {:?}", d);
        for (k, m) in legal.iter().enumerate() {
            prop_assert_eq!(m.kind(), d.kind);
            prop_assert!(!legal.as_slice()[..k].contains(m), "{} listed twice", m);
        }
        if d.kind == DecisionKind::Play {
            prop_assert_eq!(d.seat, game.hand().trick.to_play());
        }
        check_throw_in_offer(&game, d)?;
        if d.kind == DecisionKind::ThrowIn {
            asked.push(d.seat);
        } else if !asked_checked {
            // Asked one seat at a time in playing order from dealer + 1, and only seats whose hand
            // qualifies (docs/rules.md#throw-in-asking).
            asked_checked = true;
            let h = game.hand();
            let qualifying: Vec<Seat> = match &rules.contract {
                Some(c) => (1..=4)
                    .map(|k| h.dealer.plus(k))
                    .filter(|&s| {
                        (c.throw_in_weak_hand && is_weak(h.dealt[s]))
                            || (c.throw_in_long_suit && is_long(h.dealt[s]))
                    })
                    .collect(),
                None => Vec::new(),
            };
            prop_assert_eq!(&asked, &qualifying, "throw-in questions");
        }
        if checks.illegal {
            check_legal_list(&game, d, &legal)?;
        }
        if checks.cards {
            check_cards(&game)?;
        }
        if checks.views {
            check_views(&game)?;
        }
        if checks.illegal && rng.gen_ratio(1, 6) {
            check_illegal(&mut game, d, &legal, &universe, &mut rng)?;
        }

        let mv = choose(&game, d, &legal, &mut rng);
        let millis = match (rng.gen_range(0..16), slow_play) {
            // Right at the ten-second limit and just over it: "longer than 10 s" is a strike.
            (0, Some(sp)) => sp.limit_ms + rng.gen_range(0..2),
            (1 | 2, _) => rng.gen_range(0..30_000),
            _ => rng.gen_range(0..3_000),
        };
        let team_before = game.team_scores();
        let seat_before = game.seat_scores();
        let applied = match game.apply_timed(d.seat, mv, millis) {
            Ok(a) => a,
            Err(e) => {
                prop_assert!(false, "legal move {mv} rejected: {e}");
                unreachable!()
            }
        };
        if let (Move::Play(_), Some(sp)) = (mv, slow_play) {
            // "a play that takes longer than 10 s is a strike"
            if millis > sp.limit_ms {
                strikes[d.seat.index()] += 1;
            }
        }
        if let (true, Move::Call(_), Some(c)) = (checks.illegal, mv, &rules.contract) {
            check_after_call(&game, c, applied.hand.as_ref())?;
        }
        prop_assert_eq!(
            applied.game.is_some(),
            game.is_over(),
            "Applied.game and is_over disagree"
        );
        let Some(result) = applied.hand else {
            prop_assert!(applied.game.is_none(), "a game ended mid-hand");
            continue;
        };

        // The end of a hand.
        hands_ended += 1;
        prop_assert_eq!(result.number, hands_ended);
        prop_assert_eq!(result.dealer, expected_dealer);
        let dealer = expected_dealer;
        match result.end {
            HandEnd::Played => {
                let won = if checks.cards || checks.scores {
                    Some(check_played_hand(&game)?)
                } else {
                    None
                };
                if let (true, Some(won)) = (checks.scores, won) {
                    match (&rules.contract, &rules.individual) {
                        (Some(c), _) => check_contract_score(&game, c, &result, won, team_before)?,
                        (None, Some(i)) => {
                            check_individual_score(&game, i, &result, won, strikes)?;
                            let (sum, needed) = bid_sum(i, &game, seat_before);
                            prop_assert!(sum >= needed, "played with bids {} < {}", sum, needed);
                        }
                        (None, None) => unreachable!(),
                    }
                }
                // "After each hand the deal passes to the next seat in playing order"
                expected_dealer = dealer.next();
            }
            HandEnd::AllPassed { same_dealer } => {
                let c = game.rules().contract.as_ref();
                prop_assert!(c.is_some(), "all passed in an individual game");
                let c = c.expect("checked");
                prop_assert!(game
                    .hand()
                    .auction
                    .calls
                    .iter()
                    .all(|(_, call)| *call == Call::Pass));
                // docs/rules.md#contract-all-pass: the same dealer redeals, or the next one.
                prop_assert_eq!(same_dealer, c.all_pass == Redeal::SameDealer);
                expected_dealer = if same_dealer { dealer } else { dealer.next() };
            }
            HandEnd::ThrownIn { seat, reason } => {
                let c = game.rules().contract.as_ref().expect("a contract game");
                let hand = game.hand().dealt[seat];
                expected_dealer = match reason {
                    // "weak-hand ... the player may throw in, next dealer deals"
                    ThrowInReason::WeakHand => {
                        prop_assert!(c.throw_in_weak_hand && is_weak(hand), "{}", hand);
                        dealer.next()
                    }
                    // "long-suit ... pass, bid 13 or throw in, same dealer"
                    ThrowInReason::LongSuit => {
                        prop_assert!(c.throw_in_long_suit && is_long(hand), "{}", hand);
                        dealer
                    }
                };
            }
            HandEnd::BidSumTooLow { sum, needed } => {
                let i = game.rules().individual.as_ref();
                prop_assert!(i.is_some(), "bid sum in a contract game");
                let expected = bid_sum(i.expect("checked"), &game, seat_before);
                prop_assert_eq!((sum, needed), expected);
                prop_assert!(sum < needed);
                // "otherwise the hand is thrown in without score and the next dealer deals"
                expected_dealer = dealer.next();
            }
        }
        if result.end != HandEnd::Played {
            prop_assert_eq!(result.team_delta.0, [0; 2]);
            prop_assert_eq!(result.seat_delta.0, [0; 4]);
            prop_assert_eq!(result.instant_winner, None);
        }
        for t in Team::ALL {
            team_scores[t] += result.team_delta[t];
        }
        for s in Seat::ALL {
            seat_scores[s] += result.seat_delta[s];
        }
        prop_assert_eq!(game.team_scores(), team_scores);
        prop_assert_eq!(game.seat_scores(), seat_scores);

        // Property 1: the game ends exactly when docs/rules.md says, with its winner.
        let totals = match rules.contract {
            Some(_) => team_scores,
            None => ByTeam(Team::ALL.map(|t| t.seats().iter().map(|&s| seat_scores[s]).sum())),
        };
        prop_assert_eq!(game.team_totals(), totals);
        let expected = if let Some(t) = result.instant_winner {
            Some((Some(t), EndReason::Instant))
        } else if let Some(t) = expected_winner(rules, team_scores, seat_scores) {
            Some((Some(t), EndReason::Target))
        } else if hands_ended >= rules.max_hands {
            // "At the cap the game ends; the partnership with the higher score (in 400/41 the
            // higher total) wins, equal scores are a draw"
            let [a, b] = totals.0;
            let winner = match a.cmp(&b) {
                std::cmp::Ordering::Greater => Some(Team::T0),
                std::cmp::Ordering::Less => Some(Team::T1),
                std::cmp::Ordering::Equal => None,
            };
            Some((winner, EndReason::HandCap))
        } else {
            None
        };
        let got = applied.game.map(|g| (g.winner, g.reason));
        prop_assert_eq!(
            got,
            expected,
            "hand {}: scores {:?} / {:?}",
            hands_ended,
            team_scores,
            seat_scores
        );
        if let Some(g) = applied.game {
            prop_assert_eq!(g.hands, hands_ended);
        } else {
            prop_assert!(game.needs_deal());
        }
    }
    let r = game.result();
    prop_assert!(r.is_some(), "a finished game has a result");
    let r = r.expect("checked");
    prop_assert!(r.hands <= rules.max_hands);
    prop_assert_eq!(r.hands, hands_ended);
    prop_assert_eq!(r.hands, game.hands_dealt());
    prop_assert_eq!(game.decision(), None);
    prop_assert!(game.legal_moves().is_empty());
    if checks.illegal {
        check_all_rejected(&mut game, &universe, IllegalReason::GameOver)?;
    }
    if checks.views {
        check_views(&game)?;
    }
    Ok(game)
}

// ---------------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(64))]

    /// Property 1: every game ends within `max-hands` deals, with the result docs/rules.md's
    /// target, instant-win and hand-cap rules give; the deal rotates as it says.
    #[test]
    fn every_game_ends_within_max_hands(rules in any_rules(), seed in any::<u64>()) {
        let game = play(&rules, seed, Checks::default())?;
        let r = game.result().expect("a result");
        prop_assert!(r.hands >= 1 && r.hands <= rules.max_hands);
    }

    /// Property 2: at every decision the 52 cards are all accounted for, and every played
    /// hand is 13 legal tricks.
    #[test]
    fn every_hand_conserves_the_cards(rules in any_rules(), seed in any::<u64>()) {
        play(&rules, seed, Checks { cards: true, ..Checks::default() })?;
    }

    /// Property 3: legal moves apply; moves that are not legal are rejected and change nothing.
    #[test]
    fn only_legal_moves_apply(rules in any_rules(), seed in any::<u64>()) {
        play(&rules, seed, Checks { illegal: true, ..Checks::default() })?;
    }

    /// Property 4: every scored hand moves the scores as docs/rules.md's tables say.
    #[test]
    fn scores_match_the_tables(rules in any_rules(), seed in any::<u64>()) {
        play(&rules, seed, Checks { scores: true, rig: true, ..Checks::default() })?;
    }

}

proptest! {
    // Four views serialized at every decision make this the slowest property: fewer games.
    #![proptest_config(config(32))]

    /// Property 5: no view shows another seat's unplayed card; each shows the seat's own hand.
    #[test]
    fn views_hide_other_hands(rules in any_rules(), seed in any::<u64>()) {
        play(&rules, seed, Checks { views: true, ..Checks::default() })?;
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Cards and moves read back from their text; rules read back from their JSON.
    #[test]
    fn text_and_json_round_trip(
        index in 0u8..52,
        move_index in 0usize..140,
        rules in any_rules(),
    ) {
        let card = Card::from_index(index).expect("0..52");
        let text = card.to_string();
        prop_assert_eq!(text.len(), 2);
        prop_assert_eq!(text.parse::<Card>().ok(), Some(card));
        prop_assert_eq!(text.to_ascii_lowercase().parse::<Card>().ok(), Some(card));
        prop_assert_eq!(serde_json::to_string(&card).ok(), Some(format!("\"{text}\"")));

        let moves = all_moves();
        prop_assert_eq!(moves.len(), 140);
        let m = moves[move_index];
        prop_assert_eq!(Move::parse(m.kind(), &m.to_string()), Ok(m));

        let value = serde_json::to_value(&rules).expect("rules serialize");
        let back: Rules = serde_json::from_value(value.clone()).expect("rules deserialize");
        prop_assert_eq!(&back, &rules);
        prop_assert_eq!(serde_json::to_value(&back).expect("serialize"), value);
        let text = serde_json::to_string(&rules).expect("rules serialize");
        prop_assert_eq!(serde_json::from_str::<Rules>(&text).ok(), Some(rules));
    }
}

/// The score oracle itself against the worked examples of docs/rules.md#doubled-scoring and
/// docs/rules.md#contract-kaboot.
#[test]
fn score_oracle_matches_the_brief_examples() {
    let egyptian = Rules::egyptian();
    let c = egyptian.contract.as_ref().expect("contract rules");
    // 10H doubled, 11 tricks: +22; 8 tricks: -20 and defenders +5; 13 tricks: +32
    assert_eq!(expected_contract_score(c, 10, 2, 11, 0), (22, 0, false));
    assert_eq!(expected_contract_score(c, 10, 2, 8, 0), (-20, 5, false));
    assert_eq!(expected_contract_score(c, 10, 2, 13, 0), (32, 0, false));
    let classic = Rules::classic();
    let c = classic.contract.as_ref().expect("contract rules");
    assert_eq!(expected_contract_score(c, 13, 1, 13, 0), (26, 0, false));
    assert_eq!(expected_contract_score(c, 13, 1, 10, 0), (-16, 6, false));
    assert_eq!(expected_contract_score(c, 8, 1, 13, 0), (16, 0, false));
    // docs/rules.md#thirteen-tricks-declarers-only: defenders who take all 13 tricks of a failed
    // contract score 13 (26 when the bid was 13)
    assert_eq!(expected_contract_score(c, 7, 1, 0, 0), (-7, 13, false));
    assert_eq!(expected_contract_score(c, 13, 1, 0, 0), (-16, 26, false));
    let four = Rules::four_hundred();
    let i = four.individual.as_ref().expect("individual rules");
    let (delta, win) =
        expected_individual_score(i, [5, 2, 9, 3], [5, 1, 4, 3], [false, false, false, true]);
    assert_eq!((delta, win), ([10, -2, -27, 0], None));
    let (_, win) = expected_individual_score(i, [13, 2, 2, 2], [12, 1, 0, 0], [false; 4]);
    assert_eq!(win, Some(Team::T1));
}
