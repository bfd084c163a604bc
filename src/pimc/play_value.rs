//! What a card is worth in points rather than tricks. A side does not want tricks, it wants the
//! hand's score: the declaring side of classic and Egyptian wants its contract made and the
//! defenders want it set (docs/rules.md#contract-scoring: made, the declarers score the tricks they
//! won; failed, they lose their bid and the defenders score theirs), and in 400 and Forty-One each
//! player wants his own bid (docs/rules.md#individual-scoring: made, plus the table value of the
//! bid; fewer, minus it; tricks beyond the bid are worth nothing). So the card play weighs each
//! sampled deal's double-dummy tricks by the score they bring, and falls back on tricks only to
//! break ties.

use super::bid_value::contract_diff;
use super::match_end::{game_worth, totals, Horizon};
use super::wire::ViewIn;
use crate::rules::score::{contract_score, contract_winner, individual_score, individual_winner};
use crate::rules::{BySeat, ByTeam, Call, DecisionKind, Level, Move, Rules, Seat};

/// My side's score minus the other side's for each count of tricks my side ends the hand
/// with (index 0 to 13); `None` where the view does not say enough (no contract yet, a bid
/// that cannot be read), and the play then counts tricks.
pub type Worth = [f64; 14];

/// [`Worth`] for the hand in `view`, the lead near the cap counted as a chance of being ahead
/// at it if `equity` (`bot pimc --cap-equity`, [`Horizon`]).
pub fn worth(rules: &Rules, view: &ViewIn, equity: bool) -> Option<Worth> {
    let horizon = Horizon::new(rules, view.hand_number, equity);
    if let Some(c) = &rules.contract {
        let contract = view.contract.as_ref()?;
        let level = match Move::parse(DecisionKind::Call, contract.bid.as_deref()?) {
            Ok(Move::Call(Call::Bid(b))) => b.level,
            _ => return None,
        };
        let multiplier = contract.multiplier.unwrap_or(1);
        let ours = contract.declarer.team() == view.seat.team();
        let before = view
            .team_scores
            .map_or(0, |s| s[contract.declarer.team().index()]);
        let mut w = [0.0; 14];
        for (t, v) in w.iter_mut().enumerate() {
            let t = t as u8;
            let declarers = if ours { t } else { 13 - t };
            let d = contract_diff(c, level, multiplier, declarers, before);
            // The match: a hand that takes a side to the target wins the game.
            let end = view.team_scores.map_or(0.0, |scores| {
                let s = contract_score(c, level, multiplier, declarers, before);
                let team = contract.declarer.team();
                let mut after = ByTeam(scores);
                after[team] += s.declarers;
                after[team.other()] += s.defenders;
                if s.instant_win {
                    return 0.0;
                }
                let by_target = contract_winner(rules.target, after);
                horizon.worth(by_target, after, team)
            });
            *v = if ours { d + end } else { -(d + end) };
        }
        return Some(w);
    }
    let ind = rules.individual.as_ref()?;
    let bids = bids_of(view)?;
    let won = BySeat(view.tricks_won);
    let me = view.seat;
    let mut w = [0.0; 14];
    let ours_won = won[me] + won[me.partner()];
    let theirs_won = won[me.next()] + won[me.next().partner()];
    let left = 13u8.checked_sub(ours_won + theirs_won)?;
    for (t, v) in w.iter_mut().enumerate() {
        let t = t as u8;
        let Some(mine) = t.checked_sub(ours_won).filter(|&m| m <= left) else {
            continue;
        };
        let mut tricks = won;
        share(&mut tricks, &bids, me, mine);
        share(&mut tricks, &bids, me.next(), left - mine);
        let s = individual_score(ind, bids, tricks, BySeat([false; 4]));
        // The match: a hand after which a partnership has won the game (400's partner rule
        // included, docs/rules.md#individual-partner: 41 or more with a positive partner), or the
        // last hand's leader; near the cap, the lead as a chance of being ahead at it.
        let d = &s.delta;
        let points = f64::from(d[me] + d[me.partner()] - d[me.next()] - d[me.next().partner()]);
        *v = match s.instant_winner {
            Some(team) => game_worth(Some(team), me.team()),
            None => {
                let game = view.seat_scores.map_or(0.0, |scores| {
                    let mut after = BySeat(scores);
                    Seat::ALL.into_iter().for_each(|x| after[x] += d[x]);
                    let by_target = individual_winner(ind, rules.target, after);
                    horizon.worth(by_target, totals(after), me.team())
                });
                points + game
            }
        };
    }
    Some(w)
}

