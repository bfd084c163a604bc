//! What the auction says about the hands the bot cannot see, as soft constraints on the deals it
//! samples. A bid is a promise of tricks (docs/rules.md#contract-bids: classic and Egyptian bids
//! are the side's tricks, 400 and Forty-One bids a player's own), so a bidder holds a hand that
//! makes about that many; a pass says the hand was too weak to bid the next level; an Egyptian
//! bid's strain is the trump the bidder wants, so it is long there. Hands are judged by a fast
//! high-card and length estimate (the one the C sample bot bids by), not by solving, so that many
//! candidate deals can be tried and the ones far from the auction turned down.

use crate::rules::{BidForm, Call, CardSet, DecisionKind, Move, Rank, Rules, Seat, Strain, Suit};

use super::wire::ViewIn;

/// The tricks a partner adds on average to a classic or Egyptian bidder's own (the sample
/// bots count about 3; a bid of `k` so says "my hand alone takes about k - 3").
const PARTNER_SHARE: f64 = 3.0;

/// One seat's call, read as a range of estimated tricks for its whole original hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clue {
    pub seat: Seat,
    /// The strain the hand is judged in: `None` means the seat's best suit.
    pub strain: Option<Strain>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// A suit the seat named as trump: it holds at least this many of it.
    pub long: Option<(Suit, u32)>,
}

impl Clue {
    /// How far (in estimated tricks, plus missing cards of a named suit) `hand` is from what
    /// the call says; 0 when it fits.
    pub fn distance(&self, hand: CardSet) -> f64 {
        let est = match self.strain {
            Some(s) => estimate(hand, s),
            None => Suit::ALL
                .into_iter()
                .map(|s| estimate(hand, Strain::Trump(s)))
                .fold(f64::MIN, f64::max),
        };
        let below = self.low.map_or(0.0, |l| (l - est).max(0.0));
        let above = self.high.map_or(0.0, |h| (est - h).max(0.0));
        let short = self.long.map_or(0.0, |(s, n)| {
            f64::from(n.saturating_sub(hand.count_suit(s)))
        });
        below + above + short
    }
}

/// Estimated tricks `hand` takes by itself in `strain`: honours by their company, trump length,
/// long side suits, and ruffing shortness when there are trumps to ruff with.
pub fn estimate(hand: CardSet, strain: Strain) -> f64 {
    let trump = strain.trump();
    let trump_len = trump.map_or(0, |t| hand.count_suit(t));
    let (mut total, mut shortness) = (0.0f64, 0.0f64);
    for s in Suit::ALL {
        let len = hand.count_suit(s);
        let has = |r| hand.has(r, s);
        let (a, k, q, j) = (
            has(Rank::Ace),
            has(Rank::King),
            has(Rank::Queen),
            has(Rank::Jack),
        );
        let is_trump = trump == Some(s);
        let mut t = 0.0;
        if a {
            t += 1.0;
        }
        if k {
            t += match (a, len >= 2, is_trump) {
                (true, _, _) => 1.0,
                (false, true, true) => 0.8,
                (false, true, false) => 0.6,
                (false, false, _) => 0.15,
            };
        }
        if q {
            t += if a && k {
                if len >= 3 || is_trump {
                    1.0
                } else {
                    0.5
                }
            } else if (a || k) && len >= 3 {
                0.5
            } else if len >= 3 {
                if is_trump {
                    0.4
                } else {
                    0.25
                }
            } else {
                0.1
            };
        }
        if j && len >= 4 && u8::from(a) + u8::from(k) + u8::from(q) >= 2 {
            t += 0.4;
        }
        if is_trump {
            t += f64::from(len.saturating_sub(3)) * 0.9;
        } else if trump.is_some() {
            t += f64::from(len.saturating_sub(4)) * 0.3;
            if trump_len >= 3 {
                shortness += match len {
                    0 => 1.0,
                    1 => 0.5,
                    2 => 0.2,
                    _ => 0.0,
                };
            }
        } else if len >= 5 && u8::from(a) + u8::from(k) + u8::from(q) >= 2 {
            t += f64::from(len - 4);
        }
        total += t;
    }
    if trump.is_some() {
        total += shortness.min((f64::from(trump_len) - 1.0).clamp(0.0, 2.0));
    }
    if strain == Strain::NoTrump {
        // No Trump bids ask for more: long suits run only with stoppers elsewhere.
        total -= 1.0;
    }
    total
}

