//! Auctions: which calls are legal and when an auction ends, for the three contract auction
//! forms and the individual bids of 400 and Forty-One.

use super::bid::{Bid, Call, Level, Move, MoveList, Strain};
use super::card::Suit;
use super::card_set::CardSet;
use super::options::{AuctionForm, BidForm, ContractRules, Doubling, IndividualRules};
use super::seat::{BySeat, Seat};

/// Per-seat facts fixed at the deal that change what a seat may bid; some are announced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatFlags {
    /// docs/rules.md#contract-throw-in-weak-hand: no ace, no king in a suit of 2+, no queen in
    /// 3+, no jack in 4+.
    pub weak: bool,
    /// docs/rules.md#contract-throw-in-long-suit: 10+ cards in one suit (pass, 13 or throw in).
    pub long_suit: bool,
    /// docs/rules.md#contract-dakak: 4 or fewer high-card points.
    pub dakak: bool,
    /// docs/rules.md#contract-out-of-call: 9 or more cards in one suit; may not bid.
    pub out_of_call: bool,
}

impl SeatFlags {
    pub fn of(hand: CardSet) -> SeatFlags {
        use super::card::Rank;
        let longest = Suit::ALL
            .iter()
            .map(|&s| hand.count_suit(s))
            .max()
            .unwrap_or(0);
        let weak = Suit::ALL.iter().all(|&s| {
            let n = hand.count_suit(s);
            let stopper = hand.has(Rank::Ace, s)
                || (n >= 2 && hand.has(Rank::King, s))
                || (n >= 3 && hand.has(Rank::Queen, s))
                || (n >= 4 && hand.has(Rank::Jack, s));
            !stopper
        });
        SeatFlags {
            weak,
            long_suit: longest >= 10,
            dakak: hand.high_card_points() <= 4,
            out_of_call: longest >= 9,
        }
    }
}

/// State of a contract auction (classic and Egyptian).
#[derive(Clone, Debug)]
pub struct ContractAuction {
    pub dealer: Seat,
    pub to_speak: Seat,
    pub calls: Vec<(Seat, Call)>,
    pub high: Option<(Seat, Bid)>,
    pub multiplier: u8,
    /// Seats out of an elimination auction (bit per seat).
    out: u8,
    /// Calls since the last bid that were not bids (open auctions).
    non_bids: u8,
}

/// How a call left the auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuctionState {
    Open,
    Won {
        declarer: Seat,
        bid: Bid,
        multiplier: u8,
    },
    AllPassed,
}

impl ContractAuction {
    pub fn new(dealer: Seat) -> ContractAuction {
        ContractAuction {
            dealer,
            to_speak: dealer.next(),
            calls: Vec::with_capacity(64),
            high: None,
            multiplier: 1,
            out: 0,
            non_bids: 0,
        }
    }

    /// Starts a new auction, keeping the call buffer's memory.
    pub fn reset(&mut self, dealer: Seat) {
        self.calls.clear();
        self.dealer = dealer;
        self.to_speak = dealer.next();
        self.high = None;
        self.multiplier = 1;
        self.out = 0;
        self.non_bids = 0;
    }

    /// The lowest bid level `seat` may open at, after the Dakak option (our reading,
    /// docs/rules.md#dakak-reading: a Dakak team bids from 8; its opponents from 5 of the
    /// lowest strain, or 6).
    fn min_level(rules: &ContractRules, flags: &BySeat<SeatFlags>, seat: Seat) -> u8 {
        if !rules.dakak {
            return 7;
        }
        let own = flags[seat].dakak || flags[seat.partner()].dakak;
        let theirs = flags[seat.next()].dakak || flags[seat.plus(3)].dakak;
        match (own, theirs) {
            (true, _) => 8,
            (false, true) => 5,
            _ => 7,
        }
    }

