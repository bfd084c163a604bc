//! Hand scoring and game-end tests, as pure functions of the numbers involved, kept apart
//! from the state machine so each rule can be checked against the rule texts on its own.

use super::bid::Level;
use super::options::{
    BothReach, ContractRules, IndividualRules, Kaboot, PartnerRule, Renege, Thirteen,
};
use super::seat::{BySeat, ByTeam, Seat, Team};

/// What a contract hand is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContractScore {
    pub declarers: i32,
    pub defenders: i32,
    /// The declaring side took all 13 tricks under `kaboot: instant-win`: they win the game.
    pub instant_win: bool,
}

/// Scores a contract hand (docs/rules.md#contract-scoring, docs/rules.md#doubled-scoring).
///
/// `multiplier` is 1, 2 or 4 (undoubled, doubled, redoubled); `declarers_before` is the
/// declaring team's score before the hand, which `instant-win-not-when-negative` looks at.
pub fn contract_score(
    rules: &ContractRules,
    level: Level,
    multiplier: i32,
    declarer_tricks: u8,
    declarers_before: i32,
) -> ContractScore {
    let level = i32::from(level.get());
    let won = i32::from(declarer_tricks);
    let lost = 13 - won;
    let made = won >= level;
    let instant_win = rules.kaboot == Kaboot::InstantWin
        && won == 13
        && (!rules.instant_win_only_bid_13 || level == 13)
        && !(rules.instant_win_not_when_negative && declarers_before < 0);
    let (mut declarers, mut defenders) = match (rules.kaboot, made) {
        // docs/rules.md#contract-kaboot (bonus): a made 13 scores 26; a failed 13 costs 16 and
        // the defenders score double.
        (Kaboot::Bonus, true) if level == 13 => (26, 0),
        (Kaboot::Bonus, false) if level == 13 => (-16, 2 * lost),
        // All 13 tricks on a bid under 13 score 16 (docs/rules.md#contract-kaboot).
        (Kaboot::Bonus, true) if won == 13 => (16, 0),
        (_, true) => (won, 0),
        (_, false) => (-level, lost),
    };
    declarers *= multiplier;
    if rules.defenders_multiplied {
        defenders *= multiplier;
    }
    ContractScore {
        declarers,
        defenders,
        instant_win,
    }
}

/// What an individual-bid hand is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndividualScore {
    pub delta: BySeat<i32>,
    /// A bid of 13 decided the game (made: that partnership wins; failed: the other one).
    pub instant_winner: Option<Team>,
}

/// Scores a hand of 400 or Forty-One (docs/rules.md#individual-scoring).
///
/// A player who reneged under the ten-second rule gains nothing from the hand: under
/// [`Renege::Penalty`] (docs/rules.md#individual-slow-play: a renege never helps)
/// a made bid scores nothing and a made 13 wins nothing, while a failed bid still costs its
/// value and a failed 13 still loses the game; under [`Renege::ScoresZero`] (the literal
/// reading) the bid scores and decides nothing either way.
pub fn individual_score(
    rules: &IndividualRules,
    bids: BySeat<Level>,
    tricks: BySeat<u8>,
    reneged: BySeat<bool>,
) -> IndividualScore {
    let renege = rules.slow_play.map_or(Renege::Penalty, |sp| sp.renege);
    let mut delta = BySeat([0; 4]);
    let mut made_13: Option<Team> = None;
    let mut failed_13 = ByTeam([false; 2]);
    for seat in Seat::ALL {
        let bid = bids[seat];
        let made = tricks[seat] >= bid.get();
        if reneged[seat] && (made || renege == Renege::ScoresZero) {
            continue;
        }
        if bid.get() == 13 && rules.thirteen == Thirteen::Instant {
            if made {
                made_13 = Some(seat.team());
            } else {
                failed_13[seat.team()] = true;
            }
            continue;
        }
        let points = rules.points.get(bid).unwrap_or(0);
        delta[seat] = if made { points } else { -points };
    }
    let instant_winner = match (made_13, failed_13.0) {
        (Some(team), _) => Some(team),
        (None, [true, false]) => Some(Team::T1),
        (None, [false, true]) => Some(Team::T0),
        // Failed 13s in both partnerships cancel; the hand is scored without them.
        _ => None,
    };
    IndividualScore {
        delta,
        instant_winner,
    }
}

/// The winner of a contract game at the end of a hand, if any: a team at or above the target
/// (docs/rules.md#target-check). Both there at once (possible only with
/// unusual options) goes to the higher score; equal scores play on.
pub fn contract_winner(target: i32, scores: ByTeam<i32>) -> Option<Team> {
    let [a, b] = scores.0;
    match (a >= target, b >= target) {
        (true, false) => Some(Team::T0),
        (false, true) => Some(Team::T1),
        (true, true) if a != b => Some(if a > b { Team::T0 } else { Team::T1 }),
        _ => None,
    }
}

/// The winner of a 400 or Forty-One game at the end of a hand, if any
/// (docs/rules.md#individual-partner, docs/rules.md#individual-both-reach-target).
pub fn individual_winner(
    rules: &IndividualRules,
    target: i32,
    scores: BySeat<i32>,
) -> Option<Team> {
    let partner_ok = |s: Seat| match rules.partner {
        PartnerRule::Positive => scores[s.partner()] > 0,
        PartnerRule::NonNegative => scores[s.partner()] >= 0,
    };
    let qualified = |at: i32| -> ByTeam<Option<i32>> {
        let mut best = ByTeam([None; 2]);
        for s in Seat::ALL {
            if scores[s] >= at && partner_ok(s) {
                let b = &mut best[s.team()];
                *b = Some(b.map_or(scores[s], |x: i32| x.max(scores[s])));
            }
        }
        best
    };
    let one = |q: ByTeam<Option<i32>>| match q.0 {
        [Some(_), None] => Some(Team::T0),
        [None, Some(_)] => Some(Team::T1),
        _ => None,
    };
    let at_target = qualified(target);
    if at_target.0.iter().any(Option::is_none) {
        return one(at_target);
    }
    match rules.both_reach_target {
        BothReach::HigherTotal => {
            let total = |t: Team| t.seats().iter().map(|&s| scores[s]).sum::<i32>();
            higher(total(Team::T0), total(Team::T1))
        }
        BothReach::PlayOn => {
            let top = qualified(rules.play_on_target);
            match top.0 {
                [Some(a), Some(b)] => higher(a, b),
                _ => one(top),
            }
        }
    }
}

fn higher(a: i32, b: i32) -> Option<Team> {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(Team::T0),
        std::cmp::Ordering::Less => Some(Team::T1),
        std::cmp::Ordering::Equal => None,
    }
}

/// The side ahead when the hand cap ends a game; `None` is a draw (docs/rules.md#max-hands).
pub fn leader_at_cap(totals: ByTeam<i32>) -> Option<Team> {
    higher(totals.0[0], totals.0[1])
}