/// Each seat's bid, from the auction (400 and Forty-One: every player bids once).
fn bids_of(view: &ViewIn) -> Option<BySeat<Level>> {
    let mut bids: BySeat<Option<Level>> = BySeat([None; 4]);
    for c in &view.auction {
        if let Ok(Move::Call(Call::Bid(b))) = Move::parse(DecisionKind::Call, &c.call) {
            bids[c.seat] = Some(b.level);
        }
    }
    let [a, b, c, d] = bids.0;
    Some(BySeat([a?, b?, c?, d?]))
}

/// Hands a side's `more` tricks to its two players as best serves them: first to the player
/// whose bid needs fewer to be made, then to the other, the rest to `seat`. Double-dummy
/// solving counts a side's tricks, not whose they are; this assumes the partners can steer
/// them where the bids need them.
fn share(tricks: &mut BySeat<u8>, bids: &BySeat<Level>, seat: Seat, more: u8) {
    let need = |s: Seat, t: &BySeat<u8>| bids[s].get().saturating_sub(t[s]);
    let (a, b) = (seat, seat.partner());
    let (first, second) = if need(b, tricks) < need(a, tricks) {
        (b, a)
    } else {
        (a, b)
    };
    let mut more = more;
    for s in [first, second] {
        let give = need(s, tricks).min(more);
        tricks[s] += give;
        more -= give;
    }
    tricks[seat] += more;
}

/// Deals solved before the sampling may stop on the statistical test of [`Tally::settled`]
/// (the hard bound applies from the first).
pub const MIN_SETTLE: usize = 12;

/// Deals in which two cards must have brought exactly the same in every one before they are
/// taken as equivalent (touching cards, small cards of a suit that cannot matter).
pub const SAME_SETTLE: usize = 24;

/// The one-sided normal quantile of the stopping test: the leader's mean lead over a card, less
/// this many standard errors, must be above zero (2.5: a chance below 1% for each card).
pub const SETTLE_Z: f64 = 2.5;

/// The score and tricks of each legal card summed over the sampled deals, and the card to play.
#[derive(Clone, Debug)]
pub struct Tally {
    worth: Option<Worth>,
    /// My side's tricks already won this hand (the trick on the table not included).
    won: u8,
    pub score: Vec<f64>,
    pub tricks: Vec<u32>,
    /// Each deal's value of each card, as [`Tally::best`] ranks them (score, then tricks a
    /// thousandth of a point each): what the stopping test compares.
    per_deal: Vec<Vec<f64>>,
}

impl Tally {
    pub fn new(worth: Option<Worth>, won: u8, cards: usize) -> Tally {
        Tally {
            worth,
            won,
            score: vec![0.0; cards],
            tricks: vec![0; cards],
            per_deal: Vec::new(),
        }
    }

    /// One deal's value of a card that took `v` tricks for my side, as [`Tally::best`] ranks.
    pub fn value(&self, v: u8) -> f64 {
        match &self.worth {
            Some(w) => w[usize::from((self.won + v).min(13))] + f64::from(v) * 1e-3,
            None => f64::from(v),
        }
    }

    /// The most one deal can move one card's value against another's.
    fn span(&self) -> f64 {
        match &self.worth {
            Some(w) => {
                let top = w.iter().copied().fold(f64::MIN, f64::max);
                let bottom = w.iter().copied().fold(f64::MAX, f64::min);
                top - bottom + 13e-3
            }
            None => 13.0,
        }
    }

    /// Whether more deals can no longer change the card played, or are very unlikely to:
    /// against every other card the leader ([`Tally::best`]) is settled when its lead exceeds
    /// what `more` deals could overturn (each moving a card by [`Tally::span`] at most), or,
    /// after [`MIN_SETTLE`] deals, when its mean lead per deal is more than [`SETTLE_Z`]
    /// standard errors above zero (paired over the same deals), or, after [`SAME_SETTLE`]
    /// deals, when the two brought exactly the same in every deal.
    pub fn settled(&self, more: usize) -> bool {
        let Some(lead) = self.best() else {
            return true;
        };
        let n = self.per_deal.len();
        let bound = more as f64 * self.span();
        (0..self.tricks.len()).filter(|&i| i != lead).all(|i| {
            let d: Vec<f64> = self.per_deal.iter().map(|r| r[lead] - r[i]).collect();
            let sum: f64 = d.iter().sum();
            if sum > bound {
                return true;
            }
            if n < MIN_SETTLE {
                return false;
            }
            if d.iter().all(|&x| x == 0.0) {
                return n >= SAME_SETTLE;
            }
            let mean = sum / n as f64;
            let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            mean - SETTLE_Z * (var / n as f64).sqrt() > 0.0
        })
    }