    fn bid_allowed(
        &self,
        rules: &ContractRules,
        flags: &BySeat<SeatFlags>,
        seat: Seat,
        b: Bid,
    ) -> bool {
        if rules.out_of_call && flags[seat].out_of_call {
            return false;
        }
        if rules.throw_in_long_suit && flags[seat].long_suit && b.level.get() != 13 {
            return false;
        }
        let min = Self::min_level(rules, flags, seat);
        if b.level.get() < min {
            return false;
        }
        // Dakak opponents open at 5 only in the lowest strain ("5 of clubs or 6").
        if min == 5 && b.level.get() == 5 {
            if let Some(s) = b.strain {
                if Some(&s) != rules.strains().first() {
                    return false;
                }
            }
        }
        match self.high {
            None => true,
            Some((_, high)) => {
                let dealer_may_equal =
                    rules.auction == AuctionForm::SingleRound && seat == self.dealer;
                rules.beats(b, high) || (dealer_may_equal && b == high)
            }
        }
    }

    /// The lowest level the seat to speak could bid: bids below its opening minimum or below
    /// the high bid's level never pass [`Self::bid_allowed`], so listing them is skipped.
    fn lowest_level(&self, rules: &ContractRules, flags: &BySeat<SeatFlags>) -> u8 {
        let min = Self::min_level(rules, flags, self.to_speak);
        self.high.map_or(min, |(_, high)| min.max(high.level.get()))
    }

    /// Every bid of the rules' form from level `from` up, low to high.
    fn each_bid(rules: &ContractRules, from: u8, mut f: impl FnMut(Bid)) {
        for level in from..=13 {
            let level = Level::new(level).expect("1..=13");
            match rules.bids {
                BidForm::Numbers => f(Bid {
                    level,
                    strain: None,
                }),
                BidForm::Strains => {
                    for &s in rules.strains() {
                        f(Bid {
                            level,
                            strain: Some(s),
                        })
                    }
                }
            }
        }
    }

    /// The legal calls of the seat to speak, in a fixed order (pass, bids low to high, double,
    /// redouble): exactly the calls [`ContractAuction::is_legal`] accepts.
    pub fn legal(&self, rules: &ContractRules, flags: &BySeat<SeatFlags>, out: &mut MoveList) {
        let seat = self.to_speak;
        let start = out.len();
        out.push(Move::Call(Call::Pass));
        Self::each_bid(rules, self.lowest_level(rules, flags), |b| {
            if self.bid_allowed(rules, flags, seat, b) {
                out.push(Move::Call(Call::Bid(b)));
            }
        });
        let any_bid = out.len() > start + 1;
        if any_bid && self.dealer_must_bid(rules) {
            out.remove(start);
        }
        if self.may_double(rules) {
            out.push(Move::Call(Call::Double));
        }
        if self.may_redouble(rules) {
            out.push(Move::Call(Call::Redouble));
        }
    }

    /// Whether the seat to speak may make `call`, without listing the legal calls (the game
    /// checks every call it applies).
    pub fn is_legal(&self, rules: &ContractRules, flags: &BySeat<SeatFlags>, call: Call) -> bool {
        let seat = self.to_speak;
        match call {
            Call::Pass => !(self.dealer_must_bid(rules) && self.any_bid_allowed(rules, flags)),
            Call::Bid(b) => Self::is_offered(rules, b) && self.bid_allowed(rules, flags, seat, b),
            Call::Double => self.may_double(rules),
            Call::Redouble => self.may_redouble(rules),
        }
    }

    /// docs/rules.md#contract-dealer-forced-7: with no bid yet, the dealer must bid
    /// (only when the dealer may bid at all: the caller checks that).
    fn dealer_must_bid(&self, rules: &ContractRules) -> bool {
        rules.dealer_forced_7 && self.high.is_none() && self.to_speak == self.dealer
    }

    fn may_double(&self, rules: &ContractRules) -> bool {
        self.high.is_some_and(|(high_seat, _)| {
            rules.doubling != Doubling::Off
                && high_seat.team() != self.to_speak.team()
                && self.multiplier == 1
        })
    }

    fn may_redouble(&self, rules: &ContractRules) -> bool {
        self.high.is_some_and(|(high_seat, _)| {
            rules.doubling == Doubling::Redouble
                && high_seat.team() == self.to_speak.team()
                && self.multiplier == 2
        })
    }