/// The clues of every call in the view's auction by seats other than `view.seat` (its own
/// hand is known). Calls the bot cannot read say nothing.
pub fn clues(rules: &Rules, view: &ViewIn) -> Vec<Clue> {
    let me = view.seat;
    let mut out = Vec::new();
    if let Some(ind) = &rules.individual {
        let trump = Strain::Trump(ind.trump);
        let score = |s: Seat| view.seat_scores.map_or(0, |sc| sc[s.index()]);
        let top = view
            .seat_scores
            .map_or(0, |sc| sc.into_iter().max().unwrap_or(0));
        let need = i32::from(ind.bid_sum.at(top));
        let mut sum = 0i32;
        for (i, c) in view.auction.iter().enumerate() {
            let Some(level) = level_of(&c.call) else {
                continue;
            };
            let lowest = i32::from(ind.min_bid.at(score(c.seat)));
            // The last bidder may have been pushed up to reach the table's bid total.
            let forced = if i == 3 {
                lowest.max(need - sum)
            } else {
                lowest
            };
            sum += i32::from(level);
            if c.seat == me {
                continue;
            }
            let l = f64::from(level);
            out.push(Clue {
                seat: c.seat,
                strain: Some(trump),
                low: (i32::from(level) > forced).then_some(l - 1.0),
                high: Some(l + 1.0),
                long: None,
            });
        }
        return out;
    }
    let Some(contract) = &rules.contract else {
        return out;
    };
    let strains = contract.bids == BidForm::Strains;
    // The standing bid as the auction goes: its level and seat.
    let mut standing: Option<(u8, Seat)> = None;
    for c in &view.auction {
        let call = Move::parse(DecisionKind::Call, &c.call);
        match call {
            Ok(Move::Call(Call::Bid(b))) => {
                let level = f64::from(b.level.get());
                if c.seat != me {
                    let strain = if strains { b.strain } else { None };
                    out.push(Clue {
                        seat: c.seat,
                        strain,
                        low: Some(level - PARTNER_SHARE - 0.5),
                        high: None,
                        long: strain.and_then(Strain::trump).map(|s| (s, 4)),
                    });
                }
                standing = Some((b.level.get(), c.seat));
            }
            Ok(Move::Call(Call::Pass)) if c.seat != me => {
                // Passing a partner's high bid says nothing; otherwise the next bid was too much.
                let partner_high = standing.is_some_and(|(_, s)| s == c.seat.partner());
                if !partner_high {
                    let next = standing
                        .map_or(7.0, |(l, _)| f64::from(l) + if strains { 0.0 } else { 1.0 });
                    out.push(Clue {
                        seat: c.seat,
                        strain: None,
                        low: None,
                        high: Some(next - PARTNER_SHARE + 1.0),
                        long: None,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

fn level_of(call: &str) -> Option<u8> {
    call.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Card;

    fn hand(cards: &str) -> CardSet {
        cards
            .split_whitespace()
            .map(|c| serde_json::from_value::<Card>(serde_json::json!(c)).unwrap())
            .collect()
    }

    #[test]
    fn strong_hands_estimate_more_tricks_than_weak_ones() {
        let strong = hand("AS KS QS JS TS AH KH AD KD AC 2C 3C 4C");
        let weak = hand("2S 3S 4S 2H 3H 4H 5H 2D 3D 4D 2C 3C 5C");
        let spades = Strain::Trump(Suit::Spades);
        assert!(
            estimate(strong, spades) >= 9.0,
            "{}",
            estimate(strong, spades)
        );
        assert!(estimate(weak, spades) < 1.0, "{}", estimate(weak, spades));
        // Long trumps are tricks; the same suit as a side suit much less.
        assert!(estimate(strong, spades) > estimate(strong, Strain::Trump(Suit::Clubs)));
    }

    #[test]
    fn a_clue_measures_how_far_a_hand_is_from_the_call() {
        let strong = hand("AS KS QS JS TS AH KH AD KD AC 2C 3C 4C");
        let weak = hand("2S 3S 4S 2H 3H 4H 5H 2D 3D 4D 2C 3C 5C");
        let bid = Clue {
            seat: Seat::S1,
            strain: Some(Strain::Trump(Suit::Spades)),
            low: Some(5.0),
            high: None,
            long: Some((Suit::Spades, 4)),
        };
        assert_eq!(bid.distance(strong), 0.0);
        // 5 tricks short and one spade short of the named length.
        assert!(bid.distance(weak) > 5.0, "{}", bid.distance(weak));
        let pass = Clue {
            seat: Seat::S1,
            strain: None,
            low: None,
            high: Some(4.5),
            long: None,
        };
        assert_eq!(pass.distance(weak), 0.0);
        assert!(pass.distance(strong) > 4.0);
    }
}