    /// One deal: each card's double-dummy tricks for my side from here.
    pub fn add(&mut self, values: impl IntoIterator<Item = u8>) {
        let mut row = vec![0.0; self.tricks.len()];
        for (i, v) in values.into_iter().enumerate().take(self.tricks.len()) {
            self.tricks[i] += u32::from(v);
            if let Some(w) = &self.worth {
                self.score[i] += w[usize::from((self.won + v).min(13))];
            }
            row[i] = self.value(v);
        }
        self.per_deal.push(row);
    }

    /// The card with the best total score, then the most tricks, then the first.
    pub fn best(&self) -> Option<usize> {
        (0..self.tricks.len()).max_by(|&a, &b| {
            self.score[a]
                .total_cmp(&self.score[b])
                .then(self.tricks[a].cmp(&self.tricks[b]))
                .then(b.cmp(&a))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pimc::match_end::GAME;

    fn view(json: &str) -> ViewIn {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_declarer_short_of_the_contract_plays_for_making_it() {
        // docs/rules.md#contract-scoring: made, declarers score the tricks they won; failed,
        // declarers lose their bid and defenders score the tricks they won. The declaring side bid
        // 9 and has 6 tricks with 4 to play.
        let v = view(
            r#"{"seat":0,"dealer":3,"hand":[],"cards_left":[4,4,4,4],"tricks_won":[4,1,2,2],
                "contract":{"declarer":0,"bid":"9","multiplier":1},"team_scores":[0,0]}"#,
        );
        let w = worth(&Rules::classic(), &v, false).unwrap();
        assert_eq!((w[9], w[10], w[8]), (9.0, 10.0, -9.0 - 5.0));
        // Card 0 takes 3 more in every deal (9: made); card 1 takes 4 (10 tricks) in three
        // deals of four and 1 (7: down) in the fourth: more tricks in total, a worse score.
        let deals = [[3, 4], [3, 4], [3, 4], [3, 1]];
        let mut t = Tally::new(Some(w), 6, 2);
        deals.iter().for_each(|d| t.add(*d));
        assert!(t.tricks[1] > t.tricks[0]);
        assert_eq!(t.best(), Some(0));
        // Counting tricks alone (no worth) takes card 1.
        let mut by_tricks = Tally::new(None, 6, 2);
        deals.iter().for_each(|d| by_tricks.add(*d));
        assert_eq!(by_tricks.best(), Some(1));
    }

    #[test]
    fn sampling_stops_once_more_deals_cannot_change_the_card() {
        // Issue 28: "stopping when the ranking of the cards cannot change". Counting tricks
        // (no worth), 3 tricks against 1 in every deal: after 5 deals the lead of 10 exceeds
        // what 0 more deals could overturn, not what 1 more could (13 a deal).
        let mut t = Tally::new(None, 0, 2);
        (0..5).for_each(|_| t.add([1, 3]));
        assert_eq!(t.best(), Some(1));
        assert!(t.settled(0));
        assert!(!t.settled(1));
        // After MIN_SETTLE deals the same steady lead is settled however many could follow.
        (5..MIN_SETTLE).for_each(|_| t.add([1, 3]));
        assert!(t.settled(1_000_000));
        // A close race is not: the cards trade places deal by deal, the leader a deal ahead.
        let mut close = Tally::new(None, 0, 2);
        for i in 0..201 {
            close.add(if i % 2 == 0 { [3, 2] } else { [2, 3] });
        }
        assert!(!close.settled(1_000_000));
        // Cards that brought the same in every deal are equivalent after SAME_SETTLE deals.
        let mut same = Tally::new(None, 0, 3);
        (0..SAME_SETTLE - 1).for_each(|i| same.add([3, 3, (i % 3) as u8]));
        assert!(!same.settled(1_000_000));
        same.add([3, 3, 0]);
        assert!(same.settled(1_000_000));
        // The score ranks first: making the contract against a trick more (classic, bid 9,
        // 6 won, see the test above: 3 more make it, 4 more give one trick more).
        let w = worth(
            &Rules::classic(),
            &view(
                r#"{"seat":0,"dealer":3,"hand":[],"cards_left":[4,4,4,4],"tricks_won":[4,1,2,2],
                "contract":{"declarer":0,"bid":"9","multiplier":1}}"#,
            ),
            false,
        )
        .unwrap();
        let mut scored = Tally::new(Some(w), 6, 2);
        (0..MIN_SETTLE).for_each(|_| {
            scored.add([3, 4]);
            scored.add([3, 1]);
        });
        assert_eq!(scored.best(), Some(0));
        assert!(scored.settled(1_000_000));
    }

    #[test]
    fn a_hand_that_reaches_the_target_is_worth_the_game() {
        // docs/rules.md#target, docs/rules.md#target-check: 31, checked at the end of a hand. My
        // side (seats 0 and 2) has 25 and declares 7: making it (7 tricks) takes us to 32 and wins.
        let json = |scores: &str| {
            format!(
                r#"{{"seat":0,"dealer":3,"hand":[],"cards_left":[4,4,4,4],"tricks_won":[4,1,2,2],
                "contract":{{"declarer":0,"bid":"7","multiplier":1}},"team_scores":{scores}}}"#
            )
        };
        let near = worth(&Rules::classic(), &view(&json("[25,0]")), false).unwrap();
        let far = worth(&Rules::classic(), &view(&json("[0,0]")), false).unwrap();
        assert_eq!((far[7], near[7]), (7.0, 7.0 + GAME));
        // Set, the defenders score 7 (at 0: no win); a defending side at 28 wins with them.
        assert_eq!(near[6], -7.0 - 7.0);
        let theirs = worth(&Rules::classic(), &view(&json("[0,28]")), false).unwrap();
        assert_eq!(theirs[6], -7.0 - 7.0 - GAME);
        // docs/rules.md#individual-partner: 41 or more wins with a positive partner. Seat 0 has 38
        // and bid 3 (table value 3); every other seat bid 2 and has 2 tricks, 3 are left.
        let four = |scores: &str| {
            view(&format!(
                r#"{{"seat":0,"dealer":3,"hand":[],"cards_left":[3,3,3,3],"tricks_won":[1,2,5,2],
                "auction":[{{"seat":0,"call":"3"}},{{"seat":1,"call":"2"}},
                           {{"seat":2,"call":"2"}},{{"seat":3,"call":"2"}}],
                "seat_scores":{scores}}}"#
            ))
        };
        // Two more tricks make seat 0's 3: 41 with a partner at 4 (6 after its made 2) wins;
        // with a partner at -5 (-3 after) it does not (the hand's points the same in both).
        let positive = worth(&Rules::four_hundred(), &four("[38,0,4,0]"), false).unwrap();
        let zero = worth(&Rules::four_hundred(), &four("[38,0,-5,0]"), false).unwrap();
        assert_eq!(positive[8] - zero[8], GAME);
        assert!(zero[8] < GAME / 2.0, "{}", zero[8]);
    }

    #[test]
    fn defenders_play_to_set_the_contract() {
        // The same hand from a defender's seat: the declarers need 3 of the last 4 tricks.
        // Card 0 gives my side 1 in every deal (the declarers make 9); card 1 gives 0 or 2
        // (the declarers take 10, or 8: set, they lose 9 and we score our 5), the same tricks
        // on average and a better score.
        let v = view(
            r#"{"seat":1,"dealer":3,"hand":[],"cards_left":[4,4,4,4],"tricks_won":[4,1,2,2],
                "contract":{"declarer":0,"bid":"9","multiplier":1}}"#,
        );
        let w = worth(&Rules::classic(), &v, false).unwrap();
        assert_eq!((w[4], w[3], w[5]), (-9.0, -10.0, 14.0));
        let mut t = Tally::new(Some(w), 3, 2);
        [[1, 0], [1, 2], [1, 0], [1, 2]]
            .iter()
            .for_each(|d| t.add(*d));
        assert_eq!(t.tricks[0], t.tricks[1]);
        assert_eq!(t.best(), Some(1));
    }

    #[test]
    fn individual_bids_need_their_own_tricks_not_more() {
        // docs/rules.md#individual-scoring: made, plus the table value of the bid; else minus (2:2,
        // 4:4, 5:10). Seat 0 bid 5 and has 4, its partner bid 4 and has 4; seat 1 bid 2 and has 0,
        // seat 3 bid 2 and has 2. Three tricks are left.
        let v_json = r#"{"seat":0,"dealer":3,"hand":[],"cards_left":[3,3,3,3],"tricks_won":[4,0,4,2],
                "auction":[{"seat":0,"call":"5"},{"seat":1,"call":"2"},
                           {"seat":2,"call":"4"},{"seat":3,"call":"2"}]}"#;
        let v = view(v_json);
        let w = worth(&Rules::four_hundred(), &v, false).unwrap();
        // No more tricks: seat 0 fails (-10), seat 2 makes (+4), both opponents make (-4).
        assert_eq!(w[8], -10.0);
        // One more makes seat 0's bid: 14 - 4.
        assert_eq!(w[9], 10.0);
        // A second one sets seat 1 (it then has 1 of its 2): 14 - 0.
        assert_eq!(w[10], 14.0);
        // A third is worth nothing more.
        assert_eq!(w[11], 14.0);
        // The tricks go where a bid needs them, whichever partner asks: seat 2 sees the same.
        let v2 = view(&v_json.replace(r#""seat":0,"dealer""#, r#""seat":2,"dealer""#));
        assert_eq!(worth(&Rules::four_hundred(), &v2, false).unwrap(), w);
    }
}