    /// Whether `b` has the form of a bid under these rules (one of [`Self::each_bid`]'s).
    fn is_offered(rules: &ContractRules, b: Bid) -> bool {
        match (rules.bids, b.strain) {
            (BidForm::Numbers, None) => true,
            (BidForm::Strains, Some(s)) => rules.strains().contains(&s),
            _ => false,
        }
    }

    /// Whether the seat to speak may make any bid.
    fn any_bid_allowed(&self, rules: &ContractRules, flags: &BySeat<SeatFlags>) -> bool {
        let mut any = false;
        Self::each_bid(rules, self.lowest_level(rules, flags), |b| {
            any = any || self.bid_allowed(rules, flags, self.to_speak, b)
        });
        any
    }

    /// Records a call already known to be legal and says whether the auction is over.
    pub fn apply(&mut self, rules: &ContractRules, call: Call) -> AuctionState {
        let seat = self.to_speak;
        self.calls.push((seat, call));
        match call {
            Call::Bid(b) => {
                self.high = Some((seat, b));
                self.multiplier = 1;
                self.non_bids = 0;
            }
            Call::Double => {
                self.multiplier = 2;
                self.non_bids += 1;
            }
            Call::Redouble => {
                self.multiplier = 4;
                self.non_bids += 1;
            }
            Call::Pass => {
                self.non_bids += 1;
                if rules.auction == AuctionForm::Elimination {
                    self.out |= 1 << seat.index();
                }
            }
        }
        let done = match rules.auction {
            AuctionForm::SingleRound => self.calls.len() == 4,
            AuctionForm::Open => self.non_bids >= 4,
            AuctionForm::Elimination => {
                let out = self.out.count_ones();
                out == 4 || (out == 3 && self.high.is_some())
            }
        };
        if done {
            return match self.high {
                Some((declarer, bid)) => AuctionState::Won {
                    declarer,
                    bid,
                    multiplier: self.multiplier,
                },
                None => AuctionState::AllPassed,
            };
        }
        let mut next = seat.next();
        if rules.auction == AuctionForm::Elimination {
            while self.out & (1 << next.index()) != 0 {
                next = next.next();
            }
        }
        self.to_speak = next;
        AuctionState::Open
    }
}

/// The legal bids of a 400 / Forty-One player with `own_score`: from the minimum for that score
/// up to 13 (docs/rules.md#individual-min-bid; no pass).
pub fn individual_legal(rules: &IndividualRules, own_score: i32, out: &mut MoveList) {
    for level in rules.min_bid.at(own_score)..=13 {
        let level = Level::new(level).expect("validated 1..=13");
        out.push(Move::Call(Call::Bid(Bid {
            level,
            strain: None,
        })));
    }
}

/// Whether a 400 / Forty-One player with `own_score` may make `call` ([`individual_legal`]'s
/// calls).
pub fn individual_is_legal(rules: &IndividualRules, own_score: i32, call: Call) -> bool {
    match call {
        Call::Bid(Bid {
            level,
            strain: None,
        }) => level.get() >= rules.min_bid.at(own_score),
        _ => false,
    }
}

/// The bid total a hand needs to be played, from the highest score at the table; and the
/// total the bids make (bids of 7+ count double with `sum-counts-big-bids-double`).
pub fn individual_sum(
    rules: &IndividualRules,
    bids: BySeat<Level>,
    highest_score: i32,
) -> (u32, u32) {
    let sum = bids
        .0
        .iter()
        .map(|l| {
            let v = u32::from(l.get());
            if rules.sum_counts_big_bids_double && v >= 7 {
                2 * v
            } else {
                v
            }
        })
        .sum();
    (sum, u32::from(rules.bid_sum.at(highest_score)))
}

/// The strain a `Move::Trump` may name in classic: any suit, and No Trump with the option.
pub fn trump_choices(rules: &ContractRules, out: &mut MoveList) {
    for s in Suit::ALL {
        out.push(Move::Trump(Strain::Trump(s)));
    }
    if rules.no_trump {
        out.push(Move::Trump(Strain::NoTrump));
    }
}

/// Whether the declarer may name `strain` ([`trump_choices`]'s strains).
pub fn trump_is_legal(rules: &ContractRules, strain: Strain) -> bool {
    match strain {
        Strain::Trump(_) => true,
        Strain::NoTrump => rules.no_trump,
    }
}
