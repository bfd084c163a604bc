//! What one seat may know: its own cards and everything public. The protocol sends this.
//!
//! A view is built only from the seat's own hand and public facts, so no view can hold another
//! player's unplayed card. A throw-in decision to keep the hand is not public either (it would
//! tell the table the hand was weak).

use std::ops::Deref;

use serde::{Serialize, Serializer};

use super::bid::{Call, Level, MoveText, Strain};
use super::card::Card;
use super::card_set::CardSet;
use super::game::{Decision, Game, Phase};
use super::seat::{BySeat, ByTeam, Seat};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub seat: Seat,
    /// Deals so far, this one included (redeals and throw-ins count).
    pub hand_number: u32,
    pub dealer: Seat,
    pub phase: &'static str,
    /// Team scores (contract games) or the partnership totals (400 / 41).
    pub team_scores: ByTeam<i32>,
    /// Individual scores in 400 / Forty-One; absent in contract games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat_scores: Option<BySeat<i32>>,
    pub hand: CardSet,
    /// Public announcements made before the auction (docs/rules.md#contract-dakak,
    /// docs/rules.md#contract-out-of-call).
    pub announcements: Vec<Announcement>,
    pub auction: Vec<SeatCall>,
    /// 400 / Forty-One: each seat's bid once made.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bids: Option<BySeat<Option<Level>>>,
    pub contract: Option<ContractView>,
    /// `null` until known (classic before trump is named, or before the first lead under
    /// trump-by-first-lead).
    pub trump: Option<Strain>,
    pub tricks: Vec<TrickView>,
    pub current_trick: TrickView,
    pub tricks_won: BySeat<u8>,
    /// Ten-second-rule strikes this hand.
    pub strikes: BySeat<u8>,
    /// Cards each seat still holds (a count, not the cards).
    pub cards_left: BySeat<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Announcement {
    pub seat: Seat,
    /// `dakak` or `out-of-call`.
    pub kind: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SeatCall {
    pub seat: Seat,
    pub call: MoveText,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ContractView {
    pub declarer: Seat,
    pub bid: MoveText,
    pub multiplier: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TrickView {
    pub leader: Seat,
    pub cards: TrickCards,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Seat>,
}

/// The cards of one trick in play order (0 to 4), held in place: a request carries every trick
/// of the hand, and a heap allocation per trick was a large part of building it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TrickCards {
    cards: [Card; 4],
    len: u8,
}

impl TrickCards {
    pub fn new(played: impl IntoIterator<Item = Card>) -> TrickCards {
        let mut t = TrickCards {
            cards: [Card::from_index(0).expect("card 0"); 4],
            len: 0,
        };
        for c in played.into_iter().take(4) {
            t.cards[t.len as usize] = c;
            t.len += 1;
        }
        t
    }
}

impl Deref for TrickCards {
    type Target = [Card];
    fn deref(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

impl std::fmt::Debug for TrickCards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for TrickCards {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl View {
    /// A view of nothing yet, to be filled by [`Game::view_into`].
    pub fn empty() -> View {
        View {
            seat: Seat::ALL[0],
            hand_number: 0,
            dealer: Seat::ALL[0],
            phase: "deal",
            team_scores: ByTeam([0, 0]),
            seat_scores: None,
            hand: CardSet::EMPTY,
            announcements: Vec::new(),
            auction: Vec::new(),
            bids: None,
            contract: None,
            trump: None,
            tricks: Vec::new(),
            current_trick: TrickView {
                leader: Seat::ALL[0],
                cards: TrickCards::new([]),
                winner: None,
            },
            tricks_won: BySeat([0; 4]),
            strikes: BySeat([0; 4]),
            cards_left: BySeat([0; 4]),
        }
    }
}

impl Game {
    /// `seat`'s view of the game now.
    pub fn view(&self, seat: Seat) -> View {
        let mut v = View::empty();
        self.view_into(seat, &mut v);
        v
    }

    /// Writes `seat`'s view of the game now into `v`, whatever it held, reusing its lists'
    /// memory: the referee builds a view for every request.
    pub fn view_into(&self, seat: Seat, v: &mut View) {
        let h = self.hand();
        let individual = self.individual_rules().is_some();
        let dealt = h.number > 0 && self.phase() != Phase::Deal;
        v.announcements.clear();
        if let (Some(c), true) = (self.contract_rules(), dealt) {
            for s in Seat::ALL {
                if c.dakak && h.flags[s].dakak {
                    v.announcements.push(Announcement {
                        seat: s,
                        kind: "dakak",
                    });
                }
                if c.out_of_call && h.flags[s].out_of_call {
                    v.announcements.push(Announcement {
                        seat: s,
                        kind: "out-of-call",
                    });
                }
            }
        }
        v.auction.clear();
        if dealt && individual {
            for i in 1..=4 {
                let s = h.dealer.plus(i);
                if let Some(l) = h.bids[s] {
                    v.auction.push(SeatCall {
                        seat: s,
                        call: Call::Bid(super::bid::Bid {
                            level: l,
                            strain: None,
                        })
                        .text(),
                    });
                }
            }
        } else if dealt {
            v.auction.extend(
                h.auction
                    .calls
                    .iter()
                    .map(|&(s, c): &(Seat, Call)| SeatCall {
                        seat: s,
                        call: c.text(),
                    }),
            );
        }
        v.tricks.clear();
        if dealt {
            v.tricks.extend(h.tricks.iter().map(|(t, w)| TrickView {
                leader: t.leader,
                cards: TrickCards::new(t.plays().map(|(_, c)| c)),
                winner: Some(*w),
            }));
        }
        v.seat = seat;
        v.hand_number = h.number;
        v.dealer = self.dealer();
        v.phase = match self.phase() {
            Phase::Deal => "deal",
            Phase::ThrowIn => "throw-in",
            Phase::Auction => "auction",
            Phase::Trump => "trump",
            Phase::Play => "play",
            Phase::Over => "over",
        };
        v.team_scores = self.team_totals();
        v.seat_scores = individual.then(|| self.seat_scores());
        v.hand = if dealt || self.is_over() {
            h.held[seat]
        } else {
            CardSet::EMPTY
        };
        v.bids = (individual && dealt).then_some(h.bids);
        v.contract = h.contract.filter(|_| dealt).map(|c| ContractView {
            declarer: c.declarer,
            bid: c.bid.text(),
            multiplier: c.multiplier,
        });
        v.trump = h.trump.filter(|_| dealt);
        v.current_trick = TrickView {
            leader: h.trick.leader,
            cards: if dealt {
                TrickCards::new(h.trick.plays().map(|(_, c)| c))
            } else {
                TrickCards::new([])
            },
            winner: None,
        };
        v.tricks_won = h.tricks_won;
        v.strikes = h.strikes;
        v.cards_left = BySeat(Seat::ALL.map(|s| if dealt { h.held[s].len() } else { 0 }));
    }

    /// The decision pending for `seat`, if it is that seat's turn.
    pub fn decision_for(&self, seat: Seat) -> Option<Decision> {
        self.decision().filter(|d| d.seat == seat)
    }
}
