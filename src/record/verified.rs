//! The verified game: what a record that replayed without a disagreement holds, hand by hand,
//! for the transcript, the HTML page and `replay --json` (its JSON is the serialized form).

use serde::Serialize;

use super::format::Header;
use crate::protocol::{FaultAction, FaultKind, GameEndMsg, HandEndMsg};
use crate::rules::{BySeat, Card, CardSet, DecisionKind, Level, Seat, Strain};

/// A game whose record replayed without a disagreement.
#[derive(Clone, Debug, Serialize)]
pub struct VerifiedGame {
    /// The record's header, as read (its fields come first in the JSON form, inline).
    #[serde(flatten)]
    pub header: Header,
    /// Faults before the first deal (the handshake).
    pub faults: Vec<FaultEntry>,
    pub hands: Vec<VerifiedHand>,
    /// True when the record ends with its result; false for an `aborted` record.
    pub finished: bool,
    pub result: Option<GameEndMsg>,
    /// The reason of an `aborted` record.
    pub aborted: Option<String>,
}

/// One hand, from its deal to its `hand_end` (`end` is `null` for a hand cut short by an
/// abort or a forfeit).
#[derive(Clone, Debug, Serialize)]
pub struct VerifiedHand {
    pub number: u32,
    pub dealer: Seat,
    /// The four hands as dealt, seat 0 first.
    pub hands: BySeat<CardSet>,
    /// Throw-in decisions (`throw-in` or `keep`), in order.
    pub throw_in: Vec<SeatMove>,
    /// Calls in the order made (in 400 and Forty-One: each player's bid).
    pub auction: Vec<SeatMove>,
    /// Contract games: the contract, once the auction was won.
    pub contract: Option<ContractInfo>,
    /// 400 / Forty-One: each seat's bid.
    pub bids: Option<BySeat<Option<Level>>>,
    /// The trump suit (`NT` for No Trump), once known.
    pub trump: Option<Strain>,
    pub tricks: Vec<TrickInfo>,
    /// The trick on the table when the hand stopped (a forfeit or an abort in the middle of a
    /// trick): its number, leader and the cards played to it. `null` once every trick begun
    /// was completed, so `tricks` and this hold every card the moves played.
    pub unfinished_trick: Option<UnfinishedTrick>,
    /// Every move of the hand, as recorded.
    pub moves: Vec<MoveEntry>,
    pub faults: Vec<FaultEntry>,
    /// The hand's result as recorded and checked: deltas and totals.
    pub end: Option<HandEndMsg>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatMove {
    pub seat: Seat,
    #[serde(rename = "move")]
    pub mv: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ContractInfo {
    pub declarer: Seat,
    /// The bid's text, like `8` or `9H`.
    pub bid: String,
    /// 1, 2 (doubled) or 4 (redoubled).
    pub multiplier: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TrickInfo {
    /// 1 to 13.
    pub number: u8,
    pub leader: Seat,
    /// In the order played, the leader's first.
    pub cards: Vec<Card>,
    pub winner: Seat,
}

/// A trick begun and not completed: no winner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnfinishedTrick {
    /// 1 to 13.
    pub number: u8,
    pub leader: Seat,
    /// In the order played, the leader's first (one to three cards).
    pub cards: Vec<Card>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveEntry {
    pub seat: Seat,
    pub decision: DecisionKind,
    #[serde(rename = "move")]
    pub mv: String,
    pub ms: u64,
    pub substituted: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FaultEntry {
    pub hand_number: u32,
    pub seat: Seat,
    pub kind: FaultKind,
    pub detail: String,
    pub action: FaultAction,
}

/// "team 1 wins by target after 9 hands", "a draw (hand-cap) after 200 hands".
pub fn result_text(r: &GameEndMsg) -> String {
    match r.winner {
        Some(t) => format!(
            "team {t} wins by {} after {}",
            r.reason,
            crate::hands(r.hands)
        ),
        None => format!("a draw ({}) after {}", r.reason, crate::hands(r.hands)),
    }
}
