//! The pure rules core: cards, deals, auctions, play, scoring and game end for the four games.
//!
//! No I/O, threads, clocks, processes or serde_json in here (a test in `tests/` enforces it):
//! the referee, the simulator and replay all drive the same [`Game`] state machine.

pub mod auction;
pub mod bid;
pub mod card;
pub mod card_set;
pub mod deal;
pub mod game;
pub mod options;
pub mod score;
pub mod seat;
pub mod trick;
pub mod view;

pub use bid::{Bid, Call, DecisionKind, Level, Move, MoveList, MoveText, ParseMoveError, Strain};
pub use card::{Card, ParseCardError, Rank, Suit};
pub use card_set::CardSet;
pub use deal::{Deal, DealError, DealSecret, DealSource};
pub use game::{
    Applied, Contract, Decision, EndReason, Game, GameResult, Hand, HandEnd, HandResult,
    IllegalMove, IllegalReason, Phase, StartScores, ThrowInReason,
};
pub use options::{
    AuctionForm, BidForm, BothReach, ContractRules, Doubling, IndividualRules, Kaboot, PartnerRule,
    Redeal, Renege, Rules, RulesError, RulesKind, SlowPlay, Steps, StrainOrder, Thirteen,
    TrumpChoice, PRESETS,
};
pub use seat::{BySeat, ByTeam, Seat, Team};
pub use trick::Trick;
pub use view::View;
