//! The parts of protocol.md's messages the pimc bot reads (it ignores events and any field it
//! does not use, so additions to the protocol do not break it).

use serde::Deserialize;

use crate::rules::{Card, Rules, Seat};

/// Any line from the referee; only `hello`, `request` and `game_end` matter here.
#[derive(Debug, Deserialize)]
pub struct Incoming {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub seat: Option<Seat>,
    #[serde(default)]
    pub rules: Option<Rules>,
    #[serde(default)]
    pub id: Option<u64>,
    #[serde(default)]
    pub decision: Option<String>,
    #[serde(default)]
    pub legal: Vec<String>,
    #[serde(default)]
    pub view: Option<ViewIn>,
    #[serde(default)]
    pub time: Option<TimeIn>,
}

#[derive(Debug, Deserialize)]
pub struct TimeIn {
    /// A request's limit for this reply (the `hello`'s `time` has other fields).
    #[serde(default)]
    pub limit_ms: Option<u64>,
}

/// A request's `view`.
#[derive(Debug, Deserialize)]
pub struct ViewIn {
    pub seat: Seat,
    pub dealer: Seat,
    /// Deals so far, this one included (redeals and throw-ins count): the hand cap's clock.
    #[serde(default)]
    pub hand_number: Option<u32>,
    pub hand: Vec<Card>,
    #[serde(default)]
    pub auction: Vec<CallIn>,
    #[serde(default)]
    pub contract: Option<ContractIn>,
    #[serde(default)]
    pub trump: Option<String>,
    #[serde(default)]
    pub tricks: Vec<TrickIn>,
    #[serde(default)]
    pub current_trick: Option<TrickIn>,
    pub cards_left: [u8; 4],
    /// Each seat's tricks won this hand (the card play weighs tricks by the score).
    #[serde(default)]
    pub tricks_won: [u8; 4],
    #[serde(default)]
    pub team_scores: Option<[i32; 2]>,
    /// 400 and Forty-One: each player's score (it sets the lowest bid each could make).
    #[serde(default)]
    pub seat_scores: Option<[i32; 4]>,
}

#[derive(Debug, Deserialize)]
pub struct CallIn {
    pub seat: Seat,
    pub call: String,
}

#[derive(Debug, Deserialize)]
pub struct ContractIn {
    pub declarer: Seat,
    /// The contract's bid, as the legal list writes calls ("9", "10H").
    #[serde(default)]
    pub bid: Option<String>,
    /// 1, 2 or 4: undoubled, doubled, redoubled.
    #[serde(default)]
    pub multiplier: Option<i32>,
}

#[derive(Debug, Deserialize)]
pub struct TrickIn {
    pub leader: Seat,
    pub cards: Vec<Card>,
}
